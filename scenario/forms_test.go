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

// Each parametric form gives, entry for entry, the list written out by
// hand from its formula (docs/scenario.md): the same scenario parsed both
// ways. The numbers are arbitrary; the formulas are the documentation's.
func TestParseForms(t *testing.T) {
	const n = 5
	list := func(f func(a float64) float64) string {
		parts := make([]string, n)
		for i := range parts {
			parts[i] = fmt.Sprint(f(float64(i + 1)))
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	sys := fmt.Sprintf(`{"processors": %d, "mttf": "100d", "mttr": "1h"}`, n)
	for _, tc := range []struct {
		name, form, explicit string
	}{
		{"amdahl", `{"amdahl": {"rate": 2.5, "serial": 0.05}}`, list(func(a float64) float64 { return 2.5 * a / (1 + 0.05*(a-1)) })},
		{"power", `{"power": {"coefficient": 1.5, "exponent": 0.8}}`, list(func(a float64) float64 { return 1.5 * math.Pow(a, 0.8) })},
		{"linear", `{"constant": 3, "per_processor": 0.5}`, list(func(a float64) float64 { return 3 + 0.5*a })},
	} {
		formSc, err := scenario.Parse(strings.NewReader(file(sys,
			`{"work_rate": `+tc.form+`, "checkpoint_latency": {"constant": "1m", "per_processor": 2}, "checkpoint_overhead": {"constant": 30}, "recovery": {"constant": 10, "per_old": 0.5, "per_new": 1}}`,
			`"greedy"`)), nil)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		r := make([]string, n)
		for p := range r {
			r[p] = list(func(a float64) float64 { return 10 + 0.5*float64(p+1) + a })
		}
		listSc, err := scenario.Parse(strings.NewReader(file(sys,
			`{"work_rate": `+tc.explicit+`, "checkpoint_latency": `+list(func(a float64) float64 { return 60 + 2*a })+
				`, "checkpoint_overhead": 30, "recovery": [`+strings.Join(r, ", ")+`]}`,
			`"greedy"`)), nil)
		if err != nil {
			t.Fatalf("%s, explicit: %v", tc.name, err)
		}
		fa, la := formSc.Application, listSc.Application
		for a := 1; a <= n; a++ {
			// fmt.Sprint prints the shortest representation that reads
			// back exactly, so the two agree bit for bit.
			if fa.WorkRate[a-1] != la.WorkRate[a-1] || fa.Latency[a-1] != la.Latency[a-1] || fa.Overhead[a-1] != la.Overhead[a-1] {
				t.Errorf("%s a=%d: form ω %v L %v C %v, list ω %v L %v C %v", tc.name, a,
					fa.WorkRate[a-1], fa.Latency[a-1], fa.Overhead[a-1], la.WorkRate[a-1], la.Latency[a-1], la.Overhead[a-1])
			}
			for p := 1; p <= n; p++ {
				if x, y := fa.Recovery.Cost(p, a), la.Recovery.Cost(p, a); x != y {
					t.Errorf("%s R(%d, %d): form %v, matrix %v", tc.name, p, a, x, y)
				}
			}
		}
		if !fa.Recovery.DependsOnOld() {
			t.Errorf("%s: a recovery with per_old ≠ 0 does not depend on the old count", tc.name)
		}
	}
}

// A million-processor scenario in a few lines: parsed without lists, with
// a recovery cost that depends on the old count in constant memory.
func TestParseFormsMillion(t *testing.T) {
	const n = 1_000_000
	sc, err := scenario.Parse(strings.NewReader(file(fmt.Sprintf(`{"processors": %d, "mttf": "25y", "mttr": "1h"}`, n),
		`{"work_rate": {"amdahl": {"rate": 1, "serial": 0.0005}}, "checkpoint_latency": {"constant": 99.19}, "recovery": {"constant": 17, "per_old": 1e-6, "per_new": 1e-6}}`,
		`{"moldable": 500000}`)), nil)
	if err != nil {
		t.Fatal(err)
	}
	// R(n, n) = 17 + 2·n·1e-6 = 19.
	if got := sc.Application.Recovery.Cost(n, n); math.Abs(got-19) > 1e-12 {
		t.Errorf("R(N, N) = %v, want 19", got)
	}
	if w := sc.Application.WorkRate[n-1]; math.Abs(w-float64(n)/(1+0.0005*(n-1))) > 1e-9*w {
		t.Errorf("ω(N) = %v", w)
	}
}

// TestRecoveryLinearCompact checks that a recovery cost written as one
// number or a form is kept as coefficients (constant memory) yet reads as
// the vector a list of the same numbers gives: the same costs bit for bit,
// the same DependsOnOld, the same errors naming the entry at fault, and
// restriction to fewer counts (FirstCounts) keeps it (it fell to a zero
// cost before).
func TestRecoveryLinearCompact(t *testing.T) {
	const n = 6
	sys := fmt.Sprintf(`{"processors": %d, "mttf": "100d", "mttr": "1h"}`, n)
	app := func(rec string) string {
		return `{"work_rate": [1, 2, 3, 4, 5, 6], "checkpoint_latency": 90, "recovery": ` + rec + `}`
	}
	for _, tc := range []struct{ compact, list string }{
		{`30`, `[30, 30, 30, 30, 30, 30]`},
		{`"1m"`, `[60, 60, 60, 60, 60, 60]`},
		{`-0`, `[-0, -0, -0, -0, -0, -0]`},
		{`{"constant": 5, "per_new": 0.1}`, `[5.1, 5.2, 5.3, 5.4, 5.5, 5.6]`},
		{`{"constant": 5, "per_new": -1}`, `[4, 3, 2, 1, 0, -1]`},
		{`-5`, `[-5, -5, -5, -5, -5, -5]`},
		{`1e300`, `[1e300, 1e300, 1e300, 1e300, 1e300, 1e300]`},
	} {
		a, errA := parse(file(sys, app(tc.compact), `"greedy"`))
		b, errB := parse(file(sys, app(tc.list), `"greedy"`))
		if fmt.Sprint(errA) != fmt.Sprint(errB) {
			t.Errorf("%s: error %v, as a list %v", tc.compact, errA, errB)
			continue
		}
		if errA != nil {
			continue
		}
		if a.Application.Recovery.DependsOnOld() {
			t.Errorf("%s: depends on the old count", tc.compact)
		}
		for p := 1; p <= n; p++ {
			for q := 1; q <= n; q++ {
				// Rounded as the sum c + k·a (5 + 0.1·3 is not 5.3 exactly),
				// so compare within a few ulps against the list, and bit for
				// bit against the formula.
				x, y := a.Application.Recovery.Cost(p, q), b.Application.Recovery.Cost(p, q)
				if math.Abs(x-y) > 4e-16*math.Abs(y) || math.Signbit(x) != math.Signbit(y) {
					t.Errorf("%s: R(%d, %d) = %v, as a list %v", tc.compact, p, q, x, y)
				}
			}
		}
		first, err := a.Application.FirstCounts(3)
		if err != nil {
			t.Fatal(err)
		}
		if err := first.Validate(3); err != nil {
			t.Errorf("%s: FirstCounts(3) fails Validate(3): %v", tc.compact, err)
		}
		if x, y := first.Recovery.Cost(2, 3), a.Application.Recovery.Cost(2, 3); x != y {
			t.Errorf("%s: FirstCounts(3) has R(2, 3) = %v, want %v", tc.compact, x, y)
		}
	}
	lin := scenario.Application{WorkRate: []float64{1, 2, 3}, Latency: []float64{9, 9, 9}, Overhead: []float64{9, 9, 9},
		Recovery: scenario.RecoveryLinear(10, 0.5, 1, 3)}
	first, err := lin.FirstCounts(2)
	if err != nil {
		t.Fatal(err)
	}
	// R(2, 1) = 10 + 0.5·2 + 1·1 = 12.
	if got := first.Recovery.Cost(2, 1); got != 12 || !first.Recovery.DependsOnOld() {
		t.Errorf("FirstCounts(2) of R = 10 + 0.5p + a: R(2, 1) = %v, depends on old %v; want 12, true", got, first.Recovery.DependsOnOld())
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
