package optimal

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/ckpt-markov/markov/scenario"
	"gonum.org/v1/gonum/mat"
)

// reducedLike returns a seeded random matrix with the structure of the
// reduced system of solveByEntries: nc configurations of up states (from
// 1 to w each), the row of up state u with 1 on the diagonal, the
// negated transition probabilities of an up segment on its own
// configuration's states, and those of the recoveries of its
// configuration's checkpoint count on the up states of targets (the
// configurations the recoveries lead into: a few, the same for every
// count with probability shared), then a dense column (g's) and a last
// row of one entry (h(x₀) = 0).
func reducedLike(rnd *rand.Rand, nc, w, targets int, shared float64) *mat.Dense {
	off := []int{0}
	for range nc {
		off = append(off, off[len(off)-1]+1+rnd.IntN(w))
	}
	nU := off[nc]
	a := mat.NewDense(nU+1, nU+1, nil)
	common := rnd.Perm(nc)[:targets]
	for c := range nc {
		tg := common
		if rnd.Float64() >= shared {
			tg = rnd.Perm(nc)[:targets]
		}
		for u := off[c]; u < off[c+1]; u++ {
			row := a.RawRowView(u)
			for v := off[c]; v < off[c+1]; v++ {
				row[v] -= 0.5 * rnd.Float64() / float64(off[c+1]-off[c])
			}
			for _, t := range tg {
				for v := off[t]; v < off[t+1]; v++ {
					row[v] -= 0.5 * rnd.Float64() / float64(targets*(off[t+1]-off[t]))
				}
			}
			row[u]++
			row[nU] = 1 + rnd.Float64()
		}
	}
	a.Set(nU, rnd.IntN(nU), 1)
	return a
}

// TestFactorSparse holds factorSparse against the dense solve of gonum's
// mat.LU on seeded random systems: general sparse ones (with pivoting,
// ill-conditioned by a scaled column) and ones of the structure of the
// reduced system (reducedLike), and on reduced systems of the
// evaluations of QR with reconfiguration (the last one factorised by
// SingleInterval at N = 16 and 32). Each is checked three ways:
//
//   - the factors: ‖P·A·Q − L·U‖max ≤ 1e-14·n·‖A‖max (the backward error
//     of an elimination with bounded growth, Higham 2002, Theorem 9.3);
//   - the solves (solveTo, and solveUnitTo of each of 40 unit columns)
//     against mat.LU.SolveVecTo: ‖x − x*‖∞/‖x*‖∞ ≤ 1e-15·n·κ (two
//     backward-stable solves differ by the perturbation bound, κ the
//     condition estimate of either);
//   - the condition estimate within [κ∞/(10n), κ∞(1 + 1e-8)] of κ∞ from
//     mat.Dense.Inverse (as TestFactorLU).
//
// The structured and reduced systems must take the sparse path (q set)
// and fill less than the dense factors (no more nonzero entries). Power
// checks: the factors with one diagonal entry of U scaled by 1 + 1e-6, and
// with one multiplier of L changed by 1e-6 of the largest, must fail the
// solve's tolerance. A structurally singular matrix (a zero column) falls
// back to factorLU, whose estimate is then above 1e15, and so does a
// matrix on which threshold pivoting grows by 10 a step (the backward
// error check), and one that grows by 9 a step in exact arithmetic
// (whose solve of A·x = A·1 rounds nothing: the check's right-hand side
// must not be that one).
func TestFactorSparse(t *testing.T) {
	rnd := rand.New(rand.NewPCG(20, 41))
	type tcase struct {
		name   string
		a      *mat.Dense
		sparse bool // must take the sparse path and fill no more than Dgetrf
	}
	var cases []tcase
	for _, c := range []struct {
		n           int
		zeros, diag float64
		scale       float64
	}{
		{2, 0, 1, 1}, {7, 0.5, 0, 1}, {40, 0.9, 1, 1}, {200, 0.97, 1, 1}, {300, 0.95, 0, 1e-6}, {150, 0.5, 0, 1},
	} {
		a := randomDense(rnd, c.n, c.zeros, c.diag)
		for i := range c.n {
			a.Set(i, 0, a.At(i, 0)*c.scale)
			if a.At(i, i) == 0 { // no structurally singular case here
				a.Set(i, i, 1)
			}
		}
		cases = append(cases, tcase{"random", a, false})
	}
	for _, c := range []struct {
		nc, w, targets int
		shared         float64
	}{{4, 3, 1, 1}, {20, 10, 4, 0.9}, {40, 30, 6, 0.8}, {64, 40, 8, 0.95}} {
		cases = append(cases, tcase{"structured", reducedLike(rnd, c.nc, c.w, c.targets, c.shared), true})
	}
	for _, n := range []int{16, 32} {
		cases = append(cases, tcase{"reduced", lastReduced(t, n), true})
	}
	var old luVec // storage reused from case to case
	for ci, c := range cases {
		n, _ := c.a.Dims()
		got := factorSparse(old, c.a)
		old = got
		if c.sparse {
			dense := factorLU(luVec{}, c.a)
			if got.q == nil || nonzeros(got.f) > nonzeros(dense.f) {
				t.Errorf("%s %d (n = %d): sparse path %v, %d nonzero factor entries against Dgetrf's %d", c.name, ci, n, got.q != nil, nonzeros(got.f), nonzeros(dense.f))
			}
		}
		checkFactors(t, c.name, ci, c.a, &got)
		checkSparseSolves(t, c.name, ci, rnd, c.a, got)
	}
	// Growth: each column j < n−1 holds 0.1 on the diagonal (the row of
	// fewer entries, within the threshold) and 1 below it, every row 1
	// in the last column: threshold pivoting takes the 0.1s, multipliers
	// 10, and the last column grows by 10 a step; the check must send
	// it to factorLU (partial pivoting takes the 1s), bit for bit.
	const gn = 30
	grow := growthMatrix(gn, 0.1)
	if got, want := factorSparse(luVec{}, grow), factorLU(luVec{}, grow); got.q != nil || !slices.Equal(got.f, want.f) || !slices.Equal(got.perm, want.perm) {
		t.Errorf("growth 10^%d: sparse path %v; want factorLU's factors", gn, got.q != nil)
	}
	mk := newMarkowitz(grow, make([]float64, gn*gn))
	if !mk.factorise() {
		t.Fatal("growth: the elimination failed")
	}
	if mk.p[0] != 0 || mk.q[0] != 0 {
		t.Errorf("growth: first pivot (%d, %d), want (0, 0): the case does not test the check", mk.p[0], mk.q[0])
	}
	// The same growth in exact arithmetic: 0.125 and 1 on 14 columns
	// (multipliers 8, the last column 9¹³ ≈ 2.5e12 at most, integers):
	// the solve of A·x = A·1 rounds nothing and has no residual, while a
	// solve with another right-hand side loses about ε·9¹³ ≈ 5e-4 of the
	// solution. The check's right-hand side must not be one that
	// structured entries solve exactly: the factorisation must go to
	// factorLU too.
	const en = 14
	exact := growthMatrix(en, 0.125)
	if got, want := factorSparse(luVec{}, exact), factorLU(luVec{}, exact); got.q != nil || !slices.Equal(got.f, want.f) || !slices.Equal(got.perm, want.perm) {
		t.Errorf("growth 9^%d in exact arithmetic: sparse path %v; want factorLU's factors", en-1, got.q != nil)
	}
	zero := randomDense(rnd, 30, 0.5, 1)
	for i := range 30 {
		zero.Set(i, 7, 0)
	}
	if sing := factorSparse(luVec{}, zero); sing.q != nil || !(sing.cond > 1e15) {
		t.Errorf("a zero column: sparse path %v, cond %v; want factorLU's, above 1e15", sing.q != nil, sing.cond)
	}
}

// lastReduced returns the reduced system solveByEntries factorised last
// in SingleInterval on QR with reconfiguration at checkpoints (MTTF 8 h,
// MTTR 4 h) on n processors.
func lastReduced(t *testing.T, n int) *mat.Dense {
	t.Helper()
	sc := qrScenario(t, n, 8*3600, 4*3600)
	sc.Reconfigure = scenario.AtCheckpoint
	sv, err := New(sc, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sv.SingleInterval(context.Background(), 0); err != nil {
		t.Fatal(err)
	}
	if sv.entry == nil {
		t.Fatalf("n = %d: no reduced system was factorised", n)
	}
	return mat.DenseCopyOf(sv.entry.a)
}

// nonzeros returns the number of nonzero entries of f.
func nonzeros(f []float64) int {
	m := 0
	for _, v := range f {
		if v != 0 {
			m++
		}
	}
	return m
}

// checkFactors checks ‖P·A·Q − L·U‖max ≤ 1e-14·n·‖A‖max and the condition
// estimate of lu against κ∞ (TestFactorSparse).
func checkFactors(t *testing.T, name string, ci int, a *mat.Dense, lu *luVec) {
	t.Helper()
	n := lu.n
	p, q := make([]int, n), lu.q
	for r, tt := range lu.perm {
		p[tt] = r
	}
	if q == nil {
		q = make([]int, n)
		for i := range q {
			q[i] = i
		}
	}
	amax, dmax := 0.0, 0.0
	for i := range n {
		for j := range n {
			s := 0.0 // (L·U)[i][j], L unit lower, U upper, packed in f
			for k := 0; k <= min(i, j); k++ {
				lik := lu.f[i*n+k]
				if k == i {
					lik = 1
				}
				s += lik * lu.f[k*n+j]
			}
			v := a.At(p[i], q[j])
			amax, dmax = max(amax, math.Abs(v)), max(dmax, math.Abs(v-s))
		}
	}
	if dmax > 1e-14*float64(n)*amax {
		t.Errorf("%s %d (n = %d): ‖PAQ − LU‖max = %.3g, want ≤ %.3g", name, ci, n, dmax, 1e-14*float64(n)*amax)
	}
	var inv mat.Dense
	if err := inv.Inverse(a); err == nil {
		kappa := mat.Norm(a, math.Inf(1)) * mat.Norm(&inv, math.Inf(1))
		if lu.cond > kappa*(1+1e-8) || lu.cond < kappa/float64(n)/10 {
			t.Errorf("%s %d (n = %d): cond %.6g, want in [κ∞/(10n), κ∞] with κ∞ = %.6g", name, ci, n, lu.cond, kappa)
		}
	}
}

// checkSparseSolves holds solveTo and solveUnitTo on lu against
// mat.LU.SolveVecTo, with the power checks of TestFactorSparse.
func checkSparseSolves(t *testing.T, name string, ci int, rnd *rand.Rand, a *mat.Dense, lu luVec) {
	t.Helper()
	n := lu.n
	var dlu mat.LU
	dlu.Factorize(a)
	tol := 1e-15 * float64(n) * max(lu.cond, 1)
	b := make([]float64, n)
	for i := range b {
		b[i] = rnd.NormFloat64()
	}
	var want mat.VecDense
	if err := dlu.SolveVecTo(&want, false, mat.NewVecDense(n, b)); err != nil {
		t.Fatalf("%s %d: %v", name, ci, err)
	}
	got := make([]float64, n)
	lu.solveTo(got, b)
	if d := relInf(got, want.RawVector().Data); d > tol {
		t.Errorf("%s %d (n = %d): solveTo differs from mat.LU by %.3g relative, want ≤ %.3g", name, ci, n, d, tol)
	}
	e := make([]float64, n)
	for _, i := range rnd.Perm(n)[:min(n, 40)] {
		clear(e)
		e[i] = 1
		if err := dlu.SolveVecTo(&want, false, mat.NewVecDense(n, e)); err != nil {
			t.Fatal(err)
		}
		lu.solveUnitTo(got, i)
		if d := relInf(got, want.RawVector().Data); d > tol {
			t.Errorf("%s %d (n = %d): solveUnitTo(%d) differs from mat.LU by %.3g relative, want ≤ %.3g", name, ci, n, i, d, tol)
		}
	}
	// Power checks: a perturbed factor must fail the tolerance.
	k := rnd.IntN(n)
	bad := lu
	bad.f = append([]float64(nil), lu.f...)
	bad.f[k*n+k] *= 1 + 1e-6
	bad.solveTo(got, b)
	if d := relInf(got, want2(t, &dlu, b)); d <= tol {
		t.Errorf("%s %d (n = %d): U's diagonal entry %d scaled by 1 + 1e-6 passes (%.3g ≤ %.3g)", name, ci, n, k, d, tol)
	}
	if n < 2 {
		return
	}
	bad.f = append(bad.f[:0], lu.f...)
	lmax := 0.0
	for i := 1; i < n; i++ {
		for j := range i {
			lmax = max(lmax, math.Abs(lu.f[i*n+j]))
		}
	}
	bad.f[(n-1)*n] += 1e-6 * max(lmax, 1) // L[n−1][0]: every solve reads it
	bad.l, bad.u = nzRuns{}, nzRuns{}     // runs of their own, with the entry
	bad.indexRuns()
	bad.solveTo(got, b)
	if d := relInf(got, want2(t, &dlu, b)); d <= tol {
		t.Errorf("%s %d (n = %d): a multiplier of L changed by 1e-6 passes (%.3g ≤ %.3g)", name, ci, n, d, tol)
	}
}

// want2 returns the dense solve of A·x = b.
func want2(t *testing.T, dlu *mat.LU, b []float64) []float64 {
	t.Helper()
	var x mat.VecDense
	if err := dlu.SolveVecTo(&x, false, mat.NewVecDense(len(b), b)); err != nil {
		t.Fatal(err)
	}
	return x.RawVector().Data
}

// TestSolveNonzeroColumns holds solveNonzeroColumns against its oracle,
// mat.LU.SolveTo on every column, bit for bit (a zero of either sign
// equal to a zero), on seeded random systems
// whose right-hand sides have most columns zero (solveByEntries' D_p),
// none, or none zero; and a singular matrix gives SolveTo's error. The
// power check: a right-hand side with one nonzero entry moved to a zero
// column gives another result.
func TestSolveNonzeroColumns(t *testing.T) {
	rnd := rand.New(rand.NewPCG(20, 43))
	for _, c := range []struct {
		w, cols  int
		zeroCols float64 // fraction of D's columns zero
	}{{1, 1, 0}, {5, 40, 0.9}, {52, 600, 0.8}, {30, 100, 0}, {10, 50, 1}} {
		a := randomDense(rnd, c.w, 0.3, 3)
		var lu mat.LU
		lu.Factorize(a)
		d := mat.NewDense(c.w, c.cols, nil)
		for j := range c.cols {
			if rnd.Float64() < c.zeroCols {
				continue
			}
			for i := range c.w {
				if rnd.Float64() < 0.5 {
					d.Set(i, j, rnd.Float64())
				}
			}
		}
		var want mat.Dense
		if err := lu.SolveTo(&want, false, d); err != nil {
			t.Fatal(err)
		}
		got, err := solveNonzeroColumns(&lu, d, nil)
		if err != nil {
			t.Fatalf("w = %d: %v", c.w, err)
		}
		same := func(x *mat.Dense) bool {
			for i := range c.w {
				for j, v := range want.RawRowView(i) {
					if math.Float64bits(x.At(i, j)) != math.Float64bits(v) && !(v == 0 && x.At(i, j) == 0) {
						return false
					}
				}
			}
			return true
		}
		if !same(got) {
			t.Errorf("w = %d, %d columns: not the bits of mat.LU.SolveTo", c.w, c.cols)
		}
		// Into the storage of a matrix it replaces, full of NaN: the same bits.
		dst := mat.NewDense(c.w, c.cols, nil)
		for i := range c.w {
			for j := range c.cols {
				dst.Set(i, j, math.NaN())
			}
		}
		if into, err := solveNonzeroColumns(&lu, d, dst); err != nil || into != dst || !same(into) {
			t.Errorf("w = %d, %d columns: into dst: %v, the same storage %v, the same bits %v", c.w, c.cols, err, into == dst, err == nil && same(into))
		}
		if c.zeroCols > 0 && c.zeroCols < 1 {
			moved := mat.DenseCopyOf(d)
			for j := range c.cols {
				if mat.Col(nil, j, d)[0] != 0 {
					continue
				}
				k := j
				for mat.Col(nil, k, d)[0] == 0 {
					k = (k + 1) % c.cols
				}
				moved.Set(0, j, d.At(0, k))
				moved.Set(0, k, 0)
				break
			}
			if bad, _ := solveNonzeroColumns(&lu, moved, nil); same(bad) {
				t.Errorf("w = %d: a moved entry gives the same result", c.w)
			}
		}
	}
	var lu mat.LU
	lu.Factorize(mat.NewDense(3, 3, []float64{1, 2, 3, 2, 4, 6, 1, 0, 1}))
	if _, err := solveNonzeroColumns(&lu, mat.NewDense(3, 2, []float64{1, 0, 1, 0, 1, 0}), nil); err == nil {
		t.Error("singular: no error")
	}
}

// growthMatrix returns the n×n matrix with d on the diagonal of its
// first n−1 columns, 1 below it, and 1 in every row of the last column:
// threshold pivoting takes the d's, with multipliers 1/d, and the last
// column grows by a factor 1 + 1/d a step.
func growthMatrix(n int, d float64) *mat.Dense {
	a := mat.NewDense(n, n, nil)
	for j := range n {
		a.Set(j, n-1, 1)
		if j < n-1 {
			a.Set(j, j, d)
			a.Set(j+1, j, 1)
		}
	}
	return a
}
