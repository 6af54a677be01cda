package scenario_test

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ckpt-markov/markov/scenario"
)

// TestFastPathMatchesReference checks Parse's one-pass reader
// (fastparse.go) against its reference, encoding/json with the strict key
// check (parseReference): on every input below both give the same
// scenario, bit for bit, or the fast path declines (and Parse returns the
// reference's result, error included). The inputs marked fast must take
// the fast path: they are the forms a large scenario is written in, and a
// fast path that silently declined them would only show as a slowdown.
func TestFastPathMatchesReference(t *testing.T) {
	m3 := `[[10, 20, 30], [11, 21, 31], [12, 22, 32]]`
	for _, tc := range []struct {
		name string
		in   string
		fast bool
	}{
		{"lists", file(sys3, app3, `"greedy"`), true},
		{"all four lists", file(sys3, `{"work_rate": [1, 2, 3], "checkpoint_latency": [9, 9, 9], "checkpoint_overhead": [1, 2, 3e0], "recovery": [4, 5, 6]}`, `"pb"`), true},
		{"matrix", file(sys3, `{"work_rate": [1, 2, 3], "checkpoint_latency": 9, "recovery": `+m3+`}`, `"pb"`), true},
		{"equal rows", file(sys3, `{"work_rate": [1, 2, 3], "checkpoint_latency": 9, "recovery": [[1, 2, 3], [1, 2, 3], [1, 2, 3]]}`, `"pb"`), true},
		{"forms", file(sys3, `{"work_rate": {"amdahl": {"rate": 1, "serial": 0.1}}, "checkpoint_latency": {"constant": "1m", "per_processor": 2}, "recovery": {"constant": 5, "per_old": 1, "per_new": 2}}`, `"pb"`), true},
		{"power", file(sys3, `{"work_rate": {"power": {"coefficient": 1, "exponent": 0.5}}, "checkpoint_latency": 9, "recovery": {"constant": 5}}`, `"greedy"`), true},
		{"vector policy", file(sys3, app3, `{"vector": [1, 0, 3]}`), true},
		{"moldable policy", file(sys3, app3, ` { "moldable" : 2 } `), true},
		{"events and reconfigure", `{"system": {"processors": 3, "mttf": 1, "mttr": 1, "failure_events": {"sizes": [0.5, 0.25, 0.25]}}, "application": ` + app3 + `, "policy": "greedy", "reconfigure": "at-checkpoint"}`, true},
		{"application before system", `{"application": ` + app3 + `, "policy": {"vector": [1, 2, 2]}, "system": ` + sys3 + `}`, true},
		{"white space everywhere", " \n{ \"system\" :\t" + sys3 + " ,\r\n \"application\" : { \"work_rate\" : [ 1 , 1.9 , 2.7 ] , \"checkpoint_latency\" : 90 , \"recovery\" : 30 } , \"policy\" : \"greedy\" } \n", true},
		{"negative zero", file(sys3, `{"work_rate": [1, -0, 2.7], "checkpoint_latency": [-0, 0, 1], "checkpoint_overhead": -0.0, "recovery": [-0, 0, -0e5]}`, `{"vector": [1, -0, 3]}`), true},
		{"empty list", file(sys3, `{"work_rate": [], "checkpoint_latency": 90, "recovery": 30}`, `"greedy"`), false},
		{"escaped key", file(sys3, `{"work_rate": [1, 2, 3], "checkpoint_l\u0061tency": 90, "recovery": 30}`, `"greedy"`), false},
		{"duplicate key", file(sys3, `{"work_rate": [1, 2, 3], "work_rate": [1, 2, 3], "checkpoint_latency": 90, "recovery": 30}`, `"greedy"`), false},
		{"case variant", file(sys3, `{"Work_rate": [1, 2, 3], "checkpoint_latency": 90, "recovery": 30}`, `"greedy"`), false},
		{"unknown key", file(sys3, app3, `"greedy"`)[:len(file(sys3, app3, `"greedy"`))-1] + `, "x": 1}`, false},
		{"trailing data", file(sys3, app3, `"greedy"`) + ` x`, false},
		{"list too long", file(sys3, `{"work_rate": [1, 2, 3, 4], "checkpoint_latency": 90, "recovery": 30}`, `"greedy"`), false},
		{"null entry", file(sys3, `{"work_rate": [1, null, 3], "checkpoint_latency": 90, "recovery": 30}`, `"greedy"`), false},
		{"bad number", file(sys3, `{"work_rate": [1, 01, 3], "checkpoint_latency": 90, "recovery": 30}`, `"greedy"`), false},
		{"number out of range", file(sys3, `{"work_rate": [1, 1e400, 3], "checkpoint_latency": 90, "recovery": 30}`, `"greedy"`), false},
		{"C above L", file(sys3, `{"work_rate": [1, 2, 3], "checkpoint_latency": 90, "checkpoint_overhead": [1, 91, 1], "recovery": 30}`, `"greedy"`), false},
		{"moldable not an integer", file(sys3, app3, `{"moldable": 2.0}`), false},
		{"moldable and vector", file(sys3, app3, `{"moldable": 2, "vector": [1, 2, 3]}`), false},
		{"bad escape in a string", file(sys3, app3, `"gre\edy"`), false},
		{"control byte in a string", file(sys3, app3, "\"gre\x01edy\""), false},
		{"unclosed", file(sys3, app3, `"greedy"`)[:40], false},
		{"top level list", `[` + sys3 + `]`, false},
		{"empty", ``, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ref, refErr := scenario.ParseReference([]byte(tc.in), nil)
			fast, ok := scenario.FastParse([]byte(tc.in), nil)
			if ok {
				if refErr != nil {
					t.Fatalf("fast path accepted what the reference rejects: %v", refErr)
				}
				if d := scenario.SameScenario(fast, ref); d != "" {
					t.Fatalf("fast path and reference differ: %s", d)
				}
			}
			if ok != tc.fast {
				t.Errorf("fast path taken: %v, want %v (reference error: %v)", ok, tc.fast, refErr)
			}
			got, err := scenario.Parse(strings.NewReader(tc.in), nil)
			if fmt.Sprint(err) != fmt.Sprint(refErr) {
				t.Errorf("Parse error %v, reference error %v", err, refErr)
			}
			if err == nil {
				if d := scenario.SameScenario(got, ref); d != "" {
					t.Errorf("Parse and reference differ: %s", d)
				}
			}
		})
	}
}

// TestFormsExpansion parses every scenario of testdata and compares its
// vectors, bit for bit, with a straightforward reading written here:
// encoding/json into generic values, lists taken as they are, and each
// form evaluated by its formula of docs/scenario.md at every count, one
// rounded operation at a time (math.Pow for every exponent).
func TestFormsExpansion(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "*.json"))
	if err != nil || len(files) < 4 {
		t.Fatalf("testdata: %v, %d files, want the 4 scenarios", err, len(files))
	}
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			sc, err := scenario.Parse(strings.NewReader(string(data)), nil)
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := scenario.FastParse(data, nil); !ok {
				t.Error("the fast path declined it")
			}
			var doc struct {
				System struct {
					Processors int `json:"processors"`
				} `json:"system"`
				Application map[string]any `json:"application"`
			}
			if err := json.Unmarshal(data, &doc); err != nil {
				t.Fatal(err)
			}
			n := doc.System.Processors
			app := doc.Application
			same := func(field string, got []float64, want func(a int) float64) {
				t.Helper()
				if len(got) != n {
					t.Fatalf("%s: %d entries, want %d", field, len(got), n)
				}
				for a := 1; a <= n; a++ {
					if w := want(a); math.Float64bits(got[a-1]) != math.Float64bits(w) {
						t.Fatalf("%s(%d) = %v, the formula gives %v", field, a, got[a-1], w)
					}
				}
			}
			same("work_rate", sc.Application.WorkRate, expandByHand(t, app["work_rate"]))
			same("checkpoint_latency", sc.Application.Latency, expandByHand(t, app["checkpoint_latency"]))
			over := app["checkpoint_overhead"]
			if over == nil {
				over = app["checkpoint_latency"]
			}
			same("checkpoint_overhead", sc.Application.Overhead, expandByHand(t, over))
			rec := sc.Application.Recovery
			if f, ok := app["recovery"].(map[string]any); ok && f["per_old"] != nil && f["per_old"] != 0.0 {
				c, kp, ka := seconds(t, f["constant"]), f["per_old"].(float64), num(f["per_new"])
				for _, p := range []int{1, 2, n / 2, n} {
					same(fmt.Sprintf("recovery[%d]", p-1), rowOf(rec, p, n), func(a int) float64 {
						return float64(float64(c+float64(kp*float64(p))) + float64(ka*float64(a)))
					})
				}
				return
			}
			if f, ok := app["recovery"].(map[string]any); ok {
				c, ka := seconds(t, f["constant"]), num(f["per_new"])
				same("recovery", rowOf(rec, 1, n), func(a int) float64 { return c + float64(ka*float64(a)) })
				return
			}
			want := expandByHand(t, app["recovery"])
			for _, p := range []int{1, n} {
				same(fmt.Sprintf("recovery[%d]", p-1), rowOf(rec, p, n), want)
			}
		})
	}
}

// rowOf returns R(p, 1..n).
func rowOf(r scenario.Recovery, p, n int) []float64 {
	v := make([]float64, n)
	for a := range v {
		v[a] = r.Cost(p, a+1)
	}
	return v
}

func num(x any) float64 {
	if x == nil {
		return 0
	}
	return x.(float64)
}

func seconds(t *testing.T, x any) float64 {
	t.Helper()
	if s, ok := x.(string); ok {
		d, err := scenario.ParseDuration(s)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	return x.(float64)
}

// expandByHand returns the value at a of a per-count field as decoded by
// encoding/json: a list, a number or duration, or a form.
func expandByHand(t *testing.T, v any) func(a int) float64 {
	t.Helper()
	switch v := v.(type) {
	case []any:
		return func(a int) float64 { return v[a-1].(float64) }
	case float64, string:
		x := seconds(t, v)
		return func(int) float64 { return x }
	case map[string]any:
		if am, ok := v["amdahl"].(map[string]any); ok {
			r, f := am["rate"].(float64), am["serial"].(float64)
			// r·a / (1 + f·(a − 1))
			return func(a int) float64 {
				x := float64(a)
				return float64(r*x) / (1 + float64(f*(x-1)))
			}
		}
		if pw, ok := v["power"].(map[string]any); ok {
			c, e := pw["coefficient"].(float64), pw["exponent"].(float64)
			return func(a int) float64 { return c * math.Pow(float64(a), e) } // c·a^e
		}
		c, k := seconds(t, v["constant"]), num(v["per_processor"])
		return func(a int) float64 { return c + float64(k*float64(a)) } // c + k·a
	}
	t.Fatalf("unexpected value %v", v)
	return nil
}
