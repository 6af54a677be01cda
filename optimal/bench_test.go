package optimal

import (
	"context"
	"fmt"
	"testing"

	"github.com/ckpt-markov/markov/bench"
	"github.com/ckpt-markov/markov/scenario"
)

// qrScenario is the QR application of package bench on n processors
// (recovery cost R(p, a) depending on both counts) with the given system.
func qrScenario(tb testing.TB, n int, mttf, mttr float64) *scenario.Scenario {
	tb.Helper()
	app, err := bench.Application("qr", n)
	if err != nil {
		tb.Fatal(err)
	}
	sc, err := scenario.New(scenario.System{Processors: n, MTTF: mttf, MTTR: mttr}, app, scenario.Policy{Kind: scenario.Greedy})
	if err != nil {
		tb.Fatal(err)
	}
	return sc
}

// BenchmarkLevels times the four levels on QR (package bench) with the
// built-in system (MTTF 104.61 d, MTTR 56.03 min, internal/cli) and a
// desktop-grid system (MTTF 8 h, MTTR 4 h).
func BenchmarkLevels(b *testing.B) {
	for _, c := range []struct {
		name       string
		n          int
		mttf, mttr float64
	}{
		{"builtin/N=64", 64, 104.61 * 86400, 56.03 * 60},
		{"builtin/N=128", 128, 104.61 * 86400, 56.03 * 60},
		{"desktop/N=64", 64, 8 * 3600, 4 * 3600},
	} {
		b.Run(c.name, func(b *testing.B) {
			sc := qrScenario(b, c.n, c.mttf, c.mttr)
			for b.Loop() {
				sv, err := New(sc, nil)
				if err != nil {
					b.Fatal(err)
				}
				rep, err := sv.Levels(context.Background(), nil)
				if err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(float64(sv.States()), "states")
				b.ReportMetric(rep.PerState.UWT, "uwt4")
			}
		})
	}
}

var _ = fmt.Sprint
