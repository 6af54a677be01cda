package optimal

import (
	"context"
	"syscall"
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

// cpuSeconds returns the user and system CPU time of the process so far.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return float64(ru.Utime.Sec+ru.Stime.Sec) + float64(ru.Utime.Usec+ru.Stime.Usec)*1e-6
}

// BenchmarkLevels times the four levels (Solver.Levels, building the
// solver included, hand-made policies excluded) on the CLI's built-in
// system (QR of package bench, MTTF 104.61 d, MTTR 56.03 min,
// internal/cli) and on a desktop grid (MTTF 8 h, MTTR 4 h) with the
// application of BENCHMARKS.md beyond 512 processors (largeApp), with
// the full action set and with the coarse-to-fine restriction (Refine,
// whose time is included), and with that restriction on 10⁶ processors
// at exascale-like rates (per-processor MTTF 25 y, MTTR 1 h). It reports the CPU seconds per run (the
// machine is shared: wall time is not the cost) and the UWT of levels 2
// and 4.
func BenchmarkLevels(b *testing.B) {
	const d, h = 86400.0, 3600.0
	for _, c := range []struct {
		name   string
		sc     func(testing.TB) *scenario.Scenario
		refine int
	}{
		{"builtin/N=128/full", func(tb testing.TB) *scenario.Scenario { return qrScenario(tb, 128, 104.61*d, 56.03*60) }, 0},
		{"builtin/N=256/full", func(tb testing.TB) *scenario.Scenario { return qrScenario(tb, 256, 104.61*d, 56.03*60) }, 0},
		{"builtin/N=512/full", func(tb testing.TB) *scenario.Scenario { return qrScenario(tb, 512, 104.61*d, 56.03*60) }, 0},
		{"desktop/N=32/full", func(tb testing.TB) *scenario.Scenario { return largeApp(tb, 32, 8*h, 4*h) }, 0},
		{"desktop/N=64/full", func(tb testing.TB) *scenario.Scenario { return largeApp(tb, 64, 8*h, 4*h) }, 0},
		{"desktop/N=128/full", func(tb testing.TB) *scenario.Scenario { return largeApp(tb, 128, 8*h, 4*h) }, 0},
		{"desktop/N=128/refine=16", func(tb testing.TB) *scenario.Scenario { return largeApp(tb, 128, 8*h, 4*h) }, 16},
		{"desktop/N=512/full", func(tb testing.TB) *scenario.Scenario { return largeApp(tb, 512, 8*h, 4*h) }, 0},
		{"desktop/N=512/refine=64", func(tb testing.TB) *scenario.Scenario { return largeApp(tb, 512, 8*h, 4*h) }, 64},
		{"desktop/N=1024/full", func(tb testing.TB) *scenario.Scenario { return largeApp(tb, 1024, 8*h, 4*h) }, 0},
		{"desktop/N=4096/full", func(tb testing.TB) *scenario.Scenario { return largeApp(tb, 4096, 8*h, 4*h) }, 0},
		{"desktop/N=1024/refine=128", func(tb testing.TB) *scenario.Scenario { return largeApp(tb, 1024, 8*h, 4*h) }, 128},
		{"desktop/N=4096/refine=512", func(tb testing.TB) *scenario.Scenario { return largeApp(tb, 4096, 8*h, 4*h) }, 512},
		// Exascale-like rates (per-processor MTTF 25 y, MTTR 1 h) on 10⁶
		// processors, the restricted action set of Refine.
		{"exascale/N=1000000/refine=65536", func(tb testing.TB) *scenario.Scenario { return largeApp(tb, 1_000_000, 25*365*d, h) }, 65536},
		{"exascale/N=1000000/refine=4096", func(tb testing.TB) *scenario.Scenario { return largeApp(tb, 1_000_000, 25*365*d, h) }, 4096},
	} {
		b.Run(c.name, func(b *testing.B) {
			sc := c.sc(b)
			ctx := context.Background()
			for b.Loop() {
				cpu := cpuSeconds()
				var set Settings
				if c.refine > 0 {
					cand, err := Refine(ctx, sc, nil, c.refine)
					if err != nil {
						b.Fatal(err)
					}
					set.Candidates = cand
				}
				sv, err := New(sc, &set)
				if err != nil {
					b.Fatal(err)
				}
				rep, err := sv.Levels(ctx, nil)
				if err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(cpuSeconds()-cpu, "cpu-s/op")
				b.ReportMetric(float64(sv.States()), "states")
				b.ReportMetric(float64(len(sv.Candidates())), "counts")
				b.ReportMetric(rep.Single.UWT, "uwt2")
				b.ReportMetric(rep.PerState.UWT, "uwt4")
			}
		})
	}
}
