package intervals

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/ckpt-markov/markov/scenario"
)

// fixedModel stands in for a model defined outside the package.
type fixedModel struct{ v float64 }

func (f fixedModel) Name() string { return "Markov" }
func (f fixedModel) Interval(p Params) (float64, error) {
	if p.MTBF > 1e6 {
		return math.NaN(), errors.New("too reliable")
	}
	return f.v, nil
}

// TestCompareTable44: Fialho's Table 4.4 scenario (MTTI 24 h, t_c = t_l =
// 5 min, t_d = 0) through Compare, in seconds: Young 120.00 min, Daly low
// order 115.00 min, Fialho 114.89 min (published, see
// TestYoungAndDalyLowOrderPublished); the higher-order Daly value is about
// 117 min. Every built-in choice must equal its direct function.
func TestCompareTable44(t *testing.T) {
	p := Params{MTBF: 86400, Checkpoint: 300, Restart: 300}
	got, err := Compare(p)
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"Young", "Daly low order", "Daly higher order", "Vaidya", "Bouguerra", "Volpex", "Fialho coordinated", "Fialho uncoordinated"}
	if len(got) != len(names) {
		t.Fatalf("%d choices, want %d", len(got), len(names))
	}
	published := map[string]float64{"Young": 120.00, "Daly low order": 115.00, "Fialho coordinated": 114.89, "Daly higher order": 117}
	y, _ := YoungInterval(86400, 300)
	lo, _ := DalyLowOrder(86400, 300)
	hi, _ := DalyHigherOrder(86400, 300)
	va, _ := VaidyaInterval(1.0/86400, 300)
	bo, _ := BouguerraInterval(Exponential{Rate: 1.0 / 86400}, 300, 300)
	vo, _ := Volpex{Processes: 1, Replicas: 1, Rate: 1.0 / 86400, Save: 300}.Interval()
	fc, _ := FialhoCoordinated{MTTI: 86400, Checkpoint: 300, Load: 300}.Interval()
	fu, _ := FialhoUncoordinated{MTTI: 86400, Checkpoint: 300, Load: 300, Phi: 1}.Interval()
	direct := []float64{y, lo, hi, va, bo, vo, fc, fu}
	for i, c := range got {
		if c.Name != names[i] || c.Err != nil || c.Note == "" {
			t.Errorf("choice %d: %+v, want name %q, a note and no error", i, c, names[i])
		}
		if relDiff(c.Interval, direct[i]) > 1e-12 {
			t.Errorf("%s: Compare %v, direct %v", c.Name, c.Interval, direct[i])
		}
		if pub, ok := published[c.Name]; ok {
			tol := publishedTol
			if c.Name == "Daly higher order" {
				tol = 0.5 // quoted to the minute
			}
			if math.Abs(c.Interval/60-pub) > tol {
				t.Errorf("%s: %v min, published %v", c.Name, c.Interval/60, pub)
			}
		}
		m := Models()[i]
		if v, err := m.Interval(p); err != nil || v != c.Interval {
			t.Errorf("%s: Model.Interval %v (%v), Compare %v", c.Name, v, err, c.Interval)
		}
	}
}

// TestCompareMappings checks how Params reach the models: Volpex's node
// rate 1/(n·MTBF) reproduces Rahman et al.'s Table I, Bouguerra rounds to
// whole segments when Work is given, custom models pass through, and a
// model that does not apply reports an error without stopping the others.
func TestCompareMappings(t *testing.T) {
	// Table I, n = 16, λ = 1/28730 s per node, T_s = 1 s: 42 s (r = 1)
	// and 297 s (r = 2).
	for _, tc := range []struct {
		r  int
		tc float64
	}{{1, 42}, {2, 297}} {
		got, err := Compare(Params{MTBF: 28730.0 / 16, Checkpoint: 1, Processes: 16, Replicas: tc.r}, Models()[5])
		if err != nil || math.Round(got[0].Interval) != tc.tc {
			t.Errorf("Volpex n=16 r=%d: %+v (%v), Table I %v", tc.r, got, err, tc.tc)
		}
	}
	p := Params{MTBF: 86400, Checkpoint: 600, Restart: 300, Work: 7 * 86400}
	got, _ := Compare(p, Models()[4], fixedModel{1234})
	s, _ := BouguerraExponential(1.0/86400, 7*86400, 600, 300)
	if got[0].Interval != 7*86400/float64(s.Count) || !strings.Contains(got[0].Note, "k =") {
		t.Errorf("Bouguerra with Work: %+v, want W/k with k = %d", got[0], s.Count)
	}
	if got[1] != (Choice{Name: "Markov", Interval: 1234}) {
		t.Errorf("custom model: %+v", got[1])
	}
	// C ≥ 2M: Daly's low order does not apply, the higher order is M.
	got, err := Compare(Params{MTBF: 100, Checkpoint: 250})
	if err != nil {
		t.Fatal(err)
	}
	if got[1].Err == nil || !math.IsNaN(got[1].Interval) {
		t.Errorf("Daly low order with C ≥ 2M: %+v, want an error", got[1])
	}
	if got[2].Err != nil || got[2].Interval != 100 || !strings.Contains(got[2].Note, "τ = M") {
		t.Errorf("Daly higher order with C ≥ 2M: %+v, want M = 100", got[2])
	}
	got, _ = Compare(Params{MTBF: 1e7, Checkpoint: 1}, fixedModel{1})
	if got[0].Err == nil || !math.IsNaN(got[0].Interval) {
		t.Errorf("custom model error not reported: %+v", got[0])
	}
}

func TestCompareErrors(t *testing.T) {
	for _, tc := range []struct {
		p     Params
		field string
	}{
		{Params{MTBF: 0, Checkpoint: 1}, "MTBF"},
		{Params{MTBF: 100, Checkpoint: math.NaN()}, "Checkpoint"},
		{Params{MTBF: 100, Checkpoint: 1, Restart: -1}, "Restart"},
		{Params{MTBF: 100, Checkpoint: 2, Latency: 1}, "Latency"},
		{Params{MTBF: 100, Checkpoint: 1, Phi: 1.5}, "Phi"},
		{Params{MTBF: 100, Checkpoint: 1, Phi: -0.5}, "Phi"},
		{Params{MTBF: 100, Checkpoint: 1, Processes: -2}, "Processes"},
		{Params{MTBF: 100, Checkpoint: 1, Work: math.Inf(1)}, "Work"},
	} {
		_, err := Compare(tc.p)
		wantErr(t, tc.field, err, tc.field)
		_, err = Models()[0].Interval(tc.p)
		wantErr(t, tc.field+" via Model.Interval", err, tc.field)
	}
}

func TestForScenario(t *testing.T) {
	n := 4
	app := scenario.Application{
		WorkRate: []float64{1, 2, 3, 4},
		Latency:  []float64{10, 20, 30, 40},
		Overhead: []float64{5, 15, 25, 35},
		Recovery: scenario.RecoveryMatrix([][]float64{{1, 2, 3, 4}, {5, 6, 7, 8}, {9, 10, 11, 12}, {13, 14, 15, 16}}),
	}
	sc, err := scenario.New(scenario.System{Processors: n, MTTF: 4000, MTTR: 60}, app, scenario.Policy{Kind: scenario.Moldable, Processors: 3})
	if err != nil {
		t.Fatal(err)
	}
	p, a, err := ForScenario(sc)
	if err != nil {
		t.Fatal(err)
	}
	// a = r(4) = 3: M = 4000/3, C(3) = 25, L(3) = 30, R(3, 3) = 11.
	want := Params{MTBF: 4000.0 / 3, Checkpoint: 25, Latency: 30, Restart: 11, Processes: 3}
	if a != 3 || p != want {
		t.Errorf("ForScenario = %+v, a = %d; want %+v, a = 3", p, a, want)
	}
	sc.Reschedule = []int{1, 2, 3, 0}
	sc.Policy = scenario.Policy{Kind: scenario.Explicit, Explicit: []int{1, 2, 3, 0}}
	if _, _, err := ForScenario(sc); err == nil {
		t.Error("r(N) = 0 accepted")
	}
}
