package scenario_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/ckpt-markov/markov/scenario"
)

// file assembles a scenario file on 3 processors from its three parts.
func file(system, application, policy string) string {
	return `{"system": ` + system + `, "application": ` + application + `, "policy": ` + policy + `}`
}

const (
	sys3 = `{"processors": 3, "mttf": 8640000, "mttr": 3600}`
	app3 = `{"work_rate": [1, 1.9, 2.7], "checkpoint_latency": 90, "recovery": 30}`
)

// wantErr checks that err is a *scenario.Error on field whose problem
// contains phrase.
func wantErr(t *testing.T, err error, field, phrase string) {
	t.Helper()
	var se *scenario.Error
	if !errors.As(err, &se) {
		t.Errorf("error %v (%T), want a *scenario.Error on %s", err, err, field)
		return
	}
	if se.Field != field || !strings.Contains(se.Problem, phrase) {
		t.Errorf("error on %q: %q, want field %q with a problem containing %q", se.Field, se.Problem, field, phrase)
	}
	if !strings.Contains(err.Error(), field) {
		t.Errorf("message %q does not name the field %q", err, field)
	}
}

func parse(in string) (*scenario.Scenario, error) {
	return scenario.Parse(strings.NewReader(in), nil)
}

func constant(x float64, n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = x
	}
	return v
}

// TestParseValid checks every accepted form against the numbers written in
// the file itself (durations converted by hand: 100d = 8 640 000 s,
// 90m = 5400 s, 1.5m = 90 s, 1h = 3600 s).
func TestParseValid(t *testing.T) {
	m := [][]float64{{10, 20, 30}, {11, 21, 31}, {12, 22, 32}}
	for _, tc := range []struct {
		name     string
		in       string
		sys      scenario.System
		work     []float64
		latency  []float64
		overhead []float64
		rec      [][]float64 // R(p, a) = rec[p-1][a-1]
		byOld    bool
		pol      scenario.Policy
		resched  []int
	}{
		{
			name: "scalars, overhead defaults to latency",
			in:   file(sys3, app3, `"greedy"`),
			sys:  scenario.System{Processors: 3, MTTF: 8640000, MTTR: 3600},
			work: []float64{1, 1.9, 2.7}, latency: constant(90, 3), overhead: constant(90, 3),
			rec: [][]float64{{30, 30, 30}, {30, 30, 30}, {30, 30, 30}},
			pol: scenario.Policy{Kind: scenario.Greedy}, resched: []int{1, 2, 3},
		},
		{
			name: "lists and duration strings",
			in: file(`{"processors": 3, "mttf": "100d", "mttr": "90m"}`,
				`{"work_rate": [1, 1.9, 2.7], "checkpoint_latency": [60, 70, 80], "checkpoint_overhead": [50, 70, 0], "recovery": "1.5m"}`,
				`"pb"`),
			sys:  scenario.System{Processors: 3, MTTF: 8640000, MTTR: 5400},
			work: []float64{1, 1.9, 2.7}, latency: []float64{60, 70, 80}, overhead: []float64{50, 70, 0},
			rec: [][]float64{{90, 90, 90}, {90, 90, 90}, {90, 90, 90}},
			pol: scenario.Policy{Kind: scenario.PerformanceBased}, resched: []int{1, 2, 3},
		},
		{
			name: "scalar overhead as a duration, recovery by new count",
			in: file(`{"processors": 3, "mttf": 1e6, "mttr": "1h"}`,
				`{"work_rate": [1, 2, 1.5], "checkpoint_latency": "1.5m", "checkpoint_overhead": 45, "recovery": [5, 6, 7]}`,
				`"pb"`),
			sys:  scenario.System{Processors: 3, MTTF: 1e6, MTTR: 3600},
			work: []float64{1, 2, 1.5}, latency: constant(90, 3), overhead: constant(45, 3),
			rec: [][]float64{{5, 6, 7}, {5, 6, 7}, {5, 6, 7}},
			pol: scenario.Policy{Kind: scenario.PerformanceBased}, resched: []int{1, 2, 2},
		},
		{
			name: "recovery matrix depending on the old count",
			in:   file(sys3, `{"work_rate": [1, 1.9, 2.7], "checkpoint_latency": 90, "recovery": [[10, 20, 30], [11, 21, 31], [12, 22, 32]]}`, `{"moldable": 2}`),
			sys:  scenario.System{Processors: 3, MTTF: 8640000, MTTR: 3600},
			work: []float64{1, 1.9, 2.7}, latency: constant(90, 3), overhead: constant(90, 3),
			rec: m, byOld: true,
			pol: scenario.Policy{Kind: scenario.Moldable, Processors: 2}, resched: []int{0, 2, 2},
		},
		{
			name: "matrix with equal rows collapses, whitespace inside",
			in:   file(sys3, "{\"work_rate\": [1, 1.9, 2.7], \"checkpoint_latency\": 90, \"recovery\": [ \n\t[5, 6, 7], [5, 6, 7], [5, 6, 7]]}", `{"vector": [1, 0, 3]}`),
			sys:  scenario.System{Processors: 3, MTTF: 8640000, MTTR: 3600},
			work: []float64{1, 1.9, 2.7}, latency: constant(90, 3), overhead: constant(90, 3),
			rec: [][]float64{{5, 6, 7}, {5, 6, 7}, {5, 6, 7}},
			pol: scenario.Policy{Kind: scenario.Explicit, Explicit: []int{1, 0, 3}}, resched: []int{1, 0, 3},
		},
		{
			name: "one processor, zero costs",
			in:   file(`{"processors": 1, "mttf": "25y", "mttr": "2w"}`, `{"work_rate": [3], "checkpoint_latency": [0], "recovery": [[0]]}`, `"greedy"`),
			sys:  scenario.System{Processors: 1, MTTF: 25 * 365 * 86400, MTTR: 14 * 86400},
			work: []float64{3}, latency: []float64{0}, overhead: []float64{0},
			rec: [][]float64{{0}},
			pol: scenario.Policy{Kind: scenario.Greedy}, resched: []int{1},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := parse(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			if s.System != tc.sys {
				t.Errorf("system %+v, want %+v", s.System, tc.sys)
			}
			if s.N() != tc.sys.Processors || s.Application.N() != tc.sys.Processors {
				t.Errorf("N = %d, application N = %d, want %d", s.N(), s.Application.N(), tc.sys.Processors)
			}
			app := s.Application
			if !slices.Equal(app.WorkRate, tc.work) || !slices.Equal(app.Latency, tc.latency) || !slices.Equal(app.Overhead, tc.overhead) {
				t.Errorf("ω, L, C = %v, %v, %v, want %v, %v, %v", app.WorkRate, app.Latency, app.Overhead, tc.work, tc.latency, tc.overhead)
			}
			if app.Recovery.DependsOnOld() != tc.byOld {
				t.Errorf("DependsOnOld = %v, want %v", app.Recovery.DependsOnOld(), tc.byOld)
			}
			for p := range tc.rec {
				for a := range tc.rec[p] {
					if got := app.Recovery.Cost(p+1, a+1); got != tc.rec[p][a] {
						t.Errorf("R(%d, %d) = %v, want %v", p+1, a+1, got, tc.rec[p][a])
					}
				}
			}
			if s.Policy.Kind != tc.pol.Kind || s.Policy.Processors != tc.pol.Processors || !slices.Equal(s.Policy.Explicit, tc.pol.Explicit) {
				t.Errorf("policy %+v, want %+v", s.Policy, tc.pol)
			}
			if !slices.Equal(s.Reschedule, tc.resched) {
				t.Errorf("r = %v, want %v", s.Reschedule, tc.resched)
			}
			if err := s.Validate(); err != nil {
				t.Errorf("parsed scenario does not validate: %v", err)
			}
		})
	}
}

// TestParseMalformed checks that every malformed file is rejected with an
// error naming the field at fault.
func TestParseMalformed(t *testing.T) {
	for _, tc := range []struct {
		name, in, field, phrase string
	}{
		// Missing fields.
		{"no system", `{"application": ` + app3 + `, "policy": "greedy"}`, "system", "missing"},
		{"no processors", file(`{"mttf": 1, "mttr": 1}`, app3, `"greedy"`), "system.processors", "missing"},
		{"no mttf", file(`{"processors": 3, "mttr": 1}`, app3, `"greedy"`), "system.mttf", "missing"},
		{"no mttr", file(`{"processors": 3, "mttf": 1}`, app3, `"greedy"`), "system.mttr", "missing"},
		{"no application", `{"system": ` + sys3 + `, "policy": "greedy"}`, "application", "missing"},
		{"no work rate", file(sys3, `{"checkpoint_latency": 90, "recovery": 30}`, `"greedy"`), "application.work_rate", "missing"},
		{"no latency", file(sys3, `{"work_rate": [1, 2, 3], "recovery": 30}`, `"greedy"`), "application.checkpoint_latency", "missing"},
		{"no recovery", file(sys3, `{"work_rate": [1, 2, 3], "checkpoint_latency": 90}`, `"greedy"`), "application.recovery", "missing"},
		{"no policy", `{"system": ` + sys3 + `, "application": ` + app3 + `}`, "policy", "missing"},

		// Wrong lengths.
		{"short work rate", file(sys3, `{"work_rate": [1, 2], "checkpoint_latency": 90, "recovery": 30}`, `"greedy"`), "application.work_rate", "has 2 entries, want 3"},
		{"long latency", file(sys3, `{"work_rate": [1, 2, 3], "checkpoint_latency": [1, 2, 3, 4], "recovery": 30}`, `"greedy"`), "application.checkpoint_latency", "has more than 3 entries, want 3"},
		{"short overhead", file(sys3, `{"work_rate": [1, 2, 3], "checkpoint_latency": 90, "checkpoint_overhead": [1], "recovery": 30}`, `"greedy"`), "application.checkpoint_overhead", "has 1 entries, want 3"},
		{"empty recovery", file(sys3, `{"work_rate": [1, 2, 3], "checkpoint_latency": 90, "recovery": []}`, `"greedy"`), "application.recovery", "has 0 entries, want 3"},
		{"recovery rows", file(sys3, `{"work_rate": [1, 2, 3], "checkpoint_latency": 90, "recovery": [[1, 2, 3], [1, 2, 3]]}`, `"greedy"`), "application.recovery", "2 rows, want 3"},
		{"recovery row length", file(sys3, `{"work_rate": [1, 2, 3], "checkpoint_latency": 90, "recovery": [[1, 2, 3], [1, 2], [1, 2, 3]]}`, `"greedy"`), "application.recovery[1]", "has 2 entries, want 3"},
		{"policy vector length", file(sys3, app3, `{"vector": [1, 2]}`), "policy.vector", "has 2 entries, want 3"},

		// Inconsistent values.
		{"C > L", file(sys3, `{"work_rate": [1, 2, 3], "checkpoint_latency": [9, 9, 9], "checkpoint_overhead": [9, 9.5, 1], "recovery": 30}`, `"greedy"`), "application.checkpoint_overhead[1]", "exceeds the checkpoint latency"},
		{"C > L scalars", file(sys3, `{"work_rate": [1, 2, 3], "checkpoint_latency": "1m", "checkpoint_overhead": 61, "recovery": 30}`, `"greedy"`), "application.checkpoint_overhead[0]", "exceeds"},
		{"r(n) > n", file(sys3, app3, `{"vector": [1, 3, 3]}`), "policy", "r(2) = 3 outside [0, 2]"},
		{"r(n) < 0", file(sys3, app3, `{"vector": [1, -1, 3]}`), "policy", "r(2) = -1"},
		{"r never runs", file(sys3, app3, `{"vector": [0, 0, 0]}`), "policy", "never run"},
		{"moldable too big", file(sys3, app3, `{"moldable": 4}`), "policy", "outside [1, 3]"},
		{"moldable zero", file(sys3, app3, `{"moldable": 0}`), "policy", "outside [1, 3]"},
		{"moldable and vector", file(sys3, app3, `{"moldable": 1, "vector": [1, 1, 1]}`), "policy", "not several"},
		{"empty policy object", file(sys3, app3, `{}`), "policy", "needs a \"moldable\", a \"vector\" or a \"table\""},
		{"unknown policy name", file(sys3, app3, `"random"`), "policy", "is not one of"},
		{"policy on a zero rate", file(sys3, `{"work_rate": [0, 2, 3], "checkpoint_latency": 90, "recovery": 30}`, `"greedy"`), "policy", "ω(1) is zero"},
		{"all-zero work rate", file(sys3, `{"work_rate": [0, 0, 0], "checkpoint_latency": 90, "recovery": 30}`, `"greedy"`), "application.work_rate", "zero on every"},

		// Unknown fields, at every level.
		{"unknown top field", `{"system": ` + sys3 + `, "application": ` + app3 + `, "policy": "greedy", "polcy": 1}`, "polcy", "unknown field"},
		{"unknown system field", file(`{"processors": 3, "mttf": 1, "mttr": 1, "mtbf": 5}`, app3, `"greedy"`), "system.mtbf", "unknown field"},
		{"unknown application field", file(sys3, `{"work_rate": [1, 2, 3], "checkpoint_latency": 90, "recovery": 30, "checkpoint_cost": 5}`, `"greedy"`), "application.checkpoint_cost", "unknown field"},
		{"unknown policy field", file(sys3, app3, `{"moldable": 2, "spares": 1}`), "policy.spares", "unknown field"},

		// Trailing data.
		{"trailing value", file(sys3, app3, `"greedy"`) + ` {}`, "(top level)", "unexpected data"},
		{"trailing garbage", file(sys3, app3, `"greedy"`) + ` x`, "(top level)", "unexpected data"},

		// Non-finite, negative and out-of-range numbers.
		{"negative mttf", file(`{"processors": 3, "mttf": -5, "mttr": 1}`, app3, `"greedy"`), "system.mttf", "want a positive number"},
		{"zero mttr", file(`{"processors": 3, "mttf": 5, "mttr": 0}`, app3, `"greedy"`), "system.mttr", "want a positive number"},
		{"negative duration", file(`{"processors": 3, "mttf": "-5m", "mttr": 1}`, app3, `"greedy"`), "system.mttf", "finite number ≥ 0"},
		{"NaN duration", file(`{"processors": 3, "mttf": "NaN", "mttr": 1}`, app3, `"greedy"`), "system.mttf", "finite number ≥ 0"},
		{"Inf duration", file(`{"processors": 3, "mttf": 1, "mttr": "Inf"}`, app3, `"greedy"`), "system.mttr", "finite number ≥ 0"},
		{"overflowing number", file(`{"processors": 3, "mttf": 1e400, "mttr": 1}`, app3, `"greedy"`), "system.mttf", "1e400"},
		{"bad duration", file(`{"processors": 3, "mttf": "forever", "mttr": 1}`, app3, `"greedy"`), "system.mttf", "want seconds or a number with a unit"},
		{"zero processors", file(`{"processors": 0, "mttf": 1, "mttr": 1}`, app3, `"greedy"`), "system.processors", "positive integer"},
		{"negative processors", file(`{"processors": -2, "mttf": 1, "mttr": 1}`, app3, `"greedy"`), "system.processors", "positive integer"},
		{"negative work rate", file(sys3, `{"work_rate": [1, -2, 3], "checkpoint_latency": 90, "recovery": 30}`, `"greedy"`), "application.work_rate[1]", "finite number ≥ 0"},
		{"negative latency", file(sys3, `{"work_rate": [1, 2, 3], "checkpoint_latency": -1, "recovery": 30}`, `"greedy"`), "application.checkpoint_latency[0]", "finite number ≥ 0"},
		{"negative latency entry", file(sys3, `{"work_rate": [1, 2, 3], "checkpoint_latency": [1, 1, -1], "recovery": 30}`, `"greedy"`), "application.checkpoint_latency[2]", "finite number ≥ 0"},
		{"negative recovery entry", file(sys3, `{"work_rate": [1, 2, 3], "checkpoint_latency": 90, "recovery": [[1, 2, 3], [1, 2, 3], [1, -2, 3]]}`, `"greedy"`), "application.recovery[2][1]", "finite number ≥ 0"},
		{"NaN latency", file(sys3, `{"work_rate": [1, 2, 3], "checkpoint_latency": "NaN", "recovery": 30}`, `"greedy"`), "application.checkpoint_latency", "finite number ≥ 0"},

		// Wrong JSON types.
		{"fractional processors", file(`{"processors": 2.5, "mttf": 1, "mttr": 1}`, app3, `"greedy"`), "system.processors", "want an integer, found a JSON number"},
		{"processors as a string", file(`{"processors": "3", "mttf": 1, "mttr": 1}`, app3, `"greedy"`), "system.processors", "want an integer, found a JSON string"},
		{"mttf as a bool", file(`{"processors": 3, "mttf": true, "mttr": 1}`, app3, `"greedy"`), "system.mttf", "found a JSON bool"},
		{"system as a list", file(`[3]`, app3, `"greedy"`), "system", "want an object, found a JSON array"},
		{"application as a number", file(sys3, `5`, `"greedy"`), "application", "want an object, found a JSON number"},
		{"work rate as a string", file(sys3, `{"work_rate": "fast", "checkpoint_latency": 90, "recovery": 30}`, `"greedy"`), "application.work_rate", "want a list of 3 numbers, found a JSON string"},
		{"work rate entry as a string", file(sys3, `{"work_rate": [1, "2", 3], "checkpoint_latency": 90, "recovery": 30}`, `"greedy"`), "application.work_rate[1]", "want a number, found a JSON string"},
		{"latency as an object", file(sys3, `{"work_rate": [1, 2, 3], "checkpoint_latency": {"s": 1}, "recovery": 30}`, `"greedy"`), "application.checkpoint_latency.s", "unknown field"},
		{"two forms", file(sys3, `{"work_rate": {"constant": 1, "power": {"coefficient": 1, "exponent": 1}}, "checkpoint_latency": 90, "recovery": 30}`, `"greedy"`), "application.work_rate", "exactly one"},
		{"per_processor alone", file(sys3, `{"work_rate": [1, 2, 3], "checkpoint_latency": {"per_processor": 2}, "recovery": 30}`, `"greedy"`), "application.checkpoint_latency", "exactly one"},
		{"amdahl without serial", file(sys3, `{"work_rate": {"amdahl": {"rate": 1}}, "checkpoint_latency": 90, "recovery": 30}`, `"greedy"`), "application.work_rate.amdahl", "serial"},
		{"amdahl serial > 1", file(sys3, `{"work_rate": {"amdahl": {"rate": 1, "serial": 2}}, "checkpoint_latency": 90, "recovery": 30}`, `"greedy"`), "application.work_rate.amdahl.serial", "fraction"},
		{"negative linear cost", file(sys3, `{"work_rate": [1, 2, 3], "checkpoint_latency": {"constant": 10, "per_processor": -5}, "recovery": 30}`, `"greedy"`), "application.checkpoint_latency[2]", "≥ 0"},
		{"negative linear recovery", file(sys3, `{"work_rate": [1, 2, 3], "checkpoint_latency": 90, "recovery": {"constant": 1, "per_old": 1, "per_new": -2}}`, `"greedy"`), "application.recovery", "R(1, 3)"},
		{"recovery form without constant", file(sys3, `{"work_rate": [1, 2, 3], "checkpoint_latency": 90, "recovery": {"per_old": 1}}`, `"greedy"`), "application.recovery.constant", "missing"},
		{"latency entry as a string", file(sys3, `{"work_rate": [1, 2, 3], "checkpoint_latency": [1, "2", 3], "recovery": 30}`, `"greedy"`), "application.checkpoint_latency[1]", "found a JSON string"},
		{"recovery matrix with a number row", file(sys3, `{"work_rate": [1, 2, 3], "checkpoint_latency": 90, "recovery": [[1, 2, 3], 4, [1, 2, 3]]}`, `"greedy"`), "application.recovery[1]", "want a list of 3 numbers"},
		{"policy as a bool", file(sys3, app3, `true`), "policy", "want an object, found a JSON bool"},
		{"moldable as a float", file(sys3, app3, `{"moldable": 1.5}`), "policy.moldable", "want an integer"},
		{"vector entry as a float", file(sys3, app3, `{"vector": [1, 2.5, 3]}`), "policy.vector[1]", "want an integer"},
		{"top level as a list", `[1, 2]`, "(top level)", "want an object, found a JSON array"},

		// Named applications need a resolver.
		{"named application without resolver", file(sys3, `"qr"`, `"greedy"`), "application", "no built-in applications"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := parse(tc.in)
			if err == nil {
				t.Fatalf("no error; parsed %+v", s)
			}
			if s != nil {
				t.Errorf("scenario %+v returned with an error", s)
			}
			wantErr(t, err, tc.field, tc.phrase)
		})
	}
}

// TestParseNotJSON checks inputs that are not JSON at all: the error says so.
func TestParseNotJSON(t *testing.T) {
	for _, in := range []string{
		``,
		`   `,
		`{"system": `,
		`{system: 1}`,
		`{"system": {"processors": 3,}}`,
		`nul`,
		`{"system": NaN}`,
		file(`{"processors": 3, "mttf": NaN, "mttr": 1}`, app3, `"greedy"`),
		file(`{"processors": 3, "mttf": Infinity, "mttr": 1}`, app3, `"greedy"`),
		file(sys3, `{"work_rate": [1, 2, 3,], "checkpoint_latency": 90, "recovery": 30}`, `"greedy"`),
	} {
		_, err := parse(in)
		if err == nil || !strings.Contains(err.Error(), "not valid JSON") {
			t.Errorf("Parse(%q) error %v, want one saying the input is not valid JSON", in, err)
		}
	}
}

// TestParseNamed resolves "application": "name" through ParseSettings.
func TestParseNamed(t *testing.T) {
	var gotName string
	var gotN int
	settings := &scenario.ParseSettings{Applications: func(name string, n int) (scenario.Application, error) {
		gotName, gotN = name, n
		if name != "toy" {
			return scenario.Application{}, fmt.Errorf("no application %q", name)
		}
		return scenario.Application{
			WorkRate: []float64{1, 2, 3},
			Latency:  constant(10, 3), Overhead: constant(5, 3),
			Recovery: scenario.RecoveryConstant(7, 3),
		}, nil
	}}
	s, err := scenario.Parse(strings.NewReader(file(sys3, `"toy"`, `"pb"`)), settings)
	if err != nil {
		t.Fatal(err)
	}
	if gotName != "toy" || gotN != 3 {
		t.Errorf("resolver called with (%q, %d), want (\"toy\", 3)", gotName, gotN)
	}
	if !slices.Equal(s.Application.Overhead, constant(5, 3)) || s.Application.Recovery.Cost(2, 3) != 7 {
		t.Errorf("application %+v is not the resolver's", s.Application)
	}
	_, err = scenario.Parse(strings.NewReader(file(sys3, `"lu"`, `"pb"`)), settings)
	wantErr(t, err, "application", `no application "lu"`)

	// The named application is validated like a literal one.
	bad := &scenario.ParseSettings{Applications: func(string, int) (scenario.Application, error) {
		return scenario.Application{WorkRate: []float64{1, 2}, Latency: constant(1, 2), Overhead: constant(1, 2)}, nil
	}}
	_, err = scenario.Parse(strings.NewReader(file(sys3, `"short"`, `"greedy"`)), bad)
	wantErr(t, err, "application.work_rate", "has 2 entries, want 3")
}

// TestLoad reads a scenario from a file.
func TestLoad(t *testing.T) {
	s, err := scenario.Load(filepath.Join("testdata", "lanl-system1.json"), nil)
	if err != nil {
		t.Fatal(err)
	}
	// The file holds Table II, row 2 of the malleable paper: 128 processors,
	// MTTF 104.61 days, MTTR 56.03 minutes.
	if s.N() != 128 || s.System.MTTF != 104.61*86400 || s.System.MTTR != 56.03*60 {
		t.Errorf("system %+v, want 128 processors, MTTF 104.61d, MTTR 56.03m", s.System)
	}
	if s.Reschedule.At(128) != 128 || s.Reschedule.At(1) != 1 {
		t.Errorf("greedy vector %v", s.Reschedule)
	}
	_, err = scenario.Load(filepath.Join("testdata", "no-such-file.json"), nil)
	if !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: error %v, want one wrapping os.ErrNotExist", err)
	}
}

// TestParseRejectsNull checks that JSON null is not read as a zero. It
// fails on the current code: encoding/json leaves a float64 untouched on
// null, so "checkpoint_latency": null parses as L = 0, "recovery": null as
// R = 0, and a null inside a list as a 0 entry, silently.
func TestParseRejectsNull(t *testing.T) {
	for _, tc := range []struct{ name, in, field string }{
		{"latency", file(sys3, `{"work_rate": [1, 2, 3], "checkpoint_latency": null, "recovery": 30}`, `"pb"`), "application.checkpoint_latency"},
		{"overhead", file(sys3, `{"work_rate": [1, 2, 3], "checkpoint_latency": 90, "checkpoint_overhead": null, "recovery": 30}`, `"pb"`), "application.checkpoint_overhead"},
		{"recovery", file(sys3, `{"work_rate": [1, 2, 3], "checkpoint_latency": 90, "recovery": null}`, `"pb"`), "application.recovery"},
		{"work rate entry", file(sys3, `{"work_rate": [1, null, 3], "checkpoint_latency": 90, "recovery": 30}`, `"pb"`), "application.work_rate"},
		{"latency entry", file(sys3, `{"work_rate": [1, 2, 3], "checkpoint_latency": [1, null, 3], "recovery": 30}`, `"pb"`), "application.checkpoint_latency"},
		{"recovery entry", file(sys3, `{"work_rate": [1, 2, 3], "checkpoint_latency": 90, "recovery": [[1, 2, 3], [1, null, 3], [1, 2, 3]]}`, `"pb"`), "application.recovery"},
		{"mttf", file(`{"processors": 3, "mttf": null, "mttr": 1}`, app3, `"pb"`), "system.mttf"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := parse(tc.in)
			var se *scenario.Error
			if !errors.As(err, &se) || !strings.HasPrefix(se.Field, tc.field) {
				var got any = err
				if err == nil {
					got = fmt.Sprintf("success with %+v", s.Application)
				}
				t.Errorf("null %s: got %v, want a *scenario.Error on %s", tc.name, got, tc.field)
			}
		})
	}
}

// TestParseHugeProcessorCount checks that a processor count far beyond the
// vectors given is an error, not a crash. It fails on the current code:
// parseApplication expands the scalar latency to N entries (perCount) before
// it compares the length of work_rate with N, so this input panics in
// makeslice, and a count like 1e10 exhausts memory.
func TestParseHugeProcessorCount(t *testing.T) {
	in := file(`{"processors": 4611686018427387904, "mttf": 1, "mttr": 1}`, app3, `"greedy"`)
	defer func() {
		if r := recover(); r != nil {
			t.Errorf("Parse panicked: %v", r)
		}
	}()
	_, err := parse(in)
	var se *scenario.Error
	if !errors.As(err, &se) {
		t.Errorf("error %v, want a *scenario.Error", err)
	}
}

// TestParseReconfigure: "reconfigure" reads "never" and "at-checkpoint",
// defaults to never, and names the field when wrong.
func TestParseReconfigure(t *testing.T) {
	const base = `{"system": {"processors": 2, "mttf": 100, "mttr": 10}, "application": {"work_rate": [1, 2], "checkpoint_latency": 5, "recovery": 3}, "policy": "greedy"`
	for _, c := range []struct {
		extra string
		want  scenario.Reconfigure
		field string
	}{
		{``, scenario.Never, ""},
		{`, "reconfigure": null`, scenario.Never, ""},
		{`, "reconfigure": "never"`, scenario.Never, ""},
		{`, "reconfigure": "at-checkpoint"`, scenario.AtCheckpoint, ""},
		{`, "reconfigure": "always"`, scenario.Never, "reconfigure"},
		{`, "reconfigure": 1`, scenario.Never, "reconfigure"},
	} {
		sc, err := scenario.Parse(strings.NewReader(base+c.extra+`}`), nil)
		if c.field != "" {
			var se *scenario.Error
			if !errors.As(err, &se) || se.Field != c.field {
				t.Errorf("%s: error %v, want one naming %s", c.extra, err, c.field)
			}
			continue
		}
		if err != nil || sc.Reconfigure != c.want {
			t.Errorf("%s: %v, %v; want %v", c.extra, sc, err, c.want)
		}
	}
	sc, err := scenario.Parse(strings.NewReader(base+`}`), nil)
	if err != nil {
		t.Fatal(err)
	}
	sc.Reconfigure = 7
	if err := sc.Validate(); err == nil {
		t.Error("Reconfigure(7) validates")
	}
}

// TestParseOrder checks that the order of the members does not matter:
// the application, the policy and failure_events hold lists bounded by N,
// read where they stand when N is known and otherwise kept as their bytes
// and read once it is, two paths that must give the same scenario bit for
// bit (and the same error).
func TestParseOrder(t *testing.T) {
	sys := `{"processors": 3, "mttf": 8640000, "mttr": 3600, "failure_events": {"sizes": [0.5, 0.25, 0.25]}}`
	sysLast := `{"failure_events": {"sizes": [0.5, 0.25, 0.25]}, "mttf": 8640000, "mttr": 3600, "processors": 3}`
	for _, tc := range []struct{ name, app, pol string }{
		{"lists", `{"work_rate": [1, 1.9, 2.7], "checkpoint_latency": [9, 9, 9], "checkpoint_overhead": [1, -0, 3e0], "recovery": [4, 5, 6]}`, `{"vector": [1, 2, 2]}`},
		{"matrix", `{"work_rate": [1, 2, 3], "checkpoint_latency": 9, "recovery": [[1, 2, 3], [4, 5, 6], [7, 8, 9]]}`, `"pb"`},
		{"forms", `{"work_rate": {"amdahl": {"rate": 1, "serial": 0.1}}, "checkpoint_latency": {"constant": "1m", "per_processor": 2}, "recovery": {"constant": 5, "per_old": 1, "per_new": 2}}`, `{"table": [{"n": [1, 3], "a": "n"}, {"p": 2, "n": 3, "a": 2}]}`},
		{"long list", `{"work_rate": [1, 2, 3, 4], "checkpoint_latency": 9, "recovery": 9}`, `"greedy"`},
		{"long vector", app3, `{"vector": [1, 2, 3, 3]}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			first, errFirst := parse(`{"system": ` + sys + `, "application": ` + tc.app + `, "policy": ` + tc.pol + `}`)
			for _, in := range []string{
				`{"application": ` + tc.app + `, "policy": ` + tc.pol + `, "system": ` + sys + `}`,
				`{"policy": ` + tc.pol + `, "system": ` + sysLast + `, "application": ` + tc.app + `}`,
			} {
				got, err := parse(in)
				if fmt.Sprint(err) != fmt.Sprint(errFirst) {
					t.Fatalf("%s: error %v, with the system first %v", in, err, errFirst)
				}
				if err == nil {
					if d := scenario.SameScenario(got, first); d != "" {
						t.Errorf("%s: differs from the system first: %s", in, d)
					}
				}
			}
		})
	}
}

// TestParseNotJSONFirst checks that a file that is not JSON is reported as
// such even when a field fails before the fault: the rest of the input is
// scanned after a field error.
func TestParseNotJSONFirst(t *testing.T) {
	for _, in := range []string{
		file(`{"processors": "3", "mttf": 1, "mttr": 1}`, `{"work_rate": [1, 2, 3,], "checkpoint_latency": 90, "recovery": 30}`, `"greedy"`),
		file(`{"processors": 3, "mttf": 1, "mttr": 1, "x": 1}`, app3, `"greedy"`) + ` }`,
		file(`{"processors": 3, "mttf": 1, "mttr": 1}`, `{"work_rate": [1, 2, 3, 4, 5,]}`, `"greedy"`),
		file(sys3, app3, `"no such policy"`) + "\x01",
	} {
		for _, r := range []io.Reader{strings.NewReader(in), iotest.OneByteReader(strings.NewReader(in))} {
			if _, err := scenario.Parse(r, nil); err == nil || !strings.Contains(err.Error(), "not valid JSON") {
				t.Errorf("Parse(%.60q) error %v, want one saying the input is not valid JSON", in, err)
			}
		}
	}
}

// TestParseLongListSystemLast checks that a list of 2·10⁶ entries where 3
// are expected is rejected without being built when the system, which
// gives N, comes after it: the application's bytes are kept, not decoded,
// until N is known. The allowance is 2 copies of the input (1.02 measured:
// the input's buffer); building the list would add 4 (8 bytes an entry of
// 2 bytes).
func TestParseLongListSystemLast(t *testing.T) {
	const long = 2_000_000
	list := strings.Repeat("1,", long-1) + "1"
	in := []byte(`{"application": {"work_rate": [` + list + `], "checkpoint_latency": 1, "recovery": 1}, "policy": "greedy", "system": ` + sys3 + `}`)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err := scenario.Parse(bytes.NewReader(in), nil)
	runtime.ReadMemStats(&after)
	wantErr(t, err, "application.work_rate", "more than 3 entries")
	if got, limit := after.TotalAlloc-before.TotalAlloc, uint64(2*len(in)); got > limit {
		t.Errorf("a %d-entry list allocated %d bytes, want ≤ %d", long, got, limit)
	}
}
