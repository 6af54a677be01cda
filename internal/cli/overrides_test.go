package cli_test

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/ckpt-markov/markov/intervals"
)

// costBase is the base scenario of TestCostFlags: per-count lists with
// distinct entries, so that a flag that touched another field would show.
const costBase = `{
  "system": {"processors": 4, "mttf": "2d", "mttr": "1h"},
  "application": {
    "work_rate": [1, 1.9, 2.7, 3.4],
    "checkpoint_latency": [60, 70, 80, 90],
    "checkpoint_overhead": [30, 35, 40, 45],
    "recovery": [10, 20, 30, 40]
  },
  "policy": "greedy"
}`

// TestCostFlags: each of --checkpoint, --overhead, --recovery and --work
// on the base file gives, bit for bit, the UWT and availability of the
// file with exactly its field edited (and --checkpoint alone also the
// overhead: a blocking checkpoint), on every command that takes them,
// and the scenario object names the override.
func TestCostFlags(t *testing.T) {
	base := writeFile(t, "base.json", costBase)
	tests := []struct {
		flags    []string
		from, to string // the edit of the file
		key      string // the scenario object's key that shows it
	}{
		{[]string{"--checkpoint", "2m"}, `"checkpoint_latency": [60, 70, 80, 90],
    "checkpoint_overhead": [30, 35, 40, 45],`, `"checkpoint_latency": 120,`, "checkpoint_latency"},
		{[]string{"--checkpoint", "2m", "--overhead", "50s"}, `"checkpoint_latency": [60, 70, 80, 90],
    "checkpoint_overhead": [30, 35, 40, 45],`, `"checkpoint_latency": 120, "checkpoint_overhead": 50,`, "checkpoint_overhead"},
		{[]string{"--overhead", "20"}, `"checkpoint_overhead": [30, 35, 40, 45]`, `"checkpoint_overhead": 20`, "checkpoint_overhead"},
		{[]string{"--recovery", "5m"}, `"recovery": [10, 20, 30, 40]`, `"recovery": 300`, "recovery"},
		{[]string{"--work", "linear"}, `"work_rate": [1, 1.9, 2.7, 3.4]`, `"work_rate": {"constant": 0, "per_processor": 1}`, "work_rate"},
		{[]string{"--work", "amdahl:0.1"}, `"work_rate": [1, 1.9, 2.7, 3.4]`, `"work_rate": {"amdahl": {"rate": 1, "serial": 0.1}}`, "work_rate"},
		{[]string{"--work", "power:0.7"}, `"work_rate": [1, 1.9, 2.7, 3.4]`, `"work_rate": {"power": {"coefficient": 1, "exponent": 0.7}}`, "work_rate"},
	}
	for _, tc := range tests {
		if !strings.Contains(costBase, tc.from) {
			t.Fatalf("%v: the base has no %s", tc.flags, tc.from)
		}
		edited := writeFile(t, "edited.json", strings.Replace(costBase, tc.from, tc.to, 1))
		var got, want uwtOut
		out := runJSON(t, &got, append([]string{"uwt", "--interval", "1h", "--scenario", base}, tc.flags...)...)
		runJSON(t, &want, "uwt", "--interval", "1h", "--scenario", edited)
		if got.UWT != want.UWT || got.Availability != want.Availability || got.States != want.States {
			t.Errorf("%v: UWT %v, availability %v, %d states; the edited file gives %v, %v, %d",
				tc.flags, got.UWT, got.Availability, got.States, want.UWT, want.Availability, want.States)
		}
		if !strings.Contains(out, `"`+tc.key+`"`) {
			t.Errorf("%v: the scenario object does not show %s:\n%s", tc.flags, tc.key, out)
		}
		// The other model commands take the same flags.
		cmds := [][]string{{"optimize"}, {"curve", "--points", "3"}, {"policy"},
			{"simulate", "--interval", "1h", "--horizon", "10d", "--rel-tol", "-1", "--replications", "2"}}
		for _, cmd := range cmds {
			mustRun(t, append(append(cmd, "--scenario", base), tc.flags...)...)
		}
		// availability and intervals, whose --work is also a job's
		// DURATION, give what the edited file gives, every field but the
		// scenario's description.
		for _, cmd := range [][]string{{"availability"}, {"intervals"}} {
			var got, want map[string]any
			runJSON(t, &got, append(append(cmd, "--json", "--scenario", base), tc.flags...)...)
			runJSON(t, &want, append(cmd, "--json", "--scenario", edited)...)
			delete(got, "scenario")
			delete(want, "scenario")
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s %v: %v\nthe edited file gives %v", cmd[0], tc.flags, got, want)
			}
		}
	}
}

// TestCostFlagErrors: a bad value exits 2 with an error naming the flag.
func TestCostFlagErrors(t *testing.T) {
	levels := writeFile(t, "levels.json", `{"system": {"processors": 3, "mttf": 8640000, "mttr": 3600, "failure_severity": [0.9, 0.1]},
		"application": {"work_rate": [1, 1.9, 2.7], "checkpoint_levels": [{"latency": 9, "recovery": 9}, {"latency": 400, "recovery": 420}]}, "policy": "greedy"}`)
	for _, tc := range []struct {
		args []string
		flag string
	}{
		{[]string{"--checkpoint", "soon"}, "--checkpoint"},
		{[]string{"--checkpoint", "-10m"}, "--checkpoint"},
		{[]string{"--checkpoint", "1e30s"}, "--checkpoint"},
		{[]string{"--overhead", "1h"}, "--overhead"}, // above QR's latency
		{[]string{"--checkpoint", "10m", "--overhead", "11m"}, "--overhead"},
		{[]string{"--recovery", "x"}, "--recovery"},
		{[]string{"--recovery", "-1s"}, "--recovery"},
		{[]string{"--work", "cubic"}, "--work"},
		{[]string{"--work", "amdahl:2"}, "--work"},
		{[]string{"--work", "power:x"}, "--work"},
		{[]string{"--scenario", levels, "--checkpoint", "10m"}, "--checkpoint"},
		{[]string{"--scenario", levels, "--recovery", "10m"}, "--recovery"},
	} {
		_, errOut, code := run(t, append([]string{"optimize"}, tc.args...)...)
		if code != 2 || !strings.Contains(errOut, tc.flag) {
			t.Errorf("optimize %s: exit %d, stderr %q; want exit 2 naming %s", strings.Join(tc.args, " "), code, errOut, tc.flag)
		}
	}
}

// TestCostFlagsOneProcessor: the flags alone describe the one-processor
// scenario of docs/model.md section 7 (the built-in application with every
// input overridden), whose best interval and availability have the closed
// form of oneAvailability: I* to the search's tolerance, and UWT = A there
// (ω(1) = 1 for --work linear) to 1e-9.
func TestCostFlagsOneProcessor(t *testing.T) {
	var got optimizeOut
	runJSON(t, &got, "optimize", "-n", "1", "--mttf", "1h", "--mttr", "10m",
		"--checkpoint", "60.6s", "--recovery", "30s", "--work", "linear", "--rel-tol", "1e-7")
	wantI, wantA := oneOptimum(oneMTTF)
	if e := relErr(got.Interval, wantI); e > 1e-6 {
		t.Errorf("I* = %v s, the closed form's %v s (relative error %.2g, want ≤ 1e-6)", got.Interval, wantI, e)
	}
	if e := relErr(got.UWT, wantA); e > 1e-9 {
		t.Errorf("UWT at I* = %v, the closed form's A = %v (relative error %.2g)", got.UWT, wantA, e)
	}
}

// TestEverydayQuestion: "256 nodes, MTTF 5 d, MTTR 2 h, a checkpoint takes
// 10 min, a restart 5 min" is one command, and its answer agrees with the
// closed forms.
//
// The oracle: with L = C, an up phase on a processors ends at the first
// failure of one of them, after an Exp(aλ) time whatever I is, and
// commits (I + L − C)·q/(1 − q) of work time, q = e^{−aλ(I+L)}; the
// recoveries, the waits and the counts the policy visits do not depend
// on I either (the paper's model, no reconfiguration). So UWT(I) =
// Σ_a c_a·I/(e^{aλ(I+L)} − 1) with weights c_a ≥ 0 free of I, each term
// unimodal with its maximum at Vaidya's and Daly's exact optimum
// τ*(aλ, C) = (1 + W₀(−e^{−1−aλC}))/(aλ) (intervals.VaidyaInterval), which
// falls with a. Hence:
//
//   - on a fixed count (moldable:256), I* = τ*(256λ, C) exactly: checked
//     to 1e-6 relative with the search at --rel-tol 1e-7;
//   - with greedy, I* lies between τ*(256λ, C) and τ*(a₋λ, C) for the
//     least count a₋ with weight; a₋ = 200 is safe: 56 of 256 processors
//     down at once, each down with probability MTTR/(MTTF + MTTR) = 1/61,
//     has a binomial probability below 1e−40.
func TestEverydayQuestion(t *testing.T) {
	question := []string{"optimize", "-n", "256", "--mttf", "5d", "--mttr", "2h", "--checkpoint", "10m", "--recovery", "5m"}
	lambda := 1 / (5 * 86400.0)
	tau := func(a int) float64 {
		v, err := intervals.VaidyaInterval(float64(a)*lambda, 600)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	var fixed optimizeOut
	runJSON(t, &fixed, append(question, "--policy", "moldable:256", "--work", "linear", "--rel-tol", "1e-7")...)
	if e := relErr(fixed.Interval, tau(256)); e > 1e-6 {
		t.Errorf("moldable:256: I* = %v s, Vaidya's exact optimum %v s (relative error %.2g, want ≤ 1e-6)", fixed.Interval, tau(256), e)
	}
	var greedy optimizeOut
	runJSON(t, &greedy, question...)
	if lo, hi := tau(256), tau(200); !(greedy.Interval > lo && greedy.Interval < hi) {
		t.Errorf("greedy: I* = %v s, want within (τ*(256λ), τ*(200λ)) = (%v, %v) s", greedy.Interval, lo, hi)
	}
	out := mustRun(t, question...)
	if !strings.Contains(out, "checkpoint 10m, recovery 5m") {
		t.Errorf("the Scenario line does not show the overridden costs:\n%s", out)
	}
	if math.IsNaN(greedy.UWT) || greedy.UWT <= 0 {
		t.Errorf("greedy: UWT %v, want positive", greedy.UWT)
	}
}

// TestAvailabilityShowsOverrides: the text of availability names the cost
// and work-rate flags it applied, as every other command's scenario line
// does (it used to show the system alone, so a table computed with
// --work amdahl:0.1 looked like the benchmark's).
func TestAvailabilityShowsOverrides(t *testing.T) {
	out := mustRun(t, "availability", "-n", "4", "--work", "amdahl:0.1", "--checkpoint", "2m")
	first, _, _ := strings.Cut(out, "\n")
	for _, want := range []string{"checkpoint 2m", "work amdahl:0.1"} {
		if !strings.Contains(first, want) {
			t.Errorf("System line %q does not name %q", first, want)
		}
	}
	plain, _, _ := strings.Cut(mustRun(t, "availability", "-n", "4"), "\n")
	if strings.Contains(plain, "work ") {
		t.Errorf("without overrides the System line names a work rate: %q", plain)
	}
}
