package optimal

import (
	"context"
	"errors"
	"math"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/ckpt-markov/markov/scenario"
	"github.com/ckpt-markov/markov/uwt"
)

// TestNoUsefulWork: with MTTF = 1 µs no policy does useful work (every
// up phase fails within microseconds of its start): each solve says so
// with Status NoUsefulWork and UWT 0 instead of a gain of rounding
// noise, and MaxUWT, the bound that decides it, is below Tol·max ω.
func TestNoUsefulWork(t *testing.T) {
	ctx := context.Background()
	c := oracleCases()[0]
	c.mttf = 1e-6
	for _, rc := range []scenario.Reconfigure{scenario.Never, scenario.AtCheckpoint} {
		sc := c.scenario(t, scenario.Policy{})
		sc.Reconfigure = rc
		sv, err := New(sc, nil)
		if err != nil {
			t.Fatal(err)
		}
		if sv.MaxUWT() > DefaultTol*4 {
			t.Errorf("MaxUWT = %g", sv.MaxUWT())
		}
		rep, err := sv.Levels(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range []Result{rep.Single.Result, rep.PerConfiguration.Result, rep.PerState} {
			if r.Status != NoUsefulWork || r.UWT != 0 || r.Policy == nil {
				t.Errorf("%v: status %v, UWT %g", rc, r.Status, r.UWT)
			}
		}
		if r, err := sv.FixedInterval(ctx, 600); err != nil || r.Status != NoUsefulWork {
			t.Errorf("%v: FixedInterval: %v, %v", rc, r.Status, err)
		}
	}
}

// TestMaxUWTBound: MaxUWT is an upper bound on level 4 (the best policy
// of the model) on every oracle scenario, so a solver that reports
// NoUsefulWork from it never hides a policy that works.
func TestMaxUWTBound(t *testing.T) {
	ctx := context.Background()
	for _, c := range oracleCases() {
		sv, err := New(c.scenario(t, scenario.Policy{}), nil)
		if err != nil {
			t.Fatal(err)
		}
		r, err := sv.PerState(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		if r.Status == NoUsefulWork || r.UWT > sv.MaxUWT() {
			t.Errorf("%s: level 4 %g (%v), MaxUWT %g", c.name, r.UWT, r.Status, sv.MaxUWT())
		}
	}
}

// TestIntervalAtBound: with L = C = R = 0 every segment is free, so g*
// rises as I falls (docs/optimal-policy.md; decision.Phase.BestInterval:
// the reward falls with u when C = 0): I* is Settings.MinInterval and
// flagged uwt.AtMin; an ordinary scenario's I* is interior (Converged).
func TestIntervalAtBound(t *testing.T) {
	ctx := context.Background()
	c := oracleCases()[3]
	free, err := scenario.New(scenario.System{Processors: c.n, MTTF: c.mttf, MTTR: c.mttr},
		scenario.Application{WorkRate: c.work, Latency: make([]float64, c.n), Overhead: make([]float64, c.n),
			Recovery: scenario.RecoveryByNew(make([]float64, c.n))}, scenario.Policy{})
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []struct {
		sc   *scenario.Scenario
		want uwt.Status
	}{{free, uwt.AtMin}, {c.scenario(t, scenario.Policy{}), uwt.Converged}} {
		sv, err := New(k.sc, nil)
		if err != nil {
			t.Fatal(err)
		}
		one, err := sv.SingleInterval(ctx, 0)
		if err != nil {
			t.Fatal(err)
		}
		if one.IntervalStatus != k.want {
			t.Errorf("I* = %g: %v, want %v", one.Interval, one.IntervalStatus, k.want)
		}
	}
}

// TestSingularNamesInputs: an evaluation system that is singular is
// refused with an error that names the inputs behind it. Two closed
// classes of positive sojourns solved as one set (the bias of the second
// is fixed only up to a constant): system.mttf and system.mttr, behind
// its coefficients, and the other cause, several recurrent classes. A
// closed class whose states all last 0 s (a cycle of zero-cost
// reconfigurations: g = 0/0): a *scenario.Error on application.recovery
// that names checkpoint_latency too, and not the rates (power: each
// case's error lacks the other's inputs).
func TestSingularNamesInputs(t *testing.T) {
	c := oracleCases()[0]
	sv, err := New(c.scenario(t, scenario.Policy{}), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []struct {
		name      string
		tau       float64
		to        []int
		field     string
		want, not []string
	}{
		{"two classes", 1, []int{1, 0, 3, 2}, "",
			[]string{"singular", "system.mttf", "system.mttr", "recurrent classes"}, []string{"application.recovery"}},
		{"zero sojourns", 0, []int{1, 0}, "application.recovery",
			[]string{"singular", "application.recovery", "application.checkpoint_latency", "0/0"}, []string{"system.mttf", "recurrent classes"}},
		// State 0 (1 s) leads into the zero-duration cycle of 1 and 2.
		{"zero cycle entered", 0, []int{1, 2, 1}, "application.recovery",
			[]string{"singular", "application.recovery", "application.checkpoint_latency", "0/0"}, []string{"system.mttf", "recurrent classes"}},
	} {
		eqs := make([]equation, len(k.to))
		xs := make([]int, len(k.to))
		for i, to := range k.to {
			tau := k.tau
			if i == 0 && len(k.to) == 3 {
				tau = 1
			}
			eqs[i], xs[i] = equation{to: []int{to}, coef: []float64{1}, gc: tau, rh: tau}, i
		}
		v := &values{x0: 0, hX: make([]float64, len(eqs))}
		err = sv.solveSet(v, eqs, xs, true)
		if err == nil {
			t.Errorf("%s: a singular system was solved", k.name)
			continue
		}
		for _, want := range k.want {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("%s: error %q does not name %q", k.name, err, want)
			}
		}
		for _, not := range k.not {
			if strings.Contains(err.Error(), not) {
				t.Errorf("%s: error %q names %q", k.name, err, not)
			}
		}
		var se *scenario.Error
		if got := errors.As(err, &se); got != (k.field != "") || got && se.Field != k.field {
			t.Errorf("%s: error %q: scenario.Error %v, want field %q", k.name, err, se, k.field)
		}
	}
}

// TestEventsNoUsefulWork: with failure events and MTTF = 1 µs no policy
// does useful work either: Solve says so (Status NoUsefulWork, UWT 0, no
// decision table: DecisionTable and TableScenario are errors) on the
// chain of up phases and on the dense process (debugDenseEvents), where
// the solve ran into a singular system or a uniformization of ~10¹⁰
// steps before. Oracle for the bound that decides it (eventsMaxUWT): it
// is at least g* of level 2 and g*(I) on every case of eventsCases at
// their own MTTF (so NoUsefulWork never hides a policy that works);
// power: none of those is NoUsefulWork.
func TestEventsNoUsefulWork(t *testing.T) {
	ctx := context.Background()
	defer func() { debugDenseEvents = false }()
	for _, c := range eventsCases() {
		base := c.scenario(t, scenario.Policy{})
		sys := base.System
		sys.FailureEvents = &scenario.FailureEvents{Sizes: c.sizes}
		if sys.FailureEvents.Single() {
			continue // Solve's solver of single failures: TestNoUsefulWork
		}
		set, err := (*Settings)(nil).withDefaults()
		if err != nil {
			t.Fatal(err)
		}
		bound := eventsMaxUWT(sys, &base.Application, set)
		for _, opt := range []*Options{nil, {Interval: 900}} {
			sol, err := Solve(ctx, sys, base.Application, opt)
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			if sol.Status == NoUsefulWork || sol.UWT > bound {
				t.Errorf("%s, %+v: g* %g (%v), bound %g", c.name, opt, sol.UWT, sol.Status, bound)
			}
		}
		sys.MTTF = 1e-6
		for _, dense := range []bool{false, true} {
			debugDenseEvents = dense
			for _, opt := range []*Options{nil, {Interval: 900}} {
				sol, err := Solve(ctx, sys, base.Application, opt)
				if err != nil {
					t.Fatalf("%s, MTTF 1 µs, dense %t: %v", c.name, dense, err)
				}
				if sol.Status != NoUsefulWork || sol.UWT != 0 || sol.Events == nil || sol.Events.Table != nil {
					t.Errorf("%s, MTTF 1 µs, dense %t: status %v, UWT %g", c.name, dense, sol.Status, sol.UWT)
				}
				if _, err := sol.TableScenario(); err == nil {
					t.Errorf("%s, MTTF 1 µs, dense %t: a scenario of no policy", c.name, dense)
				}
			}
		}
		debugDenseEvents = false
	}
}

// TestEventsSingularNamesInputs: with failure events, a system whose
// rates are too far apart for the solver (MTTR 10²⁰ s: a processor that
// fails is never repaired, and the evaluation system is singular; MTTF
// 10²⁰ s: an up phase that never ends in floating point) is an error
// that names the inputs setting those rates (system.mttf, system.mttr,
// system.failure_events), on the chain of up phases and on the dense
// process, as TestSingularNamesInputs without events. Power: at the
// case's own rates both solve.
func TestEventsSingularNamesInputs(t *testing.T) {
	ctx := context.Background()
	defer func() { debugDenseEvents = false }()
	c := eventsCases()[1]
	base := c.scenario(t, scenario.Policy{})
	for _, dense := range []bool{false, true} {
		debugDenseEvents = dense
		for _, tc := range []struct {
			name       string
			mttf, mttr float64
			fails      bool
		}{
			{"own rates", base.System.MTTF, base.System.MTTR, false},
			{"MTTR 1e20 s", base.System.MTTF, 1e20, true},
			{"MTTF 1e20 s", 1e20, base.System.MTTR, true},
		} {
			sys := scenario.System{Processors: base.System.Processors, MTTF: tc.mttf, MTTR: tc.mttr, FailureEvents: &scenario.FailureEvents{Sizes: c.sizes}}
			_, err := Solve(ctx, sys, base.Application, &Options{Interval: 900})
			if !tc.fails {
				if err != nil {
					t.Errorf("dense %t, %s: %v", dense, tc.name, err)
				}
				continue
			}
			if err == nil {
				t.Errorf("dense %t, %s: solved", dense, tc.name)
				continue
			}
			for _, want := range []string{"system.mttf", "system.mttr", "system.failure_events"} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("dense %t, %s: %q does not name %s", dense, tc.name, err, want)
				}
			}
		}
	}
}

// TestSizeCheckedFirst: a decision process beyond Settings.MaxStates is
// refused (a *SizeError) before anything of its size is allocated: New
// on N = 2²⁰ processors (every count a candidate, 2²⁰·w recovery rows)
// allocates less than 64 bytes a processor: what the configurations'
// phases (decision.Phase, 48 bytes each) and the two indexes by count (8
// each) would take alone, which New allocated before it checked the size
// (about 104 bytes a processor in all, 48 now). With
// Settings.Full and R(p, a) depending on p the rows, N³ ≈ 2⁶³, would
// overflow an int: the error says so with positive counts.
func TestSizeCheckedFirst(t *testing.T) {
	const n = 1 << 20
	work := make([]float64, n)
	for i := range work {
		work[i] = float64(i + 1)
	}
	app := scenario.Application{WorkRate: work, Latency: []float64{60}, Overhead: []float64{60}, Recovery: scenario.RecoveryConstant(30, n)}
	app.Latency, app.Overhead = slices.Repeat(app.Latency, n), slices.Repeat(app.Overhead, n)
	sc, err := scenario.New(scenario.System{Processors: n, MTTF: 25 * 365 * 86400, MTTR: 3600}, app, scenario.Policy{})
	if err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err = New(sc, nil)
	runtime.ReadMemStats(&after)
	var se *SizeError
	if !errors.As(err, &se) || se.Rows <= 4*se.MaxStates {
		t.Fatalf("N = %d: %v, want a *SizeError on the rows", n, err)
	}
	if per := float64(after.TotalAlloc-before.TotalAlloc) / n; per >= 64 {
		t.Errorf("N = %d: New allocated %.1f bytes a processor before refusing", n, per)
	}
	// Settings.Full with R(p, a) by old count at N = 2²¹: 2⁶³ rows.
	const m = 1 << 21
	big := scenario.System{Processors: m, MTTF: 25 * 365 * 86400, MTTR: 3600}
	rec := scenario.RecoveryLinear(30, 1e-3, 0, m)
	bapp := scenario.Application{WorkRate: slices.Repeat([]float64{1}, m), Latency: slices.Repeat([]float64{60}, m), Overhead: slices.Repeat([]float64{60}, m), Recovery: rec}
	bsc, err := scenario.New(big, bapp, scenario.Policy{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = New(bsc, &Settings{Full: true})
	if !errors.As(err, &se) || se.States <= 0 || se.Rows <= 0 {
		t.Errorf("N = %d, full, R(p, a): %v, want a *SizeError with positive counts", m, err)
	}
}

// TestDefaultStartInBounds: SingleInterval's start 0 means 300 s moved
// into [Settings.MinInterval, Settings.MaxInterval], so bounds that
// exclude 300 s (above and below) are solved, not refused; I* lies in
// the bounds, and is the interval that maximises the fixed-interval
// g*(I) on a grid over them (the oracle: FixedInterval at each point,
// within the search's relative tolerance scaled by the grid). A start
// given outside the bounds is still an error.
func TestDefaultStartInBounds(t *testing.T) {
	ctx := context.Background()
	c := oracleCases()[0]
	for _, k := range []struct {
		name     string
		min, max float64
	}{
		{"min above 300 s", 1e4, 1e6},
		{"max below 300 s", 1, 100},
		{"both around 300 s", 100, 1e4},
	} {
		sv, err := New(c.scenario(t, scenario.Policy{}), &Settings{MinInterval: k.min, MaxInterval: k.max})
		if err != nil {
			t.Fatal(err)
		}
		one, err := sv.SingleInterval(ctx, 0)
		if err != nil {
			t.Errorf("%s: %v", k.name, err)
			continue
		}
		// I* = exp(log I): a bound is met within rounding (1e-12 relative).
		if one.Interval < k.min*(1-1e-12) || one.Interval > k.max*(1+1e-12) {
			t.Errorf("%s: I* = %g outside [%g, %g]", k.name, one.Interval, k.min, k.max)
		}
		// Oracle: no grid interval does better than I* beyond tolerance.
		for i := range 9 {
			x := k.min * math.Pow(k.max/k.min, float64(i)/8)
			r, err := sv.FixedInterval(ctx, x)
			if err != nil {
				t.Fatal(err)
			}
			if r.UWT > one.UWT*(1+1e-6) {
				t.Errorf("%s: g*(%g) = %.9g above g*(I* = %g) = %.9g", k.name, x, r.UWT, one.Interval, one.UWT)
			}
		}
		if _, err := sv.SingleInterval(ctx, 2*k.max); err == nil {
			t.Errorf("%s: a start above MaxInterval accepted", k.name)
		}
	}
}

// TestIntervalAtMax: on a system that almost never fails, I* is at the
// search's upper bound (flagged uwt.AtMax), within it and within the
// status's 2·IntervalTol on log I of it, and reads back through
// FixedInterval; intervalOf, which every search turns log I into an
// interval with, gives the bounds themselves at log Min and log Max,
// where e^x rounds outside them at the default MaxInterval
// (e^(log 3.1536e9) = 3.1536000000000014e9, which FixedInterval refuses).
func TestIntervalAtMax(t *testing.T) {
	ctx := context.Background()
	c := oracleCases()[3]
	c.mttf = 1e20
	for _, max := range []float64{0, 1e6} {
		sv, err := New(c.scenario(t, scenario.Policy{}), &Settings{MaxInterval: max})
		if err != nil {
			t.Fatal(err)
		}
		one, err := sv.SingleInterval(ctx, 0)
		if err != nil {
			t.Fatal(err)
		}
		hi := sv.set.MaxInterval
		if one.IntervalStatus != uwt.AtMax || one.Interval > hi || one.Interval < hi*math.Exp(-2*sv.set.IntervalTol) {
			t.Errorf("max %g: I* = %.17g (%v), want AtMax within [%.17g, %.17g]", max, one.Interval, one.IntervalStatus, hi*math.Exp(-2*sv.set.IntervalTol), hi)
		}
		if _, err := sv.FixedInterval(ctx, one.Interval); err != nil {
			t.Errorf("max %g: FixedInterval(I*): %v", max, err)
		}
		lo := sv.set.MinInterval
		if got := sv.intervalOf(math.Log(hi)); got != hi {
			t.Errorf("max %g: intervalOf(log Max) = %.17g", max, got)
		}
		if got := sv.intervalOf(math.Log(lo)); got != lo {
			t.Errorf("max %g: intervalOf(log Min) = %.17g", max, got)
		}
		if x := math.Log(hi) / 2; sv.intervalOf(x) != math.Exp(x) {
			t.Errorf("max %g: intervalOf(%g) = %.17g, want e^x", max, x, sv.intervalOf(x))
		}
	}
	// Power: the case intervalOf exists for.
	if x := math.Log(DefaultMaxInterval); !(math.Exp(x) > DefaultMaxInterval) {
		t.Errorf("e^(log %g) = %.17g no longer rounds above it: the test's premise is gone", float64(DefaultMaxInterval), math.Exp(x))
	}
}

// TestReliableReconfigureNamesMTTF: with reconfiguration at checkpoints
// on a system whose up segments fail with probability below the
// rounding of their rows (MTTF 10²⁰ s: 1 − P_jj rounds to 0), the up
// states' system is singular, and the error is a *scenario.Error on
// system.mttf; at MTTF 10¹⁴ s the same solve succeeds (power: the
// error is not raised on a merely reliable system).
func TestReliableReconfigureNamesMTTF(t *testing.T) {
	ctx := context.Background()
	c := oracleCases()[3]
	for _, k := range []struct {
		mttf float64
		fail bool
	}{{1e20, true}, {1e14, false}} {
		c.mttf = k.mttf
		sc := c.scenario(t, scenario.Policy{})
		sc.Reconfigure = scenario.AtCheckpoint
		sv, err := New(sc, nil)
		if err != nil {
			t.Fatal(err)
		}
		_, err = sv.SingleInterval(ctx, 0)
		var se *scenario.Error
		switch {
		case k.fail && !(errors.As(err, &se) && se.Field == "system.mttf"):
			t.Errorf("MTTF %g: %v, want a *scenario.Error on system.mttf", k.mttf, err)
		case !k.fail && err != nil:
			t.Errorf("MTTF %g: %v", k.mttf, err)
		}
	}
}
