package multilevel

import (
	"context"
	"math"
	"testing"

	"github.com/ckpt-markov/markov/intervals"
	"github.com/ckpt-markov/markov/scenario"
)

// atlas is the two-level Atlas system of LLNL's SCR model (Moody et al.,
// SC'10; the "atlas" machine of the SCR model code): λ₁ = 7.78e-6/s of
// failures a node-local checkpoint survives, λ₂ = 5.19e-7/s of those
// that need the file system, costs 9 s and 438 s (checkpoint = recovery),
// one processor standing for the machine, repairs negligible, no
// checkpoint after recovery: the SCR model's assumptions. scale
// multiplies both rates.
func atlas(t *testing.T, scale float64) *scenario.Scenario {
	t.Helper()
	l1, l2 := 7.78e-6*scale, 5.19e-7*scale
	app := scenario.Application{
		WorkRate: []float64{1},
		Levels: []scenario.Level{
			{Latency: []float64{9}, Overhead: []float64{9}, Recovery: scenario.RecoveryConstant(9, 1)},
			{Latency: []float64{438}, Overhead: []float64{438}, Recovery: scenario.RecoveryConstant(438, 1)},
		},
		NoCheckpointAfterRecovery: true,
	}
	sys := scenario.System{Processors: 1, MTTF: 1 / (l1 + l2), MTTR: scenario.MinSeconds,
		FailureSeverity: &scenario.FailureSeverity{Shares: []float64{l1 / (l1 + l2), l2 / (l1 + l2)}}}
	sc, err := scenario.New(sys, app, scenario.Policy{})
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// TestAtlas: the joint optimum on Atlas is issue 22's figures (26 local
// checkpoints between file-system ones, 1490 s of computation between
// checkpoints, efficiency 0.967; the best single-level schedule 0.914),
// and the pattern search finds the best of an exhaustive scan of V =
// 0..200, each with its own Brent search (a second algorithm for the
// pattern).
func TestAtlas(t *testing.T) {
	m, err := New(atlas(t, 1))
	if err != nil {
		t.Fatal(err)
	}
	opt, err := m.Optimize(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("best %v, I = %.1f s, UWT %.5f; single level I = %.1f s, UWT %.5f; first order %v, I = %.1f s; %d patterns, %d evaluations",
		opt.Pattern, opt.Interval, opt.UWT, opt.SingleLevel.Interval, opt.SingleLevel.UWT, opt.FirstOrder.Pattern, opt.FirstOrder.Interval, opt.Patterns, opt.Evaluations)
	if opt.Pattern[0] != 26 || math.Round(opt.Interval/10) != 149 || math.Round(opt.UWT*1000) != 967 || math.Round(opt.SingleLevel.UWT*1000) != 914 {
		t.Errorf("Atlas: pattern %v, I = %.1f, UWT %.4f, single level %.4f; issue 22: [26], 1490 s, 0.967, 0.914", opt.Pattern, opt.Interval, opt.UWT, opt.SingleLevel.UWT)
	}
	if got := opt.LevelIntervals; len(got) != 2 || got[0] != opt.Interval || math.Abs(got[1]-27*opt.Interval) > 1e-9*got[1] {
		t.Errorf("level intervals %v for I = %v, V = 26", got, opt.Interval)
	}
	sr := newSearcher(context.Background(), m, DefaultTol, 1000)
	best := Result{}
	for v := 0; v <= 200; v++ {
		r, err := sr.best([]int{v})
		if err != nil {
			t.Fatal(err)
		}
		if r.UWT > best.UWT {
			best = r
		}
	}
	if best.Pattern[0] != opt.Pattern[0] || math.Abs(best.UWT-opt.UWT) > 1e-12 {
		t.Errorf("scan: best V = %v, UWT %.15g; Optimize: %v, %.15g", best.Pattern, best.UWT, opt.Pattern, opt.UWT)
	}
}

// TestFirstOrderLimit: as the failure rates fall, the first-order
// schedules of package intervals (Benoit et al. 2017; Di et al. 2017)
// approach the exact optimum: their waste 1 − UWT over the exact
// optimum's tends to 1, and Benoit's interval over the exact optimal
// interval of the same pattern tends to 1. Rates of Atlas times 1, 10⁻²,
// 10⁻⁴ (the pattern stays 26: the ratio of rates is fixed).
func TestFirstOrderLimit(t *testing.T) {
	prevI, prevW := math.Inf(1), math.Inf(1)
	for _, scale := range []float64{1, 1e-2, 1e-4} {
		m, err := New(atlas(t, scale))
		if err != nil {
			t.Fatal(err)
		}
		opt, err := m.Optimize(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		di, err := intervals.DiTwoLevel(9, 438, 7.78e-6*scale, 5.19e-7*scale)
		if err != nil {
			t.Fatal(err)
		}
		for _, fo := range []intervals.MultiLevelSchedule{opt.FirstOrder, di} {
			r, err := m.Evaluate(fo.Pattern, fo.Interval)
			if err != nil {
				t.Fatal(err)
			}
			sr := newSearcher(context.Background(), m, DefaultTol, 10)
			same, err := sr.best(fo.Pattern)
			if err != nil {
				t.Fatal(err)
			}
			dI := math.Abs(fo.Interval/same.Interval - 1)
			dW := math.Abs((1-r.UWT)/(1-opt.UWT) - 1)
			t.Logf("scale %g: first order %v I = %.1f (exact for the pattern %.1f, %.2g off), waste %.4g vs exact optimum's %.4g (%.2g off)",
				scale, fo.Pattern, fo.Interval, same.Interval, dI, 1-r.UWT, 1-opt.UWT, dW)
			if fo.Pattern[0] != opt.Pattern[0] {
				t.Errorf("scale %g: first-order pattern %v, exact %v", scale, fo.Pattern, opt.Pattern)
			}
			if dI > prevI/5 || dW > prevW/5 {
				t.Errorf("scale %g: the first order does not approach the exact optimum (%.2g, %.2g after %.2g, %.2g)", scale, dI, dW, prevI, prevW)
			}
		}
		r, _ := m.Evaluate(opt.FirstOrder.Pattern, opt.FirstOrder.Interval)
		sr := newSearcher(context.Background(), m, DefaultTol, 10)
		same, _ := sr.best(opt.FirstOrder.Pattern)
		prevI, prevW = math.Abs(opt.FirstOrder.Interval/same.Interval-1), math.Abs((1-r.UWT)/(1-opt.UWT)-1)
	}
	if prevI > 1e-3 || prevW > 1e-7 {
		t.Errorf("at 10⁻⁴ the first order is still %.2g off in I, %.2g in waste", prevI, prevW)
	}
}

// TestBand: the band's ends have UWT (1 − frac)·best to 1e-6, on both
// sides of the optimum.
func TestBand(t *testing.T) {
	m, err := New(atlas(t, 1))
	if err != nil {
		t.Fatal(err)
	}
	opt, err := m.Optimize(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	lo, hi, err := m.Band(opt.Result, 0.01)
	if err != nil {
		t.Fatal(err)
	}
	for _, I := range []float64{lo, hi} {
		r, err := m.Evaluate(opt.Pattern, I)
		if err != nil {
			t.Fatal(err)
		}
		if d := math.Abs(r.UWT/opt.UWT - 0.99); d > 1e-6 {
			t.Errorf("band end %v: UWT %v, %.2g off 0.99·best", I, r.UWT, d)
		}
	}
	if !(lo < opt.Interval && opt.Interval < hi) {
		t.Errorf("band [%v, %v] around %v", lo, hi, opt.Interval)
	}
}
