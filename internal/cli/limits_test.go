package cli_test

import (
	"strings"
	"testing"
)

// TestOptimizeNoUsefulWork: with an MTTF of 1 s no segment of the QR
// benchmark on 128 processors ever completes, so UWT is negligible (1e-86
// or 0) at every interval;
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

// TestSizeFlagsBounded: size-like flags beyond their limits are usage
// errors naming the flag and the limit, before anything is allocated (a
// grid of 2·10⁹ points is 16 GB).
func TestSizeFlagsBounded(t *testing.T) {
	for _, tc := range []struct {
		args        []string
		flag, limit string
	}{
		{[]string{"curve", "--points", "2000000000", "--from", "1h", "--to", "2h"}, "--points", "10000"},
		{[]string{"evaluate", "--segments", "2000000000"}, "--segments", "10000"},
	} {
		_, stderr, code := run(t, tc.args...)
		if code != 2 || !strings.Contains(stderr, tc.flag) || !strings.Contains(stderr, tc.limit) {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 naming %s and the limit %s", tc.args, code, stderr, tc.flag, tc.limit)
		}
	}
}

// TestDeepErrorsNamed: inputs whose products or reciprocals overflow inside
// the model (an MTTF of 1e-320 s made the failure rate +Inf in package
// birthdeath; a work rate of 1e306 made a segment's reward +Inf in
// markov.RenewalReward) are rejected up front, naming the field.
func TestDeepErrorsNamed(t *testing.T) {
	_, stderr, code := run(t, "uwt", "--mttf", "1e-320s", "--interval", "1h")
	if code == 0 || !strings.Contains(stderr, "mttf") || strings.Contains(stderr, "birthdeath") {
		t.Errorf("--mttf 1e-320s: exit %d, stderr %q; want an error naming the MTTF", code, stderr)
	}
	path := writeFile(t, "w.json", `{"system": {"processors": 2, "mttf": "100d", "mttr": "1h"},
		"application": {"work_rate": [1, 1e306], "checkpoint_latency": 60, "recovery": 30}, "policy": "greedy"}`)
	_, stderr, code = run(t, "uwt", "--scenario", path, "--interval", "1h")
	if code == 0 || !strings.Contains(stderr, "application.work_rate[1]") || strings.Contains(stderr, "RenewalReward") {
		t.Errorf("work_rate 1e306: exit %d, stderr %q; want an error naming application.work_rate[1]", code, stderr)
	}
}

// TestSimulateNothingCommitted: a one-stage run shorter than a segment
// commits nothing; it must not be called converged (it was, with 0 ± 0).
func TestSimulateNothingCommitted(t *testing.T) {
	out := mustRun(t, "simulate", "-n", "4", "--interval", "6h", "--horizon", "1s", "--rel-tol", "-1")
	if strings.Contains(out, "Converged") || !strings.Contains(out, "NoCommits") {
		t.Errorf("output\n%s\nwant status NoCommits, not Converged", out)
	}
}

// TestMaxMemoryFlag: the model's size estimate is refused beyond the
// limit, and --max-memory is the explicit override named in the refusal:
// --exact on 400 processors (≈ 7 GB estimated) is refused by default, and
// on 60 processors (≈ 0.024 GB) it is refused under --max-memory 0.001
// and built under the default.
func TestMaxMemoryFlag(t *testing.T) {
	_, stderr, code := run(t, "uwt", "--exact", "-n", "400", "--interval", "17h")
	if code != 1 || !strings.Contains(stderr, "--exact") || !strings.Contains(stderr, "--max-memory") {
		t.Errorf("exit %d, stderr %q; want exit 1 naming --exact and --max-memory", code, stderr)
	}
	_, stderr, code = run(t, "uwt", "--exact", "-n", "60", "--interval", "17h", "--max-memory", "0.001")
	if code != 1 || !strings.Contains(stderr, "too large") {
		t.Errorf("--max-memory 0.001: exit %d, stderr %q; want the model refused", code, stderr)
	}
	mustRun(t, "uwt", "--exact", "-n", "60", "--interval", "17h")
	_, stderr, code = run(t, "uwt", "--max-memory", "-1", "--interval", "17h")
	if code != 2 || !strings.Contains(stderr, "--max-memory") {
		t.Errorf("--max-memory -1: exit %d, stderr %q; want a usage error", code, stderr)
	}
}
