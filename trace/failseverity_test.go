package trace

import (
	"math"
	"reflect"
	"testing"
)

// TestFailureSeverities works a small log by hand with the default
// mapping for 3 levels: a software failure (severity 1) of node 0 at 10,
// a hardware one (2) of node 1 at 20, node 0 (software) and node 2
// (hardware) failing together at 30 (an event of 2 nodes: 3), a
// facilities failure (3) of node 1 at 40. The window [15, 35) holds the
// failures at 20 and 30; with a tolerance of 2 s, node 2 failing at 31.5
// instead still joins node 0's event.
func TestFailureSeverities(t *testing.T) {
	log := func(t2 float64) *Trace {
		tr, err := New([]Node{
			{Start: 0, End: 100, Down: []Interval{{Start: 10, End: 11, Cause: Software}, {Start: 30, End: 32, Cause: Software}}},
			{Start: 0, End: 100, Down: []Interval{{Start: 20, End: 25, Cause: Hardware}, {Start: 40, End: 41, Cause: Facilities}}},
			{Start: 0, End: 100, Down: []Interval{{Start: t2, End: t2 + 3, Cause: Hardware}}},
		})
		if err != nil {
			t.Fatal(err)
		}
		return tr
	}
	want := []FailureSeverity{{1, 20, 2}, {0, 30, 3}, {2, 30, 3}}
	got, err := FailureSeverities(log(30), 15, 35, DefaultSeverityMap(3), 0)
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("equal starts: %v, %v; want %v", got, err, want)
	}
	want[2].Start = 31.5
	if got, err = FailureSeverities(log(31.5), 15, 35, DefaultSeverityMap(3), 2); err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("within the tolerance: %v, %v; want %v", got, err, want)
	}
	want = []FailureSeverity{{1, 20, 2}, {0, 30, 1}, {2, 31.5, 2}}
	if got, err = FailureSeverities(log(31.5), 15, 35, DefaultSeverityMap(3), 0); err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("outside the tolerance: %v, %v; want %v", got, err, want)
	}
	if got, err = FailureSeverities(log(30), 50, 60, DefaultSeverityMap(3), 0); err != nil || got != nil {
		t.Errorf("empty window: %v, %v", got, err)
	}
	for _, tol := range []float64{-1, math.Inf(1), math.NaN()} {
		if _, err := FailureSeverities(log(30), 0, 100, DefaultSeverityMap(3), tol); err == nil {
			t.Errorf("tolerance %v accepted", tol)
		}
	}
	if _, err := FailureSeverities(log(30), 0, 100, SeverityMap{}, 0); err == nil {
		t.Error("the zero SeverityMap accepted")
	}
}
