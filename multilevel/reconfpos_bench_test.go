package multilevel

import (
	"testing"

	"github.com/ckpt-markov/markov/scenario"
)

// BenchmarkLevelsReconfigureSeverity2: greedy with reconfiguration at
// top-level checkpoints and processor failures of severity 2
// (reconfpos.go) at N = 512, three levels (9 s, 50 s, 438 s; shares 0.9,
// 0.07, 0.03, as BenchmarkLevelsIntermediate), MTTF 1 y and 10 d per
// processor, MTTR 1 h, work rate a; New, one evaluation (I = 600 s,
// pattern [3, 2]) and the joint optimum, CPU time per operation
// (cpu-ns/op).
func BenchmarkLevelsReconfigureSeverity2(b *testing.B) {
	const n = 512
	level := func(c float64) scenario.Level {
		return scenario.Level{Latency: constant(c, n), Overhead: constant(c, n), Recovery: scenario.RecoveryLinear(c, 0, 0, n)}
	}
	for _, tc := range []struct {
		name string
		mttf float64
	}{{"N=512/greedy/L=3/f2", 365 * 86400}, {"N=512/greedy/L=3/f2/MTTF=10d", 10 * 86400}} {
		app := moldable(b, n, 1).Application
		app.Levels = []scenario.Level{level(9), level(50), level(438)}
		sc, err := scenario.New(scenario.System{Processors: n, MTTF: tc.mttf, MTTR: 3600,
			FailureSeverity: &scenario.FailureSeverity{Shares: []float64{0.9, 0.07, 0.03}}}, app, scenario.Policy{})
		if err != nil {
			b.Fatal(err)
		}
		sc.Reconfigure = scenario.AtCheckpoint
		benchModel(b, sc, tc.name, []int{3, 2}, true)
	}
}
