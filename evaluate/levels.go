package evaluate

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/ckpt-markov/markov/multilevel"
	"github.com/ckpt-markov/markov/scenario"
	"github.com/ckpt-markov/markov/sim"
	"github.com/ckpt-markov/markov/trace"
)

// Levels configures the multi-level evaluation (EvaluateLevels,
// RunLevels): where each failure's severity comes from, and the severity
// shares the model is given. The zero value means the default mapping of
// trace.DefaultSeverityMap and shares estimated from each segment's
// history.
type Levels struct {
	// Map gives each failure of the trace its severity, from its cause
	// and the size of its event (trace.SeverityMap); the zero value means
	// trace.DefaultSeverityMap(L). Its Levels must be the application's L.
	Map trace.SeverityMap
	// Shares, when not nil, are the system.failure_severity the model is
	// given for every segment (a scenario's); nil means the shares of the
	// failure events of each segment's history (trace.EstimateSeverity,
	// grouped with Events.Tolerance), as the replay counts them.
	Shares []float64
	// Pattern, when not nil, fixes the pattern [V₁, …, V_{L−1}] (a
	// scenario's checkpoint_pattern): only the interval is optimised
	// for it. Nil means the joint optimum of pattern and interval.
	Pattern []int
}

// LevelsResult is the multi-level evaluation of one segment: the model's
// joint optimum of pattern and interval (package multilevel) and the best
// single-level schedule (the top level alone, V = 0) on the segment's
// scenario, both replayed on the segment with each failure's severity
// from the trace.
type LevelsResult struct {
	Segment
	// Nodes lists the nodes of the system the segment ran on, when
	// RunLevels used a subset of them; nil means all.
	Nodes []int `json:",omitempty"`
	// Processors is N; Used is r(N).
	Processors, Used int
	// MTTF and MTTR are the model's, in seconds (as SegmentResult's).
	MTTF, MTTR float64
	// Severity is the system.failure_severity the model was given;
	// Estimated says it came from the segment's history.
	Severity  []float64
	Estimated bool
	// Failures counts the failures of the replayed segment by severity
	// (Failures[s-1]: severity s), from the trace and the mapping.
	Failures []int
	// MultiLevel is the model's joint optimum and SingleLevel its best
	// single-level schedule: pattern, interval, per-level intervals and
	// the model's UWT.
	MultiLevel, SingleLevel multilevel.Result
	// MultiReplay and SingleReplay are their replays on the segment.
	MultiReplay, SingleReplay Replay
	// UWT and SingleUWT are the replayed work per second (committed work
	// / segment duration) of the two schedules.
	UWT, SingleUWT float64
	// Gain is UWT / SingleUWT − 1, the replayed gain of the multi-level
	// schedule (NaN when the single-level schedule commits no work).
	Gain float64
}

// levelsConfig is the validated form of Levels for an application of L
// levels.
type levelsConfig struct {
	m       trace.SeverityMap
	shares  []float64
	pattern []int
}

func (lv Levels) config(L int) (levelsConfig, error) {
	if L < 2 {
		return levelsConfig{}, settingsErr("application.checkpoint_levels", "%d level, want at least 2 for a multi-level evaluation", L)
	}
	m := lv.Map
	if m.Levels == 0 {
		m = trace.DefaultSeverityMap(L)
	}
	if m.Levels != L {
		return levelsConfig{}, settingsErr("Levels.Map", "maps to %d levels, the application has %d", m.Levels, L)
	}
	if err := m.Validate(); err != nil {
		return levelsConfig{}, fmt.Errorf("evaluate: Levels.Map: %w", err)
	}
	c := levelsConfig{m: m}
	if lv.Pattern != nil {
		if err := multilevel.CheckPattern(lv.Pattern, L); err != nil {
			return levelsConfig{}, settingsErr("Levels.Pattern", "%s", strings.TrimPrefix(err.Error(), "multilevel: "))
		}
		c.pattern = append([]int(nil), lv.Pattern...)
	}
	if lv.Shares != nil {
		if len(lv.Shares) != L {
			return levelsConfig{}, settingsErr("Levels.Shares", "%d shares, want one per level (%d)", len(lv.Shares), L)
		}
		c.shares = append([]float64(nil), lv.Shares...)
	}
	return c, nil
}

// EvaluateLevels evaluates the multi-level model on segment seg of trace
// tr for the multi-level application app (L ≥ 2 checkpoint levels): it
// estimates λ and θ from the history before seg.Start as EvaluateSegment
// does, takes the severity shares from lv (or estimates them from the
// same history), asks package multilevel for the joint optimum of pattern
// and interval and for the best single-level schedule, and replays both
// on the segment. In the replay every failure of the trace has the
// severity lv's mapping gives its cause and its event
// (trace.FailureSeverities); a failure of severity 1 still takes its node
// down for the outage the trace records (docs/model.md section 12, "On a
// failure log"). The settings s are EvaluateSegment's; its Sweep and
// Events.Model are not used, and the optimal policy is refused (its
// per-configuration intervals have no multi-level form).
func EvaluateLevels(ctx context.Context, tr *trace.Trace, app scenario.Application, seg Segment, s *SegmentSettings, lv *Levels) (LevelsResult, error) {
	c, set, err := segmentConfig(tr, s)
	if err != nil {
		return LevelsResult{}, err
	}
	var l Levels
	if lv != nil {
		l = *lv
	}
	lc, err := l.config(app.NumLevels())
	if err != nil {
		return LevelsResult{}, err
	}
	if err := checkLevelsPolicy(c.policy); err != nil {
		return LevelsResult{}, err
	}
	return c.levels(ctx, tr, app, seg, set.Seed, lc)
}

// checkLevelsPolicy refuses the optimal policy, which the multi-level
// evaluation does not replay.
func checkLevelsPolicy(p scenario.Policy) error {
	if p.Kind == scenario.Optimal {
		return settingsErr("Policy", "the optimal policy has no multi-level model; use greedy, pb, ab, moldable or a vector")
	}
	return nil
}

// topLevel returns app with its top checkpoint level as its only one: the
// single-level application whose policy vector (which does not depend on
// the checkpoint costs) the segment's scenario takes.
func topLevel(app scenario.Application) scenario.Application {
	top := app.Levels[len(app.Levels)-1]
	app.Levels = nil
	app.Latency, app.Overhead, app.Recovery = top.Latency, top.Overhead, top.Recovery
	app.NoCheckpointAfterRecovery = false
	return app
}

// levels evaluates one segment; see EvaluateLevels.
func (c config) levels(ctx context.Context, tr *trace.Trace, app scenario.Application, seg Segment, seed uint64, lc levelsConfig) (LevelsResult, error) {
	if err := seg.validate(); err != nil {
		return LevelsResult{}, err
	}
	if app.N() != tr.NumNodes() {
		return LevelsResult{}, fmt.Errorf("evaluate: application is described for %d processors, trace has %d nodes", app.N(), tr.NumNodes())
	}
	est, err := trace.EstimateRates(tr, seg.Start, &c.estimate)
	if err != nil {
		return LevelsResult{}, err
	}
	m, err := c.model(ctx, tr, topLevel(app), seg, seed, est)
	if err != nil {
		return LevelsResult{}, err
	}
	res := LevelsResult{Segment: seg, Processors: tr.NumNodes(), Used: m.used, MTTF: m.sc.System.MTTF, MTTR: m.sc.System.MTTR, Severity: lc.shares}
	if res.Severity == nil {
		sh, err := trace.EstimateSeverity(tr, seg.Start, lc.m, c.events.settings(tr, c.estimate.Lookback))
		if err != nil {
			return LevelsResult{}, fmt.Errorf("evaluate: the severity shares of the history: %w", err)
		}
		res.Severity, res.Estimated = sh.Shares, true
	}
	sc := *m.sc
	sc.Application = app
	sc.System.FailureSeverity = &scenario.FailureSeverity{Shares: res.Severity}
	sc.CheckpointPattern = nil
	model, err := multilevel.NewWith(ctx, &sc, &multilevel.Settings{Workers: 1})
	if err != nil {
		return LevelsResult{}, err
	}
	opt, err := model.Optimize(ctx, &multilevel.OptimizeSettings{Pattern: lc.pattern})
	if err != nil {
		return LevelsResult{}, err
	}
	res.MultiLevel, res.SingleLevel = opt.Result, opt.SingleLevel
	res.MultiLevel.Period, res.SingleLevel.Period = multilevel.Period{}, multilevel.Period{}

	rp, failures, err := newLevelsReplayer(tr, seg, ReplaySettings{Rule: c.rule, Seed: seed, Lookback: c.estimate.Lookback}, lc.m, c.events.Tolerance)
	if err != nil {
		return LevelsResult{}, err
	}
	res.Failures = failures
	for _, r := range []struct {
		sched *multilevel.Result
		out   *Replay
	}{{&res.MultiLevel, &res.MultiReplay}, {&res.SingleLevel, &res.SingleReplay}} {
		if err := ctx.Err(); err != nil {
			return LevelsResult{}, err
		}
		run := sc
		run.CheckpointPattern = r.sched.Pattern
		if *r.out, err = rp.run(&run, r.sched.Interval); err != nil {
			return LevelsResult{}, err
		}
	}
	res.UWT = res.MultiReplay.Work / seg.Duration
	res.SingleUWT = res.SingleReplay.Work / seg.Duration
	res.Gain = math.NaN()
	if res.SingleUWT > 0 {
		res.Gain = res.UWT/res.SingleUWT - 1
	}
	return res, nil
}

// newLevelsReplayer is newReplayer with each failure's severity: from
// trace.FailureSeverities for the failures of the segment (mapping m,
// events grouped with tolerance tol), and, for a node leaving production
// while up (the trace's end of its window, no failure of the log), the
// severity m gives a failure of unknown cause. It also returns the
// failures of the segment by severity.
func newLevelsReplayer(tr *trace.Trace, seg Segment, s ReplaySettings, m trace.SeverityMap, tol float64) (*replayer, []int, error) {
	rp, err := newReplayer(tr, seg, s)
	if err != nil {
		return nil, nil, err
	}
	sevs, err := trace.FailureSeverities(tr, seg.Start, seg.Start+seg.Duration, m, tol)
	if err != nil {
		return nil, nil, err
	}
	type key struct {
		node int
		t    float64
	}
	of := make(map[key]int, len(sevs))
	for _, f := range sevs {
		of[key{f.Node, f.Start - seg.Start}] = f.Severity
	}
	up, events := segmentEvents(tr, seg)
	counts := make([]int, m.Levels)
	leave := m.Severity(trace.UnknownCause, 1)
	for i := range events {
		ev := &events[i]
		if ev.Up {
			continue
		}
		sv, ok := of[key{ev.Proc, ev.Time}]
		if !ok {
			sv = leave
		} else {
			counts[sv-1]++
		}
		ev.Severity = sv
	}
	src, err := sim.NewSeverityListSource(up, events)
	if err != nil {
		// segmentEvents and FailureSeverities give a valid list.
		panic(fmt.Sprintf("evaluate: invalid event list: %v", err))
	}
	rp.src = src
	return rp, counts, nil
}
