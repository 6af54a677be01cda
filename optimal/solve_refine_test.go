package optimal

import (
	"context"
	"math"
	"slices"
	"testing"

	"github.com/ckpt-markov/markov/scenario"
)

// TestSolveRefine: Options.Refine is Refine's restriction inside Solve,
// which takes the system and the application and no Scenario: the
// solution equals, bit for bit, Solve on Settings.Candidates from Refine
// (the second path, the one the CLI took before), and differs from the
// unrestricted solve only by a restriction (g* not above it). A step
// out of 1..N, Refine beside Settings.Candidates and Refine with failure
// events are errors.
func TestSolveRefine(t *testing.T) {
	ctx := context.Background()
	sc := largeApp(t, 48, 8*3600, 4*3600)
	const step = 6
	got, err := Solve(ctx, sc.System, sc.Application, &Options{Refine: step})
	if err != nil {
		t.Fatal(err)
	}
	cand, err := Refine(ctx, sc, nil, step)
	if err != nil {
		t.Fatal(err)
	}
	want, err := Solve(ctx, sc.System, sc.Application, &Options{Settings: &Settings{Candidates: cand}})
	if err != nil {
		t.Fatal(err)
	}
	if got.UWT != want.UWT || got.Interval != want.Interval || !slices.Equal(got.Solver.Candidates(), want.Solver.Candidates()) {
		t.Errorf("Options.Refine: g* %v at I %v on %d counts; Refine's candidates: %v at %v on %d counts",
			got.UWT, got.Interval, len(got.Solver.Candidates()), want.UWT, want.Interval, len(want.Solver.Candidates()))
	}
	if len(cand) >= sc.N() {
		t.Errorf("Refine kept %d of %d counts: the test needs a restriction", len(cand), sc.N())
	}
	full, err := Solve(ctx, sc.System, sc.Application, nil)
	if err != nil {
		t.Fatal(err)
	}
	// A restriction cannot beat the full action set (relative tolerance
	// 1e-9: the two searches of I* stop at different points near the
	// maximum, where g* is flat to second order).
	if got.UWT > full.UWT*(1+1e-9) || math.IsNaN(got.UWT) {
		t.Errorf("refined g* %v above the full g* %v", got.UWT, full.UWT)
	}
	events := sc.System
	events.FailureEvents = &scenario.FailureEvents{Sizes: []float64{0.8, 0.2}}
	for _, c := range []struct {
		name string
		sys  scenario.System
		o    Options
	}{
		{"negative step", sc.System, Options{Refine: -1}},
		{"step above N", sc.System, Options{Refine: sc.N() + 1}},
		{"with candidates", sc.System, Options{Refine: step, Settings: &Settings{Candidates: []int{1, 2}}}},
		{"with failure events", events, Options{Refine: step}},
	} {
		if _, err := Solve(ctx, c.sys, sc.Application, &c.o); err == nil {
			t.Errorf("%s: no error", c.name)
		}
	}
}
