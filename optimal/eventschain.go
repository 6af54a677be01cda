package optimal

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/ckpt-markov/markov/batchchain"
	"github.com/ckpt-markov/markov/internal/decision"
	"github.com/ckpt-markov/markov/internal/pool"
	"github.com/ckpt-markov/markov/reschedule"
	"github.com/ckpt-markov/markov/scenario"
)

// MaxEventsChainProcessors bounds N for the solver with failure events
// on the chain of up phases (eventsChain): its rows are O(N·K_max) each,
// but its evaluation is a dense solve over the window of functional
// counts and each improvement a column solve per processor count.
const MaxEventsChainProcessors = 4096

// eventsChain is the decision process of a system with failure events on
// the decision states X(n) only, n in the window [lo, hi] of functional
// counts (decision.EventsWindow; 0..N with Settings.Full), when the
// recovery cost does not depend on the old count. A decision X(n) → a ≥ 1
// stands for the recovery on a (R(a) + L(a) seconds) and the whole up
// phase after it: the spare count s = n − a moves by the sub-generator A
// of the chain on a (package batchchain) through the recovery and the
// segments alike, until the first interrupting event, so that, with
// S = (−A)⁻¹ (batchchain.Phase.Solve),
//
//	τ(s) = (S·1)(s),   Σ_{n'} P(n, n')·h(n') = (S·B·h)(s) / (S·B·1_W)(s),
//	w(s) = ω(a)(I + L(a) − C(a))·(exp(A(R + L))·Σ_{k≥1} exp(A k (I + L))·1)(s)
//
// (HitSum; SegmentsColumn, on a band of spare counts by SegmentsWindow),
// the exit law renormalised over the window W as the solver of New does. τ and the window's mass are independent of
// the interval and of h: computed once per count a. The improvement
// takes every count a at once by these column forms, and skips the
// counts whose bound on w cannot beat the current action in any state:
// w ≤ ω(a)·max(0, I + L − C)/(I + L)·τ (the committed segments last at
// most the phase) and w ≤ ω(a)·max(0, I + L − C)·SegmentsBoundWindow
// (every spare count is interrupted at a rate of at least ρ_min, every
// one of a band around the window at least that band's smallest rate,
// and the band's escapes lose a bounded number of segments), and stops
// the sum of w of a count that passes as soon as the sum so far plus the
// bound on its rest shows the same (batchchain.SegmentsSeq.AtOrSkip).
// The bounds and the test are exact, so skipping changes no result. The
// rewards' interval-free sequence is kept per count (batchchain.SegmentsSeq),
// within eventsSeqBudget stored numbers for all counts.
type eventsChain struct {
	n, lo, hi     int
	app           *scenario.Application
	lambda, theta float64
	law           []float64 // normalised law of K
	rate          float64   // λ/E[K]
	ctx           context.Context
	workers       int
	interval      float64
	cfg           []*eventsConfig // by count a; nil until needed
	// bounded is set once intervalBound has built every count's columns.
	bounded bool
	// last is the phase of the count lastA of the last row built (the
	// evaluation's rows come grouped by count).
	last  *batchchain.Phase
	lastA int
	// budget bounds what the counts' sequences store (eventsSeqBudget;
	// nil, as FixedIntervalEvents sets it, stores nothing), phases the
	// phases kept (eventsPhaseBudget).
	budget, phases *batchchain.Budget
}

// segmentsAt is SegmentsWindow(tr, t, s0, s1) of ph by the count's kept
// sequence sq, or nil when skip (nil: never) takes the upper bounds of
// batchchain.SegmentsSeq.AtOrSkip on the way; the tests replace it by
// the window of SegmentsColumn, which never skips: the oracle of the
// band, of the sequence and of the skips.
var segmentsAt = func(ctx context.Context, sq *batchchain.SegmentsSeq, ph *batchchain.Phase, _, t float64, _, _ int, skip func([]float64) bool) ([]float64, error) {
	y, _, err := sq.AtOrSkip(ctx, ph, t, skip)
	return y, err
}

// eventsSeqBudget bounds the numbers that the counts' kept sequences
// (batchchain.SegmentsSeq) store in all: 2²¹, 16 MB (2²⁵ saved
// another 10 % of CPU at N = 512 for about 400 MB more: BENCHMARKS.md,
// "(optev3)" and the integration note after it); eventsPhaseBudget
// those of the phases kept (batchchain.Phase.Numbers, (m + 1)·(3K_max + 3)
// each; those of the counts whose columns are asked for): 2²³, 64 MB,
// all the counts of N = 512 with K_max = 16 (6.7·10⁶ numbers).
const (
	eventsSeqBudget   = 1 << 21
	eventsPhaseBudget = 1 << 23
)

// eventsConfig holds the columns of one count a over the window's spare
// counts s = s0 .. s0 + len(tau) − 1 (the states n = a + s).
type eventsConfig struct {
	a, s0 int
	tau   []float64 // expected duration of the recovery and up phase
	kept  []float64 // probability that the interruption leaves n' in the window
	rows  map[int][]float64
	w     []float64 // rewards at the interval wAt
	wAt   float64
	// hitMin and hitMax are ρ_min and ρ_max of the up phase
	// (batchchain.Phase.HitRates).
	hitMin, hitMax float64
	seq            *batchchain.SegmentsSeq // the interval-free part of w
	ph             *batchchain.Phase       // the phase, if kept (eventsPhaseBudget)
}

// newEventsChain bounds N and builds the window.
func newEventsChain(ctx context.Context, sys scenario.System, app scenario.Application, set Settings) (*eventsChain, error) {
	sc, err := eventsScenario(sys, app, MaxEventsChainProcessors, "takes")
	if err != nil {
		return nil, err
	}
	n := sys.Processors
	law := []float64{1}
	rate := sys.Lambda()
	if !sys.FailureEvents.Single() {
		law, rate = sys.FailureEvents.Law(), sys.EventRate()
	}
	ec := &eventsChain{n: n, hi: n, app: &sc.Application, lambda: sys.Lambda(), theta: sys.Theta(), law: law, rate: rate,
		ctx: ctx, workers: set.Workers, cfg: make([]*eventsConfig, n+1), budget: batchchain.NewBudget(eventsSeqBudget),
		phases: batchchain.NewBudget(eventsPhaseBudget)}
	if !set.Full {
		if ec.lo, ec.hi, _, err = decision.EventsWindow(n, ec.lambda, ec.theta, law, set.Tol); err != nil {
			return nil, fmt.Errorf("optimal: %w", err)
		}
	}
	return ec, nil
}

func (ec *eventsChain) setInterval(interval float64) { ec.interval = interval }

func (ec *eventsChain) states() int { return ec.hi - ec.lo + 1 }

func (ec *eventsChain) ref() int { return ec.hi - ec.lo }

// start returns the policy that policy iteration starts from: in each
// state X(n) the count a ≤ n of largest up-segment reward rate
// ω(a)·ρ·(I + L − C)/(e^{ρ(I+L)} − 1) (decision.Phase, as
// Solver.MaxUWT) with ρ = hitRate(a, n), the rate at which the events
// interrupt the up phase on a at its start, the largest such count on
// ties: a policy close to the optimum, so that the first improvement's
// bounds already skip most counts (from greedy, whose g may be far below
// g*, they skip none; at the single-failure rate aλ, ev512's start of
// BENCHMARKS.md "(evopt)" was at g = 108–149 against g* = 212.8, and its
// first improvement at each interval summed the rewards of 217–360
// counts in full). With K ≡ 1, ρ = aλ. Any start gives g*; a state with
// no count of positive work rate waits.
func (ec *eventsChain) start() ([]int, error) {
	act := make([]int, ec.states())
	for x := range act {
		n := ec.lo + x
		best := 0.0
		for a := 1; a <= n; a++ {
			if ec.app.WorkRate[a-1] <= 0 {
				continue
			}
			ph := decision.NewPhase(ec.app, a, ec.lambda)
			ph.Rho = ec.hitRate(a, n)
			if r := ph.WorkRate * ph.Rho * ph.Useful(ec.interval); r >= best || act[x] == 0 {
				best, act[x] = r, a
			}
		}
	}
	if act[len(act)-1] == 0 {
		return nil, fmt.Errorf("optimal: the work rate is zero on every processor count up to %d", ec.hi)
	}
	return act, nil
}

// hitRate returns batchchain.HitRate of the chain's events: the rate
// at which they strike at least one of a used processors among n
// functional.
func (ec *eventsChain) hitRate(a, n int) float64 {
	return batchchain.HitRate(ec.law, ec.rate, a, n)
}

// phase builds the up phase of count a (its rates take O(N·K_max)
// memory: column keeps it only within eventsPhaseBudget).
func (ec *eventsChain) phase(a int) (*batchchain.Phase, error) {
	c, err := batchchain.New(ec.n, a, ec.lambda, ec.theta, ec.law)
	if err != nil {
		return nil, fmt.Errorf("optimal: %w", err)
	}
	ph, err := c.Phase()
	if err != nil {
		return nil, fmt.Errorf("optimal: %w", err)
	}
	return ph, nil
}

// config returns the columns of count a, with the phase when it is kept
// or had to be built (nil otherwise).
func (ec *eventsChain) config(a int) (*eventsConfig, *batchchain.Phase, error) {
	if cf := ec.cfg[a]; cf != nil {
		return cf, cf.ph, nil
	}
	ph, err := ec.phase(a)
	if err != nil {
		return nil, nil, err
	}
	m := ec.n - a
	s0, s1 := max(ec.lo-a, 0), ec.hi-a
	one := make([]float64, m+1)
	for j := range one {
		one[j] = 1
	}
	inW := make([]float64, ec.states())
	for i := range inW {
		inW[i] = 1
	}
	cf := &eventsConfig{a: a, s0: s0, rows: map[int][]float64{}}
	cf.hitMin, cf.hitMax = ph.HitRates()
	cf.tau = slices.Clone(ph.Solve(one)[s0 : s1+1])
	cf.kept = slices.Clone(ph.Solve(ph.HitSum(inW, ec.lo))[s0 : s1+1])
	ec.cfg[a] = cf
	return cf, ph, nil
}

// rewards returns the rewards of count a at the current interval, or
// nil when skip (nil: never) takes the upper bounds on the segments'
// counts of batchchain.SegmentsSeq.AtOrSkip before their sum ends.
func (ec *eventsChain) rewards(cf *eventsConfig, ph *batchchain.Phase, skip func([]float64) bool) ([]float64, error) {
	if cf.w != nil && cf.wAt == ec.interval {
		return cf.w, nil
	}
	a := cf.a
	if ph == nil {
		var err error
		if ph, err = ec.phase(a); err != nil {
			return nil, err
		}
	}
	app := ec.app
	tr, s1 := app.Recovery.Cost(a, a)+app.Latency[a-1], cf.s0+len(cf.tau)-1
	sq, err := ec.seq(cf)
	if err != nil {
		return nil, err
	}
	y, err := segmentsAt(ec.ctx, sq, ph, tr, ec.interval+app.Latency[a-1], cf.s0, s1, skip)
	if err != nil {
		return nil, fmt.Errorf("optimal: %w", err)
	}
	if y == nil {
		return nil, nil
	}
	gain := app.WorkRate[a-1] * (ec.interval + app.Latency[a-1] - app.Overhead[a-1])
	cf.w = y
	for i := range cf.w {
		cf.w[i] *= gain
	}
	cf.wAt = ec.interval
	return cf.w, nil
}

// seq returns count cf.a's sequence (made on the first call).
func (ec *eventsChain) seq(cf *eventsConfig) (*batchchain.SegmentsSeq, error) {
	if cf.seq == nil {
		a := cf.a
		sq, err := batchchain.NewSegmentsSeq(ec.app.Recovery.Cost(a, a)+ec.app.Latency[a-1], cf.s0, cf.s0+len(cf.tau)-1, ec.budget)
		if err != nil {
			return nil, fmt.Errorf("optimal: %w", err)
		}
		cf.seq = sq
	}
	return cf.seq, nil
}

// row returns the row of X(lo + x) under a: waiting (one event or one
// repair) or the recovery and up phase on a, renormalised over the window.
func (ec *eventsChain) row(x, a int, dst *sparseRow) (w, tau float64, err error) {
	dst.reset()
	defer func() { slices.Sort(dst.idx) }()
	n := ec.lo + x
	if a == 0 {
		return 0, ec.waitRow(n, dst), nil
	}
	cf, ph, err := ec.config(a)
	if err != nil {
		return 0, 0, err
	}
	if ph != nil {
		ec.last, ec.lastA = ph, a
	}
	s := n - a
	exit, ok := cf.rows[s]
	if !ok {
		if ec.last == nil || ec.lastA != a {
			if ec.last, err = ec.phase(a); err != nil {
				return 0, 0, err
			}
			ec.lastA = a
		}
		q, qlo, _ := ec.last.Exit([]float64{1}, s)
		exit = make([]float64, ec.states())
		var kept float64
		for i, v := range q {
			if k := qlo + i - ec.lo; k >= 0 && k < len(exit) {
				exit[k] = v
				kept += v
			}
		}
		if !(kept > 0) {
			return 0, 0, fmt.Errorf("optimal: every interruption of the up phase on %d processors from %d functional leaves the window [%d, %d]", a, n, ec.lo, ec.hi)
		}
		for k := range exit {
			exit[k] /= kept
		}
		cf.rows[s] = exit
	}
	for k, v := range exit {
		if v != 0 {
			dst.add(k, v)
		}
	}
	var same *batchchain.Phase
	if ec.lastA == a {
		same = ec.last
	}
	ws, err := ec.rewards(cf, same, nil)
	if err != nil {
		return 0, 0, err
	}
	return ws[s-cf.s0], cf.tau[s-cf.s0], nil
}

// waitRow fills dst with the row of waiting in X(n) (docs/model.md
// section 11: min(K, n) down or one repair), renormalised over the
// window, and returns its sojourn.
func (ec *eventsChain) waitRow(n int, dst *sparseRow) float64 {
	kept := 0.0
	tau := batchchain.Wait(ec.law, n, ec.n, ec.rate, ec.theta, func(next int, p float64) {
		if next > n && next <= ec.hi || next < n && next >= ec.lo && p > 0 {
			dst.add(next-ec.lo, p)
			kept += p
		}
	})
	for _, y := range dst.idx {
		dst.val[y] /= kept
	}
	return tau
}

// table returns act as a vector on 1..N: outside the window the action of
// the nearest count in it, capped at n (as Policy.Vector).
func (ec *eventsChain) table(act []int) (*reschedule.Table, error) {
	v := make(reschedule.Vector, ec.n)
	for n := 1; n <= ec.n; n++ {
		x := min(max(n, ec.lo), ec.hi) - ec.lo
		v[n-1] = min(act[x], n)
	}
	return reschedule.NewTableRows(v, nil, nil)
}

// qColumn is the value w − g·τ + Σ P·h of count a in the states
// n = a + s0 .. hi (nil when the bound skips it: no state where it can
// beat cur by the tie margin).
type qColumn struct {
	s0 int
	q  []float64
}

// column returns count a's values, or nil when skip holds on its bound.
func (ec *eventsChain) column(a int, g float64, h []float64, skip func(n int, ub float64) bool, force bool) (qColumn, error) {
	if err := ec.ctx.Err(); err != nil {
		return qColumn{}, err
	}
	cf, ph, err := ec.config(a)
	if err != nil {
		return qColumn{}, err
	}
	if ph == nil {
		if ph, err = ec.phase(a); err != nil {
			return qColumn{}, err
		}
	}
	// Keep the phases of the counts whose columns are asked for
	// (batchchain.Phase.Numbers each), within the budget.
	if cf.ph == nil && ec.phases.Take(ph.Numbers()) {
		cf.ph = ph
	}
	app := ec.app
	t := ec.interval + app.Latency[a-1]
	gain := max(0, t-app.Overhead[a-1]) * app.WorkRate[a-1]
	var wb []float64
	if !force {
		sq, err := ec.seq(cf)
		if err != nil {
			return qColumn{}, err
		}
		if wb, err = sq.Bound(ph, t); err != nil {
			return qColumn{}, fmt.Errorf("optimal: %w", err)
		}
	}
	ph0 := ph.Solve(ph.HitSum(h, ec.lo))
	q := make([]float64, len(cf.tau))
	need := force
	for i, tau := range cf.tau {
		if !(cf.kept[i] > 0) {
			q[i] = math.Inf(-1)
			continue
		}
		q[i] = -g*tau + ph0[cf.s0+i]/cf.kept[i]
		if !need && !skip(a+cf.s0+i, gain*min(tau/t, wb[i])+q[i]) {
			need = true
		}
	}
	if !need {
		return qColumn{}, nil
	}
	var skipSum func([]float64) bool
	if !force {
		// The bounds of the sum so far: the count is skipped as soon as
		// they show it cannot beat the current action in any state.
		skipSum = func(ub []float64) bool {
			for i, tau := range cf.tau {
				if cf.kept[i] > 0 && !skip(a+cf.s0+i, gain*min(tau/t, wb[i], ub[i])+q[i]) {
					return false
				}
			}
			return true
		}
	}
	w, err := ec.rewards(cf, ph, skipSum)
	if err != nil || w == nil {
		return qColumn{}, err
	}
	for i := range q {
		q[i] += w[i]
	}
	return qColumn{s0: cf.s0, q: q}, nil
}

// improve computes the value of every count in every state by columns
// (internal/pool over the counts, collected in order), those of the
// policy's counts first, then the others whose bound can beat them; the
// choice in each state follows eventsProcess.improve: counts in
// increasing order, a switch only by more than the tie margin.
func (ec *eventsChain) improve(act []int, g float64, h []float64, set Settings) (bool, error) {
	nx := len(act)
	cur := make([]float64, nx)
	tr := &sparseRow{val: make([]float64, nx)}
	var inPol []int
	seen := map[int]bool{}
	for x, a := range act {
		if a == 0 {
			w, tau, err := ec.row(x, 0, tr)
			if err != nil {
				return false, err
			}
			cur[x] = rowValue(w, tau, g, h, tr)
		} else if !seen[a] {
			seen[a] = true
			inPol = append(inPol, a)
		}
	}
	slices.Sort(inPol)
	cols := make([]qColumn, ec.hi+1)
	run := func(as []int, skip func(int, float64) bool, force bool) error {
		return pool.Map(ec.ctx, len(as), ec.workers, func(_ context.Context, i int) (qColumn, error) {
			return ec.column(as[i], g, h, skip, force)
		}, func(i int, c qColumn) error { cols[as[i]] = c; return nil })
	}
	if err := run(inPol, nil, true); err != nil {
		return false, err
	}
	for x, a := range act {
		if a > 0 {
			c := cols[a]
			cur[x] = c.q[ec.lo+x-a-c.s0]
		}
	}
	margin := func(x int) float64 { return set.TieTol * math.Max(math.Abs(cur[x]), g) }
	var rest []int
	for a := 1; a <= ec.hi; a++ {
		if ec.app.WorkRate[a-1] > 0 && !seen[a] {
			rest = append(rest, a)
		}
	}
	skip := func(n int, ub float64) bool { return ub <= cur[n-ec.lo]+margin(n-ec.lo) }
	if err := run(rest, skip, false); err != nil {
		return false, err
	}
	return ec.choose(act, cur, cols, g, h, margin)
}

// rowValue is w − g·τ + Σ P·h of a row (its transitions in tr), the
// value the improvements of eventsProcess and eventsChain compare.
func rowValue(w, tau, g float64, h []float64, tr *sparseRow) float64 {
	v := w - g*tau
	for _, y := range tr.idx {
		v += tr.val[y] * h[y]
	}
	return v
}

// choose makes the improvement's choice in each state from the columns.
func (ec *eventsChain) choose(act []int, cur []float64, cols []qColumn, g float64, h []float64, margin func(int) float64) (bool, error) {
	tr := &sparseRow{val: make([]float64, len(act))}
	changed := false
	for x := range act {
		n := ec.lo + x
		arg, err := bestAction(act[x], cur[x], n, ec.app.WorkRate, margin(x), func(a int) (float64, bool, error) {
			if a == 0 {
				w, tau, err := ec.row(x, 0, tr)
				if err != nil {
					return 0, false, err
				}
				return rowValue(w, tau, g, h, tr), true, nil
			}
			c := cols[a]
			if c.q == nil {
				return 0, false, nil
			}
			return c.q[n-a-c.s0], true, nil
		})
		if err != nil {
			return false, err
		}
		if arg != act[x] {
			act[x], changed = arg, true
		}
	}
	return changed, nil
}

// intervalBound returns an upper bound on g*(I) at every interval I:
// the average reward of any policy is Σπ·w/Σπ·τ over the stationary law
// π of its decision states, at most the largest w/τ of any state and
// count; w ≤ ω(a)·max(0, t − C(a))·y with t = I + L(a), y at most
// SegmentsBound and at most τ/t (the committed segments last at most
// the phase), and τ ≥ 1/ρ_max (interruptions come at a rate of at most
// ρ_max), so
//
//	g*(I) ≤ max_a ω(a)·max(0, t − C(a))·min(1/t, ρ_max·SegmentsBound).
//
// The rates ρ_min, ρ_max of every count come from its columns (config,
// built for every count on the first call, on internal/pool, and kept for
// the improvements).
func (ec *eventsChain) intervalBound(interval float64) (float64, error) {
	app := ec.app
	if !ec.bounded {
		err := pool.Map(ec.ctx, ec.hi, ec.workers, func(_ context.Context, i int) (struct{}, error) {
			if app.WorkRate[i] <= 0 {
				return struct{}{}, nil
			}
			_, _, err := ec.config(i + 1)
			return struct{}{}, err
		}, nil)
		if err != nil {
			return 0, err
		}
		ec.bounded = true
	}
	var ub float64
	for a := 1; a <= ec.hi; a++ {
		if app.WorkRate[a-1] <= 0 {
			continue
		}
		cf := ec.cfg[a]
		t := interval + app.Latency[a-1]
		gain := app.WorkRate[a-1] * max(0, t-app.Overhead[a-1])
		sb := batchchain.SegmentsBoundAt(cf.hitMin, app.Recovery.Cost(a, a)+app.Latency[a-1], t)
		ub = math.Max(ub, gain*math.Min(1/t, cf.hitMax*sb))
	}
	return ub, nil
}
