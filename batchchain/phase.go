package batchchain

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"

	"gonum.org/v1/gonum/floats"
)

// Phase is the up phase of the application on a processors with failure
// events: the spare count j moves by the sub-generator A (Chain.Generator)
// until the first event that interrupts the application, whatever the
// checkpoints do. It gives the law of that interruption and the expected
// time to it (Exit), both independent of the checkpoint interval, and the
// expected number of segments of a given length committed before it
// (Segments), the only part that depends on the interval (package
// documentation, "The up phase"). A Phase does not change once built
// but for the censored rates that the first Exit or Solve computes
// (once, under a sync.Once), and is safe for concurrent use until
// Release.
type Phase struct {
	c    *Chain
	kmax int
	// The rates of A by spare count j: dn[j*kmax+k-1] of j → j−k (spare
	// events), hit[j*kmax+k-1] of the interruptions that take k
	// functional processors (to n' = a + j − k), up[j] of j → j+1.
	dn, hit, up []float64
	// hitMin and hitMax are the smallest and largest interruption rates
	// over the spare counts, and rate the largest exit rate (Rate).
	hitMin, hitMax, rate float64
	// hitTot[j] is the interruption rate of spare count j.
	hitTot []float64
	// edn are the censored spare-only rates, like dn, and eout[j] the
	// exit rate of j once every spare count above it is eliminated
	// (censor), built on the first Exit or Solve.
	ednOnce sync.Once
	edn     []float64
	eout    []float64
	// store holds the storage of the tables, handed on by Release.
	store *phaseTables
}

// phaseTables is the storage of a Phase's tables. Release puts it in
// tablePool and the next Phase built (by any chain) takes it, so that
// its tables are written into memory already touched rather than into
// fresh pages that the process must fault in and the collector clear:
// a model builds hundreds of phases and keeps none (package uwt).
// Every entry a Phase reads is written by fillRates or censored before
// it is read, whatever the storage held.
type phaseTables struct {
	dn, hit, edn     []float64 // (m + 1)·K_max
	up, hitTot, eout []float64 // m + 1
	// The scratch of fillRates and SegmentsBase.killRates, not kept.
	ratio, tail, left []float64
}

var tablePool sync.Pool // *phaseTables

// sized returns (*v)[:n], reallocating *v if it is too short; the
// entries are not cleared.
func sized(v *[]float64, n int) []float64 {
	if cap(*v) < n {
		*v = make([]float64, n)
	}
	return (*v)[:n]
}

// Numbers returns how many numbers (float64s) the phase holds once Exit
// or Solve has been used: its rates dn and hit and the censored rates edn
// ((m + 1)·K_max each), and up, hitTot and eout (m + 1 each), so
// (m + 1)·(3K_max + 3) in all; what a Budget is charged for keeping it.
func (ph *Phase) Numbers() int {
	return len(ph.up) * (3*ph.kmax + 3)
}

// MaxPhaseEntries bounds (m + 1)·K_max, the rates a Phase holds per
// array (two of them, a third once Exit or Solve is used, and a Segments
// one more per event size kept): 2²⁵ is about 0.8 GB in all.
const MaxPhaseEntries = 1 << 25

// Phase returns the up phase of the chain, built once (its rates then
// serve Rows too; built again after Phase.Release), its tables in the
// storage of a released phase if there is one. It returns an error if
// (m + 1)·K_max exceeds MaxPhaseEntries, or if some spare count cannot be
// interrupted (λ = 0), which leaves A singular.
func (c *Chain) Phase() (*Phase, error) {
	if ph := c.phase.Load(); ph != nil {
		return ph, nil
	}
	n1, kmax := c.m+1, len(c.sizes)
	if float64(n1)*float64(kmax) > MaxPhaseEntries {
		return nil, fmt.Errorf("batchchain: the up phase of m + 1 = %d spare counts and events of up to %d processors needs %d rates, more than MaxPhaseEntries = %d", n1, kmax, n1*kmax, MaxPhaseEntries)
	}
	st, _ := tablePool.Get().(*phaseTables)
	if st == nil {
		st = new(phaseTables)
	}
	ph := c.newPhase(st)
	if !(ph.hitMin > 0) {
		ph.Release()
		return nil, fmt.Errorf("batchchain: the application on a = %d of n = %d is never interrupted (lambda = %v): its up phase does not end", c.a, c.n, c.lambda)
	}
	if !c.phase.CompareAndSwap(nil, ph) {
		// Another call built the chain's phase first: the same rates.
		if got := c.phase.Load(); got != nil {
			ph.Release()
			return got, nil
		}
	}
	return ph, nil
}

// newPhase returns the up phase of c with its tables in st, whatever st
// held before.
func (c *Chain) newPhase(st *phaseTables) *Phase {
	n1, kmax := c.m+1, len(c.sizes)
	ph := &Phase{c: c, kmax: kmax, dn: sized(&st.dn, n1*kmax), hit: sized(&st.hit, n1*kmax), up: sized(&st.up, n1),
		hitTot: sized(&st.hitTot, n1), hitMin: math.Inf(1), store: st}
	ph.fillRates()
	// The built-in min and max (inlined) are math.Min and math.Max on
	// these finite non-negative rates.
	for j, h := range ph.hitTot {
		ph.hitMin = min(ph.hitMin, h)
		ph.hitMax = max(ph.hitMax, h)
		ph.rate = max(ph.rate, float64(c.a+j)*c.rate+ph.up[j])
	}
	return ph
}

// Release hands the phase's tables to the next Phase built, by any
// chain, and detaches the phase from its chain (whose Rows then compute
// the rates themselves, the same values). The caller must not use ph,
// nor anything that reads its tables, after Release: the methods that
// read them then panic. A SegmentsBase built from ph holds none of them
// and stays valid. Release is for callers that build many phases and keep none
// (package uwt builds one per used count of its window): their tables
// are then written into memory already touched.
func (ph *Phase) Release() {
	if ph.store == nil {
		return
	}
	ph.c.phase.CompareAndSwap(ph, nil)
	st := ph.store
	ph.store, ph.dn, ph.hit, ph.up, ph.hitTot, ph.edn, ph.eout = nil, nil, nil, nil, nil, nil, nil
	tablePool.Put(st)
}

// fillRates writes the rates of every spare count into dn, hit and up,
// the values of Chain.ratesAt bit for bit (every entry, zeros included:
// the storage may hold a released phase's tables), and their
// interruption rates into hitTot (summed over the sizes in increasing
// order). The factor (j−i)/(f−i) of ratesAt's hypergeometric product
// depends on u = j − i only (f − i = a + u), so that it is divided once
// per u rather than once per spare count and size; the law truncated at
// min(K, f) = K_max is summed once. The rows are filled two at a time
// where both have K_max sizes (TestPhaseRatesMatchChain covers both
// paths; a pair whose second row divides by the first's f − i fails
// 606 entries there).
func (ph *Phase) fillRates() {
	c, kmax, m := ph.c, ph.kmax, ph.c.m
	// ratio[u+kmax] = max(u, 0)/(a + u) for 1 − kmax ≤ u ≤ m, a + u ≥ 1
	// (the only entries read).
	ratio := sized(&ph.store.ratio, m+kmax+1)
	for u := max(1-kmax, 1-c.a); u <= m; u++ {
		ratio[u+kmax] = float64(max(u, 0)) / float64(c.a+u)
	}
	// tail[k−1] = Σ sizes[k−1:], in ratesAt's order.
	tail := sized(&ph.store.tail, len(c.sizes))
	clear(tail)
	for k := range tail {
		for _, q := range c.sizes[k:] {
			tail[k] += q
		}
	}
	for j := 0; j <= m; {
		if j < m && c.a+j >= kmax {
			// Two rows at a time: their chains of products and sums are
			// independent and overlap (the same operations per row).
			ph.fillPair(j, ratio, tail)
			j += 2
			continue
		}
		ph.fillRow(j, ratio, tail)
		j++
	}
}

// fillRow writes the rates of spare count j (fillRates).
func (ph *Phase) fillRow(j int, ratio, tail []float64) {
	c, kmax := ph.c, ph.kmax
	f := c.a + j
	kj := min(kmax, f)
	ev := float64(f) * c.rate
	dn, hit := ph.dn[j*kmax:(j+1)*kmax], ph.hit[j*kmax:(j+1)*kmax]
	h, miss, tot := 1.0, 0.0, 0.0
	for k := 1; k <= kj; k++ {
		i := k - 1
		miss += h * float64(c.a) / float64(f-i)
		h *= ratio[j-i+kmax]
		p := c.sizes[i]
		if k == kj {
			p = tail[i]
		}
		dn[i], hit[i] = rateOf(ev, p, h, miss)
		tot += hit[i]
	}
	clear(dn[kj:])
	clear(hit[kj:])
	ph.hitTot[j] = tot
	ph.up[j] = float64(c.m-j) * c.theta
}

// fillPair writes the rates of spare counts j and j + 1, a + j ≥ K_max,
// as fillRow does, interleaved.
func (ph *Phase) fillPair(j int, ratio, tail []float64) {
	c, kmax := ph.c, ph.kmax
	f := c.a + j
	ev0, ev1 := float64(f)*c.rate, float64(f+1)*c.rate
	dn0, hit0 := ph.dn[j*kmax:(j+1)*kmax], ph.hit[j*kmax:(j+1)*kmax]
	dn1, hit1 := ph.dn[(j+1)*kmax:(j+2)*kmax], ph.hit[(j+1)*kmax:(j+2)*kmax]
	fa := float64(c.a)
	h0, miss0, tot0 := 1.0, 0.0, 0.0
	h1, miss1, tot1 := 1.0, 0.0, 0.0
	for i := range kmax {
		miss0 += h0 * fa / float64(f-i)
		miss1 += h1 * fa / float64(f+1-i)
		h0 *= ratio[j-i+kmax]
		h1 *= ratio[j+1-i+kmax]
		p := c.sizes[i]
		if i == kmax-1 {
			p = tail[i]
		}
		dn0[i], hit0[i] = rateOf(ev0, p, h0, miss0)
		dn1[i], hit1[i] = rateOf(ev1, p, h1, miss1)
		tot0 += hit0[i]
		tot1 += hit1[i]
	}
	ph.hitTot[j], ph.hitTot[j+1] = tot0, tot1
	ph.up[j], ph.up[j+1] = float64(c.m-j)*c.theta, float64(c.m-j-1)*c.theta
}

// rateOf returns the spare-only rate ev·p·h (zero unless h > 0) and the
// interruption rate ev·p·miss of a size of probability p (both zero for
// p = 0), as Chain.ratesAt computes them.
func rateOf(ev, p, h, miss float64) (dn, hit float64) {
	if p == 0 {
		return 0, 0
	}
	ep := ev * p // ev·p·h is (ev·p)·h
	if h > 0 {
		dn = ep * h
	}
	return dn, ep * miss
}

// censor runs the censoring from the top (Grassmann, Taksar & Heyman
// 1985) and calls visit(j, row, out) for j = m down to 0, row[k−1] the
// censored rate of j → j−k and out the censored exit rate of j: once
// j+1, … are eliminated, j leaves by spare events to j−k (the direct
// rates plus those through the eliminated counts) and by interruptions
// (likewise); its exit rate is their sum, a sum of positive terms.
// Eliminating j gives j−1, whose only way up is j−1 → j at up[j−1], the
// rates of j scaled by up[j−1]/out; the part that returns to j−1 is a
// self-loop and drops out. Two rows are held at a time; visit must not
// keep row.
func (ph *Phase) censor(visit func(j int, row []float64, out float64)) {
	kmax, m := ph.kmax, len(ph.up)-1
	cur, below := make([]float64, kmax), make([]float64, kmax)
	copy(cur, ph.dn[m*kmax:])
	hit := ph.hitTot[m]
	for j := m; ; j-- {
		out := hit
		for _, v := range cur {
			out += v
		}
		visit(j, cur, out)
		if j == 0 {
			return
		}
		copy(below, ph.dn[(j-1)*kmax:j*kmax])
		hitBelow := ph.hitTot[j-1]
		if f := ph.up[j-1] / out; f != 0 {
			hitBelow += f * hit
			for k := 2; k <= min(kmax, j); k++ { // j → j−k is j−1 → (j−1)−(k−1)
				below[k-2] += f * cur[k-1]
			}
		}
		cur, below = below, cur
		hit = hitBelow
	}
}

// censored returns the censored spare-only rates of every spare count,
// like dn, and the censored exit rates (censor), computed once.
func (ph *Phase) censored() (edn, eout []float64) {
	ph.ednOnce.Do(func() {
		// Every entry is written (censor visits every j with a whole row).
		edn, eout := sized(&ph.store.edn, len(ph.dn)), sized(&ph.store.eout, len(ph.up))
		ph.censor(func(j int, row []float64, out float64) {
			copy(edn[j*ph.kmax:], row)
			eout[j] = out
		})
		ph.edn, ph.eout = edn, eout
	})
	return ph.edn, ph.eout
}

// ratesAt fills r for spare count j from the table, as Chain.ratesAt
// does (the same values).
func (ph *Phase) ratesAt(j int, r *rates) {
	c := ph.c
	k := min(ph.kmax, c.a+j)
	r.down = append(r.down[:0], ph.dn[j*ph.kmax:j*ph.kmax+k]...)
	r.hit = append(r.hit[:0], ph.hit[j*ph.kmax:j*ph.kmax+k]...)
	r.up = ph.up[j]
	r.out = float64(c.a+j)*c.rate + r.up
}

// outRate is the exit rate of spare count j: its repair, its spare-only
// events and its interruptions, summed in that order (the diagonal of
// K = I + A/Λ is 1 − outRate/Λ).
func (ph *Phase) outRate(j int) float64 {
	kmax := ph.kmax
	out := ph.up[j]
	for _, d := range ph.dn[j*kmax : (j+1)*kmax] {
		out += d
	}
	for _, h := range ph.hit[j*kmax : (j+1)*kmax] {
		out += h
	}
	return out
}

// outRates4 returns outRate of the spare counts j, …, j+3, each summed
// in outRate's order: the four sums interleaved, so that their additions
// overlap instead of each waiting for the one before (the same bits).
func (ph *Phase) outRates4(j int) [4]float64 {
	kmax := ph.kmax
	o0, o1, o2, o3 := ph.up[j], ph.up[j+1], ph.up[j+2], ph.up[j+3]
	for _, t := range [2][]float64{ph.dn, ph.hit} {
		r0, r1 := t[j*kmax:(j+1)*kmax], t[(j+1)*kmax:(j+2)*kmax]
		r2, r3 := t[(j+2)*kmax:(j+3)*kmax], t[(j+3)*kmax:(j+4)*kmax]
		for k, v := range r0 {
			o0 += v
			o1 += r1[k]
			o2 += r2[k]
			o3 += r3[k]
		}
	}
	return [4]float64{o0, o1, o2, o3}
}

// Rate returns the largest exit rate of A, max_j (a+j)λ/E[K] + (m−j)θ:
// the smallest valid uniformization rate of Segments (computed with the
// tables).
func (ph *Phase) Rate() float64 { return ph.rate }

// Exit returns, for the spare counts at the start of the up phase
// distributed as v (v[i] the mass of spare count lo+i, its total the
// probability that the phase starts), the law of the functional count n'
// that the interruption ending the phase leaves, q[i] for n' = qlo+i
// (that is, v·(−A)⁻¹·B), and the expected time to it, v·(−A)⁻¹·1. The
// expected times x = v·(−A)⁻¹ in each spare count solve the flow balance
// by the censoring of Phase from the top (its censored rates, built once
// per phase and shared with Solve) and a substitution from the bottom:
// sums of positive terms only, so every entry is accurate to rounding
// relative to itself. Σ q = Σ v up to rounding. It panics if v does not
// fit in 0..m.
func (ph *Phase) Exit(v []float64, lo int) (q []float64, qlo int, tau float64) {
	m, kmax := ph.c.m, ph.kmax
	if lo < 0 || lo+len(v) > m+1 {
		panic("batchchain: Exit: v outside the spare counts 0..m")
	}
	edn, eout := ph.censored()
	xp := exitScratch.Get().(*[]float64)
	defer exitScratch.Put(xp)
	w := sized(xp, m+1)
	clear(w)
	copy(w[lo:], v)
	// Forward: the mass that enters j (v'_j) passes on to the counts
	// below in the proportions of the censored rates, from the top.
	for j := lo + len(v) - 1; j >= 1; j-- {
		if w[j] == 0 {
			continue
		}
		f := w[j] / eout[j]
		for k, r := range edn[j*kmax : j*kmax+min(kmax, j)] {
			w[j-k-1] += f * r
		}
	}
	// Back substitution: x_j·eout_j = v'_j + x_{j−1}·up_{j−1}.
	x := w
	x[0] /= eout[0]
	for j := 1; j <= m; j++ {
		x[j] = (x[j] + x[j-1]*ph.up[j-1]) / eout[j]
	}
	qlo = max(ph.c.a-kmax, 0)
	q = make([]float64, ph.c.a+m-qlo)
	for j, xj := range x {
		if xj == 0 {
			continue
		}
		tau += xj
		for k, h := range ph.hit[j*kmax : (j+1)*kmax] {
			if h > 0 {
				q[ph.c.a+j-k-1-qlo] += xj * h
			}
		}
	}
	return q, qlo, tau
}

// exitScratch holds the expected times of finished Exit calls, for the
// next ones (a model calls Exit once per recovery row).
var exitScratch = sync.Pool{New: func() any { return new([]float64) }}

// Segments is the expected number of segments committed in one up phase,
// as a function of the segment length (Expected). With K = I + A/Λ for a
// uniformization rate Λ ≥ Phase.Rate, the sequence s_n = v·Kⁿ·1 does not
// depend on the length; the length t enters only through the weights of
//
//	Σ_{k≥1} v·exp(A k t)·1 = Σ_n c_n(Λt)·s_n,   c_n(x) = Σ_{k≥1} e^{−kx}(kx)ⁿ/n!
//
// (Weights), so the sequence is computed once and extended when a longer
// segment needs more of it, and up phases of the same Λ and length share
// their weights. A Segments is not safe for concurrent use.
type Segments struct {
	*SegmentsBase
	y, next []float64 // v·Kⁿ on the spare counts [nzLo, nzHi]
	nzLo    int
	nzHi    int
	s       []float64
	// u holds v·Kⁿ·(−A)⁻¹·1 at n = 0, ladderStep, 2·ladderStep, …
	// (u[n/ladderStep]), for the closed form of the flat weights.
	u       []float64
	dropped float64
	budget  *Budget // the terms it may store beyond the first (nil: MaxSegmentsProducts only)
	// v and lo are the start, kept for the dense path (extend moves y).
	v  []float64
	lo int
}

// SetBudget makes the sequence take each term it stores from b (shared
// by the sequences of a model, so that their memory is bounded in all):
// an Expected that needs a term the budget no longer has returns an
// error. nil bounds only by MaxSegmentsProducts.
func (sg *Segments) SetBudget(b *Budget) { sg.budget = b }

// SegmentsBase is the part of Segments that does not depend on the start
// v: K = I + A/Λ by its entries, built from a Phase by
// Phase.SegmentsBase. It holds no reference to the Phase, whose rate
// tables can then be released while the sequences are kept. It does not
// change once built and is safe for concurrent use; each Segments built
// from it (SegmentsBase.Segments) is not.
type SegmentsBase struct {
	m, kmax        int
	hitMin, hitMax float64 // Phase's smallest and largest interruption rates
	lam            float64
	r              float64 // max_j (K·1)_j = 1 − hitMin/Λ: s_{n+1} ≤ r·s_n
	stay           []float64
	upS            []float64 // up[j]/Λ
	// ks are the event sizes k with a spare-only rate kept, and
	// downS[i][j − from[i]] that rate of size ks[i] from spare count
	// j ≥ from[i], divided by Λ (by size, so that each product is a few
	// loops over the band without branches). The rates of j < from[i]
	// are negligible (killRates) and left out.
	ks    []int
	from  []int
	downS [][]float64
	kill  float64 // max_j of the rates left out from j, divided by Λ
	// dur is (−A)⁻¹·1 on 0..m (Phase.Solve): the expected duration of
	// the up phase from each spare count.
	dur []float64
	// dense is the dense path (useDense; nil: the sequence only).
	dense *denseUp
}

// segmentDrop is the mass, relative to s_n, that one product may drop
// from the ends of the band of v·Kⁿ.
const segmentDrop = 0x1p-60

// Segments returns the expected segment counts of the up phase started
// from the spare counts distributed as v (v[i] the mass of lo+i), with
// the uniformization rate lam (0 means Rate): ph.SegmentsBase(lam).
// Segments(v, lo). It panics if v does not fit in 0..m or lam is below
// Rate.
func (ph *Phase) Segments(v []float64, lo int, lam float64) *Segments {
	return ph.SegmentsBase(lam).Segments(v, lo)
}

// SegmentsBase returns the part of the up phase's Segments that does not
// depend on the start, with the uniformization rate lam (0 means Rate),
// and the dense path when useDense chooses it (m + 1 ≤ MaxDenseOrder and
// the sequence's predicted cost above the dense one's).
// It panics if lam is below Rate.
func (ph *Phase) SegmentsBase(lam float64) *SegmentsBase {
	m := ph.c.m
	if lam == 0 {
		lam = ph.Rate()
	}
	if !(lam >= ph.Rate()) || math.IsInf(lam, 0) {
		panic("batchchain: Segments: uniformization rate below Phase.Rate")
	}
	b := &SegmentsBase{m: m, kmax: ph.kmax, hitMin: ph.hitMin, hitMax: ph.hitMax,
		lam: lam, r: 1 - ph.hitMin/lam}
	b.stay, b.upS = ph.stayUp(lam, 0, m)
	b.killRates(ph, segmentDrop*lam)
	edn, eout := ph.censored()
	b.dur = solveCensored(ph.up, edn, eout, ph.kmax, ones(m+1))
	if useDense(lam, ph.hitMin, m, ph.kmax) {
		b.dense = newDenseUp(ph)
	}
	return b
}

// Segments returns the expected segment counts of the up phase started
// from the spare counts distributed as v (v[i] the mass of lo+i). It
// panics if v does not fit in 0..m.
func (b *SegmentsBase) Segments(v []float64, lo int) *Segments {
	m := b.m
	if lo < 0 || lo+len(v) > m+1 {
		panic("batchchain: Segments: v outside the spare counts 0..m")
	}
	sg := &Segments{SegmentsBase: b, y: make([]float64, m+1), next: make([]float64, m+1)}
	copy(sg.y[lo:], v)
	sg.nzLo, sg.nzHi = lo, lo+len(v)-1
	if b.dense != nil {
		sg.v, sg.lo = append([]float64(nil), v...), lo
	}
	var s0 float64
	for _, x := range v {
		s0 += x
	}
	sg.s = append(sg.s, s0)
	sg.u = append(sg.u, sg.durDot())
	return sg
}

// durDot returns y·(−A)⁻¹·1 of the current y = v·Kⁿ.
func (sg *Segments) durDot() float64 {
	var u float64
	if sg.nzLo <= sg.nzHi {
		for j, v := range sg.y[sg.nzLo : sg.nzHi+1] {
			u += v * sg.dur[sg.nzLo+j]
		}
	}
	return u
}

// killRates fills ks, from, downS and kill from the rates of ph: of the
// spare-only rates of each size k, those of the spare counts k, k+1, …
// up to the first that cannot be left out are left out (the process
// killed on those jumps) while the rates left out from each spare count
// j sum to at most budget (segmentDrop·Λ), the largest sizes first. An
// event of k processors hits only spares with probability about (j/f)ᵏ,
// so that the larger sizes drop from most of the band. Each product then
// loses at most budget/Λ·s_n by them, as by the ends of the band
// (extend), and K only loses entries: s_n stays below the true sequence
// and every bound of Expected holds.
func (b *SegmentsBase) killRates(ph *Phase, budget float64) {
	m, kmax := b.m, b.kmax
	b.ks, b.from, b.downS = b.ks[:0], b.from[:0], b.downS[:0]
	left := sized(&ph.store.left, m+1) // the rates left out from each j
	clear(left)
	total := 0
	for k := kmax; k >= 1; k-- {
		j := k
		for ; j <= m; j++ {
			d := ph.dn[j*kmax+k-1]
			if left[j]+d > budget {
				break
			}
			left[j] += d
		}
		if j <= m {
			b.ks, b.from = append(b.ks, k), append(b.from, j)
			total += m + 1 - j
		}
	}
	b.kill = slices.Max(left) / b.lam
	// One array for the rows of every size kept.
	store := make([]float64, total)
	for i, k := range b.ks {
		j := b.from[i]
		row := store[: m+1-j : m+1-j]
		store = store[m+1-j:]
		for l := j; l <= m; l++ {
			row[l-j] = ph.dn[l*kmax+k-1] / b.lam
		}
		b.downS = append(b.downS, row)
	}
}

// Len returns the number of terms s_n computed so far.
func (sg *Segments) Len() int { return len(sg.s) }

// Rate returns the uniformization rate Λ of the sequence.
func (b *SegmentsBase) Rate() float64 { return b.lam }

// Dropped returns the mass dropped so far: each product drops at most
// 2⁻⁶⁰·s_n from the ends of the band and at most 2⁻⁶⁰·s_n by the
// negligible spare-only rates it leaves out (killRates).
func (sg *Segments) Dropped() float64 { return sg.dropped }

// extend computes s_n up to n = last.
func (sg *Segments) extend(last int) {
	kmax, m := sg.kmax, sg.m
	for len(sg.s) <= last {
		if sg.nzHi < sg.nzLo {
			sg.s = append(sg.s, 0)
			if (len(sg.s)-1)%ladderStep == 0 {
				sg.u = append(sg.u, 0)
			}
			continue
		}
		lo, hi := max(sg.nzLo-kmax, 0), min(sg.nzHi+1, m)
		// next is zero: the previous product cleared it (below), and
		// the ends it dropped were set to zero.
		next := sg.next
		b0, b1 := sg.nzLo, sg.nzHi
		y := sg.y[b0 : b1+1]
		mulSet(next[b0:b1+1], y, sg.stay[b0:b1+1])
		if top := min(b1, m-1); top >= b0 {
			mulAdd(next[b0+1:top+2], y, sg.upS[b0:top+1])
		}
		for i, k := range sg.ks {
			// j − k ≥ 0: the rates of j < k are zero; those below
			// from[i] are left out.
			from := sg.from[i]
			j0 := max(b0, from)
			if j0 > b1 {
				continue
			}
			mulAdd(next[j0-k:b1-k+1], sg.y[j0:b1+1], sg.downS[i][j0-from:b1-from+1])
		}
		// The rates left out kill at most kill·s_n of y = v·Kⁿ.
		killed := sg.kill * sg.s[len(sg.s)-1]
		clear(sg.y[sg.nzLo : sg.nzHi+1])
		sg.y, sg.next = next, sg.y
		s := floats.Sum(sg.y[lo : hi+1])
		// Drop the ends of the band while they carry at most
		// segmentDrop·s in all.
		budget, cut := segmentDrop*s, 0.0
		for lo < hi && cut+sg.y[lo] <= budget {
			cut += sg.y[lo]
			sg.y[lo] = 0
			lo++
		}
		for hi > lo && cut+sg.y[hi] <= budget {
			cut += sg.y[hi]
			sg.y[hi] = 0
			hi--
		}
		sg.dropped += cut + killed
		sg.nzLo, sg.nzHi = lo, hi
		sg.s = append(sg.s, s-cut)
		if (len(sg.s)-1)%ladderStep == 0 {
			sg.u = append(sg.u, sg.durDot())
		}
	}
}

// Tolerances of Expected: the sum over n stops at the first N of the
// ladder 15, 31, 47, … (steps of ladderStep) where the bound on the rest
// is at most expectedRel times the sum or expectedAbs·s_0/max(1, ρ_min·t).
const (
	expectedRel = 1e-14
	expectedAbs = 1e-19
	ladderStep  = 16
)

// weightBound returns a bound on c_n(x) for every n ≥ n0 ≥ 1:
// 1/x + 1/√(2π·n0). With f(μ) = e^{−μ}μⁿ/n!, unimodal on μ ≥ 0 with its
// maximum at μ = n and ∫f = 1, the grid sum c_n = Σ_{k≥1} f(kx) is at
// most (1/x)∫f + max f (each grid point but the two around the mode is
// below the mean of f over the step beside it on the side of the mode,
// and the smaller of those two below the mean over the step between
// them), and max f = nⁿe^{−n}/n! ≤ 1/√(2πn) by Robbins' bound
// n! ≥ √(2πn)(n/e)ⁿ.
func weightBound(x float64, n0 int) float64 {
	return 1/x + 1/math.Sqrt(2*math.Pi*float64(n0))
}

// Expected returns Σ_{k≥1} v·exp(A k t)·1 for the segment length t ≥ 0
// (by the dense path when the SegmentsBase has one; package
// documentation, "The up phase"):
// the expected number of segments of length t that the up phase commits
// before its interruption, started from v (the probability of each
// count, summed). w holds the weights c_n(Λt) (NewWeights(Rate()·t); nil
// makes them): Segments of the same rate and length can share them. The
// terms s_n are computed as needed; the sum stops at the first N of a
// fixed ladder where the bound on the rest, s_N·(1/(Λt) + 1/√(2π(N+1)))·
// r/(1 − r) (c_n ≤ 1/(Λt) + 1/√(2πn) for n ≥ 1, weightBound;
// s_{n+1} ≤ r·s_n), is at most 1e-14 of
// the sum or 1e-19 of s_0 divided by max(1, ρ_min·t), ρ_min the smallest
// interruption rate: the result depends on t only, not on earlier calls.
// It returns +Inf for t = 0 (and s_0 > 0), and an error for a negative,
// NaN or infinite t. It panics if w is for another Λt.
func (sg *Segments) Expected(t float64, w *Weights) (float64, error) {
	return sg.ExpectedWithin(t, w, sg.s[0])
}

// ExpectedWithin is Expected with the absolute tolerance scaled by mass
// instead of s_0 (1e-19·mass/max(1, ρ_min·t)): the up phases of a model
// whose masses s_0 sum to mass then share one absolute tolerance, and
// a phase of negligible probability stops early. mass below s_0 counts
// as s_0.
func (sg *Segments) ExpectedWithin(t float64, w *Weights, mass float64) (float64, error) {
	return sg.ExpectedFloor(t, w, mass, 0)
}

// Lower returns a lower bound on Expected(t), t > 0:
// s_0·q/(1 − q), q = e^{−ρ_max·t}, ρ_max the largest interruption rate.
// A + ρ_max·I differs from the generator S of the spare count (rows
// summing to zero) only by the non-negative diagonal ρ_max − ρ_j, so
// exp(A t)·1 ≥ e^{−ρ_max t}·exp(S t)·1 = e^{−ρ_max t}·1 entrywise, and
// v·exp(A k t)·1 ≥ s_0·qᵏ. It is exact when every spare count has the
// same interruption rate (sizes [1]: ρ = aλ). It returns 0 for t ≤ 0 or
// t infinite.
func (sg *Segments) Lower(t float64) float64 {
	if !(t > 0) || math.IsInf(t, 0) {
		return 0
	}
	x := sg.hitMax * t
	return sg.s[0] * math.Exp(-x) / -math.Expm1(-x)
}

// ExpectedFloor is ExpectedWithin that also stops once the bound on the
// rest is at most 1e-14·floor: up phases whose expected counts sum to
// at least F can share the relative tolerance 1e-14·F, each taking
// floor = F/(number of phases) (F from Lower), so that the error of the
// sum is at most 2e-14·F plus the absolute tolerances, and a phase whose
// count is far below F/(number of phases) stops early. floor must be
// finite and non-negative.
func (sg *Segments) ExpectedFloor(t float64, w *Weights, mass, floor float64) (float64, error) {
	return sg.ExpectedFloorContext(context.Background(), t, w, mass, floor)
}

// MaxSegmentsProducts bounds the terms s_n of a Segments (8 bytes each,
// 32 MiB): an Expected that needs more returns an error instead of
// growing the sequence. The sum needs at most about
// min((Λ/ρ_min)·ln(10¹⁴), flatFrom(Λt)) terms, the second about
// 1.9(Λt)² for Λt ≥ 2 (the closed form of the flat weights), so that
// only an up phase whose interruptions are more than about 10⁵ times
// rarer than its spare count's moves, at Λt beyond about 1500 (a
// segment of that many times the mean time between the moves), and
// that the dense path does not take (SegmentsBase: useDense, a condition
// of Φ(t) within 10⁹), is refused.
const MaxSegmentsProducts = MaxColumnProducts

// ExpectedFloorContext is ExpectedFloor that stops with ctx's error when
// ctx is done (checked every cancelEvery products). Once the ladder
// reaches the flat weights (N ≥ flatFrom(Λt): c_n = 1/(Λt) for n ≥ N),
// the rest of the sum is exact by one solve,
//
//	Σ_{n≥N} c_n·s_n = (1/(Λt))·v·Kᴺ·Σ_{k≥0} Kᵏ·1 = (1/t)·v·Kᴺ·(−A)⁻¹·1,
//
// (Σ_k Kᵏ = (I − K)⁻¹ = Λ·(−A)⁻¹), with (−A)⁻¹·1 from Phase.Solve, kept
// by the SegmentsBase; the sum then stops there. It returns an error if
// the sequence would need more than MaxSegmentsProducts terms.
func (sg *Segments) ExpectedFloorContext(ctx context.Context, t float64, w *Weights, mass, floor float64) (float64, error) {
	if err := checkTime("t", t); err != nil {
		return 0, err
	}
	if math.IsNaN(mass) || math.IsInf(mass, 0) {
		return 0, fmt.Errorf("batchchain: mass = %v is not a finite number", mass)
	}
	if !(floor >= 0) || math.IsInf(floor, 0) {
		return 0, fmt.Errorf("batchchain: floor = %v is not a finite non-negative number", floor)
	}
	mass = math.Max(mass, sg.s[0])
	if t == 0 {
		if sg.s[0] == 0 {
			return 0, nil
		}
		return math.Inf(1), nil
	}
	x := sg.lam * t
	if w == nil {
		w = NewWeights(x)
	} else if w.x != x {
		panic("batchchain: Expected: weights of another rate or length")
	}
	if sg.dense != nil {
		e, err := sg.dense.expected(sg.v, sg.lo, t)
		if !errors.Is(err, errDenseCond) {
			return e, err
		}
	}
	abs := expectedAbs * mass / math.Max(1, sg.hitMin*t)
	// The weights at once as far as the sequence already goes (another
	// length usually needed about as many), rather than by doubling;
	// c_n does not depend on how far they are computed.
	w.ensure(sg.Len())
	var e float64
	n := 0
	for last := ladderStep - 1; ; last += ladderStep {
		if last+1 >= MaxSegmentsProducts {
			return 0, fmt.Errorf("batchchain: Expected at t = %.6g s needs more than MaxSegmentsProducts = %d terms (interruptions %.3g times rarer than the spare count's moves, Λt = %.3g)",
				t, MaxSegmentsProducts, sg.lam/sg.hitMin, x)
		}
		if (last+1)%cancelEvery == 0 {
			if err := ctx.Err(); err != nil {
				return 0, err
			}
		}
		if grow := last + 2 - sg.Len(); grow > 0 && sg.budget != nil && !sg.budget.Take(grow) {
			return 0, fmt.Errorf("batchchain: Expected at t = %.6g s: the sequences sharing its budget hold all the terms it allows (at %d terms of this one; interruptions %.3g times rarer than the spare count's moves, Λt = %.3g)",
				t, sg.Len(), sg.lam/sg.hitMin, x)
		}
		sg.extend(last)
		w.ensure(last + 1)
		for ; n <= last; n++ {
			e += w.at(n) * sg.s[n]
		}
		tail := sg.s[last] * weightBound(x, last+1) * sg.r / (1 - sg.r)
		if tail <= expectedRel*max(e, floor) || tail <= abs || sg.s[last] == 0 {
			return e, nil
		}
		if last+1 >= w.flat {
			// c_n = 1/x from n = last + 1: the rest in closed form.
			sg.extend(last + 1)
			return e + sg.u[(last+1)/ladderStep]/t, nil
		}
	}
}

// cancelEvery is the number of products with K between two checks of
// the context in the long loops of Segments and Rows.
const cancelEvery = 1 << 12

// Weights are the weights c_n(x) = Σ_{k≥1} e^{−kx}(kx)ⁿ/n! of
// Segments.Expected, computed as far as needed. By Poisson summation
// (the Fourier transform of μⁿe^{−μ}/n! on μ ≥ 0 is (1 + iω)^{−(n+1)}),
// for n ≥ 1
//
//	c_n(x) = (1/x)·(1 + 2 Re Σ_{j≥1} (1 + 2πij/x)^{−(n+1)}),
//
// whose sum is at most (x²/24)·(1 + (2π/x)²)^{−(n−1)/2}: from the first n
// where that is below 2⁻⁵⁴ (flatFrom), c_n = 1/x to rounding. Below it,
// c_n comes from the Eulerian polynomials when x ≤ 2 (eulerian), else
// from the Poisson weights of each k down to 1e-30 of the mode's
// (weightFloor), normalised by Stirling's series or their sum
// (poissonAdd). Every
// term is non-negative. Weights are not safe for concurrent use.
type Weights struct {
	x    float64
	flat int       // c_n = 1/x from n = flat
	c    []float64 // c_n for n < len(c) ≤ flat
}

// NewWeights returns the weights for x = Λt > 0.
func NewWeights(x float64) *Weights {
	if !(x > 0) || math.IsInf(x, 0) {
		panic("batchchain: NewWeights: x is not a positive number")
	}
	return &Weights{x: x, flat: flatFrom(x)}
}

// at returns c_n, n < the last ensure's count or n ≥ flat.
func (w *Weights) at(n int) float64 {
	if n >= w.flat {
		return 1 / w.x
	}
	return w.c[n]
}

// ensure computes c_n for n < min(count, flat).
func (w *Weights) ensure(count int) {
	nd := min(count, w.flat)
	if nd <= len(w.c) {
		return
	}
	// Twice what was asked, so that growing costs a constant factor.
	nd = min(max(nd, 2*len(w.c)), w.flat)
	x := w.x
	if x <= 2 && nd <= maxEulerian {
		w.c = eulerian(x, nd)
		return
	}
	c := make([]float64, nd)
	for k := 1; poissonAdd(c, float64(k)*x) || float64(k)*x < float64(nd); k++ {
	}
	w.c = c
}

// weightFloor is the smallest Poisson weight, relative to the mode's,
// that poissonAdd keeps (about 11.7 standard deviations from it): each
// term left out is below 1e-30·s_0, and the k and n that Expected sums
// over are far fewer than 10⁸, so what it leaves out is below 1e-22·s_0,
// far inside its absolute tolerance.
const weightFloor = 1e-30

// poissonAdd adds P(N = n), N ~ Poisson(mu), to c[n] for the n < len(c)
// where it is at least weightFloor times the mode's, and reports whether
// it added any. The weights are built outward from the mode n₀ = ⌊μ⌋ by
// the ratio recurrence (no cancellation in e^{−μ}μⁿ/n!), from the mode's
// weight 1/T, T = Σ_n μ^{n−n₀}n₀!/n! = e^μ n₀!/μ^{n₀}: by Stirling's
// series, with δ = μ − n₀ ∈ [0, 1),
//
//	ln T = δ − n₀·log1p(δ/n₀) + ½ln(2πn₀) + 1/(12n₀) − 1/(360n₀³) + 1/(1260n₀⁵) − 1/(1680n₀⁷),
//
// whose terms are each computed to a few ε absolute (the series' rest is
// below 1/(1188·n₀⁹) ≤ 5e-17 from n₀ = stirlingFrom), so that T is
// accurate to a few ε relative; only the weights below len(c) are
// computed. Below stirlingFrom, T is the window's sum (poissonAddSummed).
// c_n does not depend on how far the weights were computed.
func poissonAdd(c []float64, mu float64) bool {
	// Below the mode by d, the weight is at most e^{−d(d−1)/(2μ)} of the
	// mode's (Π_{i<d} (μ − i)/μ ≤ e^{−Σ i/μ}): below weightFloor from
	// d = 12√μ + 1.
	if float64(len(c)) < mu-12*math.Sqrt(mu)-1 {
		return false
	}
	n0 := int(mu)
	if n0 < stirlingFrom {
		return poissonAddSummed(c, mu)
	}
	mode := math.Exp(-logPoissonNorm(mu, n0))
	floor := weightFloor * mode
	added := false
	for n, w := n0, mode; n >= 0 && w >= floor; n-- {
		if n < len(c) {
			c[n] += w
			added = true
		}
		w *= float64(n) / mu
	}
	for n, w := n0+1, mode*mu/float64(n0+1); n < len(c) && w >= floor; n++ {
		c[n] += w
		added = true
		w *= mu / float64(n+1)
	}
	return added
}

// stirlingFrom is the smallest mode n₀ whose normalisation poissonAdd
// takes from Stirling's series.
const stirlingFrom = 30

// logPoissonNorm returns ln(e^μ n₀!/μ^{n₀}) for n₀ = ⌊μ⌋ ≥ stirlingFrom
// (poissonAdd).
func logPoissonNorm(mu float64, n0 int) float64 {
	n := float64(n0)
	d := mu - n
	u := 1 / n
	u2 := u * u
	series := u * (1.0/12 - u2*(1.0/360-u2*(1.0/1260-u2/1680)))
	return d - n*math.Log1p(d/n) + 0.5*math.Log(2*math.Pi*n) + series
}

// poissonAddSummed is poissonAdd with the mode's weight normalised by the
// window's sum (over every n, whatever len(c)): two passes.
func poissonAddSummed(c []float64, mu float64) bool {
	n0 := int(mu)
	lo, hi := n0, n0
	total := 1.0
	for n, w := n0-1, 1.0; n >= 0; n-- {
		if w *= float64(n+1) / mu; w < weightFloor {
			break
		}
		total += w
		lo = n
	}
	for n, w := n0+1, 1.0; ; n++ {
		if w *= mu / float64(n); w < weightFloor {
			break
		}
		total += w
		hi = n
	}
	if lo >= len(c) {
		return false
	}
	inv := 1 / total
	for n, w := n0, inv; n >= lo; n-- {
		if n < len(c) {
			c[n] += w
		}
		w *= float64(n) / mu
	}
	for n, w := n0+1, inv*mu/float64(n0+1); n <= min(hi, len(c)-1); n++ {
		c[n] += w
		w *= mu / float64(n+1)
	}
	return true
}

// flatFrom returns the first n ≥ 1 from which c_n(x) = 1/x to rounding
// (see Weights): (x²/12)·(1 + (2π/x)²)^{−(n−1)/2} ≤ 2⁻⁵³.
func flatFrom(x float64) int {
	l := math.Log(x*x/12) + 53*math.Ln2
	if l <= 0 {
		return 1
	}
	w := 2 * math.Pi / x
	f := math.Ceil(2 * l / math.Log1p(w*w))
	if !(f < 1<<40) {
		return 1 << 40 // x beyond any segment length times rate
	}
	return 1 + int(f)
}

// maxEulerian bounds the n of eulerian (flatFrom(2) = 31).
const maxEulerian = 48

// eulerTable[n][m] = A(n, m)/n!, the Eulerian numbers normalised to a
// probability law over m (Σ_m A(n, m) = n!): A(n, m) = (n − m)A(n−1, m−1)
// + (m + 1)A(n−1, m).
var eulerTable = func() [][]float64 {
	t := make([][]float64, maxEulerian)
	t[0] = []float64{1}
	for n := 1; n < maxEulerian; n++ {
		t[n] = make([]float64, n)
		for m := range n {
			var v float64
			if m > 0 {
				v += float64(n-m) * t[n-1][m-1]
			}
			if m < len(t[n-1]) {
				v += float64(m+1) * t[n-1][m]
			}
			t[n][m] = v / float64(n)
		}
	}
	return t
}()

// eulerian returns c_n(x), n < nd ≤ maxEulerian, in closed form:
// Σ_{k≥1} kⁿzᵏ = z·A_n(z)/(1 − z)^{n+1} with z = e^{−x} and A_n the n-th
// Eulerian polynomial (n ≥ 1; z/(1 − z) for n = 0), so that
// c_n = uⁿ·z·(A_n(z)/n!)/(1 − z), u = x/(1 − z): positive terms only.
func eulerian(x float64, nd int) []float64 {
	c := make([]float64, nd)
	if nd == 0 {
		return c
	}
	z, om := math.Exp(-x), -math.Expm1(-x)
	u := x / om
	c[0] = 1 / math.Expm1(x)
	un := 1.0
	for n := 1; n < nd; n++ {
		un *= u
		var p, zm float64 = 0, 1
		for _, e := range eulerTable[n] {
			p += e * zm
			zm *= z
		}
		c[n] = un * z * p / om
	}
	return c
}
