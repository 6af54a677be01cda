package sim_test

import (
	"fmt"
	"testing"

	"github.com/ckpt-markov/markov/multilevel"
	"github.com/ckpt-markov/markov/scenario"
)

// TestLevelsReconfigureAgainstModel: with reconfiguration at top-level
// checkpoints (scenario.AtCheckpoint) under greedy and pb, with two
// levels and with three (every processor failure of the top severity),
// the exact model (package multilevel's chain with reconfiguration, an
// independent computation) lies within the simulation's 99.9 %
// confidence interval; and the simulation has the power to reject both
// the model without reconfiguration and the model at a neighbouring
// interval. The last case has a top-level recovery that depends on the
// count that wrote the checkpoint, with crashes.
func TestLevelsReconfigureAgainstModel(t *testing.T) {
	if testing.Short() {
		t.Skip("simulation: skipped in -short")
	}
	pb := scenario.Policy{Kind: scenario.PerformanceBased}
	reconfigureCases(t, []reconfCase{
		{6, 2e4, []float64{0.7, 0.3}, []int{3}, 300, scenario.Policy{}, 200, 0},
		{8, 3e4, []float64{0.8, 0.2}, []int{4}, 250, pb, 150, 0},
		{6, 2e4, []float64{0.6, 0, 0.4}, []int{3, 2}, 300, scenario.Policy{}, 200, 0},
		{8, 3e4, []float64{0.5, 0, 0.5}, []int{2, 1}, 300, pb, 200, 0},
		{6, 1.5e4, []float64{0.6, 0.4}, []int{2}, 300, scenario.Policy{}, 200, 40},
	}, 23)
}

// reconfCase is a scenario of reconfigureAgainstModel: n processors
// under pol with MTTF mttf, severity shares sev and pattern v (two levels
// for one entry, twoLevelScenario; three for two, threeLevelScenario),
// simulated at interval I, the model at otherI to be rejected. With
// byOld > 0 the top level's recovery is 100 + byOld·p s, p the count
// that wrote the checkpoint.
type reconfCase struct {
	n      int
	mttf   float64
	sev    []float64
	v      []int
	I      float64
	pol    scenario.Policy
	otherI float64
	byOld  float64
}

// reconfigureCases runs reconfigureAgainstModel on each case with seed.
func reconfigureCases(t *testing.T, cases []reconfCase, seed uint64) {
	t.Helper()
	for _, tc := range cases {
		var sc *scenario.Scenario
		if len(tc.v) == 1 {
			sc = twoLevelScenario(t, tc.n, tc.mttf, tc.sev, tc.v[0], tc.pol)
		} else {
			sc = threeLevelScenario(t, tc.n, tc.mttf, tc.sev, tc.v, tc.pol)
		}
		if tc.byOld > 0 {
			top := len(sc.Application.Levels) - 1
			sc.Application.Levels[top].Recovery = scenario.RecoveryLinear(100, tc.byOld, 0, tc.n)
		}
		name := fmt.Sprintf("%v L=%d f=%v V=%v old=%v", tc.pol, len(sc.Application.Levels), tc.sev, tc.v, tc.byOld)
		reconfigureAgainstModel(t, name, sc, tc.I, tc.otherI, seed, tc.byOld > 0)
	}
}

// threeLevelScenario is levelScenario's application on n processors
// under pol, with MTTF mttf, MTTR 3000 s, severity shares sev and
// pattern.
func threeLevelScenario(t *testing.T, n int, mttf float64, sev []float64, pattern []int, pol scenario.Policy) *scenario.Scenario {
	t.Helper()
	base := levelScenario(t, n, n, true)
	sc, err := scenario.New(scenario.System{Processors: n, MTTF: mttf, MTTR: 3000,
		FailureSeverity: &scenario.FailureSeverity{Shares: sev}}, base.Application, pol)
	if err != nil {
		t.Fatal(err)
	}
	sc.CheckpointPattern = pattern
	return sc
}

// reconfigureAgainstModel checks sc with reconfiguration at top-level
// checkpoints at interval I: the exact model lies within the
// simulation's 99.9 % interval (seed), which rejects the model at
// otherI and, unless byOld (a recovery cost by old count, which the
// model without reconfiguration refuses with these shares), the model
// without reconfiguration.
func reconfigureAgainstModel(t *testing.T, name string, sc *scenario.Scenario, I, otherI float64, seed uint64, byOld bool) {
	t.Helper()
	never := *sc // Reconfigure: never
	sc.Reconfigure = scenario.AtCheckpoint
	m, err := multilevel.New(sc)
	if err != nil {
		t.Fatal(err)
	}
	model, err := m.Evaluate(nil, I)
	if err != nil {
		t.Fatal(err)
	}
	res := simulate999(t, sc, I, seed)
	other, err := m.Evaluate(nil, otherI)
	if err != nil {
		t.Fatal(err)
	}
	alts := []alternative{{fmt.Sprintf("the model at I = %g", otherI), other.UWT}}
	if !byOld {
		mn, err := multilevel.New(&never)
		if err != nil {
			t.Fatal(err)
		}
		without, err := mn.Evaluate(nil, I)
		if err != nil {
			t.Fatal(err)
		}
		alts = append(alts, alternative{"the model without reconfiguration", without.UWT})
	}
	holdsRejects(t, name, res, model.UWT, alts...)
}
