package batchchain

import (
	"fmt"
	"math"
	"math/cmplx"
	"testing"
)

// TestResolvent: (σI − A)·y = f holds for y = resolvent(σ, f) with the
// dense generator of Chain.Generator (another construction of A), to
// 1e-13 of (|σ| + ‖A‖_∞)·‖y‖_∞ entrywise, on phaseCases, σ = 0 and
// 2πij/t for t = 0.1, 1 and 20 mean times to an interruption, j = 1, 4;
// at σ = 0 it equals Solve to 1e-13 relative. The power check: the
// residual of y for σ used with σ conjugated (the wrong sign of the
// rotation) is above 1e-6 of the scale somewhere.
func TestResolvent(t *testing.T) {
	for _, tc := range phaseCases {
		c, ph := newPhase(t, tc.n, tc.a, tc.lambda, tc.theta, tc.sizes)
		a, _ := c.Generator()
		n1 := c.M() + 1
		f := make([]float64, n1)
		for i := range f {
			f[i] = 1 + 0.5*math.Sin(float64(i))
		}
		norm := 0.0
		for i := range n1 {
			var r float64
			for k := range n1 {
				r += math.Abs(a.At(i, k))
			}
			norm = math.Max(norm, r)
		}
		residual := func(sigma complex128, y []complex128) float64 {
			var worst, top float64
			for _, v := range y {
				top = math.Max(top, cmplx.Abs(v))
			}
			for i := range n1 {
				r := sigma*y[i] - complex(f[i], 0)
				for k := range n1 {
					r -= complex(a.At(i, k), 0) * y[k]
				}
				worst = math.Max(worst, cmplx.Abs(r))
			}
			return worst / ((cmplx.Abs(sigma) + norm) * top)
		}
		y0 := ph.resolvent(0, f)
		for i, v := range ph.Solve(f) {
			if math.Abs(real(y0[i])-v) > 1e-13*v || imag(y0[i]) != 0 {
				t.Errorf("n=%d a=%d: resolvent(0)[%d] = %v, Solve %.17g", tc.n, tc.a, i, y0[i], v)
			}
		}
		rejected := false
		for _, tt := range []float64{0.1 / ph.hitMin, 1 / ph.hitMin, 20 / ph.hitMin} {
			for _, j := range []float64{1, 4} {
				sigma := complex(0, 2*math.Pi*j/tt)
				name := fmt.Sprintf("n=%d a=%d σ=%v", tc.n, tc.a, sigma)
				if r := residual(sigma, ph.resolvent(sigma, f)); !(r <= 1e-13) {
					t.Errorf("%s: relative residual %.3g", name, r)
				}
				if residual(sigma, ph.resolvent(cmplx.Conj(sigma), f)) > 1e-6 {
					rejected = true
				}
			}
		}
		if !rejected {
			t.Errorf("n=%d a=%d: the conjugate's solutions pass: the power check fails", tc.n, tc.a)
		}
	}
}

// TestRestClosed: the closed form of the rest of a sum on the whole
// range, restClosed at the first ladder point n ≥ flatTerms(x), equals
// the rest summed term by term to Weights' flat point and closed there
// with Solve (c_k = 1/x to rounding: SegmentsColumn's form), to 1e-12
// relative, on phaseCases at lengths t with x = Λt from 1 to 150
// (where flatTerms is far below the flat point) and recoveries of 0 and
// 0.3 mean times to an interruption. The power check: the rest with the
// weights taken as flat at n (restTerms = 0: Solve alone) fails the
// same comparison from x = 10 (at x = 1 the terms left out are below
// 1e-13 at n = 16), where K is not zero (m > 0).
func TestRestClosed(t *testing.T) {
	for _, tc := range phaseCases {
		_, ph := newPhase(t, tc.n, tc.a, tc.lambda, tc.theta, tc.sizes)
		m := ph.c.m
		lam, _ := ph.bandRates(0, m)
		ck := ph.columnK(lam, 0, m)
		for _, x := range []float64{1, 10, 40, 150} {
			tt := x / lam
			n := max(ladderStep, (flatTerms(x)+ladderStep-1)/ladderStep*ladderStep)
			flat := NewWeights(x).flat
			if n > 1<<16 || flat > 1<<17 {
				continue
			}
			w := NewWeights(x)
			w.ensure(flat + 1)
			z, next := ones(m+1), make([]float64, m+1)
			for range n {
				ck.apply(next, z)
				z, next = next, z
			}
			got := restClosed(ph, z, n, x, tt)
			want := make([]float64, m+1)
			zk := append([]float64(nil), z...)
			for k := n; k < flat; k++ {
				for i, v := range zk {
					want[i] += w.at(k) * v
				}
				ck.apply(next, zk)
				zk, next = next, zk
			}
			for i, v := range ph.Solve(zk) {
				want[i] += v / tt
			}
			flatAlone := ph.Solve(z)
			rejected := false
			for i := range want {
				if math.Abs(got[i]-want[i]) > 1e-12*want[i] {
					t.Errorf("n=%d a=%d x=%v: rest[%d] = %.17g, summed to the flat point %.17g", tc.n, tc.a, x, i, got[i], want[i])
					break
				}
				if math.Abs(flatAlone[i]/tt-want[i]) > 1e-12*want[i] {
					rejected = true
				}
			}
			if m > 0 && x >= 10 && !rejected {
				t.Errorf("n=%d a=%d x=%v: the flat closed form at n = %d (flat from %d) passes: the power check fails", tc.n, tc.a, x, n, flat)
			}
		}
	}
}

// TestFlatTermsBound checks flatTerms' bound on the Poisson terms that
// restClosed leaves out: at n = flatTerms(x), the exact rest of c_n(x)
// beyond its first restTerms terms, (2/x)·Σ_{j>J} |β_j|ⁿ⁺¹ (each
// |β_j|ⁿ⁺¹ = (1 + (2πj/x)²)^{−(n+1)/2}), is at most 2⁻⁵³/x, on x from
// 10⁻³ to 10⁴ (a quarter decade apart: the bound's factor x²/(4π²J) and
// its rate log1p((2π(J+1)/x)²) change over that range from the tiny-x
// regime, a few terms, to 10⁷ terms). The oracle sums the terms directly
// up to j, then adds the bound Σ_{i>j} (x/2πi)ⁿ⁺¹ ≤ (x/2π)ⁿ⁺¹·j⁻ⁿ/n on
// the rest once it is below 1e-3 of the sum: an upper bound on the exact
// rest, within 0.1 % of it. Power: at half the count the rest exceeds
// 2⁻⁵³/x at every x, so a count short by a factor two fails.
func TestFlatTermsBound(t *testing.T) {
	rest := func(x float64, n int) float64 {
		if n == 0 {
			return math.Inf(1) // Σ 1/j
		}
		s := 0.0
		for j := restTerms + 1; ; j++ {
			w := 2 * math.Pi * float64(j) / x
			s += math.Exp(-float64(n+1) / 2 * math.Log1p(w*w))
			// log of (x/2π)ⁿ⁺¹·j⁻ⁿ/n = (x/2πj)ⁿ·(x/2π)/n.
			lt := float64(n)*math.Log(x/(2*math.Pi*float64(j))) + math.Log(x/(2*math.Pi)/float64(n))
			if tail := math.Exp(lt); tail <= 1e-3*s {
				return 2 / x * (s + tail)
			}
		}
	}
	for e := -12; e <= 16; e++ {
		x := math.Pow(10, float64(e)/4)
		n := flatTerms(x)
		if r := rest(x, n); !(r <= 0x1p-53/x) {
			t.Errorf("x = %.4g: the rest at n = flatTerms = %d is %.3g·2⁻⁵³/x", x, n, r/(0x1p-53/x))
		}
		if r := rest(x, n/2); !(r > 0x1p-53/x) {
			t.Errorf("x = %.4g: the rest at n = %d, half of flatTerms, is %.3g·2⁻⁵³/x: the power check fails", x, n/2, r/(0x1p-53/x))
		}
	}
}
