package cli_test

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

// intervalsOut holds the documented fields of markov intervals --json.
type intervalsOut struct {
	Optimum struct {
		Interval float64 `json:"interval"`
		UWT      float64 `json:"uwt"`
	} `json:"optimum"`
	Params struct {
		Processors int     `json:"processors"`
		MTBF       float64 `json:"mtbf"`
		Checkpoint float64 `json:"checkpoint"`
		Restart    float64 `json:"restart"`
	} `json:"params"`
	Models []struct {
		Name       string   `json:"name"`
		Interval   *float64 `json:"interval"`
		UWT        *float64 `json:"uwt"`
		Efficiency *float64 `json:"efficiency"`
		Error      string   `json:"error"`
	} `json:"models"`
}

// TestIntervalsClosedForm checks the comparison on the one-processor
// scenario: Young's and Daly's intervals against their formulas, the
// Markov model's rating of each against the closed form of docs/model.md
// section 7, and that no interval beats I*.
func TestIntervalsClosedForm(t *testing.T) {
	path := writeFile(t, "one.json", oneScenario)
	var got intervalsOut
	out := runJSON(t, &got, "intervals", "--scenario", path)
	requireKeys(t, out, "scenario", "optimum", "params", "models")
	if got.Params.Processors != 1 || got.Params.MTBF != oneMTTF || got.Params.Checkpoint != oneLatency || got.Params.Restart != oneRecovery {
		t.Errorf("params %+v", got.Params)
	}
	wantI, wantA := oneOptimum(oneMTTF)
	if relErr(got.Optimum.Interval, wantI) > 1e-3 || relErr(got.Optimum.UWT, oneRate*wantA) > 1e-9 {
		t.Errorf("optimum %+v, closed form (%v, %v)", got.Optimum, wantI, oneRate*wantA)
	}

	formulas := map[string]float64{
		"Young":          math.Sqrt(2 * oneLatency * oneMTTF),          // Young 1974
		"Daly low order": math.Sqrt(2*oneLatency*oneMTTF) - oneLatency, // Daly 2006
		"Markov I*":      got.Optimum.Interval,
	}
	seen := make(map[string]bool)
	for _, m := range got.Models {
		seen[m.Name] = true
		if m.Error != "" {
			if m.Interval != nil || m.UWT != nil {
				t.Errorf("%s: error %q with interval %v", m.Name, m.Error, m.Interval)
			}
			continue
		}
		if m.Interval == nil || m.UWT == nil || m.Efficiency == nil {
			t.Errorf("%s: null fields without an error", m.Name)
			continue
		}
		if want, ok := formulas[m.Name]; ok && relErr(*m.Interval, want) > 1e-12 {
			t.Errorf("%s: interval %v, formula %v", m.Name, *m.Interval, want)
		}
		if want := oneRate * oneAvailability(oneMTTF, *m.Interval); relErr(*m.UWT, want) > 1e-9 {
			t.Errorf("%s: UWT(%v) = %v, closed form %v", m.Name, *m.Interval, *m.UWT, want)
		}
		if *m.Efficiency > 1+1e-9 || *m.Efficiency <= 0 || relErr(*m.Efficiency, *m.UWT/got.Optimum.UWT) > 1e-12 {
			t.Errorf("%s: efficiency %v, UWT %v / UWT* %v", m.Name, *m.Efficiency, *m.UWT, got.Optimum.UWT)
		}
	}
	for name := range formulas {
		if !seen[name] {
			t.Errorf("no row %q", name)
		}
	}

	table := mustRun(t, "intervals", "--scenario", path)
	for _, want := range []string{"Model", "Efficiency", "Young", "Markov I*", "100%"} {
		if !strings.Contains(table, want) {
			t.Errorf("table lacks %q:\n%s", want, table)
		}
	}
}

// TestIntervalsNotApplicable checks that a model that does not apply is
// reported in its row, not as a failure: Daly's low order needs C < 2M.
func TestIntervalsNotApplicable(t *testing.T) {
	// C = 3000 s > 2M = 2·1000 s.
	path := writeFile(t, "slow.json", `{
  "system": {"processors": 1, "mttf": 1000, "mttr": 100},
  "application": {"work_rate": [1], "checkpoint_latency": 3000, "recovery": 10},
  "policy": "greedy"
}`)
	out := mustRun(t, "intervals", "--scenario", path, "--json")
	var got intervalsOut
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	for _, m := range got.Models {
		if m.Name == "Daly low order" && m.Error == "" {
			t.Errorf("Daly low order with C ≥ 2M: no error, interval %v", m.Interval)
		}
	}
}
