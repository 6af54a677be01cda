package bench_test

import (
	"context"
	"fmt"
	"math"
	"os"
	"slices"
	"testing"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"

	"github.com/ckpt-markov/markov/scenario"
	"github.com/ckpt-markov/markov/uwt"
)

// TestScalingPlot regenerates the log–log plot of time against N in
// BENCHMARKS.md, with the growth exponents fitted by least squares on
// log t = c + k·log N. It measures (medians of five testing.Benchmark
// runs), asserts nothing about time, and runs only when asked:
//
//	MARKOV_SCALING_PLOT=scaling.png go test ./bench -run ScalingPlot -v
func TestScalingPlot(t *testing.T) {
	file := os.Getenv("MARKOV_SCALING_PLOT")
	if file == "" {
		t.Skip("set MARKOV_SCALING_PLOT=FILE.png to measure and plot the size sweep")
	}
	var ns, evalT, optT []float64
	for n := 16; n <= 65536; n *= 4 {
		tg := target{fmt.Sprint(n), n, 100 * day, 3600, scenario.Policy{}, false}
		var sc *scenario.Scenario
		testing.Benchmark(func(b *testing.B) { sc = tg.scenario(b) })
		eval := median(5, func() float64 {
			return float64(testing.Benchmark(func(b *testing.B) { benchmarkUWT(b, sc, nil) }).NsPerOp())
		})
		opt := median(5, func() float64 {
			return float64(testing.Benchmark(func(b *testing.B) {
				for b.Loop() {
					m, err := uwt.New(context.Background(), sc, nil)
					if err != nil {
						b.Fatal(err)
					}
					if _, err := m.Optimize(context.Background(), nil); err != nil {
						b.Fatal(err)
					}
				}
			}).NsPerOp())
		})
		t.Logf("N = %6d  UWT %10.3f ms  Optimize %10.3f ms", n, eval/1e6, opt/1e6)
		ns, evalT, optT = append(ns, float64(n)), append(evalT, eval/1e6), append(optT, opt/1e6)
	}
	kEval, kOpt := exponent(ns, evalT), exponent(ns, optT)
	t.Logf("fitted growth exponent, all N: UWT t ∝ N^%.2f, Optimize t ∝ N^%.2f", kEval, kOpt)
	// Small N is dominated by fixed costs; the asymptotic growth shows
	// from N = 1024 on.
	big := slices.Index(ns, 1024)
	kEvalBig, kOptBig := exponent(ns[big:], evalT[big:]), exponent(ns[big:], optT[big:])
	t.Logf("fitted growth exponent, N ≥ 1024: UWT t ∝ N^%.2f, Optimize t ∝ N^%.2f", kEvalBig, kOptBig)

	p := plot.New()
	p.Title.Text = "Greedy QR-like scenario, MTTF 100 d, MTTR 1 h per processor"
	p.X.Label.Text = "processors N (log scale)"
	p.Y.Label.Text = "time (ms, log scale; median of 5)"
	p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
	p.X.Tick.Marker, p.Y.Tick.Marker = plot.LogTicks{Prec: -1}, plot.LogTicks{Prec: -1}
	p.Add(plotter.NewGrid())
	if err := plotutil.AddLinePoints(p,
		fmt.Sprintf("Optimize (N ≥ 1024: ∝ N^%.2f)", kOptBig), xys(ns, optT),
		fmt.Sprintf("one UWT (N ≥ 1024: ∝ N^%.2f)", kEvalBig), xys(ns, evalT)); err != nil {
		t.Fatal(err)
	}
	// Upper left, inside the data area (empty there: time grows with N).
	p.Legend.Top, p.Legend.Left = true, true
	p.Legend.XOffs, p.Legend.YOffs = vg.Inch, -0.6*vg.Inch
	if err := p.Save(7*vg.Inch, 4.5*vg.Inch, file); err != nil {
		t.Fatal(err)
	}
}

func median(runs int, f func() float64) float64 {
	x := make([]float64, runs)
	for i := range x {
		x[i] = f()
	}
	slices.Sort(x)
	return x[runs/2]
}

// exponent fits log t = c + k·log N by least squares and returns k.
func exponent(n, t []float64) float64 {
	lx, ly := make([]float64, len(n)), make([]float64, len(n))
	for i := range n {
		lx[i], ly[i] = math.Log(n[i]), math.Log(t[i])
	}
	_, k := stat.LinearRegression(lx, ly, nil, false)
	return k
}

func xys(x, y []float64) plotter.XYs {
	pts := make(plotter.XYs, len(x))
	for i := range x {
		pts[i].X, pts[i].Y = x[i], y[i]
	}
	return pts
}
