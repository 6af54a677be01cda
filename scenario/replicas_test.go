package scenario_test

import (
	"strings"
	"testing"

	"github.com/ckpt-markov/markov/scenario"
)

// TestReplicasField checks application.replicas: absent or null means 1;
// valid values round-trip; every invalid value is an error naming the
// field.
func TestReplicasField(t *testing.T) {
	app := func(extra string) string {
		return file(sys3, `{"work_rate": [1, 2, 3], "checkpoint_latency": 9, "recovery": 30`+extra+`}`, `"greedy"`)
	}
	for _, c := range []struct {
		extra string
		want  int
	}{{"", 1}, {`, "replicas": null`, 1}, {`, "replicas": 1`, 1}, {`, "replicas": 2`, 2}, {`, "replicas": 3`, 3}} {
		in := app(c.extra)
		s, err := scenario.Parse(strings.NewReader(in), nil)
		if err != nil {
			t.Fatalf("%s: %v", c.extra, err)
		}
		if got := s.Application.ReplicaCount(); got != c.want {
			t.Errorf("%s: r = %d, want %d", c.extra, got, c.want)
		}
	}
	for _, extra := range []string{
		`, "replicas": 0`, `, "replicas": -1`, `, "replicas": 4`, `, "replicas": 17`,
		`, "replicas": 2.5`, `, "replicas": 2.0`, `, "replicas": 2e0`, `, "replicas": "2"`,
		`, "replicas": [2]`, `, "replicas": true`, `, "replicas": 99999999999999999999`,
	} {
		in := app(extra)
		_, err := scenario.Parse(strings.NewReader(in), nil)
		if err == nil || !strings.Contains(err.Error(), "application.replicas") {
			t.Errorf("%s: error %v, want one naming application.replicas", extra, err)
		}
	}
	// Programmatic: 0 means 1; bounds checked by Validate.
	a := scenario.Application{WorkRate: []float64{1, 2}, Latency: []float64{1, 1}, Overhead: []float64{1, 1}, Recovery: scenario.RecoveryConstant(1, 2)}
	if a.ReplicaCount() != 1 || a.Validate(2) != nil {
		t.Errorf("zero Replicas: r = %d, Validate %v", a.ReplicaCount(), a.Validate(2))
	}
	for _, r := range []int{-1, 3, scenario.MaxReplicas + 1} {
		a.Replicas = r
		if err := a.Validate(2); err == nil || !strings.Contains(err.Error(), "application.replicas") {
			t.Errorf("Replicas = %d: Validate %v", r, err)
		}
	}
}
