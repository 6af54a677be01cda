package optimal

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/ckpt-markov/markov/internal/scalar"
	"github.com/ckpt-markov/markov/reschedule"
	"github.com/ckpt-markov/markov/scenario"
	"github.com/ckpt-markov/markov/uwt"
)

// defaultStartInterval is the interval, in seconds, from which SingleInterval
// scans when its start is 0, once moved into the settings' bounds
// (Solver.defaultStart).
const defaultStartInterval = 300

// defaultStart is defaultStartInterval clamped into [Settings.MinInterval,
// Settings.MaxInterval]: the documented meaning of SingleInterval's start
// 0, and the interval of the greedy policy when no work is done.
func (sv *Solver) defaultStart() float64 {
	return min(max(defaultStartInterval, sv.set.MinInterval), sv.set.MaxInterval)
}

func (sv *Solver) checkInterval(interval float64) error {
	if math.IsNaN(interval) || interval < sv.set.MinInterval || interval > sv.set.MaxInterval {
		return fmt.Errorf("optimal: interval = %v, want in [%v, %v] seconds", interval, sv.set.MinInterval, sv.set.MaxInterval)
	}
	return nil
}

// Evaluate returns g and the stationary quantities of pol, unchanged.
func (sv *Solver) Evaluate(ctx context.Context, pol *Policy) (Result, error) {
	if pol == nil || pol.sv != sv {
		return Result{}, fmt.Errorf("optimal: the policy is not one of this solver")
	}
	v, err := sv.evaluate(ctx, pol, false)
	if err != nil {
		return Result{}, err
	}
	r := Result{Status: Converged}
	err = sv.finish(ctx, sv.clone(pol), v, &r)
	return r, err
}

// FixedInterval returns the optimal policy when every up state uses the
// interval I: g*(I), by policy iteration over the actions of the decision
// states X, started from greedy.
func (sv *Solver) FixedInterval(ctx context.Context, interval float64) (Result, error) {
	if err := sv.checkInterval(interval); err != nil {
		return Result{}, err
	}
	if sv.noWork {
		return sv.noUsefulWork(interval), nil
	}
	return sv.fixed(ctx, sv.Greedy(interval), interval, true)
}

// fixed runs policy iteration over X from the actions of start, with the
// interval I everywhere; with stationary, it also computes the stationary
// quantities of the result (otherwise only UWT, the policy and the
// iteration count are set).
func (sv *Solver) fixed(ctx context.Context, start *Policy, interval float64, stationary bool) (Result, error) {
	pol := sv.clone(start)
	for b := range pol.interval {
		for k := range pol.interval[b] {
			pol.interval[b][k] = interval
		}
	}
	v, st, it, err := sv.iterate(ctx, pol, false)
	if err != nil {
		return Result{}, err
	}
	r := Result{Status: st, Iterations: it, UWT: v.g, Policy: pol}
	if stationary {
		err = sv.finish(ctx, pol, v, &r)
	}
	return r, err
}

// Single is the optimal policy with one interval for every configuration
// (level 2 of the specification).
type Single struct {
	Result
	// Interval is I*.
	Interval float64
	// Evaluations counts the fixed-interval solves of the search.
	Evaluations int
	// IntervalStatus tells where I* lies, as uwt.Model.Optimize does:
	// uwt.Converged inside the search's bounds, uwt.AtMin or uwt.AtMax
	// at Settings.MinInterval or MaxInterval (g* still rises towards
	// the bound: I* is the bound, not an interior maximum).
	IntervalStatus uwt.Status
}

// SingleInterval maximises g*(I) over I: it scans I on a doubling grid
// from start (seconds; 0 means defaultStartInterval, 300 s, moved into
// [Settings.MinInterval, Settings.MaxInterval] when outside it: the
// nearest bound; a start given and outside is an error) until g* has
// fallen to half its
// best on both sides or the bounds are reached, maximises g*(I) on log I
// around the best grid point, then alternates a search over I for the
// policy found with policy iteration at the new interval until neither
// improves g by more than RelTol (brent; after polishRounds rounds the
// best so far, with Status IterationLimit). With up states the search
// after the scan is by gradient steps instead (singleSearch.climb).
func (sv *Solver) SingleInterval(ctx context.Context, start float64) (Single, error) {
	if start == 0 {
		start = sv.defaultStart()
	}
	if err := sv.checkInterval(start); err != nil {
		return Single{}, err
	}
	if sv.noWork {
		return Single{Result: sv.noUsefulWork(start), Interval: start, IntervalStatus: uwt.NotTerminated}, nil
	}
	s := &singleSearch{sv: sv, ctx: ctx, cur: sv.boundStart(start)}
	s.lo, s.hi = math.Log(sv.set.MinInterval), math.Log(sv.set.MaxInterval)
	if sv.useNeverStart() {
		nv, err := sv.neverSolver()
		if err != nil {
			return Single{}, err
		}
		s.never = &singleSearch{sv: nv, ctx: ctx, cur: nv.boundStart(start), lo: s.lo, hi: s.hi}
	}
	scan := s.scan(math.Log(start))
	if s.err != nil {
		return Single{}, s.err
	}
	search := s.brent
	if gradientLevel2 && !sv.phase {
		search = s.climb
	}
	best, xb, err := search(scan)
	if err == nil {
		best, xb, err = s.toBound(best, xb)
	}
	if err != nil {
		return Single{}, err
	}
	// The stationary quantities of the final policy.
	v, err := sv.evaluate(ctx, best.Policy, true)
	if err != nil {
		return Single{}, err
	}
	if err := sv.finish(ctx, best.Policy, v, &best); err != nil {
		return Single{}, err
	}
	return Single{Result: best, Interval: sv.intervalOf(xb), Evaluations: s.solves, IntervalStatus: s.status(xb)}, nil
}

// brent is SingleInterval's search from its scan without up states:
// Brent's method on g*(log I) around the best point (peak), then polish.
// It returns the best result and its x = log I.
func (s *singleSearch) brent(scan []scanPoint) (Result, float64, error) {
	xb := s.peak(scan)
	if s.err != nil {
		return Result{}, 0, s.err
	}
	best, err := s.sv.fixed(s.ctx, s.near(xb), s.sv.intervalOf(xb), false)
	if err != nil {
		return Result{}, 0, err
	}
	return s.polish(best, xb)
}

// toBound ends SingleInterval's search at a bound of the interval when
// it stopped short of it: where g* still rises towards the bound, the
// gradient steps (climb) stop once the rise per step is below their
// tolerance, which near the bound can be before reaching it (with
// L = C = R = 0, dg*/d log I is about aλI·g* at I = 1 s: I* came out
// 1.000002 to 1.0004 s, unflagged). When xb is within intervalStep of a
// bound but not at it (status Converged), g* is solved at the bound from
// the policy found and the bound is taken if g* there is within RelTol of
// the best (the searches' own tolerance on g: g* may be flat to rounding
// there, about 1e-12): I* is then the bound, flagged uwt.AtMin or AtMax.
// An interior maximum keeps its point (g* at the bound is below it by
// more than RelTol).
func (s *singleSearch) toBound(best Result, xb float64) (Result, float64, error) {
	if s.status(xb) != uwt.Converged {
		return best, xb, nil
	}
	var x float64
	switch {
	case xb-s.lo < intervalStep:
		x = s.lo
	case s.hi-xb < intervalStep:
		x = s.hi
	default:
		return best, xb, nil
	}
	r, err := s.sv.fixed(s.ctx, best.Policy, s.sv.intervalOf(x), false)
	if err != nil {
		return Result{}, 0, err
	}
	s.solves++
	if r.UWT >= best.UWT*(1-s.sv.set.RelTol) {
		return r, x, nil
	}
	return best, xb, nil
}

// singleSearch is the state of SingleInterval's search over x = log I:
// the policy found at each interval solved so far (the next solve starts
// from the nearest, near), the number of solves and the first error.
type singleSearch struct {
	sv      *Solver
	ctx     context.Context
	cur     *Policy // the start of the first solve
	visited []visit
	lo, hi  float64
	solves  int
	err     error
	// never, with up states, is the search without reconfiguration
	// whose optimum at each interval starts the solves (startAt).
	never *singleSearch
}

// visit is the result (its policy, g*, status and iterations) of a
// fixed-interval solve at x = log I; neverX: the solve started from the
// actions of X of the optimum without reconfiguration at I and ended with
// them (startAt).
type visit struct {
	x      float64
	r      Result
	neverX bool
}

// near returns the policy found at the solved interval nearest to x on
// log I (the latest of equally near ones), or the start policy before
// the first solve. Starting policy iteration there instead of at the
// last interval solved saves most of its improvements when the search
// comes back from a far point of the scan; the optimum does not depend
// on the start.
func (s *singleSearch) near(x float64) *Policy {
	if i := s.nearest(x); i >= 0 {
		return s.visited[i].r.Policy
	}
	return s.cur
}

// nearest returns the index of the solved interval nearest to x on log I
// (the latest of equally near ones), −1 before the first solve.
func (s *singleSearch) nearest(x float64) int {
	k, d := -1, math.Inf(1)
	for i, v := range s.visited {
		if dv := math.Abs(v.x - x); dv <= d {
			k, d = i, dv
		}
	}
	return k
}

// scanPoint is g*(I) at x = log I (solved) or, where the scan did not
// solve it, an upper bound on it (gainBound).
type scanPoint struct {
	x, g   float64
	solved bool
}

// point returns the scan's point at x: its bound alone when that bound
// is below best, the largest g* of the scan so far (the point can be
// neither the maximum nor, since g* ≤ the bound, a reason to go on where
// the bound already stops the scan), else g* solved.
func (s *singleSearch) point(x, best float64) scanPoint {
	if ub := s.sv.gainBound(s.sv.intervalOf(x)); ub*(1+1e-9) < best {
		return scanPoint{x, ub, false}
	}
	return scanPoint{x, s.gstar(x), true}
}

// boundStart returns the policy SingleInterval's first solve starts
// from: greedy capped at the count whose term of gainBound is largest at
// the interval (the configuration that would be best with free
// recoveries), which is usually near the closed set of g*(I), or greedy
// itself without the chain of up phases. The start changes the number of
// improvements, not the optimum.
func (sv *Solver) boundStart(interval float64) *Policy {
	if !sv.phase {
		return sv.Greedy(interval)
	}
	top, best := 0, 0.0
	for b, ph := range sv.phases {
		if v := max(ph.WorkRate*ph.Useful(interval), 0) / ph.Sojourn(); v > best {
			top, best = sv.acts[b], v
		}
	}
	return sv.uniform(func(n int) int {
		act := 0
		for _, a := range sv.acts {
			if a <= min(n, top) {
				act = a
			}
		}
		return act
	}, interval)
}

// gainBound returns an upper bound on the gain of every policy at the
// interval: g = Σπ·w/Σπ·τ over the states of the process (renewal–
// reward), and the ratio w/τ of each state is at most
// ρ_a·max(ω(a)·u_a(I), 0) (u_a is Phase.Useful, 1/ρ_a Phase.Sojourn): a
// decision X(p, n) → a of the chain of up phases has w ≤ ω(a)·u_a(I)
// (its recovery's survival at most 1) and τ = 1/ρ_a; an up segment
// U(a, s) at I, with T = I + L(a), has w = e^{−ρ_a T}·ω(a)(I + L − C)
// and τ = (1 − e^{−ρ_a T})/ρ_a, whose ratio is ρ_a·ω(a)·u_a(I) exactly;
// waiting, recovering and reconfiguring have w = 0. So
// g ≤ max_a ρ_a·max(ω(a)·u_a(I), 0): the gain of each configuration with
// free recoveries and no down time, with reconfiguration at checkpoints
// as without.
func (sv *Solver) gainBound(interval float64) float64 {
	ub := 0.0
	for _, ph := range sv.phases {
		ub = max(ub, max(ph.WorkRate*ph.Useful(interval), 0)/ph.Sojourn())
	}
	return ub
}

// gstar returns g*(e^x) by policy iteration from the policy found at
// the nearest interval solved (near), or −Inf once a solve has failed.
func (s *singleSearch) gstar(x float64) float64 {
	if s.err != nil {
		return math.Inf(-1)
	}
	s.solves++
	start, fromNever := s.startAt(x, nil)
	if start == nil {
		return math.Inf(-1)
	}
	r, err := s.sv.fixed(s.ctx, start, s.sv.intervalOf(x), false)
	if err != nil {
		s.err = err
		return math.Inf(-1)
	}
	s.visited = append(s.visited, visit{x, r, fromNever && sameX(r, start)})
	return r.UWT
}

// scan is the doubling scan from x0, as uwt.Model.Optimize's: each side
// until g* falls below half the best so far or the bound is passed. A
// point whose bound (gainBound) is below the best so far is not solved
// (point): its bound stands in for g* in the stopping test, and peak
// solves it if it is a neighbour of the best. The points are returned by
// increasing x.
func (s *singleSearch) scan(x0 float64) []scanPoint {
	pts := []scanPoint{{x0, s.gstar(x0), true}}
	for _, dir := range []float64{-1, 1} {
		x := x0
		for {
			x += dir * math.Ln2
			if x < s.lo || x > s.hi {
				break
			}
			best := slices.MaxFunc(pts, func(a, b scanPoint) int { return cmpf(a.g, b.g) })
			p := s.point(x, best.g)
			pts = append(pts, p)
			best = slices.MaxFunc(pts, func(a, b scanPoint) int { return cmpf(a.g, b.g) })
			if p.g < 0.5*best.g || s.err != nil {
				break
			}
		}
	}
	slices.SortFunc(pts, func(a, b scanPoint) int { return cmpf(a.x, b.x) })
	return pts
}

// bestIndex returns the index of the first point of scan (not empty)
// with the largest g, a NaN counted below every number.
func bestIndex(scan []scanPoint) int {
	k := 0
	for i, p := range scan {
		if p.g > scan[k].g || math.IsNaN(scan[k].g) && !math.IsNaN(p.g) {
			k = i
		}
	}
	return k
}

// peak maximises g* on log I around the best point of the scan: by
// scalar.Maximize between its neighbours, or from it by bracketing when
// it is at an end of the scan.
func (s *singleSearch) peak(scan []scanPoint) float64 {
	k := bestIndex(scan)
	l, r := scan[max(k-1, 0)].x, scan[min(k+1, len(scan)-1)].x
	if l == r || k == 0 || k == len(scan)-1 {
		// The best point is always solved (an unsolved point's bound is
		// below a solved point's g*).
		xb, _ := maximize(s.gstar, scan[k].x, intervalStep, s.lo, s.hi, s.sv.set.IntervalTol)
		return xb
	}
	for _, j := range []int{k - 1, k + 1} {
		if !scan[j].solved {
			scan[j].g, scan[j].solved = s.gstar(scan[j].x), true
		}
	}
	if s.err != nil {
		return scan[k].x
	}
	xb, _, _ := scalar.Maximize(scalar.Plain(s.gstar), l, r, s.sv.set.IntervalTol, scan[k].x, scan[k].g, scan[k-1].g, scan[k+1].g)
	return xb
}

// polishRounds bounds the rounds of polish. Each round that does not end
// it raises g by a factor above 1 + RelTol, and g is at most
// max_I gainBound(I), so in exact arithmetic polish ends after at most
// 1 + ln(max gainBound/g)/ln(1 + RelTol) rounds: of the order of 10¹⁰
// at the default RelTol, a bound of no use (and a NaN g would never end
// it). polish starts where Brent's method on g*(I) has converged, or
// where no step of climb raised g*, so each round but the last is a
// rise that the search before it missed: on every call in the tests of
// this package (119, with the fallbacks of TestGradientFallback) polish
// ended after one round but for three calls, of two and three rounds;
// after one in every call of the tests of internal/cli, multilevel and
// sweep and of optimize --policy optimal on qr, cg and md at N = 16 to
// 128 (BENCHMARKS.md, dedup2). Ten rounds is three times the most seen;
// polish that still rises after them stops with the best result so far
// and Status IterationLimit, as climb does after Settings.MaxIter steps.
// Tests lower it to take the limit.
var polishRounds = 10

// polish alternates the best interval for the policy of best (found at
// xb) with policy iteration at that interval, at most polishRounds
// times, until g gains no more than RelTol; it returns the best result
// (Status IterationLimit when it still gained after polishRounds rounds)
// and its x.
func (s *singleSearch) polish(best Result, xb float64) (Result, float64, error) {
	sv := s.sv
	for round := 0; ; round++ {
		if round == polishRounds {
			best.Status = IterationLimit
			break
		}
		pol := best.Policy
		var perr error
		gpol := func(x float64) float64 {
			p := sv.clone(pol)
			for b := range p.interval {
				for k := range p.interval[b] {
					p.interval[b][k] = sv.intervalOf(x)
				}
			}
			v, err := sv.evaluate(s.ctx, p, true)
			if err != nil {
				perr = err
				return math.Inf(-1)
			}
			return v.g
		}
		x, _ := maximize(gpol, xb, 0.05, s.lo, s.hi, sv.set.IntervalTol)
		if perr != nil {
			return Result{}, 0, perr
		}
		r, err := sv.fixed(s.ctx, pol, sv.intervalOf(x), false)
		if err != nil {
			return Result{}, 0, err
		}
		s.solves++
		if r.UWT <= best.UWT*(1+sv.set.RelTol) {
			if r.UWT > best.UWT {
				best, xb = r, x
			}
			break
		}
		best, xb = r, x
	}
	return best, xb, nil
}

// status tells where I* = e^xb lies: at a bound when the search ended
// within its tolerance of it.
func (s *singleSearch) status(xb float64) uwt.Status {
	switch {
	case xb-s.lo <= 2*s.sv.set.IntervalTol:
		return uwt.AtMin
	case s.hi-xb <= 2*s.sv.set.IntervalTol:
		return uwt.AtMax
	}
	return uwt.Converged
}

func cmpf(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// PerState returns the optimal policy with an interval per up state
// (level 4: an upper bound on every policy of the model), by policy
// iteration over actions and intervals from start (nil: the level-2
// policy of SingleInterval).
func (sv *Solver) PerState(ctx context.Context, start *Policy) (Result, error) {
	if sv.noWork {
		return sv.noUsefulWork(sv.defaultStart()), nil
	}
	if start == nil {
		s, err := sv.SingleInterval(ctx, 0)
		if err != nil {
			return Result{}, err
		}
		start = s.Policy
	}
	if start.sv != sv {
		return Result{}, fmt.Errorf("optimal: the start policy is not one of this solver")
	}
	if sv.phase {
		// Without reconfiguration the best interval of every up state
		// is its configuration's closed form (doc.go, "The four levels").
		c, err := sv.perConfigurationClosed(ctx, start)
		return c.Result, err
	}
	pol := sv.clone(start)
	v, st, it, err := sv.iterate(ctx, pol, true)
	if err != nil {
		return Result{}, err
	}
	r := Result{Status: st, Iterations: it}
	err = sv.finish(ctx, pol, v, &r)
	return r, err
}

// Configuration is the optimal policy with one interval per processor
// count (level 3).
type Configuration struct {
	Result
	// Intervals maps each processor count with stationary mass to I(a).
	Intervals map[int]float64
	// Local is true when the search ended at a local maximum: in its
	// last pass no action in X changed and the intervals gained no more
	// than RelTol (the gradient steps: every ∂g/∂I(a) zero to the
	// tolerance; the coordinate search: no single I(a) improved g by more
	// than RelTol). The maximum is local: g over the intervals need not
	// be concave.
	Local bool
	// Global is true when the intervals are the closed-form optimum
	// (without reconfiguration, docs/optimal-policy.md): the result is
	// then the global maximum of level 3, which equals level 4.
	Global bool
}

// PerConfiguration maximises the exact UWT over one interval per
// configuration I(a) and the actions in X, on the log I(a) of the
// configurations with stationary mass (searchIntervals: gradient steps
// on every I(a) at once, then a coordinate ascent, heaviest first, if
// they stall) alternated with policy iteration over X. It starts from the better of
// level 2 (single) and the per-state policy (perState) with each I(a) the
// stationary-weighted mean of its up states' intervals.
func (sv *Solver) PerConfiguration(ctx context.Context, single Single, perState Result) (Configuration, error) {
	if single.Policy == nil || perState.Policy == nil || single.Policy.sv != sv || perState.Policy.sv != sv {
		return Configuration{}, fmt.Errorf("optimal: PerConfiguration needs the level-2 and level-4 results of this solver")
	}
	if sv.noWork {
		return Configuration{Result: sv.noUsefulWork(single.Interval), Intervals: map[int]float64{}}, nil
	}
	if !sv.reconf && closedLevel3 {
		return sv.perConfigurationClosed(ctx, perState.Policy)
	}
	fromState := sv.meanIntervals(perState)
	cur := sv.clone(single.Policy)
	vs, err := sv.evaluate(ctx, fromState, true)
	if err != nil {
		return Configuration{}, err
	}
	// Start from the better of the two; g is set by the first iteration.
	if vs.g > single.UWT {
		cur = fromState
	}
	var out Configuration
	steps := make([]float64, len(sv.acts)) // 0: the first search of that I(a)
	for pass := 0; ; pass++ {
		if pass >= sv.set.MaxIter {
			out.Status = IterationLimit
			break
		}
		// Policy iteration over X at the current intervals.
		v, _, it, err := sv.iterate(ctx, cur, false)
		if err != nil {
			return Configuration{}, err
		}
		out.Iterations += it
		g0 := v.g
		g, err := sv.searchIntervals(ctx, cur, v, steps)
		if err != nil {
			return Configuration{}, err
		}
		// A coordinate-wise maximum: no action in X changed at these
		// intervals and no interval gained more than RelTol.
		if it == 0 && g-g0 <= sv.set.RelTol*math.Abs(g) {
			out.Status, out.Local = Converged, true
			break
		}
	}
	return sv.configuration(ctx, cur, out)
}

// gradientLevel3 makes PerConfiguration search the intervals by
// gradientAscend before the coordinate search; tests turn it off to hold
// the two against each other.
var gradientLevel3 = true

// searchIntervals is one search of PerConfiguration over the intervals
// from cur, evaluated as v: gradientAscend, then the coordinate search
// (ascend) from where it stopped when it ended on steps that did not
// raise g rather than at a stationary point. The chain of up phases (no up
// states; only the tests search its intervals instead of taking the
// closed form) takes the coordinate search alone. It updates cur and
// returns its g.
func (sv *Solver) searchIntervals(ctx context.Context, cur *Policy, v *values, steps []float64) (float64, error) {
	if gradientLevel3 && !sv.phase {
		g, stationary, err := sv.gradientAscend(ctx, cur, v, steps)
		if err != nil || stationary {
			return g, err
		}
		if v, err = sv.evaluate(ctx, cur, true); err != nil {
			return 0, err
		}
	}
	return sv.ascend(ctx, cur, v, steps)
}

// setConf sets the interval of every up state of configuration b of p to iv.
func setConf(p *Policy, b int, iv float64) {
	for k := range p.interval[b] {
		p.interval[b][k] = iv
	}
}

// meanIntervals returns the policy of perState with each configuration's
// interval the stationary-weighted mean of its up states' (the plain mean
// for a configuration without mass).
func (sv *Solver) meanIntervals(perState Result) *Policy {
	fromState := sv.clone(perState.Policy)
	for b, a := range sv.acts {
		iv, ok := perState.MeanInterval[a]
		if !ok {
			// No mass: the plain mean of its intervals.
			for _, x := range perState.Policy.interval[b] {
				iv += x / float64(len(perState.Policy.interval[b]))
			}
		}
		setConf(fromState, b, iv)
	}
	return fromState
}

// ascend is one pass of PerConfiguration's coordinate ascent from cur,
// whose evaluation is v: each configuration with stationary mass,
// heaviest first, takes the interval that maximises g with the others
// fixed when it improves g. It updates cur and returns its g.
//
// The search of configuration b brackets the maximum from its current
// log I(a) with the first step steps[b] (ascendStep), then refines it
// to IntervalTol: 0.1 the first time, then twice the move of its last
// search (or gradient step), at least ascendMinStep and at most 0.1. After the first pass the intervals are
// near their maxima, and a bracket of the last move's width saves most
// of the bracketing and of Brent's steps down to it; the bracketing
// doubles its step until g falls, so a step too small costs a few
// evaluations, not the maximum.
func (sv *Solver) ascend(ctx context.Context, cur *Policy, v *values, steps []float64) (float64, error) {
	g := v.g
	r := Result{}
	if err := sv.finish(ctx, cur, v, &r); err != nil {
		return 0, err
	}
	type am struct {
		a int
		m float64
	}
	var order []am
	for a, m := range r.Mass {
		order = append(order, am{a, m})
	}
	// Heaviest first, ties by count: the order must not depend on the
	// map's iteration order (results bit-identical from run to run).
	slices.SortFunc(order, func(x, y am) int {
		if c := cmpf(y.m, x.m); c != 0 {
			return c
		}
		return x.a - y.a
	})
	lo, hi := math.Log(sv.set.MinInterval), math.Log(sv.set.MaxInterval)
	for _, o := range order {
		b := sv.aIdx[o.a]
		var perr error
		f := func(x float64) float64 {
			p := sv.clone(cur)
			setConf(p, b, sv.intervalOf(x))
			v, err := sv.evaluate(ctx, p, true)
			if err != nil {
				perr = err
				return math.Inf(-1)
			}
			return v.g
		}
		x0 := math.Log(cur.interval[b][0])
		x, gx := maximize(f, x0, ascendStep(steps[b]), lo, hi, sv.set.IntervalTol)
		if perr != nil {
			return 0, perr
		}
		steps[b] = 0
		if gx > g {
			setConf(cur, b, sv.intervalOf(x))
			g = gx
			steps[b] = 2 * math.Abs(x-x0)
		}
		steps[b] = max(steps[b], ascendMinStep)
	}
	return g, nil
}

// intervalStep is the first step, on log I, of the searches of one
// interval that start from a point of level 2's scan or from a state's
// current interval (peak, singleSearch.climb, improveU), and the largest
// of climb's later steps: 0.35, about half the scan's step on log I
// (ln 2 / 2 ≈ 0.347), so that the first bracket around the scan's best
// point stays within its neighbours. It sets where the bracketing
// starts; the maximiser is then refined to IntervalTol.
const intervalStep = 0.35

// ascendMinStep is the smallest first step of a coordinate search of
// ascend, on log I.
const ascendMinStep = 1e-3

// ascendStep returns the first step of a coordinate search of ascend
// from the last search's recorded step (0: none yet, 0.1).
func ascendStep(last float64) float64 {
	if last == 0 {
		return 0.1
	}
	return min(last, 0.1)
}

// configuration evaluates cur, the policy level 3 ended at, and returns
// out with its stationary quantities and the interval of each
// configuration with mass.
func (sv *Solver) configuration(ctx context.Context, cur *Policy, out Configuration) (Configuration, error) {
	v, err := sv.evaluate(ctx, cur, true)
	if err != nil {
		return Configuration{}, err
	}
	if err := sv.finish(ctx, cur, v, &out.Result); err != nil {
		return Configuration{}, err
	}
	out.Intervals = map[int]float64{}
	for a := range out.Mass {
		out.Intervals[a] = cur.interval[sv.aIdx[a]][0]
	}
	return out, nil
}

// closedLevel3 enables perConfigurationClosed; tests turn it off to
// compare it with the coordinate ascent.
var closedLevel3 = true

// perConfigurationClosed is PerConfiguration without reconfiguration
// (docs/optimal-policy.md, the note after section 4): the intervals then
// change neither the stationary law of the decision states nor their
// sojourns, only each up phase's work, so for any actions the best I(a)
// maximises that work alone, in closed form (closedFormInterval), and
// policy iteration over X at those intervals gives the joint optimum,
// which is also level 4's (Global).
func (sv *Solver) perConfigurationClosed(ctx context.Context, start *Policy) (Configuration, error) {
	cur := sv.clone(start)
	for b := range sv.acts {
		iv := sv.phases[b].BestInterval(sv.set.MinInterval, sv.set.MaxInterval)
		for k := range cur.interval[b] {
			cur.interval[b][k] = iv
		}
	}
	v, _, it, err := sv.iterate(ctx, cur, false)
	if err != nil {
		return Configuration{}, err
	}
	out := Configuration{}
	if err := sv.finish(ctx, cur, v, &out.Result); err != nil {
		return Configuration{}, err
	}
	out.Iterations, out.Status, out.Global = it, Converged, true
	out.Intervals = map[int]float64{}
	for a := range out.Mass {
		out.Intervals[a] = cur.interval[sv.aIdx[a]][0]
	}
	return out, nil
}

// Named is a hand-made policy at its own best single interval, by the
// existing model (package uwt).
type Named struct {
	// Policy is the policy as given to Levels.
	Policy scenario.Policy
	// Name is the policy in the form scenario.ParsePolicy reads
	// ("greedy", "pb", "moldable:A", "vector:..."): Policy.String().
	Name string
	// Vector is its rescheduling vector.
	Vector reschedule.Vector
	// Interval is its optimal interval and UWT the UWT there; both NaN
	// when Err is set.
	Interval, UWT float64
	// Err says why the policy cannot run on the scenario's application
	// (a scenario.Error naming policy: it chooses a count of zero work
	// rate, say), nil when it ran. The optimal policy is solved all the
	// same: it never chooses such a count.
	Err error
}

// Report holds the four levels of docs/optimal-policy.md section 4.
type Report struct {
	// Single is level 2: r* with one interval I*.
	Single Single
	// PerConfiguration is level 3: one interval per processor count.
	PerConfiguration Configuration
	// PerState is level 4: an interval per up state, the upper bound.
	PerState Result
	// Policies holds the hand-made policies asked for (level 1 is the
	// user's), each at its own best interval.
	Policies []Named
}

// Levels computes the four levels for the scenario, and the hand-made
// policies given (any kind but Optimal, resolved on the scenario's
// application) at their own best intervals with uwt's default fast path;
// a hand-made policy that cannot run on the application is reported with
// its reason (Named.Err), not as an error of Levels.
func (sv *Solver) Levels(ctx context.Context, policies []scenario.Policy) (Report, error) {
	var rep Report
	var err error
	if rep.Single, err = sv.SingleInterval(ctx, 0); err != nil {
		return rep, err
	}
	if rep.PerState, err = sv.PerState(ctx, rep.Single.Policy); err != nil {
		return rep, err
	}
	if rep.PerConfiguration, err = sv.PerConfiguration(ctx, rep.Single, rep.PerState); err != nil {
		return rep, err
	}
	for _, p := range policies {
		nm, err := sv.handMade(ctx, p)
		if err != nil {
			return rep, err
		}
		rep.Policies = append(rep.Policies, nm)
	}
	return rep, nil
}

func (sv *Solver) handMade(ctx context.Context, pol scenario.Policy) (Named, error) {
	if pol.Kind == scenario.Optimal {
		return Named{}, fmt.Errorf("optimal: Levels: the optimal policy is not a hand-made policy")
	}
	sc := *sv.sc
	v, err := pol.Vector(scenario.PolicyInputs{N: sc.N(), WorkRate: sc.Application.WorkRate})
	if err != nil {
		return Named{}, err
	}
	sc.Policy, sc.Reschedule = pol.Resolved(v), v
	if err := sc.Validate(); err != nil {
		// The system and application passed New: the policy is what
		// does not fit.
		return Named{Policy: pol, Name: pol.String(), Vector: v, Interval: math.NaN(), UWT: math.NaN(), Err: err}, nil
	}
	m, err := uwt.New(ctx, &sc, nil)
	if err != nil {
		return Named{}, err
	}
	o, err := m.Optimize(ctx, nil)
	if err != nil {
		return Named{}, err
	}
	return Named{Policy: pol, Name: pol.String(), Vector: sc.Reschedule, Interval: o.Interval, UWT: o.UWT}, nil
}
