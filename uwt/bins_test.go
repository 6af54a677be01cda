package uwt

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/ckpt-markov/markov/internal/testmodel"
	"github.com/ckpt-markov/markov/scenario"
)

// binScenario returns QR-like costs with the recovery R(p, a) = 17 + p +
// 0.01·a seconds (p the checkpoint's count: up to 256 s more at N = 256,
// so that the old count matters) on n processors.
func binScenario(t testing.TB, n int, mttf, mttr float64, pol scenario.Policy) *scenario.Scenario {
	app := testmodel.QRLike(n)
	app.Recovery = scenario.RecoveryLinear(17, 1, 0.01, n)
	return mustScenario(t, scenario.System{Processors: n, MTTF: mttf, MTTR: mttr}, app, pol)
}

// The binned model's true error, against the unbinned fast path (which
// agrees with the exact path to 1e-9, TestFastMatchesExact), is at most
// twice its a-posteriori estimate Result.BinError.
//
// The factor 2 has margin over the measurement that chose the estimate:
// over N = 32 … 256, the three regimes, greedy and moldable(N/4), bins of
// 2, 4 and 8 and three intervals, with per_old of 1 and of 0.01 (432
// cases, 216 with errors), the largest ratio true/estimate was 1.10
// (desktop greedy, N = 256, bins of 8, I*/4); the median was far below 1.
// Before the estimate compared both pairings of bins and fell back to
// finer bins when the window holds few, it underestimated up to 7-fold
// (MTTF 100 d, N = 128, bins of 8: two bins) and, with the middle count's
// cost instead of the bin's mean, up to 10⁵-fold (a bias of half a count
// that wider bins share).
func TestOldCountBinEstimate(t *testing.T) {
	sizes := []int{32, 64, 128, 256}
	if testing.Short() {
		sizes = sizes[:2]
	}
	regimes := []struct {
		name       string
		mttf, mttr float64
	}{
		{"desktop", 8 * 3600, 4 * 3600},
		{"lanl", 100 * 86400, 3600},
		{"flaky", 2 * 86400, 4 * 3600},
	}
	ctx := context.Background()
	worst := 0.0
	for _, n := range sizes {
		for _, rg := range regimes {
			for _, pol := range []scenario.Policy{{}, {Kind: scenario.Moldable, Processors: n / 4}} {
				sc := binScenario(t, n, rg.mttf, rg.mttr, pol)
				ref, err := New(ctx, sc, nil)
				if err != nil {
					t.Fatal(err)
				}
				opt, err := ref.Optimize(ctx, nil)
				if err != nil {
					t.Fatal(err)
				}
				for _, k := range []int{2, 4, 8} {
					t.Run(fmt.Sprintf("N=%d/%s/%v/k=%d", n, rg.name, pol.Kind, k), func(t *testing.T) {
						b, err := New(ctx, sc, &Settings{OldCountBin: k})
						if err != nil {
							t.Fatal(err)
						}
						for _, i := range []float64{opt.Interval / 4, opt.Interval, 4 * opt.Interval} {
							e, err := ref.Evaluate(ctx, i)
							if err != nil {
								t.Fatal(err)
							}
							r, err := b.Evaluate(ctx, i)
							if err != nil {
								t.Fatal(err)
							}
							if r.OldCountBin != k {
								t.Errorf("OldCountBin = %d, want %d", r.OldCountBin, k)
							}
							// Rounding: the unbinned and binned solves differ
							// by a few ulps even where binning changes nothing.
							diff := math.Abs(r.UWT - e.UWT)
							if diff > 2*r.BinError+1e-12*e.UWT {
								t.Errorf("I=%.4g: UWT %.12g, unbinned %.12g: error %.3g > 2 × estimate %.3g",
									i, r.UWT, e.UWT, diff, r.BinError)
							}
							if r.BinError > 0 {
								worst = max(worst, diff/r.BinError)
							}
						}
					})
				}
			}
		}
	}
	t.Logf("largest true error / estimate: %.3g", worst)
}

// OldCountBin 0 and 1 are the default, bit for bit, and the exact path
// accepts 1.
func TestOldCountBinOne(t *testing.T) {
	sc := binScenario(t, 64, 8*3600, 4*3600, scenario.Policy{})
	for _, i := range []float64{300, 3600} {
		def := evaluate(t, sc, nil, i)
		for _, s := range []*Settings{{OldCountBin: 1}, {OldCountBin: 0}} {
			r := evaluate(t, sc, s, i)
			if r.UWT != def.UWT || r.Availability != def.Availability || r.States != def.States || r.BinError != 0 || r.OldCountBin != 0 {
				t.Errorf("I=%g, OldCountBin %d: UWT %v (%d states), default %v (%d states), BinError %v",
					i, s.OldCountBin, r.UWT, r.States, def.UWT, def.States, r.BinError)
			}
		}
	}
	evaluate(t, mustScenario(t, scenario.System{Processors: 8, MTTF: 8 * 3600, MTTR: 4 * 3600}, testmodel.QRLike(8), scenario.Policy{}),
		&Settings{Exact: true, OldCountBin: 1}, 3600)
}

// A recovery cost that does not depend on the old count ignores the
// setting: the same states and the same result, bit for bit.
func TestOldCountBinConstantRecovery(t *testing.T) {
	sys := scenario.System{Processors: 128, MTTF: 8 * 3600, MTTR: 4 * 3600}
	sc := mustScenario(t, sys, testmodel.QRLike(128), scenario.Policy{})
	for _, i := range []float64{300, 3600} {
		def := evaluate(t, sc, nil, i)
		r := evaluate(t, sc, &Settings{OldCountBin: 8}, i)
		if r.UWT != def.UWT || r.States != def.States || r.OldCountBin != 0 || r.BinError != 0 {
			t.Errorf("I=%g: UWT %v (%d states, bin %d, error %v), default %v (%d states)",
				i, r.UWT, r.States, r.OldCountBin, r.BinError, def.UWT, def.States)
		}
	}
}

// Bins reduce the states by about their width, and Optimize reports the
// estimate at I*.
func TestOldCountBinStatesAndOptimize(t *testing.T) {
	ctx := context.Background()
	sc := binScenario(t, 128, 8*3600, 4*3600, scenario.Policy{})
	def := evaluate(t, sc, nil, 600)
	m, err := New(ctx, sc, &Settings{OldCountBin: 8})
	if err != nil {
		t.Fatal(err)
	}
	opt, err := m.Optimize(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Built states: (window) × (bins); the bins are ⌈used counts / 8⌉
	// plus at most one for the start's r(N).
	if opt.Built*8 > def.Built+16*(def.Built/len(m.sk.olds)) || opt.BinError <= 0 || opt.OldCountBin != 8 || opt.BinCompared != 16 {
		t.Errorf("bins of 8: %d states built (unbinned %d), estimate %v against bins of %d",
			opt.Built, def.Built, opt.BinError, opt.BinCompared)
	}
}

func TestOldCountBinBadInput(t *testing.T) {
	sc := binScenario(t, 16, 8*3600, 4*3600, scenario.Policy{})
	for _, c := range []struct {
		s    Settings
		want []string
	}{
		{Settings{OldCountBin: -1}, []string{"Settings.OldCountBin"}},
		{Settings{OldCountBin: 4, Exact: true}, []string{"Settings.Exact", "Settings.OldCountBin"}},
	} {
		_, err := New(context.Background(), sc, &c.s)
		for _, w := range c.want {
			if err == nil || !strings.Contains(err.Error(), w) {
				t.Errorf("%+v: error %v, want one naming %s", c.s, err, w)
			}
		}
	}
}
