package multilevel

import (
	"testing"

	"github.com/ckpt-markov/markov/scenario"
)

// BenchmarkLevelsIntermediateEvents: BenchmarkLevelsIntermediate's three
// levels under greedy with processor failures of severity 2 (shares 0.9,
// 0.07, 0.03) and failure events of sizes 1, 2, 4 (shares 0.7, 0.2,
// 0.1): the positional chain with failure events (posevents.go); New,
// one evaluation ([3, 2], I = 600 s) and the joint optimum, CPU time per
// operation (cpu-ns/op).
func BenchmarkLevelsIntermediateEvents(b *testing.B) {
	for _, tc := range []struct {
		name string
		mttf float64
	}{{"N=512/greedy/MTTF=1y", 365 * 86400}, {"N=512/greedy/MTTF=10d", 10 * 86400}} {
		const n = 512
		sc := moldable(b, n, 1)
		level := func(c float64) scenario.Level {
			return scenario.Level{Latency: constant(c, n), Overhead: constant(c, n), Recovery: scenario.RecoveryLinear(c, 0, 0, n)}
		}
		app := sc.Application
		app.Levels = []scenario.Level{level(9), level(50), level(438)}
		sc, err := scenario.New(scenario.System{Processors: n, MTTF: tc.mttf, MTTR: 3600,
			FailureSeverity: &scenario.FailureSeverity{Shares: []float64{0.9, 0.07, 0.03}},
			FailureEvents:   &scenario.FailureEvents{Sizes: []float64{0.7, 0.2, 0, 0.1}}}, app, scenario.Policy{})
		if err != nil {
			b.Fatal(err)
		}
		benchModel(b, sc, tc.name, []int{3, 2}, true)
	}
}
