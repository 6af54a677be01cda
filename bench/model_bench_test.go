package bench_test

import (
	"context"
	"fmt"
	"runtime"
	"testing"

	"gonum.org/v1/gonum/floats"

	"github.com/ckpt-markov/markov/bench"
	"github.com/ckpt-markov/markov/internal/testmodel"
	"github.com/ckpt-markov/markov/scenario"
	"github.com/ckpt-markov/markov/uwt"
)

const (
	day  = 86400.0
	year = 365 * day
)

// qrLike returns the QR application for n ≤ 512 processors and, beyond
// the paper's range, an extension with its Table I average costs
// (C = L = 99.19 s, R = 17.21 s) and a speed-up a/(1 + a/2000): the "QR-like
// costs" of the scale targets.
func qrLike(b *testing.B, n int) scenario.Application {
	if n <= bench.MaxProcessors {
		app, err := bench.Application("qr", n)
		if err != nil {
			b.Fatal(err)
		}
		return app
	}
	return testmodel.QRLike(n)
}

type target struct {
	name       string
	n          int
	mttf, mttr float64
	policy     scenario.Policy
	matrix     bool // use the QR recovery matrix R(p, a) (N ≤ 512)
}

// targets are the scenarios of the scale issue's table.
var targets = []target{
	{"N=512/MTTF=100d", 512, 100 * day, 3600, scenario.Policy{}, false},
	{"N=65536/MTTF=25y", 65536, 25 * year, 3600, scenario.Policy{}, false},
	{"N=65536/MTTF=100d", 65536, 100 * day, 3600, scenario.Policy{}, false},
	{"desktop/N=1024/moldable16", 1024, 8 * 3600, 4 * 3600, scenario.Policy{Kind: scenario.Moldable, Processors: 16}, false},
	{"N=512/PB/matrix", 512, 100 * day, 3600, scenario.Policy{Kind: scenario.PerformanceBased}, true},
	{"N=512/moldable256/matrix", 512, 100 * day, 3600, scenario.Policy{Kind: scenario.Moldable, Processors: 256}, true},
}

func (tg target) scenario(b *testing.B) *scenario.Scenario {
	var app scenario.Application
	if tg.n > bench.MaxProcessors {
		app = qrLike(b, tg.n)
	} else {
		var err error
		if app, err = bench.Application("qr", tg.n); err != nil {
			b.Fatal(err)
		}
		if !tg.matrix {
			// The QR costs by new count only: R(a, a).
			rec := make([]float64, tg.n)
			for a := 1; a <= tg.n; a++ {
				rec[a-1] = app.Recovery.Cost(a, a)
			}
			app.Recovery = scenario.RecoveryByNew(rec)
		}
	}
	sc, err := scenario.New(scenario.System{Processors: tg.n, MTTF: tg.mttf, MTTR: tg.mttr}, app, tg.policy)
	if err != nil {
		b.Fatal(err)
	}
	return sc
}

// BenchmarkOptimize measures a full interval search, model build included.
func BenchmarkOptimize(b *testing.B) {
	for _, tg := range targets {
		b.Run(tg.name, func(b *testing.B) {
			sc := tg.scenario(b)
			b.ReportAllocs()
			var opt uwt.Optimum
			for b.Loop() {
				m, err := uwt.New(context.Background(), sc, nil)
				if err != nil {
					b.Fatal(err)
				}
				if opt, err = m.Optimize(context.Background(), nil); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(opt.Interval, "I*_s")
			b.ReportMetric(float64(opt.Result.States), "states")
			b.ReportMetric(float64(opt.Evaluations), "evals")
			reportPeakHeap(b)
		})
	}
}

// BenchmarkUWT measures one evaluation of a built model, cycling through
// eight intervals around I* as a search would (each solve warm-started
// from the previous one).
func BenchmarkUWT(b *testing.B) {
	for _, tg := range targets {
		b.Run(tg.name, func(b *testing.B) {
			benchmarkUWT(b, tg.scenario(b), nil)
		})
	}
}

func benchmarkUWT(b *testing.B, sc *scenario.Scenario, set *uwt.Settings) {
	m, err := uwt.New(context.Background(), sc, set)
	if err != nil {
		b.Fatal(err)
	}
	probe, err := uwt.New(context.Background(), sc, nil)
	if err != nil {
		b.Fatal(err)
	}
	opt, err := probe.Optimize(context.Background(), nil)
	if err != nil {
		b.Fatal(err)
	}
	grid := floats.LogSpan(make([]float64, 8), opt.Interval/2, opt.Interval*2)
	if _, err := m.Evaluate(context.Background(), grid[0]); err != nil {
		b.Fatal(err) // settle the window before timing
	}
	b.ReportAllocs()
	b.ResetTimer()
	k := 0
	var r uwt.Result
	for b.Loop() {
		if r, err = m.Evaluate(context.Background(), grid[k%len(grid)]); err != nil {
			b.Fatal(err)
		}
		k++
	}
	b.ReportMetric(float64(r.States), "states")
}

// BenchmarkSize sweeps N for the greedy QR-like scenario with MTTF 100
// days and MTTR 1 h per processor: one evaluation and a full search.
func BenchmarkSize(b *testing.B) {
	for n := 16; n <= 65536; n *= 4 {
		tg := target{fmt.Sprint(n), n, 100 * day, 3600, scenario.Policy{}, false}
		sc := tg.scenario(b)
		b.Run(fmt.Sprintf("UWT/N=%d", n), func(b *testing.B) { benchmarkUWT(b, sc, nil) })
		b.Run(fmt.Sprintf("Optimize/N=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				m, err := uwt.New(context.Background(), sc, nil)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := m.Optimize(context.Background(), nil); err != nil {
					b.Fatal(err)
				}
			}
			reportPeakHeap(b)
		})
	}
}

// BenchmarkExactVsFast measures one evaluation on the exact full state
// space and on the fast path in the same run, at N = 64 and 128.
func BenchmarkExactVsFast(b *testing.B) {
	for _, n := range []int{64, 128} {
		tg := target{fmt.Sprint(n), n, 100 * day, 3600, scenario.Policy{}, false}
		sc := tg.scenario(b)
		b.Run(fmt.Sprintf("N=%d/exact", n), func(b *testing.B) { benchmarkUWT(b, sc, &uwt.Settings{Exact: true}) })
		b.Run(fmt.Sprintf("N=%d/fast", n), func(b *testing.B) { benchmarkUWT(b, sc, nil) })
	}
}

// reportPeakHeap reports the heap the process obtained from the system:
// an upper bound on the benchmark's peak live memory.
func reportPeakHeap(b *testing.B) {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	b.ReportMetric(float64(ms.HeapSys)/(1<<20), "heapsys_MiB")
}
