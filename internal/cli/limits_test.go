package cli_test

import (
	"strings"
	"testing"
)

// TestOptimizeNoUsefulWork: with an MTTF of 1 s no segment of the QR
// benchmark on 128 processors ever completes, so UWT is 0 at every interval;
// optimize must say that no interval gives useful work rather than name an
// "optimal interval" and warn that UWT still rises.
func TestOptimizeNoUsefulWork(t *testing.T) {
	out := mustRun(t, "optimize", "--mttf", "1s")
	if !strings.Contains(out, "no interval gives useful work") || strings.Contains(out, "still rises") {
		t.Errorf("optimize --mttf 1s printed\n%s\nwant the statement that no interval gives useful work", out)
	}
	var o optimizeOut
	runJSON(t, &o, "optimize", "--mttf", "1s", "--json")
	if o.Status != "NoUsefulWork" {
		t.Errorf("--json status %q, want NoUsefulWork", o.Status)
	}
}

// TestSimulateReplicationsLimit: a replication count beyond the library's
// bound is a usage error naming the flag and the limit, before anything
// is allocated.
func TestSimulateReplicationsLimit(t *testing.T) {
	_, stderr, code := run(t, "simulate", "-n", "4", "--interval", "6h", "--replications", "2000000000")
	if code != 2 || !strings.Contains(stderr, "--replications") || !strings.Contains(stderr, "10000") {
		t.Errorf("exit %d, stderr %q; want exit 2 naming --replications and the limit 10000", code, stderr)
	}
}

// TestProcessorsShrinkFile: --processors restricting a file scenario of
// many counts must not expand its recovery cost to the file's N×N matrix
// (65,536 counts: 34 GB before the fix); this one has 8,000 counts (512 MB
// before), and the run must complete.
func TestProcessorsShrinkFile(t *testing.T) {
	const n = 8000
	var b strings.Builder
	b.WriteString(`{"system": {"processors": 8000, "mttf": "100d", "mttr": "1h"}, "application": {"work_rate": [`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("1")
	}
	b.WriteString(`], "checkpoint_latency": 60, "recovery": 30}, "policy": "greedy"}`)
	path := writeFile(t, "big.json", b.String())
	out := mustRun(t, "uwt", "--scenario", path, "--processors", "4", "--interval", "1h")
	if !strings.Contains(out, "UWT") {
		t.Errorf("output %q lacks the UWT", out)
	}
}
