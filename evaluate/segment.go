package evaluate

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/ckpt-markov/markov/intervals"
	"github.com/ckpt-markov/markov/reschedule"
	"github.com/ckpt-markov/markov/scenario"
	"github.com/ckpt-markov/markov/sim"
	"github.com/ckpt-markov/markov/trace"
	"github.com/ckpt-markov/markov/uwt"
)

// Random streams derived from one segment seed (the second PCG word).
const (
	streamRule   = 1 // the Random rule
	streamPolicy = 2 // the availability-based policy's random picks
	streamDraw   = 3 // segment start, duration and node subset (Run)
)

// Sweep configures the search for the best interval of a segment. A zero
// field means the default given with it.
type Sweep struct {
	// Start is the first interval of the doubling scan, in seconds. Zero
	// means StartFraction times the model's I*.
	Start float64
	// StartFraction is the first interval of the doubling scan as a
	// fraction of the model's I*, in (0, 1], when Start is zero. Default
	// DefaultStartFraction (1/8: three doublings below I*).
	StartFraction float64
	// End is the longest interval of the doubling scan, in seconds. Zero
	// means the segment's duration.
	End float64
	// Points is the number of intervals of each refinement, at least 3.
	// Default 16.
	Points int
	// Levels is the number of refinements; negative means none. Default 2.
	Levels int
}

// DefaultStartFraction is the default Sweep.StartFraction: the scan starts
// at I*/8, so that a best interval several times shorter than I* is inside
// it. (The paper's fixed start of 5 minutes finds nothing below 150 s, the
// lower end of its first refinement, however short I* is.) A replay with
// interval I costs about d/I up segments, so the scan from I*/8 costs
// about 16d/I*.
const DefaultStartFraction = 1.0 / 8

func (s Sweep) withDefaults() (Sweep, error) {
	if !(s.Start >= 0) || math.IsInf(s.Start, 0) {
		return s, settingsErr("Sweep.Start", "%v s, want a finite positive number of seconds (or 0 for a fraction of I*)", s.Start)
	}
	if s.StartFraction == 0 {
		s.StartFraction = DefaultStartFraction
	}
	if !(s.StartFraction > 0 && s.StartFraction <= 1) {
		return s, settingsErr("Sweep.StartFraction", "%v, want a fraction of I* in (0, 1]", s.StartFraction)
	}
	if !(s.End >= 0) || math.IsInf(s.End, 0) {
		return s, settingsErr("Sweep.End", "%v s, want a finite positive number of seconds (or 0 for the segment's duration)", s.End)
	}
	if s.Start > 0 && s.End > 0 && s.End < s.Start {
		return s, settingsErr("Sweep.End", "%v s, below Sweep.Start %v s", s.End, s.Start)
	}
	if s.Points == 0 {
		s.Points = 16
	}
	if s.Points < 3 {
		return s, settingsErr("Sweep.Points", "%d, want 3 … %d (or 0 for the default)", s.Points, MaxSweepPoints)
	}
	if s.Points > MaxSweepPoints {
		return s, settingsErr("Sweep.Points", "%d, want 3 … %d", s.Points, MaxSweepPoints)
	}
	if s.Levels == 0 {
		s.Levels = 2
	}
	if s.Levels > maxSweepLevels {
		return s, settingsErr("Sweep.Levels", "%d, want at most %d", s.Levels, maxSweepLevels)
	}
	s.Levels = max(s.Levels, 0)
	return s, nil
}

// Bounds of the sweep's settings, so that a mistyped value fails at once
// instead of replaying each segment millions of times. Each point is one
// replay; 1000 points per refinement already locate the best interval to
// 0.14 % after one level, and 20 levels of 3 points narrow the step ratio
// to 2^(2^-20) = 1 + 7e-7.
const (
	MaxSweepPoints = 1000
	maxSweepLevels = 20
)

// Point is the work a segment yields with one interval.
type Point struct {
	Interval, Work float64
}

// Outcome is the replay of a segment with one interval and its
// efficiency, Work / Best.Work: NaN when no interval commits any work
// (Best.Work = 0), where efficiency means nothing (SegmentResult.NoWork).
type Outcome struct {
	Replay
	Efficiency float64
}

// SegmentResult is the evaluation of the model on one segment.
type SegmentResult struct {
	Segment
	// Nodes lists the nodes of the system the segment ran on, when Run
	// used a subset of them; nil means all.
	Nodes []int `json:",omitempty"`
	// Processors is N, the nodes replayed; Used is r(N), the processors
	// the application uses when all are functional.
	Processors, Used int
	// Estimate holds λ̂ and θ̂ pooled over all N nodes from the history
	// before the start.
	Estimate trace.Estimate
	// Rates tells which nodes the failure rate given to the model
	// describes: AllNodes (MTTF = 1/λ̂) or UsedNodes (the mean empirical
	// Bayes rate of the r(N) nodes the rule prefers). MTTR = 1/θ̂ always.
	Rates      Rates
	MTTF, MTTR float64
	// Vector is the policy's r(1..N) the segment was replayed with: the
	// given vector, or the one resolved (availability based) or solved
	// (optimal) for this segment.
	Vector reschedule.Vector
	// ModelUWT is the UWT the model predicts at its interval I* (for the
	// optimal policy, with its intervals I(a)), and ModelStatus tells
	// whether its search converged.
	ModelUWT    float64
	ModelStatus uwt.Status
	// Model is the replay with the model's interval I* (the maximiser of
	// UWT), Paper with the paper's I_model (the mean of the scanned
	// intervals within 8 % of the best UWT), and Best with the interval
	// of the most work among all intervals replayed (the sweep, these
	// two, Young's and Daly's). For the optimal policy, Model is the
	// replay with one interval per configuration I(a) (its Interval is
	// their stationary-weighted mean) and Best the best single interval
	// (I* included), so that Model.Efficiency may exceed 1.
	Model, Paper, Best Outcome
	// Young and Daly are the replays with Young's sqrt(2δM) and Daly's
	// higher-order interval for the job MTBF M = 1/(r(N)·λ̂) and the
	// checkpoint cost δ = C(r(N)); nil when r(N) = 0 or δ = 0, where
	// neither applies.
	Young, Daly *Outcome
	// Sweep holds the intervals of the sweep and their work, by interval.
	Sweep []Point

	// Assumptions is what the history before the start says about the
	// model's assumptions, exponential up times and single-node failure
	// events (trace.EstimateEvents with SegmentSettings.Events; its
	// Summary is the one-line verdict).
	Assumptions trace.EventEstimate
	// Events is the replay with the interval of the model with failure
	// events (SegmentSettings.Events.Model; nil otherwise), EventsUWT the
	// UWT that model predicts at its interval and EventsStatus whether
	// its search converged. EventSizes is the size law the model used,
	// EventSizes[k-1] being the fraction of the history's events that
	// took down k nodes; nil when the history shows no grouped failures
	// (Assumptions.SingleFailures is not Contradicted), and the model with
	// events is then the single-failure model: Events replays I* again.
	Events       *Outcome
	EventsUWT    float64
	EventsStatus uwt.Status
	EventSizes   []float64 `json:",omitempty"`
}

// SegmentSettings configures EvaluateSegment. A nil *SegmentSettings
// means the defaults given with each field.
type SegmentSettings struct {
	// Policy is the rescheduling policy; the zero Policy is greedy. An
	// availability-based policy is resolved for each segment from the
	// failure instants of its history; an optimal one without its vector
	// is solved for each segment from the estimated rates (package
	// optimal, one interval for every configuration), unless it comes with
	// its vector.
	Policy scenario.Policy
	// Rule chooses the nodes to use when r(n) < n. Default (nil)
	// sim.MostReliable{}, counting the history's failures (see
	// ReplaySettings.Rule).
	Rule sim.Rule
	// Rates chooses which nodes the model's failure rate describes.
	// Default UsedNodes.
	Rates Rates
	// Seed seeds the Random rule and the availability-based policy's
	// random picks.
	Seed uint64
	// Estimate configures the estimation of λ and θ; its Lookback also
	// bounds the history the availability-based policy and the
	// MostReliable rule count failures in.
	Estimate trace.EstimateSettings
	// Sweep configures the search for the best interval.
	Sweep Sweep
	// Reconfigure is the model's option of reconfiguring at checkpoints
	// (scenario.Reconfigure; docs/optimal-policy.md section 1): the model,
	// the optimal policy's solver and the replay all use it. Default
	// scenario.Never, the paper's model.
	Reconfigure scenario.Reconfigure
	// Events configures the verdicts on the model's assumptions and the
	// model with failure events.
	Events Events
}

// EvaluateSegment evaluates the model on segment seg of trace tr for
// application app (described for tr.NumNodes() processors), as in
// section VI-C of the malleable checkpointing paper: it estimates λ and θ
// from the history before seg.Start (λ of the nodes the rule prefers, see
// Rates), builds the scenario and asks the
// model (package uwt, fast path) for its interval I*, replays the segment
// with I*, I_model, Young's and Daly's intervals and with a sweep of
// intervals, and reports the work of each relative to the best.
//
// The error wraps trace.ErrTooFewEvents when the history is too short to
// estimate the rates; it is ctx.Err() when ctx is cancelled.
func EvaluateSegment(ctx context.Context, tr *trace.Trace, app scenario.Application, seg Segment, s *SegmentSettings) (SegmentResult, error) {
	c, set, err := segmentConfig(tr, s)
	if err != nil {
		return SegmentResult{}, err
	}
	return c.segment(ctx, tr, app, seg, set.Seed)
}

// segmentConfig checks the trace and the settings s (nil: the defaults)
// of a one-segment evaluation and returns their configuration.
func segmentConfig(tr *trace.Trace, s *SegmentSettings) (config, SegmentSettings, error) {
	if tr == nil {
		return config{}, SegmentSettings{}, errors.New("evaluate: trace is nil")
	}
	var set SegmentSettings
	if s != nil {
		set = *s
	}
	c, err := newConfig(set)
	return c, set, err
}

// config is the validated form of the settings shared by EvaluateSegment
// and Run.
type config struct {
	reconf   scenario.Reconfigure
	policy   scenario.Policy
	rule     sim.Rule
	rates    Rates
	estimate trace.EstimateSettings
	sweep    Sweep
	events   Events
}

func newConfig(s SegmentSettings) (config, error) {
	if err := checkPolicy(s.Policy); err != nil {
		return config{}, err
	}
	if err := s.Rates.validate(); err != nil {
		return config{}, err
	}
	sw, err := s.Sweep.withDefaults()
	if err != nil {
		return config{}, err
	}
	if lb := s.Estimate.Lookback; !(lb >= 0) || math.IsInf(lb, 0) {
		return config{}, settingsErr("Estimate.Lookback", "%v, want a finite number of seconds ≥ 0", lb)
	}
	if err := s.Reconfigure.Validate(); err != nil {
		return config{}, fmt.Errorf("evaluate: %w", err)
	}
	if err := s.Events.validate(); err != nil {
		return config{}, err
	}
	if s.Events.Tol == 0 {
		s.Events.Tol = DefaultEventsTol
	}
	return config{policy: s.Policy, rule: s.Rule, rates: s.Rates, estimate: s.Estimate, sweep: sw, reconf: s.Reconfigure, events: s.Events}, nil
}

// segment evaluates one segment; see EvaluateSegment. Its stages:
// estimate the rates of the history, build the model's scenario, solve
// the model for its intervals, replay them.
func (c config) segment(ctx context.Context, tr *trace.Trace, app scenario.Application, seg Segment, seed uint64) (SegmentResult, error) {
	if err := seg.validate(); err != nil {
		return SegmentResult{}, err
	}
	if app.N() != tr.NumNodes() {
		return SegmentResult{}, fmt.Errorf("evaluate: application is described for %d processors, trace has %d nodes", app.N(), tr.NumNodes())
	}
	est, err := trace.EstimateRates(tr, seg.Start, &c.estimate)
	if err != nil {
		return SegmentResult{}, err
	}
	m, err := c.model(ctx, tr, app, seg, seed, est)
	if err != nil {
		return SegmentResult{}, err
	}
	sv, err := c.solve(ctx, tr, seg, m)
	if err != nil {
		return SegmentResult{}, err
	}
	res := SegmentResult{
		Segment:     seg,
		Processors:  tr.NumNodes(),
		Used:        m.used,
		Estimate:    est,
		Rates:       m.rates,
		MTTF:        m.sc.System.MTTF,
		MTTR:        m.sc.System.MTTR,
		Vector:      m.sc.Reschedule,
		ModelUWT:    sv.opt.UWT,
		ModelStatus: sv.opt.Status,
		Assumptions: sv.assume,
	}
	if err := c.replay(ctx, tr, seg, seed, m, sv, &res); err != nil {
		return SegmentResult{}, err
	}
	return res, nil
}

// modelled is the scenario of a segment: N nodes with the rates of its
// history, the application and the policy's vector.
type modelled struct {
	sc *scenario.Scenario
	// pc holds the optimal policy's intervals I(a); nil for the others.
	pc *perConfiguration
	// used is r(N); rates says which nodes the MTTF describes.
	used  int
	rates Rates
}

// model builds the scenario of a segment from the estimate est of its
// history: the policy resolved or solved for it, and, when the policy
// leaves spares and c.rates is UsedNodes, the failure rate of the nodes
// the rule prefers (an optimal policy is then solved again with it).
func (c config) model(ctx context.Context, tr *trace.Trace, app scenario.Application, seg Segment, seed uint64, est trace.Estimate) (modelled, error) {
	mttf, mttr := 1/est.Failure.Value, 1/est.Repair.Value
	sc, pc, err := segmentScenario(ctx, c.policy, c.reconf, tr, app, mttf, mttr, est.From, seg.Start, rand.New(rand.NewPCG(seed, streamPolicy)))
	if err != nil {
		return modelled{}, err
	}
	n := tr.NumNodes()
	m := modelled{sc: sc, pc: pc, used: sc.Reschedule.At(n), rates: AllNodes}
	if c.rates != UsedNodes || !(0 < m.used && m.used < n) {
		return m, nil
	}
	nodes := preferred(c.rule, tr, m.used, est.From, seg.Start)
	if nodes == nil {
		return m, nil
	}
	lambda, err := nodeRates(tr, seg.Start, c.estimate)
	if err != nil {
		return modelled{}, err
	}
	var sum float64
	for _, i := range nodes {
		sum += lambda[i]
	}
	// The policy's vector is kept; an optimal one, solved from the rates
	// pooled over all nodes, is solved again with the rate of the nodes
	// its vector uses.
	used := *sc
	used.System.MTTF = float64(m.used) / sum
	if err := used.Validate(); err != nil {
		return modelled{}, fmt.Errorf("evaluate: the failure rate of the %d used nodes: %w", m.used, err)
	}
	m.sc, m.rates = &used, UsedNodes
	if pc != nil {
		if m.sc, m.pc, err = solveOptimal(ctx, used.System, used.Application, used.Reconfigure, c.policy); err != nil {
			return modelled{}, err
		}
	}
	return m, nil
}

// solved is what the model says of a segment: its optimum (I*, I_model),
// that of the model with the failure events of the history (the same
// when it shows none, or without Events.Model), the events' size law
// (nil then), and the history's verdict on the model's assumptions.
type solved struct {
	opt, events uwt.Optimum
	sizes       []float64
	assume      trace.EventEstimate
}

// solve solves the model of a segment (package uwt, fast path) and, with
// Events.Model, the model with the failure events of its history.
func (c config) solve(ctx context.Context, tr *trace.Trace, seg Segment, m modelled) (solved, error) {
	if m.sc.Application.ReplicaCount() > 1 {
		return c.solveReplicated(ctx, tr, seg, m)
	}
	um, err := uwt.New(ctx, m.sc, &uwt.Settings{Workers: 1})
	if err != nil {
		return solved{}, err
	}
	var sv solved
	if sv.opt, err = um.Optimize(ctx, nil); err != nil {
		return solved{}, err
	}
	if sv.assume, err = trace.EstimateEvents(tr, seg.Start, c.events.settings(tr, c.estimate.Lookback)); err != nil {
		return solved{}, err
	}
	sv.events = sv.opt
	if !c.events.Model {
		return sv, nil
	}
	if sv.sizes = eventSizes(&sv.assume); sv.sizes == nil {
		return sv, nil
	}
	esc, err := withEvents(m.sc, sv.sizes)
	if err != nil {
		return solved{}, err
	}
	em, err := uwt.New(ctx, esc, &uwt.Settings{Workers: 1, Tol: c.events.Tol})
	if err != nil {
		return solved{}, err
	}
	if sv.events, err = em.Optimize(ctx, nil); err != nil {
		return solved{}, err
	}
	return sv, nil
}

// replay replays a segment with the intervals of the model (I*, I_model,
// the events model's with Events.Model, Young's and Daly's where they
// apply, the optimal policy's I(a)) and with the sweep, and fills in the
// outcomes of res, each against the most work of all.
func (c config) replay(ctx context.Context, tr *trace.Trace, seg Segment, seed uint64, m modelled, sv solved, res *SegmentResult) error {
	rp, err := newReplayer(tr, seg, ReplaySettings{Rule: c.rule, Seed: seed, Lookback: c.estimate.Lookback})
	if err != nil {
		return err
	}
	if m.pc != nil {
		rp.reconf = m.pc.reconf
	}
	replay := func(interval float64) (Replay, error) {
		if err := ctx.Err(); err != nil {
			return Replay{}, err
		}
		return rp.run(m.sc, interval)
	}
	best, sweep, err := c.sweep.run(seg.Duration, sv.opt.Interval, replay)
	if err != nil {
		return err
	}
	res.Sweep = sweep
	outcomes := []*Outcome{&res.Model, &res.Paper}
	chosen := []float64{sv.opt.Interval, sv.opt.ModelInterval}
	if c.events.Model {
		res.Events, res.EventsUWT, res.EventsStatus, res.EventSizes = new(Outcome), sv.events.UWT, sv.events.Status, sv.sizes
		outcomes = append(outcomes, res.Events)
		chosen = append(chosen, sv.events.Interval)
	}
	if p, _, err := intervals.ForScenario(m.sc); err == nil && p.Checkpoint > 0 {
		// ForScenario fails only for r(N) = 0; both functions fail only for
		// M ≤ 0 or δ ≤ 0, excluded here.
		young, _ := intervals.YoungInterval(p.MTBF, p.Checkpoint)
		daly, _ := intervals.DalyHigherOrder(p.MTBF, p.Checkpoint)
		res.Young, res.Daly = new(Outcome), new(Outcome)
		outcomes = append(outcomes, res.Young, res.Daly)
		chosen = append(chosen, young, daly)
	}
	for k, o := range outcomes {
		r, err := replay(chosen[k])
		if err != nil {
			return err
		}
		o.Replay = r
		if r.Work > best.Work {
			best = r
		}
	}
	if m.pc != nil {
		// The optimal policy: Model is the replay with its intervals I(a)
		// (level 3), measured against the best single interval in
		// hindsight (best, which it does not enter: its efficiency may
		// exceed 1).
		if err := ctx.Err(); err != nil {
			return err
		}
		if res.Model.Replay, err = rp.runIntervals(m.sc, m.pc.mean, m.pc.intervals); err != nil {
			return err
		}
		res.ModelUWT = m.pc.uwt
	}
	res.Best = Outcome{Replay: best, Efficiency: efficiency(best.Work, best.Work)}
	for _, o := range outcomes {
		o.Efficiency = efficiency(o.Work, best.Work)
	}
	return nil
}

// efficiency returns work/best, or NaN when best is zero: no interval
// commits any work, and a ratio of no work to no work is no success.
func efficiency(work, best float64) float64 {
	if best == 0 {
		return math.NaN()
	}
	return work / best
}

// NoWork reports whether no interval the segment was replayed with
// committed any work (the best work is 0: failures too frequent for any
// checkpoint to complete); its efficiencies are then NaN.
func (s *SegmentResult) NoWork() bool { return s.Best.Work == 0 }

// run sweeps the interval on a segment of length duration for a model
// interval istar: the doubling scan start·2^k for every k with
// start·2^k ≤ end (the first point always), start being Start or
// StartFraction·istar and end being End or duration, then Levels
// refinements, each replaying Points intervals spaced evenly in log I
// between the best so far divided and multiplied by the previous step
// ratio (2 for the doubling scan). It returns the replay of the most work
// (ties to the one replayed first) and every point, by interval.
func (s Sweep) run(duration, istar float64, replay func(float64) (Replay, error)) (Replay, []Point, error) {
	start, end := s.Start, s.End
	if start == 0 {
		start = s.StartFraction * istar
	}
	if end == 0 {
		end = duration
	}
	if !(start > 0) || math.IsInf(start, 0) {
		return Replay{}, nil, fmt.Errorf("evaluate: sweep start %v·I* = %v s, want a finite positive interval", s.StartFraction, start)
	}
	var best Replay
	var pts []Point
	try := func(interval float64) error {
		r, err := replay(interval)
		if err != nil {
			return err
		}
		pts = append(pts, Point{Interval: interval, Work: r.Work})
		if len(pts) == 1 || r.Work > best.Work {
			best = r
		}
		return nil
	}
	for k := 0; k == 0 || math.Ldexp(start, k) <= end; k++ {
		if err := try(math.Ldexp(start, k)); err != nil {
			return Replay{}, nil, err
		}
	}
	ratio := 2.0
	for range s.Levels {
		lo, hi := best.Interval/ratio, best.Interval*ratio
		step := math.Pow(hi/lo, 1/float64(s.Points-1))
		for j := range s.Points {
			if err := try(lo * math.Pow(step, float64(j))); err != nil {
				return Replay{}, nil, err
			}
		}
		ratio = step
	}
	slices.SortStableFunc(pts, func(x, y Point) int {
		switch {
		case x.Interval < y.Interval:
			return -1
		case x.Interval > y.Interval:
			return 1
		}
		return 0
	})
	return best, pts, nil
}
