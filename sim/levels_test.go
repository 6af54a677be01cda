package sim_test

import (
	"context"
	"testing"

	"github.com/ckpt-markov/markov/multilevel"
	"github.com/ckpt-markov/markov/scenario"
	"github.com/ckpt-markov/markov/sim"
)

// levelScenario is three checkpoint levels (costs of docs/model.md
// section 12's example kind: 5, 40, 200 s) on a of n processors
// (moldable), MTTF 20000 s, MTTR 3000 s, severities 0.6, 0.3, 0.1,
// pattern [3, 2].
func levelScenario(t *testing.T, n, a int, after bool) *scenario.Scenario {
	t.Helper()
	c := func(x float64) []float64 {
		v := make([]float64, n)
		for i := range v {
			v[i] = x
		}
		return v
	}
	work := make([]float64, n)
	for i := range work {
		work[i] = float64(i + 1)
	}
	app := scenario.Application{WorkRate: work, NoCheckpointAfterRecovery: !after, Levels: []scenario.Level{
		{Latency: c(5), Overhead: c(3), Recovery: scenario.RecoveryLinear(5, 0, 0, n)},
		{Latency: c(40), Overhead: c(30), Recovery: scenario.RecoveryLinear(60, 0, 0, n)},
		{Latency: c(200), Overhead: c(150), Recovery: scenario.RecoveryLinear(300, 0, 0, n)},
	}}
	sc, err := scenario.New(scenario.System{Processors: n, MTTF: 20000, MTTR: 3000,
		FailureSeverity: &scenario.FailureSeverity{Shares: []float64{0.6, 0.3, 0.1}}},
		app, scenario.Policy{Kind: scenario.Moldable, Processors: a})
	if err != nil {
		t.Fatal(err)
	}
	sc.CheckpointPattern = []int{3, 2}
	return sc
}

// TestLevelsAgainstModel: the simulator with several checkpoint levels
// and severities agrees with the exact multi-level model (package
// multilevel, an independent computation) within its 99 % confidence
// interval, with and without the checkpoint after recovery; and it has
// the power to reject the model of a neighbouring pattern (the interval
// excludes UWT at pattern [2, 2]).
func TestLevelsAgainstModel(t *testing.T) {
	if testing.Short() {
		t.Skip("simulation: skipped in -short")
	}
	for _, after := range []bool{true, false} {
		sc := levelScenario(t, 6, 4, after)
		m, err := multilevel.New(sc)
		if err != nil {
			t.Fatal(err)
		}
		model, err := m.Evaluate(nil, 300)
		if err != nil {
			t.Fatal(err)
		}
		res, err := sim.Run(context.Background(), sc, 300, &sim.Settings{Seed: 22, RelTol: 0.002})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("after %v: model %.5f, simulation %.5f ± %.5f (%v)", after, model.UWT, res.UWT.Mean, res.UWT.HalfWidth, res.Status)
		if !res.UWT.Contains(model.UWT) {
			t.Errorf("after %v: model %.6f outside the simulation's interval %.6f ± %.6f", after, model.UWT, res.UWT.Mean, res.UWT.HalfWidth)
		}
		other, err := m.Evaluate([]int{2, 2}, 300)
		if err != nil {
			t.Fatal(err)
		}
		if res.UWT.Contains(other.UWT) {
			t.Errorf("no power: pattern [2 2]'s UWT %.6f is inside %.6f ± %.6f", other.UWT, res.UWT.Mean, res.UWT.HalfWidth)
		}
	}
}

// TestLevelsUnsupported: what the multi-level timeline does not model
// is refused naming checkpoint_levels.
func TestLevelsUnsupported(t *testing.T) {
	sc := levelScenario(t, 6, 4, true)
	_, err := sim.Run(context.Background(), sc, 300, &sim.Settings{Intervals: func(a, s int) float64 { return 300 }})
	if err == nil {
		t.Fatal("per-state intervals with levels: no error")
	}
}

// TestLevelsMalleable: the simulator runs several levels under a policy
// that changes the processor count (which the exact model does not cover
// yet): the run converges to a positive UWT below ω(N).
func TestLevelsMalleable(t *testing.T) {
	sc := levelScenario(t, 6, 4, true)
	sc.Policy = scenario.Policy{}
	v, err := sc.Policy.Vector(scenario.PolicyInputs{N: 6, WorkRate: sc.Application.WorkRate})
	if err != nil {
		t.Fatal(err)
	}
	sc.Reschedule = v
	res, err := sim.Run(context.Background(), sc, 300, &sim.Settings{Seed: 1, RelTol: 0.01})
	if err != nil {
		t.Fatal(err)
	}
	if !(res.UWT.Mean > 0 && res.UWT.Mean < 6) || res.Status != sim.Converged {
		t.Errorf("greedy with levels: UWT %v ± %v, %v", res.UWT.Mean, res.UWT.HalfWidth, res.Status)
	}
}

// TestLevelsOnlyCrashes: when every failure is a crash (severity 1), no
// processor goes down; the simulation agrees with the model, which has
// no down time then.
func TestLevelsOnlyCrashes(t *testing.T) {
	sc := levelScenario(t, 6, 4, true)
	sc.System.FailureSeverity = &scenario.FailureSeverity{Shares: []float64{1, 0, 0}}
	m, err := multilevel.New(sc)
	if err != nil {
		t.Fatal(err)
	}
	model, err := m.Evaluate(nil, 300)
	if err != nil {
		t.Fatal(err)
	}
	res, err := sim.Run(context.Background(), sc, 300, &sim.Settings{Seed: 3, RelTol: 0.005})
	if err != nil {
		t.Fatal(err)
	}
	if !res.UWT.Contains(model.UWT) || model.Down != 0 {
		t.Errorf("only crashes: model %.6f (down %v), simulation %.6f ± %.6f", model.UWT, model.Down, res.UWT.Mean, res.UWT.HalfWidth)
	}
}
