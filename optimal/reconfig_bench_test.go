package optimal

import (
	"context"
	"testing"

	"github.com/ckpt-markov/markov/scenario"
)

// BenchmarkReconfigure times the four levels (Solver.Levels, building the
// solver included) of QR on n processors of a volatile system (MTTF 8 h,
// MTTR 4 h), with reconfiguration at checkpoints and without, for the
// comparison of issue 20 (deliverable 3: with reconfiguration within 2×
// the time without). It reports the CPU seconds per run (the machine is
// shared: wall time is not the cost) and the UWT of levels 2 and 4.
func BenchmarkReconfigure(b *testing.B) {
	const h = 3600.0
	for _, c := range []struct {
		name   string
		n      int
		reconf bool
	}{
		{"qr/N=16/never", 16, false},
		{"qr/N=16/at-checkpoint", 16, true},
		{"qr/N=32/never", 32, false},
		{"qr/N=32/at-checkpoint", 32, true},
	} {
		b.Run(c.name, func(b *testing.B) {
			sc := qrScenario(b, c.n, 8*h, 4*h)
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
