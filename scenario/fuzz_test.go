package scenario_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/ckpt-markov/markov/scenario"
)

// FuzzParse checks that Parse never panics, that a scenario it returns
// passes Validate with a rescheduling vector of N entries, that every
// error either names a field (*scenario.Error) or says the input is not
// JSON, that what Parse accepts encoding/json (an independent decoder)
// reads as JSON too, and that feeding the input one byte at a time gives
// the same result.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		file(sys3, app3, `"greedy"`),
		file(sys3, app3, `"pb"`),
		file(sys3, app3, `{"moldable": 2}`),
		file(sys3, app3, `{"vector": [1, 0, 3]}`),
		file(sys3, app3, `{"table": [{"n": [1, 3], "a": "n"}, {"p": 2, "n": 3, "a": 2}]}`),
		file(sys3, app3, `{"table": [{"n": 1, "a": 0}, {"n": [2, 3], "a": 2}]}`),
		file(sys3, app3, `"table:1-3: n; p=3: 2: 1"`),
		file(`{"processors": 3, "mttf": "100d", "mttr": "90m"}`, `{"work_rate": [1, 2, 3], "checkpoint_latency": [1, 2, 3], "checkpoint_overhead": "1s", "recovery": [4, 5, 6]}`, `"greedy"`),
		file(sys3, `{"work_rate": [1, 2, 3], "checkpoint_latency": 9, "recovery": [[1, 2, 3], [4, 5, 6], [7, 8, 9]]}`, `"pb"`),
		file(sys3, `{"work_rate": [1, 2, 3], "checkpoint_latency": 9, "recovery": [[1, 2, 3], [1, 2, 3], [1, 2, 3]]}`, `"pb"`),
		file(sys3, `"qr"`, `"greedy"`),
		file(`{"processors": 3, "mttf": 1, "mttr": 1, "failure_events": {"sizes": [0.5, 0.25, 0.25]}}`, app3, `"greedy"`),
		file(sys3, `{"work_rate": {"amdahl": {"rate": 1, "serial": 0.1}}, "checkpoint_latency": {"constant": "1m", "per_processor": 2}, "recovery": {"constant": 5, "per_old": 1, "per_new": 2}}`, `"pb"`),
		file(sys3, `{"work_rate": {"power": {"coefficient": 1, "exponent": 0.5}}, "checkpoint_latency": 9, "recovery": {"constant": 5}}`, `"greedy"`),
		file(sys3, app3, `"greedy"`) + ` x`,
		file(`{"processors": 3, "mttf": 1, "mttr": 1, "failure_severity": [0.9, 0.1]}`, `{"work_rate": [1, 2, 3], "checkpoint_levels": [{"latency": 9, "recovery": 9}, {"latency": "7m", "overhead": [1, 2, 3], "recovery": {"constant": 5, "per_old": 1}}], "checkpoint_after_recovery": false}`, `{"moldable": 2}`),
		`{"system": {"processors": 1, "mttf": 1, "mttr": 1, "failure_severity": [1]}, "application": {"work_rate": [1], "checkpoint_levels": [{"latency": 9, "recovery": 9}]}, "policy": "greedy", "checkpoint_pattern": []}`,
		file(`{"processors": 3, "mttf": 1, "mttr": 1, "failure_severity": [1]}`, app3, `"greedy"`),
		file(sys3, `{"work_rate": [1, 2, 3], "checkpoint_latency": 9, "recovery": 30, "replicas": 2}`, `"greedy"`),
		file(sys3, `{"replicas": 3, "work_rate": [1, 2, 3], "checkpoint_latency": 9, "recovery": 30}`, `"pb"`),
		file(sys3, `{"work_rate": [1, 2, 3], "checkpoint_latency": 9, "recovery": 30, "replicas": 2.0}`, `"greedy"`),
		`{"application": {"work_rate": [1, 2, 3], "checkpoint_latency": [9, 9, 9], "checkpoint_overhead": [1, -0, 3e0], "recovery": [[1, 2, 3], [4, 5, 6], [7, 8, 9]]}, "policy": {"vector": [1, 2, 2]}, "system": ` + sys3 + `}`,
		file(sys3, `{"work_rate": [1, 2, 3], "checkpoint_l\u0061tency": 90, "recovery": 30}`, `"greedy"`),
		`{"system": `,
		`[]`,
		`null`,
		``,
		"\x00\x00",
		"\ufeff\x01{}",
		" \x95",
	} {
		f.Add(s)
	}
	files, _ := filepath.Glob(filepath.Join("testdata", "*.json"))
	for _, path := range files {
		if b, err := os.ReadFile(path); err == nil {
			f.Add(string(b))
		}
	}
	f.Fuzz(func(t *testing.T, in string) {
		s, err := scenario.Parse(strings.NewReader(in), nil)
		bytewise, bytewiseErr := scenario.Parse(iotest.OneByteReader(strings.NewReader(in)), nil)
		if fmt.Sprint(err) != fmt.Sprint(bytewiseErr) || err == nil && scenario.SameScenario(s, bytewise) != "" {
			t.Fatalf("Parse: %v; one byte at a time: %v", err, bytewiseErr)
		}
		if err == nil && !json.Valid([]byte(strings.TrimPrefix(in, "\ufeff"))) {
			t.Fatalf("Parse accepted what encoding/json does not read as JSON")
		}
		if err != nil {
			if s != nil {
				t.Fatalf("scenario returned with error %v", err)
			}
			var se *scenario.Error
			if errors.As(err, &se) {
				if se.Field == "" || se.Problem == "" {
					t.Fatalf("error %#v lacks a field or a problem", se)
				}
			} else if !strings.HasPrefix(err.Error(), "scenario: not valid JSON") {
				t.Fatalf("error %q neither names a field nor says the input is not JSON", err)
			}
			return
		}
		if err := s.Validate(); err != nil {
			t.Fatalf("parsed scenario fails Validate: %v", err)
		}
		if len(s.Reschedule) != s.N() || s.Application.N() != s.N() {
			t.Fatalf("N = %d, but %d work rates and %d vector entries", s.N(), s.Application.N(), len(s.Reschedule))
		}
	})
}

// FuzzParsePolicyList checks that ParsePolicy and SplitPolicies never
// panic, that what ParsePolicy accepts reads back from String, and that
// every error names the policy field.
func FuzzParsePolicyList(f *testing.F) {
	for _, s := range []string{"greedy", "pb", "ab", "optimal", "moldable:4", "vector:1,2,3", "greedy,vector:1,2,pb", "vector:", ",", "moldable:x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		if p, err := scenario.ParsePolicy(in); err == nil {
			if q, err := scenario.ParsePolicy(p.String()); err != nil || !q.Equal(p) {
				t.Fatalf("%q reads as %v, which reads as %v (%v)", in, p, q, err)
			}
		} else if se := (*scenario.Error)(nil); !errors.As(err, &se) || se.Field != "policy" {
			t.Fatalf("error %v does not name the policy field", err)
		}
		if ps, err := scenario.SplitPolicies(in); err == nil && len(ps) == 0 {
			t.Fatalf("SplitPolicies(%q) returned no policy and no error", in)
		}
	})
}
