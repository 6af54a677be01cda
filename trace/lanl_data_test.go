package trace

import (
	"bytes"
	"cmp"
	"compress/gzip"
	"encoding/csv"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ckpt-markov/markov/internal/shareddata"
)

// lanlFile reads the LANL failure log that ships with the repository
// (gzip), decompressed with compress/gzip (not the reader's own detection).
func lanlFile(t testing.TB) []byte {
	t.Helper()
	f, err := os.Open(shareddata.LANL(t))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	data, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// rawRow is a row of the LANL file read with encoding/csv alone, with its
// two times converted by time.ParseInLocation and the IANA zone.
type rawRow struct {
	line           int
	f              map[string]string
	started, fixed float64
	ambiguous      bool // a wall time that occurs twice (see oracleStamp)
}

// lanlFixture is the real file, its raw rows and the reader's result,
// computed once for all tests.
type lanlFixture struct {
	data    []byte
	rows    []rawRow
	den     *time.Location
	systems []LANLSystem
}

var (
	fixtureOnce sync.Once
	fixture     lanlFixture
	fixtureErr  error
)

func loadFixture(t testing.TB) *lanlFixture {
	t.Helper()
	data := lanlFile(t)
	fixtureOnce.Do(func() {
		fixture.data = data
		if fixture.den, fixtureErr = time.LoadLocation("America/Denver"); fixtureErr != nil {
			return
		}
		if fixture.rows, fixtureErr = rawRows(data, fixture.den); fixtureErr != nil {
			return
		}
		fixture.systems, fixtureErr = ReadLANLSystems(bytes.NewReader(data), nil)
	})
	if fixtureErr != nil {
		t.Fatal(fixtureErr)
	}
	return &fixture
}

func rawRows(data []byte, den *time.Location) ([]rawRow, error) {
	recs, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil {
		return nil, err
	}
	rows := make([]rawRow, 0, len(recs)-1)
	for k, rec := range recs[1:] {
		r := rawRow{line: k + 2, f: map[string]string{}} // no quoted newlines in the file
		for c, name := range recs[0] {
			r.f[name] = rec[c]
		}
		var amb1, amb2 bool
		if r.started, amb1, err = oracleStamp(r.f["Prob Started"], den); err != nil {
			return nil, err
		}
		if r.fixed, amb2, err = oracleStamp(r.f["Prob Fixed"], den); err != nil {
			return nil, err
		}
		r.ambiguous = amb1 || amb2
		rows = append(rows, r)
	}
	return rows, nil
}

func mustAtoi(t testing.TB, s string) int {
	t.Helper()
	v, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// oracleMonth gives the first instant of a month in a LANL spelling, with
// time.Parse and the IANA zone: "Nov-96" via the layout "Jan-06", "1-Dec"
// as 2001 December.
func oracleMonth(t testing.TB, s string, den *time.Location, skip int) float64 {
	t.Helper()
	var y int
	var m time.Month
	if p, err := time.Parse("Jan-06", s); err == nil {
		y, m = p.Year(), p.Month()
	} else {
		digit, name, _ := strings.Cut(s, "-")
		p, err := time.Parse("Jan", name)
		if err != nil {
			t.Fatalf("month %q: %v", s, err)
		}
		y, m = 2000+mustAtoi(t, digit), p.Month()
	}
	return float64(time.Date(y, m+time.Month(skip), 1, 0, 0, 0, 0, den).Unix())
}

// oracleStamp converts a LANL time with time.ParseInLocation and reports
// whether the wall time occurs twice (the instant an hour later reads the
// same). For those (two in the release) it gives the earlier instant where
// the reader gives the later, so exact comparisons leave them out.
func oracleStamp(s string, den *time.Location) (float64, bool, error) {
	p, err := time.ParseInLocation("1/2/2006 15:04", s, den)
	later := p.Add(time.Hour).In(den)
	return float64(p.Unix()), later.Hour() == p.Hour() && later.Minute() == p.Minute(), err
}

// TestLANLFile reads the real release and checks it against plain counts
// and conversions of the raw CSV rows (encoding/csv, time.Parse and the
// IANA America/Denver zone, not the reader's code).
func TestLANLFile(t *testing.T) {
	fx := loadFixture(t)
	rows, den, systems := fx.rows, fx.den, fx.systems

	type count struct{ records, same, nodes int }
	counts := map[int]*count{}
	bySystem := map[int][]rawRow{}
	obsEnd := 0.0
	for _, r := range rows {
		s := mustAtoi(t, r.f["System"])
		if counts[s] == nil {
			counts[s] = &count{nodes: mustAtoi(t, r.f["nodes"])}
		}
		counts[s].records++
		if r.f["Same Event"] == "Yes" {
			counts[s].same++
		}
		bySystem[s] = append(bySystem[s], r)
		obsEnd = max(obsEnd, r.started, r.fixed)
	}
	if len(systems) != len(counts) {
		t.Fatalf("%d systems, want %d", len(systems), len(counts))
	}
	for _, s := range systems {
		c := counts[s.System]
		if c == nil {
			t.Fatalf("system %d not in the file", s.System)
		}
		if s.Records != c.records || s.SameEvent != c.same || s.Trace.NumNodes() != c.nodes {
			t.Errorf("system %d: %d records, %d same-event, %d nodes; want %d, %d, %d",
				s.System, s.Records, s.SameEvent, s.Trace.NumNodes(), c.records, c.same, c.nodes)
		}
		// Skipped rows: those whose node number is not below the node
		// count; the release has no outage outside its node's window.
		var wantSkipped []int
		for _, r := range bySystem[s.System] {
			if mustAtoi(t, r.f["nodenumz"]) >= c.nodes {
				wantSkipped = append(wantSkipped, r.line)
			}
		}
		var gotSkipped []int
		for _, sk := range s.Skipped {
			gotSkipped = append(gotSkipped, sk.Line)
		}
		if !slices.Equal(gotSkipped, wantSkipped) {
			t.Errorf("system %d: skipped lines %v, want %v", s.System, gotSkipped, wantSkipped)
		}
		// Production windows of the nodes with rows.
		for _, r := range bySystem[s.System] {
			node := mustAtoi(t, r.f["nodenumz"])
			if node >= c.nodes {
				continue
			}
			start := oracleMonth(t, r.f["node prod"], den, 0)
			end := obsEnd
			if d := r.f["node decom"]; d != "current" {
				end = min(end, oracleMonth(t, d, den, 1))
			}
			if n := s.Trace.Node(node); n.Start != start || n.End != end {
				t.Fatalf("system %d node %d (line %d): window [%v, %v), want [%v, %v)",
					s.System, node, r.line, utc(n.Start), utc(n.End), utc(start), utc(end))
			}
		}
		checkInvariants(t, s.Trace)
	}
	// Rows with a wall time that occurs twice: read as standard time, the
	// outage must be as long as the release's own Down Time column says.
	ambiguous := 0
	for _, r := range rows {
		if !r.ambiguous {
			continue
		}
		ambiguous++
		a, _, _ := oracleStamp(r.f["Prob Started"], den)
		b, _, _ := oracleStamp(r.f["Prob Fixed"], den)
		if later := oracleLater(r.f["Prob Started"], den); later {
			a += 3600
		}
		if later := oracleLater(r.f["Prob Fixed"], den); later {
			b += 3600
		}
		if minutes := mustAtoi(t, r.f["Down Time"]); b-a != 60*float64(minutes) {
			t.Errorf("line %d: standard-time reading lasts %v s, Down Time says %d min", r.line, b-a, minutes)
		}
		sys := mustAtoi(t, r.f["System"])
		for _, s := range systems {
			if s.System == sys && !slices.Contains(withoutCauses(s.Trace.Node(mustAtoi(t, r.f["nodenumz"])).Down), Interval{Start: a, End: b}) {
				t.Errorf("line %d: outage [%v, %v) not in the trace", r.line, utc(a), utc(b))
			}
		}
	}
	if ambiguous != 2 {
		t.Errorf("%d rows with ambiguous times, want the 2 of the release", ambiguous)
	}

	// The release has one row that cannot be placed (system 11, node 578
	// of 256): make sure the skip check above had a subject.
	skipped := 0
	for _, s := range systems {
		skipped += len(s.Skipped)
	}
	if skipped == 0 {
		t.Error("no skipped row in the release: the skip check lost its subject")
	}
}

func oracleLater(s string, den *time.Location) bool {
	_, amb, _ := oracleStamp(s, den)
	return amb
}

// TestLANLFileOutages compares, for the busiest nodes of systems 18, 19
// and 20 whose rows neither overlap nor touch nor have a wall time that
// occurs twice, the outages of the trace
// with the raw rows sorted by start time.
func TestLANLFileOutages(t *testing.T) {
	fx := loadFixture(t)
	for _, sys := range fx.systems {
		if sys.System < 18 || sys.System > 20 {
			continue
		}
		raw := map[int][]Interval{}
		ambiguous := map[int]bool{}
		for _, r := range fx.rows {
			if mustAtoi(t, r.f["System"]) == sys.System {
				node := mustAtoi(t, r.f["nodenumz"])
				raw[node] = append(raw[node], Interval{Start: r.started, End: r.fixed})
				if r.ambiguous {
					ambiguous[node] = true
				}
			}
		}
		best, bestLen := -1, 0
		for node, ivs := range raw {
			slices.SortFunc(ivs, func(a, b Interval) int { return cmp.Compare(a.Start, b.Start) })
			clean := !ambiguous[node]
			for k, iv := range ivs {
				if iv.Start >= iv.End || (k > 0 && ivs[k-1].End >= iv.Start) {
					clean = false
				}
			}
			if clean && (len(ivs) > bestLen || len(ivs) == bestLen && node < best) {
				best, bestLen = node, len(ivs)
			}
		}
		if bestLen < 10 {
			t.Fatalf("system %d: no node with 10 clean rows", sys.System)
		}
		if got := withoutCauses(sys.Trace.Node(best).Down); !slices.Equal(got, raw[best]) {
			t.Errorf("system %d node %d: outages\n%v\nwant\n%v", sys.System, best, got, raw[best])
		}
	}
}

// TestLANLFileMerging checks the merged outages of the nodes of systems 16
// and 2 (many overlapping and duplicated rows) against a minute bitmap: the
// minutes covered by any raw row must be exactly the minutes of the merged
// outages, and each maximal run of covered minutes one outage. Nodes with
// zero-length rows (invisible in a bitmap) are left out.
func TestLANLFileMerging(t *testing.T) {
	fx := loadFixture(t)
	checked, overlapping := 0, 0
	for _, sys := range fx.systems {
		if sys.System != 16 && sys.System != 2 {
			continue
		}
		raw := map[int][]Interval{}
		for _, r := range fx.rows {
			if mustAtoi(t, r.f["System"]) == sys.System {
				node := mustAtoi(t, r.f["nodenumz"])
				raw[node] = append(raw[node], Interval{Start: r.started, End: r.fixed})
			}
		}
	nodes:
		for node, ivs := range raw {
			n := sys.Trace.Node(node)
			minutes := int((n.End - n.Start) / 60)
			covered := make([]bool, minutes)
			for _, iv := range ivs {
				if iv.Start == iv.End {
					continue nodes
				}
				for m := int((iv.Start - n.Start) / 60); m < int((iv.End-n.Start)/60); m++ {
					covered[m] = true
				}
			}
			var runs []Interval
			for m := 0; m < minutes; m++ {
				if covered[m] && (m == 0 || !covered[m-1]) {
					runs = append(runs, Interval{Start: n.Start + 60*float64(m)})
				}
				if covered[m] && (m == minutes-1 || !covered[m+1]) {
					runs[len(runs)-1].End = n.Start + 60*float64(m+1)
				}
			}
			if !slices.Equal(withoutCauses(n.Down), runs) {
				t.Errorf("system %d node %d: merged outages differ from the bitmap runs\n%v\n%v", sys.System, node, n.Down, runs)
			}
			checked++
			if len(runs) < len(ivs) {
				overlapping++
			}
		}
	}
	if checked < 50 || overlapping < 30 {
		t.Errorf("checked %d nodes, %d with merges: the test lost its subject", checked, overlapping)
	}
}

// TestLANLFileNodeWindows checks the windows given to nodes without rows in
// system 8 (rows for nodes 0–79 from April 2001 and 83–163 from December
// 2002): nodes 80 and 81 are nearest to 79, node 82 to 83.
func TestLANLFileNodeWindows(t *testing.T) {
	tr, err := ReadLANL(bytes.NewReader(loadFixture(t).data), 8)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ node, like int }{{80, 79}, {81, 79}, {82, 83}, {15, 14}} {
		if a, b := tr.Node(c.node), tr.Node(c.like); a.Start != b.Start || a.End != b.End || len(a.Down) != 0 {
			t.Errorf("node %d: %+v, want the window of node %d [%v, %v) and no outage", c.node, a, c.like, b.Start, b.End)
		}
	}
	if tr.Node(79).Start == tr.Node(83).Start {
		t.Error("nodes 79 and 83 share a production start; the test lost its subject")
	}
}

// TestLANLFileEstimates logs the whole-history estimates for systems 18, 19
// and 20 (for the record; their correctness rests on the estimator tests)
// and checks they are finite with positive intervals.
func TestLANLFileEstimates(t *testing.T) {
	for _, s := range loadFixture(t).systems {
		if s.System < 18 || s.System > 20 {
			continue
		}
		start, end := s.Trace.Window()
		e, err := EstimateRates(s.Trace, end, nil)
		if err != nil {
			t.Fatal(err)
		}
		outages := 0
		for i := range s.Trace.NumNodes() {
			outages += len(s.Trace.Node(i).Down)
		}
		t.Logf("system %d: %d records, %d nodes, %d outages after merging, window [%s, %s)",
			s.System, s.Records, s.Trace.NumNodes(), outages, utc(start), utc(end))
		t.Logf("  λ̂ = %.4g/s from %d failures in %.4g node-days up: MTTF %.2f days (95%%: %.2f–%.2f)",
			e.Failure.Value, e.Failure.Events, e.Failure.Exposure/86400,
			1/e.Failure.Value/86400, 1/e.Failure.High/86400, 1/e.Failure.Low/86400)
		t.Logf("  θ̂ = %.4g/s from %d repairs in %.4g node-hours down: MTTR %.2f h (95%%: %.2f–%.2f)",
			e.Repair.Value, e.Repair.Events, e.Repair.Exposure/3600,
			1/e.Repair.Value/3600, 1/e.Repair.High/3600, 1/e.Repair.Low/3600)
		if !(e.Failure.Low > 0 && e.Failure.High > e.Failure.Low && e.Repair.Low > 0 && e.Repair.High > e.Repair.Low) {
			t.Errorf("system %d: degenerate estimate %+v", s.System, e)
		}
	}
}

func BenchmarkReadLANL(b *testing.B) {
	data := lanlFile(b)
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := ReadLANLSystems(bytes.NewReader(data), nil); err != nil {
			b.Fatal(err)
		}
	}
}

// withoutCauses returns a copy of the outages with their causes cleared,
// for comparison with oracles that read the times only (the causes have
// their own test, TestReadLANLCauses).
func withoutCauses(ivs []Interval) []Interval {
	out := slices.Clone(ivs)
	for k := range out {
		out[k].Cause = UnknownCause
	}
	return out
}
