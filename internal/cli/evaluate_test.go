package cli_test

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ckpt-markov/markov/internal/cli"
	"github.com/ckpt-markov/markov/internal/shareddata"
	"github.com/ckpt-markov/markov/trace"
)

// syntheticTrace writes a generic-format trace of n nodes over 400 days,
// each failing after exponential times of mean mttf and repaired after
// exponential times of mean mttr (seconds), and returns its path.
func syntheticTrace(t *testing.T, n int, mttf, mttr float64, seed uint64) string {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	const end = 400 * 86400.0
	nodes := make([]trace.Node, n)
	for i := range nodes {
		nodes[i] = trace.Node{Start: 0, End: end}
		for tm := rng.ExpFloat64() * mttf; tm < end; {
			up := tm + rng.ExpFloat64()*mttr
			nodes[i].Down = append(nodes[i].Down, trace.Interval{Start: tm, End: min(up, end)})
			tm = up + rng.ExpFloat64()*mttf
		}
	}
	tr, err := trace.New(nodes)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := trace.WriteGeneric(&buf, tr); err != nil {
		t.Fatal(err)
	}
	return writeFile(t, "cluster.csv", buf.String())
}

// evaluateOut is the --json output of evaluate: snake_case keys, each row
// with the scenario object of the other commands.
type evaluateOut struct {
	Rows []evaluateRow `json:"rows"`
}

type evaluateRow struct {
	System     string      `json:"system"`
	Status     string      `json:"status"`
	Reason     string      `json:"reason"`
	Rates      string      `json:"rates"`
	Scenario   scenarioOut `json:"scenario"`
	Segments   int         `json:"segments"`
	Efficiency struct {
		Mean float64 `json:"mean"`
		Min  float64 `json:"min"`
		Max  float64 `json:"max"`
	} `json:"efficiency"`
}

func TestEvaluate(t *testing.T) {
	path := syntheticTrace(t, 8, 20*86400, 6*3600, 3)
	args := []string{"evaluate", "--trace", path, "--segments", "3", "--apps", "md,cg", "--policies", "greedy,pb"}
	table := mustRun(t, args...)
	for _, want := range []string{"Efficiency", "cluster.csv", "md", "cg", "greedy", "pb", "3 segments per system"} {
		if !strings.Contains(table, want) {
			t.Errorf("table lacks %q:\n%s", want, table)
		}
	}
	var got evaluateOut
	runJSON(t, &got, args...)
	if len(got.Rows) != 4 {
		t.Fatalf("%d rows, want 2 applications × 2 policies", len(got.Rows))
	}
	for _, r := range got.Rows {
		if r.Segments != 3 || r.Scenario.Processors != 8 {
			t.Errorf("%+v: want 3 segments on 8 processors", r)
		}
		// Efficiency is work(I*)/best work, the best including I*: in (0, 1].
		if !(r.Efficiency.Min > 0 && r.Efficiency.Max <= 1) {
			t.Errorf("%s/%s: efficiency range [%v, %v] outside (0, 1]", r.Scenario.Application, r.Scenario.Policy, r.Efficiency.Min, r.Efficiency.Max)
		}
		// The history estimates recover the trace's rates roughly (mean
		// MTTF 20 days, MTTR 6 hours; a few hundred events).
		if sc := r.Scenario; sc.MTTF < 10*86400 || sc.MTTF > 40*86400 || sc.MTTR < 3*3600 || sc.MTTR > 12*3600 {
			t.Errorf("estimated MTTF %v d, MTTR %v h; the trace has 20 d and 6 h", sc.MTTF/86400, sc.MTTR/3600)
		}
	}
	// A fixed seed reproduces the output exactly, whatever the workers.
	one := mustRun(t, append(args, "--json", "--workers", "1")...)
	two := mustRun(t, append(args, "--json", "--workers", "2")...)
	if one != two {
		t.Error("--workers 1 and 2 give different tables")
	}
	if other := mustRun(t, append(args, "--json", "--seed", "2")...); other == one {
		t.Error("--seed 2 gives the same table as --seed 1")
	}
	var csv bytes.Buffer
	csv.WriteString(mustRun(t, append(args, "--csv")...))
	if lines := strings.Count(csv.String(), "\n"); lines != 5 {
		t.Errorf("CSV has %d lines, want a header and 4 rows:\n%s", lines, csv.String())
	}
}

func TestEvaluateErrors(t *testing.T) {
	path := syntheticTrace(t, 4, 20*86400, 6*3600, 5)
	bad := writeFile(t, "bad.csv", "this is not a trace\n")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"evaluate"}, "--lanl"},
		{[]string{"evaluate", "--trace", path, "--systems", "18"}, "--systems"},
		{[]string{"evaluate", "--lanl", path}, "--systems"},
		{[]string{"evaluate", "--trace", path, "--rule", "best"}, "--rule"},
		{[]string{"evaluate", "--trace", path, "--segments", "0"}, "--segments"},
		{[]string{"evaluate", "--trace", path, "--apps", "fft"}, "fft"},
		{[]string{"evaluate", "--trace", path, "--min-duration", "soon"}, "--min-duration"},
		{[]string{"evaluate", "--trace", bad}, "bad.csv"},
		{[]string{"evaluate", "--trace", path, "--rates", "best"}, "--rates"},
		{[]string{"evaluate", "--trace", path, "--sweep-from", "soon"}, "--sweep-from"},
		{[]string{"evaluate", "--trace", path, "--sweep-from", "I*/0.5"}, "--sweep-from"},
		{[]string{"evaluate", "--trace", path, "--sweep-from", "-5m"}, "--sweep-from"},
		{[]string{"evaluate", "--trace", path, "--sweep-to", "0"}, "--sweep-to"},
		{[]string{"evaluate", "--trace", path, "--sweep-from", "1h", "--sweep-to", "30m"}, "--sweep-to"},
		{[]string{"evaluate", "--trace", path, "--sweep-points", "2"}, "--sweep-points"},
		{[]string{"evaluate", "--trace", path, "--sweep-points", "1000000"}, "--sweep-points"},
		{[]string{"evaluate", "--trace", filepath.Join(t.TempDir(), "missing.csv")}, "missing.csv"},
	} {
		_, errOut, code := run(t, tc.args...)
		if code == 0 || !strings.Contains(errOut, tc.want) {
			t.Errorf("markov %s: exit %d, stderr %q; want an error naming %q", strings.Join(tc.args[1:], " "), code, errOut, tc.want)
		}
	}
}

// TestEvaluateRenamedTrace (issue 16): the same trace under another file
// name gives the same table, byte for byte, but for the name in the
// System column (names of the same length keep the columns aligned).
func TestEvaluateRenamedTrace(t *testing.T) {
	content, err := os.ReadFile(syntheticTrace(t, 6, 20*86400, 6*3600, 7))
	if err != nil {
		t.Fatal(err)
	}
	args := []string{"evaluate", "--segments", "3", "--apps", "cg", "--policies", "greedy,moldable:4"}
	first := mustRun(t, append(args, "--trace", writeFile(t, "alpha.csv", string(content)))...)
	second := mustRun(t, append(args, "--trace", writeFile(t, "omega.csv", string(content)))...)
	if !strings.Contains(first, "alpha.csv") || strings.ReplaceAll(second, "omega.csv", "alpha.csv") != first {
		t.Errorf("renamed trace, other table:\n%s\n%s", first, second)
	}
}

// TestEvaluateSweepFlags: --sweep-from and --sweep-to bound the sweep's
// doubling scan (seen in the segments' detail), and the default starts
// below I*/4.
func TestEvaluateSweepFlags(t *testing.T) {
	path := syntheticTrace(t, 6, 20*86400, 6*3600, 9)
	type interval struct {
		Interval float64 `json:"interval"`
	}
	var got struct {
		Rows []struct {
			Results []struct {
				Model interval   `json:"model"`
				Sweep []interval `json:"sweep"`
			} `json:"results"`
		} `json:"rows"`
	}
	args := []string{"evaluate", "--trace", path, "--segments", "2", "--apps", "cg", "--segments-detail"}
	runJSON(t, &got, append(args, "--sweep-from", "30s", "--sweep-to", "4m")...)
	for _, res := range got.Rows[0].Results {
		// The scan 30, 60, 120, 240 s; the first refinement spans half to
		// twice its best point (16 points: step 4^(1/15)), the second one
		// step either side of the best point of the first.
		step := math.Pow(4, 1.0/15)
		if first, last := res.Sweep[0].Interval, res.Sweep[len(res.Sweep)-1].Interval; first < 15/step || first > 30 || last < 240 || last > 480*step {
			t.Errorf("--sweep-from 30s --sweep-to 4m: sweep from %v to %v s", first, last)
		}
	}
	runJSON(t, &got, args...)
	for _, res := range got.Rows[0].Results {
		if first := res.Sweep[0].Interval; !(first < res.Model.Interval/4) {
			t.Errorf("default: sweep from %v s, I* %v s", first, res.Model.Interval)
		}
	}
}

// TestEvaluateNotEvaluated (issue 12): a trace too short for the history
// and a segment does not stop the table: its row says why, the other
// system's rows are printed, and the exit status is 1.
func TestEvaluateNotEvaluated(t *testing.T) {
	good := syntheticTrace(t, 6, 20*86400, 6*3600, 3)
	short := writeFile(t, "short.csv", "# nodes=2 start=0 end=864000\nnode,down_start,down_end\n0,1000,2000\n1,5000,7000\n")
	out, errOut, code := run(t, "evaluate", "--trace", good, "--trace", short, "--segments", "2", "--apps", "cg")
	if code != cli.ExitError || !strings.Contains(errOut, "1 of 2 systems could not be evaluated") {
		t.Errorf("exit %d, stderr %q; want 1 and the count", code, errOut)
	}
	for _, want := range []string{"cluster.csv  cg", "short.csv", "NotEvaluated", "too short"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
	out, _, code = run(t, "evaluate", "--trace", good, "--trace", short, "--segments", "2", "--apps", "cg", "--json")
	var got evaluateOut
	if err := json.Unmarshal([]byte(out), &got); err != nil || code != cli.ExitError {
		t.Fatalf("--json: exit %d, %v\n%s", code, err, out)
	}
	if len(got.Rows) != 2 || got.Rows[0].Status != "Evaluated" || got.Rows[0].Rates != "all" ||
		got.Rows[1].System != "short.csv" || got.Rows[1].Status != "NotEvaluated" || !strings.Contains(got.Rows[1].Reason, "too short") {
		t.Errorf("--json rows %+v", got.Rows)
	}
}

// On the real LANL file (when the shared data is next to the checkout),
// one system and application run end to end.
func TestEvaluateLANL(t *testing.T) {
	path := shareddata.LANL(t)
	var got evaluateOut
	runJSON(t, &got, "evaluate", "--lanl", path, "--systems", "20", "--apps", "md", "--segments", "2")
	if len(got.Rows) != 1 || got.Rows[0].System != "20" || got.Rows[0].Scenario.Processors != 512 {
		t.Fatalf("rows %+v, want one row of system 20 on 512 processors", got.Rows)
	}
}
