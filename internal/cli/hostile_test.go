package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGivenFlagsNotIgnored: a flag given with a value that means nothing
// (empty lists, a zero step or count, --work-on without --work, a policy
// or interval out of range) is a usage error naming that flag (exit 2);
// before, each fell back to its default silently, or exited 1 with an
// error that did not name the flag (issue 23).
func TestGivenFlagsNotIgnored(t *testing.T) {
	trace := syntheticTrace(t, 8, 20*86400, 3600, 23)
	for _, tc := range []struct {
		args []string
		flag string
	}{
		{[]string{"availability", "-n", "8", "--work-on", "4"}, "--work-on"},
		{[]string{"availability", "-n", "8", "--work", "1h", "--work-on", "0"}, "--work-on"},
		{[]string{"availability", "-n", "8", "--counts", ""}, "--counts"},
		{[]string{"availability", "-n", "8", "--counts", "  "}, "--counts"},
		{[]string{"optimize", "-n", "8", "--policy", "optimal", "--candidates", ""}, "--candidates"},
		{[]string{"optimize", "-n", "8", "--policy", "optimal", "--refine", "0"}, "--refine"},
		{[]string{"optimize", "-n", "8", "--refine", "0"}, "--refine"},
		{[]string{"optimize", "-n", "8", "--candidates", ""}, "--candidates"},
		{[]string{"uwt", "--policy", "optimal", "-n", "16", "--interval", "1e300"}, "--interval"},
		{[]string{"evaluate", "--trace", trace, "--policies", "moldable:0"}, "--policies"},
		{[]string{"evaluate", "--trace", trace, "--policies", "greedy,moldable:9"}, "--policies"},
		{[]string{"trace", "synth", "--nodes", "4", "--duration", "1e30", "-o", filepath.Join(t.TempDir(), "t.csv")}, "--duration"},
	} {
		_, stderr, code := run(t, tc.args...)
		if code != 2 || !strings.HasPrefix(stderr, "markov: "+tc.flag+":") {
			t.Errorf("markov %s: exit %d, stderr %q; want exit 2 naming %s", strings.Join(tc.args, " "), code, stderr, tc.flag)
		}
	}
}

// TestErrorsQuoteAPrefixCLI: a bad flag value or scenario value of any
// size is quoted by at most a short prefix (internal/quote): before, a
// 10⁵-character value gave an error line as long (issue 23).
func TestErrorsQuoteAPrefixCLI(t *testing.T) {
	long := strings.Repeat("1", 100000)
	scen := writeFile(t, "long.json", `{"system": {"processors": 4, "mttf": `+long+`, "mttr": 60}, "application": "qr", "policy": "greedy"}`)
	for _, args := range [][]string{
		{"optimize", "--mttf", long + "x"},
		{"optimize", "--policy", "vector:" + long + "x"},
		{"optimize", "--policy", long},
		{"optimize", "--scenario", scen},
		{"availability", "-n", "8", "--counts", long},
		{"evaluate", "--lanl", scen, "--systems", long},
		{"curve", "--unit", long},
		{"trace", "synth", "--grouped-failures", "0.5", "--sizes", long, "-o", filepath.Join(t.TempDir(), "t.csv")},
		{"help", long},
	} {
		_, stderr, code := run(t, args...)
		if code == 0 || len(stderr) > 400 {
			t.Errorf("markov %.60s: exit %d, %d bytes of error, want an error of at most 400 bytes: %.200s", strings.Join(args, " "), code, len(stderr), stderr)
		}
	}
}

// TestScenarioNotJSON: a scenario file that is not JSON (/dev/zero's
// zeros, random bytes) is refused at its first bytes, exit 1, for every
// command that reads one.
func TestScenarioNotJSON(t *testing.T) {
	zeros := writeFile(t, "zeros", strings.Repeat("\x00", 1<<20))
	if _, err := os.Stat("/dev/zero"); err == nil {
		zeros = "/dev/zero"
	}
	for _, cmd := range [][]string{{"optimize"}, {"uwt", "-i", "1h"}, {"curve"}, {"availability"}, {"simulate", "-i", "1h"}, {"intervals"}, {"policy"}} {
		_, stderr, code := run(t, append(cmd, "--scenario", zeros)...)
		if code != 1 || !strings.Contains(stderr, "not valid JSON (byte 1)") {
			t.Errorf("markov %s --scenario %s: exit %d, stderr %q; want exit 1 saying it is not JSON", cmd[0], zeros, code, stderr)
		}
	}
}

// TestErrorsNameFlags: where the user typed flags, an error names them,
// not the Go fields behind them ("Settings.MaxStates", "Config.Duration"):
// the optimal policy's state bound and trace synth's outage bound.
func TestErrorsNameFlags(t *testing.T) {
	big := writeFile(t, "big.json", `{"system": {"processors": 100000, "mttf": "100d", "mttr": "1h"}, "application": {"work_rate": {"power": {"coefficient": 1, "exponent": 0.5}}, "checkpoint_latency": 60, "recovery": 60}, "policy": "greedy"}`)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"policy", "--scenario", big, "--policy", "optimal"}, "--candidates"},
		{[]string{"trace", "synth", "--nodes", "100000", "--duration", "10y", "--mttf", "1h", "-o", filepath.Join(t.TempDir(), "t.csv")}, "--duration"},
	} {
		_, stderr, code := run(t, tc.args...)
		if code == 0 || !strings.Contains(stderr, tc.want) || strings.Contains(stderr, "Settings.") || strings.Contains(stderr, "Config.") {
			t.Errorf("markov %s: exit %d, stderr %q; want an error naming %s and no Go field", strings.Join(tc.args, " "), code, stderr, tc.want)
		}
	}
}

// TestUWTAccuracyRow: where UWT is a tiny fraction of the work rate (N =
// 64, MTTF = MTTR = 3 min, I = 1.167 s: UWT ≈ 5e-12) markov uwt says that
// the dropped mass bounds its error only loosely (the Accuracy row, JSON
// error_bound above 1e-6); near I* (the built-in scenario at 1 h) it does
// not.
func TestUWTAccuracyRow(t *testing.T) {
	if out := mustRun(t, "uwt", "-n", "64", "--mttf", "3m", "--mttr", "3m", "-i", "1.167"); !strings.Contains(out, "Accuracy") {
		t.Errorf("volatile system at I = 1.167 s: no Accuracy row in\n%s", out)
	}
	if out := mustRun(t, "uwt", "-i", "1h"); strings.Contains(out, "Accuracy") {
		t.Errorf("built-in scenario at 1 h: an Accuracy row in\n%s", out)
	}
	var o struct {
		ErrorBound float64 `json:"error_bound"`
	}
	runJSON(t, &o, "uwt", "-n", "64", "--mttf", "3m", "--mttr", "3m", "-i", "1.167", "--json")
	if !(o.ErrorBound > 1e-6) {
		t.Errorf("error_bound %g, want above 1e-6", o.ErrorBound)
	}
}
