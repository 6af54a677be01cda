package optimal

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/ckpt-markov/markov/reschedule"
	"github.com/ckpt-markov/markov/scenario"
	"github.com/ckpt-markov/markov/uwt"
)

// eventsModel is a decision process of a system with failure events that
// policy iteration (solveEventsAt) solves: the dense process on X(p, n)
// (eventsProcess) or the chain of up phases on X(n) (eventsChain).
type eventsModel interface {
	// setInterval sets the checkpoint interval of the rows.
	setInterval(interval float64)
	// states is the number of decision states, ref the one whose h is 0.
	states() int
	ref() int
	// start returns the actions policy iteration starts from.
	start() ([]int, error)
	// row returns the reward, sojourn and transitions (into dst, reset
	// first; its indices sorted) of state x under action a.
	row(x, a int, dst *sparseRow) (w, tau float64, err error)
	// improve replaces each act[x] by an action of larger value
	// w − g·τ + Σ P·h by more than Settings.TieTol (relative), the
	// smallest such action of largest value, and reports a change.
	improve(act []int, g float64, h []float64, set Settings) (bool, error)
	// table returns the policy act as a decision table on 1..N.
	table(act []int) (*reschedule.Table, error)
}

// debugDenseEvents makes newEventsModel take the dense process whatever
// the recovery cost: the tests' oracle for the chain of up phases.
var debugDenseEvents = false

// newEventsModel returns the decision process of the scenario with
// failure events: the chain of up phases on X(n) (eventsChain) unless
// the recovery cost depends on the old count, which needs the states
// X(p, n) of the dense process (eventsProcess, N ≤ MaxEventsProcessors).
func newEventsModel(ctx context.Context, sys scenario.System, app scenario.Application, set Settings) (eventsModel, error) {
	if app.Recovery.DependsOnOld() || debugDenseEvents {
		return newEventsProcess(ctx, sys, app)
	}
	return newEventsChain(ctx, sys, app, set)
}

// solveEventsAt runs policy iteration on m at the interval from m's
// start: evaluation (evaluateEvents), then improvement, until no
// action changes or Settings.MaxIter improvements.
func solveEventsAt(m eventsModel, set Settings, interval float64) (EventsResult, error) {
	if !(interval > 0) || math.IsInf(interval, 0) {
		return EventsResult{}, fmt.Errorf("optimal: interval = %v, want a finite positive number of seconds", interval)
	}
	m.setInterval(interval)
	act, err := m.start()
	if err != nil {
		return EventsResult{}, err
	}
	res := EventsResult{Interval: interval, Status: IterationLimit, IntervalStatus: uwt.Converged}
	for it := 0; it <= set.MaxIter; it++ {
		g, h, err := evaluateEvents(m, act)
		if err != nil {
			return EventsResult{}, err
		}
		res.UWT = g
		changed, err := m.improve(act, g, h, set)
		if err != nil {
			return EventsResult{}, err
		}
		if !changed {
			res.Status = Converged
			break
		}
		res.Iterations++
	}
	t, err := m.table(act)
	if err != nil {
		return EventsResult{}, err
	}
	res.Table = t
	return res, nil
}

// evaluateEvents solves h = w − g·τ + P·h with h(ref) = 0 for the policy
// act, densely; the unknowns are h over the states and g (in h's
// reference slot).
func evaluateEvents(m eventsModel, act []int) (float64, []float64, error) {
	nx := len(act)
	ref := m.ref()
	a := mat.NewDense(nx, nx, nil)
	b := mat.NewVecDense(nx, nil)
	tr := &sparseRow{val: make([]float64, nx)}
	for x := range nx {
		w, tau, err := m.row(x, act[x], tr)
		if err != nil {
			return 0, nil, err
		}
		// Row x: h(x) − Σ P h(y) + g·τ = w, with h(ref) replaced by g.
		a.Set(x, x, a.At(x, x)+1)
		for _, y := range tr.idx {
			a.Set(x, y, a.At(x, y)-tr.val[y])
		}
		a.Set(x, ref, tau) // column ref holds g (h(ref) = 0)
		b.SetVec(x, w)
	}
	var sol mat.VecDense
	if err := sol.SolveVec(a, b); err != nil {
		return 0, nil, fmt.Errorf("optimal: the policy's evaluation system is singular (a multichain policy?): %w", err)
	}
	h := make([]float64, nx)
	for i := range h {
		h[i] = sol.AtVec(i)
	}
	g := h[ref]
	h[ref] = 0
	return g, h, nil
}

// bestAction is the choice of the improvements of eventsProcess and
// eventsChain in a state of k functional processors whose action cur has
// the value curV: the actions a = 0..k other than cur, wait and those of
// positive work rate ω(a) (work[a-1]), in increasing order, each taken
// when its value beats the best so far by more than margin. value
// returns an action's value, or false for one left out (eventsChain's
// counts skipped by their bounds).
func bestAction(cur int, curV float64, k int, work []float64, margin float64, value func(a int) (float64, bool, error)) (int, error) {
	best, arg := curV, cur
	for a := 0; a <= k; a++ {
		if a == cur || a > 0 && work[a-1] == 0 {
			continue
		}
		v, ok, err := value(a)
		if err != nil {
			return 0, err
		}
		if ok && v > best+margin {
			best, arg = v, a
		}
	}
	return arg, nil
}

// allowedCount returns the largest count a ≤ k with ω(a) > 0 (greedy),
// or 0.
func allowedCount(work []float64, k int) int {
	for a := k; a >= 1; a-- {
		if work[a-1] > 0 {
			return a
		}
	}
	return 0
}
