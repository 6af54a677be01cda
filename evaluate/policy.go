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
	case scenario.Greedy, scenario.PerformanceBased, scenario.Moldable, scenario.Explicit, scenario.AvailabilityBased, scenario.Optimal:
		return nil
	}
	return fmt.Errorf("evaluate: policy kind %d is not a known policy", int(p.Kind))
}

// segmentScenario builds the scenario of policy p on the sub-trace tr for a
// segment starting at t0: N = tr.NumNodes() processors with the estimated
// MTTF and MTTR. An availability-based policy is resolved from the failure
// instants of each node in the history [from, t0), with random picks from
// rng; an optimal policy without its vector is solved (package optimal,
// level 2: the best vector with one interval) from the estimated rates.
func segmentScenario(ctx context.Context, p scenario.Policy, tr *trace.Trace, app scenario.Application, mttf, mttr, from, t0 float64, rng *rand.Rand) (*scenario.Scenario, error) {
	sys := scenario.System{Processors: tr.NumNodes(), MTTF: mttf, MTTR: mttr}
	if p.Kind == scenario.Optimal && p.Explicit == nil {
		base, err := scenario.New(sys, app, scenario.Policy{Kind: scenario.Greedy})
		if err != nil {
			return nil, err
		}
		sv, err := optimal.New(base, &optimal.Settings{Workers: 1})
		if err != nil {
			return nil, err
		}
		one, err := sv.SingleInterval(ctx, 0)
		if err != nil {
			return nil, err
		}
		v, err := one.Policy.Vector()
		if err != nil {
			return nil, fmt.Errorf("evaluate: policy optimal: %w", err)
		}
		return scenario.New(sys, app, p.Resolved(v))
	}
	in := scenario.PolicyInputs{N: tr.NumNodes(), WorkRate: app.WorkRate}
	if p.Kind == scenario.AvailabilityBased && p.Explicit == nil {
		in.Failures = make([][]float64, tr.NumNodes())
		for i := range in.Failures {
			in.Failures[i] = nodeFailures(tr.Node(i), from, t0, nil)
		}
		in.Availability = &reschedule.AvailabilitySettings{Rand: rng}
	}
	v, err := p.Vector(in)
	if err != nil {
		return nil, err
	}
	return scenario.New(sys, app, p.Resolved(v))
}
