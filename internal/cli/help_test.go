package cli

import (
	"bytes"
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
