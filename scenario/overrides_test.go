package scenario_test

import (
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/ckpt-markov/markov/bench"
	"github.com/ckpt-markov/markov/reschedule"
	"github.com/ckpt-markov/markov/scenario"
)

// overrideBase is the base scenario of the override tests, as a JSON
// object: every per-count field a list of distinct entries, the recovery
// a matrix with distinct rows, so that each override is seen to replace
// exactly its own field.
func overrideBase() map[string]any {
	return map[string]any{
		"system": map[string]any{"processors": 4, "mttf": "20d", "mttr": "1h"},
		"application": map[string]any{
			"work_rate":           []float64{1, 1.9, 2.7, 3.4},
			"checkpoint_latency":  []float64{60, 70, 80, 90},
			"checkpoint_overhead": []float64{30, 35, 40, 45},
			"recovery":            [][]float64{{10, 11, 12, 13}, {14, 15, 16, 17}, {18, 19, 20, 21}, {22, 23, 24, 25}},
		},
		"policy": map[string]any{"vector": []int{1, 2, 2, 4}},
	}
}

// parseMap writes a JSON object and reads it with Parse, resolving the
// named application "toy".
func parseMap(t *testing.T, m map[string]any) *scenario.Scenario {
	t.Helper()
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	sc, err := scenario.Parse(strings.NewReader(string(b)), &scenario.ParseSettings{Applications: toyApplications})
	if err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return sc
}

// toyApplications resolves "toy": ω(a) = 2a, L = C = 5, R = 7.
func toyApplications(name string, n int) (scenario.Application, error) {
	if name != "toy" {
		return scenario.Application{}, errors.New("unknown application")
	}
	app := scenario.Application{WorkRate: make([]float64, n), Latency: make([]float64, n), Recovery: scenario.RecoveryConstant(7, n)}
	for a := range n {
		app.WorkRate[a], app.Latency[a] = 2*float64(a+1), 5
	}
	app.Overhead = app.Latency
	return app, nil
}

func ptr[T any](v T) *T { return &v }

// TestOverridesEachField: each override gives the scenario of the base file
// with exactly its own field edited (read by Parse, the second path):
// equal field for field, floats bit for bit.
func TestOverridesEachField(t *testing.T) {
	app := func(m map[string]any) map[string]any { return m["application"].(map[string]any) }
	sys := func(m map[string]any) map[string]any { return m["system"].(map[string]any) }
	tests := []struct {
		name string
		ov   scenario.Overrides
		edit func(m map[string]any)
	}{
		{"none", scenario.Overrides{}, func(map[string]any) {}},
		{"processors", scenario.Overrides{Processors: ptr(3)}, func(m map[string]any) {
			sys(m)["processors"] = 3
			a := app(m)
			for _, k := range []string{"work_rate", "checkpoint_latency", "checkpoint_overhead"} {
				a[k] = a[k].([]float64)[:3]
			}
			r := a["recovery"].([][]float64)[:3]
			for i := range r {
				r[i] = r[i][:3]
			}
			a["recovery"] = r
			m["policy"] = map[string]any{"vector": []int{1, 2, 2}} // the base vector's first 3 entries
		}},
		{"mttf", scenario.Overrides{MTTF: ptr(864000.0)}, func(m map[string]any) { sys(m)["mttf"] = 864000 }},
		{"mttr", scenario.Overrides{MTTR: ptr(7200.0)}, func(m map[string]any) { sys(m)["mttr"] = "2h" }},
		{"application", scenario.Overrides{Application: "toy"}, func(m map[string]any) { m["application"] = "toy" }},
		{"policy", scenario.Overrides{Policy: &scenario.Policy{Kind: scenario.PerformanceBased}}, func(m map[string]any) { m["policy"] = "pb" }},
		{"reconfigure", scenario.Overrides{Reconfigure: ptr(scenario.AtCheckpoint)}, func(m map[string]any) { m["reconfigure"] = "at-checkpoint" }},
		// The latency alone is a blocking checkpoint: the overhead too,
		// as a file that gives no overhead.
		{"latency", scenario.Overrides{Latency: ptr(100.0)}, func(m map[string]any) {
			app(m)["checkpoint_latency"] = 100
			delete(app(m), "checkpoint_overhead")
		}},
		{"latency and overhead", scenario.Overrides{Latency: ptr(100.0), Overhead: ptr(50.0)}, func(m map[string]any) {
			app(m)["checkpoint_latency"], app(m)["checkpoint_overhead"] = 100, 50
		}},
		{"overhead", scenario.Overrides{Overhead: ptr(20.0)}, func(m map[string]any) { app(m)["checkpoint_overhead"] = 20 }},
		{"recovery", scenario.Overrides{Recovery: ptr(300.0)}, func(m map[string]any) { app(m)["recovery"] = "5m" }},
		{"work linear", scenario.Overrides{Work: &scenario.WorkForm{Kind: scenario.Linear}}, func(m map[string]any) {
			app(m)["work_rate"] = map[string]any{"constant": 0, "per_processor": 1}
		}},
		{"work amdahl", scenario.Overrides{Work: &scenario.WorkForm{Kind: scenario.Amdahl, Param: 0.05}}, func(m map[string]any) {
			app(m)["work_rate"] = map[string]any{"amdahl": map[string]any{"rate": 1, "serial": 0.05}}
		}},
		{"work power", scenario.Overrides{Work: &scenario.WorkForm{Kind: scenario.Power, Param: 0.8}}, func(m map[string]any) {
			app(m)["work_rate"] = map[string]any{"power": map[string]any{"coefficient": 1, "exponent": 0.8}}
		}},
	}
	for _, tc := range tests {
		base := parseMap(t, overrideBase())
		got, err := tc.ov.Apply(base, &scenario.OverrideSettings{Applications: toyApplications})
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		m := overrideBase()
		tc.edit(m)
		if d := scenario.SameScenario(got, parseMap(t, m)); d != "" {
			t.Errorf("%s: differs from the edited file: %s", tc.name, d)
		}
		if d := scenario.SameScenario(base, parseMap(t, overrideBase())); d != "" {
			t.Errorf("%s: the base was modified: %s", tc.name, d)
		}
	}
}

// TestOverridesBuiltin: a nil base is the built-in scenario, the file
// README.md describes (QR on 128 processors, MTTF 104.61 d, MTTR 56.03
// min, greedy), and overrides apply to it, the application resolved
// again for another N.
func TestOverridesBuiltin(t *testing.T) {
	set := &scenario.OverrideSettings{Applications: bench.Application}
	parse := func(text string) *scenario.Scenario {
		sc, err := scenario.Parse(strings.NewReader(text), &scenario.ParseSettings{Applications: bench.Application})
		if err != nil {
			t.Fatal(err)
		}
		return sc
	}
	got, err := (&scenario.Overrides{}).Apply(nil, set)
	if err != nil {
		t.Fatal(err)
	}
	want := parse(`{"system": {"processors": 128, "mttf": "104.61d", "mttr": "56.03m"}, "application": "qr", "policy": "greedy"}`)
	if d := scenario.SameScenario(got, want); d != "" {
		t.Errorf("built-in scenario: %s", d)
	}
	got, err = (&scenario.Overrides{Processors: ptr(256), Application: "md"}).Apply(nil, set)
	if err != nil {
		t.Fatal(err)
	}
	want = parse(`{"system": {"processors": 256, "mttf": "104.61d", "mttr": "56.03m"}, "application": "md", "policy": "greedy"}`)
	if d := scenario.SameScenario(got, want); d != "" {
		t.Errorf("built-in scenario, md on 256: %s", d)
	}
}

// TestOverrideErrors: an override that does not fit is an *OverrideError
// naming it; an error of the base alone is not.
func TestOverrideErrors(t *testing.T) {
	levels := `{"system": {"processors": 3, "mttf": 8640000, "mttr": 3600, "failure_severity": [0.9, 0.1]},
		"application": {"work_rate": [1, 1.9, 2.7], "checkpoint_levels": [{"latency": 9, "recovery": 9}, {"latency": 400, "recovery": 420}]}, "policy": "greedy"}`
	multi, err := scenario.Parse(strings.NewReader(levels), nil)
	if err != nil {
		t.Fatal(err)
	}
	set := &scenario.OverrideSettings{Applications: toyApplications}
	tests := []struct {
		name string
		base *scenario.Scenario
		ov   scenario.Overrides
		set  *scenario.OverrideSettings
		want string
	}{
		{"no processors", nil, scenario.Overrides{Processors: ptr(0)}, set, scenario.OverrideProcessors},
		{"too many processors", nil, scenario.Overrides{Processors: ptr(scenario.MaxProcessors + 1)}, set, scenario.OverrideProcessors},
		{"more counts than the base", parseMap(t, overrideBase()), scenario.Overrides{Processors: ptr(5)}, set, scenario.OverrideProcessors},
		{"built-in application too small", nil, scenario.Overrides{Processors: ptr(bench.MaxProcessors + 1)}, &scenario.OverrideSettings{Applications: bench.Application}, scenario.OverrideProcessors},
		{"no resolver", nil, scenario.Overrides{}, nil, scenario.OverrideApplication},
		{"unknown application", nil, scenario.Overrides{Application: "lu"}, set, scenario.OverrideApplication},
		{"mttf zero", nil, scenario.Overrides{MTTF: ptr(0.0)}, set, scenario.OverrideMTTF},
		{"mttf below the limit", nil, scenario.Overrides{MTTF: ptr(1e-320)}, set, scenario.OverrideMTTF},
		{"mttr infinite", nil, scenario.Overrides{MTTR: ptr(math.Inf(1))}, set, scenario.OverrideMTTR},
		{"latency negative", nil, scenario.Overrides{Application: "toy", Latency: ptr(-1.0)}, set, scenario.OverrideLatency},
		{"latency NaN", nil, scenario.Overrides{Application: "toy", Latency: ptr(math.NaN())}, set, scenario.OverrideLatency},
		{"overhead above the latency", parseMap(t, overrideBase()), scenario.Overrides{Overhead: ptr(61.0)}, set, scenario.OverrideOverhead},
		{"overhead above the new latency", nil, scenario.Overrides{Application: "toy", Latency: ptr(10.0), Overhead: ptr(11.0)}, set, scenario.OverrideOverhead},
		{"recovery too long", nil, scenario.Overrides{Application: "toy", Recovery: ptr(1e21)}, set, scenario.OverrideRecovery},
		{"latency of a multi-level application", multi, scenario.Overrides{Latency: ptr(10.0)}, set, scenario.OverrideLatency},
		{"recovery of a multi-level application", multi, scenario.Overrides{Recovery: ptr(10.0)}, set, scenario.OverrideRecovery},
		{"work overflows", nil, scenario.Overrides{Application: "toy", Work: &scenario.WorkForm{Kind: scenario.Power, Param: 1000}}, set, scenario.OverrideWork},
		{"unknown work form", nil, scenario.Overrides{Application: "toy", Work: &scenario.WorkForm{Kind: 7}}, set, scenario.OverrideWork},
		{"availability-based policy", nil, scenario.Overrides{Application: "toy", Policy: &scenario.Policy{Kind: scenario.AvailabilityBased}}, set, scenario.OverridePolicy},
		{"moldable beyond N", parseMap(t, overrideBase()), scenario.Overrides{Policy: &scenario.Policy{Kind: scenario.Moldable, Processors: 9}}, set, scenario.OverridePolicy},
		{"vector of the wrong length", parseMap(t, overrideBase()), scenario.Overrides{Policy: &scenario.Policy{Kind: scenario.Explicit, Explicit: []int{1, 2}}}, set, scenario.OverridePolicy},
		{"unknown reconfiguration", nil, scenario.Overrides{Application: "toy", Reconfigure: ptr(scenario.Reconfigure(7))}, set, scenario.OverrideReconfigure},
	}
	for _, tc := range tests {
		_, err := tc.ov.Apply(tc.base, tc.set)
		var oe *scenario.OverrideError
		if !errors.As(err, &oe) || oe.Override != tc.want {
			t.Errorf("%s: error %v, want an *OverrideError naming %s", tc.name, err, tc.want)
		}
	}
	// The base's own fault names the base's field, not an override.
	bad := parseMap(t, overrideBase())
	bad.System.MTTF = -1
	_, err = (&scenario.Overrides{Processors: ptr(3)}).Apply(bad, set)
	var oe *scenario.OverrideError
	var se *scenario.Error
	if errors.As(err, &oe) || !errors.As(err, &se) || se.Field != "system.mttf" {
		t.Errorf("base with a negative MTTF: %v, want a *scenario.Error naming system.mttf", err)
	}
}

// TestDefaultSystem: the built-in system is the one README.md and the
// package documentation state, as ParseDuration reads their durations.
func TestDefaultSystem(t *testing.T) {
	mttf, err1 := scenario.ParseDuration("104.61d")
	mttr, err2 := scenario.ParseDuration("56.03m")
	if err := errors.Join(err1, err2); err != nil {
		t.Fatal(err)
	}
	want := scenario.System{Processors: 128, MTTF: mttf, MTTR: mttr}
	if got := scenario.DefaultSystem(); got.Processors != want.Processors || got.MTTF != want.MTTF || got.MTTR != want.MTTR || got.FailureEvents != nil {
		t.Errorf("DefaultSystem() = %+v, want %+v", got, want)
	}
}

// TestWorkFormRates: the forms' rates against their formulas, evaluated
// here: exactly a for linear; for Amdahl and the power law within 4 ulps
// (each side rounds at most three operations), except exp(e·ln a), whose
// exponential turns the rounding of e·ln a into a relative error of up to
// |e·ln a| ≤ 0.8·ln 1000 ≈ 5.5 ulps more: 12 ulps there.
func TestWorkFormRates(t *testing.T) {
	const n = 1000
	for _, tc := range []struct {
		w   WorkForm
		f   func(a float64) float64
		ulp float64
	}{
		{WorkForm{Kind: scenario.Linear}, func(a float64) float64 { return a }, 0},
		{WorkForm{Kind: scenario.Amdahl, Param: 0}, func(a float64) float64 { return a }, 4},
		{WorkForm{Kind: scenario.Amdahl, Param: 1}, func(float64) float64 { return 1 }, 4},
		{WorkForm{Kind: scenario.Amdahl, Param: 0.05}, func(a float64) float64 { return a / (0.95 + 0.05*a) }, 4},
		{WorkForm{Kind: scenario.Power, Param: 0.5}, math.Sqrt, 4},
		{WorkForm{Kind: scenario.Power, Param: 0.8}, func(a float64) float64 { return math.Exp(0.8 * math.Log(a)) }, 12},
		{WorkForm{Kind: scenario.Power, Param: -1}, func(a float64) float64 { return 1 / a }, 4},
	} {
		got := tc.w.Rates(n)
		if len(got) != n {
			t.Fatalf("%v: %d rates, want %d", tc.w, len(got), n)
		}
		for i, g := range got {
			a := float64(i + 1)
			if want := tc.f(a); math.Abs(g-want) > tc.ulp*0x1p-52*want {
				t.Errorf("%v: ω(%d) = %v, want %v", tc.w, i+1, g, want)
				break
			}
		}
	}
}

// WorkForm is scenario.WorkForm, for short.
type WorkForm = scenario.WorkForm

// TestParseWork: the textual forms, their errors, and String's round trip.
func TestParseWork(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want WorkForm
		ok   bool
	}{
		{"linear", WorkForm{Kind: scenario.Linear}, true},
		{" Linear ", WorkForm{Kind: scenario.Linear}, true},
		{"amdahl:0.05", WorkForm{Kind: scenario.Amdahl, Param: 0.05}, true},
		{"AMDAHL: 1", WorkForm{Kind: scenario.Amdahl, Param: 1}, true},
		{"power:0.8", WorkForm{Kind: scenario.Power, Param: 0.8}, true},
		{"power:-64", WorkForm{Kind: scenario.Power, Param: -64}, true},
		{"linear:1", WorkForm{}, false},
		{"amdahl", WorkForm{}, false},
		{"amdahl:", WorkForm{}, false},
		{"amdahl:1.5", WorkForm{}, false},
		{"amdahl:-0.1", WorkForm{}, false},
		{"amdahl:NaN", WorkForm{}, false},
		{"power:x", WorkForm{}, false},
		{"power:65", WorkForm{}, false},
		{"power:Inf", WorkForm{}, false},
		{"cubic", WorkForm{}, false},
		{"", WorkForm{}, false},
	} {
		got, err := scenario.ParseWork(tc.in)
		if (err == nil) != tc.ok || tc.ok && got != tc.want {
			t.Errorf("ParseWork(%q) = %v, %v; want %v, ok %v", tc.in, got, err, tc.want, tc.ok)
			continue
		}
		if tc.ok {
			if back, err := scenario.ParseWork(got.String()); err != nil || back != got {
				t.Errorf("ParseWork(%q).String() = %q reads back as %v, %v", tc.in, got.String(), back, err)
			}
		}
	}
}

// FuzzParseWork: any text is read or refused without a panic, the error
// quoting a short prefix of it; what is
// read writes back to itself and gives finite, positive rates.
func FuzzParseWork(f *testing.F) {
	for _, s := range []string{"linear", "amdahl:0.05", "power:0.8", "power:-64", "amdahl:1e-300", "x:1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		w, err := scenario.ParseWork(s)
		if err != nil {
			// quote.Value keeps 40 bytes of the input, each at most 4
			// bytes escaped, beside about 100 of text.
			if len(err.Error()) > 4*40+120 {
				t.Errorf("error of %d bytes for an input of %d: %v", len(err.Error()), len(s), err)
			}
			return
		}
		if back, err := scenario.ParseWork(w.String()); err != nil || back != w {
			t.Errorf("%q: %v writes %q, read back as %v, %v", s, w, w.String(), back, err)
		}
		for i, r := range w.Rates(64) {
			if !(r > 0) || math.IsInf(r, 0) {
				t.Errorf("%q: ω(%d) = %v, want finite and positive", s, i+1, r)
			}
		}
	})
}

// BenchmarkOverridesRestrict: a study's processors axis of 10⁶ on a base
// of 4·2²⁰ processors written in forms, with the latency and the recovery
// overridden. The old restriction of package sweep expanded the base's
// recovery to an N × N matrix (16·10¹² entries here); Apply copies the
// first 10⁶ entries of each vector and keeps the recovery as a number.
func BenchmarkOverridesRestrict(b *testing.B) {
	base, err := scenario.Parse(strings.NewReader(`{"system": {"processors": 4194304, "mttf": "20y", "mttr": "1h"},
		"application": {"work_rate": {"amdahl": {"rate": 1, "serial": 1e-6}}, "checkpoint_latency": {"constant": 60, "per_processor": 1e-5},
		"recovery": {"constant": 30, "per_old": 1e-6, "per_new": 2e-6}}, "policy": "greedy"}`), nil)
	if err != nil {
		b.Fatal(err)
	}
	ov := scenario.Overrides{Processors: ptr(1 << 20), Latency: ptr(90.0), Recovery: ptr(45.0)}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ov.Apply(base, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// TestOverridesCutTable: a base whose policy is a decision table, run on
// fewer processors (--processors), keeps the table's actions in every
// state X(p, n) with p, n ≤ N, as a vector keeps its first N entries.
// Oracle: the base table's own Action(p, n) on the states that remain
// (p = 0 the default row). A table whose default row runs only above N
// is then no table: an *OverrideError naming the processor count (exit
// status 2 on the command line), not the base file's field.
func TestOverridesCutTable(t *testing.T) {
	base := func(entries []map[string]any) *scenario.Scenario {
		m := overrideBase()
		m["system"].(map[string]any)["processors"] = 6
		m["application"] = map[string]any{"work_rate": []float64{1, 1.9, 2.7, 3.4, 4, 4.5}, "checkpoint_latency": 60, "recovery": 30}
		m["policy"] = map[string]any{"table": entries}
		return parseMap(t, m)
	}
	full := base([]map[string]any{
		{"n": []int{1, 1}, "a": 0}, {"n": []int{2, 4}, "a": "n"}, {"n": []int{5, 6}, "a": 4},
		{"p": 3, "n": []int{3, 6}, "a": 3}, {"p": 5, "n": []int{5, 6}, "a": 5},
	})
	set := &scenario.OverrideSettings{Applications: toyApplications}
	for _, n := range []int{3, 4, 5} {
		sc, err := (&scenario.Overrides{Processors: ptr(n)}).Apply(full, set)
		if err != nil {
			t.Fatalf("N = %d: %v", n, err)
		}
		rule, err := sc.Policy.Rule(scenario.PolicyInputs{N: n, WorkRate: sc.Application.WorkRate})
		if err != nil {
			t.Fatalf("N = %d: %v", n, err)
		}
		for p := 0; p <= n; p++ {
			for m := 1; m <= n; m++ {
				if got, want := rule.Action(p, m), full.Table.Action(p, m); got != want {
					t.Errorf("N = %d: X(%d, %d) → %d, the base table's %d", n, p, m, got, want)
				}
			}
		}
	}
	waits := base([]map[string]any{{"n": []int{1, 4}, "a": 0}, {"n": []int{5, 6}, "a": "n"}})
	_, err := (&scenario.Overrides{Processors: ptr(4)}).Apply(waits, set)
	var oe *scenario.OverrideError
	if !errors.As(err, &oe) || oe.Override != scenario.OverrideProcessors {
		t.Errorf("a table that only waits on 1..4: error %v, want an *OverrideError naming %s", err, scenario.OverrideProcessors)
	}
}

// TestOverridesUnsolvedOptimal: an optimal policy not yet solved is never
// replaced. Resolve returns it beside the system and the application,
// which are those Apply gives with a policy that has a vector (the second
// path: each override with pb in its place), and it has no Scenario:
// Apply refuses it naming the policy, Parts.Scenario naming the field
// policy. The parts with the policy solved (a vector, a decision table)
// give the scenario Apply gives with that policy. An override that does
// not fit is still its error, before the policy is looked at.
func TestOverridesUnsolvedOptimal(t *testing.T) {
	set := &scenario.OverrideSettings{Applications: toyApplications}
	unsolved := &scenario.Policy{Kind: scenario.Optimal}
	tests := []struct {
		name string
		base *scenario.Scenario
		ov   scenario.Overrides
	}{
		{"built-in", nil, scenario.Overrides{}},
		{"file", parseMap(t, overrideBase()), scenario.Overrides{}},
		{"file, fewer processors", parseMap(t, overrideBase()), scenario.Overrides{Processors: ptr(3)}},
		{"named application, times", nil, scenario.Overrides{Application: "toy", Processors: ptr(5), MTTF: ptr(1e6), MTTR: ptr(600.0)}},
		{"costs and work", parseMap(t, overrideBase()), scenario.Overrides{Latency: ptr(100.0), Overhead: ptr(50.0), Recovery: ptr(30.0), Work: &scenario.WorkForm{Kind: scenario.Amdahl, Param: 0.1}}},
		{"reconfigure", parseMap(t, overrideBase()), scenario.Overrides{Reconfigure: ptr(scenario.AtCheckpoint)}},
	}
	for _, tc := range tests {
		set := set
		if tc.base == nil && tc.ov.Application == "" {
			set = &scenario.OverrideSettings{Applications: bench.Application}
		}
		ov := tc.ov
		ov.Policy = unsolved
		_, err := ov.Apply(tc.base, set)
		var oe *scenario.OverrideError
		if !errors.As(err, &oe) || oe.Override != scenario.OverridePolicy {
			t.Errorf("%s: Apply: error %v, want an *OverrideError naming %s", tc.name, err, scenario.OverridePolicy)
		}
		parts, err := ov.Resolve(tc.base, set)
		if err != nil {
			t.Errorf("%s: Resolve: %v", tc.name, err)
			continue
		}
		if !parts.Policy.Unsolved() {
			t.Errorf("%s: Resolve's policy is %v, want the unsolved optimal policy", tc.name, parts.Policy)
		}
		var se *scenario.Error
		if sc, err := parts.Scenario(); !errors.As(err, &se) || se.Field != "policy" {
			t.Errorf("%s: Parts.Scenario of the unsolved policy: a scenario %t, error %v; want a *scenario.Error naming policy", tc.name, sc != nil, err)
		}
		n := parts.System.Processors
		greedy := make([]int, n)
		for i := range greedy {
			greedy[i] = i + 1
		}
		table := []reschedule.Entry{{Lo: 1, Hi: n, A: reschedule.AllUp}, {P: 1, Lo: 2, Hi: n, A: 1}}
		for _, solved := range []scenario.Policy{
			{Kind: scenario.PerformanceBased},
			{Kind: scenario.Optimal, Explicit: greedy},
			{Kind: scenario.Optimal, Table: table},
		} {
			want := ov
			want.Policy = &solved
			ws, err := want.Apply(tc.base, set)
			if err != nil {
				t.Fatalf("%s: Apply with %v: %v", tc.name, solved, err)
			}
			p := parts
			p.Policy = solved
			got, err := p.Scenario()
			if err != nil {
				t.Errorf("%s: Parts.Scenario with %v: %v", tc.name, solved, err)
				continue
			}
			if d := scenario.SameScenario(got, ws); d != "" {
				t.Errorf("%s: the parts with %v give another scenario than Apply: %s", tc.name, solved, d)
			}
			if !ws.Policy.Equal(solved) {
				t.Errorf("%s: Apply made %v of the policy %v", tc.name, ws.Policy, solved)
			}
		}
	}
	// An override that does not fit is its error, also with the
	// unsolved optimal policy (the system and the application are
	// checked without a vector).
	for _, tc := range []struct {
		name string
		ov   scenario.Overrides
		want string
	}{
		{"no processors", scenario.Overrides{Processors: ptr(0)}, scenario.OverrideProcessors},
		{"more counts than the base", scenario.Overrides{Processors: ptr(5)}, scenario.OverrideProcessors},
		{"overhead above the latency", scenario.Overrides{Overhead: ptr(61.0)}, scenario.OverrideOverhead},
		{"work overflows", scenario.Overrides{Work: &scenario.WorkForm{Kind: scenario.Power, Param: 1000}}, scenario.OverrideWork},
	} {
		tc.ov.Policy = unsolved
		_, err := tc.ov.Resolve(parseMap(t, overrideBase()), set)
		var oe *scenario.OverrideError
		if !errors.As(err, &oe) || oe.Override != tc.want {
			t.Errorf("%s: Resolve: error %v, want an *OverrideError naming %s", tc.name, err, tc.want)
		}
	}
	// A scenario file cannot hold it either (docs/scenario.md,
	// "Overrides").
	m := overrideBase()
	m["policy"] = "optimal"
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	var se *scenario.Error
	if sc, err := scenario.Parse(strings.NewReader(string(b)), nil); !errors.As(err, &se) || se.Field != "policy" {
		t.Errorf("a file with the policy \"optimal\": a scenario %t, error %v; want a *scenario.Error naming policy", sc != nil, err)
	}
}

// TestPolicyUnsolved: only the optimal policy with neither a vector nor a
// decision table is unsolved, and exactly those have no vector.
func TestPolicyUnsolved(t *testing.T) {
	tests := []struct {
		p    scenario.Policy
		want bool
	}{
		{scenario.Policy{Kind: scenario.Optimal}, true},
		{scenario.Policy{Kind: scenario.Optimal, Explicit: []int{1, 2}}, false},
		{scenario.Policy{Kind: scenario.Optimal, Table: []reschedule.Entry{{Lo: 1, Hi: 2, A: reschedule.AllUp}}}, false},
		{scenario.Policy{Kind: scenario.Greedy}, false},
		{scenario.Policy{Kind: scenario.PerformanceBased}, false},
		{scenario.Policy{Kind: scenario.Moldable, Processors: 1}, false},
		{scenario.Policy{Kind: scenario.Explicit, Explicit: []int{1, 1}}, false},
		{scenario.Policy{Kind: scenario.AvailabilityBased, Explicit: []int{1, 2}}, false},
		{scenario.Policy{Kind: scenario.Table, Table: []reschedule.Entry{{Lo: 1, Hi: 2, A: 1}}}, false},
	}
	for _, tc := range tests {
		if got := tc.p.Unsolved(); got != tc.want {
			t.Errorf("%v (%+v).Unsolved() = %v, want %v", tc.p, tc.p, got, tc.want)
		}
		_, err := tc.p.Vector(scenario.PolicyInputs{N: 2, WorkRate: []float64{1, 2}})
		if (err != nil) != tc.want {
			t.Errorf("%v (%+v): Vector error %v, want one exactly when unsolved", tc.p, tc.p, err)
		}
	}
}
