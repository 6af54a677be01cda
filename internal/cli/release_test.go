package cli_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/ckpt-markov/markov/trace"
	"github.com/ckpt-markov/markov/trace/synth"
)

// lanlReleaseHead is the header of the LANL release.
const lanlReleaseHead = "System,machine type,nodes,procstot,procsinnode,nodenum,nodenumz,node install,node prod,node decom,fru type,mem,cputype,memtype,num intercon,purpose,Prob Started,Prob Fixed,Down Time,Facilities,Hardware,Human Error,Network,Undetermined,Software,Same Event\n"

// lanlSystemRows writes a synthetic exponential trace as the rows of LANL
// system id: n nodes in production from January 1997, times in Mountain
// Time to the minute as the release writes them.
func lanlSystemRows(t *testing.T, id, n int, seed uint64) string {
	t.Helper()
	res, err := synth.Generate(synth.Config{Nodes: n, Duration: 150 * 86400,
		Up: distuv.Exponential{Rate: 1 / (3 * 86400.0)}, Repair: distuv.Exponential{Rate: 1 / 7200.0}},
		rand.New(rand.NewPCG(seed, 1)))
	if err != nil {
		t.Fatal(err)
	}
	loc, err := time.LoadLocation("America/Denver")
	if err != nil {
		t.Skip("no time zone data:", err)
	}
	base := time.Date(1997, 1, 1, 0, 0, 0, 0, loc)
	stamp := func(x float64) string {
		return base.Add(time.Duration(math.Floor(x)) * time.Second).Format("1/2/2006 15:04")
	}
	var b strings.Builder
	for i := range n {
		for _, iv := range res.Trace.Node(i).Down {
			fmt.Fprintf(&b, "%d,cluster,%d,%d,4,%d,%d,Jan-97,Jan-97,current,part,4,1,1,0,compute,%s,%s,%d,,Memory,,,,,No\n",
				id, n, 4*n, i, i, stamp(iv.Start), stamp(iv.End), int((iv.End-iv.Start)/60))
		}
	}
	return b.String()
}

// releaseFile is a LANL file in the shape of the full public release:
// systems 3 and 12 with node data, system 17 whose rows leave every
// descriptor column empty (only the times, the down time and the cause
// filled), and a row of system 9 that no command here asks for, with a
// node count that is not a number.
func releaseFile(t *testing.T) string {
	var b strings.Builder
	b.WriteString(lanlReleaseHead)
	b.WriteString(lanlSystemRows(t, 3, 8, 1))
	for k := range 4 {
		f := make([]string, 26)
		f[0], f[16], f[17], f[18], f[24], f[25] = "17", fmt.Sprintf("3/%d/1997 10:00", k+1), fmt.Sprintf("3/%d/1997 11:00", k+1), "60", "Kernel software", "No"
		b.WriteString(strings.Join(f, ",") + "\n")
	}
	b.WriteString("9,cluster,many,32,4,0,0,Jan-97,Jan-97,current,part,4,1,1,0,compute,3/5/1997 10:00,3/5/1997 10:30,30,,Memory,,,,,No\n")
	b.WriteString(lanlSystemRows(t, 12, 6, 2))
	return writeFile(t, "failures.csv", b.String())
}

// TestLANLFullRelease: in a file of the full release's shape, the systems
// asked for evaluate whatever rows the others have; trace stats lists
// system 17 as "no node data"; evaluate refuses it by name; a system given
// twice is a flag error naming --systems.
func TestLANLFullRelease(t *testing.T) {
	path := releaseFile(t)
	var ev struct {
		Rows []struct {
			System, Status string
			Segments       int
		} `json:"rows"`
	}
	runJSON(t, &ev, "evaluate", "--lanl", path, "--systems", "3,12", "--apps", "qr", "--segments", "2",
		"--min-duration", "7d", "--max-duration", "20d")
	if len(ev.Rows) != 2 || ev.Rows[0].System != "3" || ev.Rows[1].System != "12" ||
		ev.Rows[0].Status != "Evaluated" || ev.Rows[1].Status != "Evaluated" {
		t.Errorf("evaluate --systems 3,12: %+v, want both evaluated", ev.Rows)
	}

	text := mustRun(t, "trace", "stats", "--lanl", path, "--systems", "3,17")
	if !strings.Contains(text, "system 3: 8 nodes") || !strings.Contains(text, "system 17: no node data") {
		t.Errorf("trace stats --systems 3,17:\n%s\nwant system 3 and system 17 listed as no node data", text)
	}
	var st struct {
		Systems    []struct{ System string } `json:"systems"`
		NoNodeData []string                  `json:"no_node_data"`
	}
	runJSON(t, &st, "trace", "stats", "--lanl", path, "--systems", "17,3")
	if len(st.Systems) != 1 || st.Systems[0].System != "3" || len(st.NoNodeData) != 1 || st.NoNodeData[0] != "17" {
		t.Errorf("trace stats --json: %+v, want system 3 and no_node_data [17]", st)
	}

	for _, c := range []struct {
		args []string
		code int
		want []string
	}{
		{[]string{"evaluate", "--lanl", path, "--systems", "17"}, 2, []string{"--systems", "system 17", "no node data"}},
		{[]string{"evaluate", "--lanl", path, "--systems", "3,17"}, 2, []string{"--systems", "system 17", "no node data"}},
		{[]string{"evaluate", "--lanl", path, "--systems", "9"}, 1, []string{"line", "nodes"}},
		{[]string{"evaluate", "--lanl", path, "--systems", "12,12"}, 2, []string{"--systems", "system 12 given twice"}},
		{[]string{"trace", "stats", "--lanl", path, "--systems", "3, 3"}, 2, []string{"--systems", "system 3 given twice"}},
		{[]string{"evaluate", "--lanl", path, "--systems", "3,40"}, 2, []string{"--systems", "system 40 is not in"}},
	} {
		_, errOut, code := run(t, c.args...)
		ok := code == c.code
		for _, w := range c.want {
			ok = ok && strings.Contains(errOut, w)
		}
		if !ok {
			t.Errorf("markov %s: exit %d, stderr %q; want exit %d naming %q", strings.Join(c.args, " "), code, errOut, c.code, c.want)
		}
	}
}

// TestReaderLimitErrors: a file without line breaks and a node count of
// more than 9 digits name their limits (the readers' *ParseError, exit 1).
func TestReaderLimitErrors(t *testing.T) {
	zeros := writeFile(t, "zeros", strings.Repeat("\x00", trace.MaxLineBytes+1))
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"evaluate", "--trace", zeros}, "line 1: line longer than the limit of 1048576 bytes"},
		{[]string{"trace", "stats", "--trace", zeros}, "line 1: line longer than the limit of 1048576 bytes"},
		{[]string{"evaluate", "--trace", writeFile(t, "big.csv", "# nodes=12345678901 start=0 end=9\n")}, "nodes is above the limit 1048576"},
	} {
		_, errOut, code := run(t, c.args...)
		if code != 1 || !strings.Contains(errOut, c.want) || strings.Contains(errOut, "token too long") {
			t.Errorf("markov %s: exit %d, stderr %q; want exit 1 saying %q", strings.Join(c.args, " "), code, errOut, c.want)
		}
	}
}

// TestEvaluateNoUsefulWork: nodes with a mean up time of 1 s (and an hour
// of repair) let no interval commit any work; evaluate says "no useful
// work" in the table and in JSON (status, efficiencies null) instead of
// 100 % efficiency. Oracle: the replayed work, 0 with every interval.
func TestEvaluateNoUsefulWork(t *testing.T) {
	res, err := synth.Generate(synth.Config{Nodes: 8, Duration: 40 * 86400,
		Up: distuv.Exponential{Rate: 1}, Repair: distuv.Exponential{Rate: 1 / 3600.0}}, rand.New(rand.NewPCG(1, 0)))
	if err != nil {
		t.Fatal(err)
	}
	var buf strings.Builder
	if err := trace.WriteGeneric(&buf, res.Trace); err != nil {
		t.Fatal(err)
	}
	path := writeFile(t, "mttf1s.csv", buf.String())
	args := []string{"evaluate", "--trace", path, "--segments", "3", "--min-duration", "5d", "--max-duration", "5d", "--apps", "qr"}
	var got struct {
		Rows []struct {
			Status         string                  `json:"status"`
			Efficiency     struct{ Mean *float64 } `json:"efficiency"`
			BestUWT        struct{ Max *float64 }  `json:"best_uwt"`
			NoWorkSegments int                     `json:"no_work_segments"`
		} `json:"rows"`
	}
	runJSON(t, &got, args...)
	if len(got.Rows) != 1 {
		t.Fatalf("%d rows, want 1", len(got.Rows))
	}
	r := got.Rows[0]
	if r.BestUWT.Max == nil || *r.BestUWT.Max != 0 {
		t.Fatalf("best UWT %v: the trace lets some interval work", r.BestUWT.Max)
	}
	if r.Status != "NoUsefulWork" || r.Efficiency.Mean != nil || r.NoWorkSegments != 3 {
		t.Errorf("status %q, efficiency %v, no_work_segments %d; want NoUsefulWork, null, 3", r.Status, r.Efficiency.Mean, r.NoWorkSegments)
	}
	text := mustRun(t, args...)
	if !strings.Contains(text, "no useful work") || strings.Contains(text, "100.0%") {
		t.Errorf("text:\n%s\nwant \"no useful work\" and no 100 %%", text)
	}
}
