package reschedule

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/ckpt-markov/markov/internal/quote"
)

// Rule is a rescheduling policy as the models and the simulators replay
// it: the action in each decision state X(p, n), where n processors are
// functional and the last checkpoint was written on p of them (p = 0
// before the first checkpoint). The action is the processor count to
// recover on, 0 to wait for repairs. Vector and *Table implement it.
type Rule interface {
	// N returns the number of processors.
	N() int
	// Action returns the action in X(p, n) for 1 ≤ n ≤ N; it panics if n
	// is out of range.
	Action(p, n int) int
	// DependsOnOld reports whether some action depends on p.
	DependsOnOld() bool
}

// Action returns r(n): a vector's action does not depend on p.
func (v Vector) Action(_, n int) int { return v.At(n) }

// DependsOnOld returns false.
func (v Vector) DependsOnOld() bool { return false }

// AllUp, as Entry.A, means "recover on all n functional processors".
const AllUp = -1

// MaxTableEntries bounds the entries of a Table, so that a table read from
// a file allocates at most a few tens of megabytes.
const MaxTableEntries = 1 << 20

// Entry is one line of a decision table in range form: in the decision
// states X(P, n) with Lo ≤ n ≤ Hi, recover on A processors (0: wait;
// AllUp: on all n). P = 0 is the default row, which must cover 1..N; a
// row P ≥ 1 overrides it on its ranges, for checkpoints written on P
// processors.
type Entry struct {
	P, Lo, Hi, A int
}

// at returns the entry's action in a state with n functional.
func (e Entry) at(n int) int {
	if e.A == AllUp {
		return n
	}
	return e.A
}

// Validate checks one entry of a table on n processors: 0 ≤ P ≤ n,
// 1 ≤ Lo ≤ Hi ≤ n, and A = AllUp or 0 ≤ A ≤ Lo (an action never exceeds
// the functional count). The error names the entry's field.
func (e Entry) Validate(n int) error {
	switch {
	case e.P < 0 || e.P > n:
		return fmt.Errorf("p = %d outside [1, %d]", e.P, n)
	case e.Lo < 1 || e.Hi > n || e.Lo > e.Hi:
		return fmt.Errorf("n = [%d, %d], want 1 ≤ lo ≤ hi ≤ %d", e.Lo, e.Hi, n)
	case e.A != AllUp && (e.A < 0 || e.A > e.Lo):
		return fmt.Errorf("a = %d outside [0, %d] (at most the functional count n = %d)", e.A, e.Lo, e.Lo)
	}
	return nil
}

// Table is a decision table: the action in each decision state X(p, n),
// in range form (Entry). Its rows are a default row and the rows of the
// checkpoint counts p whose actions differ from it somewhere. A Table is
// immutable; build it with NewTable, NewTableRows or ParseTable.
type Table struct {
	n    int
	def  []Entry   // default row: sorted, disjoint, covering 1..n
	ps   []int     // checkpoint counts with their own ranges, increasing
	rows [][]Entry // rows[i]: ranges of ps[i], sorted, disjoint
	old  bool      // some row differs from the default somewhere
}

// TableError is NewTable's error: Entry is the index of the entry at
// fault in the input (−1 when the table as a whole is).
type TableError struct {
	Entry int
	Err   error
}

func (e *TableError) Error() string {
	if e.Entry < 0 {
		return "reschedule: table: " + e.Err.Error()
	}
	return fmt.Sprintf("reschedule: table entry %d: %v", e.Entry, e.Err)
}

func (e *TableError) Unwrap() error { return e.Err }

// NewTable returns the decision table of the entries on n processors. The
// entries of the default row (P = 0) must cover 1..n without overlap and
// run somewhere (some A ≠ 0); those of a row P ≥ 1 must not overlap.
// Errors are *TableError values.
func NewTable(n int, entries []Entry) (*Table, error) {
	if n < 1 {
		return nil, &TableError{-1, fmt.Errorf("processors = %d, want ≥ 1", n)}
	}
	if len(entries) > MaxTableEntries {
		return nil, &TableError{-1, fmt.Errorf("%d entries, more than %d", len(entries), MaxTableEntries)}
	}
	for i, e := range entries {
		if err := e.Validate(n); err != nil {
			return nil, &TableError{i, err}
		}
	}
	idx := make([]int, len(entries))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(i, j int) int {
		a, b := entries[i], entries[j]
		return cmp.Or(cmp.Compare(a.P, b.P), cmp.Compare(a.Lo, b.Lo))
	})
	t := &Table{n: n}
	runs := false
	for k, i := range idx {
		e := entries[i]
		if k > 0 {
			if prev := entries[idx[k-1]]; prev.P == e.P && prev.Hi >= e.Lo {
				return nil, &TableError{i, fmt.Errorf("n = [%d, %d] overlaps entry %d's [%d, %d] for the same p", e.Lo, e.Hi, idx[k-1], prev.Lo, prev.Hi)}
			}
		}
		if e.P == 0 {
			next := 1
			if len(t.def) > 0 {
				next = t.def[len(t.def)-1].Hi + 1
			}
			if e.Lo != next {
				return nil, &TableError{i, fmt.Errorf("the default row (no p) gives no action for n = %d..%d", next, e.Lo-1)}
			}
			t.def = append(t.def, e)
			runs = runs || e.A != 0
			continue
		}
		if len(t.ps) == 0 || t.ps[len(t.ps)-1] != e.P {
			t.ps = append(t.ps, e.P)
			t.rows = append(t.rows, nil)
		}
		t.rows[len(t.rows)-1] = append(t.rows[len(t.rows)-1], e)
	}
	if len(t.def) == 0 || t.def[len(t.def)-1].Hi != n {
		last := 0
		if len(t.def) > 0 {
			last = t.def[len(t.def)-1].Hi
		}
		return nil, &TableError{-1, fmt.Errorf("the default row (entries without p) gives no action for n = %d..%d", last+1, n)}
	}
	if !runs {
		return nil, &TableError{-1, errors.New("the default row waits (a = 0) for every n: the application can never start")}
	}
	t.old = t.differs()
	return t, nil
}

// differs reports whether some row's action differs from the default's
// somewhere, comparing overlapping ranges (never single states, whose
// number may be N²). The default row is first merged into maximal runs of
// one form (a constant, or a = n; a single n with a = n is the constant
// n), so that a range equal to the default meets at most three runs and
// the walk costs O(entries) whatever the input: it stops at the first
// difference.
func (t *Table) differs() bool {
	def := canonical(t.def)
	for _, row := range t.rows {
		for _, e := range row {
			for j := t.find(def, e.Lo); j < len(def) && def[j].Lo <= e.Hi; j++ {
				d := def[j]
				lo, hi := max(e.Lo, d.Lo), min(e.Hi, d.Hi)
				switch {
				case e.A == d.A:
				case e.A == AllUp || d.A == AllUp:
					// n against a constant c: equal only on n = c.
					if lo != hi || e.at(lo) != d.at(lo) {
						return true
					}
				default:
					return true
				}
			}
		}
	}
	return false
}

// canonical merges adjacent ranges of row that one entry can write: equal
// constants, a = n with a = n, and a single n whose action is n with
// either neighbour of form a = n or constant n.
func canonical(row []Entry) []Entry {
	ident := func(e Entry) bool { return e.A == AllUp || e.Lo == e.Hi && e.A == e.Lo }
	out := make([]Entry, 0, len(row))
	for _, e := range row {
		if k := len(out) - 1; k >= 0 {
			last := &out[k]
			switch {
			case last.A == e.A:
				last.Hi = e.Hi
				continue
			case ident(*last) && ident(e):
				last.Hi, last.A = e.Hi, AllUp
				continue
			}
		}
		out = append(out, e)
	}
	return out
}

// find returns the index of the first range of row with Hi ≥ n.
func (t *Table) find(row []Entry, n int) int {
	i, _ := slices.BinarySearchFunc(row, n, func(e Entry, n int) int { return cmp.Compare(e.Hi, n) })
	return i
}

// N returns the number of processors.
func (t *Table) N() int { return t.n }

// DependsOnOld reports whether some action depends on p.
func (t *Table) DependsOnOld() bool { return t.old }

// Action returns the action in X(p, n): the range of row p holding n if
// any, else the default row's. It panics if n is outside [1, N].
func (t *Table) Action(p, n int) int {
	if n < 1 || n > t.n {
		panic(fmt.Sprintf("reschedule: functional count %d outside [1, %d]", n, t.n))
	}
	if i, ok := slices.BinarySearch(t.ps, p); ok {
		row := t.rows[i]
		if j := t.find(row, n); j < len(row) && row[j].Lo <= n {
			return row[j].at(n)
		}
	}
	return t.def[t.find(t.def, n)].at(n)
}

// Olds returns the checkpoint counts p that have rows of their own, in
// increasing order.
func (t *Table) Olds() []int { return slices.Clone(t.ps) }

// Row returns the actions for checkpoints written on p as a vector
// r_p(1..N) (the default row for a p without a row of its own).
func (t *Table) Row(p int) Vector {
	v := make(Vector, t.n)
	for n := 1; n <= t.n; n++ {
		v[n-1] = t.Action(p, n)
	}
	return v
}

// Vector returns the table as a rescheduling vector: its default row. It
// returns an error if the table depends on p.
func (t *Table) Vector() (Vector, error) {
	if t.old {
		return nil, errors.New("reschedule: the decision table depends on the checkpoint count p: it is not a vector")
	}
	return t.Row(0), nil
}

// Entries returns the table's entries: the default row, then the rows of
// increasing p, each by increasing n.
func (t *Table) Entries() []Entry {
	out := slices.Clone(t.def)
	for _, row := range t.rows {
		out = append(out, row...)
	}
	return out
}

// Equal reports whether t and u give the same action in every decision
// state X(p, n), 0 ≤ p ≤ N (they may be written with different entries).
// Tables of the same entries are compared entry by entry; others row by
// row, O(N) per checkpoint count with a row.
func (t *Table) Equal(u *Table) bool {
	if t.n != u.n {
		return false
	}
	if slices.Equal(t.def, u.def) && slices.Equal(t.ps, u.ps) && slices.EqualFunc(t.rows, u.rows, slices.Equal) {
		return true
	}
	ps := append(append([]int{0}, t.ps...), u.ps...)
	for _, p := range ps {
		if !slices.Equal(t.Row(p), u.Row(p)) {
			return false
		}
	}
	return true
}

// NewTableRows returns the table whose default row is def and whose row
// for checkpoint count ps[i] is rows[i], in its compact range form: a row
// keeps only the ranges where it differs from def, each run of constant
// actions, or of a = n, one entry (the longer of the two at each step,
// the constant one on ties).
func NewTableRows(def Vector, ps []int, rows []Vector) (*Table, error) {
	n := len(def)
	if len(ps) != len(rows) {
		return nil, &TableError{-1, fmt.Errorf("%d checkpoint counts for %d rows", len(ps), len(rows))}
	}
	entries := compress(0, def, func(int) bool { return true })
	for i, p := range ps {
		r := rows[i]
		if len(r) != n {
			return nil, &TableError{-1, fmt.Errorf("row of p = %d has %d entries, want %d", p, len(r), n)}
		}
		entries = append(entries, compress(p, r, func(k int) bool { return r[k-1] != def[k-1] })...)
		if len(entries) > MaxTableEntries {
			return nil, &TableError{-1, fmt.Errorf("more than %d entries", MaxTableEntries)}
		}
	}
	return NewTable(n, entries)
}

// compress writes the n with keep(n) of row r as ranges of p.
func compress(p int, r Vector, keep func(n int) bool) []Entry {
	var out []Entry
	for n := 1; n <= len(r); {
		if !keep(n) {
			n++
			continue
		}
		end := n
		for end < len(r) && keep(end+1) && r[end] == r[n-1] {
			end++
		}
		e := Entry{P: p, Lo: n, Hi: end, A: r[n-1]}
		ident := n
		for ident < len(r) && r[n-1] == n && keep(ident+1) && r[ident] == ident+1 {
			ident++
		}
		if ident > end {
			e.Hi, e.A = ident, AllUp
		}
		out = append(out, e)
		n = e.Hi + 1
	}
	return out
}

// String returns the table in its readable range form, which ParseTable
// reads: the default row's runs "lo-hi: a" (a = "n": all functional),
// then for each checkpoint count p with a row of its own "; p=P: " and
// its runs, as in "1-15: 0, 16-128: n; p=16: 20-30: 16".
func (t *Table) String() string { return FormatEntries(t.Entries()) }

// FormatEntries writes entries in the range form of Table.String, in their
// order: a new row "; p=P: " starts wherever P changes.
func FormatEntries(entries []Entry) string {
	var b strings.Builder
	for i, e := range entries {
		switch {
		case i > 0 && e.P != entries[i-1].P || i == 0 && e.P != 0:
			fmt.Fprintf(&b, "; p=%d: ", e.P)
		case i > 0:
			b.WriteString(", ")
		}
		b.WriteString(strconv.Itoa(e.Lo))
		if e.Hi != e.Lo {
			b.WriteString("-" + strconv.Itoa(e.Hi))
		}
		b.WriteString(": ")
		if e.A == AllUp {
			b.WriteString("n")
		} else {
			b.WriteString(strconv.Itoa(e.A))
		}
	}
	return b.String()
}

// ParseTable reads a table on n processors in the range form String
// writes (ParseEntries) and builds it with NewTable.
func ParseTable(s string, n int) (*Table, error) {
	e, err := ParseEntries(s)
	if err != nil {
		return nil, err
	}
	return NewTable(n, e)
}

// ParseEntries reads the entries of a table in the range form String
// writes: rows separated by ";", the first without "p=", the others
// starting "p=P:"; in each row runs "lo-hi: a" or "n: a" separated by
// ","; a is a count or "n". Spaces around the parts do not matter. The
// number of runs is bounded by MaxTableEntries before any is kept. The
// entries are not checked against a processor count (NewTable does).
func ParseEntries(s string) ([]Entry, error) {
	if strings.Count(s, ",")+strings.Count(s, ";") >= MaxTableEntries {
		return nil, &TableError{-1, fmt.Errorf("more than %d entries", MaxTableEntries)}
	}
	var entries []Entry
	for i, row := range strings.Split(s, ";") {
		p := 0
		row = strings.TrimSpace(row)
		if i > 0 {
			head, rest, ok := strings.Cut(row, ":")
			name, val, isP := strings.Cut(strings.TrimSpace(head), "=")
			if !ok || !isP || strings.TrimSpace(name) != "p" {
				return nil, &TableError{-1, fmt.Errorf("row %s does not start with \"p=P:\"", quote.Value(row))}
			}
			x, err := strconv.Atoi(strings.TrimSpace(val))
			if err != nil || x < 1 {
				return nil, &TableError{-1, fmt.Errorf("p = %s, want a processor count ≥ 1", quote.Value(val))}
			}
			p, row = x, rest
		}
		for run := range strings.SplitSeq(row, ",") {
			e, err := parseRun(p, run)
			if err != nil {
				return nil, &TableError{-1, err}
			}
			entries = append(entries, e)
		}
	}
	return entries, nil
}

// parseRun reads "lo-hi: a" or "n: a" of row p.
func parseRun(p int, run string) (Entry, error) {
	rng, act, ok := strings.Cut(run, ":")
	if !ok {
		return Entry{}, fmt.Errorf("run %s, want lo-hi: a", quote.Value(run))
	}
	los, his, isRange := strings.Cut(rng, "-")
	lo, err := strconv.Atoi(strings.TrimSpace(los))
	if err != nil {
		return Entry{}, fmt.Errorf("run %s: %s is not a processor count", quote.Value(run), quote.Value(strings.TrimSpace(los)))
	}
	hi := lo
	if isRange {
		if hi, err = strconv.Atoi(strings.TrimSpace(his)); err != nil {
			return Entry{}, fmt.Errorf("run %s: %s is not a processor count", quote.Value(run), quote.Value(strings.TrimSpace(his)))
		}
	}
	e := Entry{P: p, Lo: lo, Hi: hi}
	if act = strings.TrimSpace(act); act == "n" {
		e.A = AllUp
	} else if e.A, err = strconv.Atoi(act); err != nil || e.A < 0 {
		return Entry{}, fmt.Errorf("run %s: action %s, want a processor count or n", quote.Value(run), quote.Value(act))
	}
	return e, nil
}
