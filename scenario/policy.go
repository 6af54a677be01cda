package scenario

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/ckpt-markov/markov/reschedule"
)

// PolicyKind names a rescheduling policy.
type PolicyKind int

const (
	// Greedy uses every functional processor: r(n) = n.
	Greedy PolicyKind = iota
	// PerformanceBased uses the count with the highest work rate available.
	PerformanceBased
	// Moldable always uses Policy.Processors processors and waits otherwise.
	Moldable
	// Explicit uses the vector in Policy.Vector as given.
	Explicit
)

// Policy describes a rescheduling policy; Vector turns it into r(1..N).
// The availability-based policy needs a failure trace and is built with
// reschedule.AvailabilityBased, then given here as an Explicit vector.
type Policy struct {
	Kind PolicyKind
	// Processors is the count a of a Moldable policy.
	Processors int
	// Explicit is r(1..N) of an Explicit policy.
	Explicit []int
}

// Vector returns the rescheduling vector of the policy on n processors.
func (p Policy) Vector(n int, workRate []float64) (reschedule.Vector, error) {
	var (
		v   reschedule.Vector
		err error
	)
	switch p.Kind {
	case Greedy:
		v, err = reschedule.Greedy(n)
	case PerformanceBased:
		if len(workRate) != n {
			return nil, fieldErr("application.work_rate", "has %d entries, want %d (one per processor count)", len(workRate), n)
		}
		v, err = reschedule.PerformanceBased(workRate)
	case Moldable:
		v, err = reschedule.Moldable(n, p.Processors)
	case Explicit:
		if len(p.Explicit) != n {
			return nil, fieldErr("policy.vector", "has %d entries, want %d (one per processor count)", len(p.Explicit), n)
		}
		v, err = reschedule.Explicit(p.Explicit)
	default:
		return nil, fieldErr("policy", "unknown policy kind %d", p.Kind)
	}
	if err != nil {
		return nil, fieldErr("policy", "%v", err)
	}
	return v, nil
}

// String returns the policy in the form ParsePolicy reads.
func (p Policy) String() string {
	switch p.Kind {
	case Greedy:
		return "greedy"
	case PerformanceBased:
		return "pb"
	case Moldable:
		return "moldable:" + strconv.Itoa(p.Processors)
	case Explicit:
		s := make([]string, len(p.Explicit))
		for i, r := range p.Explicit {
			s[i] = strconv.Itoa(r)
		}
		return "vector:" + strings.Join(s, ",")
	}
	return fmt.Sprintf("PolicyKind(%d)", p.Kind)
}

// ParsePolicy reads a policy as a person types it on a command line:
// "greedy", "pb", "moldable:A" or "vector:r1,r2,...,rN".
func ParsePolicy(s string) (Policy, error) {
	name, arg, hasArg := strings.Cut(strings.TrimSpace(s), ":")
	switch strings.ToLower(name) {
	case "greedy":
		if !hasArg {
			return Policy{Kind: Greedy}, nil
		}
	case "pb", "performance":
		if !hasArg {
			return Policy{Kind: PerformanceBased}, nil
		}
	case "moldable":
		a, err := strconv.Atoi(strings.TrimSpace(arg))
		if err != nil || !hasArg {
			return Policy{}, fieldErr("policy", "moldable needs a processor count, as in moldable:16, got %q", s)
		}
		return Policy{Kind: Moldable, Processors: a}, nil
	case "vector":
		var r []int
		for f := range strings.SplitSeq(arg, ",") {
			x, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil {
				return Policy{}, fieldErr("policy", "vector entry %q is not an integer", f)
			}
			r = append(r, x)
		}
		return Policy{Kind: Explicit, Explicit: r}, nil
	}
	return Policy{}, fieldErr("policy", "%q is not one of greedy, pb, moldable:A, vector:r1,...,rN", s)
}
