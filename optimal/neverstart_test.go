package optimal

import (
	"context"
	"math"
	"slices"
	"testing"

	"github.com/ckpt-markov/markov/scenario"
)

// TestNeverStartFixedInterval holds the claims behind level 2's start from
// the optimum without reconfiguration (neverstart.go) on every scenario
// with reconfiguration of the package, at three intervals: the optimum
// without reconfiguration, μ_never, evaluated as a policy of the process
// with reconfiguration (fromNever) has the gain g*_never(I) of the chain
// of up phases (1e-10 relative: the same policy, two evaluations), so
// g*_never(I) ≤ g*(I) (to 1e-12); and policy iteration from it, and from
// it with the choices in U of seed (neverPolicy), ends at the g*(I) of
// policy iteration from greedy (FixedInterval, 1e-10: the optimum does
// not depend on the start). Power: on some scenario g*(I) exceeds
// g*_never(I) by more than 1e-6 relative, so the comparison at 1e-10
// fails a solve that stopped at its start (μ_never) or took g*_never for
// g*.
func TestNeverStartFixedInterval(t *testing.T) {
	ctx := context.Background()
	const tol = 1e-10
	gap := 0.0
	for _, c := range reconfCases(t) {
		t.Run(c.name, func(t *testing.T) {
			sv, err := New(c.sc, c.set)
			if err != nil {
				t.Fatal(err)
			}
			nv, err := sv.neverSolver()
			if err != nil {
				t.Fatal(err)
			}
			if !nv.phase || nv.reconf {
				t.Fatalf("the solver without reconfiguration has phase %v, reconf %v", nv.phase, nv.reconf)
			}
			for _, iv := range []float64{150, 600, 2400} {
				rn, err := nv.FixedInterval(ctx, iv)
				if err != nil {
					t.Fatal(err)
				}
				start := sv.fromNever(rn.Policy, iv)
				v, err := sv.evaluate(ctx, start, false)
				if err != nil {
					t.Fatal(err)
				}
				if e := relDiff(v.g, rn.UWT); e > tol {
					t.Errorf("I = %g: μ_never's g = %.15g with up states, %.15g in the chain of up phases (rel. diff %.2g)", iv, v.g, rn.UWT, e)
				}
				rg, err := sv.FixedInterval(ctx, iv)
				if err != nil {
					t.Fatal(err)
				}
				rs, err := sv.fixed(ctx, start, iv, false)
				if err != nil {
					t.Fatal(err)
				}
				if e := relDiff(rs.UWT, rg.UWT); e > tol {
					t.Errorf("I = %g: g* = %.15g from μ_never, %.15g from greedy (rel. diff %.2g)", iv, rs.UWT, rg.UWT, e)
				}
				s := &singleSearch{sv: sv, ctx: ctx, never: &singleSearch{sv: nv, ctx: ctx, cur: nv.Greedy(iv)}}
				seeded := s.neverPolicy(math.Log(iv))
				if s.err != nil {
					t.Fatal(s.err)
				}
				if !slices.Equal(seeded.action, rn.Policy.action) {
					t.Errorf("I = %g: the seeded start's actions in X are not μ_never's", iv)
				}
				rd, err := sv.fixed(ctx, seeded, iv, false)
				if err != nil {
					t.Fatal(err)
				}
				if e := relDiff(rd.UWT, rg.UWT); e > tol {
					t.Errorf("I = %g: g* = %.15g from the seeded start, %.15g from greedy (rel. diff %.2g)", iv, rd.UWT, rg.UWT, e)
				}
				if rn.UWT > rg.UWT*(1+1e-12) {
					t.Errorf("I = %g: g*_never = %.15g above g* = %.15g", iv, rn.UWT, rg.UWT)
				}
				gap = max(gap, (rg.UWT-rn.UWT)/rg.UWT)
			}
		})
	}
	if gap <= 1e-6 {
		t.Errorf("power: g* exceeds g*_never by at most %.2g relative on every scenario: the comparisons cannot tell a solve that stops at μ_never", gap)
	}
	t.Logf("largest (g* − g*_never)/g*: %.3g", gap)
}

// TestNeverStartSameLevel2 holds level 2 with its fixed-interval solves
// started from the optimum without reconfiguration (neverStart, whatever
// the cost: neverStartForce) against
// level 2 started as before (from the policy of the nearest interval
// solved, greedy first) on every scenario with reconfiguration of the
// package and on QR at N = 32 (MTTF 8 h, MTTR 4 h), with checkSingle's
// tolerances (g* to 1e-10; I* within the width where g* is flat to
// RelTol, with its power check); the scan solves the same intervals
// (Evaluations equal), since only the start of each solve changes.
func TestNeverStartSameLevel2(t *testing.T) {
	cases := reconfCasesQR32(t)
	ctx := context.Background()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			single := func(on bool) Single {
				neverStart, neverStartForce = on, on
				defer func() { neverStart, neverStartForce = true, false }()
				sv, err := New(c.sc, c.set)
				if err != nil {
					t.Fatal(err)
				}
				s, err := sv.SingleInterval(ctx, 0)
				if err != nil {
					t.Fatal(err)
				}
				if on != (sv.never != nil) {
					t.Fatalf("neverStart %v: solver without reconfiguration built: %v", on, sv.never != nil)
				}
				return s
			}
			sn, so := single(true), single(false)
			checkSingle(t, sn, so, "the start without reconfiguration", "the nearest solve's start")
			if sn.Evaluations != so.Evaluations {
				t.Errorf("solves: %d from the start without reconfiguration, %d before", sn.Evaluations, so.Evaluations)
			}
		})
	}
}

// TestUseNeverStart holds the rule of useNeverStart on the cases of
// BenchmarkReconfigure it was measured on: the start from the optimum
// without reconfiguration at QR N = 64 (2,002 up states, R(p, a)), not at
// QR N = 32 (528) nor on the desktop grid at N = 64 (no R(p, a)), nor
// without reconfiguration.
func TestUseNeverStart(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the solver of QR on 64 processors")
	}
	want := map[string]bool{"qr/N=64/at-checkpoint": true}
	for _, c := range reconfigureBenchCases("qr/N=32/", "qr/N=64/", "desktop/N=64/") {
		sc := c.sc(t)
		if c.reconf {
			sc.Reconfigure = scenario.AtCheckpoint
		}
		sv, err := New(sc, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := sv.useNeverStart(); got != want[c.name] {
			t.Errorf("%s (%d up states, R depends on p: %v): useNeverStart %v, want %v", c.name, sv.nU, sv.byOld, got, want[c.name])
		}
	}
}
