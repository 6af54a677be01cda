package sim_test

import (
	"testing"

	"github.com/ckpt-markov/markov/scenario"
)

// TestLevelsReconfigureSeverity2: with reconfiguration at top-level
// checkpoints and three levels with processor failures of severity 2
// (f₂ > 0: a processor failure restores the newest level-2 checkpoint
// onto r(n') inside the period), under greedy and pb, the exact model
// (package multilevel's chain with reconfiguration and positions, an
// independent computation) lies within the simulation's 99.9 %
// confidence interval; the simulation rejects both the positional model
// without reconfiguration and the model at a neighbouring interval. The
// last case has a top-level recovery that depends heavily on the count
// that wrote the checkpoint (100 + 300p s) and mostly severity 2: the
// simulation restores the level-3 checkpoint at the cost of the count
// that wrote it, not of the newest checkpoint, and the model priced from
// the count after the level-2 restore instead (a mutation) falls outside
// this interval (1.75450 against 1.75075 ± 0.00334).
func TestLevelsReconfigureSeverity2(t *testing.T) {
	if testing.Short() {
		t.Skip("simulation: skipped in -short")
	}
	pb := scenario.Policy{Kind: scenario.PerformanceBased}
	reconfigureCases(t, []reconfCase{
		{6, 2e4, []float64{0.4, 0.4, 0.2}, []int{2, 3}, 300, scenario.Policy{}, 200, 0},
		{8, 3e4, []float64{0.3, 0.5, 0.2}, []int{1, 2}, 300, pb, 200, 0},
		{6, 1.5e4, []float64{0.2, 0.6, 0.2}, []int{2, 2}, 300, scenario.Policy{}, 200, 300},
	}, 29)
}
