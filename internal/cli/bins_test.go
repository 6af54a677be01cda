package cli_test

import (
	"math"
	"strings"
	"testing"
)

// binsScenario has a recovery cost that depends on the old count
// (per_old), so that --old-count-bin applies: 64 processors of a desktop
// grid, greedy.
const binsScenario = `{"system": {"processors": 64, "mttf": "8h", "mttr": "4h"},
 "application": {"work_rate": {"amdahl": {"rate": 1, "serial": 0.0005}},
   "checkpoint_latency": {"constant": 60}, "recovery": {"constant": 17, "per_old": 1, "per_new": 0.01}},
 "policy": "greedy"}`

// TestOldCountBinFlag: --old-count-bin reports the bins and the error
// estimate in JSON (old_count_bin, bin_error) and text ("Approximation"),
// its UWT is within the estimate's stated reach of the exact old counts'
// (uwt TestOldCountBinEstimate: at most 1.1 times the estimate, measured;
// 2 allowed), and --exact with it is a usage error.
func TestOldCountBinFlag(t *testing.T) {
	path := writeFile(t, "bins.json", binsScenario)
	type out struct {
		UWT         float64 `json:"uwt"`
		States      int     `json:"states"`
		OldCountBin int     `json:"old_count_bin"`
		BinError    float64 `json:"bin_error"`
	}
	var exact, binned out
	runJSON(t, &exact, "uwt", "--scenario", path, "--interval", "10m", "--json")
	runJSON(t, &binned, "uwt", "--scenario", path, "--interval", "10m", "--old-count-bin", "4", "--json")
	if exact.OldCountBin != 0 || exact.BinError != 0 {
		t.Errorf("without bins: old_count_bin %d, bin_error %g", exact.OldCountBin, exact.BinError)
	}
	if binned.OldCountBin != 4 || !(binned.BinError > 0) || binned.States >= exact.States {
		t.Errorf("bins of 4: old_count_bin %d, bin_error %g, %d states (exact old counts: %d)",
			binned.OldCountBin, binned.BinError, binned.States, exact.States)
	}
	if d := math.Abs(binned.UWT - exact.UWT); d > 2*binned.BinError {
		t.Errorf("bins of 4: UWT %.12g, exact old counts %.12g: |Δ| = %.3g beyond twice the estimate %.3g",
			binned.UWT, exact.UWT, d, binned.BinError)
	}
	if text := mustRun(t, "optimize", "--scenario", path, "--old-count-bin", "4"); !strings.Contains(text, "Approximation") {
		t.Errorf("optimize --old-count-bin 4 printed no Approximation line:\n%s", text)
	}
	if _, stderr, code := run(t, "uwt", "--scenario", path, "--interval", "10m", "--old-count-bin", "4", "--exact"); code != 2 {
		t.Errorf("--exact --old-count-bin: exit %d, want 2 (usage); stderr %s", code, stderr)
	}
}
