package multilevel

import (
	"context"
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/ckpt-markov/markov/scenario"
)

// withEvents returns sc with failure events of the size law sizes.
func withEvents(t testing.TB, sc *scenario.Scenario, sizes []float64) *scenario.Scenario {
	t.Helper()
	out := *sc
	out.System.FailureEvents = &scenario.FailureEvents{Sizes: sizes}
	if err := out.Validate(); err != nil {
		t.Fatal(err)
	}
	return &out
}

// TestEventsSingleSizes: with the size law [1] (single failures) the
// matrices over the spare count (events.go: an exponential of the
// spare chain per stretch, the down period's first passage by a linear
// solve, the stationary spare count at a period's start) give the
// fixed-count model (the scalar composition with the birth–death down
// factor, an independent derivation) to 1e-12 relative, for one, two and
// three levels, with crashes, spares and patterns; below an efficiency of
// 10 % the tolerance grows as 1e-13/efficiency (observed: 2.4e-12 at an
// efficiency of 5e-3, 2.2e-11 at 1.6e-4, about 1e-14/efficiency).
func TestEventsSingleSizes(t *testing.T) {
	pol := scenario.Policy{Kind: scenario.Moldable, Processors: 4}
	for _, tc := range []struct {
		name    string
		sc      *scenario.Scenario
		pattern []int
	}{
		{"one level", oneLevel(t, 7, 4, 3e4, 5e3), nil},
		{"two levels", twoLevel(t, 7, 2e4, 4e3, []float64{0.6, 0.4}, pol), []int{3}},
		{"two levels, no crash", twoLevel(t, 6, 1e4, 8e3, []float64{0, 1}, pol), []int{2}},
		{"three levels", threeLevel(t, 8, 3e4, 6e3, []float64{0.5, 0.3, 0.2}, pol), []int{2, 3}},
		{"no spare", twoLevel(t, 4, 2e4, 4e3, []float64{0.6, 0.4}, pol), []int{1}},
	} {
		m, err := New(tc.sc)
		if err != nil {
			t.Fatal(err)
		}
		ev, err := newEventChain(tc.sc, m.a, false)
		if err != nil {
			t.Fatal(err)
		}
		me := *m
		me.ev = ev
		for _, I := range []float64{120, 1800, 9000} {
			want, err := m.Evaluate(tc.pattern, I)
			if err != nil {
				t.Fatal(err)
			}
			got, err := me.Evaluate(tc.pattern, I)
			if err != nil {
				t.Fatal(err)
			}
			// The loops' matrices I − K are singular to within the
			// probability of leaving them, of the order of the
			// efficiency: the tolerance grows as its inverse below 10 %.
			tol := math.Max(1e-12, 1e-13/want.Efficiency)
			for _, q := range [][3]float64{{got.UWT, want.UWT}, {got.Efficiency, want.Efficiency}, {got.Down, want.Down}} {
				if d := math.Abs(q[0]-q[1]) / math.Max(q[1], 1e-300); d > tol && math.Abs(q[0]-q[1]) > 1e-15 {
					t.Errorf("%s I=%v: events path %.15g, fixed-count model %.15g (relative %.2g)", tc.name, I, q[0], q[1], d)
				}
			}
		}
	}
}

// TestEventsOneLevelIsUWT: with one level and failure events of several
// processors the multi-level model equals package uwt's single-level
// batch model (its exact path: the chain of segments over (state, spares)
// with the Van Loan rows of batchchain, solved for its stationary law)
// to 1e-12 relative, at four intervals.
func TestEventsOneLevelIsUWT(t *testing.T) {
	for _, tc := range []struct {
		n, a       int
		mttf, mttr float64
		sizes      []float64
	}{
		{4, 4, 86400, 3600, []float64{0.5, 0.5}},
		{8, 5, 86400, 7200, []float64{0.6, 0.2, 0.2}},
		{10, 3, 2e5, 5e4, []float64{0.3, 0.3, 0, 0.4}},
		{6, 1, 5e4, 1e4, []float64{0, 1}},
	} {
		againstUWT(t, fmt.Sprintf("N=%d a=%d sizes %v", tc.n, tc.a, tc.sizes), withEvents(t, oneLevel(t, tc.n, tc.a, tc.mttf, tc.mttr), tc.sizes), false)
	}
}

// TestEventsRefused: failure events with too many processors (on a
// fixed count, and under greedy with three levels and processor
// failures of severity 2: the positional chain), and with reconfiguration at checkpoints under a malleable
// policy, are refused naming the field.
func TestEventsRefused(t *testing.T) {
	reconfigured := func(sc *scenario.Scenario) *scenario.Scenario {
		sc.Reconfigure = scenario.AtCheckpoint
		return sc
	}
	for _, tc := range []struct {
		sc    *scenario.Scenario
		field string
	}{
		{withEvents(t, threeLevel(t, MaxEventProcessors+1, 1e7, 1e3, []float64{0.5, 0.2, 0.3}, scenario.Policy{Kind: scenario.Greedy}), []float64{0.5, 0.5}), "system.processors"},
		{withEvents(t, twoLevel(t, MaxEventProcessors+1, 1e6, 1e3, []float64{0.5, 0.5}, scenario.Policy{Kind: scenario.Moldable, Processors: 2}), []float64{0.5, 0.5}), "system.processors"},
		{reconfigured(withEvents(t, twoLevel(t, 6, 1e4, 1e3, []float64{0.5, 0.5}, scenario.Policy{Kind: scenario.Greedy}), []float64{0.5, 0.5})), "reconfigure"},
	} {
		_, err := New(tc.sc)
		var se *scenario.Error
		if !errors.As(err, &se) || se.Field != tc.field {
			t.Errorf("%s: error %v, want one naming %s", tc.sc.Policy, err, tc.field)
		}
	}
}

// singleAndForced returns the malleable model of sc with single
// failures (want) and the same built with forceEvents (got): single
// failures through the paths of failure events.
func singleAndForced(t *testing.T, ctx context.Context, sc *scenario.Scenario, set *Settings) (want, got *malleable) {
	t.Helper()
	want, err := newMalleable(ctx, sc, set)
	if err != nil {
		t.Fatal(err)
	}
	forceEvents = true
	got, err = newMalleable(ctx, sc, set)
	forceEvents = false
	if err != nil {
		t.Fatal(err)
	}
	return want, got
}

// TestEventsMalleableSingleSizes: with single failures forced through
// the up phases' path of failure events (matrices over the spare count
// from the recovery on: upStart, upPeriods, killSojourn), the chain of up
// phases gives the scalar model's UWT (recovery survival and
// q/(1 − q) periods at Exp(aμ)) to 1e-12 relative, under greedy, pb and
// a vector, with and without crashes.
func TestEventsMalleableSingleSizes(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		n   int
		sev []float64
		pol scenario.Policy
	}{
		{6, []float64{0.7, 0.3}, scenario.Policy{Kind: scenario.Greedy}},
		{7, []float64{0, 1}, scenario.Policy{Kind: scenario.PerformanceBased}},
		{8, []float64{0.5, 0.5}, scenario.Policy{Kind: scenario.Explicit, Explicit: []int{1, 2, 2, 4, 4, 4, 6, 6}}},
	} {
		sc := twoLevel(t, tc.n, 2e4, 4000, tc.sev, tc.pol)
		set := &Settings{Tol: 1e-15, Prune: -1}
		want, got := singleAndForced(t, ctx, sc, set)
		for _, v := range []int{0, 3} {
			for _, I := range []float64{120, 900, 5000} {
				w, _, _, _, err := want.evaluate([]int{v}, I)
				if err != nil {
					t.Fatal(err)
				}
				g, _, _, _, err := got.evaluate([]int{v}, I)
				if err != nil {
					t.Fatal(err)
				}
				if d := math.Abs(g-w) / w; d > 1e-12 {
					t.Errorf("%v V=%d I=%v: events path %.15g, scalar %.15g (relative %.2g)", tc.pol, v, I, g, w, d)
				}
			}
		}
	}
}

// TestEventsMalleableFixedCount: with failure events on a fixed count
// (moldable), the chain of up phases (package uwt's batch chain of up
// phases, rewarded by the up phases' matrices) gives the fixed-count
// path (one matrix composition over whole periods with the down periods'
// first passage: an independent derivation) to 1e-10 relative.
func TestEventsMalleableFixedCount(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		n, a  int
		sev   []float64
		sizes []float64
	}{
		{6, 4, []float64{0.7, 0.3}, []float64{0.5, 0.5}},
		{8, 5, []float64{0, 1}, []float64{0.3, 0.3, 0.4}},
		{5, 5, []float64{0.5, 0.5}, []float64{0.6, 0, 0.4}},
	} {
		sc := withEvents(t, twoLevel(t, tc.n, 2e4, 4000, tc.sev, scenario.Policy{Kind: scenario.Moldable, Processors: tc.a}), tc.sizes)
		fixed, mm := fixedAndMalleable(t, ctx, sc)
		for _, v := range []int{0, 2} {
			for _, I := range []float64{120, 900, 5000} {
				want, err := fixed.Evaluate([]int{v}, I)
				if err != nil {
					t.Fatal(err)
				}
				got, avail, eff, down, err := mm.evaluate([]int{v}, I)
				if err != nil {
					t.Fatal(err)
				}
				matchFixed(t, fmt.Sprintf("N=%d a=%d f=%v sizes %v V=%d I=%g", tc.n, tc.a, tc.sev, tc.sizes, v, I), got, avail, eff, down, want, 1e-10)
			}
		}
	}
}

// TestEventsMalleableOneLevel: with one level and failure events, the
// multi-level model under greedy and pb equals package uwt's
// single-level batch model (its exact path, the chain of segments) to
// 1e-10 relative.
func TestEventsMalleableOneLevel(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		n     int
		pol   scenario.Policy
		sizes []float64
	}{
		{6, scenario.Policy{Kind: scenario.Greedy}, []float64{0.5, 0.5}},
		{7, scenario.Policy{Kind: scenario.PerformanceBased}, []float64{0.4, 0.2, 0.4}},
	} {
		base := oneLevel(t, tc.n, tc.n, 3e4, 5e3)
		sys := base.System
		sys.FailureEvents = &scenario.FailureEvents{Sizes: tc.sizes}
		sc, err := scenario.New(sys, base.Application, tc.pol)
		if err != nil {
			t.Fatal(err)
		}
		m, err := NewWith(ctx, sc, &Settings{Tol: 1e-15, Prune: -1})
		if err != nil {
			t.Fatal(err)
		}
		if !m.Malleable() {
			t.Fatalf("%v: not the malleable model", tc.pol)
		}
		compareUWT(t, fmt.Sprintf("%v sizes %v", tc.pol, tc.sizes), m, sc, []float64{60, 1000, 7200}, 1e-10, false)
	}
}
