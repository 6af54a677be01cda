package cli_test

import (
	"encoding/csv"
	"strconv"
	"strings"
	"testing"
)

// uwtOut holds the documented fields of markov uwt --json.
type uwtOut struct {
	Scenario     scenarioOut `json:"scenario"`
	Exact        bool        `json:"exact"`
	Interval     float64     `json:"interval"`
	UWT          float64     `json:"uwt"`
	Availability float64     `json:"availability"`
	States       int         `json:"states"`
	Recurrent    int         `json:"recurrent"`
	Transitions  int         `json:"transitions"`
	Dropped      float64     `json:"dropped"`
	Residual     float64     `json:"residual"`
	Solver       string      `json:"solver"`
}

// TestUWTClosedForm checks markov uwt on the one-processor scenario against
// the closed form of docs/model.md, section 7, on both model paths, with the
// intervals typed in several units.
func TestUWTClosedForm(t *testing.T) {
	path := writeFile(t, "one.json", oneScenario)

	// The specification's worked example: I = 600 s gives A = 0.69164
	// (docs/model.md, section 7), to the five digits it prints.
	var ex uwtOut
	runJSON(t, &ex, "uwt", "--scenario", path, "--interval", "10m")
	if d := ex.Availability - 0.69164; d > 5e-6 || d < -5e-6 {
		t.Errorf("A(600 s) = %.6f, want 0.69164 (docs/model.md §7)", ex.Availability)
	}

	for _, tc := range []struct {
		interval string
		seconds  float64
		exact    bool
	}{
		{"600", 600, false},
		{"10m", 600, true},
		{"1.5h", 5400, false},
		{"1.5h", 5400, true},
		{"45s", 45, false},
	} {
		args := []string{"uwt", "--scenario", path, "--interval", tc.interval}
		if tc.exact {
			args = append(args, "--exact")
		}
		var got uwtOut
		out := runJSON(t, &got, args...)
		requireKeys(t, out, "scenario", "interval", "uwt", "availability", "states", "recurrent", "dropped", "residual", "solver")
		want := oneAvailability(oneMTTF, tc.seconds)
		// The chain has three states; its stationary solve is exact to
		// rounding, so 1e-9 leaves a wide margin.
		if e := relErr(got.Availability, want); e > 1e-9 {
			t.Errorf("%v: A = %.12g, closed form %.12g (rel. error %.1e)", args, got.Availability, want, e)
		}
		if e := relErr(got.UWT, oneRate*want); e > 1e-9 {
			t.Errorf("%v: UWT = %.12g, want ω(1)·A = %.12g", args, got.UWT, oneRate*want)
		}
		if got.Interval != tc.seconds || got.Exact != tc.exact {
			t.Errorf("%v: interval %v exact %v, want %v %v", args, got.Interval, got.Exact, tc.seconds, tc.exact)
		}
		// The exact path's chain has U, R and D; the fast path's has R
		// (the recovery and the up phase after it) and D (package uwt,
		// doc.go "Up phases").
		if want := map[bool]int{true: 3, false: 2}[tc.exact]; got.States != want || got.Recurrent != want {
			t.Errorf("%v: %d states, %d recurrent; want %d", args, got.States, got.Recurrent, want)
		}
		if got.Scenario.Processors != 1 || got.Scenario.MTTF != oneMTTF || got.Scenario.MTTR != oneMTTR || got.Scenario.Policy != "greedy" {
			t.Errorf("%v: scenario %+v", args, got.Scenario)
		}
	}
}

// TestUWTOverrides checks that --mttf and --mttr replace the file's values:
// the closed form with the new MTTF must come out.
func TestUWTOverrides(t *testing.T) {
	path := writeFile(t, "one.json", oneScenario)
	var got uwtOut
	runJSON(t, &got, "uwt", "--scenario", path, "--interval", "20m", "--mttf", "2h", "--mttr", "600s")
	if want := oneAvailability(7200, 1200); relErr(got.Availability, want) > 1e-9 {
		t.Errorf("A with MTTF 2h = %.12g, closed form %.12g", got.Availability, want)
	}
	if got.Scenario.MTTF != 7200 {
		t.Errorf("scenario.mttf = %v, want 7200", got.Scenario.MTTF)
	}
}

// TestUWTTableAndCSV checks the human table and the CSV form carry the same
// UWT as the JSON form.
func TestUWTTableAndCSV(t *testing.T) {
	path := writeFile(t, "four.json", fourScenario)
	args := []string{"uwt", "--scenario", path, "--interval", "30m"}
	var j uwtOut
	runJSON(t, &j, args...)

	table := mustRun(t, args...)
	for _, want := range []string{"Interval I", "30m (1800 s)", "UWT", "work/s", "Availability", "States", "Dropped mass"} {
		if !strings.Contains(table, want) {
			t.Errorf("table lacks %q:\n%s", want, table)
		}
	}
	if want := strconv.FormatFloat(j.UWT, 'g', 5, 64); !strings.Contains(table, want+" work/s") {
		t.Errorf("table does not show UWT %s:\n%s", want, table)
	}

	records, err := csv.NewReader(strings.NewReader(mustRun(t, append(args, "--csv")...))).ReadAll()
	if err != nil || len(records) != 2 {
		t.Fatalf("CSV: %v, %d records", err, len(records))
	}
	if records[0][1] != "uwt" {
		t.Fatalf("CSV header %v", records[0])
	}
	if v, err := strconv.ParseFloat(records[1][1], 64); err != nil || v != j.UWT {
		t.Errorf("CSV uwt %q, JSON %v", records[1][1], j.UWT)
	}
}

// An exact model too large for the machine is refused before it is
// built, with the estimate and advice in the command's terms (issue
// "Scale II": exact QR at N = 512 needs ≈ 2.2e8 transitions).
func TestUWTExactTooLarge(t *testing.T) {
	_, stderr, code := run(t, "uwt", "--app", "qr", "-n", "512", "--exact", "--interval", "1h")
	if code != 1 || !strings.Contains(stderr, "drop --exact") || !strings.Contains(stderr, "GB") {
		t.Errorf("exit %d, stderr %q: want 1 and a message with the memory estimate and \"drop --exact\"", code, stderr)
	}
}

// TestOneClassRows checks that a model solved in closed form (a moldable
// policy on a large pool: one recovery class) does not print a chain's
// "Transitions 0" and residual as if a chain had been solved.
func TestOneClassRows(t *testing.T) {
	path := writeFile(t, "big.json", `{"system": {"processors": 100000, "mttf": "25y", "mttr": "1h"},
  "application": {"work_rate": {"amdahl": {"rate": 1, "serial": 0.0005}}, "checkpoint_latency": 60, "recovery": 17},
  "policy": {"moldable": 50000}}`)
	out := mustRun(t, "uwt", "--scenario", path, "--interval", "10m")
	if !strings.Contains(out, "ClosedForm") {
		t.Fatalf("a moldable policy on a large pool is not solved in closed form:\n%s", out)
	}
	for _, bad := range []string{"Transitions   0\n", "(stationary, 1-norm)"} {
		if strings.Contains(out, bad) {
			t.Errorf("closed-form output contains %q:\n%s", bad, out)
		}
	}
	if !strings.Contains(out, "solved in closed form") {
		t.Errorf("closed-form output does not say so:\n%s", out)
	}
}
