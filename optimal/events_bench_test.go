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
