package uwt

import (
	"context"
	"maps"
	"math"
	"slices"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/ckpt-markov/markov/internal/testmodel"
	"github.com/ckpt-markov/markov/scenario"
	"github.com/ckpt-markov/markov/sim"
)

// TestBatchPathSingleSize runs the batch code path (package batchchain's
// rows, the down rows by event, the window from the stationary law of the
// functional count) with sizes [1] on the table scenarios, on both paths,
// and holds it against the single-failure path (binomial closed form):
// UWT and availability agree to 1e-12 relative (issue 13, "Done when").
// The scenario field itself with sizes [1] takes the single-failure path,
// bit for bit (TestBatchSizeOneIsBitForBit).
func TestBatchPathSingleSize(t *testing.T) {
	scs := testScenarios(t)
	for _, name := range slices.Sorted(maps.Keys(scs)) {
		sc := scs[name]
		for _, exact := range []bool{true, false} {
			for _, interval := range []float64{1800, 3 * 3600} {
				set := &Settings{Exact: exact}
				want := evaluate(t, sc, set, interval)
				forceBatch = true
				got := evaluate(t, sc, set, interval)
				forceBatch = false
				for _, v := range []struct {
					what      string
					got, want float64
				}{{"UWT", got.UWT, want.UWT}, {"availability", got.Availability, want.Availability}} {
					if math.Abs(v.got-v.want) > 1e-12*v.want {
						t.Errorf("%s exact=%v I=%v: batch path %s %.15g, closed form %.15g (rel %.2g)",
							name, exact, interval, v.what, v.got, v.want, math.Abs(v.got-v.want)/v.want)
					}
				}
			}
		}
	}
}

// TestBatchSizeOneIsBitForBit: a scenario with failure_events sizes [1]
// (or [1, 0, …]) gives exactly today's UWT.
func TestBatchSizeOneIsBitForBit(t *testing.T) {
	sc := testScenarios(t)["greedy flaky C<L"]
	with := *sc
	with.System.FailureEvents = &scenario.FailureEvents{Sizes: []float64{1, 0, 0}}
	for _, exact := range []bool{true, false} {
		a := evaluate(t, sc, &Settings{Exact: exact}, 1800)
		b := evaluate(t, &with, &Settings{Exact: exact}, 1800)
		if a.UWT != b.UWT || a.Availability != b.Availability {
			t.Errorf("exact=%v: sizes [1, 0, 0] gives UWT %v, without events %v", exact, b.UWT, a.UWT)
		}
	}
}

// batchScenarios are scenarios with failure events of sizes 2–8, N ≤ 64.
func batchScenarios(t testing.TB) map[string]*scenario.Scenario {
	t.Helper()
	sys := func(n int, mttf, mttr float64, sizes ...float64) scenario.System {
		return scenario.System{Processors: n, MTTF: mttf, MTTR: mttr, FailureEvents: &scenario.FailureEvents{Sizes: sizes}}
	}
	out := map[string]*scenario.Scenario{}
	out["greedy N=8 pairs"] = mustScenario(t, sys(8, 10*3600, 3600, 0, 1), constApp(8, 1, 120, 120, 60), scenario.Policy{})
	out["greedy N=16 half in 4s"] = mustScenario(t, sys(16, 8*3600, 2*3600, 0.5, 0, 0, 0.5), constApp(16, 1, 90, 60, 30), scenario.Policy{})
	out["moldable N=24 sizes 2-6"] = mustScenario(t, sys(24, 12*3600, 4*3600, 0.4, 0.2, 0.1, 0.1, 0.1, 0.1), constApp(24, 1, 60, 60, 60),
		scenario.Policy{Kind: scenario.Moldable, Processors: 12})
	app := testmodel.QRLike(32)
	out["pb N=32 sizes 1-8"] = mustScenario(t, sys(32, 24*3600, 3600, 0.3, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1), app, scenario.Policy{Kind: scenario.PerformanceBased})
	rec := constApp(12, 1, 90, 60, 0)
	m := make([][]float64, 12)
	for p := range 12 {
		m[p] = make([]float64, 12)
		for a := range 12 {
			m[p][a] = 10 + 5*math.Abs(float64(p-a))
		}
	}
	rec.Recovery = scenario.RecoveryMatrix(m)
	out["greedy N=12 recovery matrix, triples"] = mustScenario(t, sys(12, 6*3600, 3600, 0.5, 0, 0.5), rec, scenario.Policy{})
	out["explicit N=16 waits, sizes 2-8"] = mustScenario(t, sys(16, 8*3600, 4*3600, 0, 0.2, 0, 0.3, 0, 0.2, 0, 0.3), constApp(16, 1, 60, 60, 45),
		scenario.Policy{Kind: scenario.Explicit, Explicit: []int{0, 0, 0, 4, 4, 4, 4, 8, 8, 8, 8, 8, 12, 12, 12, 12}})
	out["greedy N=64 sizes 1-8"] = mustScenario(t, sys(64, 2*86400, 3600, 0.5, 0, 0, 0.125, 0.125, 0.125, 0, 0.125), testmodel.QRLike(64), scenario.Policy{})
	return out
}

// TestBatchFastMatchesExact: the fast path (windowed uniformization rows,
// a window of functional counts) agrees with the exact path (dense Van
// Loan exponentials of package expm, every state) to 1e-9 relative, the
// agreement TestFastMatchesExact requires of single failures.
func TestBatchFastMatchesExact(t *testing.T) {
	scs := batchScenarios(t)
	for _, name := range slices.Sorted(maps.Keys(scs)) {
		for _, interval := range []float64{600, 3600} {
			exact := evaluate(t, scs[name], &Settings{Exact: true}, interval)
			fast := evaluate(t, scs[name], nil, interval)
			if math.Abs(fast.UWT-exact.UWT) > 1e-9*exact.UWT {
				t.Errorf("%s I=%v: fast %.12g, exact %.12g (rel %.2g)", name, interval, fast.UWT, exact.UWT, math.Abs(fast.UWT-exact.UWT)/exact.UWT)
			}
		}
	}
}

// TestBatchMatchesSimulation: the model with failure events against the
// Monte Carlo simulator run on the same batch process (sim.Batch), 99 %
// intervals of half-width under 0.5 % of UWT, on the seven batch scenarios
// at two intervals (N ≤ 64, sizes 2–8; issue 13, "Done when"). With 14
// checks at 99 %, a miss by chance is not rare (13 % of seed sequences),
// and the simulator's sequentially stopped intervals cover slightly less
// than nominal (measured on two of these scenarios and their
// single-failure twins at I = 1800 s: 3 misses in 160 runs, variance of
// the standardised error 0.8–1.5, mean −0.2 to 0.2). So the test fails if
// more than two checks miss their 99 % interval (probability 4e-4 at
// nominal coverage), if any check is outside its 99.99 % interval (same
// replications, Student-t quantile scaled), or if fewer than four
// scenarios agree at 99 % at both intervals. Power: the single-failure
// model of the same scenario (same MTTF, no events) must fall outside the
// 99 % interval on most checks. The seeds are 101, 102, ... in name order,
// not chosen; with them one check misses its 99 % interval (explicit N=16,
// I = 1800 s, 3.6 standard errors; at RelTol 6e-4 with other seeds the
// model is within 0.7 standard errors).
func TestBatchMatchesSimulation(t *testing.T) {
	if testing.Short() {
		t.Skip("simulation cross-check skipped in -short mode")
	}
	scs := batchScenarios(t)
	names := slices.Sorted(maps.Keys(scs))
	seed := uint64(100)
	var distinguished, checks, misses, agreeing int
	for _, name := range names {
		sc := scs[name]
		ok := true
		for _, interval := range []float64{1800, 3 * 3600} {
			model := evaluate(t, sc, nil, interval)
			seed++
			res, err := sim.Run(context.Background(), sc, interval, &sim.Settings{Seed: seed, RelTol: 0.005, Confidence: 0.99})
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if res.UWT.HalfWidth > 0.005*res.UWT.Mean {
				t.Errorf("%s, I=%v: half-width %v over 0.5 %% of %v (%v)", name, interval, res.UWT.HalfWidth, res.UWT.Mean, res.Status)
			}
			df := float64(res.Replications - 1)
			st := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: df}
			wide := res.UWT.HalfWidth * st.Quantile(0.99995) / st.Quantile(0.995)
			checks++
			if !res.UWT.Contains(model.UWT) {
				misses++
				ok = false
			}
			if math.Abs(model.UWT-res.UWT.Mean) > wide {
				t.Errorf("%s, I=%v: model UWT %.6g outside even the simulation's 99.99 %% interval %.6g ± %.3g",
					name, interval, model.UWT, res.UWT.Mean, wide)
			}
			single := *sc
			single.System.FailureEvents = nil
			alt := evaluate(t, &single, nil, interval)
			if !res.UWT.Contains(alt.UWT) {
				distinguished++
			}
			t.Logf("%s I=%v: model %.6g, sim %.6g ± %.2g (99 %%), single-failure model %.6g", name, interval, model.UWT, res.UWT.Mean, res.UWT.HalfWidth, alt.UWT)
		}
		if ok {
			agreeing++
		}
	}
	if misses > 2 {
		t.Errorf("%d of %d checks outside the 99 %% interval", misses, checks)
	}
	if agreeing < 4 {
		t.Errorf("only %d scenarios agree at 99 %% at both intervals, want at least 4", agreeing)
	}
	if distinguished < checks/2 {
		t.Errorf("the single-failure model fell outside the interval on only %d of %d checks: the test cannot tell batches apart", distinguished, checks)
	}
}
