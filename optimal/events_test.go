package optimal

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/ckpt-markov/markov/reschedule"
	"github.com/ckpt-markov/markov/scenario"
	"github.com/ckpt-markov/markov/uwt"
)

// eventsCases are oracle cases with failure events: sizes (p₁, p₂, …)
// of docs/model.md section 11.
func eventsCases() []struct {
	oracleCase
	sizes []float64
} {
	cs := oracleCases()
	return []struct {
		oracleCase
		sizes []float64
	}{
		{cs[0], []float64{0.5, 0.5}},
		{cs[1], []float64{0.6, 0.3, 0.1}},
		{cs[2], []float64{0.7, 0, 0.3}},
		{cs[3], []float64{0.2, 0.8}},
		{cs[4], []float64{0.5, 0.25, 0.25}},
		{cs[1], []float64{1}}, // no events: the batch chain of single failures
	}
}

// TestEventsEnumeration checks g*(I) of the solver with failure events
// (the chain of up phases on X(n), eventsChain: none of these recovery
// costs depends on the old count) against the largest UWT(I; r) of package uwt's batch model (exact path,
// no pruning: an independent computation of each policy's UWT, on the
// chain of all states) over all Π(n+1) rescheduling vectors, to 1e-9 (the
// issue's tolerance), and that uwt's UWT of the solver's own policy
// equals g* to 1e-9.
func TestEventsEnumeration(t *testing.T) {
	ctx := context.Background()
	for _, c := range eventsCases() {
		if testing.Short() && c.n > 5 {
			continue
		}
		base := c.scenario(t, scenario.Policy{})
		sys := base.System
		sys.FailureEvents = &scenario.FailureEvents{Sizes: c.sizes}
		uwtOf := func(r reschedule.Vector, interval float64) float64 {
			sc, err := scenario.New(sys, base.Application, scenario.Policy{Kind: scenario.Explicit, Explicit: r})
			if err != nil {
				t.Fatal(err)
			}
			m, err := uwt.New(ctx, sc, &uwt.Settings{Exact: true, Prune: -1})
			if err != nil {
				t.Fatal(err)
			}
			res, err := m.Evaluate(ctx, interval)
			if err != nil {
				t.Fatal(err)
			}
			return res.UWT
		}
		for _, interval := range []float64{600, 3600} {
			t.Run(fmt.Sprintf("%s/%v/I=%g", c.name, c.sizes, interval), func(t *testing.T) {
				best, count := -1.0, 0
				var arg reschedule.Vector
				vectors(c.n, func(r reschedule.Vector) {
					count++
					if u := uwtOf(r, interval); u > best {
						best, arg = u, append(reschedule.Vector(nil), r...)
					}
				})
				res, err := FixedIntervalEvents(ctx, sys, base.Application, interval, nil)
				if err != nil {
					t.Fatal(err)
				}
				if res.Status != Converged {
					t.Errorf("status %v", res.Status)
				}
				v, err := res.Table.Vector()
				if err != nil {
					t.Fatal(err)
				}
				if d := relDiff(res.UWT, best); d > 1e-9 {
					t.Errorf("g*(I) = %.15g (r = %v), enumeration over %d vectors: %.15g (r = %v), rel. diff %.2g", res.UWT, v, count, best, arg, d)
				}
				if u := uwtOf(v, interval); relDiff(u, res.UWT) > 1e-9 {
					t.Errorf("g* = %.15g but uwt gives %.15g for r* = %v", res.UWT, u, v)
				}
				t.Logf("g* = %.10g, r* = %v, best vector %v, %d iterations", res.UWT, v, arg, res.Iterations)
			})
		}
	}
}

// TestEventsSecondSolver: without failure events, the solver with events
// (batch chain with sizes [1], dense policy iteration) and the decision
// process of New (the chain of up phases, birthdeath's closed forms) are
// two algorithms for the same g*(I): equal to 1e-10 on every oracle case.
func TestEventsSecondSolver(t *testing.T) {
	ctx := context.Background()
	for _, c := range oracleCases() {
		sc := c.scenario(t, scenario.Policy{})
		sv, err := New(sc, &Settings{Full: true, Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		for _, interval := range []float64{600, 3600, 4 * 3600} {
			want, err := sv.FixedInterval(ctx, interval)
			if err != nil {
				t.Fatal(err)
			}
			got, err := FixedIntervalEvents(ctx, sc.System, sc.Application, interval, nil)
			if err != nil {
				t.Fatal(err)
			}
			if d := relDiff(got.UWT, want.UWT); d > 1e-10 {
				t.Errorf("%s, I = %g: events solver %.15g, New's solver %.15g (rel. %.2g)", c.name, interval, got.UWT, want.UWT, d)
			}
		}
	}
}

// TestEventsTable: with a recovery cost that depends on p (the migration
// case, N = 6) and failure events, the policy is a decision table; package
// uwt's exact batch model of the scenario with that table (read back from
// its JSON form) gives g*(I) to 1e-9, and g* is at least the best vector's
// UWT found by enumeration (vectors are the p-blind policies).
func TestEventsTable(t *testing.T) {
	if testing.Short() {
		t.Skip("enumeration of 5040 vectors")
	}
	ctx := context.Background()
	sys, app := migrationCase(t, 4*3600)
	sys.FailureEvents = &scenario.FailureEvents{Sizes: []float64{0.6, 0.4}}
	const interval = 1800
	res, err := FixedIntervalEvents(ctx, sys, app, interval, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Table.DependsOnOld() {
		t.Fatalf("table %s does not depend on p", res.Table)
	}
	pol, err := scenario.ParsePolicyJSON([]byte(`"table:`+res.Table.String()+`"`), sys.Processors)
	if err != nil {
		t.Fatal(err)
	}
	uwtOf := func(pol scenario.Policy) float64 {
		sc, err := scenario.New(sys, app, pol)
		if err != nil {
			t.Fatal(err)
		}
		m, err := uwt.New(ctx, sc, &uwt.Settings{Exact: true, Prune: -1})
		if err != nil {
			t.Fatal(err)
		}
		u, err := m.Evaluate(ctx, interval)
		if err != nil {
			t.Fatal(err)
		}
		return u.UWT
	}
	if u := uwtOf(pol); relDiff(u, res.UWT) > 1e-9 {
		t.Errorf("uwt of the table %s: %.15g, g* %.15g", res.Table, u, res.UWT)
	}
	best := 0.0
	vectors(sys.Processors, func(r reschedule.Vector) {
		best = max(best, uwtOf(scenario.Policy{Kind: scenario.Explicit, Explicit: r}))
	})
	if res.UWT < best*(1-1e-9) {
		t.Errorf("g* = %.15g below the best vector %.15g", res.UWT, best)
	}
	t.Logf("g* = %.12g, best vector %.12g, table %s", res.UWT, best, res.Table)
}

// TestSingleIntervalEvents: level 2 (one interval) with failure events.
// Without events it is New's SingleInterval by a second algorithm (g to
// 1e-9: both maximise a smooth g*(I) whose maximum is flat, so the
// interval tolerances of the two searches cost far less than that); with
// events g*(I*) is at least the UWT of the solver's vector at uwt's own
// optimal interval (package uwt's interval search on the batch model,
// which can only find a smaller or equal value for one policy).
func TestSingleIntervalEvents(t *testing.T) {
	ctx := context.Background()
	for _, c := range oracleCases()[:4] {
		sc := c.scenario(t, scenario.Policy{})
		sv, err := New(sc, &Settings{Full: true, Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		want, err := sv.SingleInterval(ctx, 0)
		if err != nil {
			t.Fatal(err)
		}
		got, err := SingleIntervalEvents(ctx, sc.System, sc.Application, nil)
		if err != nil {
			t.Fatal(err)
		}
		if d := relDiff(got.UWT, want.UWT); d > 1e-9 {
			t.Errorf("%s: events solver g*(I*) = %.15g at %g s, New's %.15g at %g s (rel. %.2g)", c.name, got.UWT, got.Interval, want.UWT, want.Interval, d)
		}
	}
	for _, c := range eventsCases()[:4] {
		base := c.scenario(t, scenario.Policy{})
		sys := base.System
		sys.FailureEvents = &scenario.FailureEvents{Sizes: c.sizes}
		got, err := SingleIntervalEvents(ctx, sys, base.Application, nil)
		if err != nil {
			t.Fatal(err)
		}
		v, err := got.Table.Vector()
		if err != nil {
			t.Fatal(err)
		}
		sc, err := scenario.New(sys, base.Application, scenario.Policy{Kind: scenario.Explicit, Explicit: v})
		if err != nil {
			t.Fatal(err)
		}
		m, err := uwt.New(ctx, sc, &uwt.Settings{Exact: true, Prune: -1})
		if err != nil {
			t.Fatal(err)
		}
		opt, err := m.Optimize(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got.UWT < opt.UWT*(1-1e-9) {
			t.Errorf("%s: g*(I*) = %.15g at %g s below uwt's optimum of r* = %v, %.15g at %g s", c.name, got.UWT, got.Interval, v, opt.UWT, opt.Interval)
		}
		if d := relDiff(got.UWT, opt.UWT); d > 1e-6 {
			t.Errorf("%s: g*(I*) = %.15g, uwt's optimum of r* %.15g (rel. %.2g): the two searches disagree", c.name, got.UWT, opt.UWT, d)
		}
	}
}

// TestEventsDeterministic: the solver with failure events gives the same
// bits on every run (sums over a row run in increasing state order, never
// in a map's order).
func TestEventsDeterministic(t *testing.T) {
	ctx := context.Background()
	sys, app := migrationCase(t, 4*3600)
	sys.FailureEvents = &scenario.FailureEvents{Sizes: []float64{0.6, 0.4}}
	var first EventsResult
	for i := range 5 {
		res, err := FixedIntervalEvents(ctx, sys, app, 1800, nil)
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			first = res
			continue
		}
		if math.Float64bits(res.UWT) != math.Float64bits(first.UWT) || res.Table.String() != first.Table.String() {
			t.Fatalf("run %d: %v %s, first %v %s", i, res.UWT, res.Table, first.UWT, first.Table)
		}
	}
}
