package scenario_test

import (
	"bytes"
	"runtime"
	"strings"
	"testing"

	"github.com/ckpt-markov/markov/scenario"
)

// TestParseStrictKeys checks that duplicate keys and keys differing from the
// documented ones only by case are rejected by name (encoding/json alone
// keeps the last duplicate and matches keys without regard to case), and that
// a UTF-8 byte order mark is accepted.
func TestParseStrictKeys(t *testing.T) {
	for _, tc := range []struct {
		name, in, field, phrase string
	}{
		{"duplicate system key", file(`{"processors": 3, "mttf": 8640000, "mttf": 1, "mttr": 3600}`, app3, `"greedy"`), "system.mttf", "given twice"},
		{"case variant beside the key", file(`{"processors": 3, "mttf": 8640000, "MTTF": 1, "mttr": 3600}`, app3, `"greedy"`), "system.MTTF", `did you mean "mttf"`},
		{"case variant alone", file(`{"processors": 3, "Mttf": 8640000, "mttr": 3600}`, app3, `"greedy"`), "system.Mttf", "case-sensitive"},
		{"duplicate top key", `{"system": ` + sys3 + `, "application": ` + app3 + `, "policy": "greedy", "policy": "pb"}`, "policy", "given twice"},
		{"case variant top key", `{"System": ` + sys3 + `, "application": ` + app3 + `, "policy": "greedy"}`, "System", `did you mean "system"`},
		{"duplicate application key", file(sys3, `{"work_rate": [1, 2, 3], "checkpoint_latency": 90, "recovery": 30, "recovery": 1}`, `"greedy"`), "application.recovery", "given twice"},
		{"case variant application key", file(sys3, `{"Work_Rate": [1, 2, 3], "checkpoint_latency": 90, "recovery": 30}`, `"greedy"`), "application.Work_Rate", `did you mean "work_rate"`},
		{"case variant policy key", file(sys3, app3, `{"Moldable": 2}`), "policy.Moldable", `did you mean "moldable"`},
		{"case variant event key", file(`{"processors": 3, "mttf": 1e6, "mttr": 1e3, "failure_events": {"Sizes": [0.5]}}`, app3, `"greedy"`), "system.failure_events.Sizes", `did you mean "sizes"`},
		{"duplicate event key", file(`{"processors": 3, "mttf": 1e6, "mttr": 1e3, "failure_events": {"sizes": [0.5], "sizes": [1]}}`, app3, `"greedy"`), "system.failure_events.sizes", "given twice"},
		// Parametric forms (docs/scenario.md) are objects too, nested two deep.
		{"case variant in a form", file(sys3, `{"work_rate": [1, 2, 3], "checkpoint_latency": {"constant": 60, "Constant": 70}, "recovery": 30}`, `"greedy"`), "application.checkpoint_latency.Constant", `did you mean "constant"`},
		{"duplicate key in a form", file(sys3, `{"work_rate": {"constant": 1, "per_processor": 1, "per_processor": 2}, "checkpoint_latency": 60, "recovery": 30}`, `"greedy"`), "application.work_rate.per_processor", "given twice"},
		{"case variant nested in a form", file(sys3, `{"work_rate": {"amdahl": {"rate": 1, "serial": 0.1, "Serial": 0.5}}, "checkpoint_latency": 60, "recovery": 30}`, `"greedy"`), "application.work_rate.amdahl.Serial", `did you mean "serial"`},
		{"duplicate key in the recovery form", file(sys3, `{"work_rate": [1, 2, 3], "checkpoint_latency": 60, "recovery": {"constant": 30, "per_old": 1, "per_old": 2}}`, `"greedy"`), "application.recovery.per_old", "given twice"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := parse(tc.in)
			if err == nil {
				t.Fatalf("no error; parsed %+v", s.System)
			}
			wantErr(t, err, tc.field, tc.phrase)
		})
	}
	s, err := parse("\ufeff" + file(sys3, app3, `"greedy"`))
	if err != nil {
		t.Fatalf("with a byte order mark: %v", err)
	}
	if s.System.MTTF != 8640000 {
		t.Errorf("with a byte order mark: MTTF = %v, want 8640000", s.System.MTTF)
	}
}

// TestParseSizeLimits checks the bounds on sizes: the input's byte count,
// the processor count, and lists longer than N, which must be rejected
// without building them.
func TestParseSizeLimits(t *testing.T) {
	in := file(sys3, app3, `"greedy"`)
	_, err := scenario.Parse(strings.NewReader(in), &scenario.ParseSettings{MaxBytes: int64(len(in) - 1)})
	wantErr(t, err, "(file)", "larger than the limit")
	if _, err := scenario.Parse(strings.NewReader(in), &scenario.ParseSettings{MaxBytes: int64(len(in))}); err != nil {
		t.Errorf("input of exactly MaxBytes: %v", err)
	}
	_, err = parse(file(`{"processors": 20000000, "mttf": 1, "mttr": 1}`, app3, `"greedy"`))
	wantErr(t, err, "system.processors", "more than the limit of 16777216")

	// A list of 2 million entries where 3 are expected (a 4 MB input).
	// Decoding the whole list before checking its length allocated 718 MB
	// (work_rate) and 113 MB (policy vector) when this test was written;
	// reading entry by entry stops at the fourth, and what remains is a
	// bounded number of copies of the input (59 MB measured, ~15 copies, in
	// the decoder's buffers). The allowance is 20 copies.
	const long = 2_000_000
	var b bytes.Buffer
	b.WriteString(`{"processors": 3, "mttf": 1, "mttr": 1}, "application": {"work_rate": [`)
	for i := range long {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteByte('1')
	}
	b.WriteString(`], "checkpoint_latency": 1, "recovery": 1}, "policy": "greedy"}`)
	data := append([]byte(`{"system": `), b.Bytes()...)
	for _, field := range []string{"work_rate", "vector"} {
		in := data
		if field == "vector" {
			in = []byte(strings.Replace(string(data), `"work_rate": [`, `"work_rate": [1, 1, 1], "x": [`, 1))
			in = []byte(strings.Replace(string(in), `"x": [`, `"checkpoint_overhead": 1}, "policy": {"vector": [`, 1))
			in = []byte(strings.Replace(string(in), `], "checkpoint_latency": 1, "recovery": 1}, "policy": "greedy"}`, `]}}`, 1))
			in = []byte(strings.Replace(string(in), `"checkpoint_overhead": 1}`, `"checkpoint_latency": 1, "recovery": 1}`, 1))
		}
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		_, err := scenario.Parse(bytes.NewReader(in), nil)
		runtime.ReadMemStats(&after)
		want := map[string]string{"work_rate": "application.work_rate", "vector": "policy.vector"}[field]
		wantErr(t, err, want, "more than 3 entries")
		if got, limit := after.TotalAlloc-before.TotalAlloc, uint64(20*len(in)); got > limit {
			t.Errorf("%s: a %d-entry list allocated %d bytes, want ≤ %d (20 copies of the input)", field, long, got, limit)
		}
	}
}

// TestLimits checks the documented bounds on times and work rates, each
// named in the error with its limit.
func TestLimits(t *testing.T) {
	ok := scenario.System{Processors: 4, MTTF: 1e6, MTTR: 1e3}
	app := scenario.Application{WorkRate: []float64{1, 2, 3, 4}, Latency: []float64{1, 1, 1, 1}, Overhead: []float64{1, 1, 1, 1}}
	for _, tc := range []struct {
		name   string
		sys    scenario.System
		app    func(a *scenario.Application)
		field  string
		phrase string
	}{
		{"denormal mttf", scenario.System{Processors: 4, MTTF: 1e-320, MTTR: 1e3}, nil, "system.mttf", "below the limit of 1e-06 s"},
		{"tiny mttr", scenario.System{Processors: 4, MTTF: 1e6, MTTR: 1e-308}, nil, "system.mttr", "below the limit"},
		{"huge mttf", scenario.System{Processors: 4, MTTF: 1e300, MTTR: 1e3}, nil, "system.mttf", "above the limit of 1e+20 s"},
		{"huge work rate", ok, func(a *scenario.Application) { a.WorkRate = []float64{1, 1e306, 3, 4} }, "application.work_rate[1]", "above the limit"},
		{"huge latency", ok, func(a *scenario.Application) { a.Latency = []float64{1, 1, 1e300, 1} }, "application.checkpoint_latency[2]", "above the limit"},
		{"huge recovery", ok, func(a *scenario.Application) { a.Recovery = scenario.RecoveryByNew([]float64{0, 0, 0, 1e300}) }, "application.recovery[3]", "above the limit"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := app
			if tc.app != nil {
				tc.app(&a)
			}
			_, err := scenario.New(tc.sys, a, scenario.Policy{Kind: scenario.Greedy})
			if err == nil {
				t.Fatal("no error")
			}
			wantErr(t, err, tc.field, tc.phrase)
		})
	}
}

// TestFirstCounts checks that restricting an application of many counts to
// a few keeps the leading entries and block, and allocates O(n²), not the
// N×N matrix of the application's N (65,536 counts: 34 GB).
func TestFirstCounts(t *testing.T) {
	const big = 1 << 16
	w := make([]float64, big)
	for i := range w {
		w[i] = float64(i + 1)
	}
	app := scenario.Application{WorkRate: w, Latency: w, Overhead: w, Recovery: scenario.RecoveryConstant(7, big)}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	got, err := app.FirstCounts(4)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if d := after.TotalAlloc - before.TotalAlloc; d > 1<<16 {
		t.Errorf("FirstCounts(4) of %d counts allocated %d bytes, want ≤ 64 KiB", big, d)
	}
	if got.N() != 4 || got.WorkRate[3] != 4 || got.Recovery.Cost(4, 2) != 7 {
		t.Errorf("FirstCounts(4) = %+v, want ω(a) = a and R = 7", got)
	}
	m := scenario.Application{WorkRate: w[:3], Latency: w[:3], Overhead: w[:3],
		Recovery: scenario.RecoveryMatrix([][]float64{{1, 2, 3}, {4, 5, 6}, {7, 8, 9}})}
	got, err = m.FirstCounts(2)
	if err != nil {
		t.Fatal(err)
	}
	if !got.Recovery.DependsOnOld() || got.Recovery.Cost(2, 1) != 4 || got.Recovery.Cost(1, 2) != 2 {
		t.Errorf("FirstCounts(2) of a 3×3 matrix: R(2,1) = %v, R(1,2) = %v, want 4, 2", got.Recovery.Cost(2, 1), got.Recovery.Cost(1, 2))
	}
	if err := got.Validate(2); err != nil {
		t.Errorf("FirstCounts(2) fails Validate(2): %v", err)
	}
	if _, err := m.FirstCounts(4); err == nil {
		t.Error("FirstCounts(4) of a 3-count application: no error")
	}
}
