package optimal

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestLUVecSameBits holds luVec.solve against its oracle, gonum's
// mat.LU.SolveVecTo, bit for bit (the same operations in the same order),
// on seeded random matrices with and without pivoting and zeros, both
// transposes, and the condition error of a singular matrix.
func TestLUVecSameBits(t *testing.T) {
	rnd := rand.New(rand.NewPCG(20, 3))
	for _, c := range []struct {
		n     int
		zeros float64 // fraction of zero entries
		diag  float64 // added to the diagonal (large: no pivoting)
	}{
		{1, 0, 0}, {2, 0, 0}, {7, 0, 0}, {7, 0.5, 0}, {30, 0.3, 0}, {30, 0.8, 10}, {64, 0.9, 1},
	} {
		a := randomDense(rnd, c.n, c.zeros, c.diag)
		var lu mat.LU
		lu.Factorize(a)
		lv := newLUVec(&lu)
		for _, trans := range []bool{false, true} {
			b := make([]float64, c.n)
			for i := range b {
				b[i] = rnd.NormFloat64()
			}
			var want mat.VecDense
			werr := lu.SolveVecTo(&want, trans, mat.NewVecDense(c.n, b))
			got, gerr := lv.solve(b, trans)
			if (werr == nil) != (gerr == nil) {
				t.Fatalf("n = %d, trans = %v: error %v, want %v", c.n, trans, gerr, werr)
			}
			for i, w := range want.RawVector().Data {
				if math.Float64bits(got[i]) != math.Float64bits(w) {
					t.Fatalf("n = %d, trans = %v: x[%d] = %v, want %v (bits)", c.n, trans, i, got[i], w)
				}
			}
		}
	}
	// Singular: the condition error of SolveVecTo.
	a := mat.NewDense(3, 3, []float64{1, 2, 3, 2, 4, 6, 1, 0, 1})
	var lu mat.LU
	lu.Factorize(a)
	lv := newLUVec(&lu)
	var want mat.VecDense
	werr := lu.SolveVecTo(&want, false, mat.NewVecDense(3, []float64{1, 1, 1}))
	_, gerr := lv.solve([]float64{1, 1, 1}, false)
	if werr == nil || gerr == nil {
		t.Fatalf("singular: errors %v and %v, want both", gerr, werr)
	}
}

// TestLUVecSolveTo holds luVec.solveTo (row dot products) against
// gonum's mat.LU.SolveVecTo on seeded random matrices, with and without
// pivoting and zeros: the two sum in different orders, so they agree to
// rounding, 1e-13·n relative in the ∞-norm on these well-conditioned
// matrices; likewise solveUnitTo against solveTo of each unit vector.
// The power check: the solve with one pivot of the permutation swapped
// must be rejected at that tolerance.
func TestLUVecSolveTo(t *testing.T) {
	rnd := rand.New(rand.NewPCG(20, 11))
	for _, c := range []struct {
		n     int
		zeros float64
		diag  float64
	}{
		{1, 0, 0}, {2, 0, 1}, {7, 0, 0}, {30, 0.3, 3}, {64, 0.9, 1}, {200, 0, 20},
	} {
		a := randomDense(rnd, c.n, c.zeros, c.diag)
		var lu mat.LU
		lu.Factorize(a)
		lv := newLUVec(&lu)
		b := make([]float64, c.n)
		for i := range b {
			b[i] = rnd.NormFloat64()
		}
		var want mat.VecDense
		if err := lu.SolveVecTo(&want, false, mat.NewVecDense(c.n, b)); err != nil {
			t.Fatalf("n = %d: %v", c.n, err)
		}
		tol := 1e-13 * float64(c.n)
		got := make([]float64, c.n)
		lv.solveTo(got, b)
		if d := relInf(got, want.RawVector().Data); d > tol {
			t.Errorf("n = %d: solveTo differs from SolveVecTo by %.3g relative, want ≤ %.3g", c.n, d, tol)
		}
		// solveUnitTo: column i of A⁻¹, against solveTo of e_i, each i.
		e, col := make([]float64, c.n), make([]float64, c.n)
		for i := range c.n {
			clear(e)
			e[i] = 1
			lv.solveTo(got, e)
			lv.solveUnitTo(col, i)
			if d := relInf(col, got); d > tol {
				t.Errorf("n = %d: solveUnitTo(%d) differs from solveTo(e_%d) by %.3g relative, want ≤ %.3g", c.n, i, i, d, tol)
			}
		}
		if c.n > 1 {
			bad := lv
			bad.perm = append([]int(nil), lv.perm...)
			bad.perm[0], bad.perm[1] = bad.perm[1], bad.perm[0]
			if bad.perm[0] == bad.perm[1] || b[0] == b[1] {
				continue
			}
			bad.solveTo(got, b)
			if d := relInf(got, want.RawVector().Data); d <= tol {
				t.Errorf("n = %d: a wrong permutation passes (%.3g ≤ %.3g)", c.n, d, tol)
			}
		}
	}
}

// randomDense returns an n × n matrix of standard normal entries from
// rnd, each left zero with probability zeros, with diag added to the
// diagonal (large: no pivoting).
func randomDense(rnd *rand.Rand, n int, zeros, diag float64) *mat.Dense {
	a := mat.NewDense(n, n, nil)
	for i := range n {
		for j := range n {
			if rnd.Float64() >= zeros {
				a.Set(i, j, rnd.NormFloat64())
			}
		}
		a.Set(i, i, a.At(i, i)+diag)
	}
	return a
}

// relInf returns ‖got − want‖∞ / ‖want‖∞.
func relInf(got, want []float64) float64 {
	d, m := 0.0, 0.0
	for i, w := range want {
		d, m = max(d, math.Abs(got[i]-w)), max(m, math.Abs(w))
	}
	return d / m
}

// TestNzRuns holds nzRuns against its definition on seeded random rows
// (isolated nonzeros, runs of them, gaps of every length around runGap,
// dense and empty rows, a NaN entry): every nonzero entry lies in
// exactly one run, the runs are ordered, within the row's columns, start
// and end on nonzeros and are runGap or more zeros apart; and dot is the
// dense dot product exactly on small-integer entries (every sum exact,
// so the order does not matter). The power check: the same runs with
// one run left out must give another dot product on every row of two
// runs or more.
func TestNzRuns(t *testing.T) {
	rnd := rand.New(rand.NewPCG(20, 29))
	var r nzRuns
	var rows [][]float64
	for _, c := range []struct {
		n int
		p float64 // probability of starting a run of nonzeros
	}{
		{0, 0}, {1, 1}, {5, 0}, {40, 1}, {40, 0.05}, {200, 0.02}, {200, 0.2}, {500, 0.01},
	} {
		row := make([]float64, c.n)
		for j := 0; j < c.n; j++ {
			if rnd.Float64() < c.p {
				for l := rnd.IntN(12); l >= 0 && j < c.n; l-- { // a run, some of its entries zero
					if rnd.IntN(4) > 0 {
						row[j] = float64(rnd.IntN(19) - 9)
					}
					j++
				}
			}
		}
		rows = append(rows, row)
	}
	rows = append(rows, []float64{0, 0, 1, math.NaN(), 0})
	r.reset(len(rows))
	multi := 0                               // rows of two runs or more
	from := []int{0, 0, 3, 0, 0, 7, 1, 0, 2} // each row's first column
	for i, row := range rows {
		r.add(row, from[i])
	}
	for i, row := range rows {
		f := from[i]
		full := make([]float64, f+len(row)) // the row indexed by column
		copy(full[f:], row)
		runs := r.b[r.off[i]:r.off[i+1]]
		covered := make([]int, len(full))
		for p := 0; p < len(runs); p += 2 {
			lo, hi := runs[p], runs[p+1]
			if lo < f || hi > len(full) || lo >= hi || full[lo] == 0 || full[hi-1] == 0 {
				t.Fatalf("row %d: run [%d, %d) outside [%d, %d) or not from nonzero to nonzero", i, lo, hi, f, len(full))
			}
			if p > 0 && lo-runs[p-1] < runGap {
				t.Errorf("row %d: runs %d zeros apart, want ≥ %d", i, lo-runs[p-1], runGap)
			}
			for j := lo; j < hi; j++ {
				covered[j]++
			}
		}
		x := make([]float64, len(full))
		want := 0.0
		for j, v := range full {
			if v != 0 && covered[j] != 1 {
				t.Errorf("row %d: entry %d (%v) in %d runs, want 1", i, j, v, covered[j])
			}
			x[j] = float64(rnd.IntN(9) - 4)
			want += v * x[j]
		}
		got := r.dot(i, full, x)
		if got != want && !(math.IsNaN(got) && math.IsNaN(want)) {
			t.Errorf("row %d: dot %v, want %v", i, got, want)
		}
		if len(runs) >= 4 {
			multi++
			x[runs[0]] = 1e6 // full[runs[0]] ≠ 0: the first run's part is not 0
			bad := nzRuns{off: []int{0, len(runs) - 2}, b: runs[2:]}
			if bad.dot(0, full, x) == r.dot(i, full, x) {
				t.Errorf("row %d: a run left out passes", i)
			}
		}
	}
	if multi < 3 {
		t.Errorf("%d rows of two runs or more, want ≥ 3 for the power check", multi)
	}
}

// TestFactorLU holds factorLU against mat.LU.Factorize and newLUVec on
// seeded random matrices (dense and sparse, with and without pivoting,
// ill-conditioned by a scaled column): the same factors and permutation
// bit for bit, and the condition estimate within 1e-8 relative of
// mat.LU.Cond (the same estimator, Dlacn2, whose solves round
// differently); and the estimate at most κ∞ (‖A⁻¹‖∞ is estimated from
// below; 1e-8 for the rounding) and at least κ∞/(10n) (a loose check:
// the estimator is usually within a factor of 3), κ∞ from
// mat.Dense.Inverse. A
// singular matrix gives an estimate above 1e15. The power check: the estimate of a
// matrix with one row scaled by 2 must be rejected at the tolerance.
func TestFactorLU(t *testing.T) {
	rnd := rand.New(rand.NewPCG(20, 31))
	var old luVec // storage reused from case to case
	for _, c := range []struct {
		n           int
		zeros, diag float64
		scale       float64 // column 0 scaled by it
	}{
		{1, 0, 0, 1}, {2, 0, 1, 1}, {7, 0, 0, 1}, {30, 0.3, 3, 1}, {64, 0.9, 1, 1}, {200, 0, 20, 1}, {300, 0.85, 2, 1e-9}, {120, 0.5, 0, 1e6},
	} {
		a := randomDense(rnd, c.n, c.zeros, c.diag)
		for i := range c.n {
			a.Set(i, 0, a.At(i, 0)*c.scale)
		}
		var lu mat.LU
		lu.Factorize(a)
		want := newLUVec(&lu)
		got := factorLU(old, a)
		old = got
		if !slices.Equal(got.perm, want.perm) {
			t.Fatalf("n = %d: permutation %v, want %v", c.n, got.perm, want.perm)
		}
		for i, w := range want.f {
			if math.Float64bits(got.f[i]) != math.Float64bits(w) {
				t.Fatalf("n = %d: factor entry %d = %v, want %v (bits)", c.n, i, got.f[i], w)
			}
		}
		if d := math.Abs(got.cond-want.cond) / want.cond; d > 1e-8 {
			t.Errorf("n = %d: cond %.10g, want %.10g (mat.LU.Cond), %.2g relative", c.n, got.cond, want.cond, d)
		}
		var inv mat.Dense
		if err := inv.Inverse(a); err == nil {
			kappa := mat.Norm(a, math.Inf(1)) * mat.Norm(&inv, math.Inf(1))
			if got.cond > kappa*(1+1e-8) || got.cond < kappa/float64(c.n)/10 {
				t.Errorf("n = %d: cond %.6g, want in [κ∞/(10n), κ∞] with κ∞ = %.6g", c.n, got.cond, kappa)
			}
		}
		if c.n > 1 {
			b := mat.DenseCopyOf(a)
			row := b.RawRowView(c.n - 1)
			for j := range row {
				row[j] *= 2
			}
			if bad := factorLU(luVec{}, b); math.Abs(bad.cond-want.cond)/want.cond <= 1e-8 {
				t.Errorf("n = %d: the estimate of another matrix passes (%.10g against %.10g)", c.n, bad.cond, want.cond)
			}
		}
	}
	sing := factorLU(luVec{}, mat.NewDense(3, 3, []float64{1, 2, 3, 2, 4, 6, 1, 0, 1}))
	if !(sing.cond > 1e15) {
		t.Errorf("singular: cond %v, want > 1e15", sing.cond)
	}
}
