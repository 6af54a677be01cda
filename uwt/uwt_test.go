package uwt

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/ckpt-markov/markov/internal/testmodel"
	"github.com/ckpt-markov/markov/scenario"
)

// constApp returns an application on n processors with work rate
// ω(a) = rate·a, latency L, overhead C and recovery R for every count.
func constApp(n int, rate, l, c, r float64) scenario.Application {
	w, lat, over := make([]float64, n), make([]float64, n), make([]float64, n)
	for i := range n {
		w[i], lat[i], over[i] = rate*float64(i+1), l, c
	}
	return scenario.Application{WorkRate: w, Latency: lat, Overhead: over, Recovery: scenario.RecoveryConstant(r, n)}
}

func mustScenario(t testing.TB, sys scenario.System, app scenario.Application, pol scenario.Policy) *scenario.Scenario {
	t.Helper()
	sc, err := scenario.New(sys, app, pol)
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

func evaluate(t testing.TB, sc *scenario.Scenario, s *Settings, interval float64) Result {
	t.Helper()
	m, err := New(context.Background(), sc, s)
	if err != nil {
		t.Fatal(err)
	}
	r, err := m.Evaluate(context.Background(), interval)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestOneProcessorClosedForm(t *testing.T) {
	for _, tc := range []struct {
		name                   string
		mttf, mttr, i, l, c, r float64
	}{
		// The specification's example: λ = 1/3600, θ = 1/600, I = 600,
		// L = C = 60.6, R = 30 gives A = 0.69164.
		{"spec example", 3600, 600, 600, 60.6, 60.6, 30},
		{"C < L", 3600, 600, 600, 60.6, 20, 30},
		{"C = 0", 86400, 3600, 7200, 300, 0, 120},
		{"reliable", 1e9, 60, 3600, 10, 10, 5},
		{"fragile", 100, 1000, 10, 5, 5, 50},
		{"long interval", 86400, 3600, 1e6, 600, 300, 600},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sys := scenario.System{Processors: 1, MTTF: tc.mttf, MTTR: tc.mttr}
			sc := mustScenario(t, sys, constApp(1, 2.5, tc.l, tc.c, tc.r), scenario.Policy{})
			want := testmodel.OneProcessorAvailability(1/tc.mttf, 1/tc.mttr, tc.i, tc.l, tc.c, tc.r)
			for _, exact := range []bool{true, false} {
				r := evaluate(t, sc, &Settings{Exact: exact}, tc.i)
				if d := math.Abs(r.Availability-want) / want; d > 1e-12 {
					t.Errorf("exact=%v: A = %.16g, closed form %.16g (rel %g)", exact, r.Availability, want, d)
				}
				if d := math.Abs(r.UWT-2.5*want) / want; d > 1e-12 {
					t.Errorf("exact=%v: UWT = %.16g, want ω(1)·A = %.16g", exact, r.UWT, 2.5*want)
				}
			}
		})
	}
	// The printed example value, to its five digits.
	if a := testmodel.OneProcessorAvailability(1.0/3600, 1.0/600, 600, 60.6, 60.6, 30); math.Abs(a-0.69164) > 5e-6 {
		t.Errorf("closed form at the example = %v, specification says 0.69164", a)
	}
}

// With repairs far faster than failures, every failed processor is back
// before the next failure matters, so a moldable job on a of N processors
// behaves as one processor that fails at rate aλ and is never down: the
// one-processor closed form with λ → aλ and θ → ∞. The neglected terms
// are O(λ/θ) (probability that a repair is still pending).
func TestInstantRepairLimit(t *testing.T) {
	for _, tc := range []struct {
		n, a             int
		mttf, i, l, c, r float64
	}{
		{4, 4, 86400, 3600, 60, 60, 30},
		{6, 3, 3600, 600, 20, 10, 40},
		{10, 7, 50000, 1800, 100, 50, 200},
	} {
		const mttr = 1e-5 // seconds: θ/λ ≥ 3.6e8
		sys := scenario.System{Processors: tc.n, MTTF: tc.mttf, MTTR: mttr}
		sc := mustScenario(t, sys, constApp(tc.n, 1, tc.l, tc.c, tc.r), scenario.Policy{Kind: scenario.Moldable, Processors: tc.a})
		lam := float64(tc.a) / tc.mttf
		want := lam * (tc.i + tc.l - tc.c) * math.Exp(-lam*(tc.i+2*tc.l+tc.r)) / -math.Expm1(-lam*(tc.i+tc.l))
		tol := 10 * float64(tc.n) * mttr / tc.mttf * math.Max(1, lam*(tc.i+tc.l)) // O(λ/θ)
		tol = math.Max(tol, 1e-11)
		for _, exact := range []bool{true, false} {
			got := evaluate(t, sc, &Settings{Exact: exact}, tc.i).Availability
			if d := math.Abs(got-want) / want; d > tol {
				t.Errorf("N=%d a=%d exact=%v: A = %.15g, limit %.15g (rel %g > %g)", tc.n, tc.a, exact, got, want, d, tol)
			}
		}
	}
}

// Without failures (λ → 0) the job is always up and commits
// ω(a)(I + L − C) every I + L seconds. For the greedy policy a = N − 1 in
// the long run: the start state U(N, 0) is transient, and after a failure
// the repaired processor waits as a spare until the next failure, which
// again leaves N − 1 functional (specification, section 3).
func TestFailureFreeLimit(t *testing.T) {
	const n, i, l, c = 8, 3000, 100, 40
	sys := scenario.System{Processors: n, MTTF: 1e18, MTTR: 3600}
	app := constApp(n, 1.5, l, c, 20)
	for _, tc := range []struct {
		pol scenario.Policy
		a   int
	}{
		{scenario.Policy{Kind: scenario.Moldable, Processors: 5}, 5},
		{scenario.Policy{Kind: scenario.Greedy}, n - 1},
	} {
		sc := mustScenario(t, sys, app, tc.pol)
		want := app.WorkRate[tc.a-1] * (i + l - c) / (i + l)
		for _, exact := range []bool{true, false} {
			got := evaluate(t, sc, &Settings{Exact: exact}, i).UWT
			if d := math.Abs(got-want) / want; d > 1e-12 {
				t.Errorf("%v exact=%v: UWT = %.15g, failure-free %.15g (rel %g)", tc.pol, exact, got, want, d)
			}
		}
	}
}

// For a moldable policy every up state runs on a processors, so
// UWT = ω(a)·A exactly (specification, section 6).
func TestMoldableUWTIsRateTimesAvailability(t *testing.T) {
	sys := scenario.System{Processors: 12, MTTF: 20 * 3600, MTTR: 4 * 3600}
	for a := 1; a <= 12; a += 3 {
		app := constApp(12, 0.7, 90, 90, 30)
		sc := mustScenario(t, sys, app, scenario.Policy{Kind: scenario.Moldable, Processors: a})
		r := evaluate(t, sc, nil, 1800)
		want := app.WorkRate[a-1] * r.Availability
		if d := math.Abs(r.UWT-want) / want; d > 1e-13 {
			t.Errorf("a=%d: UWT = %v, ω(a)·A = %v", a, r.UWT, want)
		}
	}
}

// testScenarios covers greedy, PB, moldable and explicit vectors, C < L,
// vector and matrix recovery costs and rate regimes; shared by the tests
// that compare two computations of the same model.
func testScenarios(t testing.TB) map[string]*scenario.Scenario {
	t.Helper()
	out := map[string]*scenario.Scenario{}
	hpc := scenario.System{Processors: 16, MTTF: 100 * 86400, MTTR: 3600}
	flaky := scenario.System{Processors: 10, MTTF: 10 * 3600, MTTR: 3600}
	grid := scenario.System{Processors: 12, MTTF: 8 * 3600, MTTR: 4 * 3600}
	out["greedy hpc"] = mustScenario(t, hpc, constApp(16, 1, 120, 120, 60), scenario.Policy{})
	out["greedy flaky C<L"] = mustScenario(t, flaky, constApp(10, 1, 120, 30, 60), scenario.Policy{})
	// Sub-linear speed-up peaking at 7 processors, so PB differs from greedy.
	app := constApp(10, 1, 60, 60, 20)
	for i := range app.WorkRate {
		a := float64(i + 1)
		app.WorkRate[i] = a / (1 + 0.02*a*a)
	}
	out["pb flaky"] = mustScenario(t, flaky, app, scenario.Policy{Kind: scenario.PerformanceBased})
	out["moldable grid"] = mustScenario(t, grid, constApp(12, 1, 60, 60, 60), scenario.Policy{Kind: scenario.Moldable, Processors: 5})
	out["explicit grid"] = mustScenario(t, grid, constApp(12, 1, 60, 60, 60),
		scenario.Policy{Kind: scenario.Explicit, Explicit: []int{0, 0, 2, 2, 4, 4, 4, 8, 8, 8, 8, 12}})
	// Recovery by new count, and a matrix R(p, a) = 10 + |p − a|·5 that
	// charges redistribution.
	rec := constApp(10, 1, 90, 60, 0)
	byNew := make([]float64, 10)
	mat := make([][]float64, 10)
	for p := range 10 {
		byNew[p] = 10 + 3*float64(p)
		mat[p] = make([]float64, 10)
		for a := range 10 {
			mat[p][a] = 10 + 5*math.Abs(float64(p-a))
		}
	}
	rec.Recovery = scenario.RecoveryByNew(byNew)
	out["greedy recovery vector"] = mustScenario(t, flaky, rec, scenario.Policy{})
	rec.Recovery = scenario.RecoveryMatrix(mat)
	out["greedy recovery matrix"] = mustScenario(t, flaky, rec, scenario.Policy{})
	return out
}

// Pruning single transitions at the default threshold changes UWT by less
// than 1e-9 relative on the test scenarios (the criterion DefaultPrune
// was chosen by).
func TestPruneDefault(t *testing.T) {
	for name, sc := range testScenarios(t) {
		for _, interval := range []float64{600, 3600, 4 * 3600} {
			full := evaluate(t, sc, &Settings{Exact: true, Prune: -1}, interval)
			pruned := evaluate(t, sc, &Settings{Exact: true}, interval)
			if d := math.Abs(pruned.UWT-full.UWT) / full.UWT; d > 1e-9 {
				t.Errorf("%s, I=%v: pruned UWT %v vs %v (rel %g)", name, interval, pruned.UWT, full.UWT, d)
			}
			if pruned.States+pruned.Pruned != full.States {
				t.Errorf("%s: pruned states %d + kept %d ≠ unpruned %d", name, pruned.Pruned, pruned.States, full.States)
			}
		}
	}
}

// A coarse threshold prunes states and changes UWT measurably: the
// pruning is really applied (so TestPruneDefault can fail).
func TestPruneCoarse(t *testing.T) {
	sc := testScenarios(t)["greedy hpc"]
	full := evaluate(t, sc, &Settings{Exact: true, Prune: -1}, 3600)
	coarse := evaluate(t, sc, &Settings{Exact: true, Prune: 1e-2}, 3600)
	if coarse.Pruned == 0 || coarse.States >= full.States {
		t.Errorf("prune 1e-2: %d states pruned, %d kept of %d", coarse.Pruned, coarse.States, full.States)
	}
	if coarse.Dropped <= 0 {
		t.Errorf("prune 1e-2: dropped mass %v, want > 0", coarse.Dropped)
	}
}

func TestWorkersIdentical(t *testing.T) {
	scs := testScenarios(t)
	// Larger chains: the exact path at N = 64, and a desktop-grid-like
	// moldable chain with m = 252 spares.
	scs["exact-sized greedy N=64"] = mustScenario(t, scenario.System{Processors: 64, MTTF: 2 * 86400, MTTR: 4 * 3600},
		constApp(64, 1, 90, 90, 30), scenario.Policy{})
	scs["grid moldable N=256"] = mustScenario(t, scenario.System{Processors: 256, MTTF: 8 * 3600, MTTR: 4 * 3600},
		constApp(256, 1, 60, 60, 60), scenario.Policy{Kind: scenario.Moldable, Processors: 4})
	// Every batch of rows goes to the pool when there are several workers.
	defer func(c int) { inlineCost = c }(inlineCost)
	inlineCost = 0
	for name, sc := range scs {
		for _, exact := range []bool{true, false} {
			one := evaluate(t, sc, &Settings{Exact: exact, Workers: 1}, 2000)
			many := evaluate(t, sc, &Settings{Exact: exact, Workers: 7}, 2000)
			if one.UWT != many.UWT || one.Availability != many.Availability {
				t.Errorf("%s exact=%v: 1 worker %v, 7 workers %v", name, exact, one.UWT, many.UWT)
			}
		}
	}
}

func TestBadInput(t *testing.T) {
	sc := testScenarios(t)["greedy hpc"]
	for _, tc := range []struct {
		name string
		set  *Settings
		i    float64
		want string
	}{
		{"zero interval", nil, 0, "interval"},
		{"negative interval", nil, -5, "interval"},
		{"NaN interval", nil, math.NaN(), "interval"},
		{"infinite interval", nil, math.Inf(1), "interval"},
		{"tol ≥ 1", &Settings{Tol: 2}, 100, "Tol"},
		{"NaN tol", &Settings{Tol: math.NaN()}, 100, "Tol"},
		{"too many states", &Settings{Exact: true, MaxStates: 10}, 100, "MaxStates"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := New(context.Background(), sc, tc.set)
			if err == nil {
				_, err = m.Evaluate(context.Background(), tc.i)
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one naming %q", err, tc.want)
			}
		})
	}
	if _, err := New(context.Background(), nil, nil); err == nil {
		t.Error("nil scenario accepted")
	}
	bad := *sc
	bad.Reschedule = append(bad.Reschedule[:0:0], bad.Reschedule...)
	bad.Reschedule[3] = 9 // r(4) = 9 > 4
	if _, err := New(context.Background(), &bad, nil); err == nil || !strings.Contains(err.Error(), "r(4)") {
		t.Errorf("r(4) > 4: error %v", err)
	}
}

func TestCancel(t *testing.T) {
	sc := testScenarios(t)["greedy hpc"]
	m, err := New(context.Background(), sc, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := m.Optimize(ctx, nil); err == nil {
		t.Error("Optimize on a cancelled context returned no error")
	}
	for _, exact := range []bool{false, true} {
		if _, err := New(ctx, sc, &Settings{Exact: exact}); !errors.Is(err, context.Canceled) {
			t.Errorf("New (exact %v) on a cancelled context: error %v", exact, err)
		}
	}
}
