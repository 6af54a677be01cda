package expm

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/integrate/quad"
	"gonum.org/v1/gonum/mat"
)

// scalarIntegral returns ∫₀ᵀ e^{(a−c)t} b dt = b·(e^{(a−c)T} − 1)/(a − c)
// (b·T if a = c), using expm1 to avoid cancellation.
func scalarIntegral(a, b, t, c float64) float64 {
	d := a - c
	if d == 0 {
		return b * t
	}
	return b * math.Expm1(d*t) / d
}

// TestIntegralScalarDiagonal checks Integral against the closed form for
// 1×1 and diagonal A, where the integral decouples entrywise.
func TestIntegralScalarDiagonal(t *testing.T) {
	for _, tc := range []struct{ a, b, t, c float64 }{
		{0, 1, 1, 0},       // ∫₀¹ 1 dt = 1
		{-1, 2, 3, 0},      // 2(1 − e^{−3})
		{0.5, 1, 2, 0.5},   // a = c: b·T
		{2, -1, 1, 0.1},    // growing
		{-50, 1, 10, 3},    // strongly decaying
		{1e-9, 1, 1e-3, 0}, // tiny rate
		{-3, 1, -2, 1},     // negative T
	} {
		var dst mat.Dense
		if err := Integral(&dst, mat.NewDense(1, 1, []float64{tc.a}), mat.NewDense(1, 1, []float64{tc.b}), tc.t, tc.c, nil); err != nil {
			t.Fatal(err)
		}
		want := scalarIntegral(tc.a, tc.b, tc.t, tc.c)
		// The 2×2 block [[a−c, b], [0, 0]]·T has κ ≲ |a−c|·|T|.
		tol := 50 * u * math.Max(1, math.Abs((tc.a-tc.c)*tc.t))
		if r := math.Abs(dst.At(0, 0)/want - 1); r > tol {
			t.Errorf("%+v: got %.17g, want %.17g (rel err %.3g > %.3g)", tc, dst.At(0, 0), want, r, tol)
		}
	}

	// Diagonal A (n = 4) with a 4×2 B: entry (i, j) is the scalar integral
	// with a = A_ii, b = B_ij.
	diag := []float64{-2, 0, 0.7, -10}
	a := mat.NewDense(4, 4, nil)
	for i, d := range diag {
		a.Set(i, i, d)
	}
	b := mat.NewDense(4, 2, []float64{1, -1, 2, 0.5, -3, 1, 0.25, 4})
	const tt, c = 1.5, 0.3
	var dst mat.Dense
	if err := Integral(&dst, a, b, tt, c, nil); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 4; i++ {
		for j := 0; j < 2; j++ {
			want := scalarIntegral(diag[i], b.At(i, j), tt, c)
			if r := math.Abs(dst.At(i, j) - want); r > 200*u*math.Abs(want) {
				t.Errorf("diag (%d,%d): got %.17g, want %.17g", i, j, dst.At(i, j), want)
			}
		}
	}
}

// TestIntegralQuadrature checks Integral on random A (n ≤ 5) and B
// against composite 20-point Gauss–Legendre quadrature (gonum
// integrate/quad) of e^{−ct}e^{At}B, with e^{At} from gonum's Exp; and
// against the closed form F⁻¹(e^{FT} − I)B, F = A − cI (invertible).
// Quadrature error: with 40 panels of width h ≤ T/40 and ‖A‖·h ≤ 0.5, the
// Gauss rule error (h^{41}·‖f^{(40)}‖/…) is far below 1e-20 relative, so
// the comparison is limited by rounding: tolerance 1e-12·‖dst‖₁ scaled by
// the growth e^{max(0, ‖A‖T)}.
func TestIntegralQuadrature(t *testing.T) {
	rnd := rand.New(rand.NewPCG(8, 8))
	for trial := 0; trial < 8; trial++ {
		n := 2 + trial%4
		p := 1 + trial%3
		a := randomNormal(rnd, n, 1/math.Sqrt(float64(n)))
		b := randomNormal(rnd, n, 1)
		b = mat.DenseCopyOf(b.Slice(0, n, 0, p))
		tt := 0.5 + 2*rnd.Float64()
		c := 2 * rnd.Float64()
		var got mat.Dense
		if err := Integral(&got, a, b, tt, c, nil); err != nil {
			t.Fatal(err)
		}

		const panels, order = 40, 20
		xs := make([]float64, order)
		ws := make([]float64, order)
		want := mat.NewDense(n, p, nil)
		var at, e, term mat.Dense
		for k := 0; k < panels; k++ {
			lo, hi := tt*float64(k)/panels, tt*float64(k+1)/panels
			quad.Legendre{}.FixedLocations(xs, ws, lo, hi)
			for q, x := range xs {
				at.Scale(x, a)
				e.Exp(&at)
				term.Mul(&e, b)
				term.Scale(ws[q]*math.Exp(-c*x), &term)
				want.Add(want, &term)
			}
		}
		growth := math.Exp(math.Max(0, mat.Norm(a, 1)*tt))
		if r := relErr(&got, want); r > 1e-12*growth {
			t.Errorf("trial %d: quadrature relative difference %.3g", trial, r)
		}

		// Closed form F⁻¹(e^{FT} − I)B.
		f := mat.DenseCopyOf(a)
		for i := 0; i < n; i++ {
			f.Set(i, i, f.At(i, i)-c)
		}
		var ft, eft mat.Dense
		ft.Scale(tt, f)
		eft.Exp(&ft)
		for i := 0; i < n; i++ {
			eft.Set(i, i, eft.At(i, i)-1)
		}
		var rhs, closed mat.Dense
		rhs.Mul(&eft, b)
		if err := closed.Solve(f, &rhs); err != nil {
			t.Fatalf("trial %d: F singular: %v", trial, err)
		}
		var lu mat.LU
		lu.Factorize(f)
		if r := relErr(&got, &closed); r > 1e-13*growth*math.Max(1, lu.Cond()) {
			t.Errorf("trial %d: closed-form relative difference %.3g (cond F %.3g)", trial, r, lu.Cond())
		}
	}
}

// TestIntegralGenerator checks the renewal identity used by the models:
// for a Markov generator G and rate r = aλ > 0,
//
//	∫₀ᵀ r e^{−rt} e^{Gt} dt · 1 = (1 − e^{−rT})·1,
//
// because e^{Gt}·1 = 1. It is checked with B = r·I (row sums of the n×n
// integral) and with B = r·1 (an n×1 integral), for ‖G‖T up to 1e8.
//
// Tolerance: 1e-14 + 0.1·u·‖G‖T. Integral deflates the eigenvector 1 of G,
// but the identity also rests on the null vector (1; 1) of the Van Loan
// block, which is not deflated; along it the error grows like the
// first-order sensitivity u·‖G‖T of the unstructured problem (a relative
// perturbation u of G with G·1 ≠ 0 moves e^{Gt}·1 by up to u·‖G‖t).
// Measured: about 0.01·u·‖G‖T (7e-11 at ‖G‖T = 1e8, 1e-14 at 1e3).
func TestIntegralGenerator(t *testing.T) {
	rnd := rand.New(rand.NewPCG(9, 9))
	for trial := 0; trial < 5; trial++ {
		n := 3 + trial
		g := randomGenerator(rnd, n, 0.5, 1)
		for _, scale := range []float64{1e-2, 1, 1e3, 1e4, 1e5, 1e6, 1e8} {
			tt := scale / mat.Norm(g, 1)
			r := []float64{0.1, 1, 10}[trial%3] / tt // rT ∈ {0.1, 1, 10}
			want := -math.Expm1(-r * tt)
			rI := mat.NewDense(n, n, nil)
			rOne := mat.NewDense(n, 1, nil)
			for i := 0; i < n; i++ {
				rI.Set(i, i, r)
				rOne.Set(i, 0, r)
			}
			var full, vec mat.Dense
			if err := Integral(&full, g, rI, tt, r, nil); err != nil {
				t.Fatal(err)
			}
			if err := Integral(&vec, g, rOne, tt, r, nil); err != nil {
				t.Fatal(err)
			}
			for i := 0; i < n; i++ {
				var s float64
				for j := 0; j < n; j++ {
					s += full.At(i, j)
					if full.At(i, j) < -1e-14 {
						t.Errorf("trial %d ‖G‖T=%g: entry (%d,%d) = %g < 0", trial, scale, i, j, full.At(i, j))
					}
				}
				for _, got := range []float64{s, vec.At(i, 0)} {
					if d := math.Abs(got - want); d > 1e-14+0.1*u*scale {
						t.Errorf("trial %d ‖G‖T=%g row %d: %.17g, want 1 − e^{−rT} = %.17g (diff %.3g)", trial, scale, i, got, want, d)
					}
				}
			}
		}
	}
}

// TestIntegralErrors checks the error and panic contract of Integral.
func TestIntegralErrors(t *testing.T) {
	a := mat.NewDense(2, 2, []float64{-1, 1, 1, -1})
	b := mat.NewDense(2, 1, []float64{1, 1})
	var dst mat.Dense
	for _, tc := range []struct {
		name string
		t, c float64
		b    *mat.Dense
		want string
	}{
		{"NaN t", math.NaN(), 0, b, "t ="},
		{"Inf c", 1, math.Inf(1), b, "c ="},
		{"NaN b", 1, 0, mat.NewDense(2, 1, []float64{0, math.NaN()}), "b[1,0]"},
	} {
		err := Integral(&dst, a, tc.b, tc.t, tc.c, nil)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want mention of %q", tc.name, err, tc.want)
		}
	}
	mustPanic(t, "non-square a", func() { _ = Integral(&dst, mat.NewDense(2, 3, nil), b, 1, 0, nil) })
	mustPanic(t, "b rows", func() { _ = Integral(&dst, a, mat.NewDense(3, 1, nil), 1, 0, nil) })
	mustPanic(t, "dst shape", func() { _ = Integral(mat.NewDense(2, 2, nil), a, b, 1, 0, nil) })
}
