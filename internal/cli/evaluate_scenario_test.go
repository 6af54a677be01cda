package cli_test

import (
	"math"
	"strings"
	"testing"

	"github.com/ckpt-markov/markov/internal/cli"
)

// The example scenario and the LANL sample the repository ships.
const (
	clusterScenario = "../../docs/examples/cluster.json"
	lanlSample      = "../../trace/testdata/lanl/failures.csv.gz"
)

// evaluateScenarioOut is the part of evaluate --json --segments-detail
// that TestEvaluateScenario reads.
type evaluateScenarioOut struct {
	Rows []struct {
		Status   string `json:"status"`
		Scenario struct {
			Application string `json:"application"`
			Policy      string `json:"policy"`
			Processors  int    `json:"processors"`
		} `json:"scenario"`
		Replayed []struct {
			Runs     string `json:"runs"`
			Segments int    `json:"segments"`
		} `json:"replayed"`
		Results []struct {
			Used  int     `json:"used"`
			MTTF  float64 `json:"mttf"`
			Runs  string  `json:"runs"`
			Young *struct {
				Interval float64 `json:"interval"`
			} `json:"young"`
		} `json:"results"`
	} `json:"rows"`
}

// TestEvaluateScenario (issue 24): evaluate --scenario replays the
// application, costs and policy of a scenario file with the rates of each
// segment's history. Oracle for the costs: Young's interval of each
// segment is sqrt(2·C·M) with the file's checkpoint cost C = 10 min and
// the job MTBF M = MTTF/r(N) of the rate the segment estimated (closed
// form, to 1e-12); for the policy, a file's moldable:A uses A processors.
func TestEvaluateScenario(t *testing.T) {
	const n = 16
	args := []string{"evaluate", "--lanl", lanlSample, "--systems", "20", "--scenario", clusterScenario,
		"--processors", "16", "--segments", "2", "--segments-detail"}
	var got evaluateScenarioOut
	runJSON(t, &got, append(args, "--policies", "optimal,greedy")...)
	if len(got.Rows) != 2 {
		t.Fatalf("%d rows, want optimal and greedy", len(got.Rows))
	}
	for _, row := range got.Rows {
		if row.Status != "Evaluated" || row.Scenario.Application != "cluster.json" || row.Scenario.Processors != n {
			t.Errorf("row %+v, want cluster.json evaluated on %d processors", row.Scenario, n)
		}
		segs := 0
		for _, v := range row.Replayed {
			segs += v.Segments
		}
		if segs != 2 || len(row.Results) != 2 {
			t.Errorf("%s: replayed %+v over %d segments, want 2", row.Scenario.Policy, row.Replayed, len(row.Results))
		}
		for k, res := range row.Results {
			if res.Young == nil || res.Used < 1 {
				t.Fatalf("%s segment %d: no Young interval (r(N) = %d)", row.Scenario.Policy, k, res.Used)
			}
			want := math.Sqrt(2 * 600 * res.MTTF / float64(res.Used))
			if e := math.Abs(res.Young.Interval-want) / want; e > 1e-12 {
				t.Errorf("%s segment %d: Young %v s, want sqrt(2·600·%v/%d) = %v (rel. error %.1e)",
					row.Scenario.Policy, k, res.Young.Interval, res.MTTF, res.Used, want, e)
			}
		}
	}
	if g := got.Rows[1]; g.Scenario.Policy != "greedy" || len(g.Replayed) != 1 || g.Replayed[0].Runs != "1-16: n" {
		t.Errorf("greedy replayed %+v, want 1-16: n", g.Replayed)
	}

	// The text prints each solved policy in the range form, and a
	// progress line per segment off a terminal.
	out, errOut, code := run(t, append(args[:len(args)-1], "--policies", "optimal")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	o := got.Rows[0]
	for _, want := range []string{"Policies solved for each segment", "system 20, cluster.json, optimal (MTTF ",
		"per node, pooled over all nodes, segment histories", o.Replayed[0].Runs} {
		if !strings.Contains(out, want) {
			t.Errorf("text lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(errOut, "evaluate: 2 of 2 segments done\n") || withoutProgress(errOut) != "" {
		t.Errorf("stderr %q, want progress lines only, the last one \"evaluate: 2 of 2 segments done\"", errOut)
	}

	// Without --policies, the file's policy.
	moldable := writeFile(t, "moldable.json", `{
  "system": {"processors": 64, "mttf": "100d", "mttr": "1h"},
  "application": {"work_rate": {"amdahl": {"rate": 1, "serial": 0.02}}, "checkpoint_latency": {"constant": "10m"}, "recovery": {"constant": "5m"}},
  "policy": {"moldable": 8}
}`)
	runJSON(t, &got, "evaluate", "--lanl", lanlSample, "--systems", "20", "--scenario", moldable,
		"--processors", "16", "--segments", "2", "--segments-detail")
	if len(got.Rows) != 1 || got.Rows[0].Scenario.Policy != "moldable:8" || got.Rows[0].Results[0].Used != 8 {
		t.Errorf("the file's policy moldable:8: rows %+v", got.Rows)
	}
}

// TestEvaluateScenarioErrors: --scenario with --apps names both flags and
// exits 2; a processor count the file's application does not describe
// names --processors; a bad file names the file.
func TestEvaluateScenarioErrors(t *testing.T) {
	bad := writeFile(t, "bad.json", `{"system": {"processors": 4}}`)
	base := []string{"evaluate", "--lanl", lanlSample, "--systems", "20"}
	for _, tc := range []struct {
		args []string
		code int
		want []string
	}{
		{[]string{"--scenario", clusterScenario, "--apps", "qr"}, cli.ExitUsage, []string{"--scenario", "--apps"}},
		{[]string{"--scenario", clusterScenario, "--processors", "65"}, cli.ExitUsage, []string{"--processors", "64"}},
		{[]string{"--scenario", bad}, cli.ExitError, []string{"system.mttf"}},
		{[]string{"--scenario", "missing.json"}, cli.ExitError, []string{"missing.json"}},
		{[]string{"--scenario", "../../docs/examples/atlas-two-level.json"}, cli.ExitError, []string{"application.checkpoint_levels", "single checkpoint level"}},
	} {
		args := append(append([]string{}, base...), tc.args...)
		_, errOut, code := run(t, args...)
		if code != tc.code {
			t.Errorf("markov %s: exit %d, want %d (%s)", strings.Join(args[1:], " "), code, tc.code, errOut)
		}
		for _, w := range tc.want {
			if !strings.Contains(errOut, w) {
				t.Errorf("markov %s: stderr %q lacks %q", strings.Join(args[1:], " "), errOut, w)
			}
		}
	}
}

// TestEvaluateSettingsFlags (issue 21): the checks evaluate.Settings makes
// come back naming the flag, with exit status 2, and are made there only.
func TestEvaluateSettingsFlags(t *testing.T) {
	path := syntheticTrace(t, 4, 20*86400, 6*3600, 5)
	for _, tc := range []struct {
		args []string
		flag string
	}{
		{[]string{"--min-duration", "10d", "--max-duration", "5d"}, "--max-duration"},
		{[]string{"--processors", "5"}, "--processors"},
		{[]string{"--processors", "-1"}, "--processors"},
		{[]string{"--workers", "-1"}, "--workers"},
		{[]string{"--segments", "10001"}, "--segments"},
		{[]string{"--segments", "0"}, "--segments"},
		{[]string{"--sweep-points", "2"}, "--sweep-points"},
		{[]string{"--sweep-from", "I*/0.5"}, "--sweep-from"},
		{[]string{"--sweep-from", "1h", "--sweep-to", "30m"}, "--sweep-to"},
	} {
		args := append([]string{"evaluate", "--trace", path, "--apps", "cg"}, tc.args...)
		_, errOut, code := run(t, args...)
		if code != cli.ExitUsage || !strings.HasPrefix(errOut, "markov: "+tc.flag+":") {
			t.Errorf("markov %s: exit %d, stderr %q; want 2 and an error naming %s", strings.Join(args[1:], " "), code, errOut, tc.flag)
		}
	}
}

// TestTraceStatsSeverity (issue 22): trace stats --levels L estimates
// system.failure_severity: L shares summing to 1 over every event of the
// history, and --severity overrides the mapping (all software failures
// at severity 2 of 2 leave severity 1 to human error alone, a smaller
// share); bad values name the flag.
func TestTraceStatsSeverity(t *testing.T) {
	type out struct {
		Systems []struct {
			Events          int `json:"events"`
			FailureSeverity *struct {
				Levels int       `json:"levels"`
				Shares []float64 `json:"shares"`
				Events []int     `json:"events"`
				Causes map[string]int
			} `json:"failure_severity"`
		} `json:"systems"`
	}
	args := []string{"trace", "stats", "--lanl", lanlSample, "--systems", "20", "--levels", "2"}
	var def, soft out
	runJSON(t, &def, args...)
	runJSON(t, &soft, append(args, "--severity", "software=2")...)
	for _, o := range []out{def, soft} {
		s := o.Systems[0]
		fs := s.FailureSeverity
		if fs == nil || fs.Levels != 2 || len(fs.Shares) != 2 || fs.Events[0]+fs.Events[1] != s.Events ||
			math.Abs(fs.Shares[0]+fs.Shares[1]-1) > 1e-12 || fs.Causes["software"] == 0 {
			t.Fatalf("failure_severity %+v, want 2 shares over %d events", fs, s.Events)
		}
	}
	if !(soft.Systems[0].FailureSeverity.Shares[0] < def.Systems[0].FailureSeverity.Shares[0]) {
		t.Errorf("software=2 leaves severity 1 at %v, default %v", soft.Systems[0].FailureSeverity.Shares[0], def.Systems[0].FailureSeverity.Shares[0])
	}
	for _, tc := range []struct {
		args []string
		flag string
	}{
		{[]string{"--levels", "9"}, "--levels"},
		{[]string{"--levels", "2", "--severity", "software=3"}, "--severity"},
		{[]string{"--levels", "2", "--severity", "cosmic=1"}, "--severity"},
		{[]string{"--severity", "software=1"}, "--severity"},
	} {
		a := append([]string{"trace", "stats", "--lanl", lanlSample, "--systems", "20"}, tc.args...)
		_, errOut, code := run(t, a...)
		if code != cli.ExitUsage || !strings.HasPrefix(errOut, "markov: "+tc.flag+":") {
			t.Errorf("markov %s: exit %d, stderr %q; want 2 naming %s", strings.Join(a[1:], " "), code, errOut, tc.flag)
		}
	}
}
