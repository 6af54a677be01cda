package expm

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// metzlerTheta bounds ‖2^{−s}tA‖₁ in ExpIntegral; metzlerDegree is the
// Taylor degree q, whose truncation error θ^{q+1}/(q+1)!/(1 − θ/(q+2))
// is 7.5e-19 at θ = 1/2, q = 15, below u·e^{−θ} (‖e^X‖ ≥ e^{−‖X‖});
// q + 1 is a multiple of 4 (taylorPS's blocks).
const (
	metzlerTheta  = 0.5
	metzlerDegree = 15
)

// ExpIntegral sets e = e^{tA} and phi = Φ(t) = ∫₀ᵗ e^{uA}du for a square
// Metzler matrix a (every off-diagonal entry nonnegative: a generator or
// sub-generator of a Markov chain) and t ≥ 0: what Exp gives from the
// Van Loan block [[A, I], [0, 0]]·t, with n×n products only: 9 + 2s of
// them (s below), where Exp multiplies 2n×2n matrices (8 times the flops
// each).
//
// With X = 2^{−s}tA, s the least such that ‖X‖₁ ≤ 1/2, and h = 2^{−s}t,
// the Taylor polynomials of degree 15,
//
//	E₀ = Σ_{k≤15} X^k/k!,   Φ₀ = h·Σ_{k≤15} X^k/(k+1)!,
//
// evaluated by Paterson–Stockmeyer in X⁴ (nine n×n products), are then
// doubled s times by the semigroup property,
//
//	E ← E²,   Φ ← Φ + E·Φ   (Φ(2h) = Φ(h) + e^{hA}Φ(h)),
//
// two products per doubling. The truncation error is below 7.5e-19 in
// norm (θ^{16}/16! at θ = 1/2, with its geometric tail), 1.3e-18
// relative (‖E₀‖ ≥ e^{−1/2}); the terms of the series sum to at
// most e^{1/2} in norm, against ‖E₀‖ ≥ e^{−1/2}, so their rounding stays
// near u; e^{uA} = e^{−cu}e^{u(A+cI)} and Φ(u) are nonnegative for a
// Metzler A (A + cI ≥ 0 for c ≥ max|a_ii|), so the doublings multiply
// and add nonnegative matrices, without cancellation.
//
// If e or phi is empty it is resized to n×n; otherwise it must be n×n.
// ExpIntegral panics with mat.ErrSquare if a is not square and
// mat.ErrShape if e or phi has the wrong size. It returns an error if t
// is negative or not finite, if a has an entry that is not finite or a
// negative off-diagonal entry, or if t·‖A‖₁ overflows.
func ExpIntegral(e, phi *mat.Dense, a mat.Matrix, t float64) error {
	n, c := a.Dims()
	if n != c {
		panic(mat.ErrSquare)
	}
	for _, d := range []*mat.Dense{e, phi} {
		if r, c := d.Dims(); !d.IsEmpty() && (r != n || c != n) {
			panic(mat.ErrShape)
		}
	}
	if !(t >= 0) || math.IsInf(t, 1) {
		return fmt.Errorf("expm: t = %v, want a finite t ≥ 0", t)
	}
	if err := checkFinite("a", a); err != nil {
		return err
	}
	for i := range n {
		for j := range n {
			if v := a.At(i, j); i != j && v < 0 {
				return fmt.Errorf("expm: a[%d,%d] = %v < 0: a is not a Metzler matrix", i, j, v)
			}
		}
	}
	x := mat.DenseCopyOf(a)
	norm := mat.Norm(x, 1) * t
	if math.IsInf(norm, 0) {
		return fmt.Errorf("expm: t·‖a‖₁ overflows (t = %v)", t)
	}
	s := 0
	if norm > metzlerTheta {
		s = int(math.Ceil(math.Log2(norm / metzlerTheta)))
	}
	h := math.Ldexp(t, -s)
	x.Scale(h, x)
	n1 := mat.NewDense(n, n, nil)
	for i := range n {
		n1.Set(i, i, 1)
	}
	pw := [5]*mat.Dense{n1, x, {}, {}, {}}
	for i := 2; i <= 4; i++ {
		pw[i].Mul(pw[i-1], x)
	}
	ee, ff := taylorPS(pw, 1), taylorPS(pw, 2)
	ff.Scale(h, ff)
	var tmp mat.Dense
	sq := &mat.Dense{}
	for range s {
		tmp.Mul(ee, ff)
		ff.Add(ff, &tmp)
		sq.Mul(ee, ee)
		ee, sq = sq, ee
	}
	for _, d := range [][2]*mat.Dense{{e, ee}, {phi, ff}} {
		if d[0].IsEmpty() {
			d[0].ReuseAs(n, n)
		}
		d[0].Copy(d[1])
	}
	return nil
}

// taylorPS returns Σ_{k≤15} X^k/(k+d−1)! (d = 1: the exponential's
// Taylor polynomial; d = 2: that of (e^X − I)X⁻¹) by Paterson–Stockmeyer:
// with B_j = Σ_{i<4} c_{4j+i}X^i, the sum is ((B₃X⁴ + B₂)X⁴ + B₁)X⁴ + B₀;
// pw holds I, X, X², X³, X⁴.
func taylorPS(pw [5]*mat.Dense, d int) *mat.Dense {
	n, _ := pw[0].Dims()
	coef := make([]float64, metzlerDegree+1)
	f := 1.0
	for k := 1; k < d; k++ {
		f /= float64(k)
	}
	for k := range coef {
		coef[k] = f // 1/(k + d − 1)!
		f /= float64(k + d)
	}
	// The powers are fresh n×n matrices: contiguous, stride n.
	block := func(j int) *mat.Dense {
		b := make([]float64, n*n)
		for i := range 4 {
			c, p := coef[4*j+i], pw[i].RawMatrix().Data
			for k, v := range p {
				b[k] += c * v
			}
		}
		return mat.NewDense(n, n, b)
	}
	acc := block((metzlerDegree+1)/4 - 1)
	for j := (metzlerDegree+1)/4 - 2; j >= 0; j-- {
		var t mat.Dense
		t.Mul(acc, pw[4])
		t.Add(&t, block(j))
		acc = &t
	}
	return acc
}
