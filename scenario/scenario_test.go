package scenario_test

import (
	"math"
	"slices"
	"testing"

	"github.com/ckpt-markov/markov/reschedule"
	"github.com/ckpt-markov/markov/scenario"
)

func TestSystem(t *testing.T) {
	s := scenario.System{Processors: 4, MTTF: 8, MTTR: 0.5}
	if s.Lambda() != 0.125 || s.Theta() != 2 {
		t.Errorf("λ, θ = %v, %v, want 1/8, 1/0.5", s.Lambda(), s.Theta())
	}
	if err := s.Validate(); err != nil {
		t.Error(err)
	}
	for _, tc := range []struct {
		sys           scenario.System
		field, phrase string
	}{
		{scenario.System{Processors: 0, MTTF: 1, MTTR: 1}, "system.processors", "positive integer"},
		{scenario.System{Processors: 1, MTTF: math.NaN(), MTTR: 1}, "system.mttf", "positive"},
		{scenario.System{Processors: 1, MTTF: math.Inf(1), MTTR: 1}, "system.mttf", "positive"},
		{scenario.System{Processors: 1, MTTF: 1, MTTR: -1}, "system.mttr", "positive"},
	} {
		wantErr(t, tc.sys.Validate(), tc.field, tc.phrase)
	}
}

func toyApp() scenario.Application {
	return scenario.Application{
		WorkRate: []float64{1, 2, 3},
		Latency:  []float64{10, 10, 10},
		Overhead: []float64{5, 10, 0},
		Recovery: scenario.RecoveryByNew([]float64{1, 2, 3}),
	}
}

func TestApplicationValidate(t *testing.T) {
	if err := toyApp().Validate(3); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name          string
		edit          func(*scenario.Application)
		field, phrase string
	}{
		{"short ω", func(a *scenario.Application) { a.WorkRate = a.WorkRate[:2] }, "application.work_rate", "has 2 entries, want 3"},
		{"NaN ω", func(a *scenario.Application) { a.WorkRate[1] = math.NaN() }, "application.work_rate[1]", "finite number ≥ 0"},
		{"zero ω", func(a *scenario.Application) { a.WorkRate = []float64{0, 0, 0} }, "application.work_rate", "zero on every"},
		{"Inf L", func(a *scenario.Application) { a.Latency[2] = math.Inf(1) }, "application.checkpoint_latency[2]", "finite"},
		{"nil C", func(a *scenario.Application) { a.Overhead = nil }, "application.checkpoint_overhead", "has 0 entries"},
		{"C > L", func(a *scenario.Application) { a.Overhead[2] = 10.5 }, "application.checkpoint_overhead[2]", "C(3) = 10.5 exceeds the checkpoint latency L(3) = 10"},
		{"negative R", func(a *scenario.Application) { a.Recovery = scenario.RecoveryByNew([]float64{1, -2, 3}) }, "application.recovery[1]", "finite number ≥ 0"},
		{"short R", func(a *scenario.Application) { a.Recovery = scenario.RecoveryByNew([]float64{1, 2}) }, "application.recovery", "has 2 entries"},
		{"R rows", func(a *scenario.Application) {
			a.Recovery = scenario.RecoveryMatrix([][]float64{{1, 2, 3}, {1, 2, 4}})
		}, "application.recovery", "2 rows, want 3"},
		{"R row length", func(a *scenario.Application) {
			a.Recovery = scenario.RecoveryMatrix([][]float64{{1, 2, 3}, {1, 2}, {1, 2, 3}})
		}, "application.recovery[1]", "has 2 entries"},
	} {
		app := toyApp()
		tc.edit(&app)
		wantErr(t, app.Validate(3), tc.field, tc.phrase)
	}
}

func TestRecovery(t *testing.T) {
	var zero scenario.Recovery
	if zero.Cost(3, 2) != 0 || zero.DependsOnOld() {
		t.Errorf("zero Recovery: cost %v, DependsOnOld %v, want 0, false", zero.Cost(3, 2), zero.DependsOnOld())
	}
	app := toyApp()
	app.Recovery = zero
	if err := app.Validate(3); err != nil {
		t.Errorf("zero Recovery (zero cost) does not validate: %v", err)
	}
	c := scenario.RecoveryConstant(7, 3)
	v := []float64{1, 2, 3}
	byNew := scenario.RecoveryByNew(v)
	m := [][]float64{{1, 2, 3}, {4, 5, 6}, {7, 8, 9}}
	full := scenario.RecoveryMatrix(m)
	same := scenario.RecoveryMatrix([][]float64{{1, 2, 3}, {1, 2, 3}, {1, 2, 3}})
	// The constructors copy their input.
	v[0], m[0][0] = 100, 100
	for p := 1; p <= 3; p++ {
		for a := 1; a <= 3; a++ {
			if c.Cost(p, a) != 7 {
				t.Errorf("constant: R(%d, %d) = %v, want 7", p, a, c.Cost(p, a))
			}
			if want := float64(a); byNew.Cost(p, a) != want || same.Cost(p, a) != want {
				t.Errorf("by new: R(%d, %d) = %v, %v, want %v", p, a, byNew.Cost(p, a), same.Cost(p, a), want)
			}
			if want := float64(3*(p-1) + a); full.Cost(p, a) != want {
				t.Errorf("matrix: R(%d, %d) = %v, want %v", p, a, full.Cost(p, a), want)
			}
		}
	}
	if c.DependsOnOld() || byNew.DependsOnOld() || same.DependsOnOld() || !full.DependsOnOld() {
		t.Errorf("DependsOnOld: constant %v, by new %v, equal rows %v, matrix %v; want false, false, false, true",
			c.DependsOnOld(), byNew.DependsOnOld(), same.DependsOnOld(), full.DependsOnOld())
	}
	got := full.Matrix(3)
	if want := [][]float64{{1, 2, 3}, {4, 5, 6}, {7, 8, 9}}; !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("Matrix(3) = %v, want %v", got, want)
	}
	got[1][1] = -1
	if full.Cost(2, 2) != 5 {
		t.Error("Matrix returned storage shared with the Recovery")
	}
	if got := byNew.Matrix(2); !slices.EqualFunc(got, [][]float64{{1, 2}, {1, 2}}, slices.Equal) {
		t.Errorf("by new: Matrix(2) = %v", got)
	}
}

// TestRecoveryMatrixRowCount fails on the current code: RecoveryMatrix
// stores a matrix whose rows are all equal as a vector by new count and
// forgets how many rows it had, so Validate accepts a 1×3 or a 4×3
// "matrix" for 3 processors (a 4×3 matrix with unequal rows is rejected).
func TestRecoveryMatrixRowCount(t *testing.T) {
	for _, m := range [][][]float64{
		{{1, 2, 3}},
		{{1, 2, 3}, {1, 2, 3}, {1, 2, 3}, {1, 2, 3}},
	} {
		app := toyApp()
		app.Recovery = scenario.RecoveryMatrix(m)
		if err := app.Validate(3); err == nil {
			t.Errorf("%d×3 recovery matrix with equal rows accepted for 3 processors", len(m))
		}
	}
}

func TestScenarioValidateAndNew(t *testing.T) {
	sys := scenario.System{Processors: 3, MTTF: 100, MTTR: 10}
	s, err := scenario.New(sys, toyApp(), scenario.Policy{Kind: scenario.Moldable, Processors: 2})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(s.Reschedule, reschedule.Vector{0, 2, 2}) || s.N() != 3 {
		t.Errorf("New: r = %v, N = %d", s.Reschedule, s.N())
	}
	for _, tc := range []struct {
		name          string
		edit          func(*scenario.Scenario)
		field, phrase string
	}{
		{"system", func(s *scenario.Scenario) { s.System.MTTR = 0 }, "system.mttr", "positive"},
		{"application", func(s *scenario.Scenario) { s.Application.Latency = nil }, "application.checkpoint_latency", "has 0 entries"},
		{"vector length", func(s *scenario.Scenario) { s.Reschedule = reschedule.Vector{1, 2} }, "policy", "has 2 entries, want 3"},
		{"vector entry", func(s *scenario.Scenario) { s.Reschedule = reschedule.Vector{1, 3, 3} }, "policy", "r(2) = 3"},
		{"zero rate used", func(s *scenario.Scenario) {
			s.Application.WorkRate = []float64{1, 0, 3}
			s.Reschedule = reschedule.Vector{1, 2, 3}
		}, "policy", "ω(2) is zero"},
	} {
		c := *s
		c.Application = toyApp()
		c.Reschedule = slices.Clone(s.Reschedule)
		tc.edit(&c)
		wantErr(t, c.Validate(), tc.field, tc.phrase)
	}
	_, err = scenario.New(scenario.System{Processors: 3, MTTF: -1, MTTR: 1}, toyApp(), scenario.Policy{})
	wantErr(t, err, "system.mttf", "positive")
	_, err = scenario.New(sys, toyApp(), scenario.Policy{Kind: scenario.Moldable, Processors: 4})
	wantErr(t, err, "policy", "outside [1, 3]")
	app := toyApp()
	app.WorkRate = []float64{0, 2, 3}
	_, err = scenario.New(sys, app, scenario.Policy{Kind: scenario.Greedy})
	wantErr(t, err, "policy", "r(1) = 1 but the work rate ω(1) is zero")
	// The performance-based policy never picks a count with ω = 0.
	if s, err := scenario.New(sys, app, scenario.Policy{Kind: scenario.PerformanceBased}); err != nil || !slices.Equal(s.Reschedule, reschedule.Vector{0, 2, 3}) {
		t.Errorf("PB with ω(1) = 0: %v, %v", s, err)
	}
}

func TestErrorMessage(t *testing.T) {
	e := &scenario.Error{Field: "application.recovery[2]", Problem: "-1, want a finite number ≥ 0"}
	if got, want := e.Error(), "scenario: application.recovery[2]: -1, want a finite number ≥ 0"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
}
