package batchchain

import (
	"math"
	"math/cmplx"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// perronSplit is the spectrum of an up phase's A next to its dominant
// eigenvalue −ρ* (dense, gonum's Eigen) and what splitting off that
// mode would save in Segments' sequence (package documentation, "The up
// phase").
type perronSplit struct {
	rho, rho2 float64 // ρ* and the smallest −Re of the other eigenvalues
	lam       float64 // the uniformization rate Λ (Phase.Rate)
	zs, z2    float64 // z* = 1 − ρ*/Λ and the largest other |1 + λ_i/Λ|
	slow      int     // the eigenvalues with |1 + λ_i/Λ| > z*³ (the modes to split off for a 3× shorter sequence)
	l, r      []float64
}

// newPerronSplit factorizes the dense A of c and returns its Perron
// mode, l·r = 1, l and r positive (signs fixed).
func newPerronSplit(t *testing.T, c *Chain, lam float64) perronSplit {
	t.Helper()
	a, _ := c.Generator()
	n1, _ := a.Dims()
	var eig mat.Eigen
	if !eig.Factorize(a, mat.EigenLeft|mat.EigenRight) {
		t.Fatal("Eigen did not converge")
	}
	vals := eig.Values(nil)
	idx := make([]int, n1)
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(i, j int) int { return -cmpFloat(real(vals[i]), real(vals[j])) })
	p := perronSplit{rho: -real(vals[idx[0]]), rho2: -real(vals[idx[1]]), lam: lam}
	if imag(vals[idx[0]]) != 0 {
		t.Fatalf("dominant eigenvalue %v not real", vals[idx[0]])
	}
	p.zs = 1 - p.rho/lam
	for _, i := range idx[1:] {
		z := cmplx.Abs(1 + vals[i]/complex(lam, 0))
		p.z2 = math.Max(p.z2, z)
		if z > p.zs*p.zs*p.zs {
			p.slow++
		}
	}
	var vr, vl mat.CDense
	eig.VectorsTo(&vr)
	eig.LeftVectorsTo(&vl)
	p.l, p.r = make([]float64, n1), make([]float64, n1)
	var lr float64
	for j := range n1 {
		p.r[j], p.l[j] = real(vr.At(j, idx[0])), real(vl.At(j, idx[0]))
		lr += p.l[j] * p.r[j]
	}
	if p.r[0] < 0 {
		for j := range p.r {
			p.r[j] = -p.r[j]
		}
		lr = -lr
	}
	for j := range p.l {
		p.l[j] /= lr
	}
	return p
}

func cmpFloat(x, y float64) int {
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

// deflatedProducts returns the products with K that the deflated
// sequence y'_n = v'·Kⁿ, v' = v − (v·r)·l, needs before its rigorous
// rest ‖y'_N‖₁·(1/(Λt) + 1/√(2π(N+1)))·q/(1 − q), q = 1 − ρ_min/Λ, is
// at most 1e-14·e or Expected's absolute tolerance on Segments' ladder
// (or the flat weights close it), by dense products.
func (p perronSplit) deflatedProducts(c *Chain, ph *Phase, v []float64, t, e float64) int {
	a, _ := c.Generator()
	n1, _ := a.Dims()
	k := mat.NewDense(n1, n1, nil)
	k.Scale(1/p.lam, a)
	for j := range n1 {
		k.Set(j, j, k.At(j, j)+1)
	}
	var vr float64
	for j, x := range v {
		vr += x * p.r[j]
	}
	y := mat.NewVecDense(n1, nil)
	for j := range n1 {
		y.SetVec(j, v[j]-vr*p.l[j])
	}
	x, q := p.lam*t, 1-ph.hitMin/p.lam
	flat := NewWeights(x).flat
	var abs float64 // Expected's absolute tolerance, 1e-19·s_0/max(1, ρ_min·t)
	for _, x := range v {
		abs += x
	}
	abs *= expectedAbs / math.Max(1, ph.hitMin*t)
	next := mat.NewVecDense(n1, nil)
	for n := 0; ; n++ {
		if n%ladderStep == ladderStep-1 {
			norm := mat.Norm(y, 1)
			rest := norm * weightBound(x, n+1) * q / (1 - q)
			if rest <= expectedRel*e || rest <= abs || n+1 >= flat {
				return n
			}
		}
		next.MulVec(k.T(), y)
		y, next = next, y
	}
}

// TestPerronSplitGap checks the package documentation's statement that
// splitting off the Perron mode of K = I + A/Λ does not shorten
// Segments' sequence on the model's chains at N = 4096 (issue 13's size
// law, MTTF 1 d): the eigenvalues of −A next to ρ* are ρ* + k·g with g
// about the relaxation rate θ + μ of the spare count (θ the repair rate,
// μ ≤ λ the rate at which a spare fails alone), so that |z₂|/z* =
// 1 − g/(Λ − ρ*) is about 1 − θ/Λ when θ ≪ ρ*: with MTTR 1 h, ρ* is
// about 30θ and the deflated sequence decays as fast as the plain one,
// while inverse iteration for l and r would need about
// ln(10¹⁴)/ln(ρ₂/ρ*), some 1000 solves. The oracle is a dense
// eigendecomposition; the assertions are the perturbative prediction
// g ∈ [θ/2, 2(θ + λ)] and its consequence |z₂|/z* ≥ 1 − 2(θ + λ)/(Λ − ρ*).
// With MTTR 1 min (θ about 2ρ*) the same prediction gives a gap, and the
// deflated sequence (rigorous rest by ‖y'_N‖₁) is checked to need fewer
// products than today's: the measurement can see a gain where there is
// one. The figures (BENCHMARKS.md, "(evspec)") are logged with -v.
func TestPerronSplitGap(t *testing.T) {
	if testing.Short() {
		t.Skip("dense eigendecompositions of order up to 433")
	}
	const n, mttf = 4096, 24 * hour
	for _, tc := range []struct {
		mttr  float64
		below int // a = the mode of Functional minus below
		gain  bool
	}{
		{hour, 0, false},
		{hour, 272, false}, // the lowest used count of ev4096's 433
		{hour, -60, false},
		{60, 30, true},
	} {
		lambda, theta := 1/mttf, 1/tc.mttr
		pi, err := Functional(n, lambda, theta, issueSizes())
		if err != nil {
			t.Fatal(err)
		}
		a := argmax(pi) - tc.below
		c, err := New(n, a, lambda, theta, issueSizes())
		if err != nil {
			t.Fatal(err)
		}
		ph, err := c.Phase()
		if err != nil {
			t.Fatal(err)
		}
		lam := ph.Rate()
		p := newPerronSplit(t, c, lam)
		g := p.rho2 - p.rho
		if !(p.rho >= ph.hitMin && p.rho <= ph.hitMax) {
			t.Errorf("MTTR %g s, a = %d: ρ* = %g outside the interruption rates [%g, %g]", tc.mttr, a, p.rho, ph.hitMin, ph.hitMax)
		}
		if g < theta/2 || g > 2*(theta+lambda) {
			t.Errorf("MTTR %g s, a = %d: gap ρ₂ − ρ* = %g, predicted within [θ/2, 2(θ + λ)] = [%g, %g]", tc.mttr, a, g, theta/2, 2*(theta+lambda))
		}
		if lo := 1 - 2*(theta+lambda)/(lam-p.rho); p.z2/p.zs < lo {
			t.Errorf("MTTR %g s, a = %d: |z₂|/z* = %g below the predicted %g", tc.mttr, a, p.z2/p.zs, lo)
		}
		for _, tt := range []float64{600, 3600} {
			sg := ph.Segments([]float64{1}, 0, lam)
			e, err := sg.Expected(tt, nil)
			if err != nil {
				t.Fatal(err)
			}
			v := make([]float64, c.m+1)
			v[0] = 1
			defl := p.deflatedProducts(c, ph, v, tt, e)
			t.Logf("MTTR %g s, a = %d, m + 1 = %d, t = %g s: ρ* = %.5g, ρ₂ = %.5g (gap %.3g, θ = %.3g), Λ/ρ* = %.3g, z* = %.5f, |z₂|/z* = %.5f, %d modes (ρ* included) with |z| > z*³, inverse iteration ≈ %.0f solves, products: today %d, deflated %d",
				tc.mttr, a, c.m+1, tt, p.rho, p.rho2, g, theta, lam/p.rho, p.zs, p.z2/p.zs, p.slow+1, math.Log(1e-14)/math.Log(p.rho/p.rho2), sg.Len()-1, defl)
			if tc.gain && !(defl < sg.Len()-1) {
				t.Errorf("MTTR %g s, a = %d, t = %g s: the deflated sequence needs %d products, today's %d: no gain seen where the gap predicts one", tc.mttr, a, tt, defl, sg.Len()-1)
			}
		}
	}
}

func argmax(x []float64) int {
	k := 0
	for i, v := range x {
		if v > x[k] {
			k = i
		}
	}
	return k
}
