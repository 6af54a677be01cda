package optimal

import (
	"math"

	"github.com/ckpt-markov/markov/internal/decision"
)

// An upper bound on the bracket of running, over every interval, for the
// up states that reconfigure (doc.go, "Reconfiguration at checkpoints").
//
// With m = N − a, ρ = aλ, G the spare chain's generator on 0..m and T =
// I + L(a), the bracket of starting the segment in U(a, s) is
//
//	B(T) = e^{−ρT}[ω(T − C) + (P_T f_U)(s)] − g·τ(T) + (Q_T f_X)(s),
//
// f_U(j) = h(U(a, j)), f_X(j) = h(X(a − 1 + j)), τ(T) = (1 − e^{−ρT})/ρ
// and Q_T = ∫₀ᵀ ρe^{−ρt}P_t dt (package birthdeath). Since
// d/dt P_t f = P_t G f and P_t is stochastic, for t ≤ T
//
//	(P_t f)(s) ≤ f(s) + t·d₁,  d₁ ≥ (P_u G f)(s) for u ≤ T,
//
// d₁ = max_J Gf + (max Gf − max_J Gf)·P(Poisson(ΛT) ≥ r) for every r
// (localDrift: J the counts within r − 1 of s, Λ a bound on the jump
// rate). So, with x = e^{−ρT} and D_U, D_X the d₁ of f_U and f_X,
//
//	B(T) ≤ c₀ + x·(c₁ + c₂T),
//	c₀ = f_X(s) − (g − D_X)/ρ,
//	c₁ = f_U(s) − f_X(s) + (g − D_X)/ρ − ωC,  c₂ = ω + D_U − D_X,
//
// on a piece of the range of T where T doubles (runPieces, d₁ taken at
// its end), whose supremum is at an end of the piece or at T* = 1/ρ −
// c₁/c₂ (a maximum when c₂ > 0). The second-order bound is the same
// integration with (P_t f)(s) ≤ f(s) + t·(Gf)(s) + t²/2·d₂, d₂ the
// localDrift of G²f, a polynomial of degree 2 in T (expPolyMax); runMax
// takes the lesser of the two per piece and the largest over the pieces.
// The bound needs no row of any interval: O(m) per configuration and
// pass (G f, G²f; the pieces' Poisson tails once per solver,
// runPieceTable) and O(m) per piece and state at most.
//
// The rows of the solver are those of the chain within the window of
// functional counts, renormalised over it: a row's average of f over the
// window is at most M = max f over the window, so with f_U and f_X
// extended by M outside it the renormalised bracket is at most the
// bracket of the whole chain, which the bound bounds (the drifts grow at
// the window's edges, where the bound then skips nothing). The rows'
// columns left out (decision.RowTol, with the binomials' cut and their
// rounding) move B by at most (RowTol + 1e-15)·span(f) + O(mε)·max|f|,
// which the slack below covers.

// runBound enables the bound in improveU (runSkips); tests turn it off
// to hold level 4 with the bound against level 4 without it.
var runBound = true

// runBoundSlack is the relative slack added to the bound for the
// rounding of the bracket and of the bound (O(mε) relative at most).
const runBoundSlack = 1e-12

// runBounds holds, per configuration of the solver, G f and G²f of f_U
// and f_X of one evaluation (first and second drifts) with their largest
// entries, and whether the bound applies (ok).
type runBounds struct {
	ok         []bool
	u, x       []drifts
	fu, fx     [][]float64 // f_U and f_X over the spare counts 0..m, extended
	pieces     [][]runPiece
	span, fmax []float64 // max − min and max |f| over f_U and f_X together
}

// drifts are G f and G²f of one function of the spare count, and their
// largest entries.
type drifts struct {
	g1, g2     []float64
	max1, max2 float64
}

// newRunBounds computes the drifts of the evaluation v for every
// configuration, with f_U and f_X extended outside the window by their
// largest value M over it (runMax's bound then holds for the rows
// renormalised over the window: such a row's average of f is at most M,
// what the extension gives the mass it leaves out).
func (sv *Solver) newRunBounds(v *values) *runBounds {
	nb := len(sv.acts)
	rb := &runBounds{ok: make([]bool, nb), u: make([]drifts, nb), x: make([]drifts, nb), fu: make([][]float64, nb), fx: make([][]float64, nb),
		pieces: make([][]runPiece, nb), span: make([]float64, nb), fmax: make([]float64, nb)}
	if !(sv.lambda > 0) {
		return rb
	}
	for b, a := range sv.acts {
		m := sv.n - a
		s0, _ := sv.spares(a)
		hu := v.upH(b)
		pb := sv.pa(b) * sv.w
		hx := func(s int) (float64, bool) {
			if n := a - 1 + s; n >= sv.lo && n <= sv.hi {
				return v.hX[pb+n-sv.lo], true
			}
			return 0, false
		}
		lo, hi := math.Inf(1), math.Inf(-1)
		for s := 0; s <= m; s++ {
			if s >= s0 && s < s0+len(hu) {
				lo, hi = min(lo, hu[s-s0]), max(hi, hu[s-s0])
			}
			if y, ok := hx(s); ok {
				lo, hi = min(lo, y), max(hi, y)
			}
		}
		if len(hu) == 0 || math.IsInf(hi, 0) {
			continue
		}
		fu, fx := make([]float64, m+1), make([]float64, m+1)
		for s := range fu {
			fu[s], fx[s] = hi, hi
			if s >= s0 && s < s0+len(hu) {
				fu[s] = hu[s-s0]
			}
			if y, ok := hx(s); ok {
				fx[s] = y
			}
		}
		rb.pieces[b] = sv.runPieceTable()[b]
		if len(rb.pieces[b]) == 0 {
			continue // no range of T to bound (MinInterval < MaxInterval makes one)
		}
		rb.ok[b], rb.fu[b], rb.fx[b] = true, fu, fx
		rb.u[b], rb.x[b] = sv.drifts(fu), sv.drifts(fx)
		rb.span[b], rb.fmax[b] = hi-lo, max(math.Abs(lo), math.Abs(hi))
	}
	return rb
}

// drifts returns G f and G(G f) for the spare chain on 0..m.
func (sv *Solver) drifts(f []float64) drifts {
	var d drifts
	d.g1, d.max1 = sv.drift(f)
	d.g2, d.max2 = sv.drift(d.g1)
	return d
}

// drift returns G f for the spare chain on 0..m, m = len(f) − 1 (j → j − 1
// at rate jλ, j → j + 1 at (m − j)θ), and its largest entry.
func (sv *Solver) drift(f []float64) ([]float64, float64) {
	m := len(f) - 1
	gf := make([]float64, len(f))
	d := math.Inf(-1)
	for j, y := range f {
		g := 0.0
		if j > 0 {
			g += float64(j) * sv.lambda * (f[j-1] - y)
		}
		if j < m {
			g += float64(m-j) * sv.theta * (f[j+1] - y)
		}
		gf[j], d = g, max(d, g)
	}
	return gf, d
}

// runPiece is a piece [ta, tb] of the range of T = I + L(a) of one
// configuration, with e^{−ρT} at its ends and the bounds tail[r − 1] on
// P(Poisson(Λ·tb) ≥ r) of localDrift, r = 1..m + 1.
type runPiece struct {
	ta, tb, xa, xb float64
	tail           []float64
}

// runPieces cuts [MinInterval, MaxInterval] + L(a) where T doubles, for
// configuration b (ρ = aλ, Λ = m·max(λ, θ) a bound on the spare chain's
// jump rate).
func (sv *Solver) runPieces(b int) []runPiece {
	a := sv.acts[b]
	m := sv.n - a
	rho := float64(a) * sv.lambda
	rate := float64(m) * max(sv.lambda, sv.theta)
	l := sv.sc.Application.Latency[a-1]
	var ps []runPiece
	for ta, t1 := sv.set.MinInterval+l, sv.set.MaxInterval+l; ta < t1; ta *= 2 {
		tb := min(2*ta, t1)
		ps = append(ps, runPiece{ta: ta, tb: tb, xa: math.Exp(-rho * ta), xb: math.Exp(-rho * tb), tail: poissonTails(rate*tb, m+1)})
	}
	return ps
}

// runPieceTable returns runPieces of every configuration, computed on
// the first call: they depend on the interval range, the rates and the
// latencies alone, not on the evaluation (newRunBounds reads them on
// every pass). The tables are shared: their callers only read them.
func (sv *Solver) runPieceTable() [][]runPiece {
	sv.piecesOnce.Do(func() {
		sv.pieces = make([][]runPiece, len(sv.acts))
		for b := range sv.acts {
			sv.pieces[b] = sv.runPieces(b)
		}
	})
	return sv.pieces
}

// poissonTails returns bounds t[r − 1] ≥ P(Poisson(μ) ≥ r), r = 1..n:
// the first term of the tail over 1 − μ/(r + 1) (the ratio of two
// successive terms beyond it is at most that) when r + 1 > μ, else 1,
// and at least tailFloor. The terms come from e^{−μ} by the ratios
// μ/r, except beyond μ = poissonLogFrom, where e^{−μ} is near the
// subnormals (zero beyond 745): there they start at r₀ = ⌊μ⌋ (below it
// μ/(r + 1) ≥ 1) from e^{−μ + (r₀−1)·ln μ − ln (r₀−1)!}, its exponent
// raised by a bound on its rounding, 8ε·(μ + r₀|ln μ| + ln r₀!)
// (TestPoissonTailBoundLarge). A tail below tailFloor moves no bound of
// localDrift and may round to a subnormal: it is taken as tailFloor.
func poissonTails(mu float64, n int) []float64 {
	tail := make([]float64, n)
	r0, term := 1, math.Exp(-mu) // term: P(Poisson(μ) = r0 − 1)
	if mu > poissonLogFrom {
		r0 = int(mu)
		lg, _ := math.Lgamma(float64(r0))
		x := -mu + float64(r0-1)*math.Log(mu) - lg
		term = math.Exp(x + 8*0x1p-53*(mu+float64(r0)*math.Abs(math.Log(mu))+lg))
	}
	for r := 1; r <= n; r++ {
		tail[r-1] = 1
		if r < r0 {
			continue
		}
		term *= mu / float64(r)
		if q := mu / float64(r+1); q < 1 {
			tail[r-1] = min(1, max(term/(1-q)*(1+1e-12), tailFloor))
		}
	}
	return tail
}

// poissonLogFrom is the μ beyond which poissonTails starts from the
// logarithm of a term near the mode (e^{−700} ≈ 1e-304 is still normal),
// and tailFloor the least tail bound it returns.
const (
	poissonLogFrom = 700
	tailFloor      = 1e-300
)

// localDrift returns d with (P_t φ)(s) ≤ d for every t ≤ T, φ = G f or
// G²f (gf, its largest entry dmax), from tail[r − 1] ≥ P(Poisson(ΛT) ≥
// r), Λ a bound on the chain's jump rate: for every r ≥ 1, with J the
// counts within r − 1 of s (the chain is outside J at t only after r
// jumps or more, at most Poisson(Λt) of them),
//
//	d = max_J φ + (dmax − max_J φ)·P(Poisson(ΛT) ≥ r),
//
// the least over r (max_J φ grows with r: the search stops where it
// reaches the least so far).
func localDrift(gf []float64, s int, tail []float64, dmax float64) float64 {
	best := dmax
	if tail[len(gf)-1] >= 1 {
		return best // no r leaves a tail below 1
	}
	dj := math.Inf(-1)
	for r := 1; r <= len(gf); r++ {
		if lo := s - r + 1; lo >= 0 {
			dj = max(dj, gf[lo])
		}
		if hi := s + r - 1; hi < len(gf) && r > 1 {
			dj = max(dj, gf[hi])
		}
		if dj >= best {
			break
		}
		if tail[r-1] < 1 {
			best = min(best, dj+(dmax-dj)*tail[r-1])
		}
	}
	return best
}

// runMax returns an upper bound on the bracket of starting the segment
// in the up state k of configuration b over every interval of the
// search, and false when the bound does not apply. On each piece
// [T_a, T_b] (runPieces) the drifts are localDrift's at T_b, and the
// bound is the least of the first-order one, (P_t f)(s) ≤ f(s) + t·d₁,
// and the second-order one, (P_t f)(s) ≤ f(s) + t·(G f)(s) + t²/2·d₂,
// each of the form c₀ + e^{−ρT}·p(T), p a polynomial of degree 1 or 2,
// whose supremum on the piece is at an end or at a root of p' − ρp
// (expPolyMax). It stops at the first piece where the bound reaches
// stop, and returns that piece's bound (still an upper bound on the
// brackets of that piece, not of every interval: the caller only
// compares it with stop).
func (sv *Solver) runMax(rb *runBounds, v *values, b, k int, stop float64) (float64, bool) {
	if !rb.ok[b] {
		return 0, false
	}
	a := sv.acts[b]
	app := sv.sc.Application
	rho := float64(a) * sv.lambda
	om, c := app.WorkRate[a-1], app.Overhead[a-1]
	s0, _ := sv.spares(a)
	k += s0 // the spare count
	fu, fx := rb.fu[b][k], rb.fx[b][k]
	u, x := &rb.u[b], &rb.x[b]
	best, size := math.Inf(-1), 0.0
	for i := range rb.pieces[b] {
		pc := &rb.pieces[b][i]
		// First order: (P_t f)(s) ≤ f(s) + t·d.
		du := localDrift(u.g1, k, pc.tail, u.max1)
		dx := localDrift(x.g1, k, pc.tail, x.max1)
		q := (v.g - dx) / rho
		p1 := expPolyMax(rho, pc, fx-q, [3]float64{fu - fx + q - om*c, om + du - dx})
		size = max(size, math.Abs(fu)+math.Abs(fx)+2*math.Abs(q)+om*c+math.Abs(om+du-dx)/rho)
		if p1 <= best {
			continue // min(p1, p2) cannot raise the maximum over the pieces
		}
		// Second order: (P_t f)(s) ≤ f(s) + t·(G f)(s) + t²/2·e.
		eu := localDrift(u.g2, k, pc.tail, u.max2)
		ex := localDrift(x.g2, k, pc.tail, x.max2)
		q = (v.g - x.g1[k]) / rho
		r := ex / (rho * rho)
		c2 := om + u.g1[k] - x.g1[k] - ex/rho
		p2 := expPolyMax(rho, pc, fx-q+r, [3]float64{fu - fx + q - r - om*c, c2, (eu - ex) / 2})
		size = max(size, math.Abs(fu)+math.Abs(fx)+2*math.Abs(q)+2*math.Abs(r)+om*c+math.Abs(c2)/rho+math.Abs(eu-ex)/(rho*rho))
		best = max(best, min(p1, p2))
		if best+runBoundSlack*(size+rb.fmax[b]) >= stop {
			break
		}
	}
	return best + runBoundSlack*(size+rb.fmax[b]) + 2*(decision.RowTol+1e-15)*rb.span[b], true
}

// expPolyMax returns the supremum over T in the piece [ta, tb] of
// c₀ + e^{−ρT}(p₀ + p₁T + p₂T²): at an end, or where the derivative
// e^{−ρT}(p₁ + 2p₂T − ρ(p₀ + p₁T + p₂T²)) vanishes, a root of
// −ρp₂T² + (2p₂ − ρp₁)T + (p₁ − ρp₀).
func expPolyMax(rho float64, pc *runPiece, c0 float64, p [3]float64) float64 {
	poly := func(t float64) float64 { return p[0] + t*(p[1]+t*p[2]) }
	best := c0 + max(pc.xa*poly(pc.ta), pc.xb*poly(pc.tb))
	try := func(t float64) {
		if t > pc.ta && t < pc.tb {
			best = max(best, c0+math.Exp(-rho*t)*poly(t))
		}
	}
	qa, qb, qc := -rho*p[2], 2*p[2]-rho*p[1], p[1]-rho*p[0]
	switch {
	case qa == 0 && qb != 0:
		try(-qc / qb)
	case qa != 0:
		if disc := qb*qb - 4*qa*qc; disc >= 0 {
			sq := math.Sqrt(disc)
			if qb < 0 {
				sq = -sq
			}
			// The roots without cancellation: −(qb + sq)/(2qa) and 2qc/−(qb + sq).
			if z := -(qb + sq) / 2; z != 0 {
				try(z / qa)
				try(qc / z)
			}
		}
	}
	return best
}

// runSkips returns, per configuration and spare count, whether the up
// state reconfigures and runMax bounds its bracket of running, over
// every interval, strictly below the bracket of its reconfiguration
// (nil without reconfiguration at checkpoints, or when runBound is
// off). improveR takes running only where it beats that bracket, so
// such a state's interval search cannot change an action.
func (sv *Solver) runSkips(v *values, pol *Policy, xv *xValues) [][]bool {
	if pol.reconf == nil || !runBound {
		return nil
	}
	rb := sv.newRunBounds(v)
	skip := make([][]bool, len(sv.acts))
	for b, a := range sv.acts {
		skip[b] = make([]bool, len(pol.reconf[b]))
		s0, _ := sv.spares(a)
		for k, c := range pol.reconf[b] {
			if c == 0 {
				continue
			}
			vc := xv.at(sv.pa(b), a+s0+k, c)
			if bd, ok := sv.runMax(rb, v, b, k, vc); ok && bd < vc {
				skip[b][k] = true
			}
		}
	}
	return skip
}

// staleMayRun reports whether an up state whose interval search improveU
// skipped (skipped, from the values of the last pass) is no longer shown
// by runMax, at the values v, to lose by running. Its interval is then
// where an earlier search left it, not its best run at v, so that
// wouldChangeX, which weighs running at that interval, cannot tell that
// running would win: policy iteration must not stop there, and the next
// pass searches the state's interval (TestRunBoundSameLevel4, "stale").
// xv holds the values of v's actions (newXValues).
func (sv *Solver) staleMayRun(v *values, pol *Policy, skipped [][]bool, xv *xValues) bool {
	if skipped == nil {
		return false
	}
	now := sv.runSkips(v, pol, xv)
	for b, sk := range skipped {
		for k, s := range sk {
			if s && pol.reconf[b][k] != 0 && (now == nil || !now[b][k]) {
				return true
			}
		}
	}
	return false
}
