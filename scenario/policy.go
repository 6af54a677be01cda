package scenario

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/ckpt-markov/markov/internal/quote"
	"github.com/ckpt-markov/markov/reschedule"
)

// PolicyKind names a rescheduling policy.
type PolicyKind int

const (
	// Greedy uses every functional processor: r(n) = n. It is the zero
	// PolicyKind, so the zero Policy is the greedy policy.
	Greedy PolicyKind = iota
	// PerformanceBased uses the count with the highest work rate available:
	// r(n) = argmax_{a ≤ n} ω(a) (reschedule.PerformanceBased).
	PerformanceBased
	// Moldable always uses Policy.Processors processors and waits otherwise.
	Moldable
	// Explicit uses the vector in Policy.Explicit as given.
	Explicit
	// AvailabilityBased chooses r(n) = argmin_{a ≤ n} F(a)/ω(a) from a
	// failure history (reschedule.AvailabilityBased, docs/model.md §9): its
	// vector needs PolicyInputs.Failures, or a vector resolved before and
	// kept in Policy.Explicit.
	AvailabilityBased
	// Optimal is the optimal rescheduling policy of docs/optimal-policy.md.
	// Its vector comes from a solver outside this package, which returns it
	// in Policy.Explicit (or its decision table, when its actions depend
	// on the checkpoint count p, in Policy.Table); until then the policy
	// has no vector.
	Optimal
	// Table uses the decision table in Policy.Table as given: the action
	// in each decision state X(p, n) (reschedule.Table).
	Table
)

// Policy names a rescheduling policy: the one type every package and the
// command line use for it. Vector turns it into r(1..N); ParsePolicy reads
// its textual forms and String writes them. The zero Policy is greedy.
type Policy struct {
	Kind PolicyKind
	// Processors is the count a of a Moldable policy.
	Processors int
	// Explicit is r(1..N): the vector of an Explicit policy, or the vector
	// an AvailabilityBased or Optimal policy was resolved to (nil until it
	// is). Other kinds ignore it.
	Explicit []int
	// Table holds the entries of a Table policy, or the decision table an
	// Optimal policy was resolved to (ResolvedTable; nil until it is):
	// the action in each decision state X(p, n) in range form, validated
	// with the scenario's N by Rule. Other kinds ignore it.
	Table []reschedule.Entry
}

// PolicyInputs is what Policy.Vector may need besides the policy itself.
type PolicyInputs struct {
	// N is the number of processors.
	N int
	// WorkRate is ω(1..N), needed by PerformanceBased and AvailabilityBased.
	WorkRate []float64
	// Failures holds, by processor, the failure instants of a history;
	// needed by an AvailabilityBased policy not yet resolved
	// (reschedule.FailureCounts says how they are counted).
	Failures [][]float64
	// Availability configures the random picks of AvailabilityBased; nil
	// means reschedule's defaults.
	Availability *reschedule.AvailabilitySettings
}

// Vector returns the rescheduling vector r(1..N) of the policy: the one
// way to turn a Policy into a vector. An AvailabilityBased or Optimal policy
// with a resolved vector (Policy.Explicit) returns that vector; an
// AvailabilityBased one without computes it from in.Failures; an Optimal one
// without is an error. Errors name the field at fault.
func (p Policy) Vector(in PolicyInputs) (reschedule.Vector, error) {
	if p.hasTable() {
		t, err := p.table(in.N)
		if err != nil {
			return nil, err
		}
		v, err := t.Vector()
		if err != nil {
			return nil, fieldErr("policy.table", "%v (Policy.Rule gives the table)", err)
		}
		return v, nil
	}
	n := in.N
	needRates := func() error {
		if len(in.WorkRate) != n {
			return fieldErr("application.work_rate", "has %d entries, want %d (one per processor count)", len(in.WorkRate), n)
		}
		return nil
	}
	var (
		v   reschedule.Vector
		err error
	)
	switch p.Kind {
	case Greedy:
		v, err = reschedule.Greedy(n)
	case PerformanceBased:
		if err := needRates(); err != nil {
			return nil, err
		}
		v, err = reschedule.PerformanceBased(in.WorkRate)
	case Moldable:
		v, err = reschedule.Moldable(n, p.Processors)
	case Explicit, AvailabilityBased, Optimal:
		if p.Explicit != nil || p.Kind == Explicit {
			if len(p.Explicit) != n {
				return nil, fieldErr("policy.vector", "has %d entries, want %d (one per processor count)", len(p.Explicit), n)
			}
			v, err = reschedule.Explicit(p.Explicit)
			break
		}
		if p.Unsolved() {
			return nil, fieldErr("policy", "the optimal policy's vector comes from its solver (docs/optimal-policy.md); none was given")
		}
		if in.Failures == nil {
			return nil, fieldErr("policy", "the availability-based policy needs a failure history (evaluate it on a trace)")
		}
		if err := needRates(); err != nil {
			return nil, err
		}
		if len(in.Failures) != n {
			return nil, fieldErr("policy", "failure history has %d processors, want %d", len(in.Failures), n)
		}
		v, err = reschedule.AvailabilityBased(in.Failures, in.WorkRate, in.Availability)
	default:
		return nil, fieldErr("policy", "unknown policy kind %d", p.Kind)
	}
	if err != nil {
		return nil, fieldErr("policy", "%v", err)
	}
	return v, nil
}

// Unsolved reports whether p is the optimal policy not yet solved: Kind
// Optimal with neither a vector (Explicit) nor a decision table (Table).
// Its actions come from the solver of docs/optimal-policy.md
// (optimal.Solve, which takes the system and the application, not a
// Scenario); until then it has no vector (Vector is an error), so no
// Scenario holds it. This is the one test of it: Overrides.Resolve returns
// such a policy beside the system and the application, and Overrides.Apply
// and New refuse it.
func (p Policy) Unsolved() bool {
	return p.Kind == Optimal && p.Explicit == nil && p.Table == nil
}

// hasTable reports whether the policy's actions are a decision table.
func (p Policy) hasTable() bool {
	return p.Kind == Table || p.Kind == Optimal && p.Table != nil
}

// table builds the policy's decision table on n processors; errors name
// the entry at fault, as policy.table[i].
func (p Policy) table(n int) (*reschedule.Table, error) {
	t, err := reschedule.NewTable(n, p.Table)
	if err != nil {
		var te *reschedule.TableError
		if errors.As(err, &te) && te.Entry >= 0 {
			return nil, fieldErr(fmt.Sprintf("policy.table[%d]", te.Entry), "%v", te.Err)
		}
		if errors.As(err, &te) {
			return nil, fieldErr("policy.table", "%v", te.Err)
		}
		return nil, fieldErr("policy.table", "%v", err)
	}
	return t, nil
}

// Rule returns the policy as the models replay it: its decision table
// when the policy is one whose actions depend on the checkpoint count p,
// else its vector (Vector). Errors name the field at fault.
func (p Policy) Rule(in PolicyInputs) (reschedule.Rule, error) {
	if p.hasTable() {
		t, err := p.table(in.N)
		if err != nil {
			return nil, err
		}
		if !t.DependsOnOld() {
			return t.Row(0), nil
		}
		return t, nil
	}
	return p.Vector(in)
}

// defaultVector is the vector of the policy, or the default row of its
// decision table (the vector Scenario.Reschedule holds beside the table).
func (p Policy) defaultVector(in PolicyInputs) (reschedule.Vector, *reschedule.Table, error) {
	r, err := p.Rule(in)
	if err != nil {
		return nil, nil, err
	}
	if t, ok := r.(*reschedule.Table); ok {
		return t.Row(0), t, nil
	}
	return r.(reschedule.Vector), nil, nil
}

// ResolvedTable returns the Optimal policy resolved to the decision table
// t (its vector when t does not depend on p).
func (p Policy) ResolvedTable(t *reschedule.Table) Policy {
	if !t.DependsOnOld() {
		v, _ := t.Vector()
		return p.Resolved(v)
	}
	p.Explicit, p.Table = nil, t.Entries()
	return p
}

// Resolved returns the policy with its vector fixed to v (as the result of
// Vector), so that an AvailabilityBased or Optimal policy can go into a
// Scenario. Other kinds are returned unchanged: their vector is determined
// by the scenario.
func (p Policy) Resolved(v reschedule.Vector) Policy {
	if p.Kind == AvailabilityBased || p.Kind == Optimal {
		p.Explicit = slices.Clone([]int(v))
	}
	return p
}

// Equal reports whether p and q are the same policy (resolved to the same
// vector, for the kinds that keep one).
func (p Policy) Equal(q Policy) bool {
	if p.Kind != q.Kind {
		return false
	}
	switch p.Kind {
	case Moldable:
		return p.Processors == q.Processors
	case Explicit, AvailabilityBased, Optimal:
		return slices.Equal(p.Explicit, q.Explicit) && slices.Equal(p.Table, q.Table)
	case Table:
		return slices.Equal(p.Table, q.Table)
	}
	return true
}

// String returns the policy in the form ParsePolicy reads: "greedy", "pb",
// "ab", "optimal", "moldable:A", "vector:r1,...,rN" or "table:" and the
// table's range form (reschedule.Table.String). A resolved
// availability-based or optimal policy is still "ab" or "optimal".
func (p Policy) String() string {
	switch p.Kind {
	case Greedy:
		return "greedy"
	case PerformanceBased:
		return "pb"
	case AvailabilityBased:
		return "ab"
	case Optimal:
		return "optimal"
	case Moldable:
		return "moldable:" + strconv.Itoa(p.Processors)
	case Explicit:
		s := make([]string, len(p.Explicit))
		for i, r := range p.Explicit {
			s[i] = strconv.Itoa(r)
		}
		return "vector:" + strings.Join(s, ",")
	case Table:
		return "table:" + reschedule.FormatEntries(p.Table)
	}
	return fmt.Sprintf("PolicyKind(%d)", p.Kind)
}

// MarshalText implements encoding.TextMarshaler with String.
func (p Policy) MarshalText() ([]byte, error) { return []byte(p.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler with ParsePolicy.
func (p *Policy) UnmarshalText(b []byte) error {
	q, err := ParsePolicy(string(b))
	if err != nil {
		return err
	}
	*p = q
	return nil
}

// ParsePolicy reads a policy as a person types it on a command line:
// "greedy", "pb" (or "performance"), "ab" (or "availability"), "optimal",
// "moldable:A", "vector:r1,r2,...,rN" or "table:" followed by a decision
// table's range form, as "table:1-15: 0, 16-128: n; p=16: 20-30: 16"
// (reschedule.ParseEntries; checked against N when the scenario is built). Case and spaces around the parts
// do not matter. It is the one parser of these forms; scenario files accept
// them too, beside their object forms.
func ParsePolicy(s string) (Policy, error) {
	name, arg, hasArg := strings.Cut(strings.TrimSpace(s), ":")
	switch strings.ToLower(strings.TrimSpace(name)) {
	case "greedy":
		if !hasArg {
			return Policy{Kind: Greedy}, nil
		}
	case "pb", "performance":
		if !hasArg {
			return Policy{Kind: PerformanceBased}, nil
		}
	case "ab", "availability":
		if !hasArg {
			return Policy{Kind: AvailabilityBased}, nil
		}
	case "optimal":
		if !hasArg {
			return Policy{Kind: Optimal}, nil
		}
	case "moldable":
		a, err := strconv.Atoi(strings.TrimSpace(arg))
		if err != nil || !hasArg {
			return Policy{}, fieldErr("policy", "moldable needs a processor count, as in moldable:16, got %s", quote.Value(s))
		}
		if a < 1 {
			return Policy{}, fieldErr("policy", "moldable:%d, want a processor count of at least 1, as in moldable:16", a)
		}
		return Policy{Kind: Moldable, Processors: a}, nil
	case "vector":
		var r []int
		for f := range strings.SplitSeq(arg, ",") {
			x, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil {
				return Policy{}, fieldErr("policy", "vector entry %s is not an integer", quote.Value(f))
			}
			r = append(r, x)
		}
		return Policy{Kind: Explicit, Explicit: r}, nil
	case "table":
		e, err := reschedule.ParseEntries(arg)
		if err != nil {
			return Policy{}, fieldErr("policy", "%v", err)
		}
		return Policy{Kind: Table, Table: e}, nil
	}
	return Policy{}, fieldErr("policy", "%s is not one of greedy, pb, ab, optimal, moldable:A, vector:r1,...,rN, table:…", quote.Value(s))
}

// SplitPolicies splits a comma-separated list of policies, such as
// "greedy,pb,vector:1,2,3,moldable:4", into its policies: a comma inside a
// vector's entries does not end the policy (an entry that is an integer
// continues the vector), nor one inside a table's runs (a part that starts
// with a digit continues the table). Each policy is read with ParsePolicy.
func SplitPolicies(s string) ([]Policy, error) {
	var (
		out  []Policy
		cur  string
		vec  bool
		flus = func() error {
			if strings.TrimSpace(cur) == "" {
				return fieldErr("policy", "empty entry in the list %s", quote.Value(s))
			}
			p, err := ParsePolicy(cur)
			if err != nil {
				return err
			}
			out = append(out, p)
			return nil
		}
	)
	table := false
	for i, f := range strings.Split(s, ",") {
		if vec {
			if _, err := strconv.Atoi(strings.TrimSpace(f)); err == nil {
				cur += "," + f
				continue
			}
		}
		if t := strings.TrimSpace(f); table && t != "" && t[0] >= '0' && t[0] <= '9' {
			// A table's next run, "lo-hi: a" or "n: a; p=P: …".
			cur += "," + f
			continue
		}
		if i > 0 {
			if err := flus(); err != nil {
				return nil, err
			}
		}
		cur = f
		name, _, _ := strings.Cut(strings.TrimSpace(f), ":")
		vec = strings.EqualFold(strings.TrimSpace(name), "vector")
		table = strings.EqualFold(strings.TrimSpace(name), "table")
	}
	if err := flus(); err != nil {
		return nil, err
	}
	return out, nil
}

// TableEntry is one entry of a decision table in the JSON form of a
// scenario file's policy {"table": [...]}: P is omitted for the default
// row, N is [lo, hi] and A a count or "n".
type TableEntry struct {
	P int    `json:"p,omitempty"`
	N [2]int `json:"n"`
	A any    `json:"a"`
}

// TableJSON returns entries in the JSON form Parse reads as the entries
// of {"table": [...]}.
func TableJSON(entries []reschedule.Entry) []TableEntry {
	out := make([]TableEntry, len(entries))
	for i, e := range entries {
		out[i] = TableEntry{P: e.P, N: [2]int{e.Lo, e.Hi}, A: e.A}
		if e.A == reschedule.AllUp {
			out[i].A = "n"
		}
	}
	return out
}
