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
