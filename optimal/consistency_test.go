package optimal

import (
	"context"
	"math"
	"testing"

	"github.com/ckpt-markov/markov/scenario"
	"github.com/ckpt-markov/markov/uwt"
)

// TestConsistencyWindow checks, on the default window (not the full
// state space) and the QR application of package bench (recovery cost
// R(p, a) depending on p), that g of the optimal fixed-interval policy
// equals the UWT that package uwt computes for its vector, to 1e-12 (the
// issue's tolerance; both drop at most DefaultTol of mass per jump).
func TestConsistencyWindow(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		n          int
		mttf, mttr float64
		interval   float64
	}{
		// The CLI's built-in system (internal/cli: MTTF 104.61 d, MTTR
		// 56.03 min) and a desktop grid (MTTF 8 h, MTTR 4 h).
		{32, 104.61 * 86400, 56.03 * 60, 3600},
		{24, 8 * 3600, 4 * 3600, 900},
	} {
		sc := qrScenario(t, c.n, c.mttf, c.mttr)
		sv, err := New(sc, nil)
		if err != nil {
			t.Fatal(err)
		}
		res, err := sv.FixedInterval(ctx, c.interval)
		if err != nil {
			t.Fatal(err)
		}
		vec, err := res.Policy.Vector()
		if err != nil {
			t.Logf("N = %d: %v; checking the renewal–reward ratio only", c.n, err)
		} else {
			sc2 := *sc
			sc2.Policy, sc2.Reschedule = scenario.Policy{Kind: scenario.Explicit, Explicit: vec}, vec
			m, err := uwt.New(context.Background(), &sc2, nil)
			if err != nil {
				t.Fatal(err)
			}
			u, err := m.Evaluate(ctx, c.interval)
			if err != nil {
				t.Fatal(err)
			}
			if d := relDiff(u.UWT, res.UWT); d > 1e-12 {
				t.Errorf("N = %d: g = %.15g, uwt %.15g (rel. diff %.2g)", c.n, res.UWT, u.UWT, d)
			}
			t.Logf("N = %d: g = %.15g, uwt %.15g, r* = %v", c.n, res.UWT, u.UWT, vec)
		}
		if d := relDiff(res.UWT, res.RenewalReward); d > 1e-12 {
			t.Errorf("N = %d: g = %.15g, renewal–reward %.15g", c.n, res.UWT, res.RenewalReward)
		}
	}
}

// TestErrors: bad input gets an error naming what is wrong, and failure
// events (several processors at once, docs/model.md section 11), which the
// decision process does not model, are refused rather than solved wrongly.
func TestErrors(t *testing.T) {
	sc := oracleCases()[0].scenario(t, scenario.Policy{})
	ev := *sc
	ev.System.FailureEvents = &scenario.FailureEvents{Sizes: []float64{0.5, 0.5}}
	for _, c := range []struct {
		name string
		sc   *scenario.Scenario
		set  *Settings
	}{
		{"nil scenario", nil, nil},
		{"failure events", &ev, nil},
		{"tie tolerance", sc, &Settings{TieTol: -1}},
		{"interval bounds", sc, &Settings{MinInterval: 10, MaxInterval: 5}},
		{"candidate out of range", sc, &Settings{Candidates: []int{0}}},
		{"too many states", sc, &Settings{MaxStates: 3}},
	} {
		if _, err := New(c.sc, c.set); err == nil {
			t.Errorf("%s: no error", c.name)
		}
	}
	sv, err := New(sc, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sv.FixedInterval(context.Background(), math.NaN()); err == nil {
		t.Error("NaN interval: no error")
	}
	if _, err := Refine(context.Background(), sc, nil, 0); err == nil {
		t.Error("step 0: no error")
	}
}
