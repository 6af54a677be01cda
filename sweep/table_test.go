package sweep

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ckpt-markov/markov/optimal"
	"github.com/ckpt-markov/markov/scenario"
)

// TestOptimalTableTask: on docs/examples/migration.json the optimal
// policy depends on the checkpoint count p, which used to fail the task
// ("it is not a vector"). Its uwt and simulate tasks now run the
// decision table: the uwt row holds the solver's g*(1 h) (the table read
// by package uwt gives it to 1e-12, TestTableRoundTrip of package
// optimal), and the simulate row's confidence interval holds it.
func TestOptimalTableTask(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "docs", "examples", "migration.json"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "migration.json"), raw, 0o600); err != nil {
		t.Fatal(err)
	}
	st, err := Parse(strings.NewReader(`{"name": "m", "seed": 5, "compute": ["uwt", "simulate"], "scenarios": {"base": "migration.json",
		"policies": ["optimal", "greedy"], "intervals": ["1h"]}, "simulation": {"rel_tol": 0.005}}`), dir)
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	sum, err := Run(context.Background(), st, out, nil)
	if err != nil || sum.Failed != 0 {
		t.Fatalf("run: %v, %+v", err, sum)
	}
	tab, err := Merge(out)
	if err != nil {
		t.Fatal(err)
	}
	base, err := scenario.Load(filepath.Join(dir, "migration.json"), nil)
	if err != nil {
		t.Fatal(err)
	}
	sol, err := optimal.Solve(context.Background(), base.System, base.Application, &optimal.Options{Interval: 3600})
	if err != nil {
		t.Fatal(err)
	}
	if !sol.Policy.DependsOnOld() {
		t.Fatal("the example's optimal policy does not depend on p")
	}
	seen := 0
	for _, r := range tab.Records {
		if r.Policy != "optimal" {
			continue
		}
		seen++
		if r.Error != "" || r.UWT == nil {
			t.Fatalf("task %s: error %q", r.ID, r.Error)
		}
		if d := math.Abs(*r.UWT-sol.UWT) / sol.UWT; d > 1e-12 {
			t.Errorf("task %s: UWT %.15g, g*(1 h) %.15g", r.ID, *r.UWT, sol.UWT)
		}
		if r.Compute == "simulate" && (r.ModelInCI == nil || !*r.ModelInCI) {
			t.Errorf("task %s: g* outside the simulator's interval %v ± %v", r.ID, *r.SimUWT, *r.SimUWTHalfWidth)
		}
	}
	if seen != 2 {
		t.Errorf("%d optimal rows, want 2", seen)
	}
}
