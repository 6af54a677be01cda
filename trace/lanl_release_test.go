package trace

import (
	"errors"
	"strings"
	"testing"
)

// lanlNoNodeRow is a row in the shape of system 17 of the full LANL
// release: every descriptor column (machine type through purpose) empty,
// only the times, the down time and a cause filled.
func lanlNoNodeRow(system, started, fixed, down, same string) string {
	f := make([]string, 26)
	f[0], f[16], f[17], f[18], f[24], f[25] = system, started, fixed, down, "Kernel software", same
	return strings.Join(f, ",") + "\n"
}

// TestReadLANLNoNodeData: rows of a system without node data (system 17 of
// the full release) load; the system is marked NoNodeData with no trace,
// ReadLANL refuses it by name, the other systems read as without those
// rows, and its times still count towards the default observation end.
func TestReadLANLNoNodeData(t *testing.T) {
	nodeless := lanlNoNodeRow("17", "6/1/2000 10:00", "6/1/2000 11:00", "60", "No") +
		lanlNoNodeRow("17", "6/2/2000 10:00", "6/2/2000 10:30", "30", "Yes") +
		lanlNoNodeRow("17", "7/9/2001 8:00", "7/9/2001 9:00", "60", "No") // the latest time of the input
	in := lanlHead + lanlRowText("3", "2", "0", "Mar-99", "current", "3/5/1999 10:00", "3/5/1999 10:30", "No") +
		nodeless +
		lanlRowText("3", "2", "1", "Mar-99", "current", "4/5/1999 10:00", "4/5/1999 12:30", "No") +
		lanlRowText("12", "4", "3", "Nov-96", "current", "1/5/1998 8:00", "1/6/1998 9:15", "No")

	all, err := ReadLANLSystems(strings.NewReader(in), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 3 || all[0].System != 3 || all[1].System != 12 || all[2].System != 17 {
		t.Fatalf("systems %+v, want 3, 12, 17", all)
	}
	s17 := all[2]
	if !s17.NoNodeData || s17.Trace != nil || s17.Records != 3 || s17.SameEvent != 1 {
		t.Errorf("system 17: NoNodeData %v, trace %v, %d records, %d Same Event; want true, nil, 3, 1",
			s17.NoNodeData, s17.Trace, s17.Records, s17.SameEvent)
	}
	for _, s := range all[:2] {
		if s.NoNodeData || s.Trace == nil {
			t.Fatalf("system %d: NoNodeData %v, trace %v", s.System, s.NoNodeData, s.Trace)
		}
		// The log ends at system 17's last repair, 2001-07-09 9:00 MDT.
		if _, end := s.Trace.Window(); end != denver(t, 2001, 7, 9, 9, 0) {
			t.Errorf("system %d ends at %s, want 2001-07-09 15:00 UTC", s.System, utc(end))
		}
	}

	// Asked for by name: refused, naming the system.
	if _, err := ReadLANL(strings.NewReader(in), 17); !errors.Is(err, ErrNoNodeData) || !strings.Contains(err.Error(), "17") {
		t.Errorf("ReadLANL(17): %v, want ErrNoNodeData naming system 17", err)
	}
	// The others as from a file without system 17, but for the end.
	tr, err := ReadLANL(strings.NewReader(in), 3)
	if err != nil {
		t.Fatal(err)
	}
	if tr.NumNodes() != 2 || len(tr.FailureTimes()) != 2 {
		t.Errorf("system 3: %d nodes, %d failures; want 2, 2", tr.NumNodes(), len(tr.FailureTimes()))
	}

	// A system mixing rows with and without node data is an error on the
	// row that breaks the pattern.
	mixed := lanlHead + lanlRowText("17", "4", "0", "Nov-96", "current", "1/5/1998 8:00", "1/6/1998 9:15", "No") + nodeless
	var pe *ParseError
	if _, err := ReadLANLSystems(strings.NewReader(mixed), nil); !errors.As(err, &pe) || pe.Line != 3 || pe.Column != "nodes" ||
		!strings.Contains(err.Error(), "no node data") {
		t.Errorf("mixed rows: %v, want line 3, column nodes, naming no node data", err)
	}
	// An empty nodes column with a node number is not a row without node
	// data but a mistake.
	half := lanlHead + strings.Replace(lanlRowText("5", "4", "2", "1-Dec", "3-Feb", "5/1/2002 10:00", "5/1/2002 12:30", "No"), ",4,8,", ",,8,", 1)
	if _, err := ReadLANLSystems(strings.NewReader(half), nil); !errors.As(err, &pe) || pe.Column != "nodenumz" {
		t.Errorf("empty nodes with nodenumz 2: %v, want an error in column nodenumz", err)
	}
}

// TestReadLANLSystemsSelected: with LANLSettings.Systems, a malformed row
// of a system nobody asked for does not stop the file; asking for it
// (or for every system) does.
func TestReadLANLSystemsSelected(t *testing.T) {
	in := lanlHead +
		lanlRowText("3", "2", "0", "Mar-99", "current", "3/5/1999 10:00", "3/5/1999 10:30", "No") +
		lanlRowText("9", "x", "0", "Mar-99", "current", "3/5/1999 10:00", "3/5/1999 10:30", "No") + // line 3: bad nodes
		lanlRowText("9", "4", "0", "Mar-99", "current", "3/5/1999 10:00", "garbage", "No") + // line 4: bad time
		lanlRowText("12", "4", "3", "Nov-96", "current", "1/5/1998 8:00", "8/6/2000 9:15", "No")
	got, err := ReadLANLSystems(strings.NewReader(in), &LANLSettings{Systems: []int{3, 12, 40}})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].System != 3 || got[1].System != 12 {
		t.Fatalf("systems %+v, want 3 and 12 (40 is absent)", got)
	}
	if _, end := got[0].Trace.Window(); end != denver(t, 2000, 8, 6, 9, 15) {
		t.Errorf("end %s, want system 12's last repair 2000-08-06 15:15 UTC", utc(end))
	}
	var pe *ParseError
	for _, set := range []*LANLSettings{nil, {Systems: []int{9}}} {
		if _, err := ReadLANLSystems(strings.NewReader(in), set); !errors.As(err, &pe) || pe.Line != 3 || pe.Column != "nodes" {
			t.Errorf("settings %+v: %v, want line 3, column nodes", set, err)
		}
	}
	// A bad System column stops the file whatever is asked for: the row
	// cannot be told apart.
	bad := in + lanlRowText("x3", "2", "0", "Mar-99", "current", "3/5/1999 10:00", "3/5/1999 10:30", "No")
	if _, err := ReadLANLSystems(strings.NewReader(bad), &LANLSettings{Systems: []int{3}}); !errors.As(err, &pe) || pe.Line != 6 || pe.Column != "System" {
		t.Errorf("bad System column: %v, want line 6, column System", err)
	}
}

// TestReaderLimitsMessages: a count of more than 9 digits names the
// limit, and a line over MaxLineBytes is reported as such by both readers
// (not as a scanner's "token too long"); a line of exactly MaxLineBytes
// is read.
func TestReaderLimitsMessages(t *testing.T) {
	big := strings.Repeat("9", 12)
	lanl := lanlHead + lanlRowText("3", big, "0", "Mar-99", "current", "3/5/1999 10:00", "3/5/1999 10:30", "No")
	if _, err := ReadLANLSystems(strings.NewReader(lanl), nil); err == nil || !strings.Contains(err.Error(), "above the limit 1048576") {
		t.Errorf("LANL nodes %s: %v, want the limit 1048576", big, err)
	}
	gen := "# nodes=" + big + " start=0 end=10\n"
	if _, err := ReadGeneric(strings.NewReader(gen)); err == nil || !strings.Contains(err.Error(), "above the limit 1048576") {
		t.Errorf("generic nodes %s: %v, want the limit 1048576", big, err)
	}
	label := "# nodes=1 start=0 end=10\n0,1,2," + big + "\n"
	if _, err := ReadGeneric(strings.NewReader(label)); err == nil || !strings.Contains(err.Error(), "above the limit 999999999") {
		t.Errorf("event %s: %v, want the limit 999999999", big, err)
	}
	long := strings.Repeat("7", 5000)
	if _, err := ReadGeneric(strings.NewReader("# nodes=" + long + " start=0 end=10\n")); err == nil || len(err.Error()) > 200 {
		t.Errorf("a 5000-digit count: error %d bytes long, want a short quote", len(err.Error()))
	}

	zeros := strings.Repeat("\x00", MaxLineBytes+10)
	want := "line 1: line longer than the limit of 1048576 bytes"
	if _, err := ReadGeneric(strings.NewReader(zeros)); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("generic, no newline: %v, want %q", err, want)
	}
	if _, err := ReadLANLSystems(strings.NewReader(zeros), nil); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("LANL, no newline: %v, want %q", err, want)
	}
	head := "# nodes=1 start=0 end=10\n"
	comment := "#" + strings.Repeat(" ", MaxLineBytes-1) + "\n"
	if _, err := ReadGeneric(strings.NewReader(head + comment)); err != nil {
		t.Errorf("a line of exactly MaxLineBytes: %v", err)
	}
	if _, err := ReadGeneric(strings.NewReader(head + " " + comment)); err == nil || !strings.Contains(err.Error(), "line 2: line longer") {
		t.Errorf("a line of MaxLineBytes+1: %v, want line 2 too long", err)
	}
}
