package cli_test

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestEvaluateReplicas (issue 25, deliverable 4): evaluate --scenario with
// application.replicas = 2 and moldable:8 replays the replicated run
// (package replication's interval; the agreement of the replay with that
// model is evaluate's TestReplayReplicatedAgainstModel) beside the
// unreplicated application, "(r = 1)", under every policy of --policies
// and the file's. Without a moldable policy on a multiple of r the file is
// a data error before any trace is replayed.
func TestEvaluateReplicas(t *testing.T) {
	dir := t.TempDir()
	tr := filepath.Join(dir, "t.csv")
	mustRun(t, "trace", "synth", "--nodes", "12", "--duration", "200d", "--mttf", "8h", "--mttr", "4h", "--seed", "3", "-o", tr)
	path := writeFile(t, "pairs.json", volunteerPairs)
	var got evaluateScenarioOut
	runJSON(t, &got, "evaluate", "--trace", tr, "--scenario", path, "--rule", "lastval", "--segments", "2", "--policies", "greedy", "--segments-detail")
	want := []string{"pairs.json moldable:8", "pairs.json (r = 1) moldable:8", "pairs.json (r = 1) greedy"}
	if len(got.Rows) != len(want) {
		t.Fatalf("%d rows, want %v", len(got.Rows), want)
	}
	for i, row := range got.Rows {
		if s := row.Scenario.Application + " " + row.Scenario.Policy; s != want[i] || !strings.EqualFold(row.Status, "evaluated") {
			t.Errorf("row %d: %q %s, want %q evaluated", i, s, row.Status, want[i])
		}
	}
	bad := writeFile(t, "bad.json", strings.Replace(volunteerPairs, `"moldable:8"`, `"greedy"`, 1))
	_, stderr, code := run(t, "evaluate", "--trace", tr, "--scenario", bad, "--segments", "2")
	if code != 1 || !strings.Contains(stderr, "replicas") || len(stderr) > 400 {
		t.Errorf("greedy with replicas: exit %d, stderr %q; want a data error naming application.replicas", code, stderr)
	}
}
