package trace

import (
	"cmp"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/ckpt-markov/markov/internal/quote"
)

// LANLSettings adjusts the LANL reader. A nil *LANLSettings means the
// defaults described on each field.
type LANLSettings struct {
	// End is the end of the observation, in seconds since the Unix epoch.
	// Nodes still in use (node decom = current) leave the trace at End,
	// and every production window is cut at End. Zero means the latest
	// Prob Started or Prob Fixed time in the whole input, all systems
	// together: the log stops there.
	End float64

	// Systems, when not empty, are the systems to read. Rows of the
	// other systems are checked for their System column only (their
	// times, when they parse, still count towards the default End), so
	// that a row of a system nobody asked for does not stop the file. A
	// system of the list absent from the input is absent from the result.
	// Empty means every system.
	Systems []int
}

// ErrNoNodeData is returned (wrapped) by ReadLANL for a system whose rows
// give no node data (see LANLSystem.NoNodeData).
var ErrNoNodeData = errors.New("trace: no node data")

// LANLSystem is one system read from a LANL failure log.
type LANLSystem struct {
	System int    // system id (column System)
	Trace  *Trace // one node per processor slot 0..nodes−1, indexed by nodenumz; nil with NoNodeData

	// NoNodeData reports a system whose rows leave the nodes column (and
	// with it nodenumz, node prod and node decom) empty: system 17 of the
	// full release gives only its rows' times, down time and cause. Such
	// a system has no trace (Trace is nil): which node was down, and
	// how many nodes could have been, is unknown.
	NoNodeData bool

	Records   int             // rows of this system in the input
	SameEvent int             // of those, rows with Same Event = Yes
	Skipped   []SkippedRecord // rows that contribute nothing to the trace, by line

	// BeforeTracking is the number of nodes whose node prod column says
	// "before tracking": in production before the log starts, their window
	// opens at LogStart.
	BeforeTracking int
	// LogStart is the start of this system's log: the first instant
	// (Mountain Time) of the month of its earliest Prob Started.
	LogStart float64
}

// SkippedRecord is a well-formed row of a LANL log that the reader left
// out of the trace, and why.
type SkippedRecord struct {
	Line   int
	Reason string
}

// ReadLANL reads a LANL failure log in CSV form (see the package
// documentation for the columns and every interpretation rule) and returns
// the trace of one system. It reads the whole input, so a malformed row of
// any system is an error, and the default observation end is the latest time
// of any system (see LANLSettings). ReadLANLSystems gives the same traces
// with the record counts and the list of skipped rows.
//
// Rows of other systems are checked for their System column only
// (LANLSettings.Systems); a system without node data is an error wrapping
// ErrNoNodeData.
func ReadLANL(r io.Reader, system int) (*Trace, error) {
	all, err := ReadLANLSystems(r, &LANLSettings{Systems: []int{system}})
	if err != nil {
		return nil, err
	}
	for _, s := range all {
		if s.System == system {
			if s.NoNodeData {
				return nil, fmt.Errorf("%w for LANL system %d: its rows leave the nodes column empty", ErrNoNodeData, system)
			}
			return s.Trace, nil
		}
	}
	return nil, fmt.Errorf("trace: system %d not in the LANL input", system)
}

// lanlColumns are the columns the reader uses; the others are ignored.
// "Same Event" may be absent (every row then counts as "No"), and so may
// the cause columns (from colCause on, in the order of causeColumns).
var lanlColumns = []string{"System", "nodes", "nodenumz", "node prod", "node decom", "Prob Started", "Prob Fixed", "Same Event",
	"Facilities", "Hardware", "Human Error", "Network", "Undetermined", "Software"}

// causeColumns are the causes of the cause columns of lanlColumns, from
// colCause on.
var causeColumns = []Cause{Facilities, Hardware, HumanError, Network, Undetermined, Software}

const (
	colSystem = iota
	colNodes
	colNode
	colProd
	colDecom
	colStarted
	colFixed
	colSame
	colCause // the first cause column
)

// lanlRow is one parsed row.
type lanlRow struct {
	line                int
	system, nodes, node int
	prod                int64 // start of the production month
	beforeTracking      bool  // node prod = before tracking (prod unused)
	decom               int64 // start of the month after the decommission month
	current             bool  // node decom = current
	started, fixed      int64
	open                bool // Prob Fixed empty
	same                bool
	cause               Cause
}

// ReadLANLSystems reads a LANL failure log and returns every system in it,
// sorted by system id. A nil s means default settings.
// Gzip-compressed input is decompressed transparently.
func ReadLANLSystems(r io.Reader, s *LANLSettings) ([]LANLSystem, error) {
	r, err := maybeGzip(r)
	if err != nil {
		return nil, err
	}
	end, want, err := lanlSelection(s)
	if err != nil {
		return nil, err
	}
	cr := csv.NewReader(newLineLimiter(r))
	cr.ReuseRecord = true
	header, err := cr.Read()
	if err != nil {
		if errors.Is(err, io.EOF) {
			return nil, &ParseError{Line: 1, Err: errors.New("empty input, want a header line")}
		}
		return nil, csvError(err, 1)
	}
	idx, err := lanlHeader(header)
	if err != nil {
		return nil, err
	}
	lr, err := readLANLRows(cr, idx, want)
	if err != nil {
		return nil, err
	}
	if end == 0 {
		end = float64(lr.latest)
	}
	bySystem := map[int][]lanlRow{}
	for _, row := range lr.rows {
		bySystem[row.system] = append(bySystem[row.system], row)
	}
	ids := make([]int, 0, len(bySystem))
	for id := range bySystem {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	out := make([]LANLSystem, 0, len(ids))
	for _, id := range ids {
		sys, err := buildLANLSystem(id, bySystem[id], end)
		if err != nil {
			return nil, err
		}
		out = append(out, sys)
	}
	return out, nil
}

// lanlSelection returns the end of the log LANLSettings fixes (0: the
// latest time in it) and the systems it asks for (nil: every system).
func lanlSelection(s *LANLSettings) (end float64, want map[int]bool, err error) {
	if s == nil {
		return 0, nil, nil
	}
	if !finite(s.End) || s.End < 0 {
		return 0, nil, fmt.Errorf("trace: LANLSettings.End %v is not a finite non-negative time", s.End)
	}
	if len(s.Systems) > 0 {
		want = make(map[int]bool, len(s.Systems))
		for _, id := range s.Systems {
			want[id] = true
		}
	}
	return s.End, want, nil
}

// lanlRows are the rows of the systems asked for, and the latest time in
// the whole log (of every system).
type lanlRows struct {
	rows   []lanlRow
	latest int64
}

// readLANLRows reads the records after the header: those of the systems
// in want (every system when want is nil), checking that each system
// keeps its node count.
func readLANLRows(cr *csv.Reader, idx []int, want map[int]bool) (lanlRows, error) {
	name := func(col int) string { return lanlColumns[col] }
	lr := lanlRows{latest: math.MinInt64}
	nodesOf := map[int]lanlRow{} // first row of each system
	line := 1
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			return lr, nil
		}
		if err != nil {
			return lr, csvError(err, line+1)
		}
		line, _ = cr.FieldPos(0)
		if want != nil {
			id, err := atoi(lanlField(rec, idx, colSystem), 0)
			if err != nil {
				return lr, &ParseError{Line: line, Column: name(colSystem), Err: err}
			}
			if !want[id] {
				// Not asked for: its times, when they parse, still
				// tell where the log ends.
				if t, err := parseStamp(lanlField(rec, idx, colStarted)); err == nil {
					lr.latest = max(lr.latest, t)
				}
				if t, err := parseStamp(lanlField(rec, idx, colFixed)); err == nil {
					lr.latest = max(lr.latest, t)
				}
				continue
			}
		}
		row, col, err := parseLANLRow(rec, idx, line)
		if err != nil {
			return lr, &ParseError{Line: line, Column: name(col), Err: err}
		}
		if first, ok := nodesOf[row.system]; !ok {
			nodesOf[row.system] = row
		} else if first.nodes != row.nodes {
			return lr, &ParseError{Line: line, Column: name(colNodes),
				Err: fmt.Errorf("system %d has %s here but %s on line %d", row.system, nodeCount(row.nodes), nodeCount(first.nodes), first.line)}
		}
		lr.latest = max(lr.latest, row.started)
		if !row.open {
			lr.latest = max(lr.latest, row.fixed)
		}
		lr.rows = append(lr.rows, row)
	}
}

// csvError turns an encoding/csv error into a ParseError. Any other error
// (a truncated or corrupt gzip stream, a failing reader) is reported at
// line, the line after the last one read.
func csvError(err error, line int) error {
	var long *ParseError
	if errors.As(err, &long) {
		return long
	}
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return &ParseError{Line: pe.Line, Err: pe.Err}
	}
	return &ParseError{Line: line, Err: fmt.Errorf("reading the input: %w", err)}
}

// lanlHeader maps each of lanlColumns to its field index (−1 for an absent
// optional column). Names match after trimming spaces, ignoring case.
func lanlHeader(header []string) ([]int, error) {
	idx := make([]int, len(lanlColumns))
	for c := range idx {
		idx[c] = -1
	}
	for f, h := range header {
		h = strings.TrimSpace(strings.TrimPrefix(h, "\ufeff"))
		for c, want := range lanlColumns {
			if !strings.EqualFold(h, want) {
				continue
			}
			if idx[c] >= 0 {
				return nil, &ParseError{Line: 1, Column: want, Err: errors.New("column appears twice in the header")}
			}
			idx[c] = f
		}
	}
	for c, want := range lanlColumns {
		if idx[c] < 0 && c < colSame {
			return nil, &ParseError{Line: 1, Column: want, Err: errors.New("required column missing from the header")}
		}
	}
	return idx, nil
}

// lanlField is the trimmed field of column col ("" for an absent optional
// column).
func lanlField(rec []string, idx []int, col int) string {
	if idx[col] < 0 {
		return ""
	}
	return strings.TrimSpace(rec[idx[col]])
}

// nodeCount describes a row's node count: "no node data" for 0.
func nodeCount(n int) string {
	if n == 0 {
		return "no node data"
	}
	return fmt.Sprintf("%d nodes", n)
}

// parseLANLRow parses one record; on error it returns the faulty column.
// A row whose nodes column is empty has no node data (nodes 0): its
// nodenumz, node prod and node decom must be empty too.
func parseLANLRow(rec []string, idx []int, line int) (lanlRow, int, error) {
	field := func(col int) string { return lanlField(rec, idx, col) }
	row := lanlRow{line: line}
	var err error
	if row.system, err = atoi(field(colSystem), 0); err != nil {
		return row, colSystem, err
	}
	if field(colNodes) == "" {
		for _, col := range []int{colNode, colProd, colDecom} {
			if v := field(col); v != "" {
				return row, col, fmt.Errorf("%s with the nodes column empty (a row without node data)", quote.Value(v))
			}
		}
		return parseLANLTimes(row, field)
	}
	if row.nodes, err = atoiNodes(field(colNodes)); err != nil {
		return row, colNodes, err
	}
	if row.node, err = atoi(field(colNode), 0); err != nil {
		return row, colNode, err
	}
	if p := field(colProd); isBeforeTracking(p) {
		row.beforeTracking = true
	} else if row.prod, err = monthStart(p, 0); err != nil {
		return row, colProd, fmt.Errorf("%w, or %q", err, "before tracking")
	}
	if d := field(colDecom); strings.EqualFold(d, "current") {
		row.current = true
	} else {
		if row.decom, err = monthStart(d, 1); err != nil {
			return row, colDecom, err
		}
		if !row.beforeTracking && row.decom <= row.prod {
			return row, colDecom, fmt.Errorf("node leaves production (%s) before it enters (%s)", d, field(colProd))
		}
	}
	return parseLANLTimes(row, field)
}

// parseLANLTimes parses the columns every row has: Prob Started, Prob
// Fixed and Same Event.
func parseLANLTimes(row lanlRow, field func(int) string) (lanlRow, int, error) {
	var err error
	if row.started, err = parseStamp(field(colStarted)); err != nil {
		return row, colStarted, err
	}
	if f := field(colFixed); f == "" {
		row.open = true
	} else {
		if row.fixed, err = parseStamp(f); err != nil {
			return row, colFixed, err
		}
		if row.fixed < row.started {
			return row, colFixed, fmt.Errorf("%s is before Prob Started %s", f, field(colStarted))
		}
	}
	switch v := field(colSame); {
	case strings.EqualFold(v, "yes"):
		row.same = true
	case v == "" || strings.EqualFold(v, "no"):
	default:
		return row, colSame, fmt.Errorf("%s is neither Yes nor No", quote.Value(v))
	}
	// The cause: the first non-empty cause column (the release fills one).
	for k, c := range causeColumns {
		if field(colCause+k) != "" {
			row.cause = c
			break
		}
	}
	return row, 0, nil
}

// isBeforeTracking reports whether a date column says "before tracking"
// (any case, words separated by any run of spaces).
func isBeforeTracking(s string) bool {
	f := strings.Fields(s)
	return len(f) == 2 && strings.EqualFold(f[0], "before") && strings.EqualFold(f[1], "tracking")
}

// nodeWindow is the production window of one node and the row it comes from.
type nodeWindow struct {
	row   *lanlRow
	start float64
	end   float64
}

// buildLANLSystem turns the rows of one system into its trace.
func buildLANLSystem(id int, rows []lanlRow, end float64) (LANLSystem, error) {
	sys := LANLSystem{System: id, Records: len(rows)}
	n := rows[0].nodes
	if n == 0 {
		for k := range rows {
			if rows[k].same {
				sys.SameEvent++
			}
		}
		sys.NoNodeData = true
		return sys, nil
	}
	first := rows[0].started
	for _, row := range rows {
		first = min(first, row.started)
	}
	logStart, err := logMonth(first)
	if err != nil {
		return sys, fmt.Errorf("trace: LANL system %d: %w", id, err)
	}
	sys.LogStart = float64(logStart)
	windows, err := sys.windows(rows, n, end)
	if err != nil {
		return sys, err
	}
	nodes := sys.outages(rows, windows, sameEventLabels(rows))
	slices.SortFunc(sys.Skipped, func(a, b SkippedRecord) int { return a.Line - b.Line })
	tr, err := New(nodes)
	if err != nil {
		return sys, fmt.Errorf("trace: LANL system %d: %w", id, err)
	}
	sys.Trace = tr
	return sys, nil
}

// windows returns the production window of each of the n nodes from
// their rows (a node without rows takes the first row's window), counting
// the rows that repeat an event or start before tracking and skipping
// those of nodes beyond n; the rows of a node must agree on its window.
func (sys *LANLSystem) windows(rows []lanlRow, n int, end float64) ([]*nodeWindow, error) {
	windowOf := func(row *lanlRow) *nodeWindow { return windowOf(row, sys.LogStart, end) }
	windows := make([]*nodeWindow, n)
	for k := range rows {
		row := &rows[k]
		if row.same {
			sys.SameEvent++
		}
		if row.node >= n {
			sys.Skipped = append(sys.Skipped, SkippedRecord{Line: row.line,
				Reason: fmt.Sprintf("nodenumz %d is not below nodes %d", row.node, n)})
			continue
		}
		w := windows[row.node]
		if w == nil {
			windows[row.node] = windowOf(row)
			if row.beforeTracking {
				sys.BeforeTracking++
			}
			continue
		}
		if w.row.prod != row.prod || w.row.beforeTracking != row.beforeTracking {
			return nil, &ParseError{Line: row.line, Column: lanlColumns[colProd],
				Err: fmt.Errorf("node %d enters production in another month on line %d", row.node, w.row.line)}
		}
		if w.row.current != row.current || w.row.decom != row.decom {
			return nil, &ParseError{Line: row.line, Column: lanlColumns[colDecom],
				Err: fmt.Errorf("node %d leaves production in another month on line %d", row.node, w.row.line)}
		}
	}
	fillWindows(windows, windowOf(&rows[0]))
	return windows, nil
}

// outages returns the nodes with their windows and outages (labels[k]
// the event label of row k), skipping the rows of nodes beyond the
// windows and the outages outside their node's window.
func (sys *LANLSystem) outages(rows []lanlRow, windows []*nodeWindow, labels []int) []Node {
	nodes := make([]Node, len(windows))
	for i, w := range windows {
		nodes[i] = Node{Start: w.start, End: w.end}
	}
	for k := range rows {
		row := &rows[k]
		if row.node >= len(nodes) {
			continue
		}
		nd := &nodes[row.node]
		iv := Interval{Start: float64(row.started), End: float64(row.fixed), Event: labels[k], Cause: row.cause}
		if row.open {
			iv.End = math.Max(iv.Start, nd.End)
		}
		if _, ok := clip(iv, nd.Start, nd.End); !ok {
			sys.Skipped = append(sys.Skipped, SkippedRecord{Line: row.line,
				Reason: fmt.Sprintf("outage [%s, %s) outside the production window [%s, %s)",
					utc(iv.Start), utc(iv.End), utc(nd.Start), utc(nd.End))})
			continue
		}
		nd.Down = append(nd.Down, iv)
	}
	return nodes
}

// sameEventLabels returns the Event label of each row: rows marked Same
// Event = Yes share a label with the row they repeat, the latest row of the
// system marked No whose Prob Started is at or before theirs (the earliest
// line on a tie); a Yes row with no such row starts a group of its own.
// Rows of groups without a Yes row get 0 (no label).
func sameEventLabels(rows []lanlRow) []int {
	labels := make([]int, len(rows))
	order := make([]int, len(rows))
	for k := range order {
		order[k] = k
	}
	slices.SortStableFunc(order, func(a, b int) int {
		if c := cmp.Compare(rows[a].started, rows[b].started); c != 0 {
			return c
		}
		return cmp.Compare(rows[a].line, rows[b].line)
	})
	anchor, next := -1, 0
	lastStart := int64(math.MinInt64)
	for _, k := range order {
		row := &rows[k]
		if !row.same {
			if anchor < 0 || row.started != lastStart {
				anchor, lastStart = k, row.started
			}
			continue
		}
		if anchor < 0 {
			anchor, lastStart = k, row.started
		}
		if labels[anchor] == 0 {
			next++
			labels[anchor] = next
		}
		labels[k] = labels[anchor]
	}
	return labels
}

// logMonth returns the first instant, Mountain Time, of the month of the
// Unix time t.
func logMonth(t int64) (int64, error) {
	den := time.Unix(t-7*3600, 0).UTC() // standard time; the month start is what counts
	return mountainUnix(den.Year(), den.Month(), 1, 0, 0)
}

// windowOf is the production window a row gives its node, cut at the
// observation end (an empty window at end when production starts later).
// A node in production before tracking starts at logStart.
func windowOf(row *lanlRow, logStart, end float64) *nodeWindow {
	w := &nodeWindow{row: row, start: float64(row.prod), end: end}
	if row.beforeTracking {
		w.start = logStart
	}
	if !row.current {
		w.end = math.Min(w.end, float64(row.decom))
	}
	w.start = math.Min(w.start, w.end)
	return w
}

// fillWindows gives each node without records the window of the nearest
// node with records (the lower-numbered one on a tie), or fallback when no
// node has records.
func fillWindows(windows []*nodeWindow, fallback *nodeWindow) {
	known := make([]int, 0, len(windows))
	for i, w := range windows {
		if w != nil {
			known = append(known, i)
		}
	}
	if len(known) == 0 {
		for i := range windows {
			windows[i] = fallback
		}
		return
	}
	k := 0 // known[k] is the first node with records at or after i
	for i := range windows {
		for k < len(known) && known[k] < i {
			k++
		}
		if windows[i] != nil {
			continue
		}
		switch {
		case k == 0:
			windows[i] = windows[known[0]]
		case k == len(known):
			windows[i] = windows[known[k-1]]
		case i-known[k-1] <= known[k]-i:
			windows[i] = windows[known[k-1]]
		default:
			windows[i] = windows[known[k]]
		}
	}
}

func utc(sec float64) string {
	return time.Unix(int64(sec), 0).UTC().Format(time.RFC3339)
}

var monthNames = [...]string{"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"}

// monthStart parses a month in either LANL spelling, "Mon-YY" (Nov-96:
// November 1996; YY >= 70 is 19YY, otherwise 20YY) or "Y-Mon" (1-Dec:
// December 2001, Y the last digit of a 200x year), and returns the first
// instant, Mountain Time, of that month plus skip months.
func monthStart(s string, skip int) (int64, error) {
	a, b, ok := strings.Cut(s, "-")
	if !ok {
		return 0, fmt.Errorf("%s is not a month: want Mon-YY (Nov-96) or Y-Mon (1-Dec)", quote.Value(s))
	}
	var year int
	var month time.Month
	switch {
	case len(a) == 3 && len(b) == 2 && isDigits(b):
		month = parseMonthName(a)
		year, _ = atoi(b, 0)
		if year >= 70 {
			year += 1900
		} else {
			year += 2000
		}
	case len(a) == 1 && isDigits(a) && len(b) == 3:
		month = parseMonthName(b)
		year = 2000 + int(a[0]-'0')
	}
	if month == 0 {
		return 0, fmt.Errorf("%s is not a month: want Mon-YY (Nov-96) or Y-Mon (1-Dec)", quote.Value(s))
	}
	month += time.Month(skip)
	if month > time.December {
		month -= 12
		year++
	}
	return mountainUnix(year, month, 1, 0, 0)
}

func parseMonthName(s string) time.Month {
	for i, m := range monthNames {
		if strings.EqualFold(s, m) {
			return time.Month(i + 1)
		}
	}
	return 0
}

// parseStamp parses a LANL time "M/D/YYYY H:MM", Mountain Time.
func parseStamp(s string) (int64, error) {
	bad := func() (int64, error) { return 0, fmt.Errorf("%s is not a time M/D/YYYY H:MM", quote.Value(s)) }
	date, clock, ok := strings.Cut(s, " ")
	if !ok {
		return bad()
	}
	ds := strings.Split(date, "/")
	hm := strings.Split(clock, ":")
	if len(ds) != 3 || len(hm) != 2 ||
		!digitsLen(ds[0], 1, 2) || !digitsLen(ds[1], 1, 2) || !digitsLen(ds[2], 4, 4) ||
		!digitsLen(hm[0], 1, 2) || !digitsLen(hm[1], 2, 2) {
		return bad()
	}
	mo, _ := atoi(ds[0], 0)
	d, _ := atoi(ds[1], 0)
	y, _ := atoi(ds[2], 0)
	h, _ := atoi(hm[0], 0)
	mi, _ := atoi(hm[1], 0)
	u, err := mountainUnix(y, time.Month(mo), d, h, mi)
	if err != nil {
		return 0, fmt.Errorf("%s: %v", quote.Value(s), err)
	}
	return u, nil
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

func digitsLen(s string, lo, hi int) bool {
	return len(s) >= lo && len(s) <= hi && isDigits(s)
}

// maxAtoi is the largest value atoi reads: 9 digits, so that no sum or
// product of a few of them overflows an int.
const maxAtoi = 999_999_999

// atoi parses a decimal integer of at most 9 digits, at least lo.
func atoi(s string, lo int) (int, error) {
	if isDigits(s) && len(s) > 9 {
		return 0, fmt.Errorf("%s is above the limit %d", quote.Value(s), maxAtoi)
	}
	if !digitsLen(s, 1, 9) {
		return 0, fmt.Errorf("%s is not a non-negative integer", quote.Value(s))
	}
	v := 0
	for i := 0; i < len(s); i++ {
		v = 10*v + int(s[i]-'0')
	}
	if v < lo {
		return 0, fmt.Errorf("%d is below %d", v, lo)
	}
	return v, nil
}

// atoiNodes parses a node count: 1 … MaxNodes.
func atoiNodes(s string) (int, error) {
	n, err := atoi(s, 1)
	if err == nil && n > MaxNodes || err != nil && isDigits(s) && len(s) > 9 {
		return 0, fmt.Errorf("%s nodes is above the limit %d", quote.Value(s), MaxNodes)
	}
	return n, err
}
