package expm

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/james-bowman/sparse"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat/distuv"
)

// toCSR converts a dense matrix to a james-bowman CSR matrix.
func toCSR(a *mat.Dense) *sparse.CSR {
	r, c := a.Dims()
	dok := sparse.NewDOK(r, c)
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			if v := a.At(i, j); v != 0 {
				dok.Set(i, j, v)
			}
		}
	}
	return dok.ToCSR()
}

// denseAction returns exp(t·a)·v with the dense Exp.
func denseAction(t *testing.T, a *mat.Dense, tt float64, v []float64) []float64 {
	t.Helper()
	var at mat.Dense
	at.Scale(tt, a)
	e := mustExp(t, &at, nil)
	n := len(v)
	w := mat.NewVecDense(n, nil)
	w.MulVec(e, mat.NewVecDense(n, v))
	return w.RawVector().Data
}

// maxAbsDiff returns max_i |x_i − y_i|.
func maxAbsDiff(x, y []float64) float64 {
	var m float64
	for i := range x {
		m = math.Max(m, math.Abs(x[i]-y[i]))
	}
	return m
}

// TestExpMulVecVsDense checks ExpMulVec (Al-Mohy & Higham 2011) against the
// dense Exp (Al-Mohy & Higham 2009), two different algorithms, on random
// matrices and random sparse generators given as CSR. Both are backward
// stable with relative backward error ~u, so they agree to the forward
// error level 100·n·u·max(1, ‖tA‖₁)·‖exp(tA)‖_∞·‖v‖_∞.
func TestExpMulVecVsDense(t *testing.T) {
	rnd := rand.New(rand.NewPCG(10, 10))
	for trial := 0; trial < 24; trial++ {
		n := []int{5, 12, 30, 60}[trial%4]
		var a *mat.Dense
		if trial%2 == 0 {
			a = randomNormal(rnd, n, 1/math.Sqrt(float64(n)))
		} else {
			a = randomGenerator(rnd, n, 4/float64(n), 1)
		}
		tt := math.Pow(10, 3*rnd.Float64()-1) / mat.Norm(a, 1) // ‖tA‖₁ ∈ [0.1, 100]
		if trial%2 == 0 {
			tt = math.Min(tt, 20/mat.Norm(a, 1)) // keep e^{tA} finite-sized
		}
		v := make([]float64, n)
		for i := range v {
			v[i] = rnd.Float64()
		}
		want := denseAction(t, a, tt, v)
		for _, m := range []mat.Matrix{a, toCSR(a)} {
			got := make([]float64, n)
			res, err := ExpMulVec(got, m, tt, v, nil)
			if err != nil {
				t.Fatal(err)
			}
			var at mat.Dense
			at.Scale(tt, a)
			var e mat.Dense
			e.Exp(&at)
			tol := 100 * float64(n) * u * math.Max(1, mat.Norm(&at, 1)) * mat.Norm(&e, math.Inf(1)) * normInf(v)
			if d := maxAbsDiff(got, want); d > tol {
				t.Errorf("trial %d n=%d ‖tA‖=%.3g (%T): max diff %.3g > %.3g (result %+v)", trial, n, mat.Norm(&at, 1), m, d, tol, res)
			}
			if res.MatVecs > res.Terms*res.Steps || res.ErrorBound != unitRoundoff {
				t.Errorf("trial %d: inconsistent result %+v", trial, res)
			}
		}
	}
}

// TestUniformizeVsDense checks Uniformize against the dense Exp on random
// generators (dense and CSR input), that nonnegative v gives a nonnegative
// result, that exp(tG)·1 = 1, and that the truncation error is within the
// reported bound when a loose Tol is requested.
func TestUniformizeVsDense(t *testing.T) {
	rnd := rand.New(rand.NewPCG(11, 11))
	for trial := 0; trial < 12; trial++ {
		n := []int{4, 10, 25}[trial%3]
		g := randomGenerator(rnd, n, 0.4, 1)
		tt := math.Pow(10, 3*rnd.Float64()-1) / mat.Norm(g, 1)
		v := make([]float64, n)
		ones := make([]float64, n)
		for i := range v {
			v[i] = rnd.Float64()
			ones[i] = 1
		}
		want := denseAction(t, g, tt, v)
		for _, m := range []mat.Matrix{g, toCSR(g)} {
			got := make([]float64, n)
			res, err := Uniformize(got, m, tt, v, nil)
			if err != nil {
				t.Fatal(err)
			}
			// The series has R ≈ Λt terms, each adding a rounding of
			// relative size u to a sum bounded by ‖v‖_∞.
			tol := 10*u*float64(res.Terms+n) + res.ErrorBound
			if d := maxAbsDiff(got, want); d > tol {
				t.Errorf("trial %d (%T): max diff %.3g > %.3g (%+v)", trial, m, d, tol, res)
			}
			for i, x := range got {
				if x < 0 {
					t.Errorf("trial %d: negative entry %d: %g", trial, i, x)
				}
			}
			if _, err := Uniformize(got, m, tt, ones, nil); err != nil {
				t.Fatal(err)
			}
			if d := maxAbsDiff(got, ones); d > 10*u*float64(res.Terms+n) {
				t.Errorf("trial %d: exp(tG)·1 deviates from 1 by %.3g", trial, d)
			}
		}
		// Loose tolerance: fewer terms, error within the reported bound
		// (plus rounding).
		got := make([]float64, n)
		res, err := Uniformize(got, g, tt, v, &Settings{Tol: 1e-6})
		if err != nil {
			t.Fatal(err)
		}
		if d := maxAbsDiff(got, want); d > res.ErrorBound+1e-13 || res.ErrorBound > 2e-6*normInf(v) {
			t.Errorf("trial %d Tol=1e-6: error %.3g, bound %.3g", trial, d, res.ErrorBound)
		}
	}
}

// TestPoissonWeights compares the weights with gonum's distuv.Poisson
// probabilities and checks the reported tail bound against the exact
// neglected mass 1 − Σ_{k=L..R} P(k).
func TestPoissonWeights(t *testing.T) {
	for _, lambda := range []float64{0.3, 5, 100, 1e4, 1e6} {
		for _, tol := range []float64{unitRoundoff, 1e-8} {
			w, left, right, tail := poissonWeights(lambda, tol/2)
			p := distuv.Poisson{Lambda: lambda}
			var kept, sumTol float64
			for k := left; k <= right; k++ {
				want := p.Prob(float64(k))
				kept += want
				// distuv evaluates exp(k·log λ − λ − lgamma(k+1)): the
				// exponent's terms have magnitude ≈ k|log λ| + λ, so its
				// relative error is about u·(k|log λ| + λ)·(a few); the
				// recurrences here add about (R − L)·u, and the
				// renormalisation changes every weight by ≤ tail.
				rel := 1e-13 + 4*u*(float64(k)*math.Abs(math.Log(lambda))+lambda) + 2*tail
				sumTol += rel * want
				if r := math.Abs(w[k-left]-want) / want; r > rel {
					t.Errorf("λ=%g k=%d: weight %.17g, Poisson pmf %.17g (rel %.3g > %.3g)", lambda, k, w[k-left], want, r, rel)
					return
				}
			}
			neglected := math.Max(0, 1-kept)
			// The bound must dominate the neglected mass (up to the
			// oracle's own error sumTol) and respect the tolerance:
			// tail ≤ tol/W with W = Σu ≥ 1 the unnormalised kept mass.
			if neglected > tail+sumTol || tail > tol {
				t.Errorf("λ=%g tol=%g: neglected %.3g, bound %.3g (oracle error %.3g)", lambda, tol, neglected, tail, sumTol)
			}
		}
	}
}

// TestActionLargeSparse compares the two action algorithms with each other
// on a 2000-state birth–death generator in CSR form (rates chosen so that
// ‖G‖t ≈ 60) and, for the distribution πᵀexp(tG), through a transposed
// input (sparse.CSC from CSR.T() and mat.Transpose of the CSR).
func TestActionLargeSparse(t *testing.T) {
	const n = 2000
	g := birthDeath(n, 0.7, 1.0)
	const tt = 30.0
	v := make([]float64, n)
	for i := range v {
		v[i] = math.Sin(float64(i)) + 1 // ∈ [0, 2]
	}
	a := make([]float64, n)
	b := make([]float64, n)
	ra, err := ExpMulVec(a, g, tt, v, nil)
	if err != nil {
		t.Fatal(err)
	}
	rb, err := Uniformize(b, g, tt, v, nil)
	if err != nil {
		t.Fatal(err)
	}
	if d := maxAbsDiff(a, b); d > 1e-12 {
		t.Errorf("ExpMulVec vs Uniformize: max diff %.3g (%+v, %+v)", d, ra, rb)
	}
	t.Logf("ExpMulVec %+v; Uniformize %+v", ra, rb)

	// Distribution starting in state 0: p(t)ᵀ = e_0ᵀ exp(tG) = (exp(tGᵀ) e_0)ᵀ.
	e0 := make([]float64, n)
	e0[0] = 1
	var refDist []float64
	for i, m := range []mat.Matrix{g.T(), mat.Transpose{Matrix: g}} {
		p := make([]float64, n)
		if _, err := ExpMulVec(p, m, tt, e0, nil); err != nil {
			t.Fatal(err)
		}
		q := make([]float64, n)
		if _, err := Uniformize(q, m, tt, e0, nil); err == nil {
			t.Errorf("Uniformize accepted Gᵀ (row sums ≠ 0)")
		}
		var sum float64
		for _, x := range p {
			sum += x
		}
		if math.Abs(sum-1) > 1e-13 {
			t.Errorf("input %d: distribution sums to 1 + %.3g", i, sum-1)
		}
		if refDist == nil {
			refDist = p
		} else if d := maxAbsDiff(p, refDist); d > 1e-15 {
			t.Errorf("CSC and Transpose inputs differ by %.3g", d)
		}
	}
	// Cross-check one entry of the distribution against the column action:
	// p_j(t) = (exp(tG) e_j)_0.
	ej := make([]float64, n)
	ej[3] = 1
	col := make([]float64, n)
	if _, err := ExpMulVec(col, g, tt, ej, nil); err != nil {
		t.Fatal(err)
	}
	if d := math.Abs(col[0] - refDist[3]); d > 1e-14 {
		t.Errorf("p_3(t): row action %.17g, column action %.17g", refDist[3], col[0])
	}
}

// birthDeath returns the CSR generator of a birth–death chain on 0..n−1
// with birth rate lam and death rate mu.
func birthDeath(n int, lam, mu float64) *sparse.CSR {
	coo := sparse.NewCOO(n, n, nil, nil, nil)
	for i := 0; i < n; i++ {
		var out float64
		if i+1 < n {
			coo.Set(i, i+1, lam)
			out += lam
		}
		if i > 0 {
			coo.Set(i, i-1, mu)
			out += mu
		}
		coo.Set(i, i, -out)
	}
	return coo.ToCSR()
}

// TestActionErrors checks the error and panic contract of ExpMulVec and
// Uniformize, and the trivial cases t = 0 and A = 0.
func TestActionErrors(t *testing.T) {
	g := mat.NewDense(2, 2, []float64{-1, 1, 2, -2})
	dst := make([]float64, 2)
	v := []float64{1, 2}
	for _, tc := range []struct {
		name string
		f    func() error
		want string
	}{
		{"short v", func() error { _, err := ExpMulVec(dst, g, 1, []float64{1}, nil); return err }, "len(v)"},
		{"NaN v", func() error { _, err := ExpMulVec(dst, g, 1, []float64{1, math.NaN()}, nil); return err }, "v[1]"},
		{"Inf t", func() error { _, err := ExpMulVec(dst, g, math.Inf(1), v, nil); return err }, "t ="},
		{"NaN a", func() error {
			_, err := ExpMulVec(dst, mat.NewDense(2, 2, []float64{0, math.NaN(), 0, 0}), 1, v, nil)
			return err
		}, "a[0,1]"},
		{"negative t", func() error { _, err := Uniformize(dst, g, -1, v, nil); return err }, "t ≥ 0"},
		{"negative rate", func() error {
			_, err := Uniformize(dst, mat.NewDense(2, 2, []float64{1, -1, 0, 0}), 1, v, nil)
			return err
		}, "g[0,1]"},
		{"positive row sum", func() error {
			_, err := Uniformize(dst, mat.NewDense(2, 2, []float64{-1, 2, 0, 0}), 1, v, nil)
			return err
		}, "row 0"},
		{"bad Tol", func() error { _, err := Uniformize(dst, g, 1, v, &Settings{Tol: 2}); return err }, "Tol"},
	} {
		err := tc.f()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want mention of %q", tc.name, err, tc.want)
		}
	}
	mustPanic(t, "dst length", func() { _, _ = ExpMulVec(make([]float64, 3), g, 1, v, nil) })
	mustPanic(t, "non-square", func() { _, _ = Uniformize(dst, mat.NewDense(2, 3, nil), 1, v, nil) })

	// t = 0 and A = 0 return v; a sub-generator (killing) is accepted and
	// decays: exp(−t)·v for G = −I.
	for _, m := range []mat.Matrix{g, mat.NewDense(2, 2, nil)} {
		for _, f := range []func([]float64, mat.Matrix, float64, []float64, *Settings) (Result, error){ExpMulVec, Uniformize} {
			tt := 0.0
			if _, ok := m.(*mat.Dense); ok && mat.Norm(m, 1) == 0 {
				tt = 5
			}
			if _, err := f(dst, m, tt, v, nil); err != nil || maxAbsDiff(dst, v) != 0 {
				t.Errorf("trivial case: %v, err %v", dst, err)
			}
		}
	}
	kill := mat.NewDense(2, 2, []float64{-1, 0, 0, -1})
	for _, f := range []func([]float64, mat.Matrix, float64, []float64, *Settings) (Result, error){ExpMulVec, Uniformize} {
		if _, err := f(dst, kill, 2, v, nil); err != nil {
			t.Fatal(err)
		}
		for i := range v {
			if r := math.Abs(dst[i]/(v[i]*math.Exp(-2)) - 1); r > 1e-14 {
				t.Errorf("exp(−2I)·v: got %v (rel err %.3g)", dst, r)
			}
		}
	}
}
