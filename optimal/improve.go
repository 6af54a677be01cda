package optimal

import (
	"context"
	"math"
	"slices"

	"github.com/ckpt-markov/markov/internal/pool"
)

// xValue returns the bracket w − g·τ + Σ P·h of X(ps[pi], n) under act.
func (sv *Solver) xValue(v *values, pi, n, act int) float64 {
	base := pi * sv.w
	if act == 0 {
		r := sv.waitRow(n)
		s := -v.g * r.tau
		for _, e := range r.fail {
			s += e.p * v.hX[base+int(e.i)]
		}
		return s
	}
	if sv.phase {
		e := sv.phaseEquation(v, pi, n, act)
		s := e.rh - v.g*e.gc
		for k, y := range e.to {
			s += e.coef[k] * v.hX[y]
		}
		return s
	}
	b := sv.aIdx[act]
	r := sv.recRow(pi, b, n)
	s := -v.g * r.tau
	for _, e := range r.up {
		s += e.p * v.upH(b)[e.i]
	}
	for _, e := range r.fail {
		s += e.p * v.hX[base+int(e.i)]
	}
	return s
}

// improveX takes in every decision state X the action that maximises the
// bracket, keeping the current one unless another beats it by more than
// TieTol·(|bracket| + |g|τ). It reports whether an action changed. The
// brackets are xv's (of v), which improveR reads after it.
func (sv *Solver) improveX(ctx context.Context, v *values, pol *Policy, xv *xValues) (bool, error) {
	if sv.phase {
		return sv.improvePhase(ctx, v, pol)
	}
	changed := false
	for pi := range sv.ps {
		for n := sv.lo; n <= sv.hi; n++ {
			x := pi*sv.w + n - sv.lo
			cur := pol.action[x]
			vc := xv.at(pi, n, cur)
			scale := math.Abs(vc) + math.Abs(v.g)*sv.tauX(pi, n, cur)
			best, vb := cur, vc
			try := func(a int) {
				if a > n || a == cur || !xv.mayBeat(pi, n, a, vb) {
					return
				}
				if va := xv.at(pi, n, a); va > vb {
					best, vb = a, va
				}
			}
			try(0)
			for _, a := range sv.acts {
				try(a)
			}
			if best != cur && vb > vc+sv.set.TieTol*scale {
				pol.action[x] = best
				changed = true
			}
		}
	}
	return changed, nil
}

func (sv *Solver) tauX(pi, n, act int) float64 {
	if act == 0 {
		return sv.waitRow(n).tau
	}
	if sv.phase {
		return sv.phases[sv.aIdx[act]].Sojourn()
	}
	return sv.recRow(pi, sv.aIdx[act], n).tau
}

// uValue returns the bracket of U(acts[b], s0+k) at interval I, computing
// the state's row at T = I + L(a) into sc (used once: the searches try one
// interval at a time).
func (sv *Solver) uValue(sc *rowScratch, v *values, b, k int, interval float64) (float64, error) {
	a := sv.acts[b]
	s0, _ := sv.spares(a)
	rs, err := sv.rowsTo(sc, a, s0+k, s0+k+1, interval+sv.sc.Application.Latency[a-1], interval)
	if err != nil {
		return 0, err
	}
	return sv.bracket(v, b, &rs[0]), nil
}

// improveU maximises the bracket of every up state over its interval (on
// log I, from the current interval), in a pool (internal/pool) of
// Settings.Workers goroutines, one configuration per task (each writes
// only its own intervals). It reports whether an interval changed.
// An up state that reconfigures gets its best interval too: improveR then
// weighs reconfiguring against running at that interval, the state's best
// run, as the optimality equations ask (TestLevelsOrderReconfigure),
// unless runMax's bound on running over every interval is below the
// bracket of its reconfiguration (xv's): then no interval makes running
// win in improveR, and the state keeps its interval (runSkips), which
// is then no longer its best run: improveU also returns those states
// (nil when none), for iterate's convergence test (staleMayRun).
func (sv *Solver) improveU(ctx context.Context, v *values, pol *Policy, xv *xValues) (bool, [][]bool, error) {
	lo, hi := math.Log(sv.set.MinInterval), math.Log(sv.set.MaxInterval)
	changed := make([]bool, len(sv.acts))
	skip := sv.runSkips(v, pol, xv)
	err := pool.Each(ctx, len(sv.acts), sv.set.Workers, func(ctx context.Context, b int) error {
		sc := new(rowScratch) // this task's, reused by every trial interval
		for k, cur := range pol.interval[b] {
			if err := ctx.Err(); err != nil {
				return err
			}
			if skip != nil && skip[b][k] {
				continue
			}
			var ferr error
			f := func(x float64) float64 {
				u, err := sv.uValue(sc, v, b, k, sv.intervalOf(x))
				if err != nil {
					ferr = err
					return math.Inf(-1)
				}
				return u
			}
			vc := f(math.Log(cur))
			x, vb := maximizeFrom(f, math.Log(cur), vc, intervalStep, lo, hi, sv.set.IntervalTol)
			if ferr != nil {
				return ferr
			}
			if vb > vc+sv.set.TieTol*(math.Abs(vc)+math.Abs(v.g)*pol.interval[b][k]) {
				pol.interval[b][k] = sv.intervalOf(x)
				changed[b] = true
			}
		}
		return nil
	})
	if err != nil {
		return false, nil, err
	}
	return slices.Contains(changed, true), skip, nil
}

// improveR, with reconfiguration at checkpoints, takes in every up state
// U(a, s) the better of starting the segment (at its current interval)
// and reconfiguring onto each allowed a' ≠ a, a' ≤ a + s (the bracket of
// X(a, a + s) under a'), keeping the current action unless another beats
// it by more than TieTol·(|bracket| + |g|τ). It reports whether an action
// changed. The brackets of reconfiguring are xv's (of v).
func (sv *Solver) improveR(v *values, pol *Policy, xv *xValues) (bool, error) {
	if pol.reconf == nil {
		return false, nil
	}
	changed := false
	sc := new(rowScratch)
	for b, a := range sv.acts {
		s0, _ := sv.spares(a)
		pi := sv.pa(b)
		for k, cur := range pol.reconf[b] {
			n := a + s0 + k
			run, err := sv.runValue(sc, v, b, k, pol.interval[b][k])
			if err != nil {
				return false, err
			}
			value := func(c int) float64 {
				if c == 0 {
					return run
				}
				return xv.at(pi, n, c)
			}
			vc := value(cur)
			tau := sv.upTau(b, pol.interval[b][k])
			if cur != 0 {
				tau = sv.tauX(pi, n, cur)
			}
			scale := math.Abs(vc) + math.Abs(v.g)*tau
			best, vb := cur, vc
			try := func(c int) {
				if c == cur || c == a || c > n || c != 0 && zeroCycleGuard && sv.closesZeroCycle(pol, a, n, c) || !xv.mayBeat(pi, n, c, vb) {
					return
				}
				if vx := value(c); vx > vb {
					best, vb = c, vx
				}
			}
			try(0)
			for _, c := range sv.acts {
				try(c)
			}
			if best != cur && vb > vc+sv.set.TieTol*scale {
				pol.reconf[b][k] = best
				changed = true
			}
		}
	}
	return changed, nil
}

// zeroCycleGuard turns closesZeroCycle on; the tests turn it off to show
// that their scenarios need it (TestZeroCostsSolve).
var zeroCycleGuard = true

// closesZeroCycle reports whether U(a, n − a) reconfiguring onto c
// would close a cycle of reconfigurations that take no time under pol:
// with R(a, c) + L(c) = 0 (zero costs in the scenario) the reconfiguration
// lasts zero seconds, does no work and leads to U(c, n − c) with
// probability one, so a cycle of them is a recurrent class of zero
// duration, whose g = Σ π w / Σ π τ is 0/0 (a singular evaluation
// system). Such a cycle is never better than running: its members'
// brackets are all equal (h of the cycle) and reach no running state,
// so improveR can only pick it on rounding noise between tied brackets
// and refuses it instead. The walk follows pol's current choices (those
// improveR already changed in this pass included), at most once per
// configuration.
func (sv *Solver) closesZeroCycle(pol *Policy, a, n, c int) bool {
	from, to := a, c
	for range sv.acts {
		if !sv.zeroReconf(from, to) {
			return false
		}
		if to == a {
			return true
		}
		next := pol.Reconfigure(to, n-to)
		if next == 0 {
			return false
		}
		from, to = to, next
	}
	return false
}

// zeroReconf reports whether reconfiguring from a onto c takes no time:
// its recovery R(a, c) and latency L(c) are both zero.
func (sv *Solver) zeroReconf(a, c int) bool {
	app := &sv.sc.Application
	return app.Recovery.Cost(a, c)+app.Latency[c-1] == 0
}

// upTau is the expected sojourn of an up segment of configuration b at
// interval I.
func (sv *Solver) upTau(b int, interval float64) float64 {
	a := sv.acts[b]
	rho := float64(a) * sv.lambda
	return -math.Expm1(-rho*(interval+sv.sc.Application.Latency[a-1])) / rho
}

// iterate runs policy iteration from pol (which it modifies): improvement
// of the actions in X and, with reconfiguration at checkpoints, of the
// choice in U between running and reconfiguring, and of the intervals too
// when perState. It returns the values of the final policy.
func (sv *Solver) iterate(ctx context.Context, pol *Policy, perState bool) (*values, Status, int, error) {
	// The chain of up phases has no up states: its per-state optimum
	// takes the intervals in closed form (PerState), not by search.
	perState = perState && !sv.phase
	var prev float64
	var skipped [][]bool // the up states whose interval search improveU skipped last
	for it := 0; ; it++ {
		v, err := sv.evaluate(ctx, pol, true)
		if err != nil {
			return nil, NotSolved, it, err
		}
		xv := sv.newXValues(v) // the values of X's actions at v, for this pass's tests and improvements
		if it > 0 && perState && v.g-prev <= sv.set.RelTol*math.Abs(v.g) && !sv.wouldChangeX(ctx, v, pol, xv) && !sv.staleMayRun(v, pol, skipped, xv) {
			return v, Converged, it, nil
		}
		if it >= sv.set.MaxIter {
			return v, IterationLimit, it, nil
		}
		prev = v.g
		cx, err := sv.improveX(ctx, v, pol, xv)
		if err != nil {
			return nil, NotSolved, it, err
		}
		if sv.phase && sv.byOld && !cx {
			// The recurrent checkpoint counts are settled: improve every
			// state (improvePhase, the full pass).
			if cx, err = sv.improvePhaseAll(ctx, v, pol); err != nil {
				return nil, NotSolved, it, err
			}
		}
		cu := false
		if perState {
			if cu, skipped, err = sv.improveU(ctx, v, pol, xv); err != nil {
				return nil, NotSolved, it, err
			}
		}
		cr, err := sv.improveR(v, pol, xv)
		if err != nil {
			return nil, NotSolved, it, err
		}
		if !cx && !cu && !cr {
			return v, Converged, it, nil
		}
	}
}

// wouldChangeX reports whether improvement would change an action in X
// (or, with reconfiguration at checkpoints, a choice in U), xv the
// values of v's actions (newXValues).
func (sv *Solver) wouldChangeX(ctx context.Context, v *values, pol *Policy, xv *xValues) bool {
	c := sv.clone(pol)
	if cx, err := sv.improveX(ctx, v, c, xv); err != nil || cx {
		return true
	}
	if sv.phase && sv.byOld {
		if cx, err := sv.improvePhaseAll(ctx, v, c); err != nil || cx {
			return true
		}
	}
	cr, err := sv.improveR(v, c, xv)
	return err == nil && cr
}
