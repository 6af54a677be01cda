package sim

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// Event is a change of state of one processor.
type Event struct {
	// Time is the instant of the change, in seconds from the start of the run.
	Time float64
	// Proc is the processor, 0 ≤ Proc < N.
	Proc int
	// Up is true when the processor comes back from repair and false when
	// it fails.
	Up bool
	// Severity is the severity s ≥ 1 of a failure (docs/model.md section
	// 12) where the source knows it, as a trace replay does
	// (NewSeverityListSource); 0 where it does not, and for repairs: a
	// multi-level timeline then draws it from system.failure_severity.
	// One level ignores it; a severity above the scenario's L counts as L.
	Severity int
}

// SeveritySource is a Source whose failures carry their severity
// (Event.Severity ≥ 1) when Severities reports true. A multi-level
// timeline on such a source takes each failure's severity from its event
// and draws no process crashes of its own: a severity-1 failure is an
// event of the source like any other, and the processor it takes down
// stays down until the source repairs it.
type SeveritySource interface {
	Source
	Severities() bool
}

// Source produces the failures and repairs of N processors, in time order.
// A Timeline asks it for the state at time 0 once, then for events one by
// one; events of equal time are applied together before the application
// reacts.
type Source interface {
	// Processors returns N.
	Processors() int
	// Init writes the state of every processor at time 0 into up
	// (len(up) = N; true means functional) and restarts the stream.
	Init(up []bool)
	// Next returns the next event. Times never decrease; a source with no
	// event left returns Event{Time: +Inf}.
	Next() Event
}

// Exponential is a Source of N processors that fail and are repaired
// independently after exponential times of rates λ = 1/MTTF and
// θ = 1/MTTR (unlimited repair capacity), all functional at time 0.
//
// It draws the events of the whole pool directly: with n functional
// processors the next event comes after an exponential time of rate
// nλ + (N−n)θ, is a failure with probability nλ/(nλ + (N−n)θ) and hits a
// uniformly chosen processor of the right state. By memorylessness this is
// the same process in law as one failure/repair clock per processor, at a
// cost independent of N.
type Exponential struct {
	lambda float64
	fleet
}

// NewExponential returns the exponential source of n processors drawing
// from rng. mttf and mttr must be finite and positive.
func NewExponential(n int, mttf, mttr float64, rng *rand.Rand) (*Exponential, error) {
	if err := checkFleet(n, mttf, mttr); err != nil {
		return nil, err
	}
	f, err := newFleet(n, mttr, rng)
	if err != nil {
		return nil, err
	}
	return &Exponential{lambda: 1 / mttf, fleet: f}, nil
}

// Init marks every processor functional at time 0. It panics if len(up)
// is not N.
func (e *Exponential) Init(up []bool) { e.init(up, "Exponential") }

// Next draws the next failure or repair.
func (e *Exponential) Next() Event {
	failRate := float64(e.nUp) * e.lambda
	u, failure := e.advance(failRate)
	if !failure {
		return e.repair(u, failRate)
	}
	// Failure of the k-th functional processor, k uniform given u < failRate.
	k := min(int(u/e.lambda), e.nUp-1)
	return Event{Time: e.t, Proc: e.fail(k)}
}

// ListSource replays a fixed list of events, such as a failure trace or a
// scripted test case.
type ListSource struct {
	initial    []bool
	events     []Event
	next       int
	severities bool // failures carry their severity (NewSeverityListSource)
}

// NewListSource returns a source of len(up) processors in the states up at
// time 0 that then goes through events. Events must have finite times
// ≥ 0 in non-decreasing order, processors in range, and must alternate:
// only a functional processor fails, only a failed one is repaired.
// Severities must be 0 (NewSeverityListSource gives them). The slices are
// copied.
func NewListSource(up []bool, events []Event) (*ListSource, error) {
	for i, ev := range events {
		if ev.Severity != 0 {
			return nil, fmt.Errorf("sim: events[%d].Severity = %d, want 0 (NewSeverityListSource takes severities)", i, ev.Severity)
		}
	}
	return newListSource(up, events)
}

// NewSeverityListSource is NewListSource for events whose failures carry
// their severity: every failure must have Severity ≥ 1 and every repair
// Severity 0. The source is a SeveritySource (even without any failure):
// a multi-level timeline on it draws no severities and no process crashes.
func NewSeverityListSource(up []bool, events []Event) (*ListSource, error) {
	for i, ev := range events {
		if ev.Up && ev.Severity != 0 || !ev.Up && ev.Severity < 1 {
			return nil, fmt.Errorf("sim: events[%d].Severity = %d, want ≥ 1 for a failure and 0 for a repair", i, ev.Severity)
		}
	}
	l, err := newListSource(up, events)
	if err != nil {
		return nil, err
	}
	l.severities = true
	return l, nil
}

// Severities reports whether the failures carry their severity.
func (l *ListSource) Severities() bool { return l.severities }

func newListSource(up []bool, events []Event) (*ListSource, error) {
	if len(up) == 0 {
		return nil, fmt.Errorf("sim: up is empty, want one state per processor")
	}
	state := append([]bool(nil), up...)
	prev := 0.0
	for i, ev := range events {
		switch {
		case !(ev.Time >= prev) || math.IsInf(ev.Time, 0):
			return nil, fmt.Errorf("sim: events[%d].Time = %v, want finite, ≥ 0 and ≥ the previous event's %v", i, ev.Time, prev)
		case ev.Proc < 0 || ev.Proc >= len(up):
			return nil, fmt.Errorf("sim: events[%d].Proc = %d outside [0, %d)", i, ev.Proc, len(up))
		case state[ev.Proc] == ev.Up:
			return nil, fmt.Errorf("sim: events[%d]: processor %d is already %s at %v", i, ev.Proc, stateName(ev.Up), ev.Time)
		}
		state[ev.Proc] = ev.Up
		prev = ev.Time
	}
	return &ListSource{initial: append([]bool(nil), up...), events: append([]Event(nil), events...)}, nil
}

// Processors returns N.
func (l *ListSource) Processors() int { return len(l.initial) }

// Init writes the initial states and rewinds the list. It panics if
// len(up) is not N.
func (l *ListSource) Init(up []bool) {
	if len(up) != len(l.initial) {
		panic("sim: ListSource.Init: len(up) != N")
	}
	copy(up, l.initial)
	l.next = 0
}

// Next returns the next event of the list, then Event{Time: +Inf}.
func (l *ListSource) Next() Event {
	if l.next == len(l.events) {
		return Event{Time: math.Inf(1)}
	}
	l.next++
	return l.events[l.next-1]
}

func stateName(up bool) string {
	if up {
		return "functional"
	}
	return "failed"
}
