package trace

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/ckpt-markov/markov/internal/quote"
)

// Cause is the cause of an outage as a log records it: one of the LANL
// release's cause columns, or UnknownCause.
type Cause uint8

// The causes, in the order of the LANL release's columns.
const (
	// UnknownCause is an outage whose log gives no cause (the generic
	// format; a LANL row with every cause column empty).
	UnknownCause Cause = iota
	Facilities
	Hardware
	HumanError
	Network
	Undetermined
	Software
	numCauses
)

var causeNames = [numCauses]string{"unknown", "facilities", "hardware", "human-error", "network", "undetermined", "software"}

// String returns the cause's name: unknown, facilities, hardware,
// human-error, network, undetermined or software.
func (c Cause) String() string {
	if c < numCauses {
		return causeNames[c]
	}
	return fmt.Sprintf("Cause(%d)", int(c))
}

// ParseCause reads a cause name as String writes it (any case).
func ParseCause(s string) (Cause, error) {
	for c, name := range causeNames {
		if strings.EqualFold(strings.TrimSpace(s), name) {
			return Cause(c), nil
		}
	}
	return 0, fmt.Errorf("trace: cause %s is not one of %s", quote.Value(s), strings.Join(causeNames[:], ", "))
}

// SeverityMap assigns each failure a severity s ∈ 1..Levels, the lowest
// checkpoint level that survives it (docs/model.md section 12): by its
// cause, raised to Grouped when its event takes several nodes down. The
// zero SeverityMap is invalid; DefaultSeverityMap gives the documented
// default (docs/scenario.md, "Severity from a failure log").
type SeverityMap struct {
	// Levels is L, the number of checkpoint levels, 1 … MaxLevels.
	Levels int
	// ByCause[c] is the severity of a failure of cause c, in 1..Levels.
	ByCause [numCauses]int
	// Grouped is the least severity of a failure whose event takes
	// several nodes down, in 1..Levels (1: the event's size does not
	// matter).
	Grouped int
}

// MaxLevels bounds SeverityMap.Levels as scenario bounds the checkpoint
// levels (issue 22: 1 ≤ L ≤ 8).
const MaxLevels = 8

// DefaultSeverityMap is the default mapping for L checkpoint levels, level
// 1 node-local storage, level 2 a partner or XOR copy on other nodes (when
// L ≥ 3) and level L the parallel file system:
//
//   - software and human error → 1: the process or job dies, the node's
//     local storage survives;
//   - hardware, undetermined and unknown → min(2, L): the node and its
//     local storage are lost, a copy on another node survives;
//   - facilities and network → L: power, cooling or the interconnect take
//     many nodes, only the file system survives;
//   - a failure whose event takes several nodes down → L, whatever its
//     cause (a partner copy does not survive the loss of its partner).
//
// It panics if L is outside 1..MaxLevels.
func DefaultSeverityMap(L int) SeverityMap {
	if L < 1 || L > MaxLevels {
		panic(fmt.Sprintf("trace: DefaultSeverityMap(%d): levels outside 1..%d", L, MaxLevels))
	}
	m := SeverityMap{Levels: L, Grouped: L}
	node := min(2, L)
	m.ByCause = [numCauses]int{
		UnknownCause: node, Facilities: L, Hardware: node, HumanError: 1,
		Network: L, Undetermined: node, Software: 1,
	}
	return m
}

// Validate reports a map with a severity outside 1..Levels, naming it.
func (m SeverityMap) Validate() error {
	if m.Levels < 1 || m.Levels > MaxLevels {
		return fmt.Errorf("trace: severity map: levels = %d, want 1 … %d", m.Levels, MaxLevels)
	}
	for c, s := range m.ByCause {
		if s < 1 || s > m.Levels {
			return fmt.Errorf("trace: severity map: %s = %d, want 1 … %d", Cause(c), s, m.Levels)
		}
	}
	if m.Grouped < 1 || m.Grouped > m.Levels {
		return fmt.Errorf("trace: severity map: grouped = %d, want 1 … %d", m.Grouped, m.Levels)
	}
	return nil
}

// Severity returns the severity of a failure of cause c in an event of
// size nodes.
func (m SeverityMap) Severity(c Cause, size int) int {
	s := m.ByCause[c]
	if size >= 2 {
		s = max(s, m.Grouped)
	}
	return s
}

// Override returns m with the assignments of spec, a comma-separated list
// of cause=severity or grouped=severity ("software=1,hardware=2"); an
// empty spec returns m. The error names the bad assignment.
func (m SeverityMap) Override(spec string) (SeverityMap, error) {
	for part := range strings.SplitSeq(spec, ",") {
		if part = strings.TrimSpace(part); part == "" {
			continue
		}
		name, val, ok := strings.Cut(part, "=")
		if !ok {
			return m, fmt.Errorf("trace: severity %s: want cause=severity", quote.Value(part))
		}
		s, err := strconv.Atoi(strings.TrimSpace(val))
		if err != nil || s < 1 || s > m.Levels {
			return m, fmt.Errorf("trace: severity %s: want a severity in 1..%d", quote.Value(part), m.Levels)
		}
		if strings.EqualFold(strings.TrimSpace(name), "grouped") {
			m.Grouped = s
			continue
		}
		c, err := ParseCause(name)
		if err != nil {
			return m, fmt.Errorf("trace: severity: %s is not grouped or a cause (%s)", quote.Value(name), strings.Join(causeNames[:], ", "))
		}
		m.ByCause[c] = s
	}
	return m, m.Validate()
}

// SeverityShares is the severity law of a history: Events[s-1] failure
// events of severity s, Shares their fractions (system.failure_severity).
type SeverityShares struct {
	Events []int
	Shares []float64
	// Causes counts the node failures of each cause, by Cause.
	Causes [numCauses]int
}

// EstimateSeverity returns the severity law of the failure events of tr in
// the history before t0 (the window rules of EstimateRates, Lookback and
// Tolerance of s as in EstimateEvents): failures are grouped into events
// as EstimateEvents groups them, and an event's severity is the highest
// severity m gives its failures (each with the event's size). The error
// reports invalid arguments, or a history without any failure.
func EstimateSeverity(tr *Trace, t0 float64, m SeverityMap, s *EventSettings) (SeverityShares, error) {
	if err := m.Validate(); err != nil {
		return SeverityShares{}, err
	}
	var set EventSettings
	if s != nil {
		set = *s
	}
	if !finite(set.Lookback) || set.Lookback < 0 || !finite(set.Tolerance) || set.Tolerance < 0 {
		return SeverityShares{}, fmt.Errorf("trace: EventSettings Lookback %v, Tolerance %v: want finite durations ≥ 0", set.Lookback, set.Tolerance)
	}
	if math.IsNaN(t0) {
		return SeverityShares{}, fmt.Errorf("trace: t0 is NaN")
	}
	start, end := tr.Window()
	from, to := start, math.Min(t0, end)
	if set.Lookback > 0 {
		from = math.Max(start, t0-set.Lookback)
	}
	fails := tr.failuresIn(from, to)
	if len(fails) == 0 {
		return SeverityShares{}, fmt.Errorf("%w: no failure in the history [%v, %v)", ErrTooFewEvents, from, to)
	}
	out := SeverityShares{Events: make([]int, m.Levels), Shares: make([]float64, m.Levels)}
	for _, f := range fails {
		out.Causes[f.cause]++
	}
	_, sev := eventSeverities(fails, set.Tolerance, m)
	for _, s := range sev {
		out.Events[s-1]++
	}
	for l, c := range out.Events {
		out.Shares[l] = float64(c) / float64(len(sev))
	}
	return out, nil
}
