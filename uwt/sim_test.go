package uwt

import (
	"context"
	"maps"
	"slices"
	"testing"

	"github.com/ckpt-markov/markov/scenario"
	"github.com/ckpt-markov/markov/sim"
)

// The exact UWT lies in the 99 % confidence interval of an event-by-event
// Monte Carlo simulation of the process of the specification, section 3
// (package sim: one clock per processor in law, deterministic segment
// lengths), run until the interval's half-width is under 0.5 % of UWT.
// The scenarios cover greedy, PB, moldable and explicit vectors, C < L,
// vector and matrix recovery costs, and N from 1 to 16.
func TestMatchesSimulation(t *testing.T) {
	if testing.Short() {
		t.Skip("simulation cross-check skipped in -short mode")
	}
	scs := testScenarios(t)
	one := scenario.System{Processors: 1, MTTF: 3600, MTTR: 600}
	scs["one processor"] = mustScenario(t, one, constApp(1, 1, 60.6, 30, 30), scenario.Policy{})
	four := scenario.System{Processors: 4, MTTF: 6 * 3600, MTTR: 2 * 3600}
	scs["explicit N=4 with waits"] = mustScenario(t, four, constApp(4, 1, 120, 60, 45),
		scenario.Policy{Kind: scenario.Explicit, Explicit: []int{0, 2, 3, 3}})
	// r(N) = 0: the application starts down and never uses all processors.
	scs["explicit r(N)=0"] = mustScenario(t, four, constApp(4, 1, 120, 60, 45),
		scenario.Policy{Kind: scenario.Explicit, Explicit: []int{1, 2, 3, 0}})
	if len(scs) < 10 {
		t.Fatalf("only %d scenarios", len(scs))
	}
	// Fixed scenario order and sequential seeds make the test reproducible
	// (map order would pair seeds with scenarios differently on each run).
	// With 24 independent checks at 99 %, about one seed sequence in five
	// would show a miss by chance; the seeds are 2, 3, ... in name order,
	// not chosen.
	names := slices.Sorted(maps.Keys(scs))
	seed := uint64(1)
	for _, name := range names {
		sc := scs[name]
		for _, interval := range []float64{1800, 3 * 3600} {
			exact := evaluate(t, sc, &Settings{Exact: true}, interval)
			seed++
			res, err := sim.Run(context.Background(), sc, interval, &sim.Settings{
				Seed: seed, RelTol: 0.005, Confidence: 0.99,
			})
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if res.UWT.HalfWidth > 0.005*res.UWT.Mean {
				t.Errorf("%s, I=%v: half-width %v is over 0.5 %% of %v (status %v)", name, interval, res.UWT.HalfWidth, res.UWT.Mean, res.Status)
			}
			if !res.UWT.Contains(exact.UWT) {
				t.Errorf("%s, I=%v: exact UWT %.6g outside the simulation's 99 %% interval %.6g ± %.3g",
					name, interval, exact.UWT, res.UWT.Mean, res.UWT.HalfWidth)
			}
		}
	}
}
