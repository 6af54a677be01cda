package expm

import (
	"math"
	"math/big"
	"testing"
)

// bigFactorial returns n! exactly.
func bigFactorial(n int) *big.Int {
	return new(big.Int).MulRange(1, int64(max(n, 1)))
}

// TestPadeCoefficients checks the Padé numerator coefficients against the
// closed form b_j = (2m−j)!/(j!(m−j)!) (Higham 2005, normalised so
// that b_m = 1) and 1/|c_{2m+1}| = (2m)!(2m+1)!/(m!)², exactly in integer
// arithmetic, each rounded once to float64.
func TestPadeCoefficients(t *testing.T) {
	for m, b := range padeCoef {
		if len(b) != m+1 {
			t.Fatalf("m=%d: %d coefficients", m, len(b))
		}
		for j := 0; j <= m; j++ {
			num := bigFactorial(2*m - j)
			den := new(big.Int).Mul(bigFactorial(j), bigFactorial(m-j))
			var q, r big.Int
			q.QuoRem(num, den, &r)
			if r.Sign() != 0 {
				t.Fatalf("m=%d j=%d: b_j not an integer", m, j)
			}
			want, _ := new(big.Float).SetInt(&q).Float64()
			if b[j] != want {
				t.Errorf("m=%d: b_%d = %v, want %v", m, j, b[j], want)
			}
		}
		num := new(big.Int).Mul(bigFactorial(2*m), bigFactorial(2*m+1))
		den := new(big.Int).Mul(bigFactorial(m), bigFactorial(m))
		want, _ := new(big.Float).SetInt(new(big.Int).Quo(num, den)).Float64()
		if got := backErrCoefRecip[m]; got != want {
			t.Errorf("m=%d: 1/|c_{2m+1}| = %v, want %v", m, got, want)
		}
	}
}

// logSeries returns the first n+1 Taylor coefficients of log(p(x)/p(0))
// for the polynomial with coefficients p (p[0] ≠ 0), from
// (log p)' = p'/p, i.e. (k+1)ℓ_{k+1} = (k+1)p_{k+1} − Σ_{i=1..k} p_i (k+1−i) ℓ_{k+1−i}
// with p normalised to p_0 = 1.
func logSeries(p []*big.Float, n int, prec uint) []*big.Float {
	nf := func() *big.Float { return new(big.Float).SetPrec(prec) }
	q := make([]*big.Float, len(p))
	for i := range p {
		q[i] = nf().Quo(p[i], p[0])
	}
	coef := func(i int) *big.Float {
		if i < len(q) {
			return q[i]
		}
		return nf()
	}
	l := make([]*big.Float, n+1)
	l[0] = nf()
	for k := 0; k < n; k++ {
		s := nf().Mul(coef(k+1), nf().SetInt64(int64(k+1)))
		for i := 1; i <= k && i < len(q); i++ {
			term := nf().Mul(q[i], l[k+1-i])
			term.Mul(term, nf().SetInt64(int64(k+1-i)))
			s.Sub(s, term)
		}
		l[k+1] = s.Quo(s, nf().SetInt64(int64(k+1)))
	}
	return l
}

// thetaFromSeries returns the largest θ with Σ_k |c_k| θ^{k−1} ≤ tol, by
// bisection; the sum has positive terms, so float64 evaluation is accurate
// to a few ulps, and terms beyond the computed ones are negligible when the
// last terms are (checked by the caller via lastTerm).
func thetaFromSeries(c []*big.Float, tol float64) (theta, lastTerm float64) {
	abs := make([]float64, len(c))
	for k, v := range c {
		f, _ := v.Float64()
		abs[k] = math.Abs(f)
	}
	f := func(x float64) (sum, last float64) {
		for k := len(abs) - 1; k >= 1; k-- {
			if abs[k] != 0 {
				term := abs[k] * math.Pow(x, float64(k-1))
				sum += term
				if last == 0 {
					last = term
				}
			}
		}
		return sum, last
	}
	lo, hi := 0.0, 1.0
	for s, _ := f(hi); s <= tol; s, _ = f(hi) {
		hi *= 2
	}
	for i := 0; i < 200 && hi-lo > 1e-17*hi; i++ {
		mid := (lo + hi) / 2
		if s, _ := f(mid); s <= tol {
			lo = mid
		} else {
			hi = mid
		}
	}
	_, last := f(lo)
	return lo, last
}

// TestThetaDerivation recomputes θ_m of the Padé approximants from their
// definition (Higham 2005; Al-Mohy & Higham 2009): with
// h_{2m+1}(x) = log(e^{−x} r_m(x)) = −x + log p_m(x) − log p_m(−x) = Σ c_k x^k,
// θ_m = max{θ : Σ_k |c_k| θ^{k−1} ≤ u = 2⁻⁵³}. The series is formed in
// 512-bit arithmetic with 600 terms; the test also checks that c_1, …, c_{2m}
// vanish and that |c_{2m+1}| = 1/backErrCoefRecip[m].
func TestThetaDerivation(t *testing.T) {
	if testing.Short() {
		t.Skip("series computation skipped in -short mode")
	}
	const (
		prec  = 512
		terms = 600
	)
	for _, m := range []int{3, 5, 7, 9, 13} {
		p := make([]*big.Float, m+1)
		for j, b := range padeCoef[m] {
			p[j] = new(big.Float).SetPrec(prec).SetFloat64(b) // exact integers
		}
		l := logSeries(p, terms, prec)
		c := make([]*big.Float, terms+1)
		for k := range c {
			c[k] = new(big.Float).SetPrec(prec)
			if k%2 == 1 {
				c[k].Mul(l[k], big.NewFloat(2)) // ℓ_k − (−1)^k ℓ_k
			}
		}
		c[1].Sub(c[1], big.NewFloat(1)) // the −x term
		for k := 1; k <= 2*m; k++ {
			if f, _ := c[k].Float64(); math.Abs(f) > 1e-100 {
				t.Errorf("m=%d: c_%d = %g, want 0", m, k, f)
			}
		}
		lead, _ := c[2*m+1].Float64()
		if r := math.Abs(math.Abs(lead)*backErrCoefRecip[m] - 1); r > 1e-15 {
			t.Errorf("m=%d: |c_{2m+1}|·backErrCoefRecip = 1 + %g", m, r)
		}
		th, last := thetaFromSeries(c, unitRoundoff)
		if last > 1e-30*unitRoundoff {
			t.Errorf("m=%d: series not converged (last term %g)", m, last)
		}
		// The table has 16 significant digits; the bisection and float64
		// summation are accurate to a few ulps of θ (h̃(θ)/θ ∝ θ^{2m}
		// divides the relative error of the sum by 2m). Measured
		// differences are ≤ 6.7e-16.
		if r := math.Abs(th/theta[m] - 1); r > 1e-15 {
			t.Errorf("m=%d: derived θ = %.16g, table %.16g (rel diff %.2g)", m, th, theta[m], r)
		}
	}
}

// TestThetaTaylor recomputes the θ_m of the truncated Taylor series used by
// ExpMulVec from their definition (Al-Mohy & Higham 2011): with
// h_{m+1}(x) = log(e^{−x} T_m(x)) = −x + log T_m(x) = Σ_{k≥m+1} c_k x^k,
// θ_m = max{θ : Σ_k |c_k| θ^{k−1} ≤ 2⁻⁵³}, and compares with the
// published table.
func TestThetaTaylor(t *testing.T) {
	if testing.Short() {
		t.Skip("series computation skipped in -short mode")
	}
	const (
		prec  = 256
		terms = 400
	)
	for _, e := range thetaTaylor {
		m := e.m
		p := make([]*big.Float, m+1)
		for j := range p {
			p[j] = new(big.Float).SetPrec(prec).SetInt(bigFactorial(j))
			p[j].Quo(new(big.Float).SetPrec(prec).SetInt64(1), p[j]) // 1/j!
		}
		c := logSeries(p, terms, prec)
		c[1].Sub(c[1], big.NewFloat(1))
		for k := 1; k <= m; k++ {
			if f, _ := c[k].Float64(); math.Abs(f) > 1e-60 {
				t.Errorf("m=%d: c_%d = %g, want 0", m, k, f)
			}
		}
		th, last := thetaFromSeries(c, unitRoundoff)
		if last > 1e-20*unitRoundoff {
			t.Errorf("m=%d: series not converged (last term %g)", m, last)
		}
		// The published values have three significant digits (two for
		// m ≥ 35); the allowance is half a unit in the last digit plus
		// 0.2%. Measured: all agree to rounding except
		// m = 8 (5.00e-2 vs 4.991e-2, +0.18%), m = 16 (0.781 vs 0.7803,
		// +0.09%) and m = 1 (2.29e-16 vs 2⁻⁵² = 2.22e-16, +3.1%; for m = 1
		// the bound is θ/2 + O(θ²) ≤ 2⁻⁵³, so 2⁻⁵² is exact and the table
		// entry is slightly generous). A θ_m too large by a factor 1 + δ
		// raises the backward error bound by about (1 + δ)^m: at most 1.2
		// for these entries, and m = 1 is never chosen in practice.
		digits := 3.0
		if m >= 35 {
			digits = 2
		}
		tol := 0.5*math.Pow(10, math.Floor(math.Log10(e.theta))-digits+1)/e.theta + 0.002
		if m == 1 {
			tol = 0.035
		}
		if r := math.Abs(e.theta/th - 1); r > tol {
			t.Errorf("m=%d: derived θ = %.6g, table %.3g (rel diff %.3g > %g)", m, th, e.theta, r, tol)
		}
	}
}
