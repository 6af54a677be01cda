package optimal

import (
	"context"
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
