package evaluate

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/ckpt-markov/markov/optimal"
	"github.com/ckpt-markov/markov/reschedule"
	"github.com/ckpt-markov/markov/scenario"
	"github.com/ckpt-markov/markov/trace"
)

// checkPolicy rejects a policy evaluate cannot run: an unknown kind.
func checkPolicy(p scenario.Policy) error {
	switch p.Kind {
	case scenario.Greedy, scenario.PerformanceBased, scenario.Moldable, scenario.Explicit, scenario.AvailabilityBased, scenario.Optimal, scenario.Table:
		return nil
	}
	return fmt.Errorf("evaluate: policy kind %d is not a known policy", int(p.Kind))
}

// fits returns the error of a policy that does not fit app's processor
// count (a moldable count, a vector or a decision table of another N),
// before any segment runs; a policy resolved or solved for each segment
// fits by construction. A decision table that depends on the checkpoint
// count p fits too (Rule, not Vector: it is replayed as a table).
func fits(p scenario.Policy, app scenario.Application) error {
	if p.Unsolved() || p.Kind == scenario.AvailabilityBased && p.Explicit == nil && p.Table == nil {
		return nil
	}
	_, err := p.Rule(scenario.PolicyInputs{N: app.N(), WorkRate: app.WorkRate})
	return err
}

// perConfiguration is the optimal policy's level 3 (docs/optimal-policy.md
// section 4): one interval per processor count, I(a), to replay; mean is
// their stationary-weighted mean and uwt the model's UWT of the policy.
type perConfiguration struct {
	intervals func(a, s int) float64
	// reconf, with reconfiguration at checkpoints, is the policy's choice
	// in each up state (sim.Decisions.Reconfigure).
	reconf    func(a, s int) int
	mean, uwt float64
}

// solveOptimal solves the optimal policy (optimal.Solve, level 3: one
// interval per configuration, by coordinate ascent started at level 2's
// I*; starting from level 4 as the specification suggests would cost a
// per-state policy iteration per segment; level 2, one interval, with
// failure events, the only level solved there) on the system, the
// application and the reconfiguration rule rc. It returns the scenario of
// p resolved to its vector (or decision table) and its intervals.
func solveOptimal(ctx context.Context, sys scenario.System, app scenario.Application, rc scenario.Reconfigure, p scenario.Policy) (*scenario.Scenario, *perConfiguration, error) {
	level := 3
	if !sys.FailureEvents.Single() {
		level = 2
	}
	sol, err := optimal.Solve(ctx, sys, app, &optimal.Options{Level: level, Reconfigure: rc, Settings: &optimal.Settings{Workers: 1}})
	if err != nil {
		return nil, nil, err
	}
	if sol.Status == optimal.NoUsefulWork {
		return nil, nil, fmt.Errorf("evaluate: policy optimal: no policy does useful work on this segment's system (MTTF %g s)", sys.MTTF)
	}
	// The actions after an interruption as a decision table (a vector
	// unless they depend on the checkpoint count p); with reconfiguration
	// at checkpoints the up states' own choices are replayed below.
	table := sol.DecisionTable
	if rc == scenario.AtCheckpoint {
		table = sol.Policy.RecoveryTable
	}
	t, err := table()
	if err != nil {
		return nil, nil, fmt.Errorf("evaluate: policy optimal: %w", err)
	}
	out, err := scenario.New(sys, app, p.ResolvedTable(t))
	if err != nil {
		return nil, nil, err
	}
	out.Reconfigure = rc
	pc := &perConfiguration{uwt: sol.UWT, mean: sol.Interval}
	if rc == scenario.AtCheckpoint {
		// The up states' own choices, which the vector need not express.
		pc.reconf = sol.Policy.SegmentReconfigure
	}
	pol := sol.Policy
	if sol.Events != nil {
		// With failure events only level 2 is solved: one interval.
		pc.intervals = func(int, int) float64 { return sol.Interval }
		return out, pc, nil
	}
	pc.intervals = func(a, s int) float64 {
		if iv := pol.SegmentInterval(a, s); iv > 0 {
			return iv
		}
		// A count without up states in the solver's window (its vector
		// never runs one).
		return pc.mean
	}
	return out, pc, nil
}

// segmentScenario builds the scenario of policy p on the sub-trace tr for a
// segment starting at t0: N = tr.NumNodes() processors with the estimated
// MTTF and MTTR. An availability-based policy is resolved from the failure
// instants of each node in the history [from, t0), with random picks from
// rng; an optimal policy without its vector is solved (solveOptimal) from
// the estimated rates, and its intervals I(a) are returned for the replay
// (nil for every other policy).
func segmentScenario(ctx context.Context, p scenario.Policy, rc scenario.Reconfigure, tr *trace.Trace, app scenario.Application, mttf, mttr, from, t0 float64, rng *rand.Rand) (*scenario.Scenario, *perConfiguration, error) {
	sys := scenario.System{Processors: tr.NumNodes(), MTTF: mttf, MTTR: mttr}
	if p.Unsolved() {
		return solveOptimal(ctx, sys, app, rc, p)
	}
	in := scenario.PolicyInputs{N: tr.NumNodes(), WorkRate: app.WorkRate}
	if p.Kind == scenario.AvailabilityBased && p.Explicit == nil {
		in.Failures = make([][]float64, tr.NumNodes())
		for i := range in.Failures {
			in.Failures[i] = nodeFailures(tr.Node(i), from, t0, nil)
		}
		in.Availability = &reschedule.AvailabilitySettings{Rand: rng}
	}
	if p.Kind == scenario.Table || p.Table != nil {
		// A decision table is replayed as given.
		sc, err := scenario.New(sys, app, p)
		if err != nil {
			return nil, nil, err
		}
		sc.Reconfigure = rc
		return sc, nil, nil
	}
	v, err := p.Vector(in)
	if err != nil {
		return nil, nil, err
	}
	sc, err := scenario.New(sys, app, p.Resolved(v))
	if err != nil {
		return nil, nil, err
	}
	sc.Reconfigure = rc
	return sc, nil, nil
}
