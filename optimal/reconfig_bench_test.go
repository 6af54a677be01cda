package optimal

import (
	"context"
	"testing"

	"github.com/ckpt-markov/markov/scenario"
)

// BenchmarkReconfigure times the four levels (Solver.Levels, building the
// solver included) of QR of package bench (R(p, a)) and of the desktop
// grid's application of BENCHMARKS.md (largeApp) on a volatile system
// (MTTF 8 h, MTTR 4 h), with reconfiguration at checkpoints and without,
// for the
// comparison of issue 20 (deliverable 3: with reconfiguration within 2×
// the time without). QR at N = 64 with reconfiguration takes about 10 s
// of CPU per run (BENCHMARKS.md, reconf6). It reports the CPU seconds per run (the machine is
// shared: wall time is not the cost) and the UWT of levels 2 and 4.
func BenchmarkReconfigure(b *testing.B) {
	const h = 3600.0
	for _, c := range []struct {
		name   string
		sc     func(testing.TB) *scenario.Scenario
		reconf bool
	}{
		{"qr/N=16/never", func(tb testing.TB) *scenario.Scenario { return qrScenario(tb, 16, 8*h, 4*h) }, false},
		{"qr/N=16/at-checkpoint", func(tb testing.TB) *scenario.Scenario { return qrScenario(tb, 16, 8*h, 4*h) }, true},
		{"qr/N=32/never", func(tb testing.TB) *scenario.Scenario { return qrScenario(tb, 32, 8*h, 4*h) }, false},
		{"qr/N=32/at-checkpoint", func(tb testing.TB) *scenario.Scenario { return qrScenario(tb, 32, 8*h, 4*h) }, true},
		{"qr/N=64/never", func(tb testing.TB) *scenario.Scenario { return qrScenario(tb, 64, 8*h, 4*h) }, false},
		{"qr/N=64/at-checkpoint", func(tb testing.TB) *scenario.Scenario { return qrScenario(tb, 64, 8*h, 4*h) }, true},
		{"desktop/N=32/never", func(tb testing.TB) *scenario.Scenario { return largeApp(tb, 32, 8*h, 4*h) }, false},
		{"desktop/N=32/at-checkpoint", func(tb testing.TB) *scenario.Scenario { return largeApp(tb, 32, 8*h, 4*h) }, true},
		{"desktop/N=64/never", func(tb testing.TB) *scenario.Scenario { return largeApp(tb, 64, 8*h, 4*h) }, false},
		{"desktop/N=64/at-checkpoint", func(tb testing.TB) *scenario.Scenario { return largeApp(tb, 64, 8*h, 4*h) }, true},
	} {
		b.Run(c.name, func(b *testing.B) {
			sc := c.sc(b)
			if c.reconf {
				sc.Reconfigure = scenario.AtCheckpoint
			}
			ctx := context.Background()
			for b.Loop() {
				cpu := cpuSeconds()
				sv, err := New(sc, nil)
				if err != nil {
					b.Fatal(err)
				}
				rep, err := sv.Levels(ctx, nil)
				if err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(cpuSeconds()-cpu, "cpu-s/op")
				b.ReportMetric(float64(sv.States()), "states")
				b.ReportMetric(rep.Single.UWT, "uwt2")
				b.ReportMetric(rep.PerState.UWT, "uwt4")
			}
		})
	}
}
