package optimal

import (
	"context"
	"fmt"
	"testing"

	"github.com/ckpt-markov/markov/scenario"
)

// BenchmarkFixedIntervalEvents times g*(I) with failure events (sizes
// 0.6, 0.3, 0.1) on QR of package bench, MTTF 8 h, MTTR 4 h, I = 1 h:
// R(p, a) depends on p, so the states are X(p, n) for every p.
func BenchmarkFixedIntervalEvents(b *testing.B) {
	for _, n := range []int{8, 16, 32} {
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) {
			sc := qrScenario(b, n, 8*3600, 4*3600)
			sys := sc.System
			sys.FailureEvents = &scenario.FailureEvents{Sizes: []float64{0.6, 0.3, 0.1}}
			for b.Loop() {
				if _, err := FixedIntervalEvents(context.Background(), sys, sc.Application, 3600, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkEventsChain times the policy with failure events on the chain
// of up phases (eventsChain) on a desktop grid (MTTF 8 h, MTTR 4 h) with
// the application of BENCHMARKS.md beyond 512 processors (largeApp),
// events of 1 processor (half) or 4 to 8 (a tenth each): g*(I) at
// I = 1 h and the interval search (SingleIntervalEvents). It reports the
// CPU seconds per run (the machine is shared), the window's states, the
// improvements and g.
func BenchmarkEventsChain(b *testing.B) {
	for _, n := range []int{64, 512, 4096} {
		for _, search := range []bool{false, true} {
			b.Run(fmt.Sprintf("N=%d/search=%v", n, search), func(b *testing.B) {
				sc := largeApp(b, n, 8*3600, 4*3600)
				sys := sc.System
				sys.FailureEvents = &scenario.FailureEvents{Sizes: []float64{0.5, 0, 0, 0.1, 0.1, 0.1, 0.1, 0.1}}
				ctx := context.Background()
				for b.Loop() {
					cpu := cpuSeconds()
					var (
						res EventsResult
						err error
					)
					if search {
						res, err = SingleIntervalEvents(ctx, sys, sc.Application, nil)
					} else {
						res, err = FixedIntervalEvents(ctx, sys, sc.Application, 3600, nil)
					}
					if err != nil {
						b.Fatal(err)
					}
					b.ReportMetric(cpuSeconds()-cpu, "cpu-s/op")
					b.ReportMetric(float64(res.Iterations), "improvements")
					b.ReportMetric(res.UWT, "uwt")
					b.ReportMetric(res.Interval, "interval")
				}
			})
		}
	}
}
