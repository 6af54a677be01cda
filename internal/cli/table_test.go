package cli_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPolicyOptimalTable: on a scenario where the optimal policy depends
// on the checkpoint count p (docs/examples/migration.json: moving to
// another processor count costs 1230 s, staying 30 s), markov policy
// --policy optimal prints its decision table, and both forms it writes
// read back: the scenario_policy object in a scenario file and the
// "policy" string through --policy give, in markov uwt's exact model (the
// chain of all states, not the decision process), the UWT at I* that the
// solver wrote, to 1e-12.
func TestPolicyOptimalTable(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "..", "docs", "examples", "migration.json"))
	if err != nil {
		t.Fatal(err)
	}
	mig := writeFile(t, "migration.json", string(raw))
	text := mustRun(t, "policy", "--scenario", mig, "--policy", "optimal")
	if !strings.Contains(text, "r(p, n)") || !strings.Contains(text, "p=3:") {
		t.Errorf("no decision table printed:\n%s", text)
	}
	var p struct {
		Policy         string          `json:"policy"`
		Vector         []int           `json:"vector"`
		Runs           string          `json:"runs"`
		Table          json.RawMessage `json:"table"`
		Interval       float64         `json:"interval"`
		UWT            float64         `json:"uwt"`
		ScenarioPolicy json.RawMessage `json:"scenario_policy"`
	}
	runJSON(t, &p, "policy", "--scenario", mig, "--policy", "optimal")
	if !strings.HasPrefix(p.Policy, "table:") || p.Vector != nil || len(p.Table) == 0 {
		t.Fatalf("policy %q, vector %v, table %s: want a decision table", p.Policy, p.Vector, p.Table)
	}
	file := strings.Replace(string(raw), `"policy": "greedy"`, `"policy": `+string(p.ScenarioPolicy), 1)
	if file == string(raw) {
		t.Fatal("the example's policy line changed")
	}
	back := writeFile(t, "back.json", file)
	iv := fmt.Sprintf("%.17gs", p.Interval)
	for _, args := range [][]string{
		{"uwt", "--scenario", back, "--interval", iv, "--exact"},
		{"uwt", "--scenario", mig, "--policy", p.Policy, "--interval", iv, "--exact"},
	} {
		var u struct {
			UWT float64 `json:"uwt"`
		}
		runJSON(t, &u, args...)
		if relErr(u.UWT, p.UWT) > 1e-12 {
			t.Errorf("markov %s: UWT %.15g, written %.15g", strings.Join(args, " "), u.UWT, p.UWT)
		}
	}
	// The scenario file's table prints as the same table.
	var again struct {
		Runs string `json:"runs"`
	}
	runJSON(t, &again, "policy", "--scenario", back)
	if again.Runs != p.Runs {
		t.Errorf("read back: %q, written %q", again.Runs, p.Runs)
	}
}

// TestPolicyOptimalEvents: with failure events, markov policy --policy
// optimal solves the batch model (optimal.SingleIntervalEvents); the
// decision table it writes, read back from a scenario file, gives in
// markov uwt's exact batch model the UWT it wrote at I*, to 1e-9.
func TestPolicyOptimalEvents(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "..", "docs", "examples", "migration.json"))
	if err != nil {
		t.Fatal(err)
	}
	ev := strings.Replace(string(raw), `"mttr": "4h"}`, `"mttr": "4h", "failure_events": {"sizes": [0.6, 0.4]}}`, 1)
	if ev == string(raw) {
		t.Fatal("the example's system line changed")
	}
	var p struct {
		Policy         string          `json:"policy"`
		Interval       float64         `json:"interval"`
		UWT            float64         `json:"uwt"`
		ScenarioPolicy json.RawMessage `json:"scenario_policy"`
	}
	runJSON(t, &p, "policy", "--scenario", writeFile(t, "ev.json", ev), "--policy", "optimal")
	if !strings.HasPrefix(p.Policy, "table:") {
		t.Errorf("policy %q, want a decision table", p.Policy)
	}
	back := writeFile(t, "back.json", strings.Replace(ev, `"policy": "greedy"`, `"policy": `+string(p.ScenarioPolicy), 1))
	var u struct {
		UWT float64 `json:"uwt"`
	}
	runJSON(t, &u, "uwt", "--scenario", back, "--interval", fmt.Sprintf("%.17gs", p.Interval), "--exact")
	if relErr(u.UWT, p.UWT) > 1e-9 {
		t.Errorf("uwt of the table read back: %.15g, written %.15g", u.UWT, p.UWT)
	}
	_, _, code := run(t, "policy", "--scenario", writeFile(t, "ev2.json", ev), "--policy", "optimal", "--candidates", "2-4")
	if code != 2 {
		t.Errorf("--candidates with failure events: exit %d, want 2", code)
	}
}
