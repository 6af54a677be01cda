package batchchain

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/ckpt-markov/markov/expm"
	"gonum.org/v1/gonum/mat"
)

// The dense path of Segments (package documentation, "The up phase"):
// when the spare counts are few and the interruptions rare, the
// uniformized sequence needs about (Λ/ρ_min)·ln 10¹⁴ products while a
// dense computation per segment length costs a few products of order
// m + 1. With M = exp(A t) and Φ(t) = ∫₀ᵗ exp(A s) ds (expm.ExpIntegral),
// I − M = (−A)·Φ(t), and A, Φ and M commute, so that
//
//	Σ_{k≥1} exp(A k t)·1 = (I − M)⁻¹·M·1 = Φ(t)⁻¹·(−A)⁻¹·M·1,
//
// without the cancellation of I − M when ρt is tiny; (−A)⁻¹ is the
// censored solve of Phase.Solve (sums of positive terms), whatever the
// condition of A.
const (
	// MaxDenseOrder bounds m + 1 for the dense path.
	MaxDenseOrder = 256
	// denseLengths is the number of segment lengths a search evaluates,
	// and denseFlops the cost of one dense length in units of (m + 1)³
	// (about 9 + 2s products of 2(m + 1)³ flops, s ≈ 25 doublings),
	// in the cost rule of useDense.
	denseLengths = 20
	denseFlops   = 120
)

// useDense is the cost rule of the dense path: the sequence's predicted
// length (Λ/ρ_min)·ln 10¹⁴ times the (m + 1)·K_max entries of each
// product, against denseLengths dense lengths of denseFlops·(m + 1)³
// each. The sequence is kept, and with it its bits, wherever it is the
// cheaper, and for any m + 1 above MaxDenseOrder.
func useDense(lam, hitMin float64, m, kmax int) bool {
	n1 := float64(m + 1)
	if m+1 > MaxDenseOrder {
		return false
	}
	seq := lam / hitMin * math.Log(1e14) * n1 * float64(kmax)
	return seq > denseLengths*denseFlops*n1*n1*n1
}

// denseUp is the dense path's part of a SegmentsBase: A of order m + 1
// and what the censored solve needs (Phase's up rates and its censored
// rates), so that the Phase itself is not kept.
type denseUp struct {
	a             *mat.Dense
	up, edn, eout []float64
	kmax          int
}

// newDenseUp returns the dense path's part of ph's SegmentsBase: A with
// the rates of K (its diagonal −outRate), and the censored rates.
func newDenseUp(ph *Phase) *denseUp {
	n1, kmax := len(ph.up), ph.kmax
	a := mat.NewDense(n1, n1, nil)
	for j := range n1 {
		a.Set(j, j, -ph.outRate(j))
		if j+1 < n1 {
			a.Set(j, j+1, ph.up[j])
		}
		for k := 1; k <= min(kmax, j); k++ {
			if d := ph.dn[j*kmax+k-1]; d > 0 {
				a.Set(j, j-k, d)
			}
		}
	}
	// Copies: the phase's tables may be released (Phase.Release).
	edn, eout := ph.censored()
	return &denseUp{a: a, up: slices.Clone(ph.up), edn: slices.Clone(edn), eout: slices.Clone(eout), kmax: kmax}
}

// expected returns Σ_{k≥1} v·exp(A k t)·1 for v on the spare counts
// lo..lo+len(v)−1 and t > 0 finite: Φ(t)⁻¹·(−A)⁻¹·M·1 by a dense LU of
// Φ(t) with partial pivoting. Its relative error is about
// 10⁻¹³·κ₁(Φ), κ₁(Φ) about min(Λt, Λ/ρ_min) (package documentation, "The
// dense path"; TestSegmentsDenseMatchesSequence); it returns an error
// (errDenseCond) if LU's estimate of κ₁(Φ) exceeds maxDenseCond.
func (d *denseUp) expected(v []float64, lo int, t float64) (float64, error) {
	m1, phi, err := d.parts(t)
	if err != nil {
		return 0, err
	}
	return d.solve(v, lo, t, m1, phi)
}

// parts returns M·1 and Φ(t) by one expm.ExpIntegral.
func (d *denseUp) parts(t float64) (m1 []float64, phi *mat.Dense, err error) {
	n1, _ := d.a.Dims()
	var e mat.Dense
	phi = &mat.Dense{}
	if err := expm.ExpIntegral(&e, phi, d.a, t); err != nil {
		return nil, nil, fmt.Errorf("batchchain: the dense path at t = %.6g s: %w", t, err)
	}
	m1 = make([]float64, n1)
	for j := range n1 {
		for _, x := range e.RawRowView(j) {
			m1[j] += x
		}
	}
	return m1, phi, nil
}

// solve returns v·Φ⁻¹·(−A)⁻¹·m1 (the censored solve, then an LU of Φ).
func (d *denseUp) solve(v []float64, lo int, t float64, m1 []float64, phi *mat.Dense) (float64, error) {
	n1 := len(m1)
	z := solveCensored(d.up, d.edn, d.eout, d.kmax, slices.Clone(m1))
	var lu mat.LU
	lu.Factorize(phi)
	if c := lu.Cond(); !(c <= maxDenseCond) {
		return 0, fmt.Errorf("batchchain: the dense path at t = %.6g s: Φ(t) has condition %.3g, beyond %.3g: %w", t, c, maxDenseCond, errDenseCond)
	}
	var y mat.VecDense
	if err := lu.SolveVecTo(&y, false, mat.NewVecDense(n1, z)); err != nil {
		return 0, fmt.Errorf("batchchain: the dense path at t = %.6g s: %w", t, err)
	}
	var s float64
	for i, x := range v {
		s += x * y.AtVec(lo+i)
	}
	return s, nil
}

// maxDenseCond bounds the condition of Φ(t) on the dense path: at
// 10⁻¹³·κ₁(Φ), an error up to about 10⁻⁴ relative (package
// documentation, "The dense path").
const maxDenseCond = 1e9

// errDenseCond is the dense path's refusal of an ill-conditioned Φ(t):
// Expected then takes the sequence.
var errDenseCond = errors.New("the sequence path is used instead")
