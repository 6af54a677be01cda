package evaluate

import (
	"fmt"
	"math"

	"github.com/ckpt-markov/markov/scenario"
	"github.com/ckpt-markov/markov/trace"
)

// Events configures what EvaluateSegment and Run learn about failure
// events from each segment's history (trace.EstimateEvents): the verdicts
// on the model's assumptions (always), and, when Model is set, the model
// with failure events (docs/model.md, section 11) as a fifth interval.
// The zero value means verdicts with the defaults and no events model.
type Events struct {
	// Model turns on the model with failure events: the scenario of the
	// segment with the size law of the events of its history, replayed
	// next to the single-failure model, Young and Daly.
	Model bool
	// Tolerance, in seconds, groups failures of different nodes that start
	// at most this far apart into one event (trace.EventSettings); failures
	// with the same Event label (the LANL "Same Event" grouping) are one
	// event whatever the tolerance. Default 0: equal start times.
	Tolerance float64
	// Resolution is the clock tick of the trace for the test of
	// coincidences against chance (trace.EventSettings.Resolution). Zero
	// means the trace's own trace.Trace.ClockTick.
	Resolution float64
	// Tol is the uwt.Settings.Tol of the model with events. Zero means
	// DefaultEventsTol.
	Tol float64
}

// DefaultEventsTol is the default Events.Tol: the bound on the stationary
// mass the fast path's window of the model with events drops. It is
// coarser than uwt.DefaultTol (1e-12) because the batch rows cost about in
// proportion to the window. Measured once (qr on 128 processors, greedy,
// 1/11 of the events of 4–16 nodes, half the failures grouped; one
// uwt.Optimize, CPU time on a shared machine): MTTF 8 h, MTTR 1 h: 10.6 s at
// 1e-12, 7.4 s at 1e-9, 4.5 s at 1e-6; MTTF 1 d, MTTR 4 h: 10.1, 6.7 and
// 4.3 s. I* was the same to 7 digits at 1e-9 and moved by 1e-5 relative at
// 1e-6; UWT by at most 4e-12 and 3e-9 relative. Either is far below the
// replay's sampling error of a fraction of a percent.
const DefaultEventsTol = 1e-9

func (e Events) validate() error {
	for _, f := range []struct {
		name string
		v    float64
	}{{"Events.Tolerance", e.Tolerance}, {"Events.Resolution", e.Resolution}} {
		if !(f.v >= 0) || math.IsInf(f.v, 0) {
			return settingsErr(f.name, "%v, want a finite number of seconds ≥ 0", f.v)
		}
	}
	if !(e.Tol >= 0 && e.Tol < 1) {
		return settingsErr("Events.Tol", "%v, want a bound in [0, 1) (0 for %g)", e.Tol, DefaultEventsTol)
	}
	return nil
}

// settings returns the trace.EventSettings of a segment of tr whose
// history is bounded by lookback.
func (e Events) settings(tr *trace.Trace, lookback float64) *trace.EventSettings {
	res := e.Resolution
	if res == 0 {
		res = tr.ClockTick()
	}
	return &trace.EventSettings{Lookback: lookback, Tolerance: e.Tolerance, Resolution: res}
}

// eventSizes returns the size law of the failure events of a history,
// sizes[k-1] = the fraction of events that took down k nodes, or nil when
// the history does not show grouped failures (est.SingleFailures is not
// Contradicted: no Event label groups failures and their coincidences are
// within chance), where the model with events is the single-failure model.
func eventSizes(est *trace.EventEstimate) []float64 {
	if est.SingleFailures != trace.Contradicted || len(est.Events.Sizes) == 0 {
		return nil
	}
	st := est.Events.Sizes
	sizes := make([]float64, st[len(st)-1].Size)
	for _, sc := range st {
		sizes[sc.Size-1] = float64(sc.Fraction.Count) / float64(est.Events.Events)
	}
	return sizes
}

// withEvents returns a copy of sc whose failures come in events of the size
// law sizes, at the same failure rate per processor (MTTF), so that the
// two models differ by the grouping only.
func withEvents(sc *scenario.Scenario, sizes []float64) (*scenario.Scenario, error) {
	ev := *sc
	ev.System.FailureEvents = &scenario.FailureEvents{Sizes: sizes}
	if err := ev.Validate(); err != nil {
		return nil, fmt.Errorf("evaluate: the model with failure events: %w", err)
	}
	return &ev, nil
}
