package sweep

import (
	"math"
	"testing"

	"github.com/ckpt-markov/markov/scenario"
)

// TestFirstCountsKeepsReplicas: restricting a base application to fewer
// counts (a processors axis below the base's N) keeps its replication
// degree (dropping it would turn a replicated scenario into r = 1
// silently).
func TestFirstCountsKeepsReplicas(t *testing.T) {
	st, _ := studyIn(t, map[string]string{"r.json": `{"system": {"processors": 4, "mttf": "20d", "mttr": "1h"},
		"application": {"work_rate": [1, 2, 3, 4], "checkpoint_latency": 1, "recovery": 1, "replicas": 2}, "policy": "greedy"}`},
		`{"name": "r", "compute": ["optimize"], "scenarios": {"base": "r.json", "processors": [3]}}`)
	r := &runner{study: st, bases: map[string]*scenario.Scenario{}}
	sc, err := r.scenario(Task{Processors: 3, MTTF: math.NaN(), MTTR: math.NaN(), Latency: math.NaN(), Recovery: math.NaN()})
	if err != nil {
		t.Fatal(err)
	}
	if got := sc.Application; got.Replicas != 2 || got.N() != 3 {
		t.Errorf("restricted application: %d counts, Replicas %d; want 3 and 2", got.N(), got.Replicas)
	}
}

// TestScenarioKeepsOptimalUnsolved: a task of the optimal policy gets the
// parts of its scenario with the policy unsolved (scenario.Policy.Unsolved),
// not a scenario with greedy standing in for it; a task of another policy
// gets parts whose scenario holds that policy.
func TestScenarioKeepsOptimalUnsolved(t *testing.T) {
	st, _ := studyIn(t, map[string]string{"b.json": `{"system": {"processors": 4, "mttf": "20d", "mttr": "1h"},
		"application": {"work_rate": [1, 2, 3, 4], "checkpoint_latency": 1, "recovery": 1}, "policy": "greedy"}`},
		`{"name": "o", "compute": ["optimize"], "scenarios": {"base": "b.json", "policies": ["optimal", "pb"]}}`)
	r := &runner{study: st, bases: map[string]*scenario.Scenario{}}
	task := func(p string) Task {
		return Task{Policy: p, MTTF: math.NaN(), MTTR: math.NaN(), Latency: math.NaN(), Recovery: math.NaN()}
	}
	parts, err := r.scenario(task("optimal"))
	if err != nil {
		t.Fatal(err)
	}
	if !parts.Policy.Unsolved() || parts.System.Processors != 4 {
		t.Errorf("optimal task: policy %v (unsolved %t) on %d processors, want the unsolved optimal policy on 4", parts.Policy, parts.Policy.Unsolved(), parts.System.Processors)
	}
	parts, err = r.scenario(task("pb"))
	if err != nil {
		t.Fatal(err)
	}
	sc, err := parts.Scenario()
	if err != nil {
		t.Fatal(err)
	}
	if sc.Policy.Kind != scenario.PerformanceBased {
		t.Errorf("pb task: scenario policy %v", sc.Policy)
	}
}
