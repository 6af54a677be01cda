package scenario

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/ckpt-markov/markov/internal/quote"
	"github.com/ckpt-markov/markov/reschedule"
)

// The built-in scenario, what a command runs without a scenario file:
// the QR benchmark (DefaultApplication, resolved by the caller, e.g.
// package bench) on DefaultProcessors processors of LANL system-1 with
// the greedy policy.
//
// The failure and repair times are the per-processor averages the paper
// ("Determination of Checkpointing Intervals for Malleable Applications",
// section VI-D, Table II, row "128, system-1") estimated from the LANL
// failure logs: λ = 1/(104.61 days), θ = 1/(56.03 min). They are the rates
// of the very configuration (QR, 128 processors of system-1, greedy) for
// which the paper reports an average I_model of 17.78 hours and a UWT of
// 10.46 (Tables II and III), and an MTTF of about a hundred days with a
// repair time near an hour is typical of the LANL production systems
// (system-2's 256- and 512-processor rows give 68–82 days and 2–3 hours).
const (
	DefaultApplication = "qr"
	DefaultProcessors  = 128
	// DefaultMTTF is 104.61 days and DefaultMTTR 56.03 minutes, in
	// seconds (the values ParseDuration gives for "104.61d" and "56.03m").
	DefaultMTTF = 104.61 * day
	DefaultMTTR = 56.03 * 60
)

// DefaultSystem returns the system of the built-in scenario.
func DefaultSystem() System {
	return System{Processors: DefaultProcessors, MTTF: DefaultMTTF, MTTR: DefaultMTTR}
}

// WorkKind names a parametric work-rate form of WorkForm.
type WorkKind int

const (
	// Linear is ω(a) = a: perfect speed-up.
	Linear WorkKind = iota
	// Amdahl is ω(a) = a/(1 + f·(a − 1)), serial fraction f ∈ [0, 1].
	Amdahl
	// Power is ω(a) = a^e.
	Power
)

// WorkForm is a work rate ω(a) given by a formula, normalised to ω(1) = 1
// so that work is counted in seconds of one processor: the forms of a
// scenario file (docs/scenario.md, "Parametric forms")
// {"constant": 0, "per_processor": 1}, {"amdahl": {"rate": 1, "serial":
// f}} and {"power": {"coefficient": 1, "exponent": e}}. The zero
// WorkForm is Linear.
type WorkForm struct {
	Kind WorkKind
	// Param is Amdahl's serial fraction f or Power's exponent e; Linear
	// ignores it.
	Param float64
}

// MaxWorkExponent bounds the exponent of a Power work form: ±64, far
// beyond any speed-up curve, and a^64 ≤ (2²⁴)^64 = 2¹⁵³⁶ overflows
// nothing before Validate bounds the rates by MaxWorkRate.
const MaxWorkExponent = 64

// ParseWork reads a work form as a person types it: "linear",
// "amdahl:F" (F the serial fraction in [0, 1]) or "power:E" (|E| ≤
// MaxWorkExponent). Case and spaces around the parts do not matter.
func ParseWork(s string) (WorkForm, error) {
	name, arg, hasArg := strings.Cut(strings.TrimSpace(s), ":")
	name = strings.ToLower(strings.TrimSpace(name))
	arg = strings.TrimSpace(arg)
	const want = "want linear, amdahl:F (serial fraction F in [0, 1]) or power:E (exponent E)"
	switch name {
	case "linear":
		if !hasArg {
			return WorkForm{Kind: Linear}, nil
		}
	case "amdahl", "power":
		x, err := strconv.ParseFloat(arg, 64)
		if !hasArg || err != nil {
			return WorkForm{}, fmt.Errorf("%s: %s needs a number, as in %s:0.05", quote.Value(s), name, name)
		}
		if name == "amdahl" {
			if !(x >= 0 && x <= 1) {
				return WorkForm{}, fmt.Errorf("%s: the serial fraction %v is not in [0, 1]", quote.Value(s), x)
			}
			return WorkForm{Kind: Amdahl, Param: x}, nil
		}
		if !(math.Abs(x) <= MaxWorkExponent) {
			return WorkForm{}, fmt.Errorf("%s: the exponent %v is not in [-%d, %d]", quote.Value(s), x, MaxWorkExponent, MaxWorkExponent)
		}
		return WorkForm{Kind: Power, Param: x}, nil
	}
	return WorkForm{}, fmt.Errorf("%s, %s", quote.Value(s), want)
}

// String returns the form as ParseWork reads it.
func (w WorkForm) String() string {
	switch w.Kind {
	case Linear:
		return "linear"
	case Amdahl:
		return "amdahl:" + strconv.FormatFloat(w.Param, 'g', -1, 64)
	case Power:
		return "power:" + strconv.FormatFloat(w.Param, 'g', -1, 64)
	}
	return fmt.Sprintf("WorkKind(%d)", int(w.Kind))
}

// Rates returns ω(1..n), 1 ≤ n ≤ MaxProcessors, rounded as the scenario
// file's forms are (the same expansion). It panics on an n outside that
// range or an unknown Kind: the caller bounds n first.
func (w WorkForm) Rates(n int) []float64 {
	if n < 1 || n > MaxProcessors {
		panic(fmt.Sprintf("scenario: WorkForm.Rates of %d processors, want 1 … %d", n, MaxProcessors))
	}
	var v []float64
	switch w.Kind {
	case Linear:
		v = expandLinear(0, 1, n)
	case Amdahl:
		v = expandAmdahl(1, w.Param, n)
	case Power:
		v = expandPower(1, w.Param, n)
	default:
		panic(fmt.Sprintf("scenario: unknown WorkKind %d", int(w.Kind)))
	}
	return v
}

// Overrides are the parts of a scenario that a command line or a study
// replaces in a base scenario (Resolve, Apply). A nil pointer or an
// empty string keeps the base's value, so the zero Overrides changes
// nothing.
type Overrides struct {
	// Processors is N.
	Processors *int
	// MTTF and MTTR are the per-processor mean times to failure and
	// repair, in seconds.
	MTTF, MTTR *float64
	// Application names a built-in application, resolved for N by
	// OverrideSettings.Applications.
	Application string
	// Policy is the rescheduling policy. An Optimal policy not yet solved
	// (Policy.Unsolved), whose actions come from a solver, stays so:
	// Resolve returns it in Parts.Policy, for the caller to solve on
	// Parts.System and Parts.Application (optimal.Solve); Apply, which
	// returns a Scenario, refuses it.
	Policy *Policy
	// Reconfigure says when a running application changes its count.
	Reconfigure *Reconfigure
	// Latency sets the checkpoint latency L(a) for every a, and the
	// overhead C(a) to the same value unless Overhead is given (a
	// blocking checkpoint). Overhead sets C(a) for every a; it must not
	// exceed L(a). Recovery sets R(p, a) for every p and a, kept as one
	// number (RecoveryLinear), never expanded. All in seconds, in [0,
	// MaxSeconds]; single-level applications only.
	Latency, Overhead, Recovery *float64
	// Work sets the work rate ω(1..N).
	Work *WorkForm
}

// OverrideSettings configures Overrides.Resolve and Apply. A nil
// *OverrideSettings resolves no named application, so that only a base
// with an application and no Overrides.Application can be overridden.
type OverrideSettings struct {
	// Applications resolves a named application for n processors (the
	// signature of ParseSettings.Applications, e.g. bench.Application).
	Applications func(name string, n int) (Application, error)
}

// The names of the overrides, in OverrideError.Override: the scenario
// file's field names.
const (
	OverrideProcessors  = "processors"
	OverrideMTTF        = "mttf"
	OverrideMTTR        = "mttr"
	OverrideApplication = "application"
	OverridePolicy      = "policy"
	OverrideReconfigure = "reconfigure"
	OverrideLatency     = "checkpoint_latency"
	OverrideOverhead    = "checkpoint_overhead"
	OverrideRecovery    = "recovery"
	OverrideWork        = "work_rate"
)

// OverrideError is an override that does not fit: out of range, or at odds
// with the base scenario. Override names it (one of the Override…
// constants), so that a command line can name its flag.
type OverrideError struct {
	Override string
	Problem  string
}

func (e *OverrideError) Error() string {
	return "scenario: override " + e.Override + ": " + e.Problem
}

func overrideErr(name, format string, args ...any) error {
	return &OverrideError{Override: name, Problem: fmt.Sprintf(format, args...)}
}

// Parts are the parts of a scenario before its policy is turned into a
// vector, as Overrides.Resolve returns them: the policy may be one no
// Scenario holds yet, the optimal policy not yet solved
// (Policy.Unsolved). A caller solves it on System and Application
// (optimal.Solve), puts the solved policy in Policy and calls Scenario.
type Parts struct {
	System      System
	Application Application
	Policy      Policy
	Reconfigure Reconfigure
	// CheckpointPattern is Scenario.CheckpointPattern (multi-level
	// applications), or nil.
	CheckpointPattern []int
}

// Scenario assembles and validates the scenario of the parts (New, then
// the reconfiguration rule and the checkpoint pattern). An unsolved
// policy is an *Error naming the field policy, as New gives it.
func (p *Parts) Scenario() (*Scenario, error) {
	sc, err := New(p.System, p.Application, p.Policy)
	if err != nil {
		return nil, err
	}
	sc.Reconfigure, sc.CheckpointPattern = p.Reconfigure, p.CheckpointPattern
	if err := sc.Reconfigure.Validate(); err != nil {
		return nil, err
	}
	if sc.CheckpointPattern != nil {
		if err := sc.checkLevels(); err != nil {
			return nil, err
		}
	}
	return sc, nil
}

// Apply returns the base scenario with the overrides, validated: the
// scenario of the parts Resolve returns. A policy override that is the
// optimal policy not yet solved (Policy.Unsolved) is an *OverrideError
// naming the policy: no Scenario holds it; Resolve returns it for the
// caller to solve.
func (o *Overrides) Apply(base *Scenario, s *OverrideSettings) (*Scenario, error) {
	_, sc, err := o.resolve(base, s)
	if err != nil {
		return nil, err
	}
	if sc == nil {
		return nil, overrideErr(OverridePolicy, "%s: its vector comes from its solver (optimal.Solve); resolve the overrides (Overrides.Resolve) and solve it first", o.Policy)
	}
	return sc, nil
}

// Resolve returns the parts of the base scenario with the overrides,
// validated; a nil base is the built-in scenario (DefaultSystem,
// DefaultApplication, greedy). The base is not modified; the parts may
// share its vectors.
//
// The application is Overrides.Application for N if given, else the
// built-in one for N (nil base), else the base's, restricted to the
// counts 1..N when N is smaller (Application.FirstCounts, which keeps a
// recovery form or matrix without expanding it). Then the costs and the
// work rate are replaced. The policy is the override, else the base's; a
// base vector longer than N keeps its first N entries, a base decision
// table its actions in the states X(p, n) with p, n ≤ N (cutTable). The
// base's reconfiguration and checkpoint pattern are kept unless
// overridden.
//
// The parts are validated as New validates a scenario; with an unsolved
// optimal policy (Policy.Unsolved), which has no vector yet, the system,
// the application and the checkpoint pattern are (the policy's own checks
// come with its solution, in Parts.Scenario).
//
// An error caused by an override is an *OverrideError naming it; one in
// the base alone is the *Error of New, naming the field.
func (o *Overrides) Resolve(base *Scenario, s *OverrideSettings) (Parts, error) {
	p, _, err := o.resolve(base, s)
	return p, err
}

// resolve is Resolve, with the scenario of the parts when the policy has
// a vector (nil when it is the optimal policy not yet solved).
func (o *Overrides) resolve(base *Scenario, s *OverrideSettings) (Parts, *Scenario, error) {
	p := Parts{System: DefaultSystem()}
	if base != nil {
		p = Parts{System: base.System, Application: base.Application, Policy: base.Policy,
			Reconfigure: base.Reconfigure, CheckpointPattern: base.CheckpointPattern}
	}
	if err := o.system(&p.System); err != nil {
		return Parts{}, nil, err
	}
	app, err := o.application(p.Application, base == nil, p.System.Processors, s)
	if err != nil {
		return Parts{}, nil, err
	}
	if p.Application, err = o.costs(app, p.System.Processors); err != nil {
		return Parts{}, nil, err
	}
	if p.Policy, err = o.policy(p.Policy, p.System.Processors); err != nil {
		return Parts{}, nil, err
	}
	if o.Reconfigure != nil {
		if err := o.Reconfigure.Validate(); err != nil {
			return Parts{}, nil, overrideErr(OverrideReconfigure, "%s", problemOf(err))
		}
		p.Reconfigure = *o.Reconfigure
	}
	if p.Policy.Unsolved() {
		return p, nil, o.blame(p.validate())
	}
	sc, err := New(p.System, p.Application, p.Policy)
	if err != nil {
		return Parts{}, nil, o.blame(err)
	}
	sc.Reconfigure, sc.CheckpointPattern = p.Reconfigure, p.CheckpointPattern
	return p, sc, nil
}

// validate checks the parts but the policy, as New checks them: the
// system, the application, and the failure severity and checkpoint
// pattern against the application's levels.
func (p *Parts) validate() error {
	if err := p.System.Validate(); err != nil {
		return err
	}
	if err := p.Application.Validate(p.System.Processors); err != nil {
		return err
	}
	sc := Scenario{System: p.System, Application: p.Application, CheckpointPattern: p.CheckpointPattern}
	return sc.checkLevels()
}

// system applies the overrides of the system, each checked as
// System.Validate checks it.
func (o *Overrides) system(sys *System) error {
	if p := o.Processors; p != nil {
		switch {
		case *p < 1:
			return overrideErr(OverrideProcessors, "%d, want at least 1", *p)
		case *p > MaxProcessors:
			return overrideErr(OverrideProcessors, "%d, more than the limit of %d", *p, MaxProcessors)
		}
		sys.Processors = *p
	}
	for _, t := range []struct {
		name string
		v    *float64
		dst  *float64
	}{{OverrideMTTF, o.MTTF, &sys.MTTF}, {OverrideMTTR, o.MTTR, &sys.MTTR}} {
		if t.v == nil {
			continue
		}
		if err := checkTime("system."+t.name, *t.v); err != nil {
			return overrideErr(t.name, "%s", problemOf(err))
		}
		*t.dst = *t.v
	}
	return nil
}

// application returns the application for n processors: the named one,
// the built-in one (builtin: no base), or base's restricted to 1..n.
func (o *Overrides) application(base Application, builtin bool, n int, s *OverrideSettings) (Application, error) {
	name, blame := o.Application, OverrideApplication
	if name == "" && builtin {
		// The built-in application: the processor count is at fault.
		name, blame = DefaultApplication, OverrideProcessors
	}
	if name != "" {
		if s == nil || s.Applications == nil {
			return Application{}, overrideErr(OverrideApplication, "%s: no named applications here (OverrideSettings.Applications is nil)", quote.Value(name))
		}
		app, err := s.Applications(name, n)
		if err != nil {
			if blame == OverrideProcessors {
				return Application{}, overrideErr(blame, "%d: %v", n, err)
			}
			return Application{}, overrideErr(blame, "%v", err)
		}
		return app, nil
	}
	if base.N() == n {
		return base, nil
	}
	if n > base.N() {
		return Application{}, overrideErr(OverrideProcessors, "%d processors, but the application is described for %d processor counts only; name an application or give a larger scenario", n, base.N())
	}
	app, err := base.FirstCounts(n)
	if err != nil {
		return Application{}, err
	}
	return app, nil
}

// costs applies the overrides of the costs and the work rate.
func (o *Overrides) costs(app Application, n int) (Application, error) {
	for _, c := range []struct {
		name string
		v    *float64
	}{{OverrideLatency, o.Latency}, {OverrideOverhead, o.Overhead}, {OverrideRecovery, o.Recovery}} {
		if c.v == nil {
			continue
		}
		if x := *c.v; !(x >= 0 && x <= MaxSeconds) {
			return app, overrideErr(c.name, "%v s, want a duration in [0, %v] s", x, MaxSeconds)
		}
		if len(app.Levels) > 0 {
			return app, overrideErr(c.name, "the application has %d checkpoint levels (application.checkpoint_levels); give their costs in the scenario file", len(app.Levels))
		}
	}
	if o.Latency != nil {
		app.Latency = filled(n, *o.Latency)
		app.Overhead = app.Latency // C = L, as a file without an overhead
	}
	if o.Overhead != nil {
		if i := slices.IndexFunc(app.Latency, func(l float64) bool { return *o.Overhead > l }); i >= 0 {
			return app, overrideErr(OverrideOverhead, "%v s exceeds the checkpoint latency L(%d) = %v s; override the latency too", *o.Overhead, i+1, app.Latency[i])
		}
		app.Overhead = filled(n, *o.Overhead)
	}
	if o.Recovery != nil {
		app.Recovery = RecoveryLinear(*o.Recovery, 0, 0, n)
	}
	if o.Work != nil {
		if k := o.Work.Kind; k != Linear && k != Amdahl && k != Power {
			return app, overrideErr(OverrideWork, "unknown form %d", int(k))
		}
		app.WorkRate = o.Work.Rates(n)
	}
	return app, nil
}

// filled returns n copies of x.
func filled(n int, x float64) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = x
	}
	return v
}

// policy returns the policy for n processors: the override (an optimal
// one possibly unsolved), or base's.
func (o *Overrides) policy(base Policy, n int) (Policy, error) {
	if o.Policy == nil {
		if base.Kind == Explicit && len(base.Explicit) != n {
			if len(base.Explicit) < n {
				return base, overrideErr(OverrideProcessors, "%d, but the policy vector has %d entries; override the policy", n, len(base.Explicit))
			}
			base.Explicit = slices.Clone(base.Explicit[:n])
		}
		if base.hasTable() {
			return cutTable(base, n)
		}
		return base, nil
	}
	p := *o.Policy
	if p.Kind == AvailabilityBased && p.Explicit == nil {
		return p, overrideErr(OverridePolicy, "%s needs a failure history; evaluate it on a trace", p)
	}
	return p, nil
}

// cutTable returns the decision table policy p restricted to the states
// X(p', n') with p', n' ≤ n, as a vector keeps its first n entries: the
// rows of checkpoint counts above n and the ranges above n are dropped,
// the others cut at n. A table that does not fit n even so (its default
// row runs only above n) is an error naming the processor count.
func cutTable(p Policy, n int) (Policy, error) {
	cut := make([]reschedule.Entry, 0, len(p.Table))
	for _, e := range p.Table {
		if e.P > n || e.Lo > n {
			continue
		}
		e.Hi = min(e.Hi, n)
		cut = append(cut, e)
	}
	p.Table = cut
	if _, err := p.table(n); err != nil {
		return p, overrideErr(OverrideProcessors, "%d, but the policy's decision table cut at %d processors is not one: %v; override the policy", n, n, err)
	}
	return p, nil
}

// blame turns an error of New into an *OverrideError when it is about a
// field an override set.
func (o *Overrides) blame(err error) error {
	var se *Error
	if !errors.As(err, &se) {
		return err
	}
	for _, b := range []struct {
		prefix, name string
		set          bool
	}{
		{"system.processors", OverrideProcessors, o.Processors != nil},
		{"policy", OverridePolicy, o.Policy != nil},
		{"application.work_rate", OverrideWork, o.Work != nil},
		{"application.checkpoint_latency", OverrideLatency, o.Latency != nil},
		{"application.checkpoint_overhead", OverrideOverhead, o.Overhead != nil},
		{"application.recovery", OverrideRecovery, o.Recovery != nil},
	} {
		if b.set && strings.HasPrefix(se.Field, b.prefix) {
			if se.Field == b.prefix {
				return overrideErr(b.name, "%s", se.Problem)
			}
			return overrideErr(b.name, "%s: %s", se.Field, se.Problem)
		}
	}
	return err
}

// problemOf returns the problem of an *Error, or the whole message.
func problemOf(err error) string {
	var se *Error
	if errors.As(err, &se) {
		return se.Problem
	}
	return err.Error()
}
