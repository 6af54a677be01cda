package scenario

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/ckpt-markov/markov/reschedule"
)

// System is a pool of interchangeable processors with exponential failure
// and repair times.
type System struct {
	// Processors is N, the size of the pool.
	Processors int
	// MTTF is the mean time to failure of one processor, in seconds.
	MTTF float64
	// MTTR is the mean time to repair one processor, in seconds.
	MTTR float64
	// FailureEvents is the law of the number of processors a failure event
	// takes down; nil means single, independent failures (every processor
	// fails on its own at rate 1/MTTF), today's model.
	FailureEvents *FailureEvents
	// FailureSeverity[s-1] is the share of failures of severity s, the
	// lowest checkpoint level that survives them (docs/model.md section
	// 12): one share per level of Application.Levels, summing to 1. Nil
	// for a single level.
	FailureSeverity *FailureSeverity
}

// Lambda returns the failure rate λ = 1/MTTF of one processor.
func (s System) Lambda() float64 { return 1 / s.MTTF }

// Theta returns the repair rate θ = 1/MTTR of one processor.
func (s System) Theta() float64 { return 1 / s.MTTR }

// Limits of the inputs, so that every size is bounded before anything is
// allocated and no product or ratio of inputs the models form overflows.
const (
	// MaxProcessors bounds N: 2²⁴ = 16,777,216 processors, four times the
	// 4·10⁶ of the scale benchmarks (bench.BenchmarkScaleCLIJSON) and far
	// beyond the largest system of the LANL release (a few thousand),
	// while a vector of N float64 stays at 128 MiB.
	MaxProcessors = 1 << 24
	// MinSeconds is the smallest MTTF or MTTR, one microsecond: the rates
	// N/MTTF and N/MTTR then stay below 10¹², far from overflow, and no
	// failure or repair process of real hardware is faster.
	MinSeconds = 1e-6
	// MaxSeconds bounds every time of a scenario (MTTF, MTTR, L, C, R):
	// 10²⁰ s, about 3·10¹² years, far beyond any
	// horizon (tests take MTTF = 10¹⁸ s for the limit λ → 0).
	MaxSeconds = 1e20
	// MaxWorkRate bounds ω(a), so that the work of a segment, ω(a) times
	// at most a few MaxSeconds, and its sums over states stay finite.
	MaxWorkRate = 1e200
)

// Validate checks 1 ≤ N ≤ MaxProcessors, MTTF and MTTR in [MinSeconds,
// MaxSeconds], and the failure event sizes (see FailureEvents.Validate).
func (s System) Validate() error {
	if s.Processors < 1 {
		return fieldErr("system.processors", "%d, want a positive integer", s.Processors)
	}
	if s.Processors > MaxProcessors {
		return fieldErr("system.processors", "%d, more than the limit of %d", s.Processors, MaxProcessors)
	}
	if err := checkTime("system.mttf", s.MTTF); err != nil {
		return err
	}
	if err := checkTime("system.mttr", s.MTTR); err != nil {
		return err
	}
	return s.FailureEvents.Validate(s.Processors)
}

func checkTime(field string, x float64) error {
	switch {
	case !positive(x):
		return fieldErr(field, "%v, want a positive number of seconds", x)
	case x < MinSeconds:
		return fieldErr(field, "%v s, below the limit of %v s (the rate 1/%s would be too large to model)", x, MinSeconds, field[strings.LastIndexByte(field, '.')+1:])
	case x > MaxSeconds:
		return fieldErr(field, "%v s, above the limit of %v s", x, MaxSeconds)
	}
	return nil
}

// Application describes a malleable application by processor count.
// Slices are indexed by a-1 for a = 1..N.
type Application struct {
	// WorkRate is ω(a): work per second on a processors.
	WorkRate []float64
	// Latency is L(a): wall seconds one checkpoint takes.
	Latency []float64
	// Overhead is C(a) ≤ L(a): the part of the latency that is not computing.
	Overhead []float64
	// Recovery is R(p, a): seconds to restore a checkpoint written on p
	// processors onto a processors.
	Recovery Recovery
	// Levels are the checkpoint levels of a multi-level application
	// (application.checkpoint_levels, L ≥ 2, cheapest first); Latency,
	// Overhead and Recovery are then nil and zero. A single level given
	// as a list of one is stored in Latency, Overhead and Recovery.
	Levels []Level
	// NoCheckpointAfterRecovery drops the checkpoint written right after
	// every recovery (application.checkpoint_after_recovery: false; the
	// SCR model's timeline). The zero value keeps it, today's model.
	NoCheckpointAfterRecovery bool
	// Replicas is the replication degree r (JSON application.replicas):
	// every logical process runs as r replicas on r processors, so a
	// logical processes occupy a·r of the pool, and a is the count the
	// vectors above are indexed by. 0 means 1, today's model exactly; at
	// most MaxReplicas and at most N.
	Replicas int
}

// MaxReplicas bounds application.replicas: Volpex runs 2 or 3 replicas
// (seeds 000 and 002), and the replication Markov model's state, the
// number of processes with k = 1 … r live replicas, grows like
// C(a + r, r), which at r = 16 is already beyond any table for a ≥ 64.
const MaxReplicas = 16

// ReplicaCount returns the replication degree r ≥ 1 (Replicas, 0 meaning 1).
func (a Application) ReplicaCount() int { return max(1, a.Replicas) }

// validateReplicas checks 0 ≤ Replicas ≤ min(MaxReplicas, n).
func (a Application) validateReplicas(n int) error {
	switch r := a.Replicas; {
	case r < 0:
		return fieldErr("application.replicas", "%d, want an integer ≥ 1", r)
	case r > MaxReplicas:
		return fieldErr("application.replicas", "%d, more than the limit of %d", r, MaxReplicas)
	case r > n:
		return fieldErr("application.replicas", "%d, more than the %d processors of the system", r, n)
	}
	return nil
}

// N returns the number of processor counts the application is described for.
func (a Application) N() int { return len(a.WorkRate) }

// Validate checks that every vector has n entries, all finite and
// non-negative, with C(a) ≤ L(a) and some positive work rate.
func (a Application) Validate(n int) error {
	if err := a.validateReplicas(n); err != nil {
		return err
	}
	if len(a.Levels) > 0 {
		return a.validateLevels(n)
	}
	if a.inRange(n) {
		return a.Recovery.validate(n)
	}
	// Some check fails: find the first in the documented order, with the
	// entry it names.
	if err := checkVector("application.work_rate", a.WorkRate, n); err != nil {
		return err
	}
	if i := slices.IndexFunc(a.WorkRate, func(w float64) bool { return w > MaxWorkRate }); i >= 0 {
		return fieldErr(fmt.Sprintf("application.work_rate[%d]", i), "%v, above the limit of %v (the work of a segment would overflow)", a.WorkRate[i], MaxWorkRate)
	}
	if !slices.ContainsFunc(a.WorkRate, func(w float64) bool { return w > 0 }) {
		return fieldErr("application.work_rate", "zero on every processor count")
	}
	if err := checkVector("application.checkpoint_latency", a.Latency, n); err != nil {
		return err
	}
	if err := checkVector("application.checkpoint_overhead", a.Overhead, n); err != nil {
		return err
	}
	for i := range n {
		if a.Latency[i] > MaxSeconds {
			return fieldErr(fmt.Sprintf("application.checkpoint_latency[%d]", i), "%v s, above the limit of %v s", a.Latency[i], MaxSeconds)
		}
		if a.Overhead[i] > a.Latency[i] {
			return fieldErr(fmt.Sprintf("application.checkpoint_overhead[%d]", i),
				"C(%d) = %v exceeds the checkpoint latency L(%d) = %v", i+1, a.Overhead[i], i+1, a.Latency[i])
		}
	}
	return a.Recovery.validate(n)
}

// inRange reports whether the vectors pass every check of Validate but
// the recovery's, in one pass over each: n entries, 0 ≤ ω(a) ≤
// MaxWorkRate with some ω(a) > 0, and 0 ≤ C(a) ≤ L(a) ≤ MaxSeconds (a
// comparison is false for NaN, and ±Inf is outside both ranges).
func (a Application) inRange(n int) bool {
	if len(a.WorkRate) != n || len(a.Latency) != n || len(a.Overhead) != n {
		return false
	}
	positive := false
	for _, w := range a.WorkRate {
		if !(w >= 0 && w <= MaxWorkRate) {
			return false
		}
		positive = positive || w > 0
	}
	if !positive {
		return false
	}
	lat, over := a.Latency, a.Overhead[:len(a.Latency)]
	if n > 0 && &lat[0] == &over[0] { // C = L, the default
		for _, l := range lat {
			if !(l >= 0 && l <= MaxSeconds) {
				return false
			}
		}
		return true
	}
	for i, l := range lat {
		if !(over[i] >= 0 && over[i] <= l && l <= MaxSeconds) {
			return false
		}
	}
	return true
}

// Recovery is the recovery cost R(p, a). The zero value is a zero cost.
type Recovery struct {
	// matrix[p-1][a-1] when the cost depends on the old count p; nil otherwise.
	matrix [][]float64
	// byNew[a-1] when the cost depends on the new count only.
	byNew []float64
	// rows is the row count of a matrix collapsed into byNew (0 otherwise),
	// kept so that validation still sees the matrix's shape.
	rows int
	// linear holds R(p, a) = c + kp·p + ka·a (RecoveryLinear), kp = 0
	// included; nil otherwise.
	linear *linearRecovery
}

// RecoveryByNew returns a recovery cost R(p, a) = r[a-1] that depends on the
// new processor count only.
func RecoveryByNew(r []float64) Recovery { return Recovery{byNew: slices.Clone(r)} }

// RecoveryConstant returns R(p, a) = r for every p and a on n processors.
func RecoveryConstant(r float64, n int) Recovery {
	v := make([]float64, n)
	for i := range v {
		v[i] = r
	}
	return Recovery{byNew: v}
}

// RecoveryMatrix returns R(p, a) = m[p-1][a-1]. A matrix whose rows are all
// equal is stored as a vector by new count, so that DependsOnOld reports
// false and the model builds the smaller state space.
func RecoveryMatrix(m [][]float64) Recovery {
	c := make([][]float64, len(m))
	for i := range m {
		c[i] = slices.Clone(m[i])
	}
	return recoveryMatrixOwned(c)
}

// recoveryMatrixOwned is RecoveryMatrix on rows the caller gives up (no
// copy).
func recoveryMatrixOwned(c [][]float64) Recovery {
	if len(c) > 0 && slices.IndexFunc(c, func(row []float64) bool { return !slices.Equal(row, c[0]) }) < 0 {
		return Recovery{byNew: c[0], rows: len(c)}
	}
	return Recovery{matrix: c}
}

// Cost returns R(p, a).
func (r Recovery) Cost(p, a int) float64 {
	if r.linear != nil {
		return r.linear.cost(p, a)
	}
	if r.matrix != nil {
		return r.matrix[p-1][a-1]
	}
	if r.byNew == nil {
		return 0
	}
	return r.byNew[a-1]
}

// DependsOnOld reports whether R(p, a) depends on the old count p, in which
// case the model must keep p in its recovery and down states.
func (r Recovery) DependsOnOld() bool {
	return r.matrix != nil || r.linear != nil && r.linear.perOld != 0
}

// Matrix returns R as an N×N matrix (a fresh copy) for n processors.
func (r Recovery) Matrix(n int) [][]float64 {
	m := make([][]float64, n)
	for p := 1; p <= n; p++ {
		m[p-1] = make([]float64, n)
		for a := 1; a <= n; a++ {
			m[p-1][a-1] = r.Cost(p, a)
		}
	}
	return m
}

func (r Recovery) validate(n int) error {
	const field = "application.recovery"
	if r.linear != nil {
		return r.linear.validate(n)
	}
	if r.matrix == nil {
		if r.rows != 0 && r.rows != n {
			return fieldErr(field, "matrix has %d rows, want %d (one per old processor count)", r.rows, n)
		}
		if r.byNew == nil {
			return nil
		}
		if len(r.byNew) == n && inSeconds(r.byNew) {
			return nil
		}
		if err := checkVector(field, r.byNew, n); err != nil {
			return err
		}
		return checkMaxSeconds(field, r.byNew)
	}
	if len(r.matrix) != n {
		return fieldErr(field, "matrix has %d rows, want %d (one per old processor count)", len(r.matrix), n)
	}
	for p, row := range r.matrix {
		if len(row) == n && inSeconds(row) {
			continue
		}
		if err := checkVector(fmt.Sprintf("%s[%d]", field, p), row, n); err != nil {
			return err
		}
		if err := checkMaxSeconds(fmt.Sprintf("%s[%d]", field, p), row); err != nil {
			return err
		}
	}
	return nil
}

// inSeconds reports whether every entry of v is in [0, MaxSeconds] (NaN
// is not).
func inSeconds(v []float64) bool {
	for _, x := range v {
		if !(x >= 0 && x <= MaxSeconds) {
			return false
		}
	}
	return true
}

func checkMaxSeconds(field string, v []float64) error {
	for i, x := range v {
		if x > MaxSeconds {
			return fieldErr(fmt.Sprintf("%s[%d]", field, i), "%v s, above the limit of %v s", v[i], MaxSeconds)
		}
	}
	return nil
}

// Scenario is one system, one application and one rescheduling policy.
type Scenario struct {
	System      System
	Application Application
	// Policy describes how the rescheduling vector was chosen.
	Policy Policy
	// Reschedule is the rescheduling vector r(1..N) the policy gives:
	// Policy.Vector of the scenario's N and work rates, or, for a decision
	// table whose actions depend on the checkpoint count p, the table's
	// default row. Validate rejects a scenario whose fields disagree; New
	// sets them all.
	Reschedule reschedule.Vector
	// Table is the policy's decision table when its actions depend on the
	// checkpoint count p (Policy.Rule), nil otherwise. The models and the
	// simulators replay Rule, which is Table when it is set; a package
	// that replays vectors only refuses a scenario with a Table.
	Table *reschedule.Table
	// Reconfigure says whether the application changes its processor
	// count at checkpoints; the zero value Never is the paper's model.
	Reconfigure Reconfigure
	// CheckpointPattern, when not nil, fixes the multi-level pattern
	// [V₁, …, V_{L−1}] (checkpoint_pattern; docs/model.md section 12).
	CheckpointPattern []int
}

// N returns the number of processors.
func (s *Scenario) N() int { return s.System.Processors }

// Rule returns the policy as the models replay it: the decision table
// when the scenario has one, else the rescheduling vector.
func (s *Scenario) Rule() reschedule.Rule {
	if s.Table != nil {
		return s.Table
	}
	return s.Reschedule
}

// Validate checks the whole scenario; the error names the field at fault.
func (s *Scenario) Validate() error {
	if err := s.System.Validate(); err != nil {
		return err
	}
	n := s.System.Processors
	if err := s.Application.Validate(n); err != nil {
		return err
	}
	if err := s.checkReschedule(); err != nil {
		return err
	}
	want, tab, err := s.Policy.defaultVector(PolicyInputs{N: n, WorkRate: s.Application.WorkRate})
	if err != nil {
		return err
	}
	if err := s.checkLevels(); err != nil {
		return err
	}
	if (tab == nil) != (s.Table == nil) || tab != nil && !tab.Equal(s.Table) {
		return fieldErr("policy", "the scenario's decision table disagrees with the policy %s", s.Policy)
	}
	if err := s.checkTable(); err != nil {
		return err
	}
	if !slices.Equal(want, s.Reschedule) {
		return fieldErr("policy", "the rescheduling vector disagrees with the policy %s (r(%d) = %d, the policy gives %d)",
			s.Policy, firstDiff(want, s.Reschedule)+1, s.Reschedule[firstDiff(want, s.Reschedule)], want[firstDiff(want, s.Reschedule)])
	}
	return nil
}

// checkReschedule is the part of Validate after the system and the
// application: the rescheduling vector's length and entries, the
// reconfiguration, and work rates where the vector runs. It does not
// compare the vector with the policy's.
func (s *Scenario) checkReschedule() error {
	n := s.System.Processors
	// One pass for the common case, every check passing; otherwise the
	// checks below, in order, name the first failure.
	if v, w := s.Reschedule, s.Application.WorkRate; len(v) == n && len(w) == n {
		ok, usable := true, false
		for i, r := range v {
			if r < 0 || r > i+1 || r > 0 && w[r-1] == 0 {
				ok = false
				break
			}
			usable = usable || r > 0
		}
		if ok && usable {
			return s.Reconfigure.Validate()
		}
	}
	if len(s.Reschedule) != n {
		return fieldErr("policy", "rescheduling vector has %d entries, want %d", len(s.Reschedule), n)
	}
	if err := s.Reschedule.Validate(); err != nil {
		return fieldErr("policy", "%v", err)
	}
	if err := s.Reconfigure.Validate(); err != nil {
		return err
	}
	for i, r := range s.Reschedule {
		if r > 0 && s.Application.WorkRate[r-1] == 0 {
			return fieldErr("policy", "r(%d) = %d but the work rate ω(%d) is zero", i+1, r, r)
		}
	}
	return nil
}

// checkTable checks that the decision table, if any, runs only on counts
// with a positive work rate and that the multi-level model, which replays
// vectors, is not asked to replay it.
func (s *Scenario) checkTable() error {
	if s.Table == nil {
		return nil
	}
	if len(s.Application.Levels) > 0 {
		return fieldErr("policy", "a decision table that depends on the checkpoint count p is not a vector; checkpoint_levels need a vector")
	}
	// The counts with a zero work rate, increasing: an entry a = n runs
	// on the first of them at or above its lo, if that is at most its hi.
	var zero []int
	for a, w := range s.Application.WorkRate {
		if w == 0 {
			zero = append(zero, a+1)
		}
	}
	for i, e := range s.Table.Entries() {
		if e.A > 0 && s.Application.WorkRate[e.A-1] == 0 {
			return fieldErr(fmt.Sprintf("policy.table[%d]", i), "a = %d but the work rate ω(%d) is zero", e.A, e.A)
		}
		if e.A == reschedule.AllUp {
			if k, _ := slices.BinarySearch(zero, e.Lo); k < len(zero) && zero[k] <= e.Hi {
				return fieldErr(fmt.Sprintf("policy.table[%d]", i), "a = n runs on %d processors but the work rate ω(%d) is zero", zero[k], zero[k])
			}
		}
	}
	return nil
}

// firstDiff returns the first index at which two vectors of equal length
// differ.
func firstDiff(a, b reschedule.Vector) int {
	for i := range a {
		if a[i] != b[i] {
			return i
		}
	}
	return len(a)
}

// New assembles and validates a scenario, resolving the policy into its
// rescheduling vector with the application's work rates. An
// availability-based or optimal policy must be resolved first (see
// Policy.Vector and Policy.Resolved).
func New(sys System, app Application, pol Policy) (*Scenario, error) {
	return newScenario(sys, app, pol, false)
}

// newScenario is New; appChecked says that app.Validate(sys.Processors)
// has already passed (Parse validates the application as it reads it), so
// that each vector is validated once. The checks and their order are
// New's: the system, the policy's vector, the application, the rest of
// Validate. The vector is the policy's by construction, so Validate's
// comparison of the two is not repeated.
func newScenario(sys System, app Application, pol Policy, appChecked bool) (*Scenario, error) {
	if err := sys.Validate(); err != nil {
		return nil, err
	}
	n := sys.Processors
	v, tab, err := pol.defaultVector(PolicyInputs{N: n, WorkRate: app.WorkRate})
	if err != nil {
		return nil, err
	}
	if !appChecked {
		if err := app.Validate(n); err != nil {
			return nil, err
		}
	}
	s := &Scenario{System: sys, Application: app, Policy: pol, Reschedule: v, Table: tab}
	if err := s.checkLevels(); err != nil {
		return nil, err
	}
	if err := s.checkTable(); err != nil {
		return nil, err
	}
	if err := s.checkReschedule(); err != nil {
		return nil, err
	}
	return s, nil
}

// Error is a validation or parse error tied to one field of a scenario.
type Error struct {
	// Field is the JSON path of the field, such as "application.recovery[3]".
	Field string
	// Problem says what is wrong with it.
	Problem string
}

func (e *Error) Error() string { return "scenario: " + e.Field + ": " + e.Problem }

func fieldErr(field, format string, args ...any) error {
	return &Error{Field: field, Problem: fmt.Sprintf(format, args...)}
}

func positive(x float64) bool { return x > 0 && !math.IsInf(x, 0) }

func checkVector(field string, v []float64, n int) error {
	if len(v) != n {
		return fieldErr(field, "has %d entries, want %d (one per processor count)", len(v), n)
	}
	for i, x := range v {
		if !(x >= 0 && x <= math.MaxFloat64) { // NaN, ±Inf or negative
			return fieldErr(fmt.Sprintf("%s[%d]", field, i), "%v, want a finite number ≥ 0", x)
		}
	}
	return nil
}

// FirstCounts returns the application restricted to the processor counts
// 1..n, n ≤ a.N(): the first n entries of every vector and the leading
// n×n block of a recovery matrix. It copies only what it keeps, so that
// restricting an application of many counts to a few costs O(n²) at most,
// never O(N²).
func (a Application) FirstCounts(n int) (Application, error) {
	if n < 1 || n > a.N() {
		return Application{}, fieldErr("system.processors", "%d, but the application is described for processor counts 1..%d", n, a.N())
	}
	if len(a.Levels) > 0 {
		out := Application{WorkRate: slices.Clone(a.WorkRate[:n]), NoCheckpointAfterRecovery: a.NoCheckpointAfterRecovery, Replicas: a.Replicas}
		for _, lv := range a.Levels {
			one, err := Application{WorkRate: a.WorkRate, Latency: lv.Latency, Overhead: lv.Overhead, Recovery: lv.Recovery}.FirstCounts(n)
			if err != nil {
				return Application{}, err
			}
			out.Levels = append(out.Levels, Level{Latency: one.Latency, Overhead: one.Overhead, Recovery: one.Recovery})
		}
		return out, nil
	}
	if len(a.Latency) < n || len(a.Overhead) < n {
		return Application{}, a.Validate(a.N())
	}
	out := Application{
		WorkRate:                  slices.Clone(a.WorkRate[:n]),
		Latency:                   slices.Clone(a.Latency[:n]),
		Overhead:                  slices.Clone(a.Overhead[:n]),
		NoCheckpointAfterRecovery: a.NoCheckpointAfterRecovery,
		Replicas:                  a.Replicas,
	}
	switch r := a.Recovery; {
	case r.matrix != nil:
		if len(r.matrix) < n {
			return Application{}, r.validate(a.N())
		}
		m := make([][]float64, n)
		for p := range m {
			if len(r.matrix[p]) < n {
				return Application{}, r.validate(a.N())
			}
			m[p] = r.matrix[p][:n]
		}
		out.Recovery = RecoveryMatrix(m)
	case r.byNew != nil:
		if len(r.byNew) < n {
			return Application{}, r.validate(a.N())
		}
		out.Recovery = RecoveryByNew(r.byNew[:n])
	case r.linear != nil:
		if r.linear.n < n {
			return Application{}, r.validate(a.N())
		}
		l := *r.linear
		l.n = n
		out.Recovery = Recovery{linear: &l}
	}
	return out, nil
}
