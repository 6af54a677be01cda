package cli_test

import (
	"strings"
	"testing"
)

// TestEvaluateRuleLastval: --rule lastval reaches the replay (package
// sim's Lastval; its choices are checked by hand there) and a run with it
// differs from one with --rule lowest-index on a trace where the nodes
// fail (a rule that was ignored would print the same table).
func TestEvaluateRuleLastval(t *testing.T) {
	path := syntheticTrace(t, 8, 2*86400, 12*3600, 11)
	args := []string{"evaluate", "--trace", path, "--segments", "2", "--apps", "cg", "--policies", "moldable:4"}
	lastval := mustRun(t, append(args, "--rule", "lastval")...)
	lowest := mustRun(t, append(args, "--rule", "lowest-index")...)
	if !strings.Contains(lastval, "moldable") {
		t.Errorf("table:\n%s", lastval)
	}
	if lastval == lowest {
		t.Errorf("--rule lastval and --rule lowest-index print the same table:\n%s", lastval)
	}
}
