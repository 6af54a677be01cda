package sim_test

import (
	"testing"

	"github.com/ckpt-markov/markov/scenario"
)

// TestLevelsIntermediateEventsAgainstModel: with three levels under
// greedy and pb, processor failures of severity 2 and failure events of
// several processors (docs/model.md section 12, "Processor failures
// inside the period", with failure events), the exact positional model
// (package multilevel: each stretch on batchchain's spare chain, an
// independent computation) lies within the simulation's 99.9 %
// confidence interval, and the interval rejects the model that ignores
// the event sizes (the same scenario with single failures at the same
// MTTF): power.
func TestLevelsIntermediateEventsAgainstModel(t *testing.T) {
	if testing.Short() {
		t.Skip("simulation: skipped in -short")
	}
	for _, tc := range []struct {
		n       int
		mttf    float64
		sev     []float64
		sizes   []float64
		pattern []int
		I       float64
		pol     scenario.Policy
	}{
		{6, 2e4, []float64{0.5, 0.3, 0.2}, []float64{0.3, 0.3, 0.4}, []int{3, 2}, 300, scenario.Policy{}},
		{8, 1.5e4, []float64{0.4, 0.4, 0.2}, []float64{0.5, 0, 0, 0.5}, []int{2, 3}, 400, scenario.Policy{Kind: scenario.PerformanceBased}},
	} {
		single := malleableLevelScenario(t, tc.n, tc.mttf, tc.sev, nil, tc.pattern, tc.pol)
		sc := malleableLevelScenario(t, tc.n, tc.mttf, tc.sev, &scenario.FailureEvents{Sizes: tc.sizes}, tc.pattern, tc.pol)
		var uwt [2]float64
		for i, s := range []*scenario.Scenario{sc, single} {
			r, err := malleableModel(t, s, tc.pol).Evaluate(nil, tc.I)
			if err != nil {
				t.Fatal(err)
			}
			uwt[i] = r.UWT
		}
		res := simulate999(t, sc, tc.I, 22)
		holdsRejects(t, tc.pol.String(), res, uwt[0], alternative{"the model without event sizes", uwt[1]})
	}
}
