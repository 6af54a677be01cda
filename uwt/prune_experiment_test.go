package uwt

import (
	"math"
	"testing"
)

// TestPruneExperiment is the experiment behind DefaultPrune, as a test:
// over the test scenarios (seven, three intervals each), the largest
// relative change of UWT that pruning at threshold ε causes stays below
// 2ε, and pruning removes states only at coarse thresholds. Measured
// (go test ./uwt -run PruneExperiment -v): 6.19e-5 at ε = 1e-4, 5.15e-7
// at 1e-6, 1.14e-8 at 1e-8, 6.38e-11 at 1e-10 and 3.30e-13 at 1e-12, that
// is 0.33ε to 1.14ε; 115 of 1662 states pruned at 1e-4, 4 at 1e-6, none
// below. Result.Dropped, the stationary mass of the pruned transitions,
// does not bound the change (their ratio reached 64 at ε = 1e-8), so the
// test bounds the change by ε.
func TestPruneExperiment(t *testing.T) {
	scs := testScenarios(t)
	for _, eps := range []float64{1e-4, 1e-6, 1e-8, 1e-10, 1e-12} {
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
		if worst > 2*eps {
			t.Errorf("prune %g: largest relative change of UWT %.3g > 2ε", eps, worst)
		}
		if (eps >= 1e-4 && pruned == 0) || (eps <= 1e-8 && pruned > 0) {
			t.Errorf("prune %g: %d of %d states pruned, want some at ε ≥ 1e-4 and none at ε ≤ 1e-8", eps, pruned, total)
		}
	}
}
