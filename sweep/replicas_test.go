package sweep

import (
	"testing"

	"github.com/ckpt-markov/markov/scenario"
)

// TestFirstCountsKeepsReplicas: restricting an application to fewer
// counts keeps its replication degree (dropping it would turn a
// replicated scenario into r = 1 silently).
func TestFirstCountsKeepsReplicas(t *testing.T) {
	app := scenario.Application{
		WorkRate: []float64{1, 2, 3, 4},
		Latency:  []float64{1, 1, 1, 1},
		Overhead: []float64{1, 1, 1, 1},
		Recovery: scenario.RecoveryConstant(1, 4),
		Replicas: 2,
	}
	got, err := firstCounts(app, 3)
	if err != nil {
		t.Fatal(err)
	}
	if got.Replicas != 2 || got.N() != 3 {
		t.Errorf("firstCounts: %d counts, Replicas %d; want 3 and 2", got.N(), got.Replicas)
	}
}
