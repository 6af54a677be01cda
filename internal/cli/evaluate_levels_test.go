package cli_test

import (
	"math"
	"strings"
	"testing"

	"github.com/ckpt-markov/markov/internal/cli"
)

const atlasScenario = "../../docs/examples/atlas-two-level.json"

// evaluateLevelsOut is the part of evaluate --levels --json
// --segments-detail that the tests read.
type evaluateLevelsOut struct {
	Rows []struct {
		Status          string    `json:"status"`
		Levels          int       `json:"levels"`
		FailureSeverity []float64 `json:"failure_severity"`
		Gain            struct {
			Mean float64 `json:"mean"`
		} `json:"gain"`
		Results []struct {
			FailureSeverity []float64 `json:"failure_severity"`
			Estimated       bool      `json:"failure_severity_estimated"`
			Failures        []int     `json:"failures_by_severity"`
			MultiLevel      struct {
				Pattern        []int     `json:"pattern"`
				Interval       float64   `json:"interval"`
				LevelIntervals []float64 `json:"level_intervals"`
				UWT            float64   `json:"uwt"`
			} `json:"multi_level"`
			SingleLevel struct {
				Pattern []int   `json:"pattern"`
				UWT     float64 `json:"uwt"`
			} `json:"single_level"`
			Gain float64 `json:"gain"`
		} `json:"results"`
	} `json:"rows"`
}

// TestEvaluateLevels: evaluate --scenario FILE --levels replays the
// multi-level optimum beside the best single-level schedule on each
// segment. Checks: the shares estimated from each history sum to 1;
// --severity-shares scenario gives the file's; the level intervals are
// I·∏(V_ℓ + 1); gain = uwt / single uwt − 1; a file's checkpoint_pattern
// fixes the pattern. Oracle: when every cause maps
// to the top level (--severity …=2), no failure is survived by a level-1
// checkpoint, so the model's optimum is the single-level schedule (V = 0)
// and the gain is exactly 0.
func TestEvaluateLevels(t *testing.T) {
	base := []string{"evaluate", "--lanl", lanlSample, "--systems", "20", "--scenario", atlasScenario, "--levels",
		"--segments", "3", "--segments-detail"}
	var got evaluateLevelsOut
	runJSON(t, &got, base...)
	if len(got.Rows) != 1 || got.Rows[0].Status != "Evaluated" || got.Rows[0].Levels != 2 || len(got.Rows[0].Results) != 3 {
		t.Fatalf("rows %+v, want one evaluated row of 2 levels and 3 segments", got.Rows)
	}
	for k, res := range got.Rows[0].Results {
		if s := res.FailureSeverity[0] + res.FailureSeverity[1]; !res.Estimated || math.Abs(s-1) > 1e-12 {
			t.Errorf("segment %d: shares %v (estimated %v), want estimated shares summing to 1", k, res.FailureSeverity, res.Estimated)
		}
		m := res.MultiLevel
		if want := m.Interval * float64(m.Pattern[0]+1); math.Abs(m.LevelIntervals[1]-want) > 1e-9*want || m.LevelIntervals[0] != m.Interval {
			t.Errorf("segment %d: level intervals %v, want [I, I·(V₁+1)] = [%v, %v]", k, m.LevelIntervals, m.Interval, want)
		}
		if want := m.UWT/res.SingleLevel.UWT - 1; math.Abs(res.Gain-want) > 1e-12 {
			t.Errorf("segment %d: gain %v, want %v", k, res.Gain, want)
		}
	}

	var file evaluateLevelsOut
	runJSON(t, &file, append(base, "--severity-shares", "scenario")...)
	for k, res := range file.Rows[0].Results {
		if res.Estimated || res.FailureSeverity[0] != 0.9374623448608267 {
			t.Errorf("segment %d: shares %v (estimated %v), want the file's", k, res.FailureSeverity, res.Estimated)
		}
	}

	// The file's checkpoint_pattern fixes the pattern.
	fixed := writeFile(t, "fixed.json", `{"system": {"processors": 1, "mttf": "10d", "mttr": "1h", "failure_severity": [0.9, 0.1]},
		"application": {"work_rate": [1], "checkpoint_levels": [{"latency": 9, "recovery": 9}, {"latency": 438, "recovery": 438}]},
		"checkpoint_pattern": [3], "policy": "greedy"}`)
	var pat evaluateLevelsOut
	runJSON(t, &pat, "evaluate", "--lanl", lanlSample, "--systems", "20", "--scenario", fixed, "--levels", "--segments", "2", "--segments-detail")
	for k, res := range pat.Rows[0].Results {
		if len(res.MultiLevel.Pattern) != 1 || res.MultiLevel.Pattern[0] != 3 {
			t.Errorf("segment %d: pattern %v, want the file's [3]", k, res.MultiLevel.Pattern)
		}
	}

	var top evaluateLevelsOut
	runJSON(t, &top, append(base, "--severity", "software=2,human-error=2,hardware=2,undetermined=2,unknown=2,facilities=2,network=2")...)
	for k, res := range top.Rows[0].Results {
		if res.FailureSeverity[0] != 0 || res.Failures[0] != 0 || res.MultiLevel.Pattern[0] != 0 || res.Gain != 0 {
			t.Errorf("segment %d: every failure of severity 2: shares %v, failures %v, pattern %v, gain %v; want [0 1], none of severity 1, V = 0, gain 0",
				k, res.FailureSeverity, res.Failures, res.MultiLevel.Pattern, res.Gain)
		}
	}
}

// TestEvaluateLevelsErrors: each --levels flag with a bad value, or with a
// flag it does not go with, exits 2 naming the flag.
func TestEvaluateLevelsErrors(t *testing.T) {
	base := []string{"evaluate", "--lanl", lanlSample, "--systems", "20"}
	for _, tc := range []struct {
		args []string
		flag string
	}{
		{[]string{"--levels"}, "--levels"},
		{[]string{"--scenario", clusterScenario, "--levels"}, "--levels"},
		{[]string{"--scenario", atlasScenario, "--severity", "software=1"}, "--severity"},
		{[]string{"--scenario", atlasScenario, "--severity-shares", "scenario"}, "--severity-shares"},
		{[]string{"--scenario", atlasScenario, "--levels", "--severity-shares", "file"}, "--severity-shares"},
		{[]string{"--scenario", atlasScenario, "--levels", "--severity", "software=9"}, "--severity"},
		{[]string{"--scenario", atlasScenario, "--levels", "--severity", "cosmic=1"}, "--severity"},
		{[]string{"--scenario", atlasScenario, "--levels", "--events"}, "--events"},
		{[]string{"--scenario", atlasScenario, "--levels", "--sweep-points", "5"}, "--sweep-points"},
		{[]string{"--scenario", atlasScenario, "--levels", "--policies", "optimal"}, "--policies"},
	} {
		args := append(append([]string{}, base...), tc.args...)
		_, errOut, code := run(t, args...)
		if code != cli.ExitUsage || !strings.Contains(errOut, tc.flag) {
			t.Errorf("markov %s: exit %d, stderr %q; want %d naming %s", strings.Join(args[1:], " "), code, errOut, cli.ExitUsage, tc.flag)
		}
	}
}
