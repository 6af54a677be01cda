package batchchain

import (
	"fmt"
	"math"
)

// Column forms of the up phase: the quantities of Exit and Segments for
// every starting spare count at once, applied to a vector on the right
// instead of started from a law on the left (package documentation, "The
// up phase"). A decision process over the starting counts (package
// optimal) needs them for every row: one column solve costs what one row
// does.

// Solve returns x = (−A)⁻¹·f over the spare counts 0..m (len(f) = m + 1):
// x[s] is the expected integral of f over the spare count until the
// interruption, from s. With f = 1 it is the expected duration of the up
// phase from each s (Exit's τ); with f = B·h (HitSum) it is the expected
// value of h at the functional count the interruption leaves. It uses the
// censoring of Phase: row j of the censored system is
// eout_j·x_j − Σ_k edn_{j,k}·x_{j−k} = f'_j, where f' is f with the part
// of each eliminated count carried down (f'_{j−1} = f_{j−1} +
// up_{j−1}/eout_j·f'_j), so a substitution from the bottom gives x. The
// factors are non-negative: for f ≥ 0 every operation adds positive
// terms. It panics if len(f) ≠ m + 1.
func (ph *Phase) Solve(f []float64) []float64 {
	m, kmax := ph.c.m, ph.kmax
	if len(f) != m+1 {
		panic("batchchain: Solve: f is not on the spare counts 0..m")
	}
	x := append([]float64(nil), f...)
	for j := m; j >= 1; j-- {
		x[j-1] += ph.up[j-1] / ph.eout[j] * x[j]
	}
	for j := 0; j <= m; j++ {
		v := x[j]
		for k := 1; k <= min(kmax, j); k++ {
			v += ph.edn[j*kmax+k-1] * x[j-k]
		}
		x[j] = v / ph.eout[j]
	}
	return x
}

// HitSum returns B·h over the spare counts 0..m: entry j is
// Σ_{n'} B[j, n']·h(n'), the rate of the interruptions from spare count j
// weighted by the value h of the functional count n' = a + j − k they
// leave, h[i] the value of n' = lo + i (zero outside). Solve(HitSum(h))
// is the row form Exit's law applied to h, for every starting count.
func (ph *Phase) HitSum(h []float64, lo int) []float64 {
	c, kmax := ph.c, ph.kmax
	out := make([]float64, c.m+1)
	for j := range out {
		var v float64
		for k, r := range ph.hit[j*kmax : (j+1)*kmax] {
			if i := c.a + j - k - 1 - lo; r > 0 && i >= 0 && i < len(h) {
				v += r * h[i]
			}
		}
		out[j] = v
	}
	return out
}

// columnK is K = I + A/Λ by spare count, for products on the column.
type columnK struct {
	kmax           int
	stay, upS, dnS []float64 // 1 − out_j/Λ, up_j/Λ, dn[j,k]/Λ
}

func (ph *Phase) columnK(lam float64) *columnK {
	m, kmax := ph.c.m, ph.kmax
	ck := &columnK{kmax: kmax, stay: make([]float64, m+1), upS: make([]float64, m+1), dnS: make([]float64, (m+1)*kmax)}
	for j := 0; j <= m; j++ {
		out := ph.up[j]
		for k, d := range ph.dn[j*kmax : (j+1)*kmax] {
			out += d
			ck.dnS[j*kmax+k] = d / lam
		}
		for _, h := range ph.hit[j*kmax : (j+1)*kmax] {
			out += h
		}
		ck.stay[j] = 1 - out/lam
		ck.upS[j] = ph.up[j] / lam
	}
	return ck
}

// apply sets dst = K·z and returns max_j dst_j (z ≥ 0).
func (ck *columnK) apply(dst, z []float64) float64 {
	m, kmax := len(z)-1, ck.kmax
	var top float64
	for j := 0; j <= m; j++ {
		v := ck.stay[j] * z[j]
		if j < m {
			v += ck.upS[j] * z[j+1]
		}
		dn := ck.dnS[j*kmax : j*kmax+min(kmax, j)]
		for k, d := range dn {
			v += d * z[j-k-1]
		}
		dst[j] = v
		if v > top {
			top = v
		}
	}
	return top
}

// MaxColumnProducts bounds the products with K of SegmentsColumn: about
// (Λ/ρ_min)·ln(10¹⁴) are needed (package documentation), so a phase
// whose interruptions are that much rarer than the moves of its spare
// count is refused rather than left to run.
const MaxColumnProducts = 1 << 22

// SegmentsColumn returns, for every spare count s at the start of a
// segment of length tr (the recovery, which commits nothing) followed by
// segments of length t until the interruption, the expected number of
// those segments committed:
//
//	y = exp(A·tr)·u,   u = Σ_{k≥1} exp(A k t)·1 = Σ_n c_n(Λt)·Kⁿ·1
//
// (Segments' uniformization, on the column: Kⁿ·1 does not depend on t
// and decreases by r = 1 − ρ_min/Λ per product). The sum over n stops on
// the ladder of Expected where the bound on the rest,
// ‖Kᴺ·1‖_∞·(1/(Λt) + 1/√(2π(N+1)))·r/(1 − r), is at most 1e-14 of the
// smallest entry of the sum so far: every entry is accurate to about
// 1e-14 of itself. From the n where the weights are flat (c_n = 1/(Λt)
// to rounding, Weights) the rest is summed in closed form,
// (1/(Λt))·Σ_{k≥n} Kᵏ·1 = (1/t)·(−A)⁻¹·Kⁿ·1 (Solve): a short segment
// against the spare count's moves needs about 1.9·(Λt)² products, not
// (Λ/ρ_min)·ln(10¹⁴). exp(A·tr) is applied by uniformization with the
// Poisson(Λ·tr) weights, whose tails are cut at 2⁻⁶⁰. It returns an error
// for t not finite and positive, tr not finite and non-negative, or more
// than MaxColumnProducts products.
func (ph *Phase) SegmentsColumn(tr, t float64) ([]float64, error) {
	if !(t > 0) || math.IsInf(t, 0) {
		return nil, fmt.Errorf("batchchain: SegmentsColumn: t = %v is not a finite positive time", t)
	}
	if err := checkTime("tr", tr); err != nil {
		return nil, err
	}
	m := ph.c.m
	lam := ph.Rate()
	r := 1 - ph.hitMin/lam
	x := lam * t
	w := NewWeights(x)
	z, next := make([]float64, m+1), make([]float64, m+1)
	for j := range z {
		z[j] = 1
	}
	u := make([]float64, m+1)
	ck := ph.columnK(lam)
	zmax := 1.0
	for n := 0; ; n++ {
		if n >= MaxColumnProducts {
			return nil, fmt.Errorf("batchchain: SegmentsColumn on a = %d of n = %d needs more than MaxColumnProducts = %d products (interruptions %.3g times rarer than the spare count's moves)", ph.c.a, ph.c.n, MaxColumnProducts, lam/ph.hitMin)
		}
		if n >= w.flat {
			// c_k = 1/x for every k ≥ n: the rest is
			// (1/x)·Σ_{k≥n} Kᵏ·1 = (Λ/x)·(−A)⁻¹·Kⁿ·1, one column solve.
			for j, v := range ph.Solve(z) {
				u[j] += v * lam / x
			}
			break
		}
		w.ensure(n + 1)
		c := w.at(n)
		for j, v := range z {
			u[j] += c * v
		}
		if n%ladderStep == ladderStep-1 {
			umin := math.Inf(1)
			for _, v := range u {
				umin = math.Min(umin, v)
			}
			tail := zmax * weightBound(x, n+1) * r / (1 - r)
			if tail <= expectedRel*umin || zmax == 0 {
				break
			}
		}
		zmax = ck.apply(next, z)
		z, next = next, z
	}
	if tr == 0 {
		return u, nil
	}
	pw, left, right := poisson(lam*tr, 0x1p-60)
	y := make([]float64, m+1)
	for n := 0; n <= right; n++ {
		if n >= left {
			c := pw[n-left]
			for j, v := range u {
				y[j] += c * v
			}
		}
		ck.apply(next, u)
		u, next = next, u
	}
	return y, nil
}

// SegmentsBound returns an upper bound on every entry of
// SegmentsColumn(tr, t): e^{−ρ_min·tr}·q/(1 − q), q = e^{−ρ_min·t},
// ρ_min the smallest interruption rate over the spare counts. A differs
// from the generator S of the spare count by −diag(ρ_j), so
// exp(A·t)·1 ≤ e^{−ρ_min·t}·exp(S·t)·1 = e^{−ρ_min·t}·1 entrywise (as
// Segments.Lower with ρ_max). It is +Inf for t = 0.
func (ph *Phase) SegmentsBound(tr, t float64) float64 {
	x := ph.hitMin * t
	return math.Exp(-ph.hitMin*tr) * math.Exp(-x) / -math.Expm1(-x)
}
