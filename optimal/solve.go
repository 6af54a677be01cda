package optimal

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/ckpt-markov/markov/reschedule"
	"github.com/ckpt-markov/markov/scenario"
	"github.com/ckpt-markov/markov/uwt"
)

// Options configures Solve. A nil *Options means level 2 with the
// default Settings and no reconfiguration.
type Options struct {
	// Interval > 0 solves at that interval, in every up state: g*(I).
	// Zero searches it: level 2 (one interval I*), or level 3 or 4.
	Interval float64
	// Level is 2 (one interval for every configuration, the default), 3
	// (one per configuration) or 4 (one per up state). It is ignored
	// when Interval > 0.
	Level int
	// Reconfigure is the reconfiguration rule (scenario.Never by default).
	Reconfigure scenario.Reconfigure
	// Settings configures the solver (nil: defaults).
	Settings *Settings
	// AllLevels computes the four levels of docs/optimal-policy.md
	// section 4 (Solver.Levels) into Solution.Levels, with the hand-made
	// policies Compare at their own best intervals; Result is then level
	// 2's. It needs Interval = 0 and ignores Level.
	AllLevels bool
	Compare   []scenario.Policy
	// Highest takes Level, or AllLevels, as the highest level wanted:
	// with failure events, where only level 2 exists, Solve then solves
	// level 2 instead of failing (Solution.Level says which was solved).
	Highest bool
	// Refine > 0 restricts the processor counts first, for large N:
	// Settings.Candidates are those of Refine with this step (1..N), the
	// coarse-to-fine search. It is an error with Settings.Candidates and
	// with failure events (whose solver considers every count).
	Refine int
}

// Solution is the optimal policy of a system and an application.
type Solution struct {
	// Result is the policy with its UWT, status and stationary masses.
	Result
	// Interval is the interval of the policy: the one asked for, or I*
	// of level 2; for levels 3 and 4 the stationary-weighted mean of the
	// intervals (Intervals gives each).
	Interval float64
	// IntervalStatus tells whether level 2's I* lies at a bound of the
	// search (uwt.AtMin, uwt.AtMax); uwt.Converged otherwise, and for a
	// fixed interval.
	IntervalStatus uwt.Status
	// Single is level 2, from which levels 3 and 4 start (zero with a
	// fixed interval).
	Single Single
	// Levels holds the four levels and the hand-made policies when
	// Options.AllLevels asked for them (zero otherwise).
	Levels Report
	// Level is the level solved (2, 3 or 4; 2 with Options.AllLevels),
	// or 0 for a fixed interval.
	Level int
	// Solver is the decision process solved; nil with failure events.
	Solver *Solver
	// Events is the policy of a system with failure events
	// (system.failure_events not single): level 2 or g*(I) of
	// SingleIntervalEvents or FixedIntervalEvents, its decision table
	// in Events.Table (nil when Status is NoUsefulWork: nothing was
	// solved). Result then holds its Status, UWT and Iterations
	// only (Result.Policy is nil), and Single and Levels are zero. Nil
	// without failure events.
	Events *EventsResult
	// sc is the scenario the solver takes (solverScenario); its policy
	// is not the solution's.
	sc *scenario.Scenario
}

// Solve computes the optimal rescheduling policy and its intervals for
// the system and the application: the one library entry point that the
// CLI, package evaluate and package sweep call. No policy is given: the
// solver considers every action (docs/optimal-policy.md).
//
// With failure events (system.failure_events not single) Solve runs the
// solver of the batch model (FixedIntervalEvents, SingleIntervalEvents)
// into Solution.Events: only level 2 and g*(I) exist there, on at most
// MaxEventsChainProcessors processors (MaxEventsProcessors when the
// recovery cost depends on the old count), without reconfiguration at checkpoints
// and without Settings.Candidates; Options.Level 3 or 4 and
// Options.AllLevels are errors, unless Options.Highest asks for level 2
// in their place.
func Solve(ctx context.Context, sys scenario.System, app scenario.Application, opt *Options) (Solution, error) {
	var o Options
	if opt != nil {
		o = *opt
	}
	if o.Level == 0 {
		o.Level = 2
	}
	if o.Level < 2 || o.Level > 4 {
		return Solution{}, fmt.Errorf("optimal: Options.Level = %d, want 2, 3 or 4", o.Level)
	}
	if o.AllLevels && o.Interval > 0 {
		return Solution{}, fmt.Errorf("optimal: Options.AllLevels with Options.Interval = %v: the levels search their intervals", o.Interval)
	}
	if len(o.Compare) > 0 && !o.AllLevels {
		return Solution{}, fmt.Errorf("optimal: Options.Compare without Options.AllLevels")
	}
	sc, err := solverScenario(sys, app, o.Reconfigure)
	if err != nil {
		return Solution{}, err
	}
	if o.Refine < 0 || o.Refine > sys.Processors {
		return Solution{}, fmt.Errorf("optimal: Options.Refine = %d, want a step in 1..%d (N), or 0", o.Refine, sys.Processors)
	}
	if !sys.FailureEvents.Single() {
		return solveEvents(ctx, sc, o)
	}
	if o.Settings, err = o.refined(ctx, sc); err != nil {
		return Solution{}, err
	}
	sv, err := New(sc, o.Settings)
	if err != nil {
		return Solution{}, err
	}
	out := Solution{Solver: sv, IntervalStatus: uwt.Converged, Level: o.Level, sc: sc}
	if o.AllLevels {
		out.Level = 2
		if out.Levels, err = sv.Levels(ctx, o.Compare); err != nil {
			return Solution{}, err
		}
		out.Single = out.Levels.Single
		out.Result, out.Interval, out.IntervalStatus = out.Single.Result, out.Single.Interval, out.Single.IntervalStatus
		return out, nil
	}
	if o.Interval > 0 {
		out.Result, err = sv.FixedInterval(ctx, o.Interval)
		out.Interval, out.Level = o.Interval, 0
		return out, err
	}
	if out.Single, err = sv.SingleInterval(ctx, 0); err != nil {
		return Solution{}, err
	}
	out.IntervalStatus = out.Single.IntervalStatus
	switch o.Level {
	case 2:
		out.Result, out.Interval = out.Single.Result, out.Single.Interval
		return out, nil
	case 3:
		// Level 3 from level 2 (docs/optimal-policy.md section 4; starting
		// from level 4 would cost a per-state policy iteration).
		c, err := sv.PerConfiguration(ctx, out.Single, out.Single.Result)
		if err != nil {
			return Solution{}, err
		}
		out.Result = c.Result
	default:
		if out.Result, err = sv.PerState(ctx, out.Single.Policy); err != nil {
			return Solution{}, err
		}
	}
	out.Interval = out.meanInterval()
	return out, nil
}

// solverScenario returns the scenario that New (and Refine) take for the
// system and the application. New ignores its policy and considers every
// action; the policy must only be valid, so that the scenario validates,
// for every application that can do work. It is performance-based
// (r(n) = argmax_{a ≤ n} ω(a)), which runs only on counts with a positive
// work rate: greedy, r(n) = n, would refuse an application with some
// ω(a) = 0, which the solver handles (it never chooses such a count).
func solverScenario(sys scenario.System, app scenario.Application, rc scenario.Reconfigure) (*scenario.Scenario, error) {
	sc, err := scenario.New(sys, app, scenario.Policy{Kind: scenario.PerformanceBased})
	if err != nil {
		return nil, err
	}
	sc.Reconfigure = rc
	return sc, nil
}

// refined returns the settings with the candidates of Refine when
// Options.Refine asks for them, else Options.Settings.
func (o *Options) refined(ctx context.Context, sc *scenario.Scenario) (*Settings, error) {
	if o.Refine == 0 {
		return o.Settings, nil
	}
	var set Settings
	if o.Settings != nil {
		set = *o.Settings
	}
	if set.Candidates != nil {
		return nil, errors.New("optimal: Options.Refine with Settings.Candidates: give one restriction of the processor counts")
	}
	c, err := Refine(ctx, sc, &set, o.Refine)
	if err != nil {
		return nil, err
	}
	set.Candidates = c
	return &set, nil
}

// solveEvents is Solve with failure events: level 2 or g*(I) of the batch
// model's solver.
func solveEvents(ctx context.Context, sc *scenario.Scenario, o Options) (Solution, error) {
	if o.Highest && o.Interval == 0 {
		o.AllLevels, o.Compare, o.Level = false, nil, 2
	}
	switch {
	case o.AllLevels:
		return Solution{}, errors.New("optimal: Options.AllLevels with system.failure_events: only level 2 (one interval) is solved with failure events")
	case o.Interval == 0 && o.Level != 2:
		return Solution{}, fmt.Errorf("optimal: Options.Level = %d with system.failure_events: only level 2 (one interval) is solved with failure events", o.Level)
	case sc.Reconfigure == scenario.AtCheckpoint:
		return Solution{}, errors.New("optimal: reconfigure: at-checkpoint with system.failure_events: the solver with failure events does not model reconfiguration at checkpoints")
	case o.Settings != nil && o.Settings.Candidates != nil:
		return Solution{}, errors.New("optimal: Settings.Candidates with system.failure_events: the solver with failure events considers every processor count")
	case o.Refine > 0:
		return Solution{}, errors.New("optimal: Options.Refine with system.failure_events: the solver with failure events considers every processor count")
	}
	var (
		r   EventsResult
		err error
	)
	if o.Interval > 0 {
		r, err = FixedIntervalEvents(ctx, sc.System, sc.Application, o.Interval, o.Settings)
	} else {
		r, err = SingleIntervalEvents(ctx, sc.System, sc.Application, o.Settings)
	}
	if err != nil {
		return Solution{}, err
	}
	level := 2
	if o.Interval > 0 {
		level = 0
	}
	return Solution{
		Result:   Result{Status: r.Status, UWT: r.UWT, Iterations: r.Iterations},
		Interval: r.Interval, IntervalStatus: r.IntervalStatus, Level: level, Events: &r, sc: sc,
	}, nil
}

// DecisionTable returns the action in each decision state X(p, n), n =
// 1..N, of the solution's policy: Events.Table with failure events, else
// Policy.Table.
func (s *Solution) DecisionTable() (*reschedule.Table, error) {
	if s.Events != nil {
		if s.Events.Table == nil {
			return nil, errors.New("optimal: no policy does useful work (Status NoUsefulWork): no decision table")
		}
		return s.Events.Table, nil
	}
	return s.Policy.Table()
}

// meanInterval is the stationary-weighted mean of the intervals, summed
// in increasing order of count (a sum in the map's order would change its
// last bits from run to run).
func (s *Solution) meanInterval() float64 {
	iv, tot := 0.0, 0.0
	for _, a := range slices.Sorted(maps.Keys(s.MeanInterval)) {
		iv += s.Mass[a] * s.MeanInterval[a]
		tot += s.Mass[a]
	}
	if tot == 0 {
		return s.Single.Interval
	}
	return iv / tot
}

// Scenario returns the scenario of the solution's policy: the system and
// application solved, its reconfiguration rule, and the policy
// scenario.Policy{Kind: Optimal} resolved to its vector. It returns an
// error when the policy is not a vector (Policy.Vector).
func (s *Solution) Scenario() (*scenario.Scenario, reschedule.Vector, error) {
	var (
		v   reschedule.Vector
		err error
	)
	if s.Events != nil {
		var t *reschedule.Table
		if t, err = s.DecisionTable(); err == nil {
			v, err = t.Vector()
		}
	} else {
		v, err = s.Policy.Vector()
	}
	if err != nil {
		return nil, nil, err
	}
	sc := *s.sc
	sc.Policy, sc.Reschedule = scenario.Policy{Kind: scenario.Optimal}.Resolved(v), v
	return &sc, v, nil
}
