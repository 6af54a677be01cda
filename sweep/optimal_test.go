package sweep

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ckpt-markov/markov/bench"
	"github.com/ckpt-markov/markov/evaluate"
	"github.com/ckpt-markov/markov/internal/testmodel"
	"github.com/ckpt-markov/markov/optimal"
	"github.com/ckpt-markov/markov/reschedule"
	"github.com/ckpt-markov/markov/scenario"
	"github.com/ckpt-markov/markov/trace"
	"github.com/ckpt-markov/markov/uwt"
)

// TestOptimalScenarioTasks: a study names "optimal" like any policy. Its
// uwt task at I = 1 h must be the largest UWT(I; r) of package uwt over
// all Π(n+1) vectors (the enumeration oracle of docs/optimal-policy.md
// section 5; 1e-10 relative: the solver and uwt build the same window at
// N = 4, where the binomial tails exceed the window's 1e-12, so they
// differ by rounding only); its optimize task (level 2) at least that and
// at least greedy's optimum of the same study; its simulate task at 1 h runs the
// solved vector beside g*(1 h).
func TestOptimalScenarioTasks(t *testing.T) {
	st := parse(t, `{"name": "x", "seed": 3, "compute": ["optimize", "uwt", "simulate"], "scenarios": {"application": "md",
		"processors": [4], "mttf": ["2d"], "mttr": ["6h"], "checkpoint_latency": [300], "recovery": [120],
		"policies": ["optimal", "greedy"], "intervals": ["1h"]}, "simulation": {"replications": 8}}`)
	tab := runMerged(t, st)
	rec := map[string]Record{}
	for _, r := range tab.Records {
		rec[r.Compute+"/"+r.Policy] = r
		if strings.HasPrefix(r.ID, r.Compute+" ") && strings.Contains(r.ID, "policy=optimal") && r.Policy != "optimal" {
			t.Errorf("task %s: policy column %q, want optimal", r.ID, r.Policy)
		}
	}
	app, err := bench.Application("md", 4)
	if err != nil {
		t.Fatal(err)
	}
	for i := range app.Latency {
		app.Latency[i], app.Overhead[i] = 300, 300
	}
	app.Recovery = scenario.RecoveryConstant(120, 4)
	best, count := math.Inf(-1), 0
	testmodel.Vectors(4, func(r reschedule.Vector) {
		count++
		sc, err := scenario.New(scenario.System{Processors: 4, MTTF: 2 * 86400, MTTR: 6 * 3600}, app, scenario.Policy{Kind: scenario.Explicit, Explicit: r})
		if err != nil {
			t.Fatal(err)
		}
		m, err := uwt.New(context.Background(), sc, nil)
		if err != nil {
			t.Fatal(err)
		}
		res, err := m.Evaluate(context.Background(), 3600)
		if err != nil {
			t.Fatal(err)
		}
		best = max(best, res.UWT)
	})
	u, ok := rec["uwt/optimal"]
	if !ok || u.UWT == nil {
		t.Fatalf("no uwt record of the optimal policy: %+v", tab.Records)
	}
	if d := math.Abs(*u.UWT-best) / best; d > 1e-10 {
		t.Errorf("uwt task of optimal at 1h: %.15g, enumeration over %d vectors: %.15g (rel. diff %.2g)", *u.UWT, count, best, d)
	}
	o, g := rec["optimize/optimal"], rec["optimize/greedy"]
	if o.UWT == nil || g.UWT == nil || o.Interval == nil {
		t.Fatalf("optimize records: %+v, %+v", o, g)
	}
	// Level 2 maximises over I too; 1e-9 allows for the interval searches.
	if *o.UWT < best*(1-1e-9) || *o.UWT < *g.UWT*(1-1e-9) {
		t.Errorf("optimize task of optimal: %.12g, below g*(1h) = %.12g or greedy's optimum %.12g", *o.UWT, best, *g.UWT)
	}
	s := rec["simulate/optimal"]
	if s.SimUWT == nil || s.UWT == nil || *s.UWT != *u.UWT || *s.Interval != 3600 {
		t.Errorf("simulate task of optimal: %+v; want the uwt task's interval and UWT beside a simulation", s)
	}
}

// TestOptimalTraceTask: a trace task with "optimal" gives evaluate.Run's
// row for that policy, to the bit (same seed, segments and solver), on a
// small synthetic exponential trace (8 nodes, MTTF 5 days, MTTR 4 h,
// 200 days: made up, long enough for evaluate's 30-day history and
// 7-to-60-day segments).
func TestOptimalTraceTask(t *testing.T) {
	const nodes, horizon = 8, 200 * 86400.0
	rng := rand.New(rand.NewPCG(11, 12))
	var b strings.Builder
	fmt.Fprintf(&b, "# nodes=%d start=0 end=%g\nnode,down_start,down_end\n", nodes, horizon)
	for i := range nodes {
		for x := rng.ExpFloat64() * 5 * 86400; x < horizon; {
			r := x + rng.ExpFloat64()*4*3600
			fmt.Fprintf(&b, "%d,%.0f,%.0f\n", i, x, min(r, horizon))
			x = r + rng.ExpFloat64()*5*86400
		}
	}
	st, dir := studyIn(t, map[string]string{"exp.csv": b.String()},
		`{"name": "s", "seed": 9, "compute": ["evaluate"], "traces": {"generic": ["exp.csv"], "applications": ["qr"], "policies": ["optimal"], "segments": 2}}`)
	tab := runMerged(t, st)
	f, err := os.Open(filepath.Join(dir, "exp.csv"))
	if err != nil {
		t.Fatal(err)
	}
	tr, err := trace.ReadGeneric(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	ref, err := evaluate.Run(context.Background(), &evaluate.Settings{
		Systems: []evaluate.System{{Name: "exp.csv", Trace: tr}}, Applications: []string{"qr"},
		Policies: []scenario.Policy{{Kind: scenario.Optimal}}, Segments: 2, Seed: 9,
	})
	if err != nil {
		t.Fatal(err)
	}
	row, r := ref.Rows[0], tab.Records[0]
	if row.Status != evaluate.Evaluated {
		t.Fatalf("evaluate did not evaluate the trace: %v %s", row.Status, row.Reason)
	}
	if r.Policy != "optimal" || r.Efficiency == nil || *r.Efficiency != row.Efficiency.Mean || *r.UWT != row.ModelUWT.Mean {
		t.Errorf("record %+v, evaluate's row: policy %s, efficiency %v, model UWT %v", r, row.Policy, row.Efficiency.Mean, row.ModelUWT.Mean)
	}
}

// TestScenarioFileReconfigure: a base scenario file's "reconfigure":
// "at-checkpoint" reaches the task's model: the uwt task equals package
// uwt's UWT of that file (equal to rounding: the same computation), and
// differs from the paper's model.
func TestScenarioFileReconfigure(t *testing.T) {
	body := `{"system": {"processors": 4, "mttf": "6h", "mttr": "30m"}, "application": {"work_rate": [1, 2, 3, 4], "checkpoint_latency": 60, "recovery": 30}, "policy": "greedy", "reconfigure": "at-checkpoint"}`
	st, dir := studyIn(t, map[string]string{"base.json": body},
		`{"name": "r", "compute": ["uwt"], "scenarios": {"base": "base.json", "intervals": ["1h"]}}`)
	tab := runMerged(t, st)
	sc, err := scenario.Load(filepath.Join(dir, "base.json"), nil)
	if err != nil {
		t.Fatal(err)
	}
	uwtOf := func(sc *scenario.Scenario) float64 {
		m, err := uwt.New(context.Background(), sc, &uwt.Settings{Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		r, err := m.Evaluate(context.Background(), 3600)
		if err != nil {
			t.Fatal(err)
		}
		return r.UWT
	}
	want := uwtOf(sc)
	paper := *sc
	paper.Reconfigure = scenario.Never
	if got := *tab.Records[0].UWT; math.Abs(got-want) > 1e-12*want || math.Abs(got-uwtOf(&paper)) < 1e-6*want {
		t.Errorf("uwt task %.15g, uwt with the option %.15g, without %.15g", got, want, uwtOf(&paper))
	}
}

// TestOptimalTaskAtBound: an optimize task of the optimal policy whose
// I* lies at the search's smallest interval (L = C = R = 0: UWT rises as
// I falls) says AtMin, as markov optimize --policy optimal flags it, not
// Converged. Oracle: greedy's optimize task on the same scenario, by
// package uwt's own search, is AtMin too, and both intervals are within
// 20 % of the bound of 1 s. Power: with checkpoints of 60 s, where the
// maximum is interior, both say Converged (so the status is not AtMin
// whatever the scenario).
func TestOptimalTaskAtBound(t *testing.T) {
	for _, tc := range []struct {
		latency string
		want    string
	}{{"0", uwt.AtMin.String()}, {"60", uwt.Converged.String()}} {
		base := `{"system": {"processors": 4, "mttf": "10d", "mttr": "1h"}, "application": {"work_rate": [1, 2, 3, 4],
			"checkpoint_latency": ` + tc.latency + `, "recovery": ` + tc.latency + `}, "policy": "greedy"}`
		st, _ := studyIn(t, map[string]string{"base.json": base},
			`{"name": "b", "seed": 1, "compute": ["optimize"], "scenarios": {"base": "base.json", "policies": ["greedy", "optimal"]}}`)
		tab := runMerged(t, st)
		if len(tab.Records) != 2 {
			t.Fatalf("L = %s: %d records, want 2", tc.latency, len(tab.Records))
		}
		for _, r := range tab.Records {
			if r.Status != tc.want || r.Interval == nil {
				t.Errorf("L = %s, policy %s: status %s (interval given: %t); want %s", tc.latency, r.Policy, r.Status, r.Interval != nil, tc.want)
				continue
			}
			if tc.want == uwt.AtMin.String() && !(*r.Interval >= 1 && *r.Interval < 1.2) {
				t.Errorf("L = %s, policy %s: I* = %g s, want the bound of 1 s (within 20 %%)", tc.latency, r.Policy, *r.Interval)
			}
		}
	}
}

// TestNoUsefulWorkTasks: with an MTTF of a microsecond no policy does
// useful work. The optimize, uwt and simulate tasks of the optimal
// policy say so in their rows (status NoUsefulWork, UWT 0; no interval
// for optimize: the uwt and simulate tasks keep their own),
// as markov optimize --policy optimal does, instead of failing; the
// greedy optimize task says NoUsefulWork as markov optimize does (its
// search reported AtMin). Power: at an MTTF of 10 days the same study
// has useful work in every row.
func TestNoUsefulWorkTasks(t *testing.T) {
	for _, tc := range []struct {
		mttf string
		none bool
	}{{"1e-6s", true}, {"10d", false}} {
		base := `{"system": {"processors": 4, "mttf": "` + tc.mttf + `", "mttr": "1h"}, "application": {"work_rate": [1, 2, 3, 4],
			"checkpoint_latency": 60, "recovery": 60}, "policy": "greedy"}`
		st, _ := studyIn(t, map[string]string{"base.json": base},
			`{"name": "w", "seed": 1, "compute": ["optimize", "uwt", "simulate"], "simulation": {"replications": 4},
			  "scenarios": {"base": "base.json", "policies": ["greedy", "optimal"], "intervals": ["1h"]}}`)
		tab := runMerged(t, st)
		if len(tab.Records) != 6 {
			t.Fatalf("MTTF %s: %d records, want 6", tc.mttf, len(tab.Records))
		}
		for _, r := range tab.Records {
			noWork := r.Status == optimal.NoUsefulWork.String()
			if r.Error != "" || r.UWT == nil {
				t.Errorf("MTTF %s, %s %s: error %q, UWT given %t", tc.mttf, r.Compute, r.Policy, r.Error, r.UWT != nil)
				continue
			}
			wantNone := tc.none && (r.Policy == "optimal" || r.Compute == "optimize")
			if noWork != wantNone || (wantNone && *r.UWT != 0) || (!tc.none && !(*r.UWT > 0)) {
				t.Errorf("MTTF %s, %s %s: status %s, UWT %g", tc.mttf, r.Compute, r.Policy, r.Status, *r.UWT)
			}
			if r.Policy == "optimal" && wantNone && r.Compute == "optimize" && r.Interval != nil {
				t.Errorf("MTTF %s, %s optimal: interval %g, want none", tc.mttf, r.Compute, *r.Interval)
			}
		}
	}
}
