package expm

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestExpIntegral: ExpIntegral's e^{tA} and Φ(t) = ∫₀ᵗe^{uA}du equal the
// Van Loan block exp([[A, I], [0, 0]]·t) computed by Exp (Al-Mohy–Higham
// Padé, an independent algorithm) to (1e-13·n + 1e-15·t‖A‖₁) of each
// block's ∞-norm (both are forward stable to the exponential's condition
// number, up to about t‖A‖₁), on
// random generators and sub-generators (rates spread over 10^{±2}),
// a stiff one (diagonal −1e3, off-diagonal 1e-3), 1×1 and zero matrices,
// with t‖A‖₁ from 0 to 1e4 (no scaling to 15 doublings and more); the 1×1
// case also against the closed forms e^{at} (to 1e-14·max(1, |at|)
// relative, |at| its condition number) and expm1(at)/a.
func TestExpIntegral(t *testing.T) {
	rnd := rand.New(rand.NewPCG(7, 22))
	sub := func(n int) *mat.Dense {
		g := randomGenerator(rnd, n, 0.4, 2)
		for i := range n {
			g.Set(i, i, g.At(i, i)-rnd.Float64()) // killing
		}
		return g
	}
	stiff := mat.NewDense(3, 3, []float64{-1e3, 1e-3, 0, 0, -1e3, 1e-3, 1e-3, 0, -1e3})
	for _, tc := range []struct {
		name string
		a    *mat.Dense
	}{
		{"1x1", mat.NewDense(1, 1, []float64{-0.7})},
		{"zero", mat.NewDense(4, 4, nil)},
		{"generator 5", randomGenerator(rnd, 5, 0.5, 2)},
		{"sub-generator 12", sub(12)},
		{"sub-generator 40", sub(40)},
		{"stiff", stiff},
	} {
		n, _ := tc.a.Dims()
		norm := math.Max(mat.Norm(tc.a, 1), 1e-300)
		for _, x := range []float64{0, 1e-9, 0.3, 0.5, 7, 300, 1e4} {
			tt := x / norm
			// e empty, phi a sized destination.
			var e mat.Dense
			phi := mat.NewDense(n, n, nil)
			phi.Set(0, 0, math.NaN())
			if err := ExpIntegral(&e, phi, tc.a, tt); err != nil {
				t.Fatal(err)
			}
			blk := mat.NewDense(2*n, 2*n, nil)
			blk.Slice(0, n, 0, n).(*mat.Dense).Scale(tt, tc.a)
			for i := range n {
				blk.Set(i, n+i, tt)
			}
			ref := mustExp(t, blk, nil)
			check := func(what string, got, want mat.Matrix) {
				var d mat.Dense
				d.Sub(got, want)
				tol := (1e-13*float64(n) + 1e-15*x) * mat.Norm(want, math.Inf(1))
				if err := mat.Norm(&d, math.Inf(1)); err > tol {
					t.Errorf("%s t‖A‖=%v %s: off by %.3g (tolerance %.3g)", tc.name, x, what, err, tol)
				}
			}
			check("e", &e, ref.Slice(0, n, 0, n))
			check("phi", phi, ref.Slice(0, n, n, 2*n))
			if n == 1 && x > 0 {
				a := tc.a.At(0, 0)
				if d := math.Abs(e.At(0, 0)-math.Exp(a*tt)) / math.Exp(a*tt); d > 1e-14*math.Max(1, x) {
					t.Errorf("1x1 t=%v: e %v, want %v", tt, e.At(0, 0), math.Exp(a*tt))
				}
				if w := math.Expm1(a*tt) / a; math.Abs(phi.At(0, 0)-w) > 1e-14*w {
					t.Errorf("1x1 t=%v: phi %v, want %v", tt, phi.At(0, 0), w)
				}
			}
		}
	}
}

// TestExpIntegralRefuses: a negative off-diagonal entry, a negative or
// infinite t and a NaN entry are errors naming the cause; a non-square a
// and a wrong-sized destination panic.
func TestExpIntegralRefuses(t *testing.T) {
	good := mat.NewDense(2, 2, []float64{-1, 1, 0.5, -0.5})
	for _, tc := range []struct {
		name string
		a    *mat.Dense
		t    float64
		want string
	}{
		{"not Metzler", mat.NewDense(2, 2, []float64{-1, -0.1, 0, -1}), 1, "not a Metzler matrix"},
		{"negative t", good, -1, "want a finite t ≥ 0"},
		{"infinite t", good, math.Inf(1), "want a finite t ≥ 0"},
		{"NaN t", good, math.NaN(), "want a finite t ≥ 0"},
		{"NaN entry", mat.NewDense(2, 2, []float64{-1, math.NaN(), 0, -1}), 1, "is not finite"},
		{"overflow", mat.NewDense(1, 1, []float64{-1e300}), 1e300, "overflows"},
	} {
		var e, phi mat.Dense
		err := ExpIntegral(&e, &phi, tc.a, tc.t)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
	}
	mustPanic(t, "not square", func() {
		var e, phi mat.Dense
		_ = ExpIntegral(&e, &phi, mat.NewDense(2, 3, nil), 1)
	})
	mustPanic(t, "wrong size", func() {
		var phi mat.Dense
		_ = ExpIntegral(mat.NewDense(3, 3, nil), &phi, good, 1)
	})
}
