package cli_test

import (
	"strings"
	"testing"
)

// TestReconfigureFlag checks --reconfigure at-checkpoint and the scenario
// file's "reconfigure": "at-checkpoint": both give the same UWT, which
// differs from the paper's model (greedy grows at checkpoints after
// repairs); the JSON scenario names the option; markov uwt --policy
// optimal with the option gives g*(I) equal to uwt's UWT of its vector
// with the option (1e-12, the enumeration oracle's consistency); a bad
// value is a command-line error (status 2).
func TestReconfigureFlag(t *testing.T) {
	four := writeFile(t, "four.json", fourScenario)
	file := writeFile(t, "four-reconf.json", strings.Replace(fourScenario, `"policy": "greedy"`, `"policy": "greedy", "reconfigure": "at-checkpoint"`, 1))
	type out struct {
		UWT      float64 `json:"uwt"`
		Scenario struct {
			Reconfigure string `json:"reconfigure"`
		} `json:"scenario"`
	}
	var paper, flag, inFile out
	runJSON(t, &paper, "uwt", "--scenario", four, "--interval", "2h", "--exact")
	runJSON(t, &flag, "uwt", "--scenario", four, "--interval", "2h", "--exact", "--reconfigure", "at-checkpoint")
	runJSON(t, &inFile, "uwt", "--scenario", file, "--interval", "2h", "--exact")
	if flag.UWT != inFile.UWT || flag.Scenario.Reconfigure != "at-checkpoint" || inFile.Scenario.Reconfigure != "at-checkpoint" {
		t.Errorf("flag %+v, file %+v", flag, inFile)
	}
	if paper.Scenario.Reconfigure != "" || relErr(paper.UWT, flag.UWT) < 1e-6 {
		t.Errorf("without the option %+v, with it %+v", paper, flag)
	}
	var back out
	runJSON(t, &back, "uwt", "--scenario", file, "--interval", "2h", "--exact", "--reconfigure", "never")
	if back.UWT != paper.UWT {
		t.Errorf("--reconfigure never over the file's option: %v, paper's model %v", back.UWT, paper.UWT)
	}
	var o struct {
		UWT    float64 `json:"uwt"`
		Vector []int   `json:"vector"`
	}
	runJSON(t, &o, "uwt", "--scenario", four, "--policy", "optimal", "--interval", "2h", "--exact", "--reconfigure", "at-checkpoint")
	if o.Vector == nil {
		t.Fatalf("no vector: %+v", o)
	}
	var ref out
	runJSON(t, &ref, "uwt", "--scenario", four, "--policy", vectorFlag(o.Vector), "--interval", "2h", "--exact", "--reconfigure", "at-checkpoint")
	if relErr(o.UWT, ref.UWT) > 1e-12 || o.UWT < flag.UWT*(1-1e-12) {
		t.Errorf("g*(2h) = %.15g (r = %v), uwt of r: %.15g, greedy: %.15g", o.UWT, o.Vector, ref.UWT, flag.UWT)
	}
	if _, errOut, code := run(t, "uwt", "--interval", "1h", "--reconfigure", "sometimes"); code != 2 || !strings.Contains(errOut, "--reconfigure") {
		t.Errorf("bad --reconfigure: exit %d, stderr %q", code, errOut)
	}
	if _, errOut, code := run(t, "evaluate", "--trace", four, "--reconfigure", "always"); code != 2 || !strings.Contains(errOut, "--reconfigure") {
		t.Errorf("evaluate, bad --reconfigure: exit %d, stderr %q", code, errOut)
	}
}
