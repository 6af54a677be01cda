package trace

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"
)

// lanlHead is the header line of the LANL release.
const lanlHead = "System,machine type,nodes,procstot,procsinnode,nodenum,nodenumz,node install,node prod,node decom,fru type,mem,cputype,memtype,num intercon,purpose,Prob Started,Prob Fixed,Down Time,Facilities,Hardware,Human Error,Network,Undetermined,Software,Same Event\n"

// lanlRowText builds one row of the release's layout from the fields the
// reader uses; the others get plausible filler.
func lanlRowText(system, nodes, node, prod, decom, started, fixed, same string) string {
	return strings.Join([]string{system, "cluster", nodes, "8", "4", node, node, prod, prod, decom,
		"part", "4", "1", "1", "0", "compute", started, fixed, "0", "", "Memory", "", "", "", "", same}, ",") + "\n"
}

// denver returns the instant of a Mountain Time wall clock, computed with
// the IANA zone (the oracle for the reader's own time zone rules).
func denver(t testing.TB, y int, m time.Month, d, h, mi int) float64 {
	t.Helper()
	loc, err := time.LoadLocation("America/Denver")
	if err != nil {
		t.Fatal(err)
	}
	return float64(time.Date(y, m, d, h, mi, 0, 0, loc).Unix())
}

func TestReadLANLCrafted(t *testing.T) {
	in := lanlHead +
		lanlRowText("5", "4", "2", "1-Dec", "3-Feb", "5/1/2002 10:00", "5/1/2002 12:30", "No") + // line 2
		lanlRowText("5", "4", "0", "Nov-96", "current", "1/5/1998 8:00", "1/6/1998 9:15", "No") + // 3
		lanlRowText("5", "4", "0", "Nov-96", "current", "3/3/1997 1:00", "3/3/1997 1:00", "No") + // 4: zero length
		lanlRowText("5", "4", "0", "Nov-96", "current", "1/5/1998 8:00", "1/6/1998 9:15", "Yes") + // 5: repeat
		lanlRowText("5", "4", "0", "Nov-96", "current", "1/6/1998 9:00", "1/7/1998 0:00", "no") + // 6: overlaps 3
		lanlRowText("5", "4", "0", "Nov-96", "current", "10/27/2002 1:36", "10/27/2002 5:27", "") + // 7: ambiguous start
		lanlRowText("5", "4", "3", "Nov-96", "current", "8/1/2003 6:00", "", "No") + // 8: still open
		lanlRowText("5", "4", "2", "1-Dec", "3-Feb", "11/2/2001 10:00", "11/3/2001 12:30", "No") + // 9: before production
		lanlRowText("5", "4", "7", "Nov-96", "current", "8/1/2003 6:00", "8/1/2003 7:00", "No") + // 10: no such node
		lanlRowText("5", "4", "2", "1-Dec", "3-Feb", "11/30/2001 10:00", "12/3/2001 12:30", "No") + // 11: straddles the start
		lanlRowText("3", "1", "0", "Mar-99", "current", "3/5/1999 10:00", "3/5/1999 10:30", "No") + // 12: another system
		lanlRowText("5", "4", "0", "Nov-96", "current", "9/9/2005 11:00", "9/9/2005 11:55", "No") // 13: the last time
	systems, err := ReadLANLSystems(strings.NewReader(in), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(systems) != 2 || systems[0].System != 3 || systems[1].System != 5 {
		t.Fatalf("systems %+v, want 3 and 5 in order", systems)
	}
	s := systems[1]
	if s.Records != 11 || s.SameEvent != 1 {
		t.Errorf("Records %d SameEvent %d, want 11 and 1", s.Records, s.SameEvent)
	}
	wantSkipped := []int{9, 10}
	if len(s.Skipped) != len(wantSkipped) {
		t.Fatalf("skipped %+v, want lines %v", s.Skipped, wantSkipped)
	}
	for k, sk := range s.Skipped {
		if sk.Line != wantSkipped[k] {
			t.Errorf("skipped %+v, want lines %v", s.Skipped, wantSkipped)
		}
	}

	end := denver(t, 2005, 9, 9, 11, 55) // latest time of the input
	nov96 := denver(t, 1996, 11, 1, 0, 0)
	dec01 := denver(t, 2001, 12, 1, 0, 0)
	mar03 := denver(t, 2003, 3, 1, 0, 0) // the month after 3-Feb
	want := []Node{
		{nov96, end, []Interval{
			{Start: denver(t, 1997, 3, 3, 1, 0), End: denver(t, 1997, 3, 3, 1, 0)},
			// Rows 3, 5 (Same Event = Yes: repeats row 3) and 6 merge; the
			// outage keeps the label of the group of rows 3 and 5.
			{Start: denver(t, 1998, 1, 5, 8, 0), End: denver(t, 1998, 1, 7, 0, 0), Event: 1},
			// 1:36 occurs twice that night: read as standard time, the later one.
			{Start: denver(t, 2002, 10, 27, 1, 36) + 3600, End: denver(t, 2002, 10, 27, 5, 27)},
			{Start: denver(t, 2005, 9, 9, 11, 0), End: end},
		}},
		{nov96, end, nil}, // no rows: the window of node 0 (tie between 0 and 2)
		{dec01, mar03, []Interval{
			{Start: dec01, End: denver(t, 2001, 12, 3, 12, 30)},
			{Start: denver(t, 2002, 5, 1, 10, 0), End: denver(t, 2002, 5, 1, 12, 30)},
		}},
		{nov96, end, []Interval{{Start: denver(t, 2003, 8, 1, 6, 0), End: end}}},
	}
	for i, w := range want {
		if got := hardwareOutages(t, s.Trace.Node(i)); !reflect.DeepEqual(got, w) {
			t.Errorf("node %d:\n got %+v\nwant %+v", i, got, w)
		}
	}
	// The outage cut at the window end is not repaired; the one at the
	// start is no failure.
	if ev, ok := s.Trace.NextEvent(3, denver(t, 2003, 8, 1, 6, 0)); ok {
		t.Errorf("node 3: event %v after its open outage", ev)
	}
	if ev, _ := s.Trace.NextEvent(2, 0); ev.Kind != Repair {
		t.Errorf("node 2: first event %v, want the repair of the outage it starts in", ev)
	}

	// ReadLANL gives the same trace; an explicit end moves "current".
	tr, err := ReadLANL(strings.NewReader(in), 5)
	if err != nil || !reflect.DeepEqual(tr, s.Trace) {
		t.Errorf("ReadLANL: %v, trace differs: %v", err, !reflect.DeepEqual(tr, s.Trace))
	}
	if _, err := ReadLANL(strings.NewReader(in), 4); err == nil {
		t.Error("ReadLANL of an absent system succeeded")
	}
	later := denver(t, 2005, 12, 1, 0, 0)
	systems, err = ReadLANLSystems(strings.NewReader(in), &LANLSettings{End: later})
	if err != nil {
		t.Fatal(err)
	}
	if n := systems[1].Trace.Node(0); n.End != later || n.Down[3].End != denver(t, 2005, 9, 9, 11, 55) {
		t.Errorf("with End set: node 0 window ends %v, last outage %v", n.End, n.Down[3])
	}
	if n := systems[1].Trace.Node(2); n.End != mar03 {
		t.Errorf("with End set: node 2 window end %v, want its decommission %v", n.End, mar03)
	}
	early := denver(t, 1999, 1, 1, 0, 0) // before node 2 enters production
	systems, err = ReadLANLSystems(strings.NewReader(in), &LANLSettings{End: early})
	if err != nil {
		t.Fatal(err)
	}
	if n := systems[1].Trace.Node(2); n.Start != early || n.End != early || len(n.Down) != 0 {
		t.Errorf("with an early End: node 2 = %+v, want an empty window at End", n)
	}
}

// TestReadLANLNearestWindow checks the windows given to nodes without rows.
func TestReadLANLNearestWindow(t *testing.T) {
	in := lanlHead +
		lanlRowText("8", "8", "1", "1-Apr", "current", "5/1/2001 1:00", "5/1/2001 2:00", "No") +
		lanlRowText("8", "8", "5", "2-Dec", "current", "1/1/2003 1:00", "1/1/2003 2:00", "No")
	tr, err := ReadLANL(strings.NewReader(in), 8)
	if err != nil {
		t.Fatal(err)
	}
	apr01, dec02 := denver(t, 2001, 4, 1, 0, 0), denver(t, 2002, 12, 1, 0, 0)
	// Node: 0 1 2 3 4 5 6 7; nearest with rows: 1 1 1 1(tie) 5 5 5 5.
	want := []float64{apr01, apr01, apr01, apr01, dec02, dec02, dec02, dec02}
	for i, w := range want {
		if got := tr.Node(i).Start; got != w {
			t.Errorf("node %d starts %v, want %v", i, got, w)
		}
	}
}

func TestReadLANLErrors(t *testing.T) {
	ok := func(node, prod, decom, started, fixed string) string {
		return lanlRowText("2", "4", node, prod, decom, started, fixed, "No")
	}
	good := ok("0", "Nov-96", "current", "1/5/1998 8:00", "1/6/1998 9:15")
	for _, c := range []struct {
		name, in string
		line     int
		column   string
	}{
		{"empty", "", 1, ""},
		{"missing column", strings.Replace(lanlHead, "Prob Fixed", "Fixed", 1) + good, 1, "Prob Fixed"},
		{"twice", strings.Replace(lanlHead, "Down Time", "prob fixed", 1) + good, 1, "Prob Fixed"},
		{"field count", lanlHead + good + "2,cluster\n", 3, ""},
		{"bad quote", lanlHead + good + "2,\"clu\"ster" + good[9:], 3, ""},
		{"system", lanlHead + strings.Replace(good, "2", "x", 1), 2, "System"},
		{"nodes zero", lanlHead + lanlRowText("2", "0", "0", "Nov-96", "current", "1/5/1998 8:00", "1/6/1998 9:15", "No"), 2, "nodes"},
		{"nodes huge", lanlHead + lanlRowText("2", "999999999", "0", "Nov-96", "current", "1/5/1998 8:00", "1/6/1998 9:15", "No"), 2, "nodes"},
		{"nodes differ", lanlHead + good + lanlRowText("2", "5", "0", "Nov-96", "current", "1/5/1998 8:00", "1/6/1998 9:15", "No"), 3, "nodes"},
		{"node negative", lanlHead + ok("-1", "Nov-96", "current", "1/5/1998 8:00", "1/6/1998 9:15"), 2, "nodenumz"},
		{"node text", lanlHead + ok("one", "Nov-96", "current", "1/5/1998 8:00", "1/6/1998 9:15"), 2, "nodenumz"},
		{"prod long month", lanlHead + ok("0", "November-96", "current", "1/5/1998 8:00", "1/6/1998 9:15"), 2, "node prod"},
		{"prod two digits", lanlHead + ok("0", "12-Dec", "current", "1/5/2013 8:00", "1/6/2013 9:15"), 2, "node prod"},
		{"prod four digits", lanlHead + ok("0", "Nov-1996", "current", "1/5/1998 8:00", "1/6/1998 9:15"), 2, "node prod"},
		{"prod month name", lanlHead + ok("0", "Foo-96", "current", "1/5/1998 8:00", "1/6/1998 9:15"), 2, "node prod"},
		{"prod empty", lanlHead + ok("0", "", "current", "1/5/1998 8:00", "1/6/1998 9:15"), 2, "node prod"},
		{"prod before tracking misspelt", lanlHead + ok("0", "before trackin", "current", "1/5/1998 8:00", "1/6/1998 9:15"), 2, "node prod"},
		{"prod before tracking glued", lanlHead + ok("0", "beforetracking", "current", "1/5/1998 8:00", "1/6/1998 9:15"), 2, "node prod"},
		{"decom before tracking", lanlHead + ok("0", "Nov-96", "before tracking", "1/5/1998 8:00", "1/6/1998 9:15"), 2, "node decom"},
		{"prod before tracking then a month", lanlHead + ok("0", "before tracking", "current", "1/5/1998 8:00", "1/6/1998 9:15") +
			ok("0", "Nov-96", "current", "2/5/1998 8:00", "2/6/1998 9:15"), 3, "node prod"},
		{"decom bad", lanlHead + ok("0", "Nov-96", "soon", "1/5/1998 8:00", "1/6/1998 9:15"), 2, "node decom"},
		{"decom first", lanlHead + ok("0", "Nov-96", "Oct-96", "1/5/1998 8:00", "1/6/1998 9:15"), 2, "node decom"},
		{"month 13", lanlHead + ok("0", "Nov-96", "current", "13/5/1998 8:00", "1/6/1998 9:15"), 2, "Prob Started"},
		{"30 Feb", lanlHead + ok("0", "Nov-96", "current", "2/30/1998 8:00", "1/6/1998 9:15"), 2, "Prob Started"},
		{"short year", lanlHead + ok("0", "Nov-96", "current", "1/5/98 8:00", "1/6/1998 9:15"), 2, "Prob Started"},
		{"hour 24", lanlHead + ok("0", "Nov-96", "current", "1/5/1998 24:00", "1/6/1998 9:15"), 2, "Prob Started"},
		{"one-digit minute", lanlHead + ok("0", "Nov-96", "current", "1/5/1998 8:0", "1/6/1998 9:15"), 2, "Prob Started"},
		{"no clock", lanlHead + ok("0", "Nov-96", "current", "1/5/1998", "1/6/1998 9:15"), 2, "Prob Started"},
		{"seconds", lanlHead + ok("0", "Nov-96", "current", "1/5/1998 8:00:00", "1/6/1998 9:15"), 2, "Prob Started"},
		{"year 1900", lanlHead + ok("0", "Nov-96", "current", "1/5/1900 8:00", "1/6/1998 9:15"), 2, "Prob Started"},
		{"empty start", lanlHead + ok("0", "Nov-96", "current", "", "1/6/1998 9:15"), 2, "Prob Started"},
		{"fixed before", lanlHead + ok("0", "Nov-96", "current", "1/6/1998 9:16", "1/6/1998 9:15"), 2, "Prob Fixed"},
		{"fixed bad", lanlHead + ok("0", "Nov-96", "current", "1/6/1998 9:16", "tomorrow"), 2, "Prob Fixed"},
		{"same event", lanlHead + lanlRowText("2", "4", "0", "Nov-96", "current", "1/5/1998 8:00", "1/6/1998 9:15", "Maybe"), 2, "Same Event"},
		{"prod differs", lanlHead + good + good + ok("0", "Dec-96", "current", "1/5/1998 8:00", "1/6/1998 9:15"), 4, "node prod"},
		{"decom differs", lanlHead + good + ok("0", "Nov-96", "3-Jan", "1/5/1998 8:00", "1/6/1998 9:15"), 3, "node decom"},
	} {
		_, err := ReadLANLSystems(strings.NewReader(c.in), nil)
		var pe *ParseError
		if !errors.As(err, &pe) {
			t.Errorf("%s: error %v, want a *ParseError", c.name, err)
			continue
		}
		if pe.Line != c.line || pe.Column != c.column {
			t.Errorf("%s: error at line %d column %q (%v), want line %d column %q", c.name, pe.Line, pe.Column, err, c.line, c.column)
		}
	}
	for _, end := range []float64{-1, nan(), inf()} {
		if _, err := ReadLANLSystems(strings.NewReader(lanlHead+good), &LANLSettings{End: end}); err == nil {
			t.Errorf("End %v accepted", end)
		}
	}
}

func TestReadLANLHeaderOnly(t *testing.T) {
	systems, err := ReadLANLSystems(strings.NewReader(lanlHead), nil)
	if err != nil || len(systems) != 0 {
		t.Errorf("header only: %v, %d systems; want no error, none", err, len(systems))
	}
}

// TestReadLANLBeforeTracking checks the spellings of the full public
// release that the toolkit's copy lacks: "before tracking" in the date
// columns, and Same Event = Yes grouping failures of several nodes.
func TestReadLANLBeforeTracking(t *testing.T) {
	row := func(node, prod, decom, started, fixed, same string) string {
		return lanlRowText("7", "3", node, prod, decom, started, fixed, same)
	}
	in := lanlHead +
		row("0", "before tracking", "current", "3/10/2003 10:00", "3/10/2003 11:00", "No") + // line 2
		row("1", "Before  Tracking", "4-Dec", "2/15/2003 8:00", "2/15/2003 9:00", "No") + // 3: the earliest row
		row("2", "3-Jan", "current", "3/10/2003 10:00", "3/10/2003 12:00", "Yes") + // 4: joins line 2
		row("1", "Before  Tracking", "4-Dec", "3/10/2003 10:05", "3/10/2003 10:30", "Yes") // 5: joins line 2
	systems, err := ReadLANLSystems(strings.NewReader(in), nil)
	if err != nil {
		t.Fatal(err)
	}
	s := systems[0]
	feb03, jan03 := denver(t, 2003, 2, 1, 0, 0), denver(t, 2003, 1, 1, 0, 0)
	end := denver(t, 2003, 3, 10, 12, 0)
	if s.BeforeTracking != 2 || s.LogStart != feb03 || s.SameEvent != 2 {
		t.Errorf("BeforeTracking %d LogStart %v SameEvent %d, want 2, %v (February 2003: the month of the earliest row), 2",
			s.BeforeTracking, s.LogStart, s.SameEvent, feb03)
	}
	want := []Node{
		{Start: feb03, End: end, Down: []Interval{{Start: denver(t, 2003, 3, 10, 10, 0), End: denver(t, 2003, 3, 10, 11, 0), Event: 1}}},
		{Start: feb03, End: end, Down: []Interval{
			{Start: denver(t, 2003, 2, 15, 8, 0), End: denver(t, 2003, 2, 15, 9, 0)},
			{Start: denver(t, 2003, 3, 10, 10, 5), End: denver(t, 2003, 3, 10, 10, 30), Event: 1},
		}},
		{Start: jan03, End: end, Down: []Interval{{Start: denver(t, 2003, 3, 10, 10, 0), End: end, Event: 1}}},
	}
	for i, w := range want {
		if got := hardwareOutages(t, s.Trace.Node(i)); !reflect.DeepEqual(got, w) {
			t.Errorf("node %d:\n got %+v\nwant %+v", i, got, w)
		}
	}
	// The three labelled failures are one event of three nodes.
	ev, err := EstimateEvents(s.Trace, end, nil)
	if err != nil {
		t.Fatal(err)
	}
	if ev.Events.Failures != 4 || ev.Events.Events != 2 || len(ev.Events.Sizes) != 2 ||
		ev.Events.Sizes[1].Size != 3 || ev.Events.Sizes[1].Fraction.Count != 1 {
		t.Errorf("events %+v, want 4 failures in 2 events, one of size 3", ev.Events)
	}
}

// hardwareOutages checks that every outage of a node read from rows of
// lanlRowText has its cause, hardware (its Hardware column says "Memory"),
// and returns the node with the causes cleared, to compare with the times.
func hardwareOutages(t *testing.T, n Node) Node {
	t.Helper()
	for _, iv := range n.Down {
		if iv.Cause != Hardware {
			t.Errorf("outage %+v: cause %s, want hardware", iv, iv.Cause)
		}
	}
	n.Down = withoutCauses(n.Down)
	if len(n.Down) == 0 {
		n.Down = nil
	}
	return n
}
