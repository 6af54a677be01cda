package uwt

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/ckpt-markov/markov/internal/testmodel"
	"github.com/ckpt-markov/markov/scenario"
)

// The fast path agrees with the exact full-state-space solve to 1e-9
// relative in UWT (issues "Scale" and "Scale II"), for N = 16 … 256 on
// five rate regimes, at the optimal interval and a factor 4 either side.
func TestFastMatchesExact(t *testing.T) {
	sizes := []int{16, 32, 64, 128, 256}
	if testing.Short() {
		sizes = sizes[:3]
	}
	regimes := []struct {
		name       string
		mttf, mttr float64
		pol        func(n int) scenario.Policy
	}{
		{"hpc greedy", 100 * 86400, 3600, func(int) scenario.Policy { return scenario.Policy{} }},
		{"flaky greedy", 2 * 86400, 4 * 3600, func(int) scenario.Policy { return scenario.Policy{} }},
		{"desktop greedy", 8 * 3600, 4 * 3600, func(int) scenario.Policy { return scenario.Policy{} }},
		{"desktop moldable", 8 * 3600, 4 * 3600, func(n int) scenario.Policy {
			return scenario.Policy{Kind: scenario.Moldable, Processors: n / 4}
		}},
		{"reliable pb", 5 * 365 * 86400, 3600, func(int) scenario.Policy {
			return scenario.Policy{Kind: scenario.PerformanceBased}
		}},
	}
	for _, n := range sizes {
		for _, rg := range regimes {
			t.Run(fmt.Sprintf("N=%d/%s", n, rg.name), func(t *testing.T) {
				sys := scenario.System{Processors: n, MTTF: rg.mttf, MTTR: rg.mttr}
				sc := mustScenario(t, sys, testmodel.QRLike(n), rg.pol(n))
				fast, err := New(context.Background(), sc, nil)
				if err != nil {
					t.Fatal(err)
				}
				opt, err := fast.Optimize(context.Background(), nil)
				if err != nil {
					t.Fatal(err)
				}
				exact, err := New(context.Background(), sc, &Settings{Exact: true})
				if err != nil {
					t.Fatal(err)
				}
				for _, i := range []float64{opt.Interval / 4, opt.Interval, 4 * opt.Interval} {
					f, err := fast.Evaluate(context.Background(), i)
					if err != nil {
						t.Fatal(err)
					}
					e, err := exact.Evaluate(context.Background(), i)
					if err != nil {
						t.Fatal(err)
					}
					if d := math.Abs(f.UWT-e.UWT) / e.UWT; d > 1e-9 {
						t.Errorf("I=%.4g: fast UWT %.15g (%d states), exact %.15g (%d states): rel %g",
							i, f.UWT, f.States, e.UWT, e.States, d)
					}
					if f.Outside > DefaultTol {
						t.Errorf("I=%.4g: window dropped %g of %g in all, want ≤ Tol", i, f.Outside, f.Dropped)
					}
				}
			})
		}
	}
}

// A loose window tolerance really changes the answer by about the dropped
// mass, so the comparison above can fail.
func TestFastToleranceMatters(t *testing.T) {
	sys := scenario.System{Processors: 64, MTTF: 2 * 86400, MTTR: 4 * 3600}
	sc := mustScenario(t, sys, testmodel.QRLike(64), scenario.Policy{})
	tight := evaluate(t, sc, &Settings{Exact: true}, 3600)
	loose := evaluate(t, sc, &Settings{Tol: 1e-3}, 3600)
	d := math.Abs(loose.UWT-tight.UWT) / tight.UWT
	if d < 1e-9 || loose.States >= tight.States {
		t.Errorf("Tol 1e-3: rel change %g with %d of %d states; want a visible change", d, loose.States, tight.States)
	}
}
