package trace

import (
	"fmt"
	"math"
)

// FailureSeverity is the severity of one node failure: the node, the start
// of its outage, and the severity s ∈ 1..Levels of the event it belongs to.
type FailureSeverity struct {
	Node     int
	Start    float64
	Severity int
}

// FailureSeverities returns the severity of every node failure of tr that
// starts in [from, to) (an outage starting after the node's production
// start, as EstimateRates counts failures), in time order (ties in node
// order). Failures are grouped into events as EstimateSeverity groups
// them, with tolerance tol seconds, and each failure gets its event's
// severity: the highest that m gives the event's failures, each with the
// event's size. A replay of the window takes each failure's severity from
// here (package evaluate), so that the replay and EstimateSeverity's
// shares count the same events alike.
func FailureSeverities(tr *Trace, from, to float64, m SeverityMap, tol float64) ([]FailureSeverity, error) {
	if err := m.Validate(); err != nil {
		return nil, err
	}
	if math.IsNaN(from) || math.IsNaN(to) {
		return nil, fmt.Errorf("trace: FailureSeverities window [%v, %v): want times, not NaN", from, to)
	}
	if !finite(tol) || tol < 0 {
		return nil, fmt.Errorf("trace: FailureSeverities tolerance %v: want a finite duration ≥ 0", tol)
	}
	fails := tr.failuresIn(from, to)
	if len(fails) == 0 {
		return nil, nil
	}
	g, sev := eventSeverities(fails, tol, m) // sorts fails by time, then node
	out := make([]FailureSeverity, len(fails))
	for k, f := range fails {
		out[k] = FailureSeverity{Node: f.node, Start: f.t, Severity: sev[g.of[k]]}
	}
	return out, nil
}
