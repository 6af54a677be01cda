package gmres

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

const eps = 0x1p-52

// randDense returns an n×n matrix of independent N(0, 1) entries plus
// shift·I (seeded): nonsymmetric, with condition number of order n for
// shift = 0 and better as the shift grows.
func randDense(rng *rand.Rand, n int, shift float64) *mat.Dense {
	a := mat.NewDense(n, n, nil)
	for i := range n {
		for j := range n {
			a.Set(i, j, rng.NormFloat64())
		}
		a.Set(i, i, a.At(i, i)+shift)
	}
	return a
}

func randVec(rng *rand.Rand, n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = rng.NormFloat64()
	}
	return v
}

// denseOp returns op(dst, src) = C·src.
func denseOp(c *mat.Dense) func(dst, src []float64) {
	n, _ := c.Dims()
	return func(dst, src []float64) {
		mat.NewVecDense(n, dst).MulVec(c, mat.NewVecDense(n, src))
	}
}

// cycle runs one GMRES cycle of up to steps steps on op from the residual
// r0 (copied), stopping when the estimate is at most stop·‖r₀‖₂, and
// returns the work, the steps made and ‖r₀‖₂.
func cycle(t *testing.T, op func(dst, src []float64), r0 []float64, steps int, stop float64) (*Work, int, float64) {
	t.Helper()
	w, err := New(len(r0), steps)
	if err != nil {
		t.Fatal(err)
	}
	copy(w.Basis(0), r0)
	beta := floats.Norm(r0, 2)
	w.Start(beta)
	k := 0
	for k < steps {
		hnext, _, ok := w.Step(k, op)
		if !ok {
			break
		}
		k++
		if hnext == 0 || w.Residual(k) <= stop*beta {
			break
		}
	}
	return w, k, beta
}

// solveCase is a system A x = b solved by GMRES on an operator C with
// x = post(V y): unpreconditioned (C = A), left-preconditioned by B
// (C = B⁻¹A, r₀ = B⁻¹b, as package optimal) and right-preconditioned by B
// (C = AB⁻¹, x = B⁻¹V y, as package markov), B = A + a small random
// perturbation.
type solveCase struct {
	name  string
	n     int
	shift float64
	prec  string // "", "left" or "right"
}

// solveError returns ‖x − x*‖∞ / ‖x*‖∞ for the GMRES solution x of a
// seeded random system of sc after at most n steps, x* = A⁻¹b by mat.LU,
// and the tolerance it is held to: the forward error of a backward stable
// solve, 100·n·ε·κ₁(A), plus κ₁(A) times the stopping residual 1e-13
// (relative to ‖r₀‖₂, with the preconditioner's effect bounded by κ(B)).
func solveError(t *testing.T, sc solveCase, seed uint64) (errRel, tol float64) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, uint64(sc.n)))
	n := sc.n
	a := randDense(rng, n, sc.shift)
	b := randVec(rng, n)
	var lu mat.LU
	lu.Factorize(a)
	want := mat.NewVecDense(n, nil)
	if err := lu.SolveVecTo(want, false, mat.NewVecDense(n, b)); err != nil {
		t.Fatal(err)
	}
	kappa := lu.Cond()
	var blu mat.LU
	bm := mat.DenseCopyOf(a)
	for i := range n {
		for j := range n {
			bm.Set(i, j, bm.At(i, j)*(1+0.1*rng.NormFloat64()))
		}
	}
	blu.Factorize(bm)
	kappa *= max(1, blu.Cond())
	bsolve := func(dst, src []float64) {
		if err := blu.SolveVecTo(mat.NewVecDense(n, dst), false, mat.NewVecDense(n, src)); err != nil {
			t.Fatal(err)
		}
	}
	apply := denseOp(a)
	op, r0 := apply, b
	tmp := make([]float64, n)
	switch sc.prec {
	case "left":
		r0 = make([]float64, n)
		bsolve(r0, b)
		op = func(dst, src []float64) { apply(tmp, src); bsolve(dst, tmp) }
	case "right":
		op = func(dst, src []float64) { bsolve(tmp, src); apply(dst, tmp) }
	}
	const stop = 1e-13
	w, k, _ := cycle(t, op, r0, n, stop)
	x := make([]float64, n)
	w.Update(x, k)
	if sc.prec == "right" {
		bsolve(tmp, x)
		copy(x, tmp)
	}
	d := make([]float64, n)
	floats.SubTo(d, x, want.RawVector().Data)
	errRel = floats.Norm(d, math.Inf(1)) / floats.Norm(want.RawVector().Data, math.Inf(1))
	return errRel, kappa * (100*float64(n)*eps + stop)
}

var solveCases = []solveCase{
	{"n=1", 1, 0, ""},
	{"n=2", 2, 0, ""},
	{"n=7", 7, 3, ""},
	{"n=30", 30, 0, ""},
	{"n=60/shift", 60, 10, ""},
	{"n=30/left", 30, 0, "left"},
	{"n=60/left", 60, 5, "left"},
	{"n=30/right", 30, 0, "right"},
	{"n=60/right", 60, 5, "right"},
}

// TestSolveMatchesLU holds GMRES run to convergence (at most n steps)
// against a dense LU solve (mat.LU) on seeded random nonsymmetric systems,
// unpreconditioned and with the preconditioner on either side.
func TestSolveMatchesLU(t *testing.T) {
	for _, sc := range solveCases {
		for seed := uint64(1); seed <= 3; seed++ {
			t.Run(fmt.Sprintf("%s/seed=%d", sc.name, seed), func(t *testing.T) {
				e, tol := solveError(t, sc, seed)
				if !(e <= tol) {
					t.Errorf("‖x − x*‖∞/‖x*‖∞ = %.3g, want ≤ %.3g", e, tol)
				}
			})
		}
	}
}

// residualGap returns max over the steps k of a cycle of
// |Residual(k) − ‖r₀ − C·x_k‖₂| / ‖r₀‖₂, x_k = V_k y_k (Update on a zero
// vector), for a seeded random A = random + 2√n·I of order n run for
// steps steps: C = A, or with left, C = B⁻¹A and r₀ = B⁻¹b (the true
// preconditioned residual B⁻¹(b − A·x_k)), B = A with each entry
// perturbed by 10 %, factorised by mat.LU.
func residualGap(t *testing.T, n, steps int, seed uint64, left bool) float64 {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 77))
	a := randDense(rng, n, 2*math.Sqrt(float64(n)))
	r0 := randVec(rng, n)
	op := denseOp(a)
	if left {
		bm := mat.DenseCopyOf(a)
		for i := range n {
			for j := range n {
				bm.Set(i, j, bm.At(i, j)*(1+0.1*rng.NormFloat64()))
			}
		}
		var blu mat.LU
		blu.Factorize(bm)
		bsolve := func(dst, src []float64) {
			if err := blu.SolveVecTo(mat.NewVecDense(n, dst), false, mat.NewVecDense(n, src)); err != nil {
				t.Fatal(err)
			}
		}
		apply, tmp := op, make([]float64, n)
		op = func(dst, src []float64) { apply(tmp, src); bsolve(dst, tmp) }
		bsolve(r0, slices.Clone(r0))
	}
	w, err := New(n, steps)
	if err != nil {
		t.Fatal(err)
	}
	copy(w.Basis(0), r0)
	beta := floats.Norm(r0, 2)
	w.Start(beta)
	x, cx, r := make([]float64, n), make([]float64, n), make([]float64, n)
	gap := 0.0
	for k := range steps {
		if _, _, ok := w.Step(k, op); !ok {
			t.Fatalf("step %d made no column", k)
		}
		clear(x)
		w.Update(x, k+1)
		op(cx, x)
		floats.SubTo(r, r0, cx)
		gap = max(gap, math.Abs(w.Residual(k+1)-floats.Norm(r, 2))/beta)
	}
	return gap
}

// TestResidualEstimate holds the estimate |g_k| against the true
// (preconditioned, with left) residual of the iterate after each step k,
// to 1e-12 of ‖r₀‖₂ (the systems are well conditioned: A = random +
// 2√n·I).
func TestResidualEstimate(t *testing.T) {
	for _, tc := range []struct {
		n, steps int
		left     bool
	}{{5, 5, false}, {40, 20, false}, {80, 40, false}, {120, 30, false}, {40, 20, true}, {120, 30, true}} {
		for seed := uint64(1); seed <= 3; seed++ {
			t.Run(fmt.Sprintf("n=%d/steps=%d/left=%v/seed=%d", tc.n, tc.steps, tc.left, seed), func(t *testing.T) {
				if gap := residualGap(t, tc.n, tc.steps, seed, tc.left); !(gap <= 1e-12) {
					t.Errorf("max |estimate − true residual|/‖r₀‖ = %.3g, want ≤ 1e-12", gap)
				}
			})
		}
	}
}

// lowRank returns I + U·Vᵀ with U, V of n×r independent N(0, 1/√n)
// entries: the entries of VᵀU, whose eigenvalues (plus 1) are those of C
// off 1, are of order 1, so they do not cluster at 1.
func lowRank(rng *rand.Rand, n, r int) *mat.Dense {
	c := mat.NewDense(n, n, nil)
	for i := range n {
		c.Set(i, i, 1)
	}
	if r == 0 {
		return c
	}
	u, v := mat.NewDense(n, r, nil), mat.NewDense(n, r, nil)
	s := math.Pow(float64(n), -0.25)
	for i := range n {
		for j := range r {
			u.Set(i, j, s*rng.NormFloat64())
			v.Set(i, j, s*rng.NormFloat64())
		}
	}
	var uv mat.Dense
	uv.Mul(u, v.T())
	c.Add(c, &uv)
	return c
}

// rankEnd returns, for C = I + (rank r) of order n, the true residuals
// ‖r₀ − C·x_k‖₂/‖r₀‖₂ of the iterates after k = r and k = r + 1 steps.
func rankEnd(t *testing.T, n, r int, seed uint64) (before, at float64) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, uint64(100*n+r)))
	op := denseOp(lowRank(rng, n, r))
	r0 := randVec(rng, n)
	w, k, beta := cycle(t, op, r0, r+1, 0)
	if k != r+1 {
		t.Fatalf("%d steps, want %d", k, r+1)
	}
	x, cx := make([]float64, n), make([]float64, n)
	resid := func(k int) float64 {
		clear(x)
		w.Update(x, k)
		op(cx, x)
		floats.Sub(cx, r0)
		return floats.Norm(cx, 2) / beta
	}
	return resid(r), resid(r + 1)
}

// TestLowRankEndsWithinRankPlusOne checks that GMRES on I + (rank r)
// ends within r + 1 steps (the Krylov space lies in span{r₀} + range(E),
// of dimension r + 1; package doc): the residual after r + 1 steps is
// at most 1e3·n·ε of ‖r₀‖, while after r steps it is still above 1e-6
// (the bound is reached, not beaten, on generic data).
func TestLowRankEndsWithinRankPlusOne(t *testing.T) {
	for _, tc := range []struct{ n, r int }{{10, 0}, {10, 1}, {40, 2}, {40, 5}, {100, 3}, {100, 8}} {
		for seed := uint64(1); seed <= 3; seed++ {
			t.Run(fmt.Sprintf("n=%d/r=%d/seed=%d", tc.n, tc.r, seed), func(t *testing.T) {
				before, at := rankEnd(t, tc.n, tc.r, seed)
				if tol := 1e3 * float64(tc.n) * eps; !(at <= tol) {
					t.Errorf("residual after r+1 = %d steps %.3g of ‖r₀‖, want ≤ %.3g", tc.r+1, at, tol)
				}
				if !(before > 1e-6) {
					t.Errorf("residual after r = %d steps %.3g of ‖r₀‖, want > 1e-6", tc.r, before)
				}
			})
		}
	}
}

// TestPowerMutations runs the checks above on deliberately wrong
// versions of Step (mutation): a flipped sign of the rotations' s_j, and
// the orthogonalisation against v₀ left out. Each check must reject each
// of them on some case of its table, or it could not fail.
func TestPowerMutations(t *testing.T) {
	defer func() { mutation = 0 }()
	for _, mut := range []struct {
		name string
		m    int
	}{{"sign", mutSign}, {"skipGS", mutSkipGS}} {
		t.Run(mut.name, func(t *testing.T) {
			mutation = mut.m
			defer func() { mutation = 0 }()
			caught := 0
			for _, sc := range solveCases {
				if e, tol := solveError(t, sc, 1); !(e <= tol) {
					caught++
				}
			}
			if caught == 0 {
				t.Error("the dense-solve check accepts the mutation on every case")
			}
			for _, left := range []bool{false, true} {
				if gap := residualGap(t, 40, 20, 1, left); gap <= 1e-12 {
					t.Errorf("the residual check (left %v) accepts the mutation (gap %.3g)", left, gap)
				}
			}
			_, at := rankEnd(t, 40, 5, 1)
			if at <= 1e3*40*eps {
				t.Errorf("the low-rank check accepts the mutation (residual %.3g after r+1 steps)", at)
			}
		})
	}
}

// TestBreakdowns: C = I ends at step 1 with a zero residual and the exact
// solution (a lucky breakdown: h₁₀ = 0, ok); C = 0 makes no column
// (ρ = 0) and a NaN operator none either (ρ not finite), leaving g, and so
// the residual estimate, unchanged.
func TestBreakdowns(t *testing.T) {
	r0 := []float64{0, 2, 0} // v₀ = e₁ exactly, so h₁₀ = 0 exactly for C = I
	for _, tc := range []struct {
		name   string
		op     func(dst, src []float64)
		ok     bool
		hnext  float64
		resid1 float64
	}{
		{"identity", func(dst, src []float64) { copy(dst, src) }, true, 0, 0},
		{"zero", func(dst, _ []float64) { clear(dst) }, false, 0, 0},
		{"NaN", func(dst, _ []float64) { dst[0] = math.NaN() }, false, math.NaN(), 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w, err := New(len(r0), 3)
			if err != nil {
				t.Fatal(err)
			}
			copy(w.Basis(0), r0)
			w.Start(2)
			hnext, _, ok := w.Step(0, tc.op)
			if ok != tc.ok || !(hnext == tc.hnext || math.IsNaN(hnext) && math.IsNaN(tc.hnext)) {
				t.Fatalf("Step = (h %v, ok %v), want (h %v, ok %v)", hnext, ok, tc.hnext, tc.ok)
			}
			x := make([]float64, 3)
			if ok {
				if got := w.Residual(1); got != 0 {
					t.Errorf("Residual(1) = %v, want 0", got)
				}
				w.Update(x, 1)
				for i := range x {
					if x[i] != r0[i] {
						t.Errorf("x = %v, want %v", x, r0)
						break
					}
				}
				return
			}
			if got := w.Residual(0); got != 2 {
				t.Errorf("Residual(0) = %v after a step with no column, want 2", got)
			}
			w.Update(x, 0)
			if floats.Norm(x, 1) != 0 {
				t.Errorf("Update with no column changed x to %v", x)
			}
		})
	}
}

// TestNewBounds: New refuses orders and restart lengths out of bounds
// before allocating.
func TestNewBounds(t *testing.T) {
	for _, tc := range []struct {
		n, restart int
		ok         bool
	}{
		{1, 1, true}, {5, 30, true}, {10, MaxRestart, true},
		{0, 1, false}, {-1, 1, false}, {MaxOrder + 1, 1, false},
		{10, 0, false}, {10, -3, false}, {10, MaxRestart + 1, false},
	} {
		w, err := New(tc.n, tc.restart)
		if (err == nil) != tc.ok || (w != nil) != tc.ok {
			t.Errorf("New(%d, %d) = (%v, %v), want ok %v", tc.n, tc.restart, w != nil, err, tc.ok)
		}
	}
}
