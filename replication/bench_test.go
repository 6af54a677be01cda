package replication

import "testing"

// BenchmarkUWT400 evaluates UWT(I) on a chain near MaxStates: 20
// processes × 2 replicas on 48 processors (399 states).
func BenchmarkUWT400(b *testing.B) {
	m := Model{Processors: 48, Processes: 20, Replicas: 2, MTTF: 36000, MTTR: 7200, WorkRate: 20, Latency: 60, Overhead: 60, Recovery: 120}
	if s := m.States(); s > MaxStates {
		b.Fatalf("%d states", s)
	}
	b.ReportMetric(float64(m.States()), "states")
	for b.Loop() {
		if _, err := m.UWT(3600); err != nil {
			b.Fatal(err)
		}
	}
}
