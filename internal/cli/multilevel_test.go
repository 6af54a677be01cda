package cli_test

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ckpt-markov/markov/multilevel"
	"github.com/ckpt-markov/markov/scenario"
)

// atlasFile writes the two-level Atlas scenario of issue 22 (LLNL's SCR
// model, Moody et al. SC'10: λ₁ = 7.78e-6/s, λ₂ = 5.19e-7/s, costs 9 s
// and 438 s) and returns its path.
func atlasFile(t *testing.T, policy string, processors int) string {
	t.Helper()
	work := strings.TrimSuffix(strings.Repeat("1, ", processors), ", ")
	s := `{"system": {"processors": ` + itoa(processors) + `, "mttf": 120496.44535486204, "mttr": 1e-6,
	  "failure_severity": [0.9374623448608267, 0.0625376551391734]},
	 "application": {"work_rate": [` + work + `],
	  "checkpoint_levels": [{"latency": 9, "recovery": 9}, {"latency": 438, "recovery": 438}],
	  "checkpoint_after_recovery": false},
	 "policy": ` + policy + `}`
	path := filepath.Join(t.TempDir(), "atlas.json")
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

// TestOptimizeLevels: markov optimize on a multi-level scenario prints
// the joint optimum with issue 22's JSON fields (pattern, level_intervals,
// uwt, interval) and the best single-level schedule beside it.
func TestOptimizeLevels(t *testing.T) {
	path := atlasFile(t, `"greedy"`, 1)
	var got struct {
		UWT            float64   `json:"uwt"`
		Interval       float64   `json:"interval"`
		Pattern        []int     `json:"pattern"`
		LevelIntervals []float64 `json:"level_intervals"`
		SingleLevel    struct {
			UWT float64 `json:"uwt"`
		} `json:"single_level"`
	}
	out := runJSON(t, &got, "optimize", "--scenario", path)
	requireKeys(t, out, "scenario", "exact", "interval", "uwt", "availability", "band_low", "band_high", "evaluations", "status", "states", "pattern", "level_intervals", "single_level", "first_order", "di_two_level")
	if len(got.Pattern) != 1 || got.Pattern[0] != 26 || len(got.LevelIntervals) != 2 || got.LevelIntervals[0] != got.Interval ||
		got.UWT < 0.9665 || got.UWT > 0.9675 || got.SingleLevel.UWT < 0.9135 || got.SingleLevel.UWT > 0.9145 {
		t.Errorf("optimize: %+v; issue 22: [26], 1490 s, 0.967, single level 0.914", got)
	}
	var fixed struct {
		Pattern []int `json:"pattern"`
	}
	runJSON(t, &fixed, "optimize", "--scenario", path, "--pattern", "7")
	if len(fixed.Pattern) != 1 || fixed.Pattern[0] != 7 {
		t.Errorf("--pattern 7: pattern %v", fixed.Pattern)
	}
	var u struct {
		UWT            float64   `json:"uwt"`
		LevelIntervals []float64 `json:"level_intervals"`
	}
	out = runJSON(t, &u, "uwt", "--scenario", path, "--interval", "1500s", "--pattern", "26")
	requireKeys(t, out, "uwt", "interval", "pattern", "level_intervals", "availability", "states", "solver")
	if len(u.LevelIntervals) != 2 || u.LevelIntervals[1] != 27*1500 || u.UWT < 0.9665 {
		t.Errorf("uwt --pattern 26: %+v", u)
	}
	if text := mustRun(t, "optimize", "--scenario", path); !strings.Contains(text, "[26]") || !strings.Contains(text, "Single level") {
		t.Errorf("text output:\n%s", text)
	}
}

// TestOptimizeFormats: --format prints the schedule in each library's
// configuration names (docs/model.md section 12).
func TestOptimizeFormats(t *testing.T) {
	path := atlasFile(t, `"greedy"`, 1)
	for format, want := range map[string][]string{
		"scr":   {"SCR_CHECKPOINT_SECONDS=149", "SCR_COPY_TYPE=FILE", "CKPT=0 INTERVAL=1", "SCR_FLUSH=27"},
		"fti":   {"[basic]", "ckpt_l1 = 25", "ckpt_l2 = 0", "ckpt_l3 = 0", "ckpt_l4 = 675"},
		"veloc": {"ec_interval = -1", "persistent_interval = 402", "scratch = ", "persistent = "},
	} {
		out := mustRun(t, "optimize", "--scenario", path, "--format", format)
		for _, w := range want {
			if !strings.Contains(out, w) {
				t.Errorf("--format %s: no %q in\n%s", format, w, out)
			}
		}
	}
}

// TestLevelsErrors: bad multi-level flags exit 2 naming the flag; a
// multi-level scenario without the checkpoint after recovery whose
// policy changes the processor count exits 1 naming
// checkpoint_after_recovery and the policy.
func TestLevelsErrors(t *testing.T) {
	path := atlasFile(t, `"greedy"`, 1)
	for _, args := range [][]string{
		{"uwt", "--scenario", path, "--interval", "1h", "--pattern", "1,2"},
		{"uwt", "--scenario", path, "--interval", "1h", "--pattern", "-1"},
		{"uwt", "--scenario", path, "--interval", "1h", "--pattern", "x"},
		{"optimize", "--scenario", path, "--pattern", "1,2,3,4,5,6,7,8"},
		{"optimize", "--scenario", path, "--format", "xml"},
	} {
		_, errOut, code := run(t, args...)
		flag := args[len(args)-2]
		if code != 2 || !strings.Contains(errOut, flag) {
			t.Errorf("markov %s: exit %d, %q; want 2 naming %s", strings.Join(args, " "), code, errOut, flag)
		}
	}
	greedy := atlasFile(t, `"greedy"`, 4)
	for _, cmd := range [][]string{{"optimize"}, {"uwt", "--interval", "1h"}, {"simulate"}} {
		_, errOut, code := run(t, append(cmd, "--scenario", greedy)...)
		if code != 1 || !strings.Contains(errOut, "checkpoint_after_recovery") {
			t.Errorf("markov %s on greedy multi-level: exit %d, %q", cmd[0], code, errOut)
		}
		if cmd[0] != "simulate" && !strings.Contains(errOut, "greedy") {
			t.Errorf("markov %s: %q does not name the policy", cmd[0], errOut)
		}
	}
	var ok struct {
		UWT float64 `json:"uwt"`
	}
	runJSON(t, &ok, "optimize", "--scenario", greedy, "--policy", "moldable:3")
	if !(ok.UWT > 0.9 && ok.UWT < 1) { // ω = 1 on every count
		t.Errorf("moldable:3 on 4: UWT %v", ok.UWT)
	}
}

// TestREADMELevels: the README's multi-level examples are the commands'
// output.
func TestREADMELevels(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	for _, args := range [][]string{
		{"optimize", "--scenario", "docs/examples/atlas-two-level.json"},
		{"optimize", "--scenario", "docs/examples/atlas-two-level.json", "--format", "scr"},
	} {
		prompt := "$ markov " + strings.Join(args, " ") + "\n"
		i := strings.Index(readme, prompt)
		if i < 0 {
			t.Fatalf("README lacks %q", prompt)
		}
		block := readme[i+len(prompt):]
		block = block[:strings.Index(block, "```")]
		args[2] = "../../" + args[2]
		if got := mustRun(t, args...); got != block {
			t.Errorf("markov %s:\n%s\nREADME:\n%s", strings.Join(args, " "), got, block)
		}
	}
}

// TestSimulateLevels: markov simulate on a multi-level moldable
// scenario compares the simulation (package sim with levels) with the
// exact multi-level model.
func TestSimulateLevels(t *testing.T) {
	path := writeFile(t, "ml6.json", `{"system": {"processors": 6, "mttf": 20000, "mttr": 3000, "failure_severity": [0.6, 0.3, 0.1]},
	 "application": {"work_rate": [1, 2, 3, 4, 5, 6],
	   "checkpoint_levels": [{"latency": 5, "overhead": 3, "recovery": 5}, {"latency": 40, "overhead": 30, "recovery": 60}, {"latency": 200, "overhead": 150, "recovery": 300}]},
	 "policy": {"moldable": 4}, "checkpoint_pattern": [3, 2]}`)
	var got struct {
		ModelUWT  float64 `json:"model_uwt"`
		ModelInCI bool    `json:"model_in_ci"`
		UWT       float64 `json:"uwt"`
	}
	runJSON(t, &got, "simulate", "--scenario", path, "--interval", "300s", "--rel-tol", "0.01")
	if !got.ModelInCI || got.ModelUWT < 3.2 || got.ModelUWT > 3.35 {
		t.Errorf("simulate with levels: %+v", got)
	}
}

// TestLevelsMalleable: a two-level scenario under a policy that changes
// the processor count (greedy on 8, the checkpoint after recovery) takes
// the malleable multi-level model in uwt, optimize and simulate; the
// simulation's interval holds the model's UWT.
func TestLevelsMalleable(t *testing.T) {
	path := writeFile(t, "ml8.json", `{"system": {"processors": 8, "mttf": 20000, "mttr": 3000, "failure_severity": [0.7, 0.3]},
	 "application": {"work_rate": [1, 2, 3, 4, 5, 6, 7, 8],
	   "checkpoint_levels": [{"latency": 5, "overhead": 3, "recovery": 5}, {"latency": 200, "overhead": 150, "recovery": 300}]},
	 "policy": "greedy"}`)
	var u struct {
		UWT       float64 `json:"uwt"`
		Malleable bool    `json:"malleable"`
		Pattern   []int   `json:"pattern"`
	}
	// The chain's flags are used, and checked.
	if _, errOut, code := run(t, "uwt", "--scenario", path, "--interval", "300s", "--max-memory", "1e-9"); code != 1 || !strings.Contains(errOut, "--max-memory") {
		t.Errorf("uwt --max-memory 1e-9 on greedy with two levels: exit %d, %q", code, errOut)
	}
	if _, errOut, code := run(t, "optimize", "--scenario", path, "--workers", "-1"); code != 2 || !strings.Contains(errOut, "--workers") {
		t.Errorf("optimize --workers -1 on greedy with two levels: exit %d, %q", code, errOut)
	}
	runJSON(t, &u, "uwt", "--scenario", path, "--interval", "300s", "--pattern", "3")
	if !u.Malleable || !(u.UWT > 0 && u.UWT < 8) || len(u.Pattern) != 1 || u.Pattern[0] != 3 {
		t.Errorf("uwt on greedy with two levels: %+v", u)
	}
	var o struct {
		UWT         float64 `json:"uwt"`
		SingleLevel struct {
			UWT float64 `json:"uwt"`
		} `json:"single_level"`
	}
	runJSON(t, &o, "optimize", "--scenario", path)
	if !(o.UWT >= u.UWT && o.UWT > o.SingleLevel.UWT) {
		t.Errorf("optimize on greedy with two levels: %+v (uwt at [3], 300 s: %v)", o, u.UWT)
	}
	var sim struct {
		ModelUWT  float64 `json:"model_uwt"`
		ModelInCI bool    `json:"model_in_ci"`
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	withPattern := writeFile(t, "ml8p.json", strings.Replace(string(b), `"policy": "greedy"`, `"policy": "greedy", "checkpoint_pattern": [3]`, 1))
	runJSON(t, &sim, "simulate", "--scenario", withPattern, "--interval", "300s", "--rel-tol", "0.01")
	if !sim.ModelInCI || sim.ModelUWT != u.UWT {
		t.Errorf("simulate on greedy with two levels: %+v, uwt %v", sim, u.UWT)
	}
}

// TestCurveIntervalsLevels: markov curve on a multi-level scenario is
// UWT against I for the best pattern (Atlas: [26], its maximum at I*) or
// the given one; markov intervals rates the joint optimum, the best
// single level, the first-order schedules and the single-level closed
// forms of the highest level with the model (none above the optimum);
// a bad --pattern exits 2 naming it.
func TestCurveIntervalsLevels(t *testing.T) {
	path := atlasFile(t, `"greedy"`, 1)
	var c struct {
		Pattern []int `json:"pattern"`
		Optimum struct {
			Interval, UWT float64
		} `json:"optimum"`
		Points []struct {
			Interval, UWT  float64
			LevelIntervals []float64 `json:"level_intervals"`
		} `json:"points"`
	}
	runJSON(t, &c, "curve", "--scenario", path, "--points", "9")
	if len(c.Pattern) != 1 || c.Pattern[0] != 26 || len(c.Points) != 9 {
		t.Fatalf("curve on Atlas: pattern %v, %d points", c.Pattern, len(c.Points))
	}
	for _, p := range c.Points {
		if p.UWT > c.Optimum.UWT || p.LevelIntervals[1] != 27*p.Interval {
			t.Errorf("curve point %+v above the optimum %+v or level intervals wrong", p, c.Optimum)
		}
	}
	// The band's ends: UWT half the best (the default range).
	if first, last := c.Points[0], c.Points[len(c.Points)-1]; math.Abs(first.UWT/c.Optimum.UWT-0.5) > 1e-3 || math.Abs(last.UWT/c.Optimum.UWT-0.5) > 1e-3 {
		t.Errorf("curve ends at %v and %v of the best, want 0.5", first.UWT/c.Optimum.UWT, last.UWT/c.Optimum.UWT)
	}
	runJSON(t, &c, "curve", "--scenario", path, "--points", "3", "--pattern", "5", "--optimum=false", "--from", "10m", "--to", "1h")
	if len(c.Pattern) != 1 || c.Pattern[0] != 5 || c.Points[0].Interval != 600 {
		t.Errorf("curve --pattern 5: %+v", c)
	}
	if _, errOut, code := run(t, "curve", "--scenario", path, "--pattern", "a"); code != 2 || !strings.Contains(errOut, "pattern") {
		t.Errorf("curve --pattern a: exit %d, %q", code, errOut)
	}
	var iv struct {
		Pattern []int `json:"pattern"`
		Models  []struct {
			Name       string
			Pattern    []int
			Efficiency float64
			Error      string
		} `json:"models"`
	}
	runJSON(t, &iv, "intervals", "--scenario", path)
	names := map[string]bool{}
	for _, m := range iv.Models {
		names[m.Name] = true
		if m.Error == "" && !(m.Efficiency > 0.9 && m.Efficiency <= 1+1e-9) {
			t.Errorf("intervals: %s efficiency %v", m.Name, m.Efficiency)
		}
	}
	for _, want := range []string{"Markov optimum", "Markov single level", "Benoit et al. 2017", "Di et al. 2017", "Young", "Daly higher order"} {
		if !names[want] {
			t.Errorf("intervals on Atlas: no row %q", want)
		}
	}
	if len(iv.Pattern) != 1 || iv.Pattern[0] != 26 || iv.Models[0].Efficiency != 1 {
		t.Errorf("intervals on Atlas: pattern %v, first row %+v", iv.Pattern, iv.Models[0])
	}
}

// TestLevelsMalleableIntermediate: three levels under greedy with
// processor failures of severity 2 (the positional chain, docs/model.md
// section 12, "Processor failures inside the period"): markov uwt and
// optimize answer (they exited 1 naming system.failure_severity before),
// simulate holds the model's UWT in its interval, and four levels with
// severity-2 processor failures still exit 1 naming the field.
func TestLevelsMalleableIntermediate(t *testing.T) {
	const three = `{"system": {"processors": 6, "mttf": 20000, "mttr": 3000, "failure_severity": [0.5, 0.3, 0.2]},
	 "application": {"work_rate": [1, 2, 3, 4, 5, 6],
	   "checkpoint_levels": [{"latency": 5, "overhead": 3, "recovery": 5}, {"latency": 40, "overhead": 30, "recovery": 60},
	     {"latency": 200, "overhead": 150, "recovery": 300}]},
	 "policy": "greedy", "checkpoint_pattern": [3, 2]}`
	path := writeFile(t, "ml3.json", three)
	var u struct {
		UWT       float64 `json:"uwt"`
		Malleable bool    `json:"malleable"`
		Pattern   []int   `json:"pattern"`
	}
	runJSON(t, &u, "uwt", "--scenario", path, "--interval", "300s")
	if !u.Malleable || !(u.UWT > 0 && u.UWT < 6) || len(u.Pattern) != 2 || u.Pattern[0] != 3 || u.Pattern[1] != 2 {
		t.Errorf("uwt on greedy with three levels and f₂ > 0: %+v", u)
	}
	var o struct {
		UWT     float64 `json:"uwt"`
		Pattern []int   `json:"pattern"`
	}
	runJSON(t, &o, "optimize", "--scenario", path, "--pattern", "3,2")
	if !(o.UWT >= u.UWT) {
		t.Errorf("optimize --pattern 3,2: UWT %v below the UWT at 300 s, %v", o.UWT, u.UWT)
	}
	runJSON(t, &o, "optimize", "--scenario", path)
	if !(o.UWT >= u.UWT) || len(o.Pattern) != 2 {
		t.Errorf("optimize: %+v, below the UWT at [3, 2] and 300 s, %v", o, u.UWT)
	}
	var sim struct {
		ModelUWT  float64 `json:"model_uwt"`
		ModelInCI bool    `json:"model_in_ci"`
	}
	runJSON(t, &sim, "simulate", "--scenario", path, "--interval", "300s", "--rel-tol", "0.01")
	if !sim.ModelInCI || sim.ModelUWT != u.UWT {
		t.Errorf("simulate on greedy with three levels and f₂ > 0: %+v, uwt %v", sim, u.UWT)
	}
	four := writeFile(t, "ml4.json", strings.Replace(strings.Replace(strings.Replace(three, `[0.5, 0.3, 0.2]`, `[0.5, 0.2, 0.1, 0.2]`, 1),
		`{"latency": 200,`, `{"latency": 100, "recovery": 100}, {"latency": 200,`, 1), `[3, 2]`, `[1, 1, 1]`, 1))
	if _, errOut, code := run(t, "uwt", "--scenario", four, "--interval", "300s", "--pattern", "1,1,1"); code != 1 || !strings.Contains(errOut, "application.checkpoint_levels") {
		t.Errorf("uwt on greedy with four levels and f₂ > 0: exit %d, %q; want 1 naming application.checkpoint_levels", code, errOut)
	}
}

// TestOptimizeLevelsReconfigure: markov optimize --reconfigure
// at-checkpoint on a two-level greedy scenario reports the joint optimum
// of the model with reconfiguration at top-level checkpoints (package
// multilevel on the loaded scenario with the option: the same UWT at the
// reported pattern and interval, to 1e-12, and no better one at the
// neighbouring intervals), above the optimum without it; markov
// simulate --reconfigure at-checkpoint holds the same model's UWT in its
// interval; three levels with processor failures of severity 2 exit 1
// naming reconfigure.
func TestOptimizeLevelsReconfigure(t *testing.T) {
	path := writeFile(t, "ml8.json", `{"system": {"processors": 8, "mttf": 20000, "mttr": 3000, "failure_severity": [0.7, 0.3]},
	 "application": {"work_rate": [1, 2, 3, 4, 5, 6, 7, 8],
	   "checkpoint_levels": [{"latency": 5, "overhead": 3, "recovery": 5}, {"latency": 200, "overhead": 150, "recovery": 300}]},
	 "policy": "greedy"}`)
	type optimum struct {
		Scenario struct {
			Reconfigure string `json:"reconfigure"`
		} `json:"scenario"`
		UWT       float64 `json:"uwt"`
		Interval  float64 `json:"interval"`
		Pattern   []int   `json:"pattern"`
		Malleable bool    `json:"malleable"`
	}
	var with, without optimum
	runJSON(t, &with, "optimize", "--scenario", path, "--reconfigure", "at-checkpoint")
	runJSON(t, &without, "optimize", "--scenario", path)
	if with.Scenario.Reconfigure != "at-checkpoint" || !with.Malleable || len(with.Pattern) != 1 || !(with.UWT > without.UWT) {
		t.Fatalf("optimize --reconfigure at-checkpoint: %+v; without: %+v", with, without)
	}
	sc, err := scenario.Load(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	sc.Reconfigure = scenario.AtCheckpoint
	m, err := multilevel.New(sc)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []float64{1, 0.9, 1.1} {
		r, err := m.Evaluate(with.Pattern, with.Interval*f)
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case f == 1 && math.Abs(r.UWT-with.UWT) > 1e-12*with.UWT:
			t.Errorf("the model at %v, %g s: %.15g; optimize %.15g", with.Pattern, with.Interval, r.UWT, with.UWT)
		case f != 1 && r.UWT > with.UWT:
			t.Errorf("the model at %v, %g s: %.15g above the optimum %.15g", with.Pattern, with.Interval*f, r.UWT, with.UWT)
		}
	}
	// markov simulate runs levels with reconfiguration and compares with
	// the same model.
	withPattern := writeFile(t, "ml8p.json", strings.Replace(string(mustRead(t, path)), `"policy": "greedy"`, `"policy": "greedy", "checkpoint_pattern": [3]`, 1))
	var sim struct {
		ModelUWT  float64 `json:"model_uwt"`
		ModelInCI bool    `json:"model_in_ci"`
	}
	runJSON(t, &sim, "simulate", "--scenario", withPattern, "--reconfigure", "at-checkpoint", "--interval", "300s", "--rel-tol", "0.01")
	r, err := m.Evaluate([]int{3}, 300)
	if err != nil {
		t.Fatal(err)
	}
	if !sim.ModelInCI || sim.ModelUWT != r.UWT {
		t.Errorf("simulate --reconfigure at-checkpoint: %+v; the model %v", sim, r.UWT)
	}
	three := writeFile(t, "ml3.json", `{"system": {"processors": 6, "mttf": 20000, "mttr": 3000, "failure_severity": [0.6, 0.3, 0.1]},
	 "application": {"work_rate": [1, 2, 3, 4, 5, 6],
	   "checkpoint_levels": [{"latency": 5, "overhead": 3, "recovery": 5}, {"latency": 40, "overhead": 30, "recovery": 60}, {"latency": 200, "overhead": 150, "recovery": 300}]},
	 "policy": "greedy"}`)
	// Three levels with f₂ > 0: modelled (reconfpos.go), the optimum a
	// three-level pattern; a level-2 recovery by old count is refused.
	var with3 optimum
	runJSON(t, &with3, "optimize", "--scenario", three, "--reconfigure", "at-checkpoint")
	if with3.Scenario.Reconfigure != "at-checkpoint" || !with3.Malleable || len(with3.Pattern) != 2 || !(with3.UWT > 0) {
		t.Errorf("optimize --reconfigure at-checkpoint, three levels with f₂ > 0: %+v", with3)
	}
	byOld := writeFile(t, "ml3old.json", strings.Replace(string(mustRead(t, three)), `"recovery": 60`, `"recovery": {"constant": 60, "per_old": 1}`, 1))
	if _, errOut, code := run(t, "optimize", "--scenario", byOld, "--reconfigure", "at-checkpoint"); code != 1 || !strings.Contains(errOut, "reconfigure") || !strings.Contains(errOut, "level 2's recovery") {
		t.Errorf("optimize --reconfigure at-checkpoint, three levels with f₂ > 0, level 2 by old count: exit %d, %q", code, errOut)
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
