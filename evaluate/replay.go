package evaluate

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/ckpt-markov/markov/scenario"
	"github.com/ckpt-markov/markov/sim"
	"github.com/ckpt-markov/markov/trace"
)

// Segment is a stretch of a trace to replay: the application starts at
// Start (seconds since the Unix epoch, the trace's clock) and runs for
// Duration seconds.
type Segment struct {
	Start    float64
	Duration float64
}

func (g Segment) validate() error {
	if math.IsNaN(g.Start) || math.IsInf(g.Start, 0) {
		return fmt.Errorf("evaluate: segment start = %v, want a finite time", g.Start)
	}
	if !(g.Duration > 0) || math.IsInf(g.Duration, 0) {
		return fmt.Errorf("evaluate: segment duration = %v, want a finite positive number of seconds", g.Duration)
	}
	return nil
}

// ReplaySettings configures Simulate. A nil *ReplaySettings means the
// defaults given with each field.
type ReplaySettings struct {
	// Rule chooses the nodes to use when r(n) < n: one of package sim's
	// rules. Default (nil) sim.MostReliable{}: the functional nodes with
	// the fewest failures so far, counting the history before the segment
	// (the same history the rates are estimated from, bounded by
	// Lookback) and the segment; its Prior is always set from that
	// history. Under the greedy policy (r(n) = n) every rule gives the same
	// run.
	Rule sim.Rule
	// Seed seeds the stream of the Random rule (0 is a valid seed).
	Seed uint64
	// Lookback limits the history that MostReliable counts failures in
	// to [Start − Lookback, Start); zero means the whole trace before
	// Start.
	Lookback float64
	// Intervals, when not nil, gives the checkpoint interval of each up
	// segment from its processor count a and the functional spares s at
	// its start (the per-configuration intervals I(a) of the optimal
	// policy, docs/optimal-policy.md section 4, or per-state ones), as
	// sim.Settings.Intervals; it must return a finite positive number of
	// seconds for every count the vector uses. Simulate's interval is then
	// only reported in Replay.Interval.
	Intervals func(a, s int) float64
}

// Replay is the outcome of replaying one segment of a trace with one
// checkpoint interval. The totals are those of sim.Totals: Time is the
// segment duration, Up + Recovery + Down = Time, Failures counts the
// interruptions of the application (failures of nodes it uses, in up
// segments and recoveries), Work the committed work.
type Replay struct {
	// Interval is the checkpoint interval I, in seconds.
	Interval float64
	// Initial is the number of nodes functional at the segment start.
	Initial int
	sim.Totals
}

// Simulate replays the segment seg of trace tr with the timeline of
// scenario sc and checkpoint interval I = interval: the nodes of tr are
// the N processors of sc (sc.N() must equal tr.NumNodes()), up or down as
// the trace says, and the application goes through up segments,
// recoveries and down periods as in package sim. The scenario's MTTF and
// MTTR are not used. The application starts with an up segment on r(n₀)
// of the n₀ nodes functional at seg.Start (nodes down at the start, or
// not yet in production, start failed).
func Simulate(tr *trace.Trace, sc *scenario.Scenario, interval float64, seg Segment, s *ReplaySettings) (Replay, error) {
	if tr == nil {
		return Replay{}, errors.New("evaluate: trace is nil")
	}
	if sc == nil {
		return Replay{}, errors.New("evaluate: scenario is nil")
	}
	if sc.N() != tr.NumNodes() {
		return Replay{}, fmt.Errorf("evaluate: scenario has %d processors, trace has %d nodes", sc.N(), tr.NumNodes())
	}
	var set ReplaySettings
	if s != nil {
		set = *s
	}
	if !(set.Lookback >= 0) || math.IsInf(set.Lookback, 0) {
		return Replay{}, fmt.Errorf("evaluate: lookback = %v, want a finite number of seconds ≥ 0", set.Lookback)
	}
	rp, err := newReplayer(tr, seg, set)
	if err != nil {
		return Replay{}, err
	}
	if set.Intervals != nil {
		if !(interval > 0) || math.IsInf(interval, 0) {
			return Replay{}, fmt.Errorf("evaluate: interval = %v, want a finite positive number of seconds", interval)
		}
		return rp.runIntervals(sc, interval, set.Intervals)
	}
	return rp.run(sc, interval)
}

// replayer holds one segment of a trace converted to processor events, so
// that many intervals can be replayed on it.
type replayer struct {
	src      *sim.ListSource
	rule     sim.Rule
	seed     uint64
	duration float64
	initial  int
	// reconf, when not nil, decides the reconfigurations at checkpoints
	// (the optimal policy's, sim.Decisions.Reconfigure).
	reconf func(a, s int) int
}

// newReplayer converts segment seg of tr into a list of events relative
// to seg.Start.
func newReplayer(tr *trace.Trace, seg Segment, s ReplaySettings) (*replayer, error) {
	if err := seg.validate(); err != nil {
		return nil, err
	}
	up, events := segmentEvents(tr, seg)
	src, err := sim.NewListSource(up, events)
	if err != nil {
		// segmentEvents produces a valid list for every trace.
		panic(fmt.Sprintf("evaluate: invalid event list: %v", err))
	}
	rp := &replayer{src: src, seed: s.Seed, duration: seg.Duration}
	for _, u := range up {
		if u {
			rp.initial++
		}
	}
	switch s.Rule.(type) {
	case nil, sim.MostReliable, *sim.MostReliable:
		from := historyStart(tr, seg.Start, s.Lookback)
		prior := make([]int, tr.NumNodes())
		for i := range prior {
			prior[i] = len(nodeFailures(tr.Node(i), from, seg.Start, nil))
		}
		rp.rule = sim.MostReliable{Prior: prior}
	default:
		rp.rule = s.Rule
	}
	return rp, nil
}

// run replays the segment with interval I on scenario sc. The Random
// rule's stream restarts from the seed at every run, so that all
// intervals see the same random choices as far as their runs agree.
func (rp *replayer) run(sc *scenario.Scenario, interval float64) (Replay, error) {
	rng := rand.New(rand.NewPCG(rp.seed, streamRule))
	tl, err := sim.NewTimelineDecisions(sc, interval, sim.Decisions{Reconfigure: rp.reconf}, rp.src, rp.rule, rng)
	if err != nil {
		return Replay{}, err
	}
	if err := tl.Run(rp.duration); err != nil {
		return Replay{}, err
	}
	return Replay{Interval: interval, Initial: rp.initial, Totals: tl.Totals()}, nil
}

// runIntervals replays the segment on scenario sc with the interval
// intervals(a, s) for each up segment; interval is reported as the
// replay's Interval (for the optimal policy, the stationary-weighted mean
// of its I(a)).
func (rp *replayer) runIntervals(sc *scenario.Scenario, interval float64, intervals func(a, s int) float64) (Replay, error) {
	rng := rand.New(rand.NewPCG(rp.seed, streamRule))
	tl, err := sim.NewTimelineDecisions(sc, interval, sim.Decisions{Intervals: intervals, Reconfigure: rp.reconf}, rp.src, rp.rule, rng)
	if err != nil {
		return Replay{}, err
	}
	if err := tl.Run(rp.duration); err != nil {
		return Replay{}, err
	}
	return Replay{Interval: interval, Initial: rp.initial, Totals: tl.Totals()}, nil
}

// nodeEvent is a change of state of one node at an absolute time.
type nodeEvent struct {
	t  float64
	up bool
}

// nodeEvents appends to dst the state changes of node nd in time order,
// starting from "not in production": entering production up is a repair
// at Start, leaving it up is a failure at End, and in between every
// outage [a, b) is a failure at a (a > Start; an outage at Start means
// the node enters production down) and a repair at b (b < End; an outage
// reaching End is still open when the node leaves). A zero-length outage
// is a failure immediately followed by its repair. Replaying these
// changes from "down" gives trace.Trace.Up at every instant.
func nodeEvents(dst []nodeEvent, nd trace.Node) []nodeEvent {
	if !(nd.Start < nd.End) {
		return dst
	}
	up := len(nd.Down) == 0 || nd.Down[0].Start > nd.Start
	if up {
		dst = append(dst, nodeEvent{nd.Start, true})
	}
	for _, o := range nd.Down {
		if o.Start > nd.Start {
			dst = append(dst, nodeEvent{o.Start, false})
		}
		up = o.End < nd.End
		if up {
			dst = append(dst, nodeEvent{o.End, true})
		}
	}
	if up {
		dst = append(dst, nodeEvent{nd.End, false})
	}
	return dst
}

// segmentEvents returns the state of every node of tr at seg.Start and
// the changes strictly inside the segment, in time order (ties in node
// order, and in order within a node), with times relative to seg.Start.
// Changes at seg.Start itself are part of the initial state.
func segmentEvents(tr *trace.Trace, seg Segment) ([]bool, []sim.Event) {
	n := tr.NumNodes()
	up := make([]bool, n)
	var events []sim.Event
	var buf []nodeEvent
	for i := range n {
		buf = nodeEvents(buf[:0], tr.Node(i))
		k := 0
		for ; k < len(buf) && buf[k].t <= seg.Start; k++ {
			up[i] = buf[k].up
		}
		for ; k < len(buf); k++ {
			rel := buf[k].t - seg.Start
			if rel >= seg.Duration {
				break
			}
			events = append(events, sim.Event{Time: rel, Proc: i, Up: buf[k].up})
		}
	}
	slices.SortStableFunc(events, func(x, y sim.Event) int { return cmp.Compare(x.Time, y.Time) })
	return up, events
}

// historyStart is the start of the history before t0: the trace's start,
// or t0 − lookback when lookback > 0 and that is later.
func historyStart(tr *trace.Trace, t0, lookback float64) float64 {
	from, _ := tr.Window()
	if lookback > 0 {
		from = max(from, t0-lookback)
	}
	return from
}

// nodeFailures appends to dst the failure instants of node nd in [from,
// to): the starts of its outages strictly after its production start, as
// trace.EstimateRates counts them.
func nodeFailures(nd trace.Node, from, to float64, dst []float64) []float64 {
	for _, o := range nd.Down {
		if o.Start > nd.Start && o.Start >= from && o.Start < to {
			dst = append(dst, o.Start)
		}
	}
	return dst
}
