package cli_test

import (
	"strings"
	"testing"
)

// simulateOut holds the documented fields of markov simulate --json.
type simulateOut struct {
	Interval          float64 `json:"interval"`
	UWT               float64 `json:"uwt"`
	UWTHalfWidth      float64 `json:"uwt_half_width"`
	UWTLow            float64 `json:"uwt_low"`
	UWTHigh           float64 `json:"uwt_high"`
	Availability      float64 `json:"availability"`
	Confidence        float64 `json:"confidence"`
	ModelUWT          float64 `json:"model_uwt"`
	ModelAvailability float64 `json:"model_availability"`
	ModelInCI         bool    `json:"model_in_ci"`
	Replications      int     `json:"replications"`
	Horizon           float64 `json:"horizon"`
	Seed              uint64  `json:"seed"`
	Status            string  `json:"status"`
}

// TestSimulateClosedForm simulates the one-processor scenario and checks
// the model column against the closed form (docs/model.md, section 7) and the
// closed form against the simulation's 99 % confidence interval: the
// simulator is an independent, event-by-event implementation of the same
// process.
func TestSimulateClosedForm(t *testing.T) {
	path := writeFile(t, "one.json", oneScenario)
	var got simulateOut
	out := runJSON(t, &got, "simulate", "--scenario", path, "--interval", "10m", "--seed", "11", "--replications", "16")
	requireKeys(t, out, "scenario", "interval", "uwt", "uwt_half_width", "uwt_low", "uwt_high",
		"model_uwt", "model_in_ci", "replications", "horizon", "seed", "status")
	want := oneRate * oneAvailability(oneMTTF, 600)
	if relErr(got.ModelUWT, want) > 1e-9 {
		t.Errorf("model UWT %v, closed form %v", got.ModelUWT, want)
	}
	if !(got.UWTLow <= want && want <= got.UWTHigh) || !got.ModelInCI {
		t.Errorf("closed form %v outside the simulated CI [%v, %v] (mean %v)", want, got.UWTLow, got.UWTHigh, got.UWT)
	}
	if got.Status != "Converged" || got.UWTHalfWidth > 0.01*got.UWT {
		t.Errorf("status %q, half-width %v of %v (default --rel-tol 0.01)", got.Status, got.UWTHalfWidth, got.UWT)
	}
	if got.Interval != 600 || got.Replications != 16 || got.Seed != 11 || got.Confidence != 0.99 {
		t.Errorf("settings not echoed: %+v", got)
	}
}

// TestSimulateSeed checks that a fixed seed gives the same output twice and
// another seed a different one, that the interval defaults to the model's
// I*, and that the table shows the model beside the simulation.
func TestSimulateSeed(t *testing.T) {
	path := writeFile(t, "four.json", fourScenario)
	args := []string{"simulate", "--scenario", path, "--interval", "20m", "--horizon", "20d", "--rel-tol", "-1", "--replications", "4"}
	a := mustRun(t, append(args, "--seed", "5", "--json")...)
	b := mustRun(t, append(args, "--seed", "5", "--json")...)
	c := mustRun(t, append(args, "--seed", "6", "--json")...)
	if a != b {
		t.Errorf("same seed, different output:\n%s\n%s", a, b)
	}
	if a == c {
		t.Errorf("seeds 5 and 6 gave the same output")
	}
	var got simulateOut
	runJSON(t, &got, append(args, "--seed", "5")...)
	if got.Status != "Fixed" || got.Horizon != 20*86400 {
		t.Errorf("status %q horizon %v, want one stage of 20 d", got.Status, got.Horizon)
	}
	if got.UWTLow > got.UWT || got.UWT > got.UWTHigh || got.ModelInCI != (got.UWTLow <= got.ModelUWT && got.ModelUWT <= got.UWTHigh) {
		t.Errorf("inconsistent CI: %+v", got)
	}

	var opt optimizeOut
	runJSON(t, &opt, "optimize", "--scenario", path)
	var def simulateOut
	runJSON(t, &def, "simulate", "--scenario", path, "--horizon", "10d", "--rel-tol", "-1", "--replications", "2")
	if def.Interval != opt.Interval || def.ModelUWT != opt.UWT {
		t.Errorf("default interval %v (model UWT %v), want I* = %v (UWT %v)", def.Interval, def.ModelUWT, opt.Interval, opt.UWT)
	}

	table := mustRun(t, append(args, "--seed", "5")...)
	for _, want := range []string{"Simulated UWT", "Model UWT", "99% CI", "4 × 20d simulated (seed 5)"} {
		if !strings.Contains(table, want) {
			t.Errorf("table lacks %q:\n%s", want, table)
		}
	}
}
