package evaluate

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/ckpt-markov/markov/optimal"
	"github.com/ckpt-markov/markov/scenario"
	"github.com/ckpt-markov/markov/uwt"
)

// TestSimulateIntervalsMatchesModel replays a long synthetic trace of
// exponential processors with the optimal policy's vector and its
// intervals per configuration I(a) (level 3 of docs/optimal-policy.md,
// package optimal): the work per second must agree with the solver's UWT
// of that policy within the sampling error, as TestSimulateMatchesModel
// for one interval. The checkpoint latencies differ twentyfold between
// counts so that the I(a) differ; the test checks that they do, and that
// its interval excludes the UWT of the same vector with one interval.
func TestSimulateIntervalsMatchesModel(t *testing.T) {
	const (
		n, mttf, mttr = 4, 5000.0, 1000.0
		k, length     = 20, 5e6 // segments and their length, seconds
	)
	// Made up so that level 3 beats level 2 by 2 %: cheap checkpoints on
	// 1-2 processors, dear ones on 3-4 (the I(a) differ threefold).
	app := scenario.Application{
		WorkRate: []float64{1, 1.8, 3.2, 3.6},
		Latency:  []float64{5, 10, 150, 200}, Overhead: []float64{4, 8, 140, 180},
		Recovery: scenario.RecoveryConstant(10, n),
	}
	base, err := scenario.New(scenario.System{Processors: n, MTTF: mttf, MTTR: mttr}, app, scenario.Policy{Kind: scenario.Greedy})
	if err != nil {
		t.Fatal(err)
	}
	one, conf, v := levelThree(t, base, &optimal.Settings{Full: true})
	t.Logf("level 2: %.6g at I* = %.1f; level 3: %.6g, r = %v, I(a) = %v, mass %v", one.UWT, one.Interval, conf.UWT, v, conf.Intervals, conf.Mass)
	sc, err := scenario.New(base.System, app, scenario.Policy{Kind: scenario.Explicit, Explicit: v})
	if err != nil {
		t.Fatal(err)
	}
	lo, hi := math.Inf(1), 0.0
	for _, iv := range conf.Intervals {
		lo, hi = min(lo, iv), max(hi, iv)
	}
	if len(conf.Intervals) < 2 || hi < 1.2*lo {
		t.Fatalf("I(a) = %v: not different enough to test per-configuration intervals", conf.Intervals)
	}
	want := conf.UWT
	tr := exponentialTrace(t, n, mttf, mttr, k*length, rand.New(rand.NewPCG(3, 5)))
	set := &ReplaySettings{Intervals: conf.Policy.SegmentInterval}
	var sum, sum2 float64
	differ := false
	for j := range k {
		seg := Segment{Start: float64(j) * length, Duration: length}
		r, err := Simulate(tr, sc, one.Interval, seg, set)
		if err != nil {
			t.Fatal(err)
		}
		single, err := Simulate(tr, sc, one.Interval, seg, nil)
		if err != nil {
			t.Fatal(err)
		}
		differ = differ || single.Work != r.Work
		u := r.Work / length
		sum += u
		sum2 += u * u
	}
	if !differ {
		t.Error("the replay with I(a) is the replay with one interval")
	}
	mean := sum / k
	sd := math.Sqrt((sum2 - k*mean*mean) / (k - 1))
	// t quantile 0.9995 with 19 degrees of freedom (99.9 % two-sided) is
	// 3.883; the lost last segment biases by less than 1e-4 relative (see
	// TestSimulateMatchesModel).
	half := 3.883*sd/math.Sqrt(k) + 1e-4*want
	if math.Abs(mean-want) > half {
		t.Errorf("replayed UWT %.5f ± %.5f, level 3 %.5f", mean, half, want)
	}
	t.Logf("replayed %.5f ± %.5f, level 3 %.5f", mean, half, want)
	if sd == 0 || half > 0.02*want {
		t.Errorf("sampling error %.5f of %.5f: the test has no power", half, want)
	}
	// Power against the bug "one interval for every configuration": the
	// exact UWT of the same vector with the single interval I* must lie
	// outside twice the interval.
	if single := exactUWT(t, sc, one.Interval); math.Abs(single-want) < 2*half {
		t.Errorf("UWT with one interval %.5f is within %.5f of level 3 %.5f: the test cannot tell them apart", single, 2*half, want)
	}
}

// TestEvaluateSegmentOptimal: for the optimal policy a segment's Model is
// the replay with level 3's vector and intervals I(a), solved from the
// segment's estimated rates, ModelUWT is level 3's UWT, and its efficiency
// is against the best single interval (Best, which it does not enter).
// The reference solves level 3 itself from the result's MTTF and MTTR
// (pooled rates) and replays with Simulate.
func TestEvaluateSegmentOptimal(t *testing.T) {
	const n, mttf, mttr = 4, 5000.0, 1000.0
	// The application of TestSimulateIntervalsMatchesModel.
	app := scenario.Application{
		WorkRate: []float64{1, 1.8, 3.2, 3.6},
		Latency:  []float64{5, 10, 150, 200}, Overhead: []float64{4, 8, 140, 180},
		Recovery: scenario.RecoveryConstant(10, n),
	}
	tr := exponentialTrace(t, n, mttf, mttr, 4e6, rand.New(rand.NewPCG(7, 8)))
	seg := Segment{Start: 2e6, Duration: 1e6}
	ctx := context.Background()
	res, err := EvaluateSegment(ctx, tr, app, seg, &SegmentSettings{Policy: scenario.Policy{Kind: scenario.Optimal}, Rates: AllNodes})
	if err != nil {
		t.Fatal(err)
	}
	base, err := scenario.New(scenario.System{Processors: n, MTTF: res.MTTF, MTTR: res.MTTR}, app, scenario.Policy{Kind: scenario.Greedy})
	if err != nil {
		t.Fatal(err)
	}
	_, conf, v := levelThree(t, base, &optimal.Settings{Workers: 1})
	sc, err := scenario.New(base.System, app, scenario.Policy{Kind: scenario.Explicit, Explicit: v})
	if err != nil {
		t.Fatal(err)
	}
	want, err := Simulate(tr, sc, res.Model.Interval, seg, &ReplaySettings{Intervals: conf.Policy.SegmentInterval})
	if err != nil {
		t.Fatal(err)
	}
	if res.ModelUWT != conf.UWT {
		t.Errorf("ModelUWT %.15g, level 3 %.15g", res.ModelUWT, conf.UWT)
	}
	if res.Model.Work != want.Work || res.Model.Commits != want.Commits {
		t.Errorf("Model replay: work %v in %d commits; with I(a) = %v: %v in %d", res.Model.Work, res.Model.Commits, conf.Intervals, want.Work, want.Commits)
	}
	for _, o := range []*Outcome{&res.Paper, res.Young, res.Daly} {
		if o != nil && o.Work > res.Best.Work {
			t.Errorf("single interval %v does %v work, more than the best %v", o.Interval, o.Work, res.Best.Work)
		}
	}
	if e := res.Model.Work / res.Best.Work; res.Model.Efficiency != e {
		t.Errorf("efficiency %v, want W(I(a))/W_best = %v", res.Model.Efficiency, e)
	}
	t.Logf("I(a) = %v, mean %.1f; efficiency %.4f; best single %.1f", conf.Intervals, res.Model.Interval, res.Model.Efficiency, res.Best.Interval)
}

// TestSimulateReconfigureMatchesModel: the trace replay of a scenario
// that reconfigures at checkpoints agrees with package uwt's exact model
// with the option within the sampling error (as TestSimulateMatchesModel
// for the paper's model), and checks its own power: the model without
// the option lies outside twice the interval.
func TestSimulateReconfigureMatchesModel(t *testing.T) {
	const (
		n, mttf, mttr = 4, 5000.0, 1000.0
		interval      = 400.0
		k, length     = 20, 5e6 // segments and their length, seconds
	)
	sc := replayScenario(t) // TestSimulateMatchesModel's
	paper := exactUWT(t, sc, interval)
	sc.Reconfigure = scenario.AtCheckpoint
	want := exactUWT(t, sc, interval)
	tr := exponentialTrace(t, n, mttf, mttr, k*length, rand.New(rand.NewPCG(3, 5)))
	mean, half, _ := replayMean(t, tr, sc, interval, k, length, want)
	if math.Abs(mean-want) > half {
		t.Errorf("replayed UWT %.5f ± %.5f, model with reconfiguration %.5f", mean, half, want)
	}
	if math.Abs(paper-want) < 2*half {
		t.Errorf("the paper's model %.5f is within %.5f of the model with reconfiguration %.5f: no power", paper, 2*half, want)
	}
	t.Logf("replayed %.5f ± %.5f, model %.5f (without the option %.5f)", mean, half, want, paper)
}

// TestEvaluateSegmentReconfigure: SegmentSettings.Reconfigure reaches the
// model and the replay: the segment's ModelUWT is uwt's optimum with the
// option (fresh Model, same fast path: equal to rounding, 1e-12), and the
// replay with I* equals Simulate of the scenario with the option.
func TestEvaluateSegmentReconfigure(t *testing.T) {
	const n, mttf, mttr = 4, 5000.0, 1000.0
	app := scenario.Application{
		WorkRate: []float64{1, 1.8, 2.5, 3.1},
		Latency:  []float64{20, 25, 30, 35}, Overhead: []float64{15, 20, 25, 30},
		Recovery: scenario.RecoveryConstant(10, n),
	}
	tr := exponentialTrace(t, n, mttf, mttr, 4e6, rand.New(rand.NewPCG(9, 10)))
	seg := Segment{Start: 2e6, Duration: 1e6}
	ctx := context.Background()
	res, err := EvaluateSegment(ctx, tr, app, seg, &SegmentSettings{Rates: AllNodes, Reconfigure: scenario.AtCheckpoint})
	if err != nil {
		t.Fatal(err)
	}
	sc, err := scenario.New(scenario.System{Processors: n, MTTF: res.MTTF, MTTR: res.MTTR}, app, scenario.Policy{Kind: scenario.Greedy})
	if err != nil {
		t.Fatal(err)
	}
	sc.Reconfigure = scenario.AtCheckpoint
	m, err := uwt.New(ctx, sc, &uwt.Settings{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	opt, err := m.Optimize(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(res.ModelUWT-opt.UWT) > 1e-12*opt.UWT {
		t.Errorf("ModelUWT %.15g, uwt with the option %.15g", res.ModelUWT, opt.UWT)
	}
	r, err := Simulate(tr, sc, res.Model.Interval, seg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r.Work != res.Model.Work {
		t.Errorf("Model replay work %v, Simulate with the option %v", res.Model.Work, r.Work)
	}
}

// levelThree solves base's optimal policy with one interval (level 2) and
// then with one interval per configuration (level 3), and returns both
// and level 3's vector.
func levelThree(t *testing.T, base *scenario.Scenario, set *optimal.Settings) (optimal.Single, optimal.Configuration, []int) {
	t.Helper()
	ctx := context.Background()
	sv, err := optimal.New(base, set)
	if err != nil {
		t.Fatal(err)
	}
	one, err := sv.SingleInterval(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	conf, err := sv.PerConfiguration(ctx, one, one.Result)
	if err != nil {
		t.Fatal(err)
	}
	v, err := conf.Policy.Vector()
	if err != nil {
		t.Fatal(err)
	}
	return one, conf, v
}
