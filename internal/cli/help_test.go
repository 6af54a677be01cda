package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// durationFlags and listFlags are the flags that take a duration or a
// comma-separated list, by name; their help names the value DURATION or
// LIST.
var (
	durationFlags = map[string]bool{
		"mttf": true, "mttr": true, "interval": true, "horizon": true, "from": true, "to": true,
		"min-duration": true, "max-duration": true, "event-tolerance": true, "sweep-to": true,
		"duration": true, "tolerance": true, "resolution": true, "lookback": true,
		"checkpoint": true, "overhead": true, "recovery": true,
	}
	listFlags = map[string]bool{"systems": true, "apps": true, "policies": true, "counts": true, "candidates": true}
)

// eachFlag calls fn with every flag of every command under root.
func eachFlag(root *cobra.Command, fn func(cmd *cobra.Command, f *pflag.Flag)) {
	root.LocalFlags().VisitAll(func(f *pflag.Flag) { fn(root, f) })
	for _, c := range root.Commands() {
		eachFlag(c, fn)
	}
}

// TestFlagHelp checks the help of the flags: no value typed "string"
// (every string flag names its value), durations DURATION, lists LIST
// (a duration flag typed "string" beside others typed DURATION was issue
// 24's first drift).
func TestFlagHelp(t *testing.T) {
	root := newRootCmd(&env{})
	seen := map[string]bool{}
	eachFlag(root, func(cmd *cobra.Command, f *pflag.Flag) {
		name, _ := pflag.UnquoteUsage(f)
		where := cmd.CommandPath() + " --" + f.Name
		switch typ := f.Value.Type(); {
		case typ != "string" && typ != "stringArray" && typ != "stringSlice":
			return
		case name == typ:
			t.Errorf("%s: the value is typed %q; name it in the help (`NAME`)", where, name)
		case durationFlags[f.Name] && name != "DURATION":
			t.Errorf("%s: value %s, want DURATION", where, name)
		case listFlags[f.Name] && name != "LIST":
			t.Errorf("%s: value %s, want LIST", where, name)
		}
		seen[f.Name] = true
	})
	for _, f := range []string{"mttf", "systems", "min-duration", "lookback", "candidates"} {
		if !seen[f] {
			t.Errorf("no command has --%s: the test's lists are stale", f)
		}
	}
}

// help returns the help of a command.
func help(t *testing.T, args ...string) string {
	t.Helper()
	var out, errOut bytes.Buffer
	if code := Run(append(args, "--help"), &out, &errOut); code != 0 {
		t.Fatalf("%v --help: exit %d, %s", args, code, errOut.String())
	}
	return out.String()
}

// TestPolicyHelp checks that the help lists only what a command accepts:
// availability does not list --policy (it refuses it), curve and
// intervals do not list optimal (they refuse it), the commands that solve
// it do; and evaluate's small items of issue 24.
func TestPolicyHelp(t *testing.T) {
	policyLine := func(h string) string {
		for l := range strings.SplitSeq(h, "\n") {
			if strings.HasPrefix(strings.TrimSpace(l), "--policy ") {
				return l
			}
		}
		return ""
	}
	for _, c := range []struct {
		cmd     string
		listed  bool // --policy in the help
		optimal bool // optimal among its values
	}{
		{"availability", false, false},
		{"curve", true, false},
		{"intervals", true, false},
		{"optimize", true, true},
		{"uwt", true, true},
		{"policy", true, true},
		{"simulate", true, true},
	} {
		l := policyLine(help(t, c.cmd))
		if (l != "") != c.listed || strings.Contains(l, "optimal") != c.optimal {
			t.Errorf("%s --help: --policy line %q; want listed %v, optimal %v", c.cmd, l, c.listed, c.optimal)
		}
		// What the help does not list is refused, with the flag named.
		refused := ""
		switch {
		case !c.listed:
			refused = "greedy"
		case !c.optimal:
			refused = "optimal"
		}
		if refused != "" {
			var out, errOut bytes.Buffer
			if code := Run([]string{c.cmd, "--policy", refused}, &out, &errOut); code != ExitUsage || !strings.Contains(errOut.String(), "--policy") {
				t.Errorf("%s --policy %s: exit %d, %q; want %d naming --policy", c.cmd, refused, code, errOut.String(), ExitUsage)
			}
		}
	}
	h := help(t, "evaluate")
	for _, want := range []string{"-n, --processors N", "gzip"} {
		if !strings.Contains(h, want) {
			t.Errorf("evaluate --help lacks %q", want)
		}
	}
}

// TestGapText checks the one sign rule of the level table's gaps: a gap
// that rounds to zero is "0.000 %" (the old code printed "+0.000 %" for
// u = ref and "-0.000 %" for u a hair below it, side by side).
func TestGapText(t *testing.T) {
	for _, c := range []struct {
		u, ref float64
		want   string
	}{
		{9.5768, 9.5768, "0.000 %"},
		{9.5768 * (1 - 1e-9), 9.5768, "0.000 %"},
		{9.5768 * (1 + 4e-6), 9.5768, "0.000 %"},
		{9.5767, 9.5768, "-0.001 %"},
		{0.99, 1, "-1.000 %"},
		{1.02, 1, "+2.000 %"},
	} {
		if got := gapText(c.u, c.ref); got != c.want {
			t.Errorf("gapText(%v, %v) = %q, want %q", c.u, c.ref, got, c.want)
		}
	}
}

// TestTracePValues checks that trace stats prints every p-value by one
// rule: LANL system 20's likelihood-ratio p-value underflows, and the
// table printed "p = 0" where the verdict below printed "p < 1e-300".
func TestTracePValues(t *testing.T) {
	var out, errOut bytes.Buffer
	lanl := filepath.Join("..", "..", "trace", "testdata", "lanl", "failures.csv.gz")
	if code := Run([]string{"trace", "stats", "--lanl", lanl, "--systems", "20"}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	s := out.String()
	if strings.Contains(s, "p = 0\n") || strings.Contains(s, "p = 0 ") || strings.Contains(s, "p = 0)") {
		t.Errorf("trace stats prints \"p = 0\":\n%s", s)
	}
	if n := strings.Count(s, "p < 1e-300"); n < 2 {
		t.Errorf("\"p < 1e-300\" %d times, want in the table and the verdict:\n%s", n, s)
	}
}

// TestSimulateInterruptions checks that simulate's JSON names the count
// the table calls interruptions "interruptions", with the old "failures"
// beside it (an alias for one release), both equal to the table's figure.
func TestSimulateInterruptions(t *testing.T) {
	args := []string{"simulate", "-n", "4", "--mttf", "2d", "-i", "1h", "--replications", "2", "--rel-tol", "-1", "--horizon", "30d"}
	var out, errOut bytes.Buffer
	if code := Run(append(args, "--json"), &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	var got map[string]any
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	in, ok1 := got["interruptions"].(float64)
	fa, ok2 := got["failures"].(float64)
	if !ok1 || !ok2 || in != fa || in <= 0 {
		t.Fatalf("interruptions %v, failures %v: want both, equal and positive", got["interruptions"], got["failures"])
	}
	out.Reset()
	if code := Run(args, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	if want := fmt.Sprintf("%d interruptions", int64(in)); !strings.Contains(out.String(), want) {
		t.Errorf("table lacks %q:\n%s", want, out.String())
	}
}

// TestScenarioApplicationJSON checks the README's promise that every
// --json object carries the scenario object with its application, for a
// scenario file too (the file's name); a regression test: the code
// already kept it when issue 24's item was checked.
func TestScenarioApplicationJSON(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "cluster.json")
	if err := os.WriteFile(file, []byte(`{"system": {"processors": 4, "mttf": "20d", "mttr": "1h"},
 "application": {"work_rate": [1, 2, 3, 4], "checkpoint_latency": [60, 60, 60, 60], "recovery": 30}, "policy": "greedy"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"optimize"}, {"uwt", "-i", "1h"}, {"curve", "--points", "3"}, {"availability"}, {"intervals"}, {"policy"},
		{"simulate", "--replications", "2", "--rel-tol", "-1", "--horizon", "30d"}, {"optimize", "--policy", "optimal"},
	} {
		var out, errOut bytes.Buffer
		if code := Run(append(args, "--scenario", file, "--json"), &out, &errOut); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errOut.String())
		}
		var got struct {
			Scenario map[string]any `json:"scenario"`
		}
		if err := json.Unmarshal(out.Bytes(), &got); err != nil {
			t.Fatal(err)
		}
		for _, key := range []string{"application", "processors", "mttf", "mttr", "policy"} {
			if _, ok := got.Scenario[key]; !ok {
				t.Errorf("%v --json: scenario lacks %q: %v", args, key, got.Scenario)
			}
		}
		if got.Scenario["application"] != "cluster.json" {
			t.Errorf("%v --json: application %v, want cluster.json", args, got.Scenario["application"])
		}
	}
}
