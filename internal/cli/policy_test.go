package cli_test

import (
	"encoding/csv"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// policyOut holds the documented fields of markov policy --json.
type policyOut struct {
	Processors int    `json:"processors"`
	Policy     string `json:"policy"`
	Vector     []int  `json:"vector"`
	Runs       string `json:"runs"`
}

// TestPolicy checks the printed rescheduling vectors against their
// definitions (docs/model.md, sections 2 and 9).
func TestPolicy(t *testing.T) {
	four := writeFile(t, "four.json", fourScenario)
	identity := func(n int) []int {
		r := make([]int, n)
		for i := range r {
			r[i] = i + 1
		}
		return r
	}
	tests := []struct {
		name string
		args []string
		want []int
		runs string
	}{
		{
			name: "greedy r(n) = n",
			args: []string{"--app", "qr", "--processors", "16"},
			want: identity(16),
			runs: "1-16: n",
		},
		{
			name: "moldable:4 is 0 below 4, then 4",
			args: []string{"--app", "qr", "--processors", "16", "--policy", "moldable:4"},
			want: []int{0, 0, 0, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4},
			runs: "1-3: 0, 4-16: 4",
		},
		{
			// The bench package documents that CG's work rate peaks at
			// a* = 48 processors, so argmax_{a ≤ n} ω(a) is n up to 48.
			name: "pb follows the work-rate peak",
			args: []string{"--app", "cg", "--processors", "64", "--policy", "pb"},
			want: append(identity(48), slices.Repeat([]int{48}, 16)...),
			runs: "1-48: n, 49-64: 48",
		},
		{
			// fourScenario's work rate rises, so PB is greedy there.
			name: "pb on a rising work rate",
			args: []string{"--scenario", four, "--policy", "pb"},
			want: identity(4),
			runs: "1-4: n",
		},
		{
			name: "explicit vector with a singleton",
			args: []string{"--scenario", four, "--processors", "4", "--policy", "vector:0,2,2,4"},
			want: []int{0, 2, 2, 4},
			runs: "1: 0, 2-3: 2, 4: 4",
		},
		{
			name: "identity run then constant",
			args: []string{"--app", "md", "--processors", "5", "--policy", "vector:1,2,3,3,3"},
			want: []int{1, 2, 3, 3, 3},
			runs: "1-3: n, 4-5: 3",
		},
		{
			name: "scenario truncated by --processors",
			args: []string{"--scenario", four, "--processors", "2"},
			want: identity(2),
			runs: "1-2: n",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"policy"}, tc.args...)
			var got policyOut
			out := runJSON(t, &got, args...)
			requireKeys(t, out, "scenario", "processors", "policy", "vector", "runs")
			if !slices.Equal(got.Vector, tc.want) || got.Processors != len(tc.want) {
				t.Errorf("vector %v on %d, want %v", got.Vector, got.Processors, tc.want)
			}
			if got.Runs != tc.runs {
				t.Errorf("runs %q, want %q", got.Runs, tc.runs)
			}
			if table := mustRun(t, args...); !strings.Contains(table, "r(n)      "+tc.runs+"\n") {
				t.Errorf("table:\n%s\nwant the line r(n) %s", table, tc.runs)
			}
			records, err := csv.NewReader(strings.NewReader(mustRun(t, append(args, "--csv")...))).ReadAll()
			if err != nil || len(records) != len(tc.want)+1 {
				t.Fatalf("CSV: %v, %d records", err, len(records))
			}
			for n, r := range tc.want {
				if records[n+1][0] != strconv.Itoa(n+1) || records[n+1][1] != strconv.Itoa(r) {
					t.Errorf("CSV row %v, want %d,%d", records[n+1], n+1, r)
				}
			}
		})
	}
}

// TestScenarioLine checks the one-line description of a scenario file: the
// file names the application (in text and in JSON), and a long vector
// policy is shown as its runs, cut, while JSON keeps it whole.
func TestScenarioLine(t *testing.T) {
	path := writeFile(t, "cluster.json", fourScenario)
	out := mustRun(t, "uwt", "--scenario", path, "--interval", "1h")
	if !strings.Contains(out, "cluster.json on 4 processors") || strings.Contains(out, "application of") {
		t.Errorf("scenario line of a file:\n%s", out)
	}
	var got struct {
		Scenario struct {
			Application string `json:"application"`
			Policy      string `json:"policy"`
		} `json:"scenario"`
	}
	runJSON(t, &got, "uwt", "--scenario", path, "--interval", "1h")
	if got.Scenario.Application != "cluster.json" {
		t.Errorf("JSON application %q, want cluster.json", got.Scenario.Application)
	}

	const n = 256
	v := make([]string, n)
	for k := range v {
		v[k] = strconv.Itoa(min(k+1, 200))
	}
	vector := "vector:" + strings.Join(v, ",")
	out = mustRun(t, "uwt", "-n", strconv.Itoa(n), "--app", "qr", "--policy", vector, "--interval", "1h")
	line := strings.SplitN(out, "\n", 2)[0]
	if !strings.Contains(line, "policy vector 1-200: n, 201-256: 200") || len(line) > 160 {
		t.Errorf("scenario line with a %d-entry vector: %q", n, line)
	}
	runJSON(t, &got, "uwt", "-n", strconv.Itoa(n), "--app", "qr", "--policy", vector, "--interval", "1h")
	if got.Scenario.Policy != vector {
		t.Errorf("JSON policy is not the whole vector: %.60q…", got.Scenario.Policy)
	}

	// A vector whose runs are long too is cut, with its length.
	for k := range v {
		v[k] = strconv.Itoa(k/2 + 1)
	}
	out = mustRun(t, "uwt", "-n", strconv.Itoa(n), "--app", "qr", "--policy", "vector:"+strings.Join(v, ","), "--interval", "1h")
	line = strings.SplitN(out, "\n", 2)[0]
	if !strings.Contains(line, "… (256 entries)") || len(line) > 160 {
		t.Errorf("scenario line with a vector of many runs: %q", line)
	}
}

// TestPolicyOptimalWorkers: markov policy --policy optimal takes
// --workers, whose count does not change the output (issue 20,
// deliverable 6); the flag is refused when negative and without --policy
// optimal.
func TestPolicyOptimalWorkers(t *testing.T) {
	args := []string{"policy", "--policy", "optimal", "--processors", "256", "--json"}
	one := mustRun(t, append(args, "--workers", "1")...)
	for range 2 {
		if two := mustRun(t, append(args, "--workers", "2")...); two != one {
			t.Fatalf("--workers 1 and 2 differ:\n%s\n%s", one, two)
		}
	}
	for _, bad := range [][]string{
		append(args, "--workers", "-1"),
		{"policy", "--policy", "greedy", "--workers", "2"},
	} {
		if _, errOut, code := run(t, bad...); code != 2 || !strings.Contains(errOut, "--workers") {
			t.Errorf("markov %s: exit %d, %q; want 2 naming --workers", strings.Join(bad, " "), code, errOut)
		}
	}
}
