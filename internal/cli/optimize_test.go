package cli_test

import (
	"io"
	"math"
	"strings"
	"testing"

	"github.com/ckpt-markov/markov/bench"
	"github.com/ckpt-markov/markov/internal/cli"
)

// scenarioOut holds the documented fields of the "scenario" object that
// every --json output carries.
type scenarioOut struct {
	Application string  `json:"application"`
	Processors  int     `json:"processors"`
	MTTF        float64 `json:"mttf"`
	MTTR        float64 `json:"mttr"`
	Policy      string  `json:"policy"`
}

// optimizeOut holds the documented fields of markov optimize --json.
type optimizeOut struct {
	Scenario      scenarioOut `json:"scenario"`
	Exact         bool        `json:"exact"`
	Interval      float64     `json:"interval"`
	UWT           float64     `json:"uwt"`
	Availability  float64     `json:"availability"`
	BandLow       float64     `json:"band_low"`
	BandHigh      float64     `json:"band_high"`
	ModelInterval float64     `json:"model_interval"`
	Evaluations   int         `json:"evaluations"`
	Status        string      `json:"status"`
	States        int         `json:"states"`
	Scan          []struct {
		Interval float64 `json:"interval"`
		UWT      float64 `json:"uwt"`
	} `json:"scan"`
}

var optimizeKeys = []string{"scenario", "interval", "uwt", "availability", "band_low", "band_high",
	"model_interval", "evaluations", "local_maxima", "status", "states", "scan"}

// TestOptimizeClosedForm checks I* and UWT(I*) of the one-processor
// scenario against a golden-section maximisation of the closed form
// (docs/model.md, section 7) done here, on both model paths.
func TestOptimizeClosedForm(t *testing.T) {
	path := writeFile(t, "one.json", oneScenario)
	wantI, wantA := oneOptimum(oneMTTF)
	for _, exact := range []bool{false, true} {
		args := []string{"optimize", "--scenario", path}
		if exact {
			args = append(args, "--exact")
		}
		var got optimizeOut
		out := runJSON(t, &got, args...)
		requireKeys(t, out, optimizeKeys...)
		// UWT is flat at its maximum, so the argmax is known only to
		// about sqrt(rounding) · I from values; the CLI asks for 1e-4.
		if e := relErr(got.Interval, wantI); e > 1e-3 {
			t.Errorf("exact=%v: I* = %.6g, closed form argmax %.6g", exact, got.Interval, wantI)
		}
		if e := relErr(got.UWT, oneRate*wantA); e > 1e-9 {
			t.Errorf("exact=%v: UWT* = %.12g, closed form %.12g", exact, got.UWT, oneRate*wantA)
		}
		if !(got.BandLow <= got.Interval && got.Interval <= got.BandHigh) {
			t.Errorf("exact=%v: I* %v outside its band [%v, %v]", exact, got.Interval, got.BandLow, got.BandHigh)
		}
		// The band edges are where UWT is 1 % below the best (default
		// --band): check them on the closed form.
		for _, edge := range []float64{got.BandLow, got.BandHigh} {
			if r := oneAvailability(oneMTTF, edge) / wantA; math.Abs(r-0.99) > 1e-4 {
				t.Errorf("exact=%v: UWT at band edge %v is %.6f of the best, want 0.99", exact, edge, r)
			}
		}
		if got.Status != "Converged" || got.Exact != exact || got.Evaluations < len(got.Scan) {
			t.Errorf("exact=%v: status %q exact %v evaluations %d scan %d", exact, got.Status, got.Exact, got.Evaluations, len(got.Scan))
		}
		for _, s := range got.Scan {
			if s.UWT > got.UWT*(1+1e-12) {
				t.Errorf("exact=%v: scanned UWT(%v) = %v above UWT* = %v", exact, s.Interval, s.UWT, got.UWT)
			}
		}
	}
}

// TestOptimizeDefaultRun runs markov optimize with no arguments: the
// built-in scenario, QR on 128 processors of LANL system-1, greedy.
func TestOptimizeDefaultRun(t *testing.T) {
	table := mustRun(t, "optimize")
	for _, want := range []string{"qr on 128 processors", "MTTF 104.6d", "MTTR 56.03m", "policy greedy", "Optimal interval I*", "UWT at I*", "work/s"} {
		if !strings.Contains(table, want) {
			t.Errorf("default run lacks %q:\n%s", want, table)
		}
	}

	var got optimizeOut
	out := runJSON(t, &got, "optimize")
	requireKeys(t, out, optimizeKeys...)
	// The paper's Table II, row "128, system-1": λ = 1/(104.61 days),
	// θ = 1/(56.03 min).
	if got.Scenario.Application != "qr" || got.Scenario.Processors != 128 || got.Scenario.Policy != "greedy" ||
		relErr(got.Scenario.MTTF, 104.61*86400) > 1e-12 || relErr(got.Scenario.MTTR, 56.03*60) > 1e-12 {
		t.Errorf("default scenario %+v", got.Scenario)
	}
	if got.Status != "Converged" {
		t.Errorf("status %q", got.Status)
	}

	app, err := bench.Application("qr", 128)
	if err != nil {
		t.Fatal(err)
	}
	// Young's first-order interval sqrt(2·C·M) (Young 1974), with the job
	// MTBF M = MTTF/128 of the 128 processors in use, is the optimum of
	// the same trade-off when C ≪ M (here C ≈ 117 s, M ≈ 20 h); it must
	// fall inside the 1 % near-optimal band.
	young := math.Sqrt(2 * app.Overhead[127] * got.Scenario.MTTF / 128)
	if !(got.BandLow <= young && young <= got.BandHigh) {
		t.Errorf("Young's interval %.0f s outside the near-optimal band [%.0f, %.0f] around I* = %.0f s",
			young, got.BandLow, got.BandHigh, got.Interval)
	}
	// The paper (section VI-D, Table III) finds UWT on 128 processors of
	// system-1 "within 4–11 %" of the failure-free work rate ω(128).
	if r := got.UWT / app.WorkRate[127]; r < 0.89 || r > 0.96 {
		t.Errorf("UWT* / ω(128) = %.4f, want within 4–11 %% of failure-free (paper, Table III)", r)
	}
}

// BenchmarkDefaultRun measures markov optimize on the built-in scenario
// (QR on 128 processors), parsing and printing included.
func BenchmarkDefaultRun(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if code := cli.Run([]string{"optimize"}, io.Discard, io.Discard); code != 0 {
			b.Fatalf("exit %d", code)
		}
	}
}

// TestOptimizeAtMin checks the boundary case: with free checkpoints (L = C
// = 0) every shorter interval loses less work to a failure at no cost, so
// UWT rises as I falls and the search must end at its lower bound and say
// so.
func TestOptimizeAtMin(t *testing.T) {
	path := writeFile(t, "free.json", `{
  "system": {"processors": 2, "mttf": "2d", "mttr": "1h"},
  "application": {"work_rate": [1, 1.9], "checkpoint_latency": 0, "recovery": 30},
  "policy": "greedy"
}`)
	var got optimizeOut
	runJSON(t, &got, "optimize", "--scenario", path)
	if got.Status != "AtMin" {
		t.Errorf("status %q, want AtMin", got.Status)
	}
	if table := mustRun(t, "optimize", "--scenario", path); !strings.Contains(table, "smallest interval searched") {
		t.Errorf("no warning in the table:\n%s", table)
	}
}
