package trace

import (
	"fmt"
	"math"
	"slices"
	"sort"
)

// MaxNodes is the largest node count the readers accept, a guard against
// allocating for a corrupt count.
const MaxNodes = 1 << 20

// Interval is the half-open time interval [Start, End), in seconds since the
// Unix epoch. A zero-length interval (Start == End) marks an outage that was
// repaired within the resolution of the log.
//
// Event, when positive, labels the failure event the outage belongs to:
// outages of different nodes with the same label started in one event that
// took down several nodes at once (a grouped failure, such as the rows the
// LANL log marks "Same Event"). Zero means no label: the outage is an event
// of its own unless EstimateEvents finds it coincident with another.
//
// Cause is what the log says caused the outage (the LANL release's cause
// columns); UnknownCause where it says nothing (the generic format has no
// cause column: WriteGeneric drops the causes). SeverityMap turns it into
// the failure severity of the multi-level model.
type Interval struct {
	Start, End float64
	Event      int
	Cause      Cause
}

// Node is one processor of a trace.
type Node struct {
	// Start and End bound the production window [Start, End): the node
	// exists for the trace only inside it. Start == End is an empty window
	// (a node that is never in production during the observation).
	Start, End float64

	// Down lists the outages of the node. In a Trace the list is sorted,
	// lies inside [Start, End], and consecutive outages are separated by
	// up time: Down[k].End < Down[k+1].Start. See New for the rules that
	// establish this.
	Down []Interval
}

// EventKind is the kind of a state change of a node.
type EventKind int

const (
	// Failure is the start of an outage (the node goes down).
	Failure EventKind = iota + 1
	// Repair is the end of an outage (the node comes back up).
	Repair
)

// String returns "failure" or "repair".
func (k EventKind) String() string {
	switch k {
	case Failure:
		return "failure"
	case Repair:
		return "repair"
	}
	return fmt.Sprintf("EventKind(%d)", int(k))
}

// Event is a state change of one node at one instant.
type Event struct {
	Time float64
	Kind EventKind
}

// Trace is a set of nodes with their production windows and outages. A
// Trace is immutable once built by New or a reader, and safe for concurrent
// use.
//
// Events. Node i is up at time t when Start <= t < End and t lies in none of
// its outages [a, b). Its events are the changes of that state strictly
// inside the window: a failure at a when Start < a, and a repair at b when
// a < b < End. An outage beginning at the window start is a node that enters
// production down (no failure event); one ending at the window end is still
// open when the node leaves (no repair event). A zero-length outage at a,
// with Start < a < End, is a failure at a immediately followed by the
// repair: it yields one Failure event, and the node is up at a.
type Trace struct {
	nodes      []Node
	start, end float64
}

// New returns a trace over a copy of nodes, normalised as follows.
//
// Each node needs finite Start <= End, and each outage finite
// Start <= End; otherwise New returns an error naming the node and outage.
// Outages are clipped to the window [Start, End]; an outage that then has
// no length is dropped unless it was a zero-length outage strictly inside
// the window. The remaining outages are sorted and every group of
// overlapping or touching outages (next Start <= current End) is merged into
// their union: a node cannot fail again while down, and two outages that
// touch leave no up time between them, so they are one outage. The union
// keeps the Event label and the Cause of its first outage (earliest Start,
// then earliest End, then smallest label, then smallest cause). Event labels must be non-negative. At least one
// node is required.
func New(nodes []Node) (*Trace, error) {
	if len(nodes) == 0 {
		return nil, fmt.Errorf("trace: no nodes")
	}
	t := &Trace{
		nodes: make([]Node, len(nodes)),
		start: math.Inf(1),
		end:   math.Inf(-1),
	}
	for i, n := range nodes {
		if !finite(n.Start) || !finite(n.End) {
			return nil, fmt.Errorf("trace: node %d: window [%v, %v) is not finite", i, n.Start, n.End)
		}
		if n.Start > n.End {
			return nil, fmt.Errorf("trace: node %d: window start %v after end %v", i, n.Start, n.End)
		}
		down := make([]Interval, 0, len(n.Down))
		for k, iv := range n.Down {
			if !finite(iv.Start) || !finite(iv.End) {
				return nil, fmt.Errorf("trace: node %d: outage %d [%v, %v) is not finite", i, k, iv.Start, iv.End)
			}
			if iv.Start > iv.End {
				return nil, fmt.Errorf("trace: node %d: outage %d ends at %v before it starts at %v", i, k, iv.End, iv.Start)
			}
			if iv.Event < 0 {
				return nil, fmt.Errorf("trace: node %d: outage %d has event label %d, want ≥ 0", i, k, iv.Event)
			}
			if c, ok := clip(iv, n.Start, n.End); ok {
				down = append(down, c)
			}
		}
		t.nodes[i] = Node{Start: n.Start, End: n.End, Down: merge(down)}
		t.start = math.Min(t.start, n.Start)
		t.end = math.Max(t.end, n.End)
	}
	return t, nil
}

// clip restricts the outage iv to the window [start, end]. It reports false
// when nothing of the outage is left: no length inside the window and not a
// zero-length outage strictly inside it.
func clip(iv Interval, start, end float64) (Interval, bool) {
	c := Interval{Start: math.Max(iv.Start, start), End: math.Min(iv.End, end), Event: iv.Event, Cause: iv.Cause}
	if c.End > c.Start {
		return c, true
	}
	if iv.Start == iv.End && start < iv.Start && iv.Start < end {
		return iv, true
	}
	return Interval{}, false
}

// merge sorts the outages in place and merges overlapping or touching ones.
func merge(down []Interval) []Interval {
	if len(down) == 0 {
		return nil
	}
	slices.SortFunc(down, func(a, b Interval) int {
		if a.Start != b.Start {
			if a.Start < b.Start {
				return -1
			}
			return 1
		}
		switch {
		case a.End < b.End:
			return -1
		case a.End > b.End:
			return 1
		}
		if a.Event != b.Event {
			return a.Event - b.Event
		}
		return int(a.Cause) - int(b.Cause)
	})
	out := down[:1]
	for _, iv := range down[1:] {
		last := &out[len(out)-1]
		if iv.Start <= last.End {
			last.End = math.Max(last.End, iv.End)
			continue
		}
		out = append(out, iv)
	}
	return slices.Clip(out)
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// NumNodes returns the number of nodes.
func (t *Trace) NumNodes() int { return len(t.nodes) }

// Node returns node i. Its Down slice is shared with the trace and must not
// be modified. Node panics if i is out of range.
func (t *Trace) Node(i int) Node { return t.nodes[i] }

// Window returns the earliest production start and the latest production
// end over all nodes.
func (t *Trace) Window() (start, end float64) { return t.start, t.end }

// Up reports whether node i is in production and not in an outage at time
// at. It panics if i is out of range.
func (t *Trace) Up(i int, at float64) bool {
	n := &t.nodes[i]
	if !(n.Start <= at && at < n.End) {
		return false
	}
	k := firstEndingAfter(n.Down, at)
	return !(k < len(n.Down) && n.Down[k].Start <= at)
}

// firstEndingAfter returns the index of the first outage with End > at.
// Outage ends are strictly increasing in a normalised list, and a
// zero-length outage ends where it starts, so this is also the first outage
// that can hold an event after at.
func firstEndingAfter(down []Interval, at float64) int {
	return sort.Search(len(down), func(k int) bool { return down[k].End > at })
}

// NextEvent returns the first event of node i strictly after time after
// (see Trace for what counts as an event) and true, or false when the node
// has no event after it. It panics if i is out of range.
func (t *Trace) NextEvent(i int, after float64) (Event, bool) {
	n := &t.nodes[i]
	k := firstEndingAfter(n.Down, after)
	if k == len(n.Down) {
		return Event{}, false
	}
	iv := n.Down[k]
	if iv.Start > after && iv.Start > n.Start {
		return Event{Time: iv.Start, Kind: Failure}, true
	}
	// Down at or after "after" (or entering production down): the next
	// event is the repair, unless the outage lasts to the window end, in
	// which case it is the last outage and nothing follows.
	if iv.End < n.End {
		return Event{Time: iv.End, Kind: Repair}, true
	}
	return Event{}, false
}

// Functional returns the number of nodes up at time at.
func (t *Trace) Functional(at float64) int {
	c := 0
	for i := range t.nodes {
		if t.Up(i, at) {
			c++
		}
	}
	return c
}

// FailureTimes returns the instants of all failure events of all nodes,
// sorted ascending. Simultaneous failures of several nodes appear once per
// node.
func (t *Trace) FailureTimes() []float64 {
	var times []float64
	for i := range t.nodes {
		n := &t.nodes[i]
		for _, iv := range n.Down {
			if iv.Start > n.Start {
				times = append(times, iv.Start)
			}
		}
	}
	slices.Sort(times)
	return times
}
