package cli_test

import (
	"math"
	"testing"

	"github.com/ckpt-markov/markov/multilevel"
	"github.com/ckpt-markov/markov/scenario"
)

// TestLevelsEvents: markov uwt and markov optimize run on a multi-level
// scenario with failure events (docs/model.md section 12, "Failure
// events"), under greedy and moldable: uwt prints the model's UWT
// (package multilevel on the same file, to 1e-12), optimize's joint
// optimum is at least that of the given schedule and above the best
// single level, and markov simulate finds the model inside its interval.
func TestLevelsEvents(t *testing.T) {
	const body = `{"system": {"processors": 8, "mttf": 20000, "mttr": 3000, "failure_severity": [0.7, 0.3],
	   "failure_events": {"sizes": [0.3, 0.3, 0.4]}},
	 "application": {"work_rate": [1, 2, 3, 4, 5, 6, 7, 8],
	   "checkpoint_levels": [{"latency": 5, "overhead": 3, "recovery": 5}, {"latency": 200, "overhead": 150, "recovery": 300}]},
	 "policy": `
	for _, pol := range []string{`"greedy"`, `"moldable:6"`} {
		path := writeFile(t, "ev8.json", body+pol+`, "checkpoint_pattern": [3]}`)
		sc, err := scenario.Load(path, nil)
		if err != nil {
			t.Fatal(err)
		}
		m, err := multilevel.New(sc)
		if err != nil {
			t.Fatal(err)
		}
		want, err := m.Evaluate(nil, 300)
		if err != nil {
			t.Fatal(err)
		}
		var u struct {
			UWT       float64 `json:"uwt"`
			Malleable bool    `json:"malleable"`
		}
		runJSON(t, &u, "uwt", "--scenario", path, "--interval", "300s", "--pattern", "3", "--json")
		if math.Abs(u.UWT-want.UWT) > 1e-12*want.UWT || u.Malleable != (pol == `"greedy"`) {
			t.Errorf("%s: uwt %+v, model %v", pol, u, want.UWT)
		}
		var o struct {
			UWT         float64 `json:"uwt"`
			SingleLevel struct {
				UWT float64 `json:"uwt"`
			} `json:"single_level"`
		}
		runJSON(t, &o, "optimize", "--scenario", path, "--json")
		if !(o.UWT >= u.UWT && o.UWT > o.SingleLevel.UWT) {
			t.Errorf("%s: optimize %+v (uwt at [3], 300 s: %v)", pol, o, u.UWT)
		}
		var s struct {
			ModelUWT  float64 `json:"model_uwt"`
			ModelInCI bool    `json:"model_in_ci"`
		}
		runJSON(t, &s, "simulate", "--scenario", path, "--interval", "300s", "--rel-tol", "0.01", "--json")
		if !s.ModelInCI || s.ModelUWT != u.UWT {
			t.Errorf("%s: simulate %+v, uwt %v", pol, s, u.UWT)
		}
	}
}
