package trace

import (
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestNewNormalises(t *testing.T) {
	for _, c := range []struct {
		name string
		in   Node
		want []Interval
	}{
		{"empty", Node{0, 10, nil}, nil},
		{"sorted", Node{0, 10, []Interval{{Start: 5, End: 6}, {Start: 1, End: 2}}}, []Interval{{Start: 1, End: 2}, {Start: 5, End: 6}}},
		{"overlap", Node{0, 10, []Interval{{Start: 1, End: 4}, {Start: 3, End: 5}}}, []Interval{{Start: 1, End: 5}}},
		{"nested", Node{0, 10, []Interval{{Start: 1, End: 8}, {Start: 3, End: 5}}}, []Interval{{Start: 1, End: 8}}},
		{"duplicate", Node{0, 10, []Interval{{Start: 1, End: 2}, {Start: 1, End: 2}}}, []Interval{{Start: 1, End: 2}}},
		{"touching", Node{0, 10, []Interval{{Start: 1, End: 2}, {Start: 2, End: 3}}}, []Interval{{Start: 1, End: 3}}},
		{"chain", Node{0, 10, []Interval{{Start: 4, End: 5}, {Start: 1, End: 2}, {Start: 2, End: 4.5}}}, []Interval{{Start: 1, End: 5}}},
		{"zero inside", Node{0, 10, []Interval{{Start: 3, End: 3}}}, []Interval{{Start: 3, End: 3}}},
		{"zero absorbed", Node{0, 10, []Interval{{Start: 3, End: 3}, {Start: 2, End: 4}}}, []Interval{{Start: 2, End: 4}}},
		{"zero touching end", Node{0, 10, []Interval{{Start: 2, End: 3}, {Start: 3, End: 3}}}, []Interval{{Start: 2, End: 3}}},
		{"zero touching start", Node{0, 10, []Interval{{Start: 3, End: 3}, {Start: 3, End: 4}}}, []Interval{{Start: 3, End: 4}}},
		{"zero at window start", Node{0, 10, []Interval{{Start: 0, End: 0}}}, nil},
		{"zero at window end", Node{0, 10, []Interval{{Start: 10, End: 10}}}, nil},
		{"zero outside", Node{0, 10, []Interval{{Start: -1, End: -1}, {Start: 11, End: 11}}}, nil},
		{"before window", Node{0, 10, []Interval{{Start: -5, End: -1}, {Start: -5, End: 0}}}, nil},
		{"after window", Node{0, 10, []Interval{{Start: 10, End: 12}, {Start: 11, End: 12}}}, nil},
		{"clipped", Node{0, 10, []Interval{{Start: -5, End: 1}, {Start: 9, End: 12}}}, []Interval{{Start: 0, End: 1}, {Start: 9, End: 10}}},
		{"covers window", Node{0, 10, []Interval{{Start: -5, End: 15}}}, []Interval{{Start: 0, End: 10}}},
		{"empty window", Node{4, 4, []Interval{{Start: 3, End: 5}}}, nil},
	} {
		tr, err := New([]Node{c.in})
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if got := tr.Node(0).Down; !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: outages %v, want %v", c.name, got, c.want)
		}
	}
}

func TestNewErrors(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	for _, c := range []struct {
		name  string
		nodes []Node
		want  string // part of the message
	}{
		{"no nodes", nil, "no nodes"},
		{"reversed window", []Node{{0, 1, nil}, {5, 4, nil}}, "node 1: window start"},
		{"nan window", []Node{{nan, 1, nil}}, "not finite"},
		{"inf window", []Node{{0, inf, nil}}, "not finite"},
		{"reversed outage", []Node{{0, 10, []Interval{{Start: 1, End: 2}, {Start: 3, End: 2}}}}, "node 0: outage 1 ends"},
		{"nan outage", []Node{{0, 10, []Interval{{Start: nan, End: 2}}}}, "outage 0"},
	} {
		_, err := New(c.nodes)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
}

func TestNewCopies(t *testing.T) {
	in := []Node{{0, 10, []Interval{{Start: 5, End: 6}, {Start: 1, End: 2}}}}
	tr, err := New(in)
	if err != nil {
		t.Fatal(err)
	}
	in[0].Down[0] = Interval{Start: 7, End: 8}
	in[0].Start = 3
	if got := tr.Node(0); got.Start != 0 || got.Down[1] != (Interval{Start: 5, End: 6}) {
		t.Errorf("the trace changed with its input: %+v", got)
	}
}

// bruteNode answers the queries of one node from its raw (unmerged)
// outages and the definitions in the Trace documentation, on a grid where
// every time is an integer: the state at t is read directly from the raw
// outages, and events from the state at t − 1/2 and t.
type bruteNode struct {
	start, end float64
	raw        []Interval
}

func (b bruteNode) up(t float64) bool {
	if t < b.start || t >= b.end {
		return false
	}
	for _, iv := range b.raw {
		if iv.Start <= t && t < iv.End {
			return false
		}
	}
	return true
}

func (b bruteNode) zeroAt(x float64) bool {
	for _, iv := range b.raw {
		if iv.Start == x && iv.End == x {
			return true
		}
	}
	return false
}

// events lists the events at the integers strictly inside the window.
func (b bruteNode) events() []Event {
	var ev []Event
	for x := math.Floor(b.start) + 1; x < b.end; x++ {
		if x <= b.start {
			continue
		}
		before, now := b.up(x-0.5), b.up(x)
		switch {
		case before && (!now || b.zeroAt(x)):
			ev = append(ev, Event{x, Failure})
		case !before && now:
			ev = append(ev, Event{x, Repair})
		}
	}
	return ev
}

func randomNodes(rng *rand.Rand, n int) ([]Node, []bruteNode) {
	nodes := make([]Node, n)
	brute := make([]bruteNode, n)
	for i := range nodes {
		s := float64(rng.IntN(20))
		e := s + float64(rng.IntN(80))
		var raw []Interval
		for range rng.IntN(12) {
			a := float64(rng.IntN(110) - 5)
			b := a
			if rng.IntN(4) > 0 {
				b += float64(rng.IntN(10))
			}
			raw = append(raw, Interval{Start: a, End: b})
		}
		nodes[i] = Node{Start: s, End: e, Down: slices.Clone(raw)}
		brute[i] = bruteNode{s, e, raw}
	}
	return nodes, brute
}

// TestQueriesAgainstBruteForce checks Up, NextEvent, Functional and
// FailureTimes on random traces (integer times, overlapping, touching,
// zero-length and out-of-window outages) against bruteNode.
func TestQueriesAgainstBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 300 {
		nodes, brute := randomNodes(rng, 1+rng.IntN(5))
		tr, err := New(nodes)
		if err != nil {
			t.Fatal(err)
		}
		checkInvariants(t, tr)
		var failures []float64
		for i, b := range brute {
			ev := b.events()
			for _, e := range ev {
				if e.Kind == Failure {
					failures = append(failures, e.Time)
				}
			}
			for at := -3.0; at <= 105; at += 0.5 {
				if got, want := tr.Up(i, at), b.up(at); got != want {
					t.Fatalf("trial %d node %d %+v: Up(%v) = %v, want %v", trial, i, b, at, got, want)
				}
				want, wantOK := Event{}, false
				for _, e := range ev {
					if e.Time > at {
						want, wantOK = e, true
						break
					}
				}
				if got, ok := tr.NextEvent(i, at); ok != wantOK || got != want {
					t.Fatalf("trial %d node %d %+v: NextEvent(%v) = %v %v, want %v %v", trial, i, b, at, got, ok, want, wantOK)
				}
			}
		}
		for at := -3.0; at <= 105; at += 0.5 {
			want := 0
			for _, b := range brute {
				if b.up(at) {
					want++
				}
			}
			if got := tr.Functional(at); got != want {
				t.Fatalf("trial %d: Functional(%v) = %d, want %d", trial, at, got, want)
			}
		}
		slices.Sort(failures)
		if got := tr.FailureTimes(); !slices.Equal(got, failures) {
			t.Fatalf("trial %d: FailureTimes = %v, want %v", trial, got, failures)
		}
	}
}

func TestWindow(t *testing.T) {
	tr, err := New([]Node{{5, 9, nil}, {2, 7, nil}, {6, 12, nil}})
	if err != nil {
		t.Fatal(err)
	}
	if s, e := tr.Window(); s != 2 || e != 12 || tr.NumNodes() != 3 {
		t.Errorf("Window = [%v, %v), NumNodes = %d; want [2, 12), 3", s, e, tr.NumNodes())
	}
}

// checkInvariants verifies the documented invariants of a trace.
func checkInvariants(t testing.TB, tr *Trace) {
	t.Helper()
	if tr.NumNodes() < 1 {
		t.Fatalf("trace without nodes")
	}
	for i := range tr.NumNodes() {
		n := tr.Node(i)
		if !(n.Start <= n.End) || !finite(n.Start) || !finite(n.End) {
			t.Fatalf("node %d: bad window [%v, %v)", i, n.Start, n.End)
		}
		for k, iv := range n.Down {
			if !(n.Start <= iv.Start && iv.Start <= iv.End && iv.End <= n.End) {
				t.Fatalf("node %d: outage %d %v outside window [%v, %v)", i, k, iv, n.Start, n.End)
			}
			if iv.Start == iv.End && !(n.Start < iv.Start && iv.Start < n.End) {
				t.Fatalf("node %d: zero-length outage %d %v on the window edge", i, k, iv)
			}
			if k > 0 && !(n.Down[k-1].End < iv.Start) {
				t.Fatalf("node %d: outages %d and %d not separated: %v %v", i, k-1, k, n.Down[k-1], iv)
			}
		}
	}
}

func nan() float64 { return math.NaN() }
func inf() float64 { return math.Inf(1) }
