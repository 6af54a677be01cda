package scenario_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/ckpt-markov/markov/reschedule"
	"github.com/ckpt-markov/markov/scenario"
)

// TestParseTable reads decision tables in both forms and checks every
// action X(p, n) against the table written out by hand.
func TestParseTable(t *testing.T) {
	for _, tc := range []struct {
		name, policy string
		// want[p][n-1] for p = 0..3 (p = 0: the default row).
		want [4][3]int
		old  bool
	}{
		{"object", `{"table": [{"n": [1, 3], "a": "n"}, {"p": 2, "n": 3, "a": 2}]}`,
			[4][3]int{{1, 2, 3}, {1, 2, 3}, {1, 2, 2}, {1, 2, 3}}, true},
		{"text", `"table:1-3: n; p=2: 3: 2"`,
			[4][3]int{{1, 2, 3}, {1, 2, 3}, {1, 2, 2}, {1, 2, 3}}, true},
		{"vector as a table", `{"table": [{"n": 1, "a": 0}, {"n": [2, 3], "a": 2}]}`,
			[4][3]int{{0, 2, 2}, {0, 2, 2}, {0, 2, 2}, {0, 2, 2}}, false},
		{"a row equal to the default", `{"table": [{"n": [1, 3], "a": "n"}, {"p": 3, "n": 3, "a": 3}]}`,
			[4][3]int{{1, 2, 3}, {1, 2, 3}, {1, 2, 3}, {1, 2, 3}}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sc, err := scenario.Parse(strings.NewReader(file(sys3, app3, tc.policy)), nil)
			if err != nil {
				t.Fatal(err)
			}
			if (sc.Table != nil) != tc.old {
				t.Fatalf("Table = %v, want one: %v", sc.Table, tc.old)
			}
			r := sc.Rule()
			for p := range 4 {
				for n := 1; n <= 3; n++ {
					if got := r.Action(p, n); got != tc.want[p][n-1] {
						t.Errorf("Action(%d, %d) = %d, want %d", p, n, got, tc.want[p][n-1])
					}
				}
			}
			if !slices.Equal(sc.Reschedule, reschedule.Vector(tc.want[0][:])) {
				t.Errorf("Reschedule = %v, want the default row %v", sc.Reschedule, tc.want[0])
			}
			if err := sc.Validate(); err != nil {
				t.Errorf("Validate: %v", err)
			}
			// The text form reads back to the same policy.
			back, err := scenario.ParsePolicy(sc.Policy.String())
			if err != nil || !back.Equal(sc.Policy) {
				t.Errorf("ParsePolicy(%q) = %v, %v", sc.Policy, back, err)
			}
			if _, err := sc.Policy.Vector(scenario.PolicyInputs{N: 3}); (err != nil) != tc.old {
				t.Errorf("Vector: %v, want an error: %v", err, tc.old)
			}
		})
	}
}

func TestParseTableErrors(t *testing.T) {
	for _, tc := range []struct {
		name, policy, field, phrase string
	}{
		{"gap", `{"table": [{"n": [1, 2], "a": "n"}]}`, "policy.table", "no action for n = 3..3"},
		{"overlap", `{"table": [{"n": [1, 2], "a": "n"}, {"n": [2, 3], "a": 2}]}`, "policy.table[1]", "overlaps entry 0"},
		{"a above n", `{"table": [{"n": [1, 3], "a": "n"}, {"p": 2, "n": [2, 3], "a": 3}]}`, "policy.table[1]", "a = 3 outside [0, 2]"},
		{"p zero", `{"table": [{"n": [1, 3], "a": "n"}, {"p": 0, "n": 3, "a": 3}]}`, "policy.table[1].p", "0, want a processor count in [1, 3]"},
		{"p too big", `{"table": [{"n": [1, 3], "a": "n"}, {"p": 4, "n": 3, "a": 3}]}`, "policy.table[1].p", "in [1, 3]"},
		{"n missing", `{"table": [{"a": "n"}]}`, "policy.table[0].n", "missing"},
		{"n three", `{"table": [{"n": [1, 2, 3], "a": "n"}]}`, "policy.table[0].n", "want [lo, hi]"},
		{"n beyond N", `{"table": [{"n": [1, 4], "a": "n"}]}`, "policy.table[0]", "1 ≤ lo ≤ hi ≤ 3"},
		{"a word", `{"table": [{"n": [1, 3], "a": "all"}]}`, "policy.table[0].a", "want a processor count or \"n\""},
		{"unknown key", `{"table": [{"n": [1, 3], "a": "n", "q": 1}]}`, "policy.table[0].q", ""},
		{"never runs", `{"table": [{"n": [1, 3], "a": 0}]}`, "policy.table", "never start"},
		{"not a list", `{"table": 3}`, "policy.table", "want a list of entries"},
		{"null", `{"table": null}`, "policy.table", "null"},
		{"table and vector", `{"table": [], "vector": [1, 2, 3]}`, "policy", "not several"},
		{"zero work rate", `{"table": [{"n": 1, "a": 0}, {"n": [2, 3], "a": "n"}, {"p": 3, "n": 3, "a": 1}]}`, "policy.table[2]", "ω(1) is zero"},
		{"zero work rate at n", `{"table": [{"n": [1, 3], "a": "n"}]}`, "policy", "r(1) = 1 but the work rate ω(1) is zero"},
		{"text gap", `"table:1-2: n"`, "policy.table", "no action for n = 3..3"},
		{"text bad", `"table:1-3 n"`, "policy", "want lo-hi: a"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			app := app3
			if strings.HasPrefix(tc.name, "zero work rate") {
				app = `{"work_rate": [0, 1.9, 2.7], "checkpoint_latency": 90, "recovery": 30}`
			}
			_, err := scenario.Parse(strings.NewReader(file(sys3, app, tc.policy)), nil)
			var se *scenario.Error
			if !errors.As(err, &se) || se.Field != tc.field || !strings.Contains(se.Problem, tc.phrase) {
				t.Errorf("error %v, want field %q with %q", err, tc.field, tc.phrase)
			}
		})
	}
}
