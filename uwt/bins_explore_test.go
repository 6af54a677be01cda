package uwt

import (
	"context"
	"fmt"
	"math"
	"os"
	"testing"

	"github.com/ckpt-markov/markov/internal/testmodel"
	"github.com/ckpt-markov/markov/scenario"
)

func TestBinsExplore(t *testing.T) {
	if os.Getenv("BINS_EXPLORE") == "" {
		t.Skip()
	}
	ctx := context.Background()
	regimes := []struct {
		name       string
		mttf, mttr float64
	}{{"desktop", 8 * 3600, 4 * 3600}, {"lanl", 100 * 86400, 3600}, {"flaky", 2 * 86400, 4 * 3600}}
	for _, perOld := range []float64{0.01, 1} {
		for _, n := range []int{32, 64, 128, 256} {
			for _, rg := range regimes {
				for _, pol := range []scenario.Policy{{}, {Kind: scenario.Moldable, Processors: n / 4}} {
					app := testmodel.QRLike(n)
					app.Recovery = scenario.RecoveryLinear(17, perOld, 0.01, n)
					sc := mustScenario(t, scenario.System{Processors: n, MTTF: rg.mttf, MTTR: rg.mttr}, app, pol)
					ex, err := New(ctx, sc, nil)
					if err != nil {
						t.Fatal(err)
					}
					opt, err := ex.Optimize(ctx, nil)
					if err != nil {
						t.Fatal(err)
					}
					for _, k := range []int{2, 4, 8} {
						b, err := New(ctx, sc, &Settings{OldCountBin: k})
						if err != nil {
							t.Fatal(err)
						}
						for _, i := range []float64{opt.Interval / 4, opt.Interval, 4 * opt.Interval} {
							e, _ := ex.Evaluate(ctx, i)
							r, err := b.Evaluate(ctx, i)
							if err != nil {
								t.Fatal(err)
							}
							tru := math.Abs(r.UWT - e.UWT)
							fmt.Printf("perOld=%g N=%d %s %v k=%d I=%.0f true=%.3g est=%.3g ratio=%.3g rel=%.2g states %d/%d\n", perOld, n, rg.name, pol.Kind, k, i, tru, r.BinError, tru/r.BinError, tru/e.UWT, r.Built, e.Built)
						}
					}
				}
			}
		}
	}
}
