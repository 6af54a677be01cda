package batchchain

import (
	"context"
	"fmt"
	"math"
	"sync"

	"gonum.org/v1/gonum/floats"
)

// Row is row S of P_t, Q_t and τ (see Chain.Transition), restricted to
// windows outside which at most the requested tolerance of the mass lies.
type Row struct {
	// S is the spare count at the start of the segment.
	S int
	// Lo is the first spare count of the window of P: P[i] = P_t[S, Lo+i].
	Lo int
	P  []float64
	// QLo is the first functional count of the window of Q:
	// Q[i] = Q_t[S, QLo+i], the probability that the first interruption
	// comes before t and leaves QLo+i functional processors.
	QLo int
	Q   []float64
	// Survival is the probability that the segment is not interrupted,
	// Σ_{s'} P_t[S, s'] (including entries trimmed from P).
	Survival float64
	// Sojourn is τ[S]: the expected time to the end of the segment or its
	// interruption, whichever comes first.
	Sojourn float64
	// Dropped bounds the mass missing from P and Q together: the
	// probability of leaving the window of spare counts used in the
	// computation, plus the Poisson truncation of uniformization, plus the
	// entries trimmed from the ends of P and Q.
	Dropped float64
}

// Rows returns rows s0 ≤ s < s1 of P_t, Q_t and τ by uniformization on a
// window of spare counts around each row, widened until the mass that
// leaves it is at most tol/2; then the ends of P and of Q are trimmed by
// at most tol/4 each. tol = 0 uses every spare count 0..m and trims
// nothing. See the package documentation for the method and its cost.
//
// Rows returns an error naming the argument if 0 ≤ s0 ≤ s1 ≤ m+1 does not
// hold, if t is negative, NaN or infinite, or if tol is not in [0, 1).
func (c *Chain) Rows(s0, s1 int, t, tol float64) ([]Row, error) {
	return c.RowsContext(context.Background(), s0, s1, t, tol)
}

// MaxRowProducts bounds ΛT, the expected number of products with K of a
// row of Rows (its Poisson weights take about 24√(ΛT) numbers): a segment
// with more events and repairs than that is refused.
const MaxRowProducts = 1 << 32

// RowsContext is Rows that stops with ctx's error when ctx is done
// (checked every cancelEvery products). The uniformization stops as soon
// as the rows' vectors are zero (underflow: every interruption rate a
// large part of Λ), the rest of each sum then being exactly zero. It
// returns an error if ΛT exceeds MaxRowProducts.
func (c *Chain) RowsContext(ctx context.Context, s0, s1 int, t, tol float64) ([]Row, error) {
	if s0 < 0 || s0 > c.m+1 {
		return nil, fmt.Errorf("batchchain: s0 = %d is outside [0, m+1 = %d]", s0, c.m+1)
	}
	if s1 < s0 || s1 > c.m+1 {
		return nil, fmt.Errorf("batchchain: s1 = %d is outside [s0 = %d, m+1 = %d]", s1, s0, c.m+1)
	}
	if err := checkTime("t", t); err != nil {
		return nil, err
	}
	if math.IsNaN(tol) || tol < 0 || tol >= 1 {
		return nil, fmt.Errorf("batchchain: tol = %v is not in [0, 1)", tol)
	}
	ws := workspaces.Get().(*workspace)
	defer workspaces.Put(ws)
	out := make([]Row, 0, s1-s0)
	for b := s0; b < s1; b += blockRows {
		rows, err := c.block(ctx, ws, b, min(b+blockRows, s1), t, tol)
		if err != nil {
			return nil, err
		}
		out = append(out, rows...)
	}
	return out, nil
}

// blockRows is the number of rows uniformized together on one window: the
// products with K then act on contiguous vectors of that length.
const blockRows = 64

// poissonCut is the mass of each Poisson tail left out by uniformization,
// relative to the kept mass: far below the unit roundoff.
const poissonCut = 0x1p-60

// workspaces keeps the scratch of finished Rows calls for the next ones
// (a model fills hundreds of short segments, whose rates and vectors
// would otherwise be allocated afresh each time); what a Row returns is
// never in it.
var workspaces = sync.Pool{New: func() any { return new(workspace) }}

// workspace holds the scratch of one Rows call.
type workspace struct {
	down, hit [][]float64
	downS     [][]float64 // down divided by Λ
	// One row (applyK): dnCol[k][i] = downS[i][k] where i − k − 1 ≥ 0,
	// else 0, the spare events of size k+1 by spare count; dnUsed the k
	// whose column is not all zero, increasing.
	dnCol         [][]float64
	dnUsed        []int
	up, out, loss []float64
	stay, upS     []float64
	y, next, p, z []float64
	prow, qrow    []float64 // one row of P and of Q
	r             rates
	// The Poisson weights and their tails, and the dropped mass of one
	// block (transient, uniformize).
	pw                poissonScratch
	tail, step, dropp []float64
}

// block computes rows [s0, s1) on a common window of spare counts,
// widening it until every row's lost mass is at most tol/2.
func (c *Chain) block(ctx context.Context, ws *workspace, s0, s1 int, t, tol float64) ([]Row, error) {
	lo, hi := 0, c.m
	if tol > 0 {
		dl, du := c.margins(s0, t)
		dl1, du1 := c.margins(s1-1, t)
		lo, hi = max(min(s0-dl, s1-1-dl1), 0), min(max(s0+du, s1-1+du1), c.m)
	}
	for {
		rows, loss, err := c.blockOn(ctx, ws, s0, s1, t, lo, hi, tol/4, tol/4)
		if err != nil || tol == 0 || loss.worst <= tol/2 || (lo == 0 && hi == c.m) {
			return rows, err
		}
		// Widen the side(s) that lose more than their share.
		w := max(hi-lo, 8)
		if loss.down > tol/4 || loss.up <= tol/4 {
			lo = max(lo-w, 0)
		}
		if loss.up > tol/4 || loss.down <= tol/4 {
			hi = min(hi+w, c.m)
		}
	}
}

// margins returns a first guess of how far below and above s the spare
// count goes in time t: eight standard deviations of the single-failure
// binomial law around its mean, inflated by E[K²]/E[K] for the batches, plus
// the largest batch. Rows widens the window if this is not enough.
func (c *Chain) margins(s int, t float64) (down, up int) {
	nu := c.lambda + c.theta
	if nu == 0 {
		return 1, 1
	}
	em := -math.Expm1(-nu * t)
	p11 := (c.theta + c.lambda*math.Exp(-nu*t)) / nu
	q11 := c.lambda * em / nu
	p01 := c.theta * em / nu
	mu := float64(s)*p11 + float64(c.m-s)*p01
	v := float64(s)*p11*q11 + float64(c.m-s)*p01*(1-p01)
	var k2 float64
	for k, p := range c.sizes {
		k2 += float64((k+1)*(k+1)) * p
	}
	sd := math.Sqrt(v * k2 / mean(c.sizes))
	kmax := len(c.sizes)
	down = int(math.Ceil(math.Max(float64(s)-mu, 0)+8*sd)) + 2*kmax + 4
	up = int(math.Ceil(math.Max(mu-float64(s), 0)+8*sd)) + 4
	return down, up
}

// blockOn computes rows [s0, s1) by uniformization of the sub-generator
// restricted to spare counts [lo, hi]: with Λ the largest exit rate and
// K = I + A/Λ,
//
//	P_t = Σ_k w_k e_s K^k,  z = ∫₀ᵗ e_s e^{Au} du = Λ⁻¹ Σ_k P(N > k) e_s K^k,
//
// N ~ Poisson(Λt), w_k = P(N = k); then Q = z·B, τ = z·1 and the mass that
// left the window is z·ℓ, ℓ_j the rate of the jumps from j out of it. All
// terms are non-negative. The rows are stored interleaved (entry (j, r) at
// (j−lo)·R + r) so that each product with K is a sequence of axpys of
// length R. After each product the spare counts at either end of the
// band where the rows carry mass are dropped while, for every row, the
// mass dropped in that step stays within budget/(number of steps): the
// dropped mass bounds what P and Q lose, and is added to Row.Dropped
// (budget = 0 drops nothing). The ends of P and of Q are then trimmed,
// each of the two losing at most trim (trim = 0: no trimming). It returns
// the rows and their losses.
func (c *Chain) blockOn(ctx context.Context, ws *workspace, s0, s1 int, t float64, lo, hi int, budget, trim float64) ([]Row, blockLoss, error) {
	tr, err := c.transient(ctx, ws, s0, s1, t, lo, hi, budget)
	if err != nil {
		return nil, blockLoss{}, err
	}
	rows, loss := c.blockRows(ws, tr, trim)
	return rows, loss, nil
}

// transient is the first stage of blockOn: P_t and z of each row, stored
// interleaved over the window [lo, hi] (entry (j, r) at (j−lo)·R + r), and
// the mass the budget dropped from each row.
type transient struct {
	s0, lo, hi int
	p, z       []float64
	dropped    []float64
}

// blockLoss is what a block's rows miss: the largest mass missing from a
// row before trimming (worst), and the largest lost below and above the
// window (down, up).
type blockLoss struct{ worst, down, up float64 }

// transient computes P_t and z of rows [s0, s1) on the window [lo, hi]
// by uniformization (see blockOn).
func (c *Chain) transient(ctx context.Context, ws *workspace, s0, s1 int, t float64, lo, hi int, budget float64) (transient, error) {
	w := hi - lo + 1
	nr := s1 - s0
	ws.prepare(c, lo, hi)
	lam := 0.0
	for _, o := range ws.out[:w] {
		lam = math.Max(lam, o)
	}
	size := w * nr
	if cap(ws.y) < size {
		ws.y, ws.next, ws.p, ws.z = make([]float64, size), make([]float64, size), make([]float64, size), make([]float64, size)
	}
	y, p, z := ws.y[:size], ws.p[:size], ws.z[:size]
	clear(y)
	clear(p)
	clear(z)
	for r := range nr {
		y[(s0+r-lo)*nr+r] = 1
	}
	tr := transient{s0: s0, lo: lo, hi: hi, p: p, z: z, dropped: grow(&ws.dropp, nr)}
	clear(tr.dropped)
	if lam == 0 || t == 0 {
		copy(p, y)
		floats.AddScaled(z, t, y)
		return tr, nil
	}
	if mu := lam * t; !(mu <= MaxRowProducts) {
		return tr, fmt.Errorf("batchchain: a segment of %.6g s on a = %d of n = %d has ΛT = %.3g events and repairs, more than MaxRowProducts = %d", t, c.a, c.n, mu, int64(MaxRowProducts))
	}
	inv := 1 / lam
	for i := range w {
		ws.stay[i] = 1 - ws.out[i]*inv
		ws.upS[i] = ws.up[i] * inv
		for k := range ws.downS[i] {
			ws.downS[i][k] *= inv
		}
	}
	if nr == 1 {
		ws.downColumns(w)
	}
	if err := c.uniformize(ctx, ws, &tr, lam*t, budget); err != nil {
		return tr, err
	}
	floats.Scale(inv, z)
	return tr, nil
}

// uniformize accumulates Σ_k w_k y K^k into tr.p and Σ_k P(N > k) y K^k
// into tr.z, N ~ Poisson(mu), from y = ws.y (the rows' starting
// vectors), dropping ends of the band within budget (see blockOn).
func (c *Chain) uniformize(ctx context.Context, ws *workspace, tr *transient, mu, budget float64) error {
	w, nr := tr.hi-tr.lo+1, len(tr.dropped)
	size := w * nr
	y, next, p, z := ws.y[:size], ws.next[:size], tr.p, tr.z
	wts, left, right := poisson(mu, poissonCut, &ws.pw)
	tail := grow(&ws.tail, len(wts))
	acc := 0.0
	for i := len(wts) - 1; i >= 0; i-- {
		tail[i] = acc
		acc += wts[i]
	}
	// y is zero outside the spare counts [nzLo, nzHi] (window-relative).
	nzLo, nzHi := tr.s0-tr.lo, tr.s0+nr-1-tr.lo
	kmax := len(c.sizes)
	perStep := budget / float64(right+1)
	step := grow(&ws.step, nr)
	// droppable reports whether segment i of y can be dropped within
	// this step's budget, and if so drops it.
	droppable := func(i int) bool {
		if nr == 1 {
			// One row: floats.Add on one entry, without the call.
			if v := y[i]; step[0]+v <= perStep {
				step[0] += v
				y[i] = 0
				return true
			}
			return false
		}
		seg := y[i*nr : (i+1)*nr]
		for r, v := range seg {
			if step[r]+v > perStep {
				return false
			}
		}
		floats.Add(step, seg)
		clear(seg)
		return true
	}
	for k := 0; ; k++ {
		seg := y[nzLo*nr : (nzHi+1)*nr]
		sk := 1.0
		if k >= left {
			sk = tail[k-left]
			floats.AddScaled(p[nzLo*nr:(nzHi+1)*nr], wts[k-left], seg)
		}
		floats.AddScaled(z[nzLo*nr:(nzHi+1)*nr], sk, seg)
		if k == right {
			return nil
		}
		if k%cancelEvery == cancelEvery-1 {
			if err := ctx.Err(); err != nil {
				return err
			}
			if allZero(seg) {
				// Every further term adds zero.
				return nil
			}
		}
		newLo, newHi := max(nzLo-kmax, 0), min(nzHi+1, w-1)
		ws.applyK(next, y, nzLo, nzHi, newLo, newHi, w, nr)
		y, next = next, y
		nzLo, nzHi = newLo, newHi
		if perStep > 0 {
			clear(step)
			for nzLo < nzHi && droppable(nzLo) {
				nzLo++
			}
			for nzHi > nzLo && droppable(nzHi) {
				nzHi--
			}
			floats.Add(tr.dropped, step)
		}
	}
}

func allZero(v []float64) bool {
	for _, x := range v {
		if x != 0 {
			return false
		}
	}
	return true
}

// applyK sets next = y·K on the band [newLo, newHi] that y's band
// [nzLo, nzHi] reaches in one step (a window of w spare counts, R = nr
// interleaved rows).
func (ws *workspace) applyK(next, y []float64, nzLo, nzHi, newLo, newHi, w, nr int) {
	clear(next[newLo*nr : (newHi+1)*nr])
	if nr == 1 {
		ws.applyKOne(next, y, nzLo, nzHi, w)
		return
	}
	for i := nzLo; i <= nzHi; i++ {
		yi := y[i*nr : (i+1)*nr]
		floats.AddScaled(next[i*nr:(i+1)*nr], ws.stay[i], yi)
		if i+1 < w && ws.upS[i] > 0 {
			floats.AddScaled(next[(i+1)*nr:(i+2)*nr], ws.upS[i], yi)
		}
		for k, d := range ws.downS[i] {
			if d > 0 && i-k-1 >= 0 {
				floats.AddScaled(next[(i-k-1)*nr:(i-k)*nr], d, yi)
			}
		}
	}
}

// applyKOne is applyK for one row (a recovery segment of one state, as
// for greedy), a pass over the band (mulAdd) per move: up, stay, then the
// spare events by increasing size (dnCol). Each entry next_j receives, in
// that order, y_{j−1}·up_{j−1}, y_j·stay_j, y_{j+1}·down_{j+1}[0], …: the
// order of a loop over the spare counts i that adds y_i's moves to their
// targets, so the bits are those of that loop (TestApplyKOneBits). The
// terms with a zero rate add +0 to a sum ≥ 0, which leaves its bits.
func (ws *workspace) applyKOne(next, y []float64, nzLo, nzHi, w int) {
	if top := min(nzHi, w-2); top >= nzLo {
		mulAdd(next[nzLo+1:top+2], y[nzLo:top+1], ws.upS[nzLo:top+1])
	}
	mulAdd(next[nzLo:nzHi+1], y[nzLo:nzHi+1], ws.stay[nzLo:nzHi+1])
	for _, k := range ws.dnUsed {
		i0 := max(nzLo, k+1)
		if i0 <= nzHi {
			mulAdd(next[i0-k-1:nzHi-k], y[i0:nzHi+1], ws.dnCol[k][i0:nzHi+1])
		}
	}
}

// downColumns fills dnCol and dnUsed from downS on a window of w spare
// counts.
func (ws *workspace) downColumns(w int) {
	kmax := 0
	for _, d := range ws.downS[:w] {
		kmax = max(kmax, len(d))
	}
	for len(ws.dnCol) < kmax {
		ws.dnCol = append(ws.dnCol, nil)
	}
	ws.dnUsed = ws.dnUsed[:0]
	for k := range kmax {
		col := grow(&ws.dnCol[k], w)
		used := false
		for i, d := range ws.downS[:w] {
			col[i] = 0
			if k < i && k < len(d) {
				col[i] = d[k]
				used = used || d[k] > 0
			}
		}
		if used {
			ws.dnUsed = append(ws.dnUsed, k)
		}
	}
}

// blockRows is the second stage of blockOn: per row, Q = z·B over
// n' = a + j − k, τ = z·1, lost = z·ℓ; then the ends of P and Q are
// trimmed (by at most trim/2 each) and the kept entries copied into one
// slab for the block.
func (c *Chain) blockRows(ws *workspace, tr transient, trim float64) ([]Row, blockLoss) {
	lo, hi := tr.lo, tr.hi
	w, nr := hi-lo+1, len(tr.dropped)
	qlo := max(c.a+lo-len(c.sizes), 0)
	qhi := c.a + hi - 1
	rows := make([]Row, nr)
	var loss blockLoss
	pr := grow(&ws.prow, w)
	q := grow(&ws.qrow, qhi-qlo+1)
	var slab []float64
	for r := range nr {
		clear(q)
		var tau, lostDown, lostUp, surv float64
		for i := range w {
			zi := tr.z[i*nr+r]
			pr[i] = tr.p[i*nr+r]
			surv += pr[i]
			if zi == 0 {
				continue
			}
			j := lo + i
			tau += zi
			for k, h := range ws.hit[i] {
				if h > 0 {
					q[j+c.a-k-1-qlo] += zi * h
				}
			}
			lostDown += zi * ws.loss[i]
			if i == w-1 {
				lostUp += zi * ws.up[i]
			}
		}
		miss := lostDown + lostUp + tr.dropped[r] + 2*poissonCut
		loss.worst = math.Max(loss.worst, miss)
		loss.down, loss.up = math.Max(loss.down, lostDown), math.Max(loss.up, lostUp)
		plo, phi, qlo2, qhi2 := 0, len(pr), 0, len(q)
		if trim > 0 {
			var cp, cq float64
			plo, phi, cp = trimEnds(pr, trim)
			qlo2, qhi2, cq = trimEnds(q, trim)
			miss += cp + cq
		}
		if cap(slab)-len(slab) < phi-plo+qhi2-qlo2 {
			slab = make([]float64, 0, max(2*(phi-plo+qhi2-qlo2), (nr-r)*(phi-plo+qhi2-qlo2)))
		}
		n0 := len(slab)
		slab = append(slab, pr[plo:phi]...)
		n1 := len(slab)
		slab = append(slab, q[qlo2:qhi2]...)
		rows[r] = Row{S: tr.s0 + r, Lo: lo + plo, P: slab[n0:n1:n1], QLo: qlo + qlo2, Q: slab[n1:len(slab):len(slab)],
			Survival: surv, Sojourn: tau, Dropped: miss}
	}
	return rows, loss
}

// grow returns (*v)[:n], reallocating *v if it is too short.
func grow(v *[]float64, n int) []float64 {
	if cap(*v) < n {
		*v = make([]float64, n)
	}
	return (*v)[:n]
}

// prepare fills the rates of the spare counts [lo, hi]; ws.up of the last
// is the rate of leaving the window upwards, ws.loss[i] that of leaving it
// downwards (spare-only batches below lo).
func (ws *workspace) prepare(c *Chain, lo, hi int) {
	w := hi - lo + 1
	grow := func(v []float64) []float64 {
		if cap(v) < w {
			return make([]float64, w)
		}
		return v[:w]
	}
	ws.up, ws.out, ws.loss = grow(ws.up), grow(ws.out), grow(ws.loss)
	ws.stay, ws.upS = grow(ws.stay), grow(ws.upS)
	for len(ws.down) < w {
		ws.down = append(ws.down, nil)
		ws.hit = append(ws.hit, nil)
		ws.downS = append(ws.downS, nil)
	}
	ph := c.phase.Load()
	for i := range w {
		j := lo + i
		ws.r.down, ws.r.hit = ws.down[i], ws.hit[i]
		if ph != nil {
			ph.ratesAt(j, &ws.r)
		} else {
			c.ratesAt(j, &ws.r)
		}
		ws.down[i], ws.hit[i] = ws.r.down, ws.r.hit
		ws.up[i], ws.out[i] = ws.r.up, ws.r.out
		ws.downS[i] = append(ws.downS[i][:0], ws.r.down...)
		ws.loss[i] = 0
		for k, d := range ws.r.down {
			if j-k-1 < lo {
				ws.loss[i] += d
			}
		}
	}
	if hi == c.m {
		ws.up[w-1] = 0 // (m−m)θ: nothing leaves upwards
	}
}

func trimEnds(v []float64, budget float64) (lo, hi int, cut float64) {
	lo, hi = 0, len(v)
	for lo < hi && cut+v[lo] <= budget/2 {
		cut += v[lo]
		lo++
	}
	for hi > lo && cut+v[hi-1] <= budget {
		cut += v[hi-1]
		hi--
	}
	return lo, hi, cut
}

// poissonScratch holds poisson's weights for reuse: w is overwritten by
// the next call.
type poissonScratch struct{ up, down, w []float64 }

// poisson returns the Poisson(mu) probabilities w[k−left], k ∈ [left,
// right], normalised over that range, where each left-out tail is at most
// cut times the kept mass. Built outward from the mode by the ratio
// recurrence (all terms positive, the mode the largest: no overflow), with
// the geometric bound w_k·r/(1−r) on each tail. w is in sc's storage.
func poisson(mu, cut float64, sc *poissonScratch) (w []float64, left, right int) {
	mode := int(math.Floor(mu))
	upw, downw := sc.up[:0], sc.down[:0]
	sum := 1.0
	x := 1.0
	for k := mode; ; k++ {
		r := mu / float64(k+1)
		if r < 1 && x*r/(1-r) <= cut*sum {
			break
		}
		x *= r
		if x == 0 {
			break
		}
		upw = append(upw, x)
		sum += x
	}
	x = 1
	for k := mode; k > 0; k-- {
		r := float64(k) / mu
		if r < 1 && x*r/(1-r) <= cut*sum {
			break
		}
		x *= r
		if x == 0 {
			break
		}
		downw = append(downw, x)
		sum += x
	}
	left = mode - len(downw)
	right = mode + len(upw)
	w = sc.w[:0]
	for i := len(downw) - 1; i >= 0; i-- {
		w = append(w, downw[i]/sum)
	}
	w = append(w, 1/sum)
	for _, v := range upw {
		w = append(w, v/sum)
	}
	sc.up, sc.down, sc.w = upw, downw, w
	return w, left, right
}
