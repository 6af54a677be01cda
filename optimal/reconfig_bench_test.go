package optimal

import (
	"context"
	"strings"
	"testing"

	"github.com/ckpt-markov/markov/scenario"
)

// reconfigureBenchCase is a case of BenchmarkReconfigure: a scenario,
// with or without reconfiguration at checkpoints.
type reconfigureBenchCase struct {
	name   string
	sc     func(testing.TB) *scenario.Scenario
	reconf bool
}

// reconfigureBenchCases returns the cases of BenchmarkReconfigure whose
// names match one of the prefixes (all of them without prefixes): QR
// and the desktop grid, MTTF 8 h, MTTR 4 h, each with and without
// reconfiguration.
func reconfigureBenchCases(prefixes ...string) []reconfigureBenchCase {
	const h = 3600.0
	all := []reconfigureBenchCase{
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
	}
	if len(prefixes) == 0 {
		return all
	}
	var out []reconfigureBenchCase
	for _, c := range all {
		for _, p := range prefixes {
			if strings.HasPrefix(c.name, p) {
				out = append(out, c)
				break
			}
		}
	}
	return out
}

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
	for _, c := range reconfigureBenchCases() {
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

// BenchmarkReconfigureLevels times levels 2, 4 and 3 of the cases of
// BenchmarkReconfigure at N = 16 (QR) and N = 32, 64 (desktop grid) one by
// one, in Levels' order (SingleInterval, PerState from its policy,
// PerConfiguration), building the solver excluded: CPU seconds per run of
// each (cpu2-s, cpu4-s, cpu3-s): where the time of the four levels goes
// (BENCHMARKS.md, "(reconf10)").
func BenchmarkReconfigureLevels(b *testing.B) {
	for _, c := range reconfigureBenchCases("qr/N=16/", "desktop/") {
		b.Run(c.name, func(b *testing.B) {
			sc := c.sc(b)
			if c.reconf {
				sc.Reconfigure = scenario.AtCheckpoint
			}
			ctx := context.Background()
			var t2, t4, t3 float64
			n := 0
			for b.Loop() {
				sv, err := New(sc, nil)
				if err != nil {
					b.Fatal(err)
				}
				c0 := cpuSeconds()
				s, err := sv.SingleInterval(ctx, 0)
				if err != nil {
					b.Fatal(err)
				}
				c1 := cpuSeconds()
				ps, err := sv.PerState(ctx, s.Policy)
				if err != nil {
					b.Fatal(err)
				}
				c2 := cpuSeconds()
				if _, err := sv.PerConfiguration(ctx, s, ps); err != nil {
					b.Fatal(err)
				}
				c3 := cpuSeconds()
				t2, t4, t3, n = t2+c1-c0, t4+c2-c1, t3+c3-c2, n+1
			}
			b.ReportMetric(t2/float64(n), "cpu2-s")
			b.ReportMetric(t4/float64(n), "cpu4-s")
			b.ReportMetric(t3/float64(n), "cpu3-s")
		})
	}
}
