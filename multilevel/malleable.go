package multilevel

import (
	"context"
	"fmt"
	"math"

	"github.com/ckpt-markov/markov/internal/decision"

	"gonum.org/v1/gonum/mat"

	"github.com/ckpt-markov/markov/scenario"
	"github.com/ckpt-markov/markov/uwt"
)

// Settings configures the chain of up phases of a malleable policy
// (docs/model.md section 12, "Malleable policies"): its window and
// pruning, passed to package uwt. A nil *Settings means uwt's defaults.
// A fixed processor count solves no chain and ignores them.
type Settings struct {
	// Tol bounds the stationary mass the chain's window of functional
	// counts drops (uwt.Settings.Tol); zero means uwt.DefaultTol.
	Tol float64
	// Prune is uwt.Settings.Prune: zero means uwt.DefaultPrune, a
	// negative value disables pruning.
	Prune float64
	// Workers and MaxTransitions are uwt.Settings': the goroutines that
	// compute the chain's rows (zero: one per CPU; results do not depend
	// on it) and the cap on its estimated transitions (zero: uwt's
	// default).
	Workers, MaxTransitions int
}

// malleable is the model of a policy that changes the processor count
// (docs/model.md section 12, "Malleable policies"). Processors go down at
// μ = (1 − f₁)λ each, severity-1 failures (process crashes) take none,
// so the decision chain of package uwt (the chain of up phases) on a
// pool whose processors fail at μ is the chain of this model: from a
// decision state the recovery on a = r(n) processors and the up phase
// after it last until one of the a processors goes down, an Exp(aμ)
// time whatever the application does, and the spare count at that
// moment has the law of the resolvent's row. Only the rewards differ
// from the single-level model's; they depend on the pattern and the
// interval, the chain on neither, so it is solved once and each
// evaluation is one pass over its recurrent states.
// chainModel is a malleable model on its own chain (positional,
// reconf): an evaluation also reports the mass its chain lost.
type chainModel interface {
	evaluate(pattern []int, interval float64) (uwtv, avail, eff, down, lost float64, err error)
}

// chain returns the model's own chain (reconfiguration first, as New
// builds at most one), or nil for the chain of up phases.
func (mm *malleable) chain() chainModel {
	switch {
	case mm.rc != nil:
		return mm.rc
	case mm.pos != nil:
		return mm.pos
	}
	return nil
}

type malleable struct {
	pos    *positional // three levels with processor failures of severity 2, or nil
	rc     *reconf     // reconfiguration at top-level checkpoints, or nil
	sev    []float64   // the up phases' severity classes: f₁ … f_L, then the down share
	procs  []*Process  // by configuration index
	work   []float64   // ω(a) by configuration index
	states []upState   // the chain's recurrent states
	result uwt.Result  // the solved chain (window, dropped mass, states)
	// ev holds, by configuration index, the up phase's chain over the
	// spare count with failure events (events.go); nil without.
	ev []*eventChain
}

// upState is a recurrent state of the decision chain: its stationary
// probability (of the jump chain), its expected sojourn, and, for a
// decision state, the configuration it recovers on and the probability
// that its recovery completes before a processor goes down.
type upState struct {
	pi, tau float64
	conf    int // index into procs; −1 for a down state
	surv    float64
	// start is, with failure events, the spare law at the end of the
	// recovery (its sum is surv), by spare count.
	start []float64
}

// newMalleable returns the model of sc's malleable policy, or an error
// naming the field that asks for what it does not model: a processor
// failure below the top severity (with three levels or more: a share
// f_s > 0 for 1 < s < L), no checkpoint after recovery, reconfiguration
// at checkpoints beyond reconf.go (checkReconf), or (with process
// crashes, without reconfiguration) a top-level recovery cost that
// depends on the count that wrote the checkpoint. With reconfiguration
// at checkpoints it holds the chain of reconf.go.
func newMalleable(ctx context.Context, sc *scenario.Scenario, s *Settings) (*malleable, error) {
	sev := sc.Severity()
	// Processor failures inside the period (position.go).
	return buildMalleable(ctx, sc, s, len(sev) == 3 && sev[1] != 0)
}

// buildMalleable is newMalleable with the positional chain (three levels:
// position.go) built when inner is set, whatever the share of severity 2.
func buildMalleable(ctx context.Context, sc *scenario.Scenario, s *Settings, inner bool) (*malleable, error) {
	if err := checkMalleable(sc, inner); err != nil {
		return nil, err
	}
	app := sc.Application
	L := app.NumLevels()
	sev := sc.Severity()
	crash := 0.0
	if L > 1 {
		crash = sev[0]
	}
	res, mu, err := decisionChain(ctx, sc, s, crash)
	if err != nil {
		return nil, err
	}
	mm := &malleable{result: res}
	mm.sev = make([]float64, L+1)
	mm.sev[0] = crash
	mm.sev[L] = 1 - crash
	if inner && sc.Reconfigure != scenario.AtCheckpoint {
		// The positional chain has its own states and rewards: the
		// chain of up phases' (addStates) would go unused.
		if mm.pos, err = positionalOf(sc, res, mu); err != nil {
			return nil, err
		}
		return mm, nil
	}
	if err := mm.addStates(sc, res, mu); err != nil {
		return nil, err
	}
	if sc.Reconfigure == scenario.AtCheckpoint {
		// The window of the functional count's stationary law
		// (Binomial(N, θ/(μ+θ)), whatever the application does), not
		// that of the decision states: a period starts with all N up.
		tol := uwt.DefaultTol
		if s != nil && s.Tol != 0 {
			tol = s.Tol
		}
		lo, hi := decision.Window(sc.N(), mu/(mu+sc.System.Theta()), tol)
		mm.rc, err = newReconf(sc, lo, hi, mu, mm.sev, inner)
		return mm, err
	}
	return mm, nil
}

// checkMalleable refuses what the malleable model does not model, naming
// the field: intermediate severities beyond three levels (or at all when
// inner is not set), no checkpoint after recovery, reconfiguration
// beyond checkReconf, and recovery costs by old count with severity-2
// failures or (without reconfiguration) crashes.
func checkMalleable(sc *scenario.Scenario, inner bool) error {
	app := sc.Application
	L := app.NumLevels()
	sev := sc.Severity()
	for s := 2; s < L; s++ {
		if sev[s-1] != 0 && !inner {
			return &scenario.Error{Field: "application.checkpoint_levels", Problem: fmt.Sprintf(
				"%d levels with the policy %s, which changes the processor count, and failures of severity %d (system.failure_severity): the malleable multi-level model needs, with four levels or more, every processor failure of the top severity (docs/model.md section 12); use policy moldable:a", L, sc.Policy, s)}
		}
	}
	if app.NoCheckpointAfterRecovery {
		return &scenario.Error{Field: "application.checkpoint_after_recovery", Problem: fmt.Sprintf(
			"false with the policy %s, which changes the processor count: without a checkpoint after each recovery the next recovery depends on the history; use policy moldable:a", sc.Policy)}
	}
	levels := app.CheckpointLevels()
	if sc.Reconfigure == scenario.AtCheckpoint {
		// Crashes restart a recovery of fixed length (reconf.go): a cost
		// by old count needs no refusal there.
		return checkReconf(sc)
	}
	if inner {
		for l, lv := range levels {
			if lv.Recovery.DependsOnOld() {
				return &scenario.Error{Field: "application.checkpoint_levels", Problem: fmt.Sprintf(
					"level %d's recovery depends on the count that wrote the checkpoint, with processor failures of severity 2 (system.failure_severity[1] = %g) and the policy %s: not modelled", l+1, sev[1], sc.Policy)}
			}
		}
	}
	if crash := sev[0]; L > 1 && crash > 0 && levels[L-1].Recovery.DependsOnOld() {
		return &scenario.Error{Field: "application.checkpoint_levels", Problem: fmt.Sprintf(
			"level %d's recovery depends on the count that wrote the checkpoint, with process crashes (system.failure_severity[0] = %g) and the policy %s: not modelled (crashes make the recovery's length random)", L, crash, sc.Policy)}
	}
	return nil
}

// window returns the window [lo, hi] of functional counts of the solved
// decision chain res on n processors.
func window(n int, res uwt.Result) (lo, hi int) {
	lo = n
	for _, w := range res.Inspect() {
		lo, hi = min(lo, w.State.N), max(hi, w.State.N)
	}
	return lo, hi
}

// checkReconf refuses reconfiguration at checkpoints where reconf.go does
// not model it: more than three levels, or failure events of several
// processors (newReconf refuses, with three levels and processor
// failures of severity 2, a level-2 recovery by old count).
func checkReconf(sc *scenario.Scenario) error {
	L := sc.Application.NumLevels()
	if L > 3 {
		return &scenario.Error{Field: "reconfigure", Problem: fmt.Sprintf(
			"at-checkpoint with %d application.checkpoint_levels under the policy %s: modelled with one to three levels only (docs/model.md section 12)", L, sc.Policy)}
	}
	if !sc.System.FailureEvents.Single() {
		return &scenario.Error{Field: "reconfigure", Problem: fmt.Sprintf(
			"at-checkpoint with application.checkpoint_levels, the policy %s and failure events of several processors (system.failure_events): not modelled (docs/model.md section 12)", sc.Policy)}
	}
	return nil
}

// decisionChain solves package uwt's chain of up phases on a pool whose
// processors fail at μ = (1 − f₁)λ, with the top level's costs, and
// returns it with μ.
func decisionChain(ctx context.Context, sc *scenario.Scenario, s *Settings, crash float64) (uwt.Result, float64, error) {
	app := sc.Application
	levels := app.CheckpointLevels()
	top := levels[len(levels)-1]
	down := *sc
	down.Application = scenario.Application{
		WorkRate: app.WorkRate, Latency: top.Latency, Overhead: top.Overhead, Recovery: top.Recovery,
		Replicas: app.Replicas,
	}
	down.System.FailureSeverity = nil
	down.CheckpointPattern = nil
	// The chain of up phases serves for its window (and, without
	// reconfiguration, its states): reconf.go builds its own.
	down.Reconfigure = scenario.Never
	down.System.MTTF = sc.System.MTTF / (1 - crash)
	if down.System.MTTF > scenario.MaxSeconds {
		return uwt.Result{}, 0, &scenario.Error{Field: "system.failure_severity", Problem: fmt.Sprintf(
			"a share of process crashes of %g leaves a mean time between processor failures of %g s, beyond the limit of %g s", crash, down.System.MTTF, scenario.MaxSeconds)}
	}
	var set uwt.Settings
	if s != nil {
		set.Tol, set.Prune, set.Workers, set.MaxTransitions = s.Tol, s.Prune, s.Workers, s.MaxTransitions
	}
	um, err := uwt.New(ctx, &down, &set)
	if err != nil {
		return uwt.Result{}, 0, err
	}
	// The chain does not depend on the interval; its rewards are this
	// package's.
	res, err := um.Solve(ctx)
	if err != nil {
		return uwt.Result{}, 0, err
	}
	if !res.Phases {
		return uwt.Result{}, 0, fmt.Errorf("multilevel: the decision chain of the policy %s is not a chain of up phases", sc.Policy)
	}
	return res, down.System.Lambda(), nil
}

// levelsAt returns the levels' costs on a processors (recovery on the
// count that wrote the checkpoint).
func levelsAt(levels []scenario.Level, a int) []Level {
	var out []Level
	for _, lv := range levels {
		out = append(out, Level{Latency: lv.Latency[a-1], Overhead: lv.Overhead[a-1], Recovery: lv.Recovery.Cost(a, a)})
	}
	return out
}

// addStates adds the decision chain's recurrent states to mm: down
// states with their sojourn, recoveries with their configuration (one
// Process per used count), sojourn and recovery survival.
func (mm *malleable) addStates(sc *scenario.Scenario, res uwt.Result, mu float64) error {
	app := sc.Application
	levels := app.CheckpointLevels()
	top := levels[len(levels)-1]
	lambda, theta, n := sc.System.Lambda(), sc.System.Theta(), sc.N()
	events := forceEvents || !sc.System.FailureEvents.Single()
	// Processors go down in events at rate per functional processor
	// (μ/E[K]; μ with single failures).
	rate := mu / sc.System.FailureEvents.MeanSize()
	conf := map[int]int{}
	for _, w := range res.Inspect() {
		st := upState{pi: w.Prob, conf: -1}
		switch w.State.Kind {
		case uwt.Down:
			k := w.State.N
			st.tau = 1 / (float64(k)*rate + float64(n-k)*theta)
		case uwt.Recovery:
			a := sc.Reschedule.At(w.State.N)
			c, ok := conf[a]
			if !ok {
				c = len(mm.procs)
				conf[a] = c
				mm.procs = append(mm.procs, &Process{Rate: float64(a) * lambda, Severity: mm.sev, CheckpointAfterRecovery: true, Levels: levelsAt(levels, a)})
				mm.work = append(mm.work, app.WorkRate[a-1])
				if err := mm.addEvents(sc, events, a, mu); err != nil {
					return err
				}
			}
			p := w.State.P
			if p == 0 {
				p = a // the cost does not depend on it
			}
			st.conf = c
			t := top.Recovery.Cost(p, a) + top.Latency[a-1]
			if events {
				if err := mm.eventState(&st, w.State.N-a, t); err != nil {
					return err
				}
				break
			}
			st.tau = 1 / (float64(a) * mu)
			st.surv = mm.procs[c].recoverySurvival(t)
		default:
			return fmt.Errorf("multilevel: the decision chain has a state %v of kind %v", w.State, w.State.Kind)
		}
		mm.states = append(mm.states, st)
	}
	return nil
}

// forceEvents makes single failures take the up phases' path of failure
// events (sizes [1]), and the positional chain's (posevents.go), so that
// tests can hold them against the scalar ones.
var forceEvents = false

// addEvents adds, with failure events, the up phase's chain on a
// processors (events.go) and the expected time to the phase's end by
// spare count, kept in the chain.
func (mm *malleable) addEvents(sc *scenario.Scenario, events bool, a int, mu float64) error {
	if !events {
		return nil
	}
	ec, err := newEventChain(sc, a, true)
	if err != nil {
		return err
	}
	if ec.kill, err = killSojourn(sc, a, mu); err != nil {
		return err
	}
	if err := ec.recoveries(mm.procs[len(mm.procs)-1]); err != nil {
		return err
	}
	mm.ev = append(mm.ev, ec)
	return nil
}

// eventState sets, with failure events, the sojourn of a recovery state
// with s spares (to the next processor-down event that strikes the
// application), the spare law at the end of its recovery of t seconds
// and its survival.
func (mm *malleable) eventState(st *upState, s int, t float64) error {
	ec := mm.ev[st.conf]
	start, err := ec.upStart(s, t)
	if err != nil {
		return err
	}
	st.tau, st.start = ec.kill[s], start
	for _, v := range start {
		st.surv += v
	}
	return nil
}

// recoverySurvival returns the probability that a recovery of t seconds
// from the top level, on the up phase's process (severity classes
// f₁ … f_L and the down share d), completes before a processor goes
// down: an attempt completes with e^{−Λt} and ends with a down with
// d(1 − e^{−Λt}); anything else (a crash) restarts it (the SCR model's
// choice at the top level), so 1/(1 + d(e^{Λt} − 1)).
func (pr *Process) recoverySurvival(t float64) float64 {
	d := pr.Severity[len(pr.Severity)-1]
	return 1 / (1 + d*math.Expm1(pr.Rate*t))
}

// upPhase returns the expected number of periods an up phase on pr
// commits (pr.Severity with the down share last, docs/model.md section
// 12): periods attempted one after another from position 0, each
// completing with probability p and otherwise ending the phase (every
// failure below the down share is handled inside the period, by the
// nested blocks), so p/(1 − p), with 1 − p the period's exit probability
// (no cancellation). It also returns the period's useful computation.
func (pr *Process) upPhase(pattern []int, interval float64) (periods, useful float64) {
	L := len(pr.Levels)
	c := composer{pr: pr, pattern: pattern, interval: interval, L: L, sev: L + 1}
	top := c.block(L, L)
	useful = pr.useful(pattern, interval)
	if top.exit[L] == 0 {
		return math.Inf(1), useful
	}
	return top.done / top.exit[L], useful
}

// useful returns a period's useful computation: each segment ending with a
// level-ℓ checkpoint commits I + L_ℓ − C_ℓ.
func (pr *Process) useful(pattern []int, interval float64) float64 {
	u := 0.0
	for i, n := range counts(pattern) {
		lv := pr.Levels[i]
		u += n * (interval + lv.Latency - lv.Overhead)
	}
	return u
}

// evaluate returns the UWT of pattern and interval on the chain: the
// renewal–reward ratio Σπw/Σπτ, the reward of a decision state on a
// processors being its recovery's survival times ω(a) times the useful
// computation of the up phase after it.
//
// With failure events the periods an up phase commits depend on the
// spare count at its start: the reward is ω(a)·U·(start·(I − D)⁻¹D·1)
// (events.go, upPeriods).
func (mm *malleable) evaluate(pattern []int, interval float64) (uwtv, avail, eff, down float64, err error) {
	per := make([]float64, len(mm.procs))
	perEv := make([]*mat.VecDense, len(mm.ev))
	for c, pr := range mm.procs {
		k, u := pr.upPhase(pattern, interval)
		per[c] = k * u
		if mm.ev != nil {
			if perEv[c], err = mm.ev[c].upPeriods(pr, pattern, interval); err != nil {
				return 0, 0, 0, 0, err
			}
			perEv[c].ScaleVec(u, perEv[c])
		}
	}
	var work, use, run, idle float64
	for _, st := range mm.states {
		if st.conf < 0 {
			idle += st.pi * st.tau
			continue
		}
		run += st.pi * st.tau
		u := st.pi * st.surv * per[st.conf]
		if st.start != nil {
			u = st.pi * mat.Dot(mat.NewVecDense(len(st.start), st.start), perEv[st.conf])
		}
		use += u
		work += u * mm.work[st.conf]
	}
	total := run + idle
	if total == 0 || run == 0 {
		return 0, 0, 0, 0, nil
	}
	return work / total, use / total, use / run, idle / run, nil
}
