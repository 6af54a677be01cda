package multilevel

import (
	"context"
	"math"
	"testing"

	"github.com/ckpt-markov/markov/scenario"
)

// threeLevel returns twoLevel's scenario with a middle level (L = 60,
// C = 40, R = 80) and the severity shares sev.
func threeLevel(t testing.TB, n int, mttf, mttr float64, sev []float64, pol scenario.Policy) *scenario.Scenario {
	t.Helper()
	sc := twoLevel(t, n, mttf, mttr, []float64{0.5, 0.5}, pol)
	lv := sc.Application.Levels
	mid := scenario.Level{Latency: constant(60, n), Overhead: constant(40, n), Recovery: scenario.RecoveryConstant(80, n)}
	sc.Application.Levels = []scenario.Level{lv[0], mid, lv[1]}
	sc.System.FailureSeverity = &scenario.FailureSeverity{Shares: sev}
	if err := sc.Validate(); err != nil {
		t.Fatal(err)
	}
	return sc
}

// TestPositionFixedCount: on a fixed count (moldable, with spares and
// down periods) the positional chain (position.go: decision states with
// the position in the period, spare laws composed as matrices, the
// survival h of the work at risk) gives the fixed-count model (the nested
// period with the down-time factor: an independent derivation that
// handles every severity inside one period) to 1e-9 relative, for
// several shares with f₂ > 0, patterns and intervals. (The agreement
// observed is 1e-14; 1e-9 leaves room for the two dense solves.) Cases
// whose efficiency is below 1e-3 are skipped: there a superblock almost
// never completes, the loop matrices I − Z are singular to within the
// probability of leaving them, and the positional chain's relative error
// grows as ε over that probability (2.5e-6 at an efficiency of 3e-14),
// where the scalar composition has no subtraction.
func TestPositionFixedCount(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		n, a int
		mttf float64
		sev  []float64
	}{
		{6, 4, 1.5e4, []float64{0.5, 0.3, 0.2}},
		{8, 5, 5e4, []float64{0.2, 0.7, 0.1}},
		{5, 5, 1e4, []float64{0, 0.5, 0.5}},
		{7, 2, 3e3, []float64{0.6, 0.4, 0}},
	} {
		sc := threeLevel(t, tc.n, tc.mttf, 4000, tc.sev, scenario.Policy{Kind: scenario.Moldable, Processors: tc.a})
		fixed, err := New(sc)
		if err != nil {
			t.Fatal(err)
		}
		mm, err := newMalleable(ctx, sc, &Settings{Tol: 1e-15, Prune: -1})
		if err != nil {
			t.Fatal(err)
		}
		if mm.pos == nil {
			t.Fatalf("f = %v: no positional chain", tc.sev)
		}
		for _, v := range [][]int{{0, 0}, {2, 1}, {5, 3}, {0, 4}, {1, 12}} {
			for _, I := range []float64{60, 600, 3000} {
				want, err := fixed.Evaluate(v, I)
				if err != nil {
					t.Fatal(err)
				}
				if want.Efficiency < 1e-3 {
					continue
				}
				got, avail, eff, down, lost, err := mm.pos.evaluate(v, I)
				if err != nil {
					t.Fatal(err)
				}
				if lost > 1e-12 {
					t.Errorf("N=%d a=%d: the window loses %g", tc.n, tc.a, lost)
				}
				for _, c := range []struct {
					name      string
					got, want float64
				}{{"UWT", got, want.UWT}, {"availability", avail, want.Availability}, {"efficiency", eff, want.Efficiency}} {
					if d := math.Abs(c.got-c.want) / c.want; d > 1e-9 {
						t.Errorf("N=%d a=%d f=%v V=%v I=%g: %s %.15g, fixed-count model %.15g (relative %.2g)", tc.n, tc.a, tc.sev, v, I, c.name, c.got, c.want, d)
					}
				}
				if d := math.Abs(down - want.Down); d > 1e-9*(1+want.Down) {
					t.Errorf("N=%d a=%d: down %.15g, fixed-count model %.15g", tc.n, tc.a, down, want.Down)
				}
			}
		}
	}
}

// TestPositionContinuity: at f₂ = 0 the positional chain (forced) gives
// the malleable model without positions (malleable.go: whole periods per
// up phase, scalar composition; an independent algorithm) to 1e-9
// relative under greedy, pb and a vector; and New at f₂ = 10⁻¹⁰ (the
// positional chain) is within 1e-8 of New at f₂ = 0 (the model without
// positions): no jump where the two paths meet.
func TestPositionContinuity(t *testing.T) {
	ctx := context.Background()
	set := &Settings{Tol: 1e-15, Prune: -1}
	for _, pol := range mallPolicies {
		sc := threeLevel(t, 8, 2e4, 4000, []float64{0.6, 0, 0.4}, pol)
		old, err := newMalleable(ctx, sc, set)
		if err != nil {
			t.Fatal(err)
		}
		if old.pos != nil {
			t.Fatalf("%v: f₂ = 0 built the positional chain", pol)
		}
		forced, err := buildMalleable(ctx, sc, set, true)
		if err != nil {
			t.Fatal(err)
		}
		near := threeLevel(t, 8, 2e4, 4000, []float64{0.6, 1e-10, 0.4 - 1e-10}, pol)
		nm, err := NewWith(ctx, near, set)
		if err != nil {
			t.Fatal(err)
		}
		if nm.mall == nil || nm.mall.pos == nil {
			t.Fatalf("%v: f₂ = 1e-10 did not build the positional chain", pol)
		}
		for _, v := range [][]int{{0, 0}, {2, 1}, {5, 3}, {1, 9}} {
			for _, I := range []float64{120, 1500} {
				want, _, _, _ := old.evaluate(v, I)
				got, _, _, _, _, err := forced.pos.evaluate(v, I)
				if err != nil {
					t.Fatal(err)
				}
				if d := math.Abs(got-want) / want; d > 1e-9 {
					t.Errorf("%v V=%v I=%g: positional %.15g, without positions %.15g (relative %.2g)", pol, v, I, got, want, d)
				}
				r, err := nm.Evaluate(v, I)
				if err != nil {
					t.Fatal(err)
				}
				if d := math.Abs(r.UWT-want) / want; d > 1e-8 {
					t.Errorf("%v V=%v I=%g: f₂ = 1e-10 %.15g, f₂ = 0 %.15g (relative %.2g)", pol, v, I, r.UWT, want, d)
				}
			}
		}
	}
}

// TestPositionLaw: the up phase's laws are probabilities: from every
// start, the spare laws at its end (every position, first and later
// periods, and the failures that restore the level-3 checkpoint) sum to
// the resolvent row aμ(aμI − G)⁻¹ (the spare count at the first failure
// of a used processor, whatever the application does: computed here by
// birthdeath's Resolvent, an independent routine) to 1e-12.
func TestPositionLaw(t *testing.T) {
	ctx := context.Background()
	sc := threeLevel(t, 8, 1e4, 3000, []float64{0.3, 0.4, 0.3}, scenario.Policy{Kind: scenario.PerformanceBased})
	m, err := NewWith(ctx, sc, &Settings{Tol: 1e-15, Prune: -1})
	if err != nil {
		t.Fatal(err)
	}
	p := m.mall.pos
	for _, pattern := range [][]int{{0, 0}, {3, 2}, {1, 7}} {
		for a, pr := range p.procs {
			c := &mcomposer{pr: pr, chain: p.chains[a], size: p.n - a + 1, pattern: pattern, interval: 500}
			u, err := c.parts()
			if err != nil {
				t.Fatal(err)
			}
			rb, err := p.chains[a].Resolvent(0, p.n-a+1, float64(a)*p.mu, 0)
			if err != nil {
				t.Fatal(err)
			}
			for s := 0; s <= p.n-a; s++ {
				for k := 0; k <= pattern[1]; k++ {
					law := u.law(s, k, pattern[1], p.n-a+1)
					tot := append([]float64(nil), law.zero...)
					for _, rows := range [][][]float64{law.kill, law.later} {
						for _, r := range rows {
							for j, x := range r {
								tot[j] += x
							}
						}
					}
					row := rb.Rows[s]
					for j := range tot {
						want := 0.0
						if j >= row.Lo && j-row.Lo < len(row.Q) {
							want = row.Q[j-row.Lo]
						}
						if math.Abs(tot[j]-want) > 1e-12 {
							t.Errorf("V=%v a=%d s=%d k=%d: spares %d at the end %.15g, resolvent %.15g", pattern, a, s, k, j, tot[j], want)
						}
					}
				}
			}
		}
	}
}
