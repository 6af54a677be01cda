package cli_test

import (
	"bytes"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

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
	System   string `json:"system"`
	Scenario struct {
		Application string  `json:"application"`
		Policy      string  `json:"policy"`
		Processors  int     `json:"processors"`
		MTTF        float64 `json:"mttf"`
		MTTR        float64 `json:"mttr"`
	} `json:"scenario"`
	Segments   int `json:"segments"`
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
		{[]string{"evaluate", "--trace", filepath.Join(t.TempDir(), "missing.csv")}, "missing.csv"},
	} {
		_, errOut, code := run(t, tc.args...)
		if code == 0 || !strings.Contains(errOut, tc.want) {
			t.Errorf("markov %s: exit %d, stderr %q; want an error naming %q", strings.Join(tc.args[1:], " "), code, errOut, tc.want)
		}
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
