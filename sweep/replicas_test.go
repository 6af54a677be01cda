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
