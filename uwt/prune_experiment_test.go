package uwt

import (
	"math"
	"testing"
)

// TestPruneExperiment prints, for each pruning threshold, the largest
// relative change of UWT over the test scenarios and the states pruned:
// the experiment behind DefaultPrune. Run with -v -run PruneExperiment.
func TestPruneExperiment(t *testing.T) {
	if !testing.Verbose() {
		t.Skip("prints the pruning experiment; run with -v")
	}
	scs := testScenarios(t)
	for _, eps := range []float64{1e-4, 1e-6, 1e-8, 1e-10, 1e-12, 1e-14, 1e-16} {
		worst, pruned, total := 0.0, 0, 0
		for _, sc := range scs {
			for _, interval := range []float64{600, 3600, 4 * 3600} {
				full := evaluate(t, sc, &Settings{Exact: true, Prune: -1}, interval)
				p := evaluate(t, sc, &Settings{Exact: true, Prune: eps}, interval)
				worst = math.Max(worst, math.Abs(p.UWT-full.UWT)/full.UWT)
				pruned += p.Pruned
				total += full.States
			}
		}
		t.Logf("prune %-6g  max rel UWT change %.2e  states pruned %d of %d", eps, worst, pruned, total)
	}
}
