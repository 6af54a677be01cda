package cli_test

import (
	"encoding/json"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The tests of this file check the conventions every command shares
// (issue 12, deliverable 7). Each fails on the code before it.

var snakeCase = regexp.MustCompile(`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`)

// scenarioKeys are the keys of the scenario object of every --json output.
var scenarioKeys = []string{"application", "mttf", "mttr", "policy", "processors"}

// checkKeys walks a decoded JSON value and reports every object key that
// is not snake_case, and every "scenario" object whose keys differ from
// scenarioKeys. It returns the number of scenario objects seen.
func checkKeys(t *testing.T, cmd, path string, v any) int {
	t.Helper()
	seen := 0
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if !snakeCase.MatchString(k) {
				t.Errorf("%s: key %s.%s is not snake_case", cmd, path, k)
			}
			if k == "scenario" {
				seen++
				obj, _ := e.(map[string]any)
				var keys []string
				for sk := range obj {
					keys = append(keys, sk)
				}
				slices.Sort(keys)
				if !slices.Equal(keys, scenarioKeys) {
					t.Errorf("%s: %s.scenario has keys %v, want %v", cmd, path, keys, scenarioKeys)
				}
			}
			seen += checkKeys(t, cmd, path+"."+k, e)
		}
	case []any:
		for _, e := range x {
			seen += checkKeys(t, cmd, path+"[]", e)
		}
	}
	return seen
}

// TestJSONConvention fails on the old code, whose evaluate --json printed
// Go field names ("Rows", "Efficiency.Mean") and no scenario object: every
// command's --json is snake_case, with the same scenario object.
func TestJSONConvention(t *testing.T) {
	tr := syntheticTrace(t, 4, 20*86400, 6*3600, 3)
	small := []string{"--app", "md", "-n", "4", "--mttf", "10d", "--mttr", "2h"}
	for _, args := range [][]string{
		append([]string{"uwt", "--interval", "1h"}, small...),
		append([]string{"optimize"}, small...),
		append([]string{"curve", "--points", "3"}, small...),
		append([]string{"availability", "--counts", "2,4"}, small...),
		append([]string{"simulate", "--interval", "1h", "--horizon", "30d", "--rel-tol", "-1", "--replications", "4"}, small...),
		append([]string{"policy"}, small...),
		append([]string{"intervals"}, small...),
		{"evaluate", "--trace", tr, "--segments", "2", "--apps", "md", "--segments-detail"},
	} {
		out := mustRun(t, append(args, "--json")...)
		var v any
		if err := json.Unmarshal([]byte(out), &v); err != nil {
			t.Fatalf("%s: %v", args[0], err)
		}
		if n := checkKeys(t, args[0], "", v); n == 0 {
			t.Errorf("%s --json has no scenario object:\n%s", args[0], out)
		}
	}
}

// TestExitStatus fails on the old code, which exited 1 (a data error) for
// a --policy vector of the wrong length or with r(n) > n, and ignored
// --policy in availability: usage errors exit 2, data errors 1.
func TestExitStatus(t *testing.T) {
	bad := writeFile(t, "bad.json", `{"system": {"processors": 2}}`)
	for _, tc := range []struct {
		args []string
		code int
		flag string
	}{
		{[]string{"policy", "-n", "3", "--policy", "vector:1,2"}, 2, "--policy"},
		{[]string{"uwt", "-i", "1h", "-n", "3", "--policy", "vector:1,3,3"}, 2, "--policy"},
		{[]string{"optimize", "-n", "8", "--policy", "moldable:9"}, 2, "--policy"},
		{[]string{"optimize", "--policy", "ab"}, 2, "--policy"},
		{[]string{"availability", "-n", "4", "--policy", "pb"}, 2, "--policy"},
		{[]string{"curve", "--unit", "fortnight"}, 2, "--unit"},
		{[]string{"evaluate", "--trace", "x.csv", "--policies", "vector:1,x"}, 2, "--policies"},
		{[]string{"evaluate", "--trace", "x.csv", "--apps", "fft"}, 2, "--apps"},
		{[]string{"curve", "--policy", "optimal"}, 2, "--policy"},
		{[]string{"optimize", "--scenario", bad}, 1, "system.mttf"},
	} {
		_, errOut, code := run(t, tc.args...)
		if code != tc.code || !strings.Contains(errOut, tc.flag) {
			t.Errorf("markov %s: exit %d, stderr %q; want exit %d naming %s", strings.Join(tc.args, " "), code, errOut, tc.code, tc.flag)
		}
	}
}

// TestPoliciesVector fails on the old code, which split --policies at every
// comma and so read "vector:1,2,3,4" as the policies "vector:1", "2", ….
func TestPoliciesVector(t *testing.T) {
	tr := syntheticTrace(t, 4, 20*86400, 6*3600, 3)
	var got evaluateOut
	runJSON(t, &got, "evaluate", "--trace", tr, "--segments", "2", "--apps", "md", "--policies", "greedy,vector:1,2,3,3")
	var policies []string
	for _, r := range got.Rows {
		policies = append(policies, r.Scenario.Policy)
	}
	if want := []string{"greedy", "vector:1,2,3,3"}; !slices.Equal(policies, want) {
		t.Errorf("rows of policies %q, want %q", policies, want)
	}
}

// TestDidYouMean fails on the old code, which joined cobra's suggestion
// into the error line ("…; Did you mean this?; optimize;").
func TestDidYouMean(t *testing.T) {
	_, errOut, code := run(t, "optimise")
	lines := strings.Split(errOut, "\n")
	if code != 2 || lines[0] != `markov: unknown command "optimise" for "markov"` ||
		!slices.Contains(lines, "Did you mean this?") || !slices.Contains(lines, "\toptimize") {
		t.Errorf("exit %d, stderr:\n%s\nwant the suggestion on its own lines", code, errOut)
	}
}

// TestHelpUnknownTopic fails on the old code, where "markov help nosuch"
// printed the usage and exited 0.
func TestHelpUnknownTopic(t *testing.T) {
	_, errOut, code := run(t, "help", "nosuch")
	if code != 2 || !strings.Contains(errOut, "nosuch") {
		t.Errorf("help nosuch: exit %d, stderr %q; want exit 2 naming the topic", code, errOut)
	}
	if out := mustRun(t, "help", "uwt"); !strings.Contains(out, "UWT(I)") {
		t.Errorf("help uwt:\n%s", out)
	}
}

// TestVersion fails on the old code, which had no --version.
func TestVersion(t *testing.T) {
	if out := mustRun(t, "--version"); !strings.HasPrefix(out, "markov ") {
		t.Errorf("--version printed %q", out)
	}
}

// TestDurationUnits fails on the old code, whose --unit knew "min" but not
// "m" (the minute of every duration flag), and which rejected "1d12h".
func TestDurationUnits(t *testing.T) {
	out := mustRun(t, "curve", "--app", "md", "-n", "4", "--from", "30m", "--to", "1d12h", "--points", "2", "--optimum=false", "--unit", "m")
	if !strings.Contains(out, "I (minutes)") || !strings.Contains(out, "2160") {
		t.Errorf("--unit m with --to 1d12h (= 2160 minutes):\n%s", out)
	}
	var got struct {
		Interval float64 `json:"interval"`
	}
	runJSON(t, &got, "uwt", "--app", "md", "-n", "4", "--interval", "1d12h")
	if got.Interval != 1.5*86400 {
		t.Errorf("--interval 1d12h = %v s, want %v", got.Interval, 1.5*86400)
	}
}

// TestREADMEConventions fails on the old README, which did not say to put
// the install directory on PATH nor document the generic trace header.
func TestREADMEConventions(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	for _, want := range []string{`export PATH="$PATH:$(go env GOPATH)/bin"`, "# nodes=N start=S end=E", "# node=I start=S end=E", "--version"} {
		if !strings.Contains(readme, want) {
			t.Errorf("README lacks %q", want)
		}
	}
}
