package cli_test

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/ckpt-markov/markov/internal/shareddata"
	"github.com/ckpt-markov/markov/trace"
	"github.com/ckpt-markov/markov/trace/synth"
)

// traceStats is the part of the JSON output of markov trace stats the
// tests read.
type traceStats struct {
	Level      float64 `json:"level"`
	Resolution float64 `json:"resolution"`
	Systems    []struct {
		System     string  `json:"system"`
		Nodes      int     `json:"nodes"`
		Resolution float64 `json:"resolution"`
		Failures   int     `json:"failures"`
		Events     int     `json:"events"`
		EventRate  struct {
			Value, Low, High float64
		} `json:"event_rate"`
		GroupedEvents struct {
			Count int     `json:"count"`
			Value float64 `json:"value"`
			Low   float64 `json:"low"`
			High  float64 `json:"high"`
		} `json:"grouped_events"`
		Sizes []struct {
			Size  int `json:"size"`
			Count int `json:"count"`
		} `json:"sizes"`
		UpTime struct {
			WeibullShape struct{ Value, Low, High float64 } `json:"weibull_shape"`
			PValue       float64                            `json:"p_value"`
		} `json:"up_time"`
		Exponential    string `json:"exponential"`
		SingleFailures string `json:"single_failures"`
		Summary        string `json:"summary"`
	} `json:"systems"`
}

// groupedTrace writes a synthetic trace (synth) of 64 nodes over 60 days
// with a third of the events grouped in 4–8 nodes, gzip-compressed when
// zipped, and returns its path and the generator's result.
func groupedTrace(t *testing.T, zipped bool) (string, synth.Result) {
	t.Helper()
	res, err := synth.Generate(synth.Config{Nodes: 64, Duration: 60 * 86400,
		Up: distuv.Exponential{Rate: 1 / (5 * 86400.0)}, Repair: distuv.Exponential{Rate: 1 / 3600.0},
		Grouped: 1.0 / 3, Sizes: synth.Uniform(4, 8)}, rand.New(rand.NewPCG(21, 22)))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := trace.WriteGeneric(&buf, res.Trace); err != nil {
		t.Fatal(err)
	}
	if !zipped {
		return writeFile(t, "grouped.csv", buf.String()), res
	}
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write(buf.Bytes())
	zw.Close()
	return writeFile(t, "grouped.csv.gz", z.String()), res
}

// TestTraceStatsGeneric runs trace stats on a synthetic grouped trace: the
// events and their sizes are the generator's (its labels), the verdict
// says grouped failures are present and exponential up times plausible,
// and the text output ends with the same one-line summary as the JSON.
func TestTraceStatsGeneric(t *testing.T) {
	path, res := groupedTrace(t, true)
	var got traceStats
	out := runJSON(t, &got, "trace", "stats", "--trace", path)
	requireKeys(t, out, "level", "tolerance", "resolution", "systems")
	if len(got.Systems) != 1 {
		t.Fatalf("%d systems, want 1", len(got.Systems))
	}
	s := got.Systems[0]
	if s.Nodes != 64 || s.Events != res.Events || s.Failures != res.Failures || s.GroupedEvents.Count != res.GroupedEvents {
		t.Errorf("nodes %d, %d events, %d failures, %d grouped; generator: 64, %d, %d, %d",
			s.Nodes, s.Events, s.Failures, s.GroupedEvents.Count, res.Events, res.Failures, res.GroupedEvents)
	}
	for _, sz := range s.Sizes {
		if sz.Size != 1 && (sz.Size < 4 || sz.Size > 8) {
			t.Errorf("an event of %d nodes; the generator makes 1 or 4–8", sz.Size)
		}
	}
	if s.SingleFailures != "contradicted" || s.Exponential != "holds" || got.Resolution != 0 {
		t.Errorf("verdicts %q %q, resolution %v; want contradicted, holds, 0", s.SingleFailures, s.Exponential, got.Resolution)
	}
	text := mustRun(t, "trace", "stats", "--trace", path)
	lines := strings.Split(strings.TrimSpace(text), "\n")
	if last := lines[len(lines)-1]; last != s.Summary || !strings.Contains(last, "grouped failures: PRESENT") {
		t.Errorf("last line %q, want the summary %q", last, s.Summary)
	}
}

// TestTraceStatsLANL runs trace stats on LANL system 20 of the shipped
// file: 512 nodes, a minute resolution, the LANL copy's failures, and a
// shape interval below 1 (Schroeder and Gibson, DSN 2006, fig. 7: Weibull
// shapes 0.7–0.8 for the time between failures of LANL nodes).
func TestTraceStatsLANL(t *testing.T) {
	var got traceStats
	runJSON(t, &got, "trace", "stats", "--lanl", shareddata.LANL(t), "--systems", "20")
	if len(got.Systems) != 1 || got.Systems[0].System != "20" || got.Systems[0].Nodes != 512 || got.Systems[0].Resolution != 60 {
		t.Fatalf("got %+v, want system 20 with 512 nodes at a 60 s resolution", got)
	}
	s := got.Systems[0]
	if s.Failures == 0 || s.Events > s.Failures || !(s.UpTime.WeibullShape.High < 1) || s.Exponential != "contradicted" {
		t.Errorf("system 20: %d failures, %d events, shape %+v, exponential %q", s.Failures, s.Events, s.UpTime.WeibullShape, s.Exponential)
	}
}

func TestTraceStatsErrors(t *testing.T) {
	path, _ := groupedTrace(t, false)
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"trace", "stats"}, 2, "--lanl"},
		{[]string{"trace", "stats", "--lanl", "x.csv"}, 2, "--systems"},
		{[]string{"trace", "stats", "--systems", "20", "--trace", path}, 2, "--systems"},
		{[]string{"trace", "stats", "--trace", path, "--tolerance", "-1m"}, 2, "--tolerance"},
		{[]string{"trace", "stats", "--trace", path, "--level", "1"}, 2, "--level"},
		{[]string{"trace", "stats", "--trace", path, "--lookback", "0"}, 2, "--lookback"},
		{[]string{"trace", "stats", "--lanl", shareddata.LANL(t), "--systems", "99"}, 2, "system 99"},
		{[]string{"trace", "stats", "--trace", writeFile(t, "bad.csv", "# nodes=2 start=0 end=9\n0,5,x\n")}, 1, "down_end"},
	} {
		_, errOut, code := run(t, c.args...)
		if code != c.code || !strings.Contains(errOut, c.want) {
			t.Errorf("markov %s: exit %d, stderr %q; want exit %d naming %q", strings.Join(c.args, " "), code, errOut, c.code, c.want)
		}
	}
}

// The JSON keys are snake_case at every depth (checkKeys, the convention
// of every command; trace stats has no scenario object), and --csv gives
// one row per system.
func TestTraceStatsOutputs(t *testing.T) {
	path, _ := groupedTrace(t, false)
	out := mustRun(t, "trace", "stats", "--trace", path, "--json")
	var v any
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatal(err)
	}
	checkKeys(t, "trace stats", "", v)
	var m struct {
		Systems []map[string]json.RawMessage `json:"systems"`
	}
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"failure_rate", "repair_rate", "event_rate", "system_event_rate", "grouped_events",
		"grouped_failures", "mean_size", "sizes", "coincidence_p", "up_time", "exponential", "single_failures", "summary"} {
		if _, ok := m.Systems[0][k]; !ok {
			t.Errorf("no key %q", k)
		}
	}
	lines := strings.Split(strings.TrimSpace(mustRun(t, "trace", "stats", "--trace", path, "--csv")), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "system,nodes,") || !strings.HasSuffix(lines[1], ",holds,contradicted") {
		t.Errorf("--csv:\n%s", strings.Join(lines, "\n"))
	}
}

// TestTraceStatsResolution: independent failures logged to the minute
// coincide by chance. With the tick inferred from the times (every time a
// multiple of 60 s) they are judged chance; told the times are exact
// (--resolution 0) the command calls them grouped failures.
func TestTraceStatsResolution(t *testing.T) {
	res, err := synth.Generate(synth.Config{Nodes: 64, Duration: 60 * 86400,
		Up: distuv.Exponential{Rate: 1 / 86400.0}, Repair: distuv.Exponential{Rate: 1 / 3600.0}},
		rand.New(rand.NewPCG(23, 24)))
	if err != nil {
		t.Fatal(err)
	}
	nodes := make([]trace.Node, res.Trace.NumNodes())
	for i := range nodes {
		n := res.Trace.Node(i)
		nodes[i] = trace.Node{Start: n.Start, End: n.End}
		for _, iv := range n.Down {
			a := 60 * math.Ceil(iv.Start/60) // a log that records minutes
			nodes[i].Down = append(nodes[i].Down, trace.Interval{Start: a, End: max(a, 60*math.Ceil(iv.End/60))})
		}
	}
	tr, err := trace.New(nodes)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	trace.WriteGeneric(&buf, tr)
	path := writeFile(t, "minutes.csv", buf.String())
	var inferred, exact traceStats
	runJSON(t, &inferred, "trace", "stats", "--trace", path)
	runJSON(t, &exact, "trace", "stats", "--trace", path, "--resolution", "0")
	a, b := inferred.Systems[0], exact.Systems[0]
	if a.Resolution != 60 || a.SingleFailures != "holds" || b.SingleFailures != "contradicted" || b.Events >= b.Failures {
		t.Errorf("inferred tick %v: %q; exact times: %q (%d events of %d failures); want 60, holds, contradicted with coincidences",
			a.Resolution, a.SingleFailures, b.SingleFailures, b.Events, b.Failures)
	}
}
