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

// TestSolveZeroWorkRate: Solve takes an application with a zero work rate
// ω(a) at some counts a, which the solver never chooses (its candidates
// are the counts with ω(a) > 0); its own scenario needs a policy valid
// for such an application (solverScenario: performance-based, where
// greedy, r(n) = n, was refused). Oracle: the same application with
// ω(a) > 0 there, solved on the candidates without those counts, which
// is the same decision process: equal bit for bit, at a fixed interval
// (g*(I), the policy) and at level 2 (I*). The zero counts are never
// chosen. Power check: Solve without the restriction on the positive
// rates differs (the counts are worth choosing there), so the equality
// is not that of two solves that ignore a.
func TestSolveZeroWorkRate(t *testing.T) {
	ctx := context.Background()
	const n = 6
	pos := []float64{1, 1.9, 2.8, 3.6, 4.4, 5.1}
	zero := slices.Clone(pos)
	zero[2], zero[4] = 0, 0 // ω(3) = ω(5) = 0
	cand := []int{1, 2, 4, 6}
	lat := []float64{60, 60, 60, 60, 60, 60}
	app := func(w []float64) scenario.Application {
		return scenario.Application{WorkRate: w, Latency: lat, Overhead: lat, Recovery: scenario.RecoveryConstant(120, n)}
	}
	sys := scenario.System{Processors: n, MTTF: 86400, MTTR: 4 * 3600}
	for _, o := range []Options{{Interval: 7200}, {}} {
		got, err := Solve(ctx, sys, app(zero), &o)
		if err != nil {
			t.Fatalf("ω(3) = ω(5) = 0, %+v: %v", o, err)
		}
		ow := o
		ow.Settings = &Settings{Candidates: cand}
		want, err := Solve(ctx, sys, app(pos), &ow)
		if err != nil {
			t.Fatal(err)
		}
		gv, err := got.Policy.Vector()
		if err != nil {
			t.Fatal(err)
		}
		wv, err := want.Policy.Vector()
		if err != nil {
			t.Fatal(err)
		}
		if got.UWT != want.UWT || got.Interval != want.Interval || !slices.Equal(gv, wv) {
			t.Errorf("%+v: g* %v at I %v, r* %v; the oracle on candidates %v: %v at %v, %v", o, got.UWT, got.Interval, gv, cand, want.UWT, want.Interval, wv)
		}
		for i, r := range gv {
			if r > 0 && zero[r-1] == 0 {
				t.Errorf("%+v: r*(%d) = %d, a count with a zero work rate", o, i+1, r)
			}
		}
		free, err := Solve(ctx, sys, app(pos), &o)
		if err != nil {
			t.Fatal(err)
		}
		if free.UWT <= want.UWT {
			t.Errorf("%+v: the unrestricted g* %v is not above the restricted %v: the oracle cannot tell the counts apart", o, free.UWT, want.UWT)
		}
	}
}
