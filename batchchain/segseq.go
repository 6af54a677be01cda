package batchchain

import (
	"context"
	"fmt"
	"slices"
	"sync/atomic"
)

// SegmentsSeq is SegmentsWindow for one window s0..s1 of spare counts
// and one recovery length tr at many segment lengths t, with the
// interval-free part computed once. exp(A·tr) is a function of A as K
// is, so the two commute, and
//
//	y = exp(A·tr)·Σ_n c_n(Λt)·Kⁿ·1 = Σ_n c_n(Λt)·Kⁿ·v,   v = exp(A·tr)·1:
//
// the sequence z_n = Kⁿ·v (on the band of SegmentsWindow, the process
// killed on leaving it) does not depend on t. On the whole range the
// rest of the sum from the first point n of the ladder (a multiple of
// ladderStep) at or past flatTerms(Λt) is closed by restClosed: the
// weights there are their first restTerms = 4 terms of Poisson
// summation to rounding, c_k = (1/x)·Σ_{|j|≤4} β_jᵏ⁺¹, β_j = 1/(1 + 2πij/x),
// x = Λt, and each term's rest is a resolvent of A,
//
//	Σ_{k≥n} c_k·z_k = (1/t)·((−A)⁻¹·z_n + 2 Re Σ_{j=1..4} β_jⁿ·(2πij/t·I − A)⁻¹·z_n)
//
// (Solve and resolvent, both O(m·K_max), (−A)⁻¹ and the resolvents
// commuting with K), about 25 times fewer terms than the flat weights
// (1.9x²) need, without a second sequence carried along (BENCHMARKS.md,
// "(evopt)"; TestRestClosed: the terms summed to the flat point, 1e-12).
// The window's entries of z_n and ‖z_n‖_∞, and the whole z_n at the
// ladder's points on the whole range, are kept as far as a call needed
// them, within a Budget of stored numbers (beyond it the sequence is
// carried on without storing, the same products in the same order): a
// further length then costs its weights and W dot products per term, W
// the window's width, instead of products with K over the band. The sum
// over n stops on
// SegmentsColumn's ladder, with the bound on the rest,
// ‖z_N‖_∞·(1/(Λt) + 1/√(2π(N+1)))·r/(1 − r) (K·z ≤ r·‖z‖_∞ for z ≥ 0,
// and 0 ≤ v ≤ 1), at most 1e-14 of the smallest entry of the window's sum
// so far; the band, its escape bound and the fallback to the whole range
// are SegmentsWindow's and depend on t alone. The result depends on t
// only, not on earlier calls or on the budget. A SegmentsSeq is not safe
// for concurrent use; it keeps the sequences of at most two bands (the
// last used), not the Phase.
type SegmentsSeq struct {
	tr     float64
	s0, s1 int
	budget *Budget
	seqs   []*colSeq
	bands  bandsKept
}

// Budget bounds the numbers that the SegmentsSeqs sharing it store (the
// windows' entries of their sequences). It is safe for concurrent use;
// which sequences get stored then depends on the order of the calls, the
// results do not.
type Budget struct{ left atomic.Int64 }

// NewBudget returns a budget of n stored numbers (8n bytes).
func NewBudget(n int64) *Budget {
	b := &Budget{}
	b.left.Store(n)
	return b
}

// Take takes n numbers from the budget and reports whether there were
// that many left (if not, it takes none). A nil budget has none.
func (b *Budget) Take(n int) bool {
	if b == nil {
		return false
	}
	if b.left.Add(-int64(n)) >= 0 {
		return true
	}
	b.left.Add(int64(n))
	return false
}

func (b *Budget) give(n int) {
	if b != nil {
		b.left.Add(int64(n))
	}
}

// colSeq is the sequence of one band b0..b1 (the whole range: full):
// rows holds the window's z_n for n < len(zmax), rowChunk rows per
// slice (so that growing copies nothing), zfull the whole z_n at the
// ladder's points n = ladderStep·i < len(zmax) when full (for the closed
// form of the rest), z the band's vector at n = len(zmax).
type colSeq struct {
	b0, b1 int
	full   bool
	lam, r float64
	ck     *columnK
	rows   [][]float64
	zfull  [][]float64
	zmax   []float64
	z      []float64
	next   []float64 // scratch of z's products
	stored int       // numbers taken from the budget
	closed bool
}

// NewSegmentsSeq returns the sequence of SegmentsWindow(tr, ·, s0, s1)
// of a phase (the one passed to At), storing within budget (nil stores
// nothing). It returns an error for tr not finite and non-negative or a
// window that is not 0 ≤ s0 ≤ s1.
func NewSegmentsSeq(tr float64, s0, s1 int, budget *Budget) (*SegmentsSeq, error) {
	if err := checkTime("tr", tr); err != nil {
		return nil, err
	}
	if s0 < 0 || s1 < s0 {
		return nil, fmt.Errorf("batchchain: SegmentsSeq: window [%d, %d] is not a range of spare counts", s0, s1)
	}
	return &SegmentsSeq{tr: tr, s0: s0, s1: s1, budget: budget, bands: bandsKept{s0: s0, s1: s1, budget: budget}}, nil
}

// At returns SegmentsWindow(tr, t, s0, s1) of ph from the kept
// sequence, extending it as needed. ph must be the phase of the
// sequence's first call (the same chain); the sequence of another is not
// detected. Errors as SegmentsWindow's.
func (sq *SegmentsSeq) At(ph *Phase, t float64) ([]float64, error) {
	return sq.AtContext(context.Background(), ph, t)
}

// AtContext is At that stops with ctx's error when ctx is done (checked
// every cancelEvery terms of the sum).
func (sq *SegmentsSeq) AtContext(ctx context.Context, ph *Phase, t float64) ([]float64, error) {
	y, _, err := sq.AtOrSkip(ctx, ph, t, nil)
	return y, err
}

// skipSlack is the relative allowance of AtOrSkip's upper bounds for the
// rounding of the rest of the sum: the rest adds at most
// MaxColumnProducts terms to each entry (2⁻⁵³ relative each: 5e-10 in
// all), and its computed terms exceed the bound on the exact rest by
// about (K_max + 3)·2⁻⁵³ per product, weighted by rⁿ: at most
// (K_max + 3)·2⁻⁵³·Λ/ρ_min, below 1e-7 for the largest K_max and
// Λ/ρ_min that MaxColumnProducts and MaxEventsChainProcessors allow.
const skipSlack = 1e-6

// AtOrSkip is AtContext for a caller that needs the sum only where it
// is large: at each point of the ladder where the sum goes on, it passes
// skip upper bounds on the window's entries of the sum it would return,
//
//	ub = (y_N + tail_N + esc)·(1 + skipSlack),
//
// y_N the sum so far (a prefix of the same terms in the same order),
// tail_N the bound on the rest that the ladder's stop uses, and esc the
// band's escape bound (zero on the whole range); when skip returns true
// it stops and returns nil, true. The terms are non-negative, so that
// every entry of the result is at most ub up to the rounding skipSlack
// allows for; the result, when it is returned, is At's, the same bits.
// A nil skip never stops (AtContext). ub is reused between calls.
func (sq *SegmentsSeq) AtOrSkip(ctx context.Context, ph *Phase, t float64, skip func(ub []float64) bool) ([]float64, bool, error) {
	if err := checkSegments(sq.tr, t); err != nil {
		return nil, false, err
	}
	m := ph.c.m
	if sq.s1 > m {
		return nil, false, fmt.Errorf("batchchain: SegmentsWindow: window [%d, %d] is not within the spare counts 0..%d", sq.s0, sq.s1, m)
	}
	if b0, b1, esc, ok := ph.bandOf(sq.tr, t, &sq.bands); ok {
		cs, err := sq.seq(ctx, ph, b0, b1)
		if err != nil {
			return nil, false, err
		}
		y, err := sq.sum(ctx, ph, cs, t, esc, skip)
		if err != nil || y == nil {
			return nil, y == nil && err == nil, err
		}
		if y, ok = checkBand(y, esc, sq.s0, sq.s0, sq.s1); ok {
			return y, false, nil
		}
	}
	cs, err := sq.seq(ctx, ph, 0, m)
	if err != nil {
		return nil, false, err
	}
	y, err := sq.sum(ctx, ph, cs, t, nil, skip)
	return y, y == nil && err == nil, err
}

// Bound returns SegmentsBoundWindow(tr, t, s0, s1) of ph, with the
// interval-free parts of its bands (their rates and escape columns)
// kept within the budget, as those of At's bands. Errors as
// SegmentsBoundWindow's.
func (sq *SegmentsSeq) Bound(ph *Phase, t float64) ([]float64, error) {
	if err := checkSegments(sq.tr, t); err != nil {
		return nil, err
	}
	if sq.s1 > ph.c.m {
		return nil, fmt.Errorf("batchchain: SegmentsBoundWindow: window [%d, %d] is not within the spare counts 0..%d", sq.s0, sq.s1, ph.c.m)
	}
	return ph.boundOf(sq.tr, t, &sq.bands), nil
}

// seq returns the sequence of the band b0..b1, made (and the oldest of
// two dropped) if it is not kept. ctx's error stops the making
// (newColSeq), with the sequences kept as they were.
func (sq *SegmentsSeq) seq(ctx context.Context, ph *Phase, b0, b1 int) (*colSeq, error) {
	for _, cs := range sq.seqs {
		if cs.b0 == b0 && cs.b1 == b1 {
			return cs, nil
		}
	}
	cs, err := ph.newColSeq(ctx, sq.tr, b0, b1)
	if err != nil {
		return nil, err
	}
	if len(sq.seqs) == 2 {
		sq.budget.give(sq.seqs[0].stored)
		sq.seqs = slices.Delete(sq.seqs, 0, 1)
	}
	sq.seqs = append(sq.seqs, cs)
	return cs, nil
}

// newColSeq starts the sequence on b0..b1: z_0 = v = exp(A_b·tr)·1 by
// uniformization (Poisson(Λ·tr) weights cut at 2⁻⁶⁰, as SegmentsColumn).
// It stops with ctx's error when ctx is done (columnK.expTimes).
func (ph *Phase) newColSeq(ctx context.Context, tr float64, b0, b1 int) (*colSeq, error) {
	full := b0 == 0 && b1 == ph.c.m
	lam, hitMin := ph.bandRates(b0, b1)
	nb := b1 - b0 + 1
	cs := &colSeq{b0: b0, b1: b1, full: full, lam: lam, r: 1 - hitMin/lam, ck: ph.columnK(lam, b0, b1),
		next: make([]float64, nb)}
	one := ones(nb)
	cs.z = one
	if tr > 0 {
		z, err := cs.ck.expTimes(ctx, lam, tr, one, cs.next)
		if err != nil {
			return nil, err
		}
		cs.z = z
	}
	return cs, nil
}

// rowChunk is the number of rows of a colSeq per slice.
const rowChunk = 64

// cursor walks a sequence from n = 0: the stored rows, then the
// sequence's own vector while the budget takes the new rows (stored),
// then a private copy of it.
type cursor struct {
	cs      *colSeq
	w0, w1  int // the window within the band
	z, next []float64
	zmax    float64
	private bool
}

// at returns the window's z_n and ‖z_n‖_∞, n one more than the last
// call's (from 0).
func (cu *cursor) at(n int, budget *Budget) (z []float64, zmax float64) {
	cs := cu.cs
	win := cu.w1 - cu.w0 + 1
	if !cu.private && n == len(cs.zmax) && !cs.closed {
		cs.store(cu.w0, cu.w1, budget)
	}
	if !cu.private && n < len(cs.zmax) {
		k := n % rowChunk * win
		return cs.rows[n/rowChunk][k : k+win], cs.zmax[n]
	}
	if !cu.private {
		cu.private = true
		cu.z = slices.Clone(cs.z)
		cu.next = make([]float64, len(cu.z))
		cu.zmax = maxOf(cu.z)
	} else {
		cu.zmax = cs.ck.apply(cu.next, cu.z)
		cu.z, cu.next = cu.next, cu.z
	}
	return cu.z[cu.w0 : cu.w1+1], cu.zmax
}

// full returns z_n on the whole range at a point n of the ladder, n the
// last call's of at.
func (cu *cursor) full(n int) []float64 {
	if !cu.private {
		return cu.cs.zfull[n/ladderStep]
	}
	return cu.z
}

// store stores the window w0..w1 of z_n (and the whole z_n on the whole
// range at a point of the ladder), n = len(zmax), if the budget takes
// it, and replaces z by K·z; otherwise it closes the sequence to storing.
func (cs *colSeq) store(w0, w1 int, budget *Budget) {
	n, win := len(cs.zmax), w1-w0+1
	ladder := cs.full && n%ladderStep == 0
	need := win + 1
	if ladder {
		need += len(cs.z)
	}
	if !budget.Take(need) {
		cs.closed = true
		return
	}
	cs.stored += need
	if n%rowChunk == 0 {
		cs.rows = append(cs.rows, make([]float64, 0, rowChunk*win))
	}
	ch := &cs.rows[n/rowChunk]
	*ch = append(*ch, cs.z[w0:w1+1]...)
	if ladder {
		cs.zfull = append(cs.zfull, slices.Clone(cs.z))
	}
	cs.zmax = append(cs.zmax, maxOf(cs.z))
	cs.ck.apply(cs.next, cs.z)
	cs.z, cs.next = cs.next, cs.z
}

func maxOf(z []float64) float64 {
	var top float64
	for _, v := range z {
		top = max(top, v)
	}
	return top
}

// sum returns the window's Σ_n c_n(Λt)·z_n with SegmentsColumn's stops,
// or nil (and no error) when skip (nil: never) takes the upper bounds of
// AtOrSkip at a point of the ladder, esc the band's escape bound over
// the window (nil on the whole range).
func (sq *SegmentsSeq) sum(ctx context.Context, ph *Phase, cs *colSeq, t float64, esc []float64, skip func([]float64) bool) ([]float64, error) {
	x := cs.lam * t
	w := NewWeights(x)
	cu := &cursor{cs: cs, w0: sq.s0 - cs.b0, w1: sq.s1 - cs.b0}
	y := make([]float64, sq.s1-sq.s0+1)
	var ub []float64
	for n := 0; ; n++ {
		if n >= MaxColumnProducts {
			return nil, fmt.Errorf("batchchain: SegmentsColumn on a band of %d spare counts needs more than MaxColumnProducts = %d products (interruptions %.3g times rarer than the spare count's moves)", cs.b1-cs.b0+1, MaxColumnProducts, 1/(1-cs.r))
		}
		if n%cancelEvery == cancelEvery-1 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		z, zmax := cu.at(n, sq.budget)
		if cs.full && n > 0 && n%ladderStep == 0 && n >= flatTerms(x) {
			rest := restClosed(ph, cu.full(n), n, x, t)
			for i, v := range rest[sq.s0 : sq.s1+1] {
				y[i] += v
			}
			return y, nil
		}
		w.ensure(n + 1)
		c := w.at(n)
		for i, v := range z {
			y[i] += c * v
		}
		if n%ladderStep == ladderStep-1 {
			tail := zmax * weightBound(x, n+1) * cs.r / (1 - cs.r)
			if tail <= expectedRel*slices.Min(y) || zmax == 0 {
				return y, nil
			}
			if skip != nil {
				ub = upperBounds(ub, y, tail, esc)
				if skip(ub) {
					return nil, nil
				}
			}
		}
	}
}

// upperBounds sets ub (made if nil) to AtOrSkip's bounds
// (y + tail + esc)·(1 + skipSlack), esc nil for zero.
func upperBounds(ub, y []float64, tail float64, esc []float64) []float64 {
	if ub == nil {
		ub = make([]float64, len(y))
	}
	for i, v := range y {
		v += tail
		if esc != nil {
			v += esc[i]
		}
		ub[i] = v * (1 + skipSlack)
	}
	return ub
}
