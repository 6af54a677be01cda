package batchchain

import (
	"fmt"
	"math"
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
	ws := &workspace{}
	out := make([]Row, 0, s1-s0)
	for s := s0; s < s1; s++ {
		out = append(out, c.row(ws, s, t, tol))
	}
	return out, nil
}

// poissonCut is the mass of each Poisson tail left out by uniformization,
// relative to the kept mass: far below the unit roundoff.
const poissonCut = 0x1p-60

// workspace holds the scratch of one Rows call.
type workspace struct {
	down, hit     [][]float64
	up, out, loss []float64
	y, next, p, z []float64
	r             rates
}

// row computes one row, widening the window until the lost mass is small.
func (c *Chain) row(ws *workspace, s int, t, tol float64) Row {
	lo, hi := 0, c.m
	if tol > 0 {
		dl, du := c.margins(s, t)
		lo, hi = max(s-dl, 0), min(s+du, c.m)
	}
	for {
		r, lostDown, lostUp := c.rowOn(ws, s, t, lo, hi)
		if tol == 0 || r.Dropped <= tol/2 || (lo == 0 && hi == c.m) {
			if tol > 0 {
				r.trim(tol / 4)
			}
			return r
		}
		// Widen the side(s) that lose more than their share.
		w := max(hi-lo, 8)
		if lostDown > tol/4 || lostUp <= tol/4 {
			lo = max(lo-w, 0)
		}
		if lostUp > tol/4 || lostDown <= tol/4 {
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

// rowOn computes row s by uniformization of the sub-generator restricted
// to spare counts [lo, hi]: with Λ the largest exit rate and K = I + A/Λ,
//
//	P_t = Σ_k w_k e_s K^k,  z = ∫₀ᵗ e_s e^{Au} du = Λ⁻¹ Σ_k P(N > k) e_s K^k,
//
// N ~ Poisson(Λt), w_k = P(N = k); then Q = z·B, τ = z·1 and the mass that
// left the window is z·ℓ, ℓ_j the rate of the jumps from j out of it. All
// terms are non-negative. It returns the row and the lost mass below and
// above the window.
func (c *Chain) rowOn(ws *workspace, s int, t float64, lo, hi int) (Row, float64, float64) {
	w := hi - lo + 1
	ws.prepare(c, lo, hi)
	lam := 0.0
	for _, o := range ws.out[:w] {
		lam = math.Max(lam, o)
	}
	y, next, p, z := ws.y[:w], ws.next[:w], ws.p[:w], ws.z[:w]
	clear(y)
	clear(p)
	clear(z)
	y[s-lo] = 1
	if lam == 0 || t == 0 {
		p[s-lo] = 1
		z[s-lo] = t
	} else {
		wts, left, right := poisson(lam*t, poissonCut)
		// tail[k−left] = P(N > k) for k ≥ left; 1 for k < left.
		tail := make([]float64, len(wts))
		acc := 0.0
		for i := len(wts) - 1; i >= 0; i-- {
			tail[i] = acc
			acc += wts[i]
		}
		inv := 1 / lam
		for k := 0; ; k++ {
			sk := 1.0
			if k >= left {
				wk := wts[k-left]
				sk = tail[k-left]
				for i, v := range y {
					p[i] += wk * v
				}
			}
			for i, v := range y {
				z[i] += sk * v
			}
			if k == right {
				break
			}
			// next = y·K.
			clear(next)
			mass := 0.0
			for i, v := range y {
				if v == 0 {
					continue
				}
				mass += v
				next[i] += v * (1 - ws.out[i]*inv)
				if i+1 < w {
					next[i+1] += v * ws.up[i] * inv
				}
				for k, d := range ws.down[i] {
					if d > 0 && i-k-1 >= 0 {
						next[i-k-1] += v * d * inv
					}
				}
			}
			y, next = next, y
			if mass < 1e-300 {
				break
			}
		}
		for i := range z {
			z[i] *= inv
		}
	}
	// Q = z·B over n' = a + j − k, τ = z·1, lost = z·ℓ.
	qlo := max(c.a+lo-len(c.sizes), 0)
	qhi := c.a + hi - 1
	q := make([]float64, qhi-qlo+1)
	var tau, lostDown, lostUp, surv float64
	for i, zi := range z {
		j := lo + i
		tau += zi
		surv += p[i]
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
	r := Row{S: s, Lo: lo, P: append([]float64(nil), p...), QLo: qlo, Q: q,
		Survival: surv, Sojourn: tau, Dropped: lostDown + lostUp + 2*poissonCut}
	return r, lostDown, lostUp
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
	ws.y, ws.next, ws.p, ws.z = grow(ws.y), grow(ws.next), grow(ws.p), grow(ws.z)
	for len(ws.down) < w {
		ws.down = append(ws.down, nil)
		ws.hit = append(ws.hit, nil)
	}
	for i := range w {
		j := lo + i
		ws.r.down, ws.r.hit = ws.down[i], ws.hit[i]
		c.ratesAt(j, &ws.r)
		ws.down[i], ws.hit[i] = ws.r.down, ws.r.hit
		ws.up[i], ws.out[i] = ws.r.up, ws.r.out
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

// trim removes from each end of P and of Q the entries whose cumulative
// mass stays within budget (half per end) and adds it to Dropped.
func (r *Row) trim(budget float64) {
	var lo, hi int
	var d float64
	lo, hi, d = trimEnds(r.P, budget)
	r.P, r.Lo = r.P[lo:hi], r.Lo+lo
	r.Dropped += d
	lo, hi, d = trimEnds(r.Q, budget)
	r.Q, r.QLo = r.Q[lo:hi], r.QLo+lo
	r.Dropped += d
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

// poisson returns the Poisson(mu) probabilities w[k−left], k ∈ [left,
// right], normalised over that range, where each left-out tail is at most
// cut times the kept mass. Built outward from the mode by the ratio
// recurrence (all terms positive, the mode the largest: no overflow), with
// the geometric bound w_k·r/(1−r) on each tail.
func poisson(mu, cut float64) (w []float64, left, right int) {
	mode := int(math.Floor(mu))
	var upw, downw []float64
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
	w = make([]float64, 0, right-left+1)
	for i := len(downw) - 1; i >= 0; i-- {
		w = append(w, downw[i]/sum)
	}
	w = append(w, 1/sum)
	for _, v := range upw {
		w = append(w, v/sum)
	}
	return w, left, right
}
