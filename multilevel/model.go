package multilevel

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/ckpt-markov/markov/scenario"
)

// Model is the multi-level model of a scenario: on a fixed processor
// count a (the moldable policy r(n) = a for n ≥ a, 0 below; N = 1
// greedy included), the running process of the package documentation
// with a down-time factor from the processor counts; with a policy that
// changes the count (greedy, pb, ab, a vector), the chain of up phases
// of docs/model.md section 12, "Malleable policies". It is safe for
// concurrent use.
type Model struct {
	sc      *scenario.Scenario
	a       int
	work    float64 // ω(a)
	proc    Process
	pattern []int       // the scenario's checkpoint_pattern, or nil
	down    float64     // expected down seconds per running second
	mall    *malleable  // the chain of up phases of a malleable policy, or nil
	ev      *eventChain // the spare-count matrices of failure events on a fixed count, or nil
}

// New returns the model of sc with the default Settings
// (NewWith(context.Background(), sc, nil)).
func New(sc *scenario.Scenario) (*Model, error) {
	return NewWith(context.Background(), sc, nil)
}

// NewWith returns the model of sc. It returns an error if sc does not
// validate, or if it asks for what the package does not model yet:
// with a policy that changes the processor count, a processor failure
// below the top severity with four levels or more (or with three and a
// recovery cost by old count), no checkpoint after recovery,
// reconfiguration at checkpoints with four levels or more, with failure
// events of several processors (system.failure_events) or with three
// levels, f₂ > 0 and a level-2 recovery cost by old count, or (without
// reconfiguration) a top-level recovery cost that depends on the old
// count together with process crashes (each error names its field). A
// malleable policy builds and solves its chain here (package uwt, with
// s; ctx cancels it).
func NewWith(ctx context.Context, sc *scenario.Scenario, s *Settings) (*Model, error) {
	if sc == nil {
		return nil, errors.New("multilevel: nil scenario")
	}
	if err := sc.Validate(); err != nil {
		return nil, err
	}
	n := sc.N()
	a := sc.Reschedule.At(n)
	if a == 0 {
		return nil, &scenario.Error{Field: "policy", Problem: fmt.Sprintf("the policy %s runs on no processor with all %d functional", sc.Policy, n)}
	}
	lambda := sc.System.Lambda()
	sev := sc.Severity()
	// Processors go down at μ each: every failure with one level (the
	// single-level model), those of severity ≥ 2 with several.
	mu := lambda
	if len(sev) > 1 {
		mu = lambda * (1 - sev[0])
	}
	fixed := true
	for k := 1; k <= n; k++ {
		if r := sc.Reschedule.At(k); r != 0 && r != a || (r == a) != (k >= a) {
			fixed = false
			break
		}
	}
	app := sc.Application
	m := &Model{sc: sc, a: a, work: app.WorkRate[a-1], pattern: sc.CheckpointPattern}
	m.proc = Process{
		Rate:                    float64(a) * lambda,
		Severity:                sev,
		CheckpointAfterRecovery: !app.NoCheckpointAfterRecovery,
	}
	for _, lv := range app.CheckpointLevels() {
		m.proc.Levels = append(m.proc.Levels, Level{Latency: lv.Latency[a-1], Overhead: lv.Overhead[a-1], Recovery: lv.Recovery.Cost(a, a)})
	}
	// Without processors going down (every failure a process crash) the
	// count stays r(N): a fixed count whatever the policy.
	if !sc.System.FailureEvents.Single() && (fixed || mu == 0) {
		ev, err := newEventChain(sc, a, false)
		if err != nil {
			return nil, err
		}
		if err := ev.recoveries(&m.proc); err != nil {
			return nil, err
		}
		m.ev = ev
		return m, nil
	}
	if !fixed && mu > 0 {
		mall, err := newMalleable(ctx, sc, s)
		if err != nil {
			return nil, err
		}
		m.mall = mall
		return m, nil
	}
	m.down = downPerRunning(n, a, mu, sc.System.Theta())
	return m, nil
}

// Processors returns the processor count a the application runs on:
// r(N), the count on every processor, with a malleable policy.
func (m *Model) Processors() int { return m.a }

// Malleable reports whether the policy changes the processor count
// (docs/model.md section 12, "Malleable policies").
func (m *Model) Malleable() bool { return m.mall != nil }

// Levels returns the number of checkpoint levels.
func (m *Model) Levels() int { return len(m.proc.Levels) }

// Process returns the running process on Processors() (a copy).
func (m *Model) Process() Process { return m.proc }

// downPerRunning returns the expected down time per second of running
// (docs/model.md section 12): with m = N − a spares, the spare count j
// while the application runs is a birth–death chain (j → j+1 at
// (m−j)θ, j → j−1 at (j+a)μ: a spare fails, or a used processor fails
// and a spare replaces it), and from j = 0 a used processor's failure,
// at aμ, starts a down period: a−1 functional processors, each failing
// at μ, each failed one repaired at θ, until a are functional. So the
// down time per running second is aμ·π₀·E[D], with π the stationary law
// of the spare count and E[D] the mean first passage from a−1 to a.
func downPerRunning(n, a int, mu, theta float64) float64 {
	if mu == 0 {
		return 0
	}
	spares := n - a
	// π₀ = 1/Σ_j exp(ℓ_j), ℓ_j = Σ_{i<j} log((m−i)θ / ((i+1+a)μ)), summed
	// from the largest term down so that nothing overflows.
	logs := make([]float64, spares+1)
	top := 0.0
	for j := 1; j <= spares; j++ {
		logs[j] = logs[j-1] + math.Log(float64(spares-j+1)*theta/(float64(j+a)*mu))
		top = math.Max(top, logs[j])
	}
	sum := 0.0
	for _, l := range logs {
		sum += math.Exp(l - top)
	}
	pi0 := math.Exp(-top) / sum
	if pi0 == 0 {
		return 0
	}
	// E[D]: T_k, the mean time from k to k+1 functional processors,
	// T_0 = 1/b_0, T_k = 1/b_k + (d_k/b_k)·T_{k−1}, b_k = (N−k)θ,
	// d_k = kμ; E[D] = T_{a−1}.
	t := 0.0
	for k := 0; k < a; k++ {
		b := float64(n-k) * theta
		t = 1/b + float64(k)*mu/b*t
	}
	return float64(a) * mu * pi0 * t
}

// Result is the model's answer for one pattern and interval.
type Result struct {
	// Interval is I, the seconds of computation between consecutive
	// checkpoints (of any level).
	Interval float64
	// Pattern is [V₁, …, V_{L−1}].
	Pattern []int
	// LevelIntervals[ℓ-1] is the computation, in seconds, between
	// consecutive checkpoints of level ℓ or higher: I·∏_{k<ℓ}(V_k + 1).
	LevelIntervals []float64
	// UWT is the long-run useful work per second; Availability the
	// long-run fraction of time spent on useful computation (UWT =
	// ω(a)·Availability).
	UWT, Availability float64
	// Efficiency is the useful fraction of the running time (down periods
	// excluded): SCR's efficiency.
	Efficiency float64
	// Down is the expected down time per running second.
	Down float64
	// Period is one period of the pattern on Processors(); with failure
	// events its Time is the expected running time of a period from the
	// stationary spare count at its start.
	Period Period
	// Dropped is the stationary mass the malleable chain's window drops
	// (uwt.Result.Dropped); 0 on a fixed count.
	Dropped float64
}

// Evaluate returns the UWT of pattern with interval seconds of
// computation per segment. A nil pattern is the scenario's
// checkpoint_pattern, or, without one, V = 0 (one level only, the highest).
func (m *Model) Evaluate(pattern []int, interval float64) (Result, error) {
	if pattern == nil {
		pattern = m.pattern
	}
	if pattern == nil {
		pattern = make([]int, len(m.proc.Levels)-1)
	}
	if !(interval > 0) || math.IsInf(interval, 0) {
		return Result{}, fmt.Errorf("multilevel: interval %v, want a positive finite number of seconds", interval)
	}
	p, err := m.proc.Period(pattern, interval)
	if err != nil {
		return Result{}, err
	}
	r := Result{Interval: interval, Pattern: append([]int(nil), pattern...), Period: p, Down: m.down}
	switch {
	case m.mall != nil && m.mall.chain() != nil:
		var lost float64
		r.UWT, r.Availability, r.Efficiency, r.Down, lost, err = m.mall.chain().evaluate(pattern, interval)
		if err != nil {
			return Result{}, err
		}
		r.Dropped = math.Max(m.mall.result.Dropped, lost)
	case m.ev != nil:
		var run float64
		r.Availability, r.Efficiency, r.Down, run, err = m.ev.evaluate(&m.proc, pattern, interval, p.Useful)
		if err != nil {
			return Result{}, err
		}
		r.Period.Time = run
		r.UWT = m.work * r.Availability
	case m.mall != nil:
		r.UWT, r.Availability, r.Efficiency, r.Down, err = m.mall.evaluate(pattern, interval)
		if err != nil {
			return Result{}, err
		}
		r.Dropped = m.mall.result.Dropped
	default:
		r.Efficiency = p.Efficiency()
		r.Availability = r.Efficiency / (1 + m.down)
		r.UWT = m.work * r.Availability
	}
	r.LevelIntervals = make([]float64, len(m.proc.Levels))
	span := interval
	for l := range r.LevelIntervals {
		r.LevelIntervals[l] = span
		if l < len(pattern) {
			span *= float64(pattern[l] + 1)
		}
	}
	return r, nil
}

// check returns ctx's error, if any, as the package's.
func check(ctx context.Context) error {
	if ctx == nil {
		return nil
	}
	return ctx.Err()
}
