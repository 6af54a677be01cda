package multilevel

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/ckpt-markov/markov/scenario"
)

// TestReconfPosContinuity: at f₂ = 0 the chain with reconfiguration and
// positions (reconfpos.go, forced) gives reconf.go's chain without
// positions (whole periods: an existing exact model) to 1e-10 relative,
// under greedy, pb and a vector, with the level-3 recovery by new and by
// old count; and New at f₂ = 10⁻¹⁰ (the chain with positions) is within
// 1e-8 of f₂ = 0: no jump where the two paths meet.
func TestReconfPosContinuity(t *testing.T) {
	ctx := context.Background()
	set := &Settings{Tol: 1e-15, Prune: -1}
	for _, pol := range mallPolicies {
		for _, byOld := range []bool{false, true} {
			mk := func(f2 float64) *scenario.Scenario {
				sc := threeLevel(t, 8, 2e4, 4000, []float64{0.6, f2, 0.4 - f2}, pol)
				if byOld {
					sc.Application.Levels[2].Recovery = scenario.RecoveryLinear(100, 20, 5, 8)
				}
				sc.Reconfigure = scenario.AtCheckpoint
				return sc
			}
			old, err := newMalleable(ctx, mk(0), set)
			if err != nil {
				t.Fatal(err)
			}
			if old.rc == nil || old.rc.pos {
				t.Fatalf("%v: f₂ = 0 did not build the chain without positions", pol)
			}
			forced, err := buildMalleable(ctx, mk(0), set, true)
			if err != nil {
				t.Fatal(err)
			}
			if !forced.rc.pos {
				t.Fatalf("%v: forced: no positions", pol)
			}
			nm, err := NewWith(ctx, mk(1e-10), set)
			if err != nil {
				t.Fatal(err)
			}
			if !nm.mall.rc.pos {
				t.Fatalf("%v: f₂ = 1e-10 did not build the chain with positions", pol)
			}
			for _, v := range [][]int{{0, 0}, {2, 1}, {5, 3}, {1, 9}} {
				for _, I := range []float64{120, 1500} {
					name := fmt.Sprintf("%v old=%v V=%v I=%g", pol, byOld, v, I)
					want, wa, _, _, _, err := old.rc.evaluate(v, I)
					if err != nil {
						t.Fatal(err)
					}
					got, ga, _, _, _, err := forced.rc.evaluate(v, I)
					if err != nil {
						t.Fatal(err)
					}
					if d := math.Abs(got-want) / want; d > 1e-10 {
						t.Errorf("%s: with positions %.15g, without %.15g (relative %.2g)", name, got, want, d)
					}
					if d := math.Abs(ga-wa) / wa; d > 1e-10 {
						t.Errorf("%s: availability with positions %.15g, without %.15g (relative %.2g)", name, ga, wa, d)
					}
					r, err := nm.Evaluate(v, I)
					if err != nil {
						t.Fatal(err)
					}
					if d := math.Abs(r.UWT-want) / want; d > 1e-8 {
						t.Errorf("%s: f₂ = 1e-10 %.15g, f₂ = 0 %.15g (relative %.2g)", name, r.UWT, want, d)
					}
				}
			}
		}
	}
}

// TestReconfPosFixedCount: on a fixed count (moldable: reconfiguration
// never changes the count, the only policy under which no checkpoint is
// a reconfiguration opportunity, since n ≥ a while the application runs
// on a) the chain with reconfiguration and positions gives the
// fixed-count model (the nested period with the down-time factor, an
// independent derivation) and the positional chain without
// reconfiguration (position.go's lifted structured solve) to 1e-9
// relative, for several shares with f₂ > 0, patterns and intervals
// (efficiencies below 1e-3 skipped, as in TestPositionFixedCount).
func TestReconfPosFixedCount(t *testing.T) {
	ctx := context.Background()
	set := &Settings{Tol: 1e-15, Prune: -1}
	for _, tc := range fixedCountCases {
		sc := threeLevel(t, tc.n, tc.mttf, 4000, tc.sev, scenario.Policy{Kind: scenario.Moldable, Processors: tc.a})
		fixed, err := New(sc)
		if err != nil {
			t.Fatal(err)
		}
		never, err := newMalleable(ctx, sc, set)
		if err != nil {
			t.Fatal(err)
		}
		sc.Reconfigure = scenario.AtCheckpoint
		mm, err := newMalleable(ctx, sc, set)
		if err != nil {
			t.Fatal(err)
		}
		if mm.rc == nil || !mm.rc.pos {
			t.Fatalf("f = %v: not the chain with reconfiguration and positions", tc.sev)
		}
		for _, v := range fixedCountPatterns {
			for _, I := range fixedCountIntervals {
				name := fmt.Sprintf("N=%d a=%d f=%v V=%v I=%g", tc.n, tc.a, tc.sev, v, I)
				want, err := fixed.Evaluate(v, I)
				if err != nil {
					t.Fatal(err)
				}
				if want.Efficiency < 1e-3 {
					continue
				}
				got, avail, eff, down, lost, err := mm.rc.evaluate(v, I)
				if err != nil {
					t.Fatal(err)
				}
				if lost > 1e-12 {
					t.Errorf("%s: the window loses %g", name, lost)
				}
				matchFixed(t, name, got, avail, eff, down, want, 1e-9)
				pos, _, _, _, _, err := never.pos.evaluate(v, I)
				if err != nil {
					t.Fatal(err)
				}
				if d := math.Abs(got-pos) / pos; d > 1e-9 {
					t.Errorf("%s: with reconfiguration %.15g, positional chain %.15g (relative %.2g)", name, got, pos, d)
				}
			}
		}
	}
}

// TestReconfPosRefusals: with three levels and f₂ > 0, a level-2
// recovery by old count, a pattern whose chain exceeds MaxReconfStates
// and a level-3 recovery by old count whose positions exceed
// maxReconfBlock are refused with errors naming reconfigure (and the
// same scenarios within the bounds are accepted).
func TestReconfPosRefusals(t *testing.T) {
	sc := threeLevel(t, 8, 2e4, 4000, []float64{0.5, 0.3, 0.2}, scenario.Policy{Kind: scenario.Greedy})
	sc.Reconfigure = scenario.AtCheckpoint
	sc.Application.Levels[1].Recovery = scenario.RecoveryLinear(80, 10, 0, 8)
	_, err := New(sc)
	var se *scenario.Error
	if !errors.As(err, &se) || se.Field != "reconfigure" || !strings.Contains(err.Error(), "level 2's recovery") {
		t.Errorf("level 2 by old count: %v, want a scenario.Error naming reconfigure", err)
	}
	sc = threeLevel(t, 8, 2e4, 4000, []float64{0.5, 0.3, 0.2}, scenario.Policy{Kind: scenario.Greedy})
	sc.Reconfigure = scenario.AtCheckpoint
	m, err := New(sc)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Evaluate([]int{0, 3}, 600); err != nil {
		t.Fatalf("V = [0 3]: %v", err)
	}
	_, err = m.Evaluate([]int{0, MaxReconfStates}, 600)
	if !errors.As(err, &se) || se.Field != "reconfigure" || !strings.Contains(err.Error(), "more than") {
		t.Errorf("V₂ = %d: %v, want a scenario.Error naming reconfigure", MaxReconfStates, err)
	}
	// A level-3 recovery by old count keeps the writer in the labels: a
	// window of some 60 counts makes a position 2w² > maxReconfBlock.
	sc = threeLevel(t, 512, 86400, 3600, []float64{0.5, 0.3, 0.2}, scenario.Policy{Kind: scenario.Greedy})
	sc.Reconfigure = scenario.AtCheckpoint
	sc.Application.Levels[2].Recovery = scenario.RecoveryLinear(100, 1, 0, 512)
	_, err = New(sc)
	if !errors.As(err, &se) || se.Field != "reconfigure" || !strings.Contains(err.Error(), "a position of the chain") {
		t.Errorf("N = 512, R₃ by old count: %v, want a scenario.Error naming reconfigure", err)
	}
	sc.Application.Levels[2].Recovery = scenario.RecoveryConstant(100, 512)
	if _, err := New(sc); err != nil {
		t.Errorf("N = 512, R₃ by new count: %v", err)
	}
}
