package birthdeath

import (
	"fmt"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// denseCase is one (m, λ, θ, T, ρ) point of the cross-method table.
type denseCase struct {
	m                   int
	lambda, theta, t, r float64
}

// eigenInRange reports whether (m, θ/λ) is inside the range where
// TestEigenValidityScan measured the Eigen method within 1e-12 of
// ClosedForm (the table in doc.go).
func eigenInRange(m int, lambda, theta float64) bool {
	if lambda == 0 || theta == 0 {
		return false
	}
	r := theta / lambda
	return m <= 9 || (r >= 0.1 && r <= 10 && m <= 10) ||
		(r >= 1.0/3 && r <= 3 && m <= 13) || (r == 1 && m <= 25)
}

// denseCases covers the ranges in which the methods are valid. Eigen is
// compared where eigenInRange holds, VanLoan everywhere: every case has
// ‖G_m‖₁·T ≤ 1e4, the range measured by TestVanLoanValidityScan.
var denseCases = []denseCase{
	{m: 0, lambda: 1, theta: 2, t: 0.5, r: 0.3},
	{m: 1, lambda: 1, theta: 1, t: math.Ln2, r: 1},
	{m: 2, lambda: 1e-6, theta: 1, t: 3, r: 1e-5},
	{m: 3, lambda: 1, theta: 1e6, t: 1e-5, r: 2},
	{m: 5, lambda: 0.3, theta: 1.1, t: 0.7, r: 0.4},
	{m: 5, lambda: 1, theta: 1e3, t: 0.1, r: 5},
	{m: 10, lambda: 1, theta: 4, t: 2, r: 3}, // ρT > 1: VanLoan takes P from a second expm
	{m: 10, lambda: 1, theta: 0.25, t: 0.05, r: 10},
	{m: 16, lambda: 1.0 / 8, theta: 1.0 / 4, t: 1, r: 2},
	{m: 20, lambda: 1, theta: 1, t: 0.01, r: 0.5},
	{m: 25, lambda: 1, theta: 1.5, t: 3, r: 1e-3},
	{m: 30, lambda: 0.2, theta: 0.1, t: 5, r: 0.05},
	{m: 40, lambda: 1, theta: 3, t: 0.2, r: 20},
	{m: 60, lambda: 1.0 / 8, theta: 1.0 / 4, t: 0.5, r: 0.25},
	{m: 60, lambda: 1e-3, theta: 1, t: 4, r: 0.016},
	{m: 8, lambda: 0, theta: 1, t: 1.5, r: 0},   // no failures, ρ = aλ = 0
	{m: 8, lambda: 1, theta: 0, t: 1.5, r: 0.7}, // no repairs
	{m: 4, lambda: 0, theta: 0, t: 2, r: 0},     // frozen chain
	{m: 12, lambda: 2, theta: 3, t: 0, r: 1},
}

func (dc denseCase) String() string {
	return fmt.Sprintf("m=%d,λ=%g,θ=%g,T=%g,ρ=%g", dc.m, dc.lambda, dc.theta, dc.t, dc.r)
}

// Entries are probabilities, so every comparison is absolute. 1e-12 is the
// brief's agreement target; the methods differ by ~1e-14 in this table.
const denseTol = 1e-12

func TestMethodsAgree(t *testing.T) {
	for _, dc := range denseCases {
		c, err := New(dc.m, dc.lambda, dc.theta)
		if err != nil {
			t.Fatal(err)
		}
		var pc, qc mat.Dense
		if err := c.Transition(&pc, &qc, dc.t, dc.r, &Settings{Method: ClosedForm}); err != nil {
			t.Fatalf("%v: ClosedForm: %v", dc, err)
		}
		checkSums(t, dc.String()+" ClosedForm", &pc, &qc, dc.t, dc.r)
		for _, meth := range []Method{VanLoan, Eigen} {
			if meth == Eigen && !eigenInRange(dc.m, dc.lambda, dc.theta) {
				continue
			}
			var p, q mat.Dense
			if err := c.Transition(&p, &q, dc.t, dc.r, &Settings{Method: meth}); err != nil {
				t.Errorf("%v: %v: %v", dc, meth, err)
				continue
			}
			if d := maxAbsDiff(&p, &pc); d > denseTol {
				t.Errorf("%v: |P_%v − P_ClosedForm| = %.2e", dc, meth, d)
			}
			if d := maxAbsDiff(&q, &qc); d > denseTol {
				t.Errorf("%v: |Q_%v − Q_ClosedForm| = %.2e", dc, meth, d)
			}
			checkSums(t, dc.String()+" "+meth.String(), &p, &q, dc.t, dc.r)
		}
	}
}

// checkSums checks that P is stochastic and that the rows of Q sum to
// 1 − e^{−ρT} (both from the definitions). Tolerance: (m+1) rounding
// errors of entries ≤ 1, with a factor 50 of headroom.
func checkSums(t *testing.T, name string, p, q *mat.Dense, tt, rho float64) {
	t.Helper()
	n, _ := p.Dims()
	tol := 50 * float64(n) * 0x1p-52
	want := -math.Expm1(-rho * tt)
	for i := 0; i < n; i++ {
		if s := mat.Sum(p.RowView(i)); math.Abs(s-1) > tol {
			t.Errorf("%s: row %d of P sums to 1%+.2e", name, i, s-1)
		}
		if s := mat.Sum(q.RowView(i)); math.Abs(s-want) > tol {
			t.Errorf("%s: row %d of Q sums to %v, want %v", name, i, s, want)
		}
		for j := 0; j < n; j++ {
			if p.At(i, j) < -tol || q.At(i, j) < -tol {
				t.Errorf("%s: negative entry at (%d,%d): P %v Q %v", name, i, j, p.At(i, j), q.At(i, j))
			}
		}
	}
}

// TestTwoState checks every method against the closed form for m = 1
// (one spare; formulas derived in twoStateQ).
func TestTwoState(t *testing.T) {
	for _, tc := range []struct{ lambda, theta, t, rho float64 }{
		{1, 1, math.Ln2, 1},
		{1.0 / 3600, 1.0 / 600, 600, 1.0 / 3600},
		{1e-6, 1, 10, 1e-6},
		{2, 1e-4, 0.3, 5},
	} {
		c, _ := New(1, tc.lambda, tc.theta)
		nu := tc.lambda + tc.theta
		pi := tc.theta / nu
		e := math.Exp(-nu * tc.t)
		wantP := mat.NewDense(2, 2, []float64{1 - pi*(1-e), pi * (1 - e), (1 - pi) * (1 - e), pi + (1-pi)*e})
		wantQ := twoStateQ(tc.lambda, tc.theta, tc.t, tc.rho)
		for _, meth := range []Method{Auto, ClosedForm, VanLoan, Eigen} {
			var p, q mat.Dense
			if err := c.Transition(&p, &q, tc.t, tc.rho, &Settings{Method: meth}); err != nil {
				t.Fatal(err)
			}
			if d := maxAbsDiff(&p, wantP); d > 1e-15 {
				t.Errorf("%+v %v: |P − exact| = %.2e", tc, meth, d)
			}
			if d := maxAbsDiff(&q, wantQ); d > 1e-15 {
				t.Errorf("%+v %v: |Q − exact| = %.2e", tc, meth, d)
			}
		}
	}
}

// TestSemigroup checks the closed form at sizes beyond the dense
// exponentials against the Chapman–Kolmogorov identities
// P_{a+b} = P_a P_b and Q_{a+b} = Q_a + e^{−ρa} P_a Q_b (split the integral
// at a and use the Markov property).
func TestSemigroup(t *testing.T) {
	for _, tc := range []struct {
		m                   int
		lambda, theta, a, b float64
		rho                 float64
	}{
		{150, 1.0 / 8, 1.0 / 4, 0.3, 0.9, 2},
		{200, 1e-4, 1, 0.5, 0.25, 0.01},
		{100, 1, 1e6, 1e-6, 3e-6, 3},
	} {
		c, _ := New(tc.m, tc.lambda, tc.theta)
		var pa, qa, pb, qb, pab, qab mat.Dense
		for _, x := range []struct {
			p, q *mat.Dense
			t    float64
		}{{&pa, &qa, tc.a}, {&pb, &qb, tc.b}, {&pab, &qab, tc.a + tc.b}} {
			if err := c.Transition(x.p, x.q, x.t, tc.rho, nil); err != nil {
				t.Fatal(err)
			}
		}
		var prod, qsum mat.Dense
		prod.Mul(&pa, &pb)
		qsum.Mul(&pa, &qb)
		qsum.Scale(math.Exp(-tc.rho*tc.a), &qsum)
		qsum.Add(&qsum, &qa)
		// A product of two stochastic matrices of size m+1 accumulates
		// ~(m+1)ε per entry.
		tol := 4 * float64(tc.m+1) * 0x1p-52
		if d := maxAbsDiff(&prod, &pab); d > tol {
			t.Errorf("%+v: |P_a P_b − P_{a+b}| = %.2e > %.2e", tc, d, tol)
		}
		if d := maxAbsDiff(&qsum, &qab); d > tol {
			t.Errorf("%+v: |Q_a + e^{−ρa}P_a Q_b − Q_{a+b}| = %.2e > %.2e", tc, d, tol)
		}
	}
}

// TestSpectrum checks the exact spectrum −kν, k = 0..m, claimed in the
// spec, with gonum's non-symmetric eigensolver on the generator.
func TestSpectrum(t *testing.T) {
	for _, tc := range []struct {
		m             int
		lambda, theta float64
	}{{1, 1, 2}, {6, 0.3, 0.7}, {12, 1, 1}, {9, 2, 0.5}} {
		c, _ := New(tc.m, tc.lambda, tc.theta)
		var eig mat.Eigen
		if !eig.Factorize(c.Generator(), mat.EigenNone) {
			t.Fatal("eigen failed")
		}
		got := eig.Values(nil)
		nu := tc.lambda + tc.theta
		// The eigenvalue condition numbers grow with m; 1e-9 relative to
		// ‖G‖ is ample for m ≤ 12.
		tol := 1e-9 * float64(tc.m) * nu
		for k := 0; k <= tc.m; k++ {
			want := -float64(k) * nu
			found := false
			for _, v := range got {
				if math.Abs(real(v)-want) < tol && math.Abs(imag(v)) < tol {
					found = true
				}
			}
			if !found {
				t.Errorf("%+v: eigenvalue %v missing from %v", tc, want, got)
			}
		}
	}
}

func TestTransitionLimits(t *testing.T) {
	c, _ := New(7, 0.4, 0.9)
	var p, q mat.Dense
	for _, meth := range []Method{ClosedForm, VanLoan, Eigen} {
		// ClosedForm is exact in these limits; the others carry rounding
		// errors of their matrix functions (m = 7 is inside both ranges).
		tol := 1e-15
		if meth != ClosedForm {
			tol = denseTol
		}
		// T = 0: P = I, Q = 0.
		if err := c.Transition(&p, &q, 0, 2, &Settings{Method: meth}); err != nil {
			t.Fatal(err)
		}
		n := 8
		if d := maxAbsDiff(&p, eye(n)); d > tol {
			t.Errorf("%v: P_0 differs from I by %.2e", meth, d)
		}
		if d := maxAbsDiff(&q, mat.NewDense(n, n, nil)); d > tol {
			t.Errorf("%v: Q_0 differs from 0 by %.2e", meth, d)
		}
		// ρ = 0: Q = 0.
		if err := c.Transition(nil, &q, 3, 0, &Settings{Method: meth}); err != nil {
			t.Fatal(err)
		}
		if d := maxAbsDiff(&q, mat.NewDense(n, n, nil)); d > tol {
			t.Errorf("%v: Q with ρ = 0 differs from 0 by %.2e", meth, d)
		}
	}
	// T → ∞: every row of P is the stationary Binomial(m, θ/(λ+θ)).
	if err := c.Transition(&p, nil, 200, 0, nil); err != nil {
		t.Fatal(err)
	}
	pi := 0.9 / 1.3
	for j := 0; j <= 7; j++ {
		want := float64(binom(7, j)) * math.Pow(pi, float64(j)) * math.Pow(1-pi, float64(7-j))
		for i := 0; i <= 7; i++ {
			if d := math.Abs(p.At(i, j) - want); d > 1e-15 {
				t.Errorf("P_∞[%d,%d] = %v, want %v", i, j, p.At(i, j), want)
			}
		}
	}
}

func eye(n int) *mat.Dense {
	d := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		d.Set(i, i, 1)
	}
	return d
}

func binom(n, k int) int {
	r := 1
	for i := 1; i <= k; i++ {
		r = r * (n - k + i) / i
	}
	return r
}

// Van Loan at large ‖G‖T on a small chain, where expm's exact triangular
// superdiagonal once overflowed (sinh(δ)·e^{…} = ∞·0): the three methods
// must still agree (the -scan report showed the Van Loan path failing at
// m = 2, θ = λ, ‖G‖T ≥ 3e3).
func TestVanLoanLargeNorm(t *testing.T) {
	c, err := New(2, 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ t, rho float64 }{{500, 2}, {500, 60}, {5000, 2e-3}, {5000, 2}} {
		var pv, qv, pc, qc mat.Dense
		if err := c.Transition(&pv, &qv, tc.t, tc.rho, &Settings{Method: VanLoan}); err != nil {
			t.Fatalf("t=%v ρ=%v: %v", tc.t, tc.rho, err)
		}
		if err := c.Transition(&pc, &qc, tc.t, tc.rho, &Settings{Method: ClosedForm}); err != nil {
			t.Fatal(err)
		}
		if d := math.Max(maxAbsDiff(&pv, &pc), maxAbsDiff(&qv, &qc)); d > 1e-12 {
			t.Errorf("t=%v ρ=%v: Van Loan and closed form differ by %g", tc.t, tc.rho, d)
		}
	}
}
