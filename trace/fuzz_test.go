package trace

import (
	"bytes"
	"compress/gzip"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// checkParseError fails unless err is a *ParseError with a line number and,
// when it names a column, one of columns.
func checkParseError(t *testing.T, err error, columns []string) {
	t.Helper()
	var pe *ParseError
	if !errors.As(err, &pe) {
		t.Fatalf("error %v (%T) is not a *ParseError", err, err)
	}
	if pe.Line < 1 || (pe.Column != "" && !slices.Contains(columns, pe.Column)) {
		t.Fatalf("error %v: bad line %d or column %q", err, pe.Line, pe.Column)
	}
}

// roundTrip writes tr in the generic format and reads it back.
func roundTrip(t *testing.T, tr *Trace) {
	t.Helper()
	var buf bytes.Buffer
	if err := WriteGeneric(&buf, tr); err != nil {
		t.Fatal(err)
	}
	back, err := ReadGeneric(&buf)
	if err != nil {
		t.Fatalf("reading back: %v", err)
	}
	// The generic format has no cause column: the causes are lost.
	nodes := make([]Node, tr.NumNodes())
	for i := range nodes {
		nodes[i] = tr.Node(i)
		nodes[i].Down = withoutCauses(nodes[i].Down)
	}
	want, err := New(nodes)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, want) {
		t.Fatalf("round trip changed the trace")
	}
}

// FuzzReadLANL: the reader must not panic; a rejected input must give a
// *ParseError naming a real line and a known column; an accepted one must
// give traces that satisfy the Trace invariants and survive a round trip
// through the generic format. The seeds (valid and malformed inputs) run
// under plain go test.
func FuzzReadLANL(f *testing.F) {
	row := lanlRowText
	for _, seed := range []string{
		lanlHead + row("5", "4", "2", "1-Dec", "3-Feb", "5/1/2002 10:00", "5/1/2002 12:30", "No") +
			row("5", "4", "0", "Nov-96", "current", "1/5/1998 8:00", "1/6/1998 9:15", "Yes") +
			row("5", "4", "0", "Nov-96", "current", "1/6/1998 9:00", "1/7/1998 0:00", "") +
			row("5", "4", "3", "Nov-96", "current", "8/1/2003 6:00", "", "No") +
			row("5", "4", "9", "Nov-96", "current", "8/1/2003 6:00", "8/1/2003 7:00", "No"),
		lanlHead + row("3", "1", "0", "Mar-99", "current", "10/27/2002 1:36", "10/27/2002 5:27", "No"),
		lanlHead + row("3", "2", "0", "Mar-99", "Apr-99", "4/2/1999 15:00", "4/22/1999 15:30", "No"),
		"System,nodes,nodenumz,node prod,node decom,Prob Started,Prob Fixed\n2,1,0,Jan-97,current,1/2/1997 1:00,1/2/1997 2:00\n",
		lanlHead,
		"",
		"System\n",
		lanlHead + "2,cluster\n",
		lanlHead + row("2", "4", "0", "Nov-96", "current", "1/6/1998 9:16", "1/6/1998 9:15", "No"),
		lanlHead + row("2", "4", "0", "12-Dec", "current", "1/6/1998 9:16", "1/6/1998 9:17", "No"),
		lanlHead + row("2", "4", "0", "Nov-96", "current", "2/30/1998 9:16", "1/6/1998 9:17", "No"),
		lanlHead + row("2", "4", "0", "Nov-96", "current", "1/6/1998 9:16", "1/6/1998 9:17", "Maybe"),
		lanlHead + row("2", "0", "0", "Nov-96", "current", "1/6/1998 9:16", "1/6/1998 9:17", "No"),
		lanlHead + row("2", "4", "0", "Nov-96", "Oct-96", "1/6/1998 9:16", "1/6/1998 9:17", "No"),
		lanlHead + "2,\"a\nb\",4,8,4,0,0,Nov-96,Nov-96,current,p,4,1,1,0,c,1/6/1998 9:16,1/6/1998 9:17,1,,,,,,,No\n",
		lanlHead + row("7", "3", "0", "before tracking", "current", "3/10/2003 10:00", "3/10/2003 11:00", "No") +
			row("7", "3", "1", "Before  Tracking", "4-Dec", "2/15/2003 8:00", "2/15/2003 9:00", "Yes") +
			row("7", "3", "2", "3-Jan", "current", "3/10/2003 10:00", "3/10/2003 12:00", "Yes"),
		lanlHead + row("7", "3", "0", "before tracking", "before tracking", "3/10/2003 10:00", "3/10/2003 11:00", "No"),
		gzipText(lanlHead + row("3", "1", "0", "Mar-99", "current", "10/27/2002 1:36", "10/27/2002 5:27", "No")),
		"\x1f\x8b\x08",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		systems, err := ReadLANLSystems(bytes.NewReader(data), nil)
		if err != nil {
			checkParseError(t, err, lanlColumns)
			return
		}
		for k, s := range systems {
			if k > 0 && systems[k-1].System >= s.System {
				t.Fatalf("systems out of order")
			}
			if s.Records < 1 || s.SameEvent > s.Records || len(s.Skipped) > s.Records {
				t.Fatalf("system %d: counts %d %d %d", s.System, s.Records, s.SameEvent, len(s.Skipped))
			}
			checkInvariants(t, s.Trace)
			roundTrip(t, s.Trace)
		}
	})
}

// FuzzReadGeneric: the reader must not panic; a rejected input must give a
// *ParseError; an accepted one must give a valid trace that writes and reads
// back to itself, with the same bytes when written again.
func FuzzReadGeneric(f *testing.F) {
	for _, seed := range []string{
		"# nodes=3 start=0 end=1000\n# node=2 start=100 end=900\nnode,down_start,down_end\n1,500,600\n0,10,20\n1,550,650\n2,50,150\n0,30,30\n",
		"\ufeff# comment\r\n  # nodes=1   end=1e9 start=-5  \r\n0, 1.5e2, 2e2\n",
		"# nodes=2 start=0 end=100\n0,-10,200\n1,100,100\n1,0,0\n",
		"",
		"# nodes=0 start=0 end=1\n",
		"# nodes=2 start=5 end=1\n",
		"0,1,2\n# nodes=2 start=0 end=100\n",
		"# nodes=2 start=0 end=100\n0,5,2\n",
		"# nodes=2 start=0 end=100\n2,1,2\n",
		"# nodes=2 start=0 end=100\n0,NaN,2\n",
		"# nodes=2 start=0 end=100 end=3\n",
		"# nodes=2 start=0 end=100\n# node=1 start=0 end=1\n# node=1 start=0 end=2\n",
		"# nodes=2 start=0 end=100\n0,1,2,3\n",
		"# nodes=3 start=0 end=100\nnode,down_start,down_end,event\n0,1,2,3\n1,1,5,3\n2,1,2,\n2,50,60,0\n",
		"# nodes=2 start=0 end=100\n0,1,2,x\n",
		gzipText("# nodes=2 start=0 end=100\n0,1,2,1\n1,1,2,1\n"),
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		tr, err := ReadGeneric(bytes.NewReader(data))
		if err != nil {
			checkParseError(t, err, []string{"nodes", "node", "start", "end", "down_start", "down_end", "event"})
			return
		}
		checkInvariants(t, tr)
		_, end := tr.Window()
		if _, err := EstimateEvents(tr, end, &EventSettings{Tolerance: 1, Resolution: 1}); err != nil {
			t.Fatalf("EstimateEvents: %v", err)
		}
		var one, two bytes.Buffer
		if err := WriteGeneric(&one, tr); err != nil {
			t.Fatal(err)
		}
		text := one.String()
		back, err := ReadGeneric(strings.NewReader(text))
		if err != nil {
			t.Fatalf("reading back %q: %v", text, err)
		}
		if !reflect.DeepEqual(back, tr) {
			t.Fatalf("round trip changed the trace:\n%s", text)
		}
		if err := WriteGeneric(&two, back); err != nil {
			t.Fatal(err)
		}
		if two.String() != text {
			t.Fatalf("second write differs")
		}
	})
}

// gzipText compresses a fuzz seed.
func gzipText(s string) string {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write([]byte(s))
	zw.Close()
	return b.String()
}
