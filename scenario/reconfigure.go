package scenario

import (
	"fmt"

	"github.com/ckpt-markov/markov/internal/quote"
	"github.com/ckpt-markov/markov/reschedule"
)

// Reconfigure says whether a running application changes its processor
// count at a checkpoint (docs/optimal-policy.md section 1). Its zero value
// is the paper's model.
type Reconfigure int

const (
	// Never: a running application keeps its processors until a failure
	// interrupts it; repaired processors wait as spares (docs/model.md,
	// the paper's model).
	Never Reconfigure = iota
	// AtCheckpoint: whenever the application is about to start an up
	// segment on a processors (after a committed segment, or after a
	// recovery, which ends with a checkpoint) with n' functional and
	// r(n') ∉ {0, a}, it reconfigures onto r(n') instead, exactly as a
	// recovery from a checkpoint written on a: R(a, r(n')) + L(r(n'))
	// seconds, a failure of a used processor during it interrupts it as
	// any recovery. A running application never stops voluntarily:
	// r(n') = 0 keeps it on a.
	AtCheckpoint
)

// String returns the name ParseReconfigure reads.
func (r Reconfigure) String() string {
	switch r {
	case Never:
		return "never"
	case AtCheckpoint:
		return "at-checkpoint"
	}
	return fmt.Sprintf("Reconfigure(%d)", int(r))
}

// ParseReconfigure reads "never" or "at-checkpoint" ("" is "never").
func ParseReconfigure(s string) (Reconfigure, error) {
	switch s {
	case "", "never":
		return Never, nil
	case "at-checkpoint":
		return AtCheckpoint, nil
	}
	return Never, fieldErr("reconfigure", "%s, want \"never\" or \"at-checkpoint\"", quote.Value(s))
}

// Validate checks that r is a known value.
func (r Reconfigure) Validate() error {
	if r != Never && r != AtCheckpoint {
		return fieldErr("reconfigure", "%d is not a known value, want Never or AtCheckpoint", int(r))
	}
	return nil
}

// TargetOf is Target for a policy that may depend on the checkpoint count
// (a decision table): the action of X(a, n), the state of a checkpoint
// just written on a with n functional.
func (r Reconfigure) TargetOf(rule reschedule.Rule, a, n int) int {
	if r != AtCheckpoint || n < 1 || n > rule.N() {
		return a
	}
	if b := rule.Action(a, n); b != 0 && b != a {
		return b
	}
	return a
}

// Target returns the processor count an application about to start an up
// segment on a processors with n functional moves to under r and the
// rescheduling vector v: a itself (start the segment), or v(n) when it
// reconfigures at the checkpoint.
func (r Reconfigure) Target(v []int, a, n int) int {
	if r != AtCheckpoint || n < 1 || n > len(v) {
		return a
	}
	if b := v[n-1]; b != 0 && b != a {
		return b
	}
	return a
}
