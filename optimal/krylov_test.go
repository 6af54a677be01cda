package optimal

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// krylovBase returns the kept factors of a seeded random matrix B of
// order k, diagonally dominant in expectation (the reduced systems of
// solveByEntries have 1 on the diagonal and sub-stochastic rows), and a
// right-hand side.
func krylovBase(rnd *rand.Rand, k int) (*entryBase, []float64) {
	bm := mat.NewDense(k, k, nil)
	for i := range k {
		for j := range k {
			bm.Set(i, j, rnd.NormFloat64())
		}
		bm.Set(i, i, bm.At(i, i)+2*math.Sqrt(float64(k)))
	}
	base := &entryBase{a: bm}
	base.f = factorLU(luVec{}, bm)
	rhs := make([]float64, k)
	for i := range rhs {
		rhs[i] = rnd.NormFloat64()
	}
	return base, rhs
}

// TestEntryKrylov holds entryBase.krylov (GMRES on A·x = b preconditioned
// by the factors of B) against a fresh factorisation of A,
// mat.LU.SolveVecTo, to 1e-12 relative in the ∞-norm, on seeded random
// systems of order 120 and 529 (QR at N = 32): every row of B perturbed
// by ε relative to B's off-diagonal entries (level 2's search moves every
// row a little), and r rows replaced by independent ones of the same law
// (A − B of rank r). It must accept every ε ≤ 0.01 and every rank
// r < krylovHope (GMRES ends within r + 1 steps in exact arithmetic,
// where iterative refinement has no contraction; from step krylovHope a
// run whose residual has hardly fallen is given up, so ranks from
// krylovHope to krylovIter − 1 may be refused) and, when
// it accepts, be within the tolerance. Power checks: the unpreconditioned
// start B⁻¹b is outside the tolerance in every case with ε ≥ 1e-8 or
// r ≥ 1 (the comparison tells a solve from none), and an unrelated system
// (A independent of B) is refused, not returned.
func TestEntryKrylov(t *testing.T) {
	const tol = 1e-12
	for _, k := range []int{120, 529} {
		rnd := rand.New(rand.NewPCG(20, uint64(k)))
		base, rhs := krylovBase(rnd, k)
		for _, c := range []struct {
			eps       float64 // every row perturbed by ε
			rank      int     // rows replaced
			unrelated bool    // A independent of B
			accept    bool    // must converge
			refuse    bool    // must not
		}{
			{eps: 1e-12, accept: true}, {eps: 1e-8, accept: true}, {eps: 1e-4, accept: true},
			{eps: 1e-2, accept: true}, {eps: 0.1}, {eps: 0.3},
			{rank: 1, accept: true}, {rank: krylovHope - 1, accept: true}, {rank: 5}, {rank: krylovIter - 1}, {rank: 20},
			{unrelated: true, refuse: true},
		} {
			name := fmt.Sprintf("k = %d, ε = %g, rank %d, unrelated %v", k, c.eps, c.rank, c.unrelated)
			rows := make([][]float64, k)
			for i := range rows {
				rows[i] = slices.Clone(base.a.RawRowView(i))
				for j := range rows[i] {
					switch {
					case c.unrelated || i < c.rank:
						rows[i][j] = rnd.NormFloat64()
						if i == j {
							rows[i][j] += 2 * math.Sqrt(float64(k))
						}
					default:
						rows[i][j] += c.eps * rnd.NormFloat64()
					}
				}
			}
			var want mat.VecDense
			var lu mat.LU
			lu.Factorize(mat.NewDense(k, k, slices.Concat(rows...)))
			if err := lu.SolveVecTo(&want, false, mat.NewVecDense(k, rhs)); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			got, ok := base.krylov(rows, mat.NewVecDense(k, rhs))
			switch {
			case ok && c.refuse:
				t.Errorf("%s: krylov accepted a system unrelated to the factors", name)
			case !ok && c.accept:
				t.Errorf("%s: krylov refused a close system", name)
			case ok:
				if d := relInf(got.RawVector().Data, want.RawVector().Data); d > tol {
					t.Errorf("%s: solve off by %.3g relative, want ≤ %g", name, d, tol)
				}
			}
			if c.eps >= 1e-8 || c.rank > 0 {
				x0 := base.solve(mat.NewVecDense(k, rhs))
				if d := relInf(x0.RawVector().Data, want.RawVector().Data); d <= tol {
					t.Errorf("%s: the start B⁻¹b passes (%.3g ≤ %g): no power", name, d, tol)
				}
			}
		}
	}
}

// TestEntrySolution holds the kept solution of entrySolve: lookup returns
// it for the system kept and for nothing else, a change of one
// right-hand side entry, of a row's generation, of g's entry of a row, or
// of a row of generation 0, each refused (each change is one the
// evaluations make).
func TestEntrySolution(t *testing.T) {
	rows := [][]float64{{1, 0.5, 2}, {0.25, 1, 3}, {0.5, 0.5, 0}}
	gens := []uint64{3, 4, 0}
	rhs := []float64{1, 2, 0}
	x := []float64{7, 8, 9}
	var es entrySolution
	if es.lookup(rows, gens, mat.NewVecDense(3, rhs)) != nil {
		t.Fatal("an empty entrySolution returned a solution")
	}
	es.keep(rows, gens, mat.NewVecDense(3, rhs), mat.NewVecDense(3, x))
	got := es.lookup(rows, gens, mat.NewVecDense(3, rhs))
	if got == nil || !slices.Equal(got.RawVector().Data, x) {
		t.Fatalf("the kept system: got %v, want %v", got, x)
	}
	got.SetVec(0, -1) // a copy: the kept solution is not the caller's
	for _, c := range []struct {
		name string
		edit func(rows [][]float64, gens []uint64, rhs []float64)
		hit  bool
	}{
		{"the same", func([][]float64, []uint64, []float64) {}, true},
		{"rhs", func(_ [][]float64, _ []uint64, rhs []float64) { rhs[1] = 2.5 }, false},
		{"generation", func(_ [][]float64, gens []uint64, _ []float64) { gens[0] = 5 }, false},
		{"g's entry", func(rows [][]float64, _ []uint64, _ []float64) { rows[1][2] = 6 }, false},
		{"row of generation 0", func(rows [][]float64, _ []uint64, _ []float64) { rows[2][0] = 1 }, false},
		{"a row of a kept generation", func(rows [][]float64, _ []uint64, _ []float64) { rows[0][0] = 9 }, true}, // generations stand for contents
	} {
		r2 := [][]float64{slices.Clone(rows[0]), slices.Clone(rows[1]), slices.Clone(rows[2])}
		g2, rhs2 := slices.Clone(gens), slices.Clone(rhs)
		c.edit(r2, g2, rhs2)
		got := es.lookup(r2, g2, mat.NewVecDense(3, rhs2))
		if (got != nil) != c.hit {
			t.Errorf("%s: hit = %v, want %v", c.name, got != nil, c.hit)
		}
		if got != nil && !slices.Equal(got.RawVector().Data, x) {
			t.Errorf("%s: got %v, want %v", c.name, got.RawVector().Data, x)
		}
	}
}

// TestKrylovWorkReuse: entryBase.krylov keeps its workspace (entryBase.kw)
// from one call to the next, and what it returns does not depend on what
// the workspace held: after a refused run (rank 5, given up mid-way) and
// an unrelated system, a close system's solution is bit-identical to the
// one of a fresh entryBase on the same factors, and the workspace is the
// same one throughout.
func TestKrylovWorkReuse(t *testing.T) {
	const k = 120
	rnd := rand.New(rand.NewPCG(21, k))
	base, rhs := krylovBase(rnd, k)
	system := func(eps float64, rank int) [][]float64 {
		rows := make([][]float64, k)
		for i := range rows {
			rows[i] = slices.Clone(base.a.RawRowView(i))
			for j := range rows[i] {
				if i < rank {
					rows[i][j] = rnd.NormFloat64()
					if i == j {
						rows[i][j] += 2 * math.Sqrt(float64(k))
					}
					continue
				}
				rows[i][j] += eps * rnd.NormFloat64()
			}
		}
		return rows
	}
	b := mat.NewVecDense(k, rhs)
	near := system(1e-4, 0)
	base.krylov(system(0, 5), b)
	kw := base.kw
	base.krylov(system(0, k), b)
	got, ok := base.krylov(near, b)
	if base.kw != kw || kw == nil {
		t.Errorf("the workspace was not kept: %p, then %p", kw, base.kw)
	}
	fresh := &entryBase{a: base.a, f: base.f}
	want, wok := fresh.krylov(near, b)
	if !ok || !wok {
		t.Fatalf("krylov refused the close system: reused %v, fresh %v", ok, wok)
	}
	if !slices.Equal(got.RawVector().Data, want.RawVector().Data) {
		t.Errorf("the solution with a used workspace differs from a fresh one's by %.3g relative",
			relInf(got.RawVector().Data, want.RawVector().Data))
	}
}
