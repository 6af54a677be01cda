package replication

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/ckpt-markov/markov/optimal"
	"github.com/ckpt-markov/markov/scenario"
	"github.com/ckpt-markov/markov/sim"
	"github.com/ckpt-markov/markov/uwt"
)

func fill(n int, f func(a int) float64) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = f(i + 1)
	}
	return v
}

// replicatedScenario: a processes × r replicas on N processors, moldable
// on a·r, ω(a) = a, L(a) = lat, C = L, R = rec.
func replicatedScenario(t *testing.T, n, a, r int, mttf, mttr, lat, rec float64) *scenario.Scenario {
	t.Helper()
	app := scenario.Application{
		WorkRate: fill(n, func(a int) float64 { return float64(a) }),
		Latency:  fill(n, func(int) float64 { return lat }),
		Recovery: scenario.RecoveryConstant(rec, n),
		Replicas: r,
	}
	app.Overhead = app.Latency
	sc, err := scenario.New(scenario.System{Processors: n, MTTF: mttf, MTTR: mttr}, app, scenario.Policy{Kind: scenario.Moldable, Processors: a * r})
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// TestSingleReplicaIsUWT: with r = 1 the model is the toolkit's model of
// a moldable application (docs/model.md section 3), which package uwt
// solves by a different chain (functional counts, not profiles).
func TestSingleReplicaIsUWT(t *testing.T) {
	for _, c := range []struct {
		n, a           int
		mttf, mttr, iv float64
		lat, rec       float64
	}{
		{8, 4, 36000, 3600, 1800, 60, 120},
		{12, 12, 7200, 600, 600, 30, 30},
		{16, 5, 86400, 86400, 3600, 300, 0},
	} {
		sc := replicatedScenario(t, c.n, c.a, 1, c.mttf, c.mttr, c.lat, c.rec)
		um, err := uwt.New(context.Background(), sc, nil)
		if err != nil {
			t.Fatal(err)
		}
		want, err := um.Evaluate(context.Background(), c.iv)
		if err != nil {
			t.Fatal(err)
		}
		m, err := FromScenario(sc, c.a)
		if err != nil {
			t.Fatal(err)
		}
		got, err := m.UWT(c.iv)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%+v: %.12g vs uwt %.12g", c, got.UWT, want.UWT)
		if d := (got.UWT - want.UWT) / want.UWT; d > 1e-9 || d < -1e-9 {
			t.Errorf("%+v: UWT %.12g, uwt %.12g", c, got.UWT, want.UWT)
		}
	}
}

// TestAgainstSimulation compares the model with package sim's replicated
// runs (the same process, simulated processor by processor) within the
// 99.9 % interval, on scenarios with few spares and slow repairs so that
// partial refills and down periods matter. Power check: the interval
// excludes the model at an MTTF 5 % off and with one replica fewer.
func TestAgainstSimulation(t *testing.T) {
	if testing.Short() {
		t.Skip("simulation")
	}
	for _, c := range []struct {
		n, a, r        int
		mttf, mttr, iv float64
		lat, rec       float64
	}{
		{10, 4, 2, 36000, 7200, 3600, 60, 120},
		{9, 3, 3, 18000, 7200, 3600, 30, 300},
		{12, 5, 2, 72000, 36000, 7200, 120, 60},
		{7, 2, 3, 3600, 3600, 900, 10, 20},
	} {
		sc := replicatedScenario(t, c.n, c.a, c.r, c.mttf, c.mttr, c.lat, c.rec)
		m, err := FromScenario(sc, c.a)
		if err != nil {
			t.Fatal(err)
		}
		got, err := m.UWT(c.iv)
		if err != nil {
			t.Fatal(err)
		}
		res, err := sim.Run(context.Background(), sc, c.iv, &sim.Settings{Seed: 2025, RelTol: 0.003, Confidence: 0.999})
		if err != nil {
			t.Fatal(err)
		}
		// HorizonLimit: the run stopped at its default bound with a wider
		// interval, still honest; the power check below says whether it
		// is narrow enough to mean something.
		if res.Status != sim.Converged && res.Status != sim.HorizonLimit {
			t.Fatalf("%+v: sim status %v", c, res.Status)
		}
		t.Logf("N=%d a=%d r=%d: model %.6g (%d states), sim %.6g ± %.2g", c.n, c.a, c.r, got.UWT, got.States, res.UWT.Mean, res.UWT.HalfWidth)
		if !res.UWT.Contains(got.UWT) {
			t.Errorf("N=%d a=%d r=%d: model %.6g outside the sim's %.6g ± %.2g", c.n, c.a, c.r, got.UWT, res.UWT.Mean, res.UWT.HalfWidth)
		}
		off := m
		off.MTTF *= 0.95
		fewer := m
		fewer.Replicas--
		for _, alt := range []Model{off, fewer} {
			r, err := alt.UWT(c.iv)
			if err != nil {
				t.Fatal(err)
			}
			if res.UWT.Contains(r.UWT) {
				t.Errorf("N=%d a=%d r=%d: the sim's interval %.6g ± %.2g also holds %.6g (MTTF %v, r = %d): no power", c.n, c.a, c.r, res.UWT.Mean, res.UWT.HalfWidth, r.UWT, alt.MTTF, alt.Replicas)
			}
		}
	}
}

// TestOptimizeGrid checks Optimize against a scan of UWT over a
// logarithmic grid of 400 intervals (refined once around the best point):
// the optimum must be at least the grid's best value and its interval
// within one grid cell of the grid's.
func TestOptimizeGrid(t *testing.T) {
	m := Model{Processors: 10, Processes: 4, Replicas: 2, MTTF: 36000, MTTR: 7200, WorkRate: 4, Latency: 60, Overhead: 60, Recovery: 120}
	opt, err := m.Optimize(0)
	if err != nil {
		t.Fatal(err)
	}
	best, bestI := math.Inf(-1), 0.0
	lo, hi := math.Log(10.0), math.Log(1e6)
	const k = 400
	for i := 0; i <= k; i++ {
		iv := math.Exp(lo + (hi-lo)*float64(i)/k)
		r, err := m.UWT(iv)
		if err != nil {
			t.Fatal(err)
		}
		if r.UWT > best {
			best, bestI = r.UWT, iv
		}
	}
	cell := math.Exp((hi - lo) / k)
	t.Logf("Optimize: I* = %.6g s, UWT %.10g; grid: %.6g s, %.10g", opt.Interval, opt.UWT, bestI, best)
	if opt.UWT < best*(1-1e-12) {
		t.Errorf("Optimize UWT %.12g below the grid's %.12g", opt.UWT, best)
	}
	if opt.Interval < bestI/cell || opt.Interval > bestI*cell {
		t.Errorf("Optimize I* = %v, grid %v (cell factor %v)", opt.Interval, bestI, cell)
	}
}

func TestModelErrors(t *testing.T) {
	ok := Model{Processors: 10, Processes: 4, Replicas: 2, MTTF: 36000, MTTR: 7200, WorkRate: 4, Latency: 60, Overhead: 60, Recovery: 120}
	for _, f := range []func(*Model){
		func(m *Model) { m.Processes = 0 },
		func(m *Model) { m.Replicas = 0 },
		func(m *Model) { m.Replicas = scenario.MaxReplicas + 1 },
		func(m *Model) { m.Processors = 7 },
		func(m *Model) { m.MTTF = 0 },
		func(m *Model) { m.MTTR = math.Inf(1) },
		func(m *Model) { m.WorkRate = math.NaN() },
		func(m *Model) { m.Overhead = 61 },
		func(m *Model) { m.Recovery = -1 },
		func(m *Model) { m.Processors, m.Processes, m.Replicas = 1000, 40, 3 }, // too many states
	} {
		m := ok
		f(&m)
		if _, err := m.UWT(600); err == nil {
			t.Errorf("%+v: no error", m)
		}
	}
	for _, iv := range []float64{0, -1, math.Inf(1), math.NaN()} {
		if _, err := ok.UWT(iv); err == nil {
			t.Errorf("interval %v: no error", iv)
		}
	}
}

// TestBestSingleReplica: with maxReplicas = 1, Best must find the best
// moldable count and interval, which package uwt finds independently
// (its own chain and doubling-scan optimiser) count by count.
func TestBestSingleReplica(t *testing.T) {
	const n = 8
	sc := replicatedScenario(t, n, 1, 1, 7200, 3600, 60, 120)
	// Sublinear work so that the best count is inside 1 … N.
	for i := range sc.Application.WorkRate {
		sc.Application.WorkRate[i] = math.Sqrt(float64(i + 1))
	}
	got, err := Best(context.Background(), sc, 1, 1e-8, nil)
	if err != nil {
		t.Fatal(err)
	}
	bestA, bestU := 0, math.Inf(-1)
	for a := 1; a <= n; a++ {
		sa := replicatedScenario(t, n, a, 1, 7200, 3600, 60, 120)
		sa.Application.WorkRate = sc.Application.WorkRate
		um, err := uwt.New(context.Background(), sa, nil)
		if err != nil {
			t.Fatal(err)
		}
		opt, err := um.Optimize(context.Background(), &uwt.OptimizeSettings{RelTol: 1e-8})
		if err != nil {
			t.Fatal(err)
		}
		if opt.UWT > bestU {
			bestA, bestU = a, opt.UWT
		}
	}
	t.Logf("Best: a = %d, I* = %.6g s, UWT %.10g; uwt: a = %d, UWT %.10g", got.Processes, got.Interval, got.UWT, bestA, bestU)
	if got.Processes != bestA || math.Abs(got.UWT-bestU) > 1e-9*bestU {
		t.Errorf("Best a = %d UWT %.12g; uwt a = %d UWT %.12g", got.Processes, got.UWT, bestA, bestU)
	}
	if got.Evaluated+got.Pruned != n || got.Skipped != 0 {
		t.Errorf("evaluated %d, pruned %d, skipped %d", got.Evaluated, got.Pruned, got.Skipped)
	}
}

// TestOtherModelsRefuseReplicas: uwt and optimal model one replica per
// process; a scenario with application.replicas > 1 is an error there,
// not a silent r = 1.
func TestOtherModelsRefuseReplicas(t *testing.T) {
	sc := replicatedScenario(t, 8, 2, 2, 36000, 3600, 60, 120)
	if _, err := uwt.New(context.Background(), sc, nil); err == nil || !strings.Contains(err.Error(), "application.replicas") {
		t.Errorf("uwt.New: %v", err)
	}
	if _, err := optimal.New(sc, nil); err == nil || !strings.Contains(err.Error(), "application.replicas") {
		t.Errorf("optimal.New: %v", err)
	}
}

func TestBestCancelAndProgress(t *testing.T) {
	sc := replicatedScenario(t, 6, 1, 1, 7200, 3600, 60, 120)
	ctx, cancel := context.WithCancel(context.Background())
	calls := 0
	_, err := Best(ctx, sc, 2, 1e-4, func(done, total int) {
		calls++
		if total != 6+3 {
			t.Errorf("total %d, want 9 pairs", total)
		}
		if done == 2 {
			cancel()
		}
	})
	if err != context.Canceled || calls != 2 {
		t.Errorf("Best after cancel: %v after %d pairs; want context.Canceled after 2", err, calls)
	}
	if _, err := Best(context.Background(), sc, 0, 0, nil); err == nil {
		t.Error("maxReplicas 0: no error")
	}
}

// TestBestSingleBeside: Choice.Single is the best r = 1 pair, the pair
// Best finds when it may not replicate, whatever maxReplicas.
func TestBestSingleBeside(t *testing.T) {
	sc := replicatedScenario(t, 6, 1, 1, 7200, 7200, 600, 600)
	one, err := Best(context.Background(), sc, 1, 1e-6, nil)
	if err != nil {
		t.Fatal(err)
	}
	same := func(p, q Pair) bool {
		return p.Processes == q.Processes && p.Replicas == q.Replicas && p.Interval == q.Interval && p.UWT == q.UWT
	}
	if !same(one.Single, one.Pair) {
		t.Errorf("maxReplicas 1: Single %+v, Pair %+v", one.Single, one.Pair)
	}
	three, err := Best(context.Background(), sc, 3, 1e-6, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !same(three.Single, one.Pair) {
		t.Errorf("maxReplicas 3: Single %+v, want the r = 1 best %+v", three.Single, one.Pair)
	}
	if three.UWT < one.UWT {
		t.Errorf("maxReplicas 3: UWT %v below the r = 1 best %v", three.UWT, one.UWT)
	}
}
