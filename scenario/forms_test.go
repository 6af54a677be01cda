package scenario_test

import (
	"fmt"
	"math"
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
