package scenario

import (
	"errors"
	"fmt"
	"math"
	"strings"
)

// Limits of the multi-level fields (docs/model.md section 12), checked
// before anything is allocated.
const (
	// MaxCheckpointLevels bounds the number of checkpoint levels L
	// (issue 22: 1 ≤ L ≤ 8; SCR, FTI and VeloC have at most four).
	MaxCheckpointLevels = 8
	// MaxPatternEntry bounds each entry of checkpoint_pattern: 10⁶, a
	// thousand times the largest pattern of LLNL's SCR model regression
	// (1000).
	MaxPatternEntry = 1_000_000
	// severityTol is how far the failure severity shares may sum from 1:
	// room for decimal shares such as 0.1 + 0.2 + 0.7, far below any
	// share that matters.
	severityTol = 1e-9
)

// Level is one checkpoint level of application.checkpoint_levels, in the
// forms of the single level's fields: L_ℓ(a), C_ℓ(a) ≤ L_ℓ(a) and
// R_ℓ(p, a). Slices are indexed by a-1.
type Level struct {
	Latency  []float64
	Overhead []float64
	Recovery Recovery
}

// FailureSeverity is system.failure_severity: Shares[s-1] is the share of
// failures of severity s (a pointer in System, as FailureEvents, so that
// System stays comparable).
type FailureSeverity struct {
	Shares []float64
}

// Severity returns the shares of failures of severity 1..L for an
// application of L levels: system.failure_severity, or [1] for a single
// level without it.
func (s *Scenario) Severity() []float64 {
	if f := s.System.FailureSeverity; f != nil {
		return f.Shares
	}
	return []float64{1}
}

// NumLevels returns the number of checkpoint levels L: len(Levels), or 1
// for the single level of Latency, Overhead and Recovery.
func (a Application) NumLevels() int {
	if len(a.Levels) > 0 {
		return len(a.Levels)
	}
	return 1
}

// CheckpointLevels returns the levels, the single level as one.
func (a Application) CheckpointLevels() []Level {
	if len(a.Levels) > 0 {
		return a.Levels
	}
	return []Level{{Latency: a.Latency, Overhead: a.Overhead, Recovery: a.Recovery}}
}

// MultiLevel reports whether the scenario needs the multi-level model
// (package multilevel): several checkpoint levels, or no checkpoint after
// a recovery.
func (s *Scenario) MultiLevel() bool {
	return len(s.Application.Levels) > 1 || s.Application.NoCheckpointAfterRecovery
}

// SingleLevel returns nil when the scenario is the single-level model of
// docs/model.md sections 1–11, and otherwise an error naming the field
// that who (a package or command) cannot model.
func (s *Scenario) SingleLevel(who string) error {
	switch {
	case len(s.Application.Levels) > 1:
		return fieldErr("application.checkpoint_levels", "%d levels, but %s models a single checkpoint level (use package multilevel)", len(s.Application.Levels), who)
	case s.Application.NoCheckpointAfterRecovery:
		return fieldErr("application.checkpoint_after_recovery", "false, but %s models a checkpoint after every recovery (use package multilevel)", who)
	}
	return nil
}

// validateLevels checks the levels of an application on n processors:
// each in the single level's forms and limits, with no single-level
// field beside them.
func (a Application) validateLevels(n int) error {
	const field = "application.checkpoint_levels"
	if len(a.Levels) > MaxCheckpointLevels {
		return fieldErr(field, "%d levels, more than the limit of %d", len(a.Levels), MaxCheckpointLevels)
	}
	if len(a.Levels) == 1 {
		// Application.Levels's contract: L ≥ 2; one level lives in the
		// single-level fields (the JSON reader stores a list of one there).
		return fieldErr(field, "one level: give it as application.checkpoint_latency, checkpoint_overhead and recovery (Levels holds L ≥ 2)")
	}
	if a.Latency != nil || a.Overhead != nil || !a.Recovery.isZero() {
		return fieldErr(field, "given together with the single-level fields (application.checkpoint_latency, checkpoint_overhead, recovery): give one or the other")
	}
	for i, lv := range a.Levels {
		one := Application{WorkRate: a.WorkRate, Latency: lv.Latency, Overhead: lv.Overhead, Recovery: lv.Recovery}
		if err := one.Validate(n); err != nil {
			return renameLevelErr(err, i)
		}
	}
	return nil
}

// renameLevelErr names level i's fields in an error of Application.Validate
// on that level.
func renameLevelErr(err error, i int) error {
	var se *Error
	if !errors.As(err, &se) {
		return err
	}
	prefix := fmt.Sprintf("application.checkpoint_levels[%d].", i)
	for old, name := range map[string]string{
		"application.checkpoint_latency":  "latency",
		"application.checkpoint_overhead": "overhead",
		"application.recovery":            "recovery",
	} {
		if rest, ok := strings.CutPrefix(se.Field, old); ok {
			return &Error{Field: prefix + name + rest, Problem: se.Problem}
		}
	}
	return err
}

// checkLevels checks the multi-level fields together: the severity
// shares (one per level, summing to 1) and the pattern (L − 1 entries in
// [0, MaxPatternEntry]).
func (s *Scenario) checkLevels() error {
	L := s.Application.NumLevels()
	if f := s.System.FailureSeverity; f != nil || L > 1 {
		var shares []float64
		if f != nil {
			shares = f.Shares
		}
		if err := checkSeverity(shares, L); err != nil {
			return err
		}
	}
	if p := s.CheckpointPattern; p != nil {
		if len(p) != L-1 {
			return fieldErr("checkpoint_pattern", "has %d entries for %d checkpoint levels, want %d (V₁ … V_{L−1}: level-ℓ checkpoints between consecutive level-(ℓ+1) ones)", len(p), L, L-1)
		}
		for i, v := range p {
			if v < 0 || v > MaxPatternEntry {
				return fieldErr(fmt.Sprintf("checkpoint_pattern[%d]", i), "%d, want a count from 0 to %d", v, MaxPatternEntry)
			}
		}
	}
	return nil
}

// checkSeverity checks system.failure_severity for L levels.
func checkSeverity(f []float64, L int) error {
	const field = "system.failure_severity"
	if f == nil {
		return fieldErr(field, "missing: a scenario of %d checkpoint levels needs the share of failures of each severity 1..%d", L, L)
	}
	if len(f) != L {
		return fieldErr(field, "has %d entries for %d checkpoint levels, want %d (the shares of failures of severity 1..%d)", len(f), L, L, L)
	}
	sum := 0.0
	for i, x := range f {
		if !(x >= 0 && x <= 1) {
			return fieldErr(fmt.Sprintf("%s[%d]", field, i), "%v, want a share in [0, 1]", x)
		}
		sum += x
	}
	if math.Abs(sum-1) > severityTol {
		return fieldErr(field, "shares sum to %v, want 1", sum)
	}
	return nil
}

// isZero reports whether r is the zero Recovery (no cost given).
func (r Recovery) isZero() bool {
	return r.matrix == nil && r.byNew == nil && r.linear == nil && r.rows == 0
}
