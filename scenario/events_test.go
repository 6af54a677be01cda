package scenario_test

import (
	"math"
	"slices"
	"testing"

	"github.com/ckpt-markov/markov/scenario"
)

// TestParseFailureEvents checks the accepted forms of system.failure_events
// against the numbers written in the file: the event rate is λ/E[K] with
// E[K] computed by hand (0.5·1 + 0.25·2 + 0.25·3 = 1.75).
func TestParseFailureEvents(t *testing.T) {
	for _, tc := range []struct {
		name, sys string
		sizes     []float64 // nil: no failure events
		single    bool
		mean      float64
	}{
		{"absent", `{"processors": 3, "mttf": 7000, "mttr": 3600}`, nil, true, 1},
		{"null", `{"processors": 3, "mttf": 7000, "mttr": 3600, "failure_events": null}`, nil, true, 1},
		{"size one", `{"processors": 3, "mttf": 7000, "mttr": 3600, "failure_events": {"sizes": [1]}}`, []float64{1}, true, 1},
		{"size one, trailing zeros", `{"processors": 3, "mttf": 7000, "mttr": 3600, "failure_events": {"sizes": [1, 0, 0]}}`, []float64{1, 0, 0}, true, 1},
		{"three sizes", `{"processors": 3, "mttf": 7000, "mttr": 3600, "failure_events": {"sizes": [0.5, 0.25, 0.25]}}`, []float64{0.5, 0.25, 0.25}, false, 1.75},
		{"pairs only", `{"processors": 3, "mttf": 7000, "mttr": 3600, "failure_events": {"sizes": [0, 1]}}`, []float64{0, 1}, false, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := parse(file(tc.sys, app3, `"greedy"`))
			if err != nil {
				t.Fatal(err)
			}
			fe := s.System.FailureEvents
			if (fe == nil) != (tc.sizes == nil) || (fe != nil && !slices.Equal(fe.Sizes, tc.sizes)) {
				t.Fatalf("FailureEvents = %+v, want sizes %v", fe, tc.sizes)
			}
			if fe.Single() != tc.single {
				t.Errorf("Single() = %v, want %v", fe.Single(), tc.single)
			}
			if got := fe.MeanSize(); math.Abs(got-tc.mean) > 1e-15 {
				t.Errorf("MeanSize() = %v, want %v", got, tc.mean)
			}
			if got, want := s.System.EventRate(), 1/7000.0/tc.mean; math.Abs(got-want) > 1e-15*want {
				t.Errorf("EventRate() = %v, want %v", got, want)
			}
			if tc.single && s.System.EventRate() != s.System.Lambda() {
				t.Errorf("single failures: EventRate() = %v differs from λ = %v", s.System.EventRate(), s.System.Lambda())
			}
		})
	}
}

// TestParseFailureEventsMalformed checks that every bad size law is rejected
// with an error naming the field.
func TestParseFailureEventsMalformed(t *testing.T) {
	sys := func(fe string) string {
		return `{"processors": 3, "mttf": 7000, "mttr": 3600, "failure_events": ` + fe + `}`
	}
	for _, tc := range []struct {
		name, fe, field, phrase string
	}{
		{"no sizes", `{}`, "system.failure_events.sizes", "missing"},
		{"empty sizes", `{"sizes": []}`, "system.failure_events.sizes", "empty"},
		{"too many sizes", `{"sizes": [0.25, 0.25, 0.25, 0.25]}`, "system.failure_events.sizes", "cannot take down more than the 3"},
		{"negative", `{"sizes": [1.5, -0.5]}`, "system.failure_events.sizes[0]", "want a probability"},
		{"sum below one", `{"sizes": [0.5, 0.25]}`, "system.failure_events.sizes", "sums to 0.75"},
		{"sum above one", `{"sizes": [0.5, 0.5, 0.001]}`, "system.failure_events.sizes", "sums to"},
		{"null entry", `{"sizes": [0.5, null, 0.5]}`, "system.failure_events.sizes[1]", "null"},
		{"string entry", `{"sizes": [0.5, "x"]}`, "system.failure_events.sizes[1]", "want a number"},
		{"typo", `{"size": [1]}`, "system.failure_events.size", "unknown field"},
		{"rate field", `{"sizes": [1], "rate": 2}`, "system.failure_events.rate", "unknown field"},
		{"not an object", `[1]`, "system.failure_events", "want an object"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := parse(file(sys(tc.fe), app3, `"greedy"`))
			if err == nil {
				t.Fatalf("no error; parsed %+v", s.System)
			}
			wantErr(t, err, tc.field, tc.phrase)
		})
	}
}

// TestEventSystem checks MTTF = 1/(rate·E[K]) (E[K] = 0.5 + 2·0.5 = 1.5 by
// hand) and the errors.
func TestEventSystem(t *testing.T) {
	sys, err := scenario.EventSystem(8, 1e-5, 3600, []float64{0.5, 0.5})
	if err != nil {
		t.Fatal(err)
	}
	if want := 1 / (1e-5 * 1.5); math.Abs(sys.MTTF-want) > 1e-12*want {
		t.Errorf("MTTF = %v, want %v", sys.MTTF, want)
	}
	if got := sys.EventRate(); math.Abs(got-1e-5) > 1e-18 {
		t.Errorf("EventRate() = %v, want 1e-5", got)
	}
	for _, tc := range []struct {
		name  string
		n     int
		rate  float64
		sizes []float64
		field string
	}{
		{"zero rate", 8, 0, []float64{1}, "system.failure_events.rate"},
		{"NaN rate", 8, math.NaN(), []float64{1}, "system.failure_events.rate"},
		{"bad sum", 8, 1, []float64{0.5}, "system.failure_events.sizes"},
		{"too large", 2, 1, []float64{0, 0, 1}, "system.failure_events.sizes"},
		{"no processors", 0, 1, []float64{1}, "system.processors"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := scenario.EventSystem(tc.n, tc.rate, 3600, tc.sizes)
			wantErr(t, err, tc.field, "")
		})
	}
}
