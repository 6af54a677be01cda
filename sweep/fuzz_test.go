package sweep

import (
	"strings"
	"testing"
)

// FuzzParse feeds arbitrary study files to Parse: it must not panic, and a
// study it accepts expands to count() ≤ MaxTasks tasks with distinct IDs.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		`{"name": "x", "compute": ["optimize"], "scenarios": {"application": "qr", "processors": [4], "mttf": ["10d"], "mttr": ["1h"]}}`,
		`{"name": "x", "compute": ["uwt", "simulate"], "scenarios": {"application": "cg", "processors": [2, 3], "mttf": [100, "1d"], "mttr": ["1h"], "intervals": ["1h"], "policies": ["pb", "moldable:2"]}}`,
		`{"name": "x", "compute": ["evaluate"], "traces": {"generic": ["a.csv", "b.csv"], "policies": ["ab"], "segments": 3}}`,
		`{"name": "x", "compute": ["evaluate"], "traces": {"lanl": "f.csv", "systems": [1, 2]}, "slurm": {"mem": "4G"}}`,
		`{}`, `[]`, `{"name": 1}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		st, err := Parse(strings.NewReader(s), ".")
		if err != nil {
			return
		}
		n := st.count()
		if n > MaxTasks {
			t.Fatalf("accepted a study of %d tasks", n)
		}
		tasks := st.Expand()
		if len(tasks) != n {
			t.Fatalf("count() = %d, Expand gives %d", n, len(tasks))
		}
		ids := map[string]bool{}
		for _, tk := range tasks {
			if ids[tk.ID] {
				t.Fatalf("task ID %q twice", tk.ID)
			}
			ids[tk.ID] = true
		}
	})
}
