package optimal

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/ckpt-markov/markov/scenario"
	"github.com/ckpt-markov/markov/sim"
	"github.com/ckpt-markov/markov/uwt"
)

// recoveryMatrixCase is oracle case "pb" (N = 5) with a recovery cost
// that depends on the old count, 30 + 60|p − a| s (TestRecoveryMatrix),
// on which the optimal policy depends on p at some intervals.
func recoveryMatrixCase(t *testing.T) (scenario.System, scenario.Application) {
	c := oracleCases()[1]
	base := c.scenario(t, scenario.Policy{})
	mat := make([][]float64, c.n)
	for p := range mat {
		mat[p] = make([]float64, c.n)
		for a := range mat[p] {
			mat[p][a] = 30 + 60*float64(max(p-a, a-p))
		}
	}
	app := base.Application
	app.Recovery = scenario.RecoveryMatrix(mat)
	return base.System, app
}

// migrationCase is oracle case "six" (N = 6) with a recovery cost of 30 s
// on the processors of the checkpoint and 30 + 1200 s on any other count
// (a migration), on which the optimal policy depends on p: it prefers to
// stay on the count it checkpointed on.
func migrationCase(t *testing.T, mttf float64) (scenario.System, scenario.Application) {
	c := oracleCases()[4]
	base := c.scenario(t, scenario.Policy{})
	mat := make([][]float64, c.n)
	for p := range mat {
		mat[p] = make([]float64, c.n)
		for a := range mat[p] {
			mat[p][a] = 30
			if a != p {
				mat[p][a] += 1200
			}
		}
	}
	app := base.Application
	app.Recovery = scenario.RecoveryMatrix(mat)
	sys := base.System
	sys.MTTF = mttf
	return sys, app
}

// TestTableRoundTrip writes the optimal policy as a decision table in the
// JSON form of a scenario file and in its text form, reads both back as
// the scenario's policy, and checks that package uwt's exact model of the
// scenario read back (an independent computation: the chain of all states
// with the table's actions, not the decision process) gives the solver's
// own g* to 1e-12, on policies that depend on p and on one that does not.
func TestTableRoundTrip(t *testing.T) {
	ctx := context.Background()
	sys, app := recoveryMatrixCase(t)
	plain := oracleCases()[4] // "six": R by new count, a vector
	plainSC := plain.scenario(t, scenario.Policy{})
	mig4, app4 := migrationCase(t, 4*3600)
	mig12, app12 := migrationCase(t, 12*3600)
	dependent := 0
	for _, tc := range []struct {
		name     string
		sys      scenario.System
		app      scenario.Application
		interval float64
	}{
		{"R(p,a) I=600", sys, app, 600},
		{"R(p,a) I=3600", sys, app, 3600},
		{"R(p,a) I=4h", sys, app, 4 * 3600},
		{"R(p,a) I*", sys, app, 0},
		{"vector I*", plainSC.System, plainSC.Application, 0},
		{"migration 4h I*", mig4, app4, 0},
		{"migration 4h I=600", mig4, app4, 600},
		{"migration 4h I=3600", mig4, app4, 3600},
		{"migration 12h I*", mig12, app12, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sol, err := Solve(ctx, tc.sys, tc.app, &Options{Interval: tc.interval, Settings: &Settings{Full: true, Workers: 1}})
			if err != nil {
				t.Fatal(err)
			}
			tab, err := sol.Policy.Table()
			if err != nil {
				t.Fatal(err)
			}
			if tab.DependsOnOld() != sol.Policy.DependsOnOld() {
				t.Errorf("table depends on p: %v, policy: %v", tab.DependsOnOld(), sol.Policy.DependsOnOld())
			}
			if tab.DependsOnOld() {
				dependent++
			}
			n := tc.sys.Processors
			ps := []int{0}
			if tc.app.Recovery.DependsOnOld() {
				ps = sol.Solver.Candidates()
			}
			for _, p := range ps {
				for k := 1; k <= n; k++ {
					if got, want := tab.Action(p, k), sol.Policy.Action(p, k); got != want {
						t.Errorf("table X(%d, %d) = %d, policy %d", p, k, got, want)
					}
				}
			}
			obj, err := json.Marshal(map[string]any{"table": scenario.TableJSON(tab.Entries())})
			if err != nil {
				t.Fatal(err)
			}
			for _, form := range []string{string(obj), fmt.Sprintf("%q", "table:"+tab.String())} {
				// The application as the solver had it; the policy read back.
				pol, err := scenario.ParsePolicyJSON([]byte(form), n)
				if err != nil {
					t.Fatalf("%s: %v", form, err)
				}
				sc, err := scenario.New(tc.sys, tc.app, pol)
				if err != nil {
					t.Fatalf("%s: %v", form, err)
				}
				if (sc.Table != nil) != tab.DependsOnOld() {
					t.Errorf("%s: scenario table %v", form, sc.Table)
				}
				interval := tc.interval
				if interval == 0 {
					interval = sol.Interval
				}
				m, err := uwt.New(ctx, sc, &uwt.Settings{Exact: true, Prune: -1})
				if err != nil {
					t.Fatal(err)
				}
				u, err := m.Evaluate(ctx, interval)
				if err != nil {
					t.Fatal(err)
				}
				if d := relDiff(u.UWT, sol.UWT); d > 1e-12 {
					t.Errorf("%.60s: uwt %.15g, g* %.15g (rel. %.2g)", form, u.UWT, sol.UWT, d)
				}
				// uwt's fast path (the chain of up phases, on the window of
				// functional counts): within its default Tol = 1e-12 of mass
				// dropped, so 1e-9 relative.
				fast, err := uwt.New(ctx, sc, nil)
				if err != nil {
					t.Fatal(err)
				}
				if u, err = fast.Evaluate(ctx, interval); err != nil {
					t.Fatal(err)
				}
				if d := relDiff(u.UWT, sol.UWT); d > 1e-9 {
					t.Errorf("%.60s: uwt fast path %.15g, g* %.15g (rel. %.2g)", form, u.UWT, sol.UWT, d)
				}
			}
			t.Logf("g* = %.12g, table %s", sol.UWT, tab)
		})
	}
	if dependent == 0 {
		t.Error("no case depends on p: the test checks no decision table")
	}
}

// TestTableSimulation replays the optimal decision table of the migration
// case (MTTF 4 h, I = 1 h, where the table depends on p) in the Monte
// Carlo simulator (package sim, exponential processors, its own timeline:
// an independent computation) and checks that g* lies in its 99 %
// confidence interval. Power: the table's default row as a vector (the
// same actions, blind to p) has a UWT outside that interval, so the
// simulator does tell the table from a vector.
func TestTableSimulation(t *testing.T) {
	if testing.Short() {
		t.Skip("Monte Carlo")
	}
	ctx := context.Background()
	sys, app := migrationCase(t, 4*3600)
	const interval = 3600
	sol, err := Solve(ctx, sys, app, &Options{Interval: interval, Settings: &Settings{Full: true, Workers: 1}})
	if err != nil {
		t.Fatal(err)
	}
	sc, err := sol.TableScenario()
	if err != nil {
		t.Fatal(err)
	}
	if sc.Table == nil {
		t.Fatal("the policy does not depend on p: no table to replay")
	}
	out, err := sim.Run(ctx, sc, interval, &sim.Settings{Seed: 7, RelTol: 0.002})
	if err != nil {
		t.Fatal(err)
	}
	if !out.UWT.Contains(sol.UWT) {
		t.Errorf("g* = %.6g outside the simulator's 99 %% interval %.6g ± %.3g", sol.UWT, out.UWT.Mean, out.UWT.HalfWidth)
	}
	def, err := scenario.New(sys, app, scenario.Policy{Kind: scenario.Explicit, Explicit: sc.Reschedule})
	if err != nil {
		t.Fatal(err)
	}
	m, err := uwt.New(ctx, def, &uwt.Settings{Exact: true, Prune: -1})
	if err != nil {
		t.Fatal(err)
	}
	u, err := m.Evaluate(ctx, interval)
	if err != nil {
		t.Fatal(err)
	}
	if out.UWT.Contains(u.UWT) {
		t.Errorf("the simulator cannot tell the table (g* = %.6g) from its default row (%.6g): interval %.6g ± %.3g", sol.UWT, u.UWT, out.UWT.Mean, out.UWT.HalfWidth)
	}
	t.Logf("g* = %.6g, simulator %.6g ± %.3g, default row alone %.6g", sol.UWT, out.UWT.Mean, out.UWT.HalfWidth, u.UWT)
}
