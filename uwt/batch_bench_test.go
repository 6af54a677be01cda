package uwt

import (
	"context"
	"fmt"
	"testing"

	"github.com/ckpt-markov/markov/internal/cputime"
	"github.com/ckpt-markov/markov/internal/testmodel"
	"github.com/ckpt-markov/markov/scenario"
)

// issueSizes is the size law of issue 13's synthetic traces: half of the
// events take one processor, the other half 4–16 uniformly.
func issueSizes() []float64 {
	s := make([]float64, 16)
	s[0] = 0.5
	for k := 3; k < 16; k++ {
		s[k] = 0.5 / 13
	}
	return s
}

// BenchmarkBatchEvaluate measures one fast-path evaluation (model built
// once, I = 1 h) with failure events at N = 512 and 4096, MTTF 1 d and
// MTTR 1 h per processor, QR-like costs, greedy and moldable N/2, against
// the same scenario without events.
func BenchmarkBatchEvaluate(b *testing.B) {
	for _, n := range []int{512, 4096} {
		for _, pol := range []scenario.Policy{{}, {Kind: scenario.Moldable, Processors: n / 2}} {
			for _, events := range []bool{false, true} {
				sys := scenario.System{Processors: n, MTTF: 86400, MTTR: 3600}
				if events {
					sys.FailureEvents = &scenario.FailureEvents{Sizes: issueSizes()}
				}
				sc := mustScenario(b, sys, testmodel.QRLike(n), pol)
				b.Run(fmt.Sprintf("N=%d/%v/events=%v", n, pol, events), func(b *testing.B) {
					m, err := New(context.Background(), sc, nil)
					if err != nil {
						b.Fatal(err)
					}
					b.ReportAllocs()
					c0 := cputime.Used()
					for b.Loop() {
						if _, err := m.Evaluate(context.Background(), 3600); err != nil {
							b.Fatal(err)
						}
					}
					b.ReportMetric(float64(cputime.Used()-c0)/float64(b.N), "cpu-ns/op")
				})
			}
		}
	}
}

// BenchmarkBatchOptimize measures a whole interval search with failure
// events (New and Optimize, the model built afresh each time) at N = 512
// and 4096, MTTF 1 d, MTTR 1 h, QR-like costs, greedy: on the chain of up
// phases the chain is solved once and each interval costs the rewards.
func BenchmarkBatchOptimize(b *testing.B) {
	benchBatch(b, func(sc *scenario.Scenario) error {
		m, err := New(context.Background(), sc, nil)
		if err != nil {
			return err
		}
		_, err = m.Optimize(context.Background(), nil)
		return err
	})
}

// BenchmarkBatchNew measures the build of the model of BenchmarkBatchOptimize
// alone (New: on the chain of up phases, each used count's phase, its
// recovery rows, its exit law and the base of its sequence; no interval
// yet), so that the part of a search that does not depend on the interval
// is measured apart from the sequences.
func BenchmarkBatchNew(b *testing.B) {
	benchBatch(b, func(sc *scenario.Scenario) error {
		_, err := New(context.Background(), sc, nil)
		return err
	})
}

// benchBatch runs op on the scenarios of BenchmarkBatchOptimize (N = 512
// and 4096, greedy) and reports its CPU time per run.
func benchBatch(b *testing.B, op func(*scenario.Scenario) error) {
	for _, n := range []int{512, 4096} {
		sys := scenario.System{Processors: n, MTTF: 86400, MTTR: 3600, FailureEvents: &scenario.FailureEvents{Sizes: issueSizes()}}
		sc := mustScenario(b, sys, testmodel.QRLike(n), scenario.Policy{})
		b.Run(fmt.Sprintf("N=%d/greedy", n), func(b *testing.B) {
			b.ReportAllocs()
			c0 := cputime.Used()
			for b.Loop() {
				if err := op(sc); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(cputime.Used()-c0)/float64(b.N), "cpu-ns/op")
		})
	}
}
