package evaluate

import (
	"math/rand/v2"
	"strings"

	"github.com/ckpt-markov/markov/reschedule"
	"github.com/ckpt-markov/markov/scenario"
	"github.com/ckpt-markov/markov/trace"
)

// policy is a parsed policy string: one of scenario's policies, or the
// availability-based one, whose vector comes from each segment's history.
type policy struct {
	name         string
	base         scenario.Policy
	availability bool
}

// parsePolicy reads "ab" (or "availability") or any form that
// scenario.ParsePolicy reads ("greedy", "pb", "moldable:A",
// "vector:r1,...,rN"). The empty string means "greedy".
func parsePolicy(s string) (policy, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	switch t {
	case "":
		return policy{name: "greedy", base: scenario.Policy{Kind: scenario.Greedy}}, nil
	case "ab", "availability":
		return policy{name: "ab", availability: true}, nil
	}
	p, err := scenario.ParsePolicy(s)
	if err != nil {
		return policy{}, err
	}
	return policy{name: p.String(), base: p}, nil
}

// scenario builds the scenario of the policy on the sub-trace tr for a
// segment starting at t0: N = tr.NumNodes() processors with the estimated
// MTTF and MTTR. The availability-based vector is built from the failure
// instants of each node in the history [from, t0), with random picks from
// rng.
func (p policy) scenario(tr *trace.Trace, app scenario.Application, mttf, mttr, from, t0 float64, rng *rand.Rand) (*scenario.Scenario, error) {
	sys := scenario.System{Processors: tr.NumNodes(), MTTF: mttf, MTTR: mttr}
	if !p.availability {
		return scenario.New(sys, app, p.base)
	}
	failures := make([][]float64, tr.NumNodes())
	for i := range failures {
		failures[i] = nodeFailures(tr.Node(i), from, t0, nil)
	}
	v, err := reschedule.AvailabilityBased(failures, app.WorkRate, &reschedule.AvailabilitySettings{Rand: rng})
	if err != nil {
		return nil, err
	}
	return scenario.New(sys, app, scenario.Policy{Kind: scenario.Explicit, Explicit: v})
}
