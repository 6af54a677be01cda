package optimal

import (
	"context"
	"strings"
	"testing"

	"github.com/ckpt-markov/markov/scenario"
	"github.com/ckpt-markov/markov/uwt"
)

// TestSolveEvents: Solve routes a system with failure events to the batch
// model's solver. Oracle: package uwt's exact batch model (the chain of
// all states) of the scenario Solve returns (TableScenario) gives Solve's
// g at its interval to 1e-9, for g*(I) and for level 2. The settings the
// batch model's solver does not take are errors naming them.
func TestSolveEvents(t *testing.T) {
	ctx := context.Background()
	for _, c := range eventsCases()[:3] {
		base := c.scenario(t, scenario.Policy{})
		sys := base.System
		sys.FailureEvents = &scenario.FailureEvents{Sizes: c.sizes}
		for _, opt := range []*Options{nil, {Interval: 900}} {
			sol, err := Solve(ctx, sys, base.Application, opt)
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			if sol.Events == nil || sol.Solver != nil || sol.Policy != nil || sol.Status != Converged {
				t.Fatalf("%s: events %v, solver %v, status %v", c.name, sol.Events, sol.Solver, sol.Status)
			}
			sc, err := sol.TableScenario()
			if err != nil {
				t.Fatal(err)
			}
			m, err := uwt.New(ctx, sc, &uwt.Settings{Exact: true, Prune: -1})
			if err != nil {
				t.Fatal(err)
			}
			res, err := m.Evaluate(ctx, sol.Interval)
			if err != nil {
				t.Fatal(err)
			}
			if d := relDiff(res.UWT, sol.UWT); d > 1e-9 {
				t.Errorf("%s %+v: uwt of the table %.15g, Solve %.15g", c.name, opt, res.UWT, sol.UWT)
			}
		}
	}
	c := eventsCases()[0]
	base := c.scenario(t, scenario.Policy{})
	sys := base.System
	sys.FailureEvents = &scenario.FailureEvents{Sizes: c.sizes}
	big := sys
	big.Processors = MaxEventsChainProcessors + 1
	w, lat, ovh, rec := make([]float64, big.Processors), make([]float64, big.Processors), make([]float64, big.Processors), make([]float64, big.Processors)
	for i := range w {
		w[i], lat[i], ovh[i], rec[i] = float64(i+1), 60, 30, 60
	}
	bigApp := scenario.Application{WorkRate: w, Latency: lat, Overhead: ovh, Recovery: scenario.RecoveryByNew(rec)}
	for _, e := range []struct {
		sys  scenario.System
		app  scenario.Application
		opt  *Options
		want string
	}{
		{sys, base.Application, &Options{Level: 3}, "Options.Level = 3"},
		{sys, base.Application, &Options{AllLevels: true}, "Options.AllLevels"},
		{sys, base.Application, &Options{Reconfigure: scenario.AtCheckpoint}, "at-checkpoint"},
		{sys, base.Application, &Options{Settings: &Settings{Candidates: []int{1, 2}}}, "Settings.Candidates"},
		{big, bigApp, nil, "system.processors = 4097"},
	} {
		_, err := Solve(ctx, e.sys, e.app, e.opt)
		if err == nil || !strings.Contains(err.Error(), e.want) {
			t.Errorf("%+v: error %v, want one naming %q", e.opt, err, e.want)
		}
	}
}

// TestSolveHighest: with failure events, Options.Highest turns a request
// for level 4 or for every level into level 2, bit for bit the solution
// of Options{Level: 2} (Solution.Level 2), while without failure events it
// changes nothing (level 4 solved, Solution.Level 4); a fixed interval is
// Solution.Level 0.
func TestSolveHighest(t *testing.T) {
	ctx := context.Background()
	c := eventsCases()[0]
	base := c.scenario(t, scenario.Policy{})
	sys := base.System
	sys.FailureEvents = &scenario.FailureEvents{Sizes: c.sizes}
	two, err := Solve(ctx, sys, base.Application, &Options{Level: 2})
	if err != nil {
		t.Fatal(err)
	}
	for _, opt := range []*Options{{Level: 4, Highest: true}, {AllLevels: true, Highest: true}} {
		got, err := Solve(ctx, sys, base.Application, opt)
		if err != nil {
			t.Fatalf("%+v: %v", opt, err)
		}
		if got.Level != 2 || got.UWT != two.UWT || got.Interval != two.Interval {
			t.Errorf("%+v: level %d, g %v at %v; level 2 gives g %v at %v", opt, got.Level, got.UWT, got.Interval, two.UWT, two.Interval)
		}
	}
	fixed, err := Solve(ctx, sys, base.Application, &Options{Interval: 900, Highest: true})
	if err != nil || fixed.Level != 0 {
		t.Errorf("fixed interval: level %d, %v; want 0", fixed.Level, err)
	}
	four, err := Solve(ctx, base.System, base.Application, &Options{Level: 4, Highest: true})
	if err != nil || four.Level != 4 || four.Events != nil {
		t.Errorf("without events: level %d, events %v, %v; want level 4", four.Level, four.Events, err)
	}
}
