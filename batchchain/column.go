package batchchain

import (
	"context"
	"fmt"
	"math"
	"slices"
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
	edn, eout := ph.censored()
	return solveCensored(ph.up, edn, eout, kmax, slices.Clone(f))
}

// solveCensored overwrites x, holding f, with (−A)⁻¹·f from the up rates
// and the censored rates edn and eout of a Phase (Phase.censored), the
// work of Phase.Solve, and returns it.
func solveCensored(up, edn, eout []float64, kmax int, x []float64) []float64 {
	m := len(up) - 1
	for j := m; j >= 1; j-- {
		x[j-1] += up[j-1] / eout[j] * x[j]
	}
	substitute(edn, eout, kmax, x)
	return x
}

// substitute overwrites x, holding the right-hand side f' of a censored
// system d_j·x_j − Σ_{k≤K} l_{j,k}·x_{j−k} = f'_j (l_{j,k} at
// l[j·kmax+k−1], zero where j − k < 0), with its solution, by a
// substitution from the bottom: the last step of Phase.Solve (real) and
// of Phase.resolvent (complex), the same operations in each.
func substitute[T float64 | complex128](l, d []T, kmax int, x []T) {
	for j := range x {
		v := x[j]
		for k := 1; k <= min(kmax, j); k++ {
			v += l[j*kmax+k-1] * x[j-k]
		}
		x[j] = v / d[j]
	}
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

// columnK is K = I + A/Λ by spare count on a band b0..b1 of them
// (indices from b0), for products on the column: the moves out of the
// band are left out, so that the products are those of the process
// killed on leaving it (the whole range 0..m kills nothing). The spare
// events are kept by size (ks, dnS), those of no rate left out, so that
// a product is a few loops over the band (mulAdd), as Segments'.
type columnK struct {
	stay, upS []float64   // 1 − out_j/Λ, up_j/Λ
	ks        []int       // the sizes k of a spare event rate
	dnS       [][]float64 // dnS[i][j] = dn[j, ks[i]]/Λ
}

func (ph *Phase) columnK(lam float64, b0, b1 int) *columnK {
	kmax, nb := ph.kmax, b1-b0+1
	ck := &columnK{}
	ck.stay, ck.upS = ph.stayUp(lam, b0, b1)
	for k := 1; k <= kmax; k++ {
		var row []float64
		for i := k; i < nb; i++ {
			if d := ph.dn[(b0+i)*kmax+k-1]; d > 0 {
				if row == nil {
					row = make([]float64, nb)
				}
				row[i] = d / lam
			}
		}
		if row != nil {
			ck.ks, ck.dnS = append(ck.ks, k), append(ck.dnS, row)
		}
	}
	return ck
}

// stayUp returns the diagonal of K = I + A/Λ, 1 − outRate/Λ, and the
// rates up divided by Λ over the spare counts b0..b1 (entry i for
// b0 + i), Λ = lam: the parts of columnK and SegmentsBase that are not
// the spare events. The exit rates are summed four spare counts at a
// time (outRates4, the same bits).
func (ph *Phase) stayUp(lam float64, b0, b1 int) (stay, upS []float64) {
	stay, upS = make([]float64, b1-b0+1), make([]float64, b1-b0+1)
	i := 0
	for ; i+4 <= len(stay); i += 4 {
		out := ph.outRates4(b0 + i)
		for r, o := range out {
			stay[i+r] = 1 - o/lam
		}
	}
	for ; i < len(stay); i++ {
		stay[i] = 1 - ph.outRate(b0+i)/lam
	}
	for i := range upS {
		upS[i] = ph.up[b0+i] / lam
	}
	return stay, upS
}

// bandRates returns the largest exit rate and the smallest interruption
// rate over the spare counts b0..b1 (Rate and ρ_min on the band, the
// same bits as Rate and hitMin on the whole range), from hitTot.
func (ph *Phase) bandRates(b0, b1 int) (lam, hitMin float64) {
	hitMin = math.Inf(1)
	for j := b0; j <= b1; j++ {
		lam = math.Max(lam, float64(ph.c.a+j)*ph.c.rate+ph.up[j])
		hitMin = math.Min(hitMin, ph.hitTot[j])
	}
	return lam, hitMin
}

// apply sets dst = K·z and returns max_j dst_j (z ≥ 0): in each entry
// the stay term, then the move up, then the spare events by increasing
// size.
func (ck *columnK) apply(dst, z []float64) float64 {
	m := len(z) - 1
	dst = dst[:m+1]
	for j, s := range ck.stay {
		dst[j] = s * z[j]
	}
	mulAdd(dst[:m], z[1:], ck.upS[:m])
	for i, k := range ck.ks {
		if k <= m {
			mulAdd(dst[k:], z[:m+1-k], ck.dnS[i][k:])
		}
	}
	var top float64
	for _, v := range dst {
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
	return ph.SegmentsColumnContext(context.Background(), tr, t)
}

// SegmentsColumnContext is SegmentsColumn that stops with ctx's error
// when ctx is done (checked every cancelEvery products with K, in the sum
// and in exp(A·tr)).
func (ph *Phase) SegmentsColumnContext(ctx context.Context, tr, t float64) ([]float64, error) {
	if err := checkSegments(tr, t); err != nil {
		return nil, err
	}
	return ph.segmentsOn(ctx, tr, t, 0, ph.c.m)
}

func checkSegments(tr, t float64) error {
	if !(t > 0) || math.IsInf(t, 0) {
		return fmt.Errorf("batchchain: SegmentsColumn: t = %v is not a finite positive time", t)
	}
	return checkTime("tr", tr)
}

// segmentsOn is SegmentsColumn for the process killed on leaving the
// spare counts b0..b1 (entry i for b0 + i), uniformized at the band's
// largest exit rate. The closed form of the flat weights needs the
// resolvent of the whole range (Solve): on a smaller band the sum goes
// on with c_n = 1/(Λt) to the ladder's stop.
func (ph *Phase) segmentsOn(ctx context.Context, tr, t float64, b0, b1 int) ([]float64, error) {
	full := b0 == 0 && b1 == ph.c.m
	lam, hitMin := ph.bandRates(b0, b1)
	nb := b1 - b0 + 1
	r := 1 - hitMin/lam
	x := lam * t
	w := NewWeights(x)
	z, next := ones(nb), make([]float64, nb)
	u := make([]float64, nb)
	ck := ph.columnK(lam, b0, b1)
	zmax := 1.0
	for n := 0; ; n++ {
		if n >= MaxColumnProducts {
			return nil, fmt.Errorf("batchchain: SegmentsColumn on a = %d of n = %d needs more than MaxColumnProducts = %d products (interruptions %.3g times rarer than the spare count's moves)", ph.c.a, ph.c.n, MaxColumnProducts, lam/hitMin)
		}
		if full && n >= w.flat {
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
		if n%cancelEvery == cancelEvery-1 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		zmax = ck.apply(next, z)
		z, next = next, z
	}
	if tr == 0 {
		return u, nil
	}
	return ck.expTimes(ctx, lam, tr, u, next)
}

// expTimes returns exp(A·tr)·u by uniformization at rate lam with the
// products of ck (Poisson weights cut at 2⁻⁶⁰); it overwrites u and
// scratch, both of the band's length. It stops with ctx's error when ctx
// is done (checked every cancelEvery products).
func (ck *columnK) expTimes(ctx context.Context, lam, tr float64, u, scratch []float64) ([]float64, error) {
	pw, left, right := poisson(lam*tr, 0x1p-60, new(poissonScratch))
	y := make([]float64, len(u))
	for n := 0; n <= right; n++ {
		if n >= left {
			c := pw[n-left]
			for j, v := range u {
				y[j] += c * v
			}
		}
		if n%cancelEvery == cancelEvery-1 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		ck.apply(scratch, u)
		u, scratch = scratch, u
	}
	return y, nil
}

// SegmentsWindow returns SegmentsColumn(tr, t)[s0 : s1+1] (0 ≤ s0 ≤
// s1 ≤ m) from products on a band b0..b1 of spare counts around the
// window, the process killed on leaving it, when that is cheaper and
// provably within the tolerance. The killed sum y_b is below the true y,
// and the segments lost are those committed after the escape, before the
// interruption: after any time at most Σ_{k≥0} qᵏ = 1/(1 − q) of them
// (q = e^{−ρ_min·t}, as SegmentsBound). The escape probability P_e(s)
// is at most Λ·(−A)⁻¹·1_out(s) (Solve): the expected time spent out of
// the band, at least 1/Λ per escape. So
//
//	0 ≤ y(s) − y_b(s) ≤ Λ·((−A)⁻¹·1_out)(s)/(1 − q),
//
// and the band, widened from the window by 8 spare counts on each side
// and the widening doubled until then, is taken when that bound is at
// most expectedRel/2 of the lower bound e^{−ρ_max·tr}·q'/(1 − q') on y,
// q' = e^{−ρ_max·t}
// (Segments.Lower), and at most expectedRel·y_b once summed: every entry
// is within about 1e-14 of itself, as SegmentsColumn's. Otherwise, or
// when the whole range with the closed form of its rest costs fewer
// operations, it is the whole range. The sum is SegmentsSeq's (exp(A·tr)
// applied first, to the sequence's start) without storing anything: the
// same bits as a SegmentsSeq at t, whatever it stored. Errors as
// SegmentsColumn's, and for a window out of 0..m.
func (ph *Phase) SegmentsWindow(tr, t float64, s0, s1 int) ([]float64, error) {
	sq, err := NewSegmentsSeq(tr, s0, s1, nil)
	if err != nil {
		return nil, err
	}
	return sq.At(ph, t)
}

// bandInfo holds what SegmentsWindow needs of a band b0..b1 around a
// window s0..s1 that does not depend on the lengths: its rates
// (bandRates) and the window's entries of (−A)⁻¹·1_out (escape before
// its factor).
type bandInfo struct {
	lam, hit float64
	out      []float64
}

// bandsKept keeps the bandInfo of the bands around one window, within a
// budget (nil keeps nothing).
type bandsKept struct {
	s0, s1 int
	budget *Budget
	kept   map[[2]int]*bandInfo
}

// get returns the bandInfo of b0..b1, computed (and kept if the budget
// takes it) when it is not kept.
func (bk *bandsKept) get(ph *Phase, b0, b1 int) *bandInfo {
	if bi := bk.kept[[2]int{b0, b1}]; bi != nil {
		return bi
	}
	bi := &bandInfo{}
	bi.lam, bi.hit = ph.bandRates(b0, b1)
	out := make([]float64, ph.c.m+1)
	for j := range out {
		if j < b0 || j > b1 {
			out[j] = 1
		}
	}
	bi.out = ph.Solve(out)[bk.s0 : bk.s1+1]
	if bk.budget.Take(len(bi.out) + 2) {
		if bk.kept == nil {
			bk.kept = map[[2]int]*bandInfo{}
		}
		bi.out = slices.Clone(bi.out)
		bk.kept[[2]int{b0, b1}] = bi
	}
	return bi
}

// escape returns the window's escape bound Λ·((−A)⁻¹·1_out)/(1 − q) of
// SegmentsWindow on the segments the band loses, q = e^{−ρ_min·t}.
func (bi *bandInfo) escape(ph *Phase, t float64) []float64 {
	f := ph.Rate() / -math.Expm1(-ph.hitMin*t)
	x := slices.Clone(bi.out)
	for j := range x {
		x[j] *= f
	}
	return x
}

// band returns the band of SegmentsWindow and its escape bound over the
// window (escape's entries s0..s1), ok false for the whole range.
func (ph *Phase) band(tr, t float64, s0, s1 int) (b0, b1 int, esc []float64, ok bool) {
	return ph.bandOf(tr, t, &bandsKept{s0: s0, s1: s1})
}

// ladderProducts estimates the products of a sum on K up to its
// ladder's stop, per Λ/ρ_min (the mean number of products between two
// interruptions): K·1 ≤ (1 − ρ_min/Λ)·1, so the tail falls below
// expectedRel of the sum after about ln(1/expectedRel)·Λ/ρ_min =
// 32.24·Λ/ρ_min products, here rounded up. bandOf weighs a band against
// the whole range by it; either sum is within the tolerance.
const ladderProducts = 32.3

// bandOf is band with the bands' interval-free parts from bk.
func (ph *Phase) bandOf(tr, t float64, bk *bandsKept) (b0, b1 int, esc []float64, ok bool) {
	m, s0, s1 := ph.c.m, bk.s0, bk.s1
	q := math.Exp(-ph.hitMax * t)
	lower := math.Exp(-ph.hitMax*tr) * q / (1 - q)
	// Operations of the whole range with its closed form, at most.
	lam := ph.Rate()
	fullOps := float64(m+1) * math.Min(float64(flatTerms(lam*t)+ladderStep), lam/ph.hitMin*ladderProducts)
	for margin := 8; ; margin *= 2 {
		b0, b1 = max(s0-margin, 0), min(s1+margin, m)
		if b0 == 0 && b1 == m {
			return 0, 0, nil, false
		}
		bi := bk.get(ph, b0, b1)
		if float64(b1-b0+1)*bi.lam/bi.hit*ladderProducts >= fullOps {
			return 0, 0, nil, false
		}
		esc := bi.escape(ph, t)
		if slices.Max(esc) <= expectedRel/2*lower {
			return b0, b1, esc, true
		}
	}
}

// checkBand returns the window of the band's sums y (entry i for b0 + i)
// and whether the escape bound esc (over the window s0..s1) holds
// against them.
func checkBand(y, esc []float64, b0, s0, s1 int) ([]float64, bool) {
	win := y[s0-b0 : s1-b0+1]
	for i, v := range win {
		if !(esc[i] <= expectedRel*v) {
			return nil, false
		}
	}
	return win, true
}

// SegmentsBound returns an upper bound on every entry of
// SegmentsColumn(tr, t): e^{−ρ_min·tr}·q/(1 − q), q = e^{−ρ_min·t},
// ρ_min the smallest interruption rate over the spare counts. A differs
// from the generator S of the spare count by −diag(ρ_j), so
// exp(A·t)·1 ≤ e^{−ρ_min·t}·exp(S·t)·1 = e^{−ρ_min·t}·1 entrywise (as
// Segments.Lower with ρ_max). It is +Inf for t = 0. The bound holds for
// the exact sum; where it is attained (sizes [1], every ρ_j = ρ_min)
// SegmentsColumn's rounding of its long sum may exceed it by a few 1e-13
// relative (2.3e-13 seen at a = 3, t = 20/ρ: TestSegmentsBoundWindow
// allows for it).
func (ph *Phase) SegmentsBound(tr, t float64) float64 {
	return SegmentsBoundAt(ph.hitMin, tr, t)
}

// SegmentsBoundAt is SegmentsBound of a phase whose smallest
// interruption rate is hitMin (HitRates), for a caller that keeps the
// rate and not the phase.
func SegmentsBoundAt(hitMin, tr, t float64) float64 {
	x := hitMin * t
	return math.Exp(-hitMin*tr) * math.Exp(-x) / -math.Expm1(-x)
}

// SegmentsBoundWindow returns an upper bound on each entry of
// SegmentsColumn(tr, t)[s0 : s1+1] (0 ≤ s0 ≤ s1 ≤ m), tighter than
// SegmentsBound where the interruption rate grows with the spare count:
// on a band b0..b1 around the window, the process killed on leaving it
// is interrupted at a rate of at least ρ_b, the smallest over the band,
// so its sum is at most SegmentsBoundAt(ρ_b, tr, t), and the segments
// lost to the killing at most the escape bound of SegmentsWindow,
// Λ·((−A)⁻¹·1_out)(s)/(1 − q). Entry s is the smallest of SegmentsBound
// and those sums over the bands of the window widened by its width and
// twice it (a Solve each). It returns an error for times SegmentsColumn
// refuses or a window out of 0..m.
func (ph *Phase) SegmentsBoundWindow(tr, t float64, s0, s1 int) ([]float64, error) {
	if err := checkSegments(tr, t); err != nil {
		return nil, err
	}
	if s0 < 0 || s1 < s0 || s1 > ph.c.m {
		return nil, fmt.Errorf("batchchain: SegmentsBoundWindow: window [%d, %d] is not within the spare counts 0..%d", s0, s1, ph.c.m)
	}
	return ph.boundOf(tr, t, &bandsKept{s0: s0, s1: s1}), nil
}

// boundOf is SegmentsBoundWindow with the bands' interval-free parts
// from bk.
func (ph *Phase) boundOf(tr, t float64, bk *bandsKept) []float64 {
	m, s0, s1 := ph.c.m, bk.s0, bk.s1
	ub := make([]float64, s1-s0+1)
	all := ph.SegmentsBound(tr, t)
	for i := range ub {
		ub[i] = all
	}
	for _, f := range []int{1, 2} {
		b0, b1 := max(s0-f*(s1-s0+1), 0), min(s1+f*(s1-s0+1), m)
		if b0 == 0 && b1 == m {
			break
		}
		bi := bk.get(ph, b0, b1)
		in := SegmentsBoundAt(bi.hit, tr, t)
		for i, e := range bi.escape(ph, t) {
			ub[i] = math.Min(ub[i], in+e)
		}
	}
	return ub
}

// HitRates returns ρ_min and ρ_max, the smallest and largest rates of
// the interruptions over the spare counts: every spare count is
// interrupted at a rate between them, so that the expected duration of
// the up phase is at least 1/ρ_max from every start and SegmentsBound
// holds.
func (ph *Phase) HitRates() (lo, hi float64) { return ph.hitMin, ph.hitMax }

// ones returns a new vector of n ones (the column 1 of the sums and
// solves).
func ones(n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = 1
	}
	return v
}
