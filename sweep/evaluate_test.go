package sweep

import (
	"context"
	"encoding/json"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/ckpt-markov/markov/evaluate"
	"github.com/ckpt-markov/markov/internal/shareddata"
	"github.com/ckpt-markov/markov/scenario"
	"github.com/ckpt-markov/markov/trace"
)

// TestEvaluateTasks checks trace tasks against evaluate.Run given all the
// systems, applications and policies at once (what markov evaluate does):
// each task's row must be that table's row, to the bit, because evaluate
// draws the segments of a system from the seed and the trace's content
// alone, and takes N per system.
func TestEvaluateTasks(t *testing.T) {
	path := shareddata.LANL(t)
	// Two applications; one in -short mode (CI's race run), where the
	// test took two minutes of the run's ten.
	apps := []string{"qr", "md"}
	if testing.Short() {
		apps = apps[:1]
	}
	quoted, _ := json.Marshal(apps)
	study := `{"name": "lanl", "seed": 5, "compute": ["evaluate"], "traces": {"lanl": ` + strconv.Quote(path) + `,
		"systems": [18, 19], "applications": ` + string(quoted) + `, "policies": ["greedy", "ab"], "segments": 2}}`
	st := parse(t, study)
	tab := runMerged(t, st)

	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	all, err := trace.ReadLANLSystems(f, nil)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	set := &evaluate.Settings{Applications: apps, Policies: []scenario.Policy{{Kind: scenario.Greedy}, {Kind: scenario.AvailabilityBased}}, Segments: 2, Seed: 5}
	for _, s := range all {
		if s.System == 18 || s.System == 19 {
			set.Systems = append(set.Systems, evaluate.System{Name: strconv.Itoa(s.System), Trace: s.Trace})
		}
	}
	ref, err := evaluate.Run(context.Background(), set)
	if err != nil {
		t.Fatal(err)
	}
	if len(ref.Rows) != len(tab.Records) {
		t.Fatalf("%d records, evaluate has %d rows", len(tab.Records), len(ref.Rows))
	}
	for i, row := range ref.Rows {
		r := tab.Records[i]
		if r.System != row.System || r.Application != row.Application || r.Policy != row.Policy.String() {
			t.Fatalf("record %d is %s/%s/%s, row is %s/%s/%s", i, r.System, r.Application, r.Policy, row.System, row.Application, row.Policy)
		}
		for _, c := range []struct {
			name      string
			got, want float64
		}{
			{"efficiency", *r.Efficiency, row.Efficiency.Mean},
			{"efficiency min", *r.EfficiencyMin, row.Efficiency.Min},
			{"interval", *r.Interval, row.Interval.Mean},
			{"mttf", *r.MTTF, row.MTTF},
			{"best uwt", *r.BestUWT, row.BestUWT.Mean},
			{"replay uwt", *r.ReplayUWT, row.UWT.Mean},
		} {
			if c.got != c.want {
				t.Errorf("%s/%s/%s: %s = %v, evaluate.Run says %v", r.System, r.Application, r.Policy, c.name, c.got, c.want)
			}
		}
	}
}

// TestEvaluateShortTrace checks that a trace too short for the study's
// segments gives a completed task whose status says why, with no numbers:
// a 20-day trace cannot hold 30 days of history and a 7-day segment
// (evaluate's defaults, DefaultMinHistory and DefaultMinDuration).
func TestEvaluateShortTrace(t *testing.T) {
	body := "# nodes=2 start=0 end=1728000\nnode,down_start,down_end\n0,1000,2000\n1,5000,9000\n"
	st, _ := studyIn(t, map[string]string{"short.csv": body},
		`{"name": "s", "compute": ["evaluate"], "traces": {"generic": ["short.csv"], "applications": ["qr"], "segments": 2}}`)
	tab := runMerged(t, st)
	r := tab.Records[0]
	if !strings.HasPrefix(r.Status, "NotEvaluated: ") || r.Efficiency != nil || r.Interval != nil {
		t.Errorf("record of a too short trace: %+v", r)
	}
}
