package uwt

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/ckpt-markov/markov/scenario"
)

// An optimisation stopped by the bounds says so, and its band ends at the
// end of the scan; a failed one returns the zero Optimum, whose status
// reads NotTerminated, never Converged.
func TestOptimizeStatus(t *testing.T) {
	sys := scenario.System{Processors: 4, MTTF: 86400, MTTR: 3600}
	sc := mustScenario(t, sys, constApp(4, 1, 60, 60, 30), scenario.Policy{})
	m, err := New(context.Background(), sc, nil)
	if err != nil {
		t.Fatal(err)
	}
	// I* of this model is near √(2·60·86400/4) ≈ 1600 s (Young's
	// first-order form with the job's failure rate 4λ), outside both
	// search ranges below.
	for _, tc := range []struct {
		set  OptimizeSettings
		want Status
	}{
		{OptimizeSettings{Start: 5000, Min: 5000, Max: 1e6}, AtMin},
		{OptimizeSettings{Start: 10, Min: 1, Max: 200}, AtMax},
		{OptimizeSettings{}, Converged},
	} {
		opt, err := m.Optimize(context.Background(), &tc.set)
		if err != nil {
			t.Fatal(err)
		}
		if opt.Status != tc.want {
			t.Errorf("%+v: status %v, want %v", tc.set, opt.Status, tc.want)
		}
		switch tc.want {
		case AtMin:
			if opt.BandLow != opt.Scan[0].Interval || opt.Interval > 2*tc.set.Min {
				t.Errorf("AtMin: band low %v, I* %v, scan from %v", opt.BandLow, opt.Interval, opt.Scan[0].Interval)
			}
		case AtMax:
			if opt.BandHigh != opt.Scan[len(opt.Scan)-1].Interval || opt.Interval < tc.set.Max/2 {
				t.Errorf("AtMax: band high %v, I* %v, scan to %v", opt.BandHigh, opt.Interval, opt.Scan[len(opt.Scan)-1].Interval)
			}
		}
		if opt.Result.Interval != opt.Interval || opt.Result.UWT != opt.UWT {
			t.Errorf("Optimum and its Result disagree: %v, %v", opt.Interval, opt.Result.Interval)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	opt, err := m.Optimize(ctx, nil)
	if err == nil || opt.Status != NotTerminated || opt.Status.String() != "NotTerminated" {
		t.Errorf("cancelled: status %v, error %v", opt.Status, err)
	}
	var zero Optimum
	if zero.Status == Converged {
		t.Error("the zero Optimum reads Converged")
	}
}

func TestOptimizeSettingsErrors(t *testing.T) {
	sc := mustScenario(t, scenario.System{Processors: 2, MTTF: 86400, MTTR: 3600}, constApp(2, 1, 60, 60, 30), scenario.Policy{})
	m, err := New(context.Background(), sc, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		set  OptimizeSettings
		want string
	}{
		{OptimizeSettings{RelTol: 2}, "RelTol"},
		{OptimizeSettings{RelTol: math.NaN()}, "RelTol"},
		{OptimizeSettings{Min: 10, Max: 5}, "Min, Max"},
		{OptimizeSettings{Max: math.Inf(1)}, "Min, Max"},
		{OptimizeSettings{Start: 0.5}, "Start"},
		{OptimizeSettings{Band: 1}, "Band"},
		{OptimizeSettings{ModelFraction: -0.1}, "ModelFraction"},
	} {
		if _, err := m.Optimize(context.Background(), &tc.set); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: error %v, want one naming %s", tc.set, err, tc.want)
		}
	}
	for _, s := range []*Settings{{Prune: 1}, {Prune: math.NaN()}, {Tol: -1}} {
		if _, err := New(context.Background(), sc, s); err == nil {
			t.Errorf("%+v accepted", *s)
		}
	}
}

// Curve gives the same values as separate evaluations (up to the warm
// start, documented at 3e-15 relative), and Inspect a distribution over
// the recurrent states that reproduces UWT through the rewards of
// docs/model.md §6.
func TestCurveAndInspect(t *testing.T) {
	sys := scenario.System{Processors: 3, MTTF: 5000, MTTR: 1500}
	app := constApp(3, 1, 100, 50, 40)
	sc := mustScenario(t, sys, app, scenario.Policy{})
	m, err := New(context.Background(), sc, nil)
	if err != nil {
		t.Fatal(err)
	}
	if m.Scenario() != sc || m.States() == 0 {
		t.Errorf("Scenario %p (want %p), States %d", m.Scenario(), sc, m.States())
	}
	grid := []float64{300, 1000, 3000}
	curve, err := m.Curve(context.Background(), grid)
	if err != nil {
		t.Fatal(err)
	}
	for k, i := range grid {
		if r := evaluate(t, sc, nil, i); math.Abs(curve[k].UWT-r.UWT)/r.UWT > 1e-13 {
			t.Errorf("I=%v: Curve %v, Evaluate %v", i, curve[k].UWT, r.UWT)
		}
	}
	// The renewal–reward sum by hand over Inspect, with the rewards of
	// docs/model.md §6 per segment (the exact path's chain) and per up
	// phase (the fast path's, doc.go "Up phases").
	for _, set := range []*Settings{{Exact: true}, nil} {
		for _, i := range grid {
			checkInspect(t, sys, app, evaluate(t, sc, set, i), i)
		}
	}
	if _, err := m.Curve(context.Background(), []float64{100, -1}); err == nil {
		t.Error("Curve accepted a negative interval")
	}
}

// checkInspect recomputes UWT = Σπw/Σπτ from r.Inspect for the greedy
// scenario of TestCurveAndInspect (L = 100 s, C = 50 s, R = 40 s).
func checkInspect(t *testing.T, sys scenario.System, app scenario.Application, r Result, i float64) {
	t.Helper()
	{
		w := r.Inspect()
		if len(w) != r.Recurrent {
			t.Errorf("I=%v: Inspect has %d states, Recurrent %d", i, len(w), r.Recurrent)
		}
		lam := sys.Lambda()
		var sum, work, time float64
		for _, x := range w {
			sum += x.Prob
			switch x.State.Kind {
			case Up:
				if r.Phases {
					t.Errorf("I=%v: up state %v in a chain of up phases", i, x.State)
				}
				rho, tt := float64(x.State.A)*lam, i+100
				work += x.Prob * math.Exp(-rho*tt) * app.WorkRate[x.State.A-1] * (i + 100 - 50)
				time += x.Prob * -math.Expm1(-rho*tt) / rho
			case Recovery:
				a := x.State.N // greedy: r(n) = n
				rho, tt := float64(a)*lam, 40.0+100
				if r.Phases {
					// The recovery, then on success an up phase of
					// 1/(e^{ρT} − 1) committed segments, to a failure
					// after an Exp(ρ) time.
					work += x.Prob * math.Exp(-rho*tt) / math.Expm1(rho*(i+100)) * app.WorkRate[a-1] * (i + 100 - 50)
					time += x.Prob / rho
					break
				}
				time += x.Prob * -math.Expm1(-rho*tt) / rho
			case Down:
				time += x.Prob / (float64(x.State.N)*lam + float64(3-x.State.N)*sys.Theta())
			}
		}
		if math.Abs(sum-1) > 1e-14 || math.Abs(work/time-r.UWT) > 1e-13*r.UWT {
			t.Errorf("I=%v phases=%v: Σπ = %v, Σπw/Σπτ = %v vs UWT %v", i, r.Phases, sum, work/time, r.UWT)
		}
	}
}

func TestStrings(t *testing.T) {
	for _, tc := range []struct {
		got  interface{ String() string }
		want string
	}{
		{NotTerminated, "NotTerminated"}, {Converged, "Converged"}, {AtMin, "AtMin"}, {AtMax, "AtMax"}, {Status(9), "Status(9)"},
		{Up, "U"}, {Recovery, "R"}, {Down, "D"}, {Kind(7), "Kind(7)"},
		{State{Kind: Up, A: 3, S: 1}, "U(3,1)"},
		{State{Kind: Recovery, N: 4}, "R(4)"},
		{State{Kind: Down, P: 2, N: 1}, "D(2,1)"},
		{State{Kind: 5, A: 1}, "State{5,1,0,0,0}"},
	} {
		if s := tc.got.String(); s != tc.want {
			t.Errorf("%#v: %q, want %q", tc.got, s, tc.want)
		}
	}
}
