package scenario_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/ckpt-markov/markov/scenario"
)

const (
	sysSev = `{"processors": 3, "mttf": 8640000, "mttr": 3600, "failure_severity": [0.9, 0.1]}`
	appLev = `{"work_rate": [1, 1.9, 2.7], "checkpoint_levels": [{"latency": 9, "recovery": 9}, {"latency": [400, 420, 438], "overhead": 300, "recovery": "7m"}]}`
)

// TestParseLevels reads the multi-level fields of issue 22 into the
// scenario: the levels in the single level's forms, the severity shares,
// the pattern and checkpoint_after_recovery.
func TestParseLevels(t *testing.T) {
	in := `{"system": ` + sysSev + `, "application": {"work_rate": [1, 1.9, 2.7], "checkpoint_after_recovery": false, "checkpoint_levels": [{"latency": 9, "recovery": 9}, {"latency": [400, 420, 438], "overhead": 300, "recovery": "7m"}]}, "policy": {"moldable": 3}, "checkpoint_pattern": [26]}`
	sc, err := scenario.Parse(strings.NewReader(in), nil)
	if err != nil {
		t.Fatal(err)
	}
	app := sc.Application
	if app.NumLevels() != 2 || app.Latency != nil || !app.NoCheckpointAfterRecovery || !sc.MultiLevel() {
		t.Fatalf("levels %d, single latency %v, no checkpoint after recovery %v", app.NumLevels(), app.Latency, app.NoCheckpointAfterRecovery)
	}
	l1, l2 := app.Levels[0], app.Levels[1]
	if !reflect.DeepEqual(l1.Overhead, []float64{9, 9, 9}) || l1.Recovery.Cost(3, 3) != 9 ||
		!reflect.DeepEqual(l2.Latency, []float64{400, 420, 438}) || !reflect.DeepEqual(l2.Overhead, []float64{300, 300, 300}) || l2.Recovery.Cost(2, 3) != 420 {
		t.Fatalf("levels %+v", app.Levels)
	}
	if !reflect.DeepEqual(sc.Severity(), []float64{0.9, 0.1}) || !reflect.DeepEqual(sc.CheckpointPattern, []int{26}) {
		t.Fatalf("severity %v, pattern %v", sc.Severity(), sc.CheckpointPattern)
	}
	err = sc.SingleLevel("uwt")
	var se *scenario.Error
	if !errors.As(err, &se) || se.Field != "application.checkpoint_levels" {
		t.Fatalf("SingleLevel: %v", err)
	}
}

// TestParseOneLevel: one level given as checkpoint_levels is the
// single-level scenario, field for field.
func TestParseOneLevel(t *testing.T) {
	one, err := scenario.Parse(strings.NewReader(file(`{"processors": 3, "mttf": 8640000, "mttr": 3600, "failure_severity": [1]}`,
		`{"work_rate": [1, 1.9, 2.7], "checkpoint_levels": [{"latency": 90, "recovery": 30}]}`, `"greedy"`)), nil)
	if err != nil {
		t.Fatal(err)
	}
	single, err := scenario.Parse(strings.NewReader(file(sys3, app3, `"greedy"`)), nil)
	if err != nil {
		t.Fatal(err)
	}
	if one.MultiLevel() || one.SingleLevel("uwt") != nil {
		t.Fatal("one level is not the single-level model")
	}
	one.System.FailureSeverity = nil
	if d := scenario.SameScenario(one, single); d != "" {
		t.Fatal(d)
	}
}

// TestLevelErrors: every bad multi-level input gets an error naming its
// field (issue 22: levels with single-level fields names both; a pattern
// of the wrong length, a negative count, shares not summing to 1).
func TestLevelErrors(t *testing.T) {
	many := `[` + strings.Repeat(`{"latency": 1, "recovery": 1}, `, 8) + `{"latency": 1, "recovery": 1}]`
	for _, tc := range []struct {
		name, in, field, problem string
	}{
		{"levels and latency", file(sysSev, `{"work_rate": [1, 2, 3], "checkpoint_latency": 9, "checkpoint_levels": [{"latency": 9, "recovery": 9}]}`, `"greedy"`),
			"application.checkpoint_levels", "application.checkpoint_latency"},
		{"levels and recovery", file(sysSev, `{"work_rate": [1, 2, 3], "recovery": 9, "checkpoint_levels": [{"latency": 9, "recovery": 9}]}`, `"greedy"`),
			"application.checkpoint_levels", "application.recovery"},
		{"pattern length", `{"system": ` + sysSev + `, "application": ` + appLev + `, "policy": "greedy", "checkpoint_pattern": [1, 2]}`,
			"checkpoint_pattern", "has 2 entries for 2 checkpoint levels, want 1"},
		{"pattern negative", `{"system": ` + sysSev + `, "application": ` + appLev + `, "policy": "greedy", "checkpoint_pattern": [-1]}`,
			"checkpoint_pattern[0]", "-1"},
		{"pattern huge", `{"system": ` + sysSev + `, "application": ` + appLev + `, "policy": "greedy", "checkpoint_pattern": [1000001]}`,
			"checkpoint_pattern[0]", "1000001"},
		{"pattern not integers", `{"system": ` + sysSev + `, "application": ` + appLev + `, "policy": "greedy", "checkpoint_pattern": [1.5]}`,
			"checkpoint_pattern[0]", "integer"},
		{"pattern too long", `{"system": ` + sysSev + `, "application": ` + appLev + `, "policy": "greedy", "checkpoint_pattern": [1,1,1,1,1,1,1,1,1,1]}`,
			"checkpoint_pattern", "more than 7"},
		{"shares sum", file(`{"processors": 3, "mttf": 1, "mttr": 1, "failure_severity": [0.9, 0.2]}`, appLev, `"greedy"`),
			"system.failure_severity", "sum to"},
		{"share negative", file(`{"processors": 3, "mttf": 1, "mttr": 1, "failure_severity": [1.1, -0.1]}`, appLev, `"greedy"`),
			"system.failure_severity[0]", "1.1"},
		{"shares length", file(`{"processors": 3, "mttf": 1, "mttr": 1, "failure_severity": [0.5, 0.25, 0.25]}`, appLev, `"greedy"`),
			"system.failure_severity", "has 3 entries for 2 checkpoint levels"},
		{"shares missing", file(sys3, appLev, `"greedy"`),
			"system.failure_severity", "missing"},
		{"shares for one level", file(`{"processors": 3, "mttf": 1, "mttr": 1, "failure_severity": [0.5, 0.5]}`, app3, `"greedy"`),
			"system.failure_severity", "has 2 entries for 1 checkpoint levels"},
		{"too many levels", file(sysSev, `{"work_rate": [1, 2, 3], "checkpoint_levels": `+many+`}`, `"greedy"`),
			"application.checkpoint_levels", "more than 8"},
		{"no levels", file(sysSev, `{"work_rate": [1, 2, 3], "checkpoint_levels": []}`, `"greedy"`),
			"application.checkpoint_levels", "empty"},
		{"level not object", file(sysSev, `{"work_rate": [1, 2, 3], "checkpoint_levels": [9]}`, `"greedy"`),
			"application.checkpoint_levels[0]", "want an object"},
		{"level negative latency", file(sysSev, `{"work_rate": [1, 2, 3], "checkpoint_levels": [{"latency": 9, "recovery": 9}, {"latency": [1, -2, 3], "recovery": 9}]}`, `"greedy"`),
			"application.checkpoint_levels[1].latency[1]", "-2"},
		{"level overhead above latency", file(sysSev, `{"work_rate": [1, 2, 3], "checkpoint_levels": [{"latency": 9, "overhead": 10, "recovery": 9}, {"latency": 9, "recovery": 9}]}`, `"greedy"`),
			"application.checkpoint_levels[0].overhead[0]", "exceeds"},
		{"level recovery missing", file(sysSev, `{"work_rate": [1, 2, 3], "checkpoint_levels": [{"latency": 9}, {"latency": 9, "recovery": 9}]}`, `"greedy"`),
			"application.checkpoint_levels[0].recovery", "missing"},
		{"level recovery rows", file(sysSev, `{"work_rate": [1, 2, 3], "checkpoint_levels": [{"latency": 9, "recovery": 9}, {"latency": 9, "recovery": [[1, 2, 3]]}]}`, `"greedy"`),
			"application.checkpoint_levels[1].recovery", "rows"},
		{"level unknown key", file(sysSev, `{"work_rate": [1, 2, 3], "checkpoint_levels": [{"latency": 9, "recovery": 9, "cost": 1}, {"latency": 9, "recovery": 9}]}`, `"greedy"`),
			"application.checkpoint_levels[0].cost", "unknown"},
		{"after recovery", file(sys3, `{"work_rate": [1, 2, 3], "checkpoint_latency": 9, "recovery": 9, "checkpoint_after_recovery": "no"}`, `"greedy"`),
			"application.checkpoint_after_recovery", "true or false"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := scenario.Parse(strings.NewReader(tc.in), nil)
			var se *scenario.Error
			if !errors.As(err, &se) || se.Field != tc.field || !strings.Contains(se.Problem, tc.problem) {
				t.Fatalf("got %v, want field %s with %q", err, tc.field, tc.problem)
			}
		})
	}
}

// TestNewOneLevelRefused: Application.Levels holds L ≥ 2 (its doc); a list
// of one given through the Go API is refused with the field named, where
// it used to pass New and crash package sim (index out of range).
func TestNewOneLevelRefused(t *testing.T) {
	sys := scenario.System{Processors: 3, MTTF: 86400, MTTR: 3600}
	one := scenario.Level{Latency: []float64{9, 9, 9}, Overhead: []float64{9, 9, 9}, Recovery: scenario.RecoveryConstant(9, 3)}
	for _, tc := range []struct {
		name   string
		levels []scenario.Level
		ok     bool
	}{
		{"one level", []scenario.Level{one}, false},
		{"two levels", []scenario.Level{one, one}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			app := scenario.Application{WorkRate: []float64{1, 2, 3}, Levels: tc.levels}
			sev := &scenario.FailureSeverity{Shares: []float64{1}}
			if len(tc.levels) == 2 {
				sev.Shares = []float64{0.5, 0.5}
			}
			s := sys
			s.FailureSeverity = sev
			_, err := scenario.New(s, app, scenario.Policy{Kind: scenario.Greedy})
			var se *scenario.Error
			switch {
			case tc.ok && err != nil:
				t.Fatalf("two levels refused: %v", err)
			case !tc.ok && (!errors.As(err, &se) || se.Field != "application.checkpoint_levels"):
				t.Fatalf("got %v, want an error naming application.checkpoint_levels", err)
			}
		})
	}
}
