package synth_test

import (
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/ckpt-markov/markov/trace/synth"
)

// BenchmarkGenerate: the setting, 128 nodes, events every 8 h per
// node, MTTR 1 h, half the events in groups of 4–16, over one year
// (83,166 events, 457,353 outages with seed (1, 2)).
func BenchmarkGenerate(b *testing.B) {
	cfg := synth.Config{Nodes: 128, Duration: 365 * day,
		Up: distuv.Exponential{Rate: 1 / (8 * hour)}, Repair: distuv.Exponential{Rate: 1 / hour},
		Grouped: 0.5, Sizes: synth.Uniform(4, 16)}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := synth.Generate(cfg, rand.New(rand.NewPCG(1, 2))); err != nil {
			b.Fatal(err)
		}
	}
}
