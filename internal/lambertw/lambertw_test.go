package lambertw

import (
	"math"
	"math/rand/v2"
	"testing"
)

const eps = 0x1p-52

// TestKnownValues checks exact and published values.
func TestKnownValues(t *testing.T) {
	ln2 := math.Ln2
	for _, tc := range []struct {
		name string
		f    func(float64) float64
		x    float64
		want float64
		tol  float64 // absolute
	}{
		// Ω, the omega constant: W0(1) = 0.567143290409783872999968662210...
		// (OEIS A030178; Corless et al. 1996, section 1).
		{"W0(1)=Ω", W0, 1, 0.5671432904097838, 2 * eps},
		// W0(e) = 1 since 1·e¹ = e.
		{"W0(e)", W0, math.E, 1, 2 * eps},
		// W0(0) = 0.
		{"W0(0)", W0, 0, 0, 0},
		// Branch point: W(−1/e) = −1 on both branches. float64(−1/e) is
		// 1.2e−17 below −1/e, which the code treats as the branch point.
		{"W0(-1/e)", W0, -1 / math.E, -1, 0},
		{"Wm1(-1/e)", Wm1, -1 / math.E, -1, 0},
		// −ln2·e^{−ln2} = −ln2/2 and −ln4·e^{−ln4} = −ln4/4 = −ln2/2: the two
		// branches at −ln2/2 are −ln2 (W0) and −ln4 (W−1).
		{"W0(-ln2/2)", W0, -ln2 / 2, -ln2, 4 * eps},
		{"Wm1(-ln2/2)", Wm1, -ln2 / 2, -2 * ln2, 4 * eps},
		// ln2·e^{ln2} = 2 ln2.
		{"W0(2ln2)", W0, 2 * ln2, ln2, 2 * eps},
		// 2e² = 2·e²: W0(2e²) = 2.
		{"W0(2e^2)", W0, 2 * math.E * math.E, 2, 4 * eps},
		// −2e^{−2}: W−1 = −2; −3e^{−3}: W−1 = −3 (x computed in float, so the
		// tolerance allows the conditioning 1/|1+W| times the rounding of x).
		{"Wm1(-2e^-2)", Wm1, -2 * math.Exp(-2), -2, 16 * eps},
		{"Wm1(-3e^-3)", Wm1, -3 * math.Exp(-3), -3, 16 * eps},
		// Limits.
		{"W0(+Inf)", W0, math.Inf(1), math.Inf(1), 0},
		{"Wm1(0)", Wm1, 0, math.Inf(-1), 0},
	} {
		got := tc.f(tc.x)
		if got != tc.want && !(math.Abs(got-tc.want) <= tc.tol) {
			t.Errorf("%s = %.17g, want %.17g (tol %g)", tc.name, got, tc.want, tc.tol)
		}
	}
}

// TestDomain checks that arguments outside the real domain give NaN.
func TestDomain(t *testing.T) {
	for _, x := range []float64{math.NaN(), -1, -0.3679, math.Inf(-1), -math.Pi / 2} {
		if w := W0(x); !math.IsNaN(w) {
			t.Errorf("W0(%v) = %v, want NaN", x, w)
		}
	}
	for _, x := range []float64{math.NaN(), -1, -0.3679, 1e-300, 1, math.Inf(1)} {
		if w := Wm1(x); !math.IsNaN(w) {
			t.Errorf("Wm1(%v) = %v, want NaN", x, w)
		}
	}
}

// inverseTol is the tolerance of W(w·e^w) = w. x = w·e^w carries a relative
// rounding error of at most 2 ulp (exp and product), and dW/dx =
// W/(x(1+W)), so W moves by up to 2ε|W|/|1+W| before any error of the
// algorithm; allow four times that plus 4 ulp of W itself.
func inverseTol(w float64) float64 {
	return 8*eps*math.Abs(w)/math.Abs(1+w) + 4*eps*math.Abs(w) + 1e-300
}

// TestInverse checks W0(w·e^w) = w for w ≥ −1 and W−1(w·e^w) = w for
// w ≤ −1, the defining identity, on a seeded random sample covering the
// branch point, the series/Halley switch and the asymptotic regimes.
func TestInverse(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	check := func(name string, f func(float64) float64, w float64) {
		t.Helper()
		x := w * math.Exp(w)
		got := f(x)
		if d := math.Abs(got - w); !(d <= inverseTol(w)) {
			t.Errorf("%s(%.17g) = %.17g, want %.17g (|diff| %.3g > tol %.3g)", name, x, got, w, d, inverseTol(w))
		}
	}
	for range 20000 {
		// Principal branch: −1 < w, log-spread offsets from −1 and large w.
		check("W0", W0, -1+math.Pow(10, -8+10*rng.Float64()))
		check("W0", W0, 700*rng.Float64())
		check("W0", W0, math.Pow(10, -300+300*rng.Float64()))
		check("W0", W0, -math.Pow(10, -300+300*rng.Float64())*0.999)
		// Lower branch: w < −1 down to where w·e^w stays normal.
		check("Wm1", Wm1, -1-math.Pow(10, -8+10*rng.Float64()))
		check("Wm1", Wm1, -1-699*rng.Float64())
	}
}

// TestResidual checks the identity W(x)·e^{W(x)} = x directly on a grid of
// x, with the residual scaled by the conditioning of the problem.
func TestResidual(t *testing.T) {
	for _, tc := range []struct {
		name   string
		f      func(float64) float64
		lo, hi float64
	}{
		{"W0", W0, -1 / math.E, 0},
		{"W0", W0, 0, 10},
		{"W0", W0, 10, 1e6},
		{"Wm1", Wm1, -1 / math.E, -1e-6},
	} {
		const n = 5000
		for i := 1; i < n; i++ {
			x := tc.lo + (tc.hi-tc.lo)*float64(i)/n
			w := tc.f(x)
			r := w*math.Exp(w) - x
			// f(w) = w·e^w − x has |f'(w)| = e^w|1+w|, so one ulp of w
			// moves the residual by ε|w|e^w|1+w|, plus rounding of the
			// product itself.
			tol := 8 * eps * (math.Abs(x) + math.Abs(w)*math.Exp(w)*math.Abs(1+w))
			if !(math.Abs(r) <= tol) {
				t.Errorf("%s(%.17g) = %.17g: residual %.3g > %.3g", tc.name, x, w, r, tol)
			}
		}
	}
}

// TestBranchProperties checks monotonicity (W0 increasing, W−1
// decreasing), the branch ordering W−1 ≤ −1 ≤ W0, and continuity of W0
// across the switch between the series and Halley's iteration.
func TestBranchProperties(t *testing.T) {
	const n = 20000
	prev0, prevm := math.Inf(-1), math.Inf(1)
	for i := 0; i <= n; i++ {
		x := -1/math.E + (1/math.E-1e-9)*float64(i)/n
		w0, wm := W0(x), Wm1(x)
		if w0 < -1 || wm > -1 {
			t.Fatalf("x=%g: W0=%g, W−1=%g violate W−1 ≤ −1 ≤ W0", x, w0, wm)
		}
		if w0 < prev0 || wm > prevm {
			t.Fatalf("x=%g: monotonicity broken: W0 %g after %g, W−1 %g after %g", x, w0, prev0, wm, prevm)
		}
		prev0, prevm = w0, wm
	}
	// Series and Halley must agree where they meet (|p| = seriesMax).
	q := seriesMax * seriesMax / 2
	xs := (q - 1) / math.E
	for _, f := range []struct {
		name string
		f    func(float64) float64
	}{{"W0", W0}, {"Wm1", Wm1}} {
		below, above := f.f(math.Nextafter(xs, -1)), f.f(math.Nextafter(xs, 0))
		if math.Abs(below-above) > 1e-13 {
			t.Errorf("%s jumps at the series switch: %.17g vs %.17g", f.name, below, above)
		}
	}
}

// TestSeriesAccuracy compares the branch-point series with Halley's
// iteration started from it, where both are accurate (|p| ≤ 0.03): they
// must agree to the series truncation error 0.004·|p|¹⁰ plus rounding.
func TestSeriesAccuracy(t *testing.T) {
	for _, p := range []float64{0.001, 0.01, 0.02, 0.03, -0.001, -0.01, -0.03} {
		x := (p*p/2 - 1) / math.E
		pp, _ := branchP(x)
		if p < 0 {
			pp = -pp
		}
		s := series(pp)
		h := halley(s+1e-3*p, x) // perturbed start: Halley must converge back
		tol := 0.004*math.Pow(math.Abs(p), 10) + 64*eps/math.Abs(p)
		if math.Abs(s-h) > tol {
			t.Errorf("p=%g: series %.17g, Halley %.17g, diff %.3g > %.3g", p, s, h, s-h, tol)
		}
	}
}

// FuzzW0 checks the defining identity on arbitrary inputs.
func FuzzW0(f *testing.F) {
	for _, x := range []float64{-1 / math.E, -0.3, -0.1, 0, 1e-300, 0.5, 1, math.E, 100, 1e300} {
		f.Add(x)
	}
	f.Fuzz(func(t *testing.T, x float64) {
		for _, br := range []struct {
			name string
			f    func(float64) float64
		}{{"W0", W0}, {"Wm1", Wm1}} {
			w := br.f(x)
			if math.IsNaN(w) || math.IsInf(w, 0) {
				continue
			}
			if br.name == "W0" && w < -1 || br.name == "Wm1" && w > -1 {
				t.Fatalf("%s(%g) = %g on the wrong branch", br.name, x, w)
			}
			ew := math.Exp(w)
			if ew == 0 || math.IsInf(ew, 0) {
				continue
			}
			r := w*ew - x
			tol := 8*eps*(math.Abs(x)+math.Abs(w)*ew*math.Abs(1+w)) + 1e-300
			if !(math.Abs(r) <= tol) {
				t.Fatalf("%s(%.17g) = %.17g: residual %.3g > %.3g", br.name, x, w, r, tol)
			}
		}
	})
}

func BenchmarkW0(b *testing.B) {
	b.ReportAllocs()
	xs := []float64{-0.36, -0.2, 0.1, 1, 10, 1e5}
	var s float64
	for i := 0; b.Loop(); i++ {
		s += W0(xs[i%len(xs)])
	}
	_ = s
}

func BenchmarkWm1(b *testing.B) {
	b.ReportAllocs()
	xs := []float64{-0.36, -0.2, -0.01, -1e-5}
	var s float64
	for i := 0; b.Loop(); i++ {
		s += Wm1(xs[i%len(xs)])
	}
	_ = s
}

// TestOnePlusW0 checks 1 + W0 near the branch point against the expansion
// of the minimiser of (e^{T+x} − 1)/T, r = 1 + W0(−e^{−1−x}) =
// sqrt(2x) − 2x/3 + sqrt(2x)·x/18 + O(x²) (Daly 2006, eq. 37, which is this
// expansion; Corless et al. 1996, eq. 4.22 with p = sqrt(2(1 − e^{−x}))),
// and away from it against 1 + W0.
func TestOnePlusW0(t *testing.T) {
	for _, x := range []float64{1e-14, 1e-12, 1e-10, 1e-8, 1e-6} {
		d := -math.Expm1(-x)
		got := OnePlusW0(d)
		s := math.Sqrt(2 * x)
		want := s - 2*x/3 + s*x/18
		// Next term is O(x²); relative to s it is O(x^1.5).
		if rel := math.Abs(got-want) / want; rel > 4*eps+math.Pow(x, 1.5) {
			t.Errorf("x=%g: OnePlusW0 = %.17g, expansion %.17g, rel diff %.3g", x, got, want, rel)
		}
	}
	// Across the series switch (d = 4.5e−4) and beyond. 1 + W0(x) loses
	// about ε/(1+W0) relative accuracy to cancellation, hence 1e−11.
	for _, d := range []float64{1e-4, 4e-4, 5e-4, 1e-3, 0.01, 0.1, 0.5, 0.9, 1, 2, 10} {
		got := OnePlusW0(d)
		want := 1 + W0((d-1)/math.E)
		if math.Abs(got-want) > 1e-11*math.Abs(want) {
			t.Errorf("d=%g: OnePlusW0 = %.17g, 1+W0 = %.17g", d, got, want)
		}
	}
	if !math.IsNaN(OnePlusW0(-1e-3)) || !math.IsNaN(OnePlusW0(math.NaN())) {
		t.Errorf("OnePlusW0 outside its domain is not NaN")
	}
}
