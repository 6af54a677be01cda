package multilevel

import (
	"context"
	"errors"
	"fmt"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/ckpt-markov/markov/batchchain"
	"github.com/ckpt-markov/markov/scenario"
)

// TestPosEventsSingleSizes: with single failures forced through the
// positional chain's path of failure events (posevents.go: each stretch
// an exponential of the events' spare chain with the landing by
// functional count, the down states' event rows, the up phase's length
// by killSojourn), the positional chain gives the existing one
// (birthdeath's transition per stretch, landing at a − 1 + j) to 1e-12
// relative, under greedy, pb and a vector, for patterns and intervals;
// below an efficiency of 10 % the tolerance grows as 1e-13/efficiency
// (as TestEventsSingleSizes).
func TestPosEventsSingleSizes(t *testing.T) {
	ctx := context.Background()
	set := &Settings{Tol: 1e-15, Prune: -1}
	for _, tc := range []struct {
		sev []float64
		pol scenario.Policy
	}{
		{[]float64{0.5, 0.3, 0.2}, mallPolicies[0]},
		{[]float64{0, 0.6, 0.4}, mallPolicies[1]},
		{[]float64{0.3, 0.5, 0.2}, mallPolicies[2]},
	} {
		sc := threeLevel(t, 8, 2e4, 4000, tc.sev, tc.pol)
		want, got := singleAndForced(t, ctx, sc, set)
		if want.pos == nil || got.pos == nil || got.pos.evOf == nil || want.pos.evOf != nil {
			t.Fatalf("%v: not the positional chains", tc.pol)
		}
		for _, v := range [][]int{{0, 0}, {2, 1}, {1, 4}} {
			for _, I := range []float64{120, 900, 5000} {
				w, _, eff, _, _, err := want.pos.evaluate(v, I)
				if err != nil {
					t.Fatal(err)
				}
				g, _, _, _, _, err := got.pos.evaluate(v, I)
				if err != nil {
					t.Fatal(err)
				}
				tol := 1e-12 * math.Max(1, 0.1/eff)
				if d := math.Abs(g-w) / w; d > tol {
					t.Errorf("%v f=%v V=%v I=%v: events path %.15g, single-failure path %.15g (relative %.2g > %.2g)", tc.pol, tc.sev, v, I, g, w, d, tol)
				}
			}
		}
	}
}

// TestPosEventsFixedCount: with failure events and f₂ > 0 on a fixed
// count (moldable, with spares and down periods), the positional chain
// gives the fixed-count events model (events.go: whole periods composed
// as matrices, the down period's first passage: an independent
// derivation) to 1e-10 relative.
func TestPosEventsFixedCount(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		n, a  int
		sev   []float64
		sizes []float64
	}{
		{6, 4, []float64{0.5, 0.3, 0.2}, []float64{0.5, 0.5}},
		{8, 5, []float64{0, 0.7, 0.3}, []float64{0.3, 0.3, 0.4}},
		{5, 5, []float64{0.4, 0.3, 0.3}, []float64{0.6, 0, 0.4}},
	} {
		sc := withEvents(t, threeLevel(t, tc.n, 2e4, 4000, tc.sev, scenario.Policy{Kind: scenario.Moldable, Processors: tc.a}), tc.sizes)
		fixed, mm := fixedAndMalleable(t, ctx, sc)
		if mm.pos == nil || mm.pos.evOf == nil {
			t.Fatalf("N=%d a=%d: not the positional chain with events", tc.n, tc.a)
		}
		for _, v := range [][]int{{0, 0}, {2, 1}, {1, 3}} {
			for _, I := range []float64{120, 900, 5000} {
				want, err := fixed.Evaluate(v, I)
				if err != nil {
					t.Fatal(err)
				}
				got, avail, eff, down, _, err := mm.pos.evaluate(v, I)
				if err != nil {
					t.Fatal(err)
				}
				matchFixed(t, fmt.Sprintf("N=%d a=%d f=%v sizes %v V=%v I=%g", tc.n, tc.a, tc.sev, tc.sizes, v, I), got, avail, eff, down, want, 1e-10)
			}
		}
	}
}

// TestPosEventsContinuity: with failure events, f₂ = 1e-10 (the
// positional chain) gives the model of f₂ = 0 (the chain of up phases
// with events.go's up-phase matrices, which has no positions) to 1e-8
// relative under greedy and pb, and f₂ = 0.2 differs from it by more
// than 1e-4 when the pattern has level-2 checkpoints (the comparison can
// fail).
func TestPosEventsContinuity(t *testing.T) {
	ctx := context.Background()
	set := &Settings{Tol: 1e-15, Prune: -1}
	sizes := []float64{0.4, 0.3, 0.3}
	for _, pol := range mallPolicies[:2] {
		zero, err := NewWith(ctx, withEvents(t, threeLevel(t, 8, 2e4, 4000, []float64{0.6, 0, 0.4}, pol), sizes), set)
		if err != nil {
			t.Fatal(err)
		}
		near, err := NewWith(ctx, withEvents(t, threeLevel(t, 8, 2e4, 4000, []float64{0.6, 1e-10, 0.4 - 1e-10}, pol), sizes), set)
		if err != nil {
			t.Fatal(err)
		}
		far, err := NewWith(ctx, withEvents(t, threeLevel(t, 8, 2e4, 4000, []float64{0.6, 0.2, 0.2}, pol), sizes), set)
		if err != nil {
			t.Fatal(err)
		}
		if zero.mall.pos != nil || near.mall.pos == nil || near.mall.pos.evOf == nil {
			t.Fatalf("%v: the models are not the expected paths", pol)
		}
		for _, v := range [][]int{{0, 0}, {2, 1}, {5, 3}} {
			for _, I := range []float64{120, 1500} {
				w, err := zero.Evaluate(v, I)
				if err != nil {
					t.Fatal(err)
				}
				g, err := near.Evaluate(v, I)
				if err != nil {
					t.Fatal(err)
				}
				if d := math.Abs(g.UWT-w.UWT) / w.UWT; d > 1e-8 {
					t.Errorf("%v V=%v I=%g: f₂ = 1e-10 %.15g, f₂ = 0 %.15g (relative %.2g)", pol, v, I, g.UWT, w.UWT, d)
				}
				f, err := far.Evaluate(v, I)
				if err != nil {
					t.Fatal(err)
				}
				// Without level-2 checkpoints (V₂ = 0) a severity-2 failure is a
				// severity-3 one.
				if d := math.Abs(f.UWT-w.UWT) / w.UWT; v[1] > 0 && d < 1e-4 {
					t.Errorf("%v V=%v I=%g: f₂ = 0.2 %.15g is within %.2g of f₂ = 0", pol, v, I, f.UWT, d)
				}
			}
		}
	}
}

// TestPosEventsBounds: with failure events, a used count with more than
// MaxPositionSpares processors outside it is refused naming
// system.failure_severity, as with single failures (the bound is checked
// for every used count before any spare chain is built).
func TestPosEventsBounds(t *testing.T) {
	n := MaxPositionSpares + 10
	vec := make([]int, n)
	for i := range vec {
		vec[i] = min(i+1, 5)
	}
	sc := withEvents(t, threeLevel(t, n, 1e6, 3600, []float64{0.5, 0.3, 0.2}, scenario.Policy{Kind: scenario.Explicit, Explicit: vec}), []float64{0.5, 0.5})
	_, err := New(sc)
	var se *scenario.Error
	if !errors.As(err, &se) || se.Field != "system.failure_severity" {
		t.Errorf("a = 5 of %d with f₂ > 0 and events: %v, want an error naming system.failure_severity", n, err)
	}
}

// TestPosEventsLaw: with failure events the up phase's laws are
// probabilities: from every start, the laws of the functional count at
// its end (every position, first and later periods, and the failures
// that restore the level-3 checkpoint) sum to the row of (−A)⁻¹B
// restricted to the window, A and B batchchain's generator at the rate
// of processor-down events μ = (1 − f₁)λ (the functional count at the
// first processor-down event that strikes the application, whatever the
// application does: batchchain's chain and a dense solve, independent of
// the composition), to 1e-12; the window holds at least half of each
// law (the comparison is not void).
func TestPosEventsLaw(t *testing.T) {
	ctx := context.Background()
	sizes := []float64{0.5, 0.3, 0.2}
	sc := withEvents(t, threeLevel(t, 8, 1e4, 3000, []float64{0.3, 0.4, 0.3}, scenario.Policy{Kind: scenario.PerformanceBased}), sizes)
	m, err := NewWith(ctx, sc, &Settings{Tol: 1e-15, Prune: -1})
	if err != nil {
		t.Fatal(err)
	}
	p := m.mall.pos
	if p == nil || p.evOf == nil {
		t.Fatal("not the positional chain with events")
	}
	for _, pattern := range [][]int{{0, 0}, {3, 2}, {1, 7}} {
		for a, pr := range p.procs {
			c := &mcomposer{pr: pr, chain: p.chains[a], size: p.n - a + 1, pattern: pattern, interval: 500, ev: p.ev[a]}
			u, err := c.parts()
			if err != nil {
				t.Fatal(err)
			}
			bc, err := batchchain.New(p.n, a, p.mu, p.theta, sc.System.FailureEvents.Law())
			if err != nil {
				t.Fatal(err)
			}
			A, B := bc.Generator()
			A.Scale(-1, A)
			var res mat.Dense
			if err := res.Solve(A, B); err != nil {
				t.Fatal(err)
			}
			for s := 0; s <= p.n-a; s++ {
				for k := 0; k <= pattern[1]; k++ {
					law := combinedLaw(u, s, k, pattern[1], p.n-a+1)
					tot := law.total()
					if sum(tot) < 0.5 {
						t.Errorf("V=%v a=%d s=%d k=%d: the window holds %g of the law (the comparison is void)", pattern, a, s, k, sum(tot))
					}
					for j := range tot {
						want := 0.0
						if np := p.lo + j; np < p.n {
							want = res.At(s, np)
						}
						if math.Abs(tot[j]-want) > 1e-12 {
							t.Errorf("V=%v a=%d s=%d k=%d: %d functional at the end %.15g, (−A)⁻¹B %.15g", pattern, a, s, k, p.lo+j, tot[j], want)
						}
					}
				}
			}
		}
	}
}
