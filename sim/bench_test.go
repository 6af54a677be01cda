package sim

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/ckpt-markov/markov/scenario"
)

// greedy16 is the benchmark scenario: N = 16 greedy, ω(a) = a,
// MTTF = 10 h, MTTR = 1 h, L = C = 60 s, R = 30 s (interval I = 1 h).
func greedy16(b testing.TB) *scenario.Scenario {
	return scriptedScenario(b, 36000, 3600, greedy(16), linear(16), constant(16, 60), constant(16, 60), scenario.RecoveryConstant(30, 16))
}

// BenchmarkTimeline measures one replication of greedy16 driven by the
// exponential source; it reports simulated processor events per second.
func BenchmarkTimeline(b *testing.B) {
	sc := greedy16(b)
	b.ReportAllocs()
	var events int64
	for i := 0; b.Loop(); i++ {
		src, _ := NewExponential(16, 36000, 3600, rand.New(rand.NewPCG(uint64(i), 1)))
		tl, _ := NewTimeline(sc, 3600, src, nil, nil)
		if err := tl.Run(1e8); err != nil {
			b.Fatal(err)
		}
		events += tl.Totals().Events
	}
	b.ReportMetric(float64(events)/b.Elapsed().Seconds(), "events/s")
}

// BenchmarkRun0_5 is a whole run of greedy16 to a 99 % confidence
// interval of half-width 0.5 % of the UWT, with all workers.
func BenchmarkRun0_5(b *testing.B) {
	sc := greedy16(b)
	b.ReportAllocs()
	var events int64
	for i := 0; b.Loop(); i++ {
		res, err := Run(context.Background(), sc, 3600, &Settings{Seed: uint64(i), RelTol: 0.005})
		if err != nil {
			b.Fatal(err)
		}
		events += res.Events
	}
	b.ReportMetric(float64(events)/b.Elapsed().Seconds(), "events/s")
}
