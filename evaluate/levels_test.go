package evaluate

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/ckpt-markov/markov/multilevel"
	"github.com/ckpt-markov/markov/scenario"
	"github.com/ckpt-markov/markov/trace"
)

// synthSeverityTrace returns a trace of n nodes over [0, span): each node
// fails at rate lambda while up; a failure is a software one (severity 1
// under trace.DefaultSeverityMap(2)) with probability f1, repaired at once
// (a zero-length outage: the process crash of docs/model.md section 12,
// which takes no processor down), and otherwise a hardware one (severity
// 2) with an exponential repair of mean mttr.
func synthSeverityTrace(t *testing.T, rng *rand.Rand, n int, span, lambda, f1, mttr float64) *trace.Trace {
	t.Helper()
	return synthCauseTrace(t, rng, n, span, lambda, mttr, []float64{f1, 1 - f1}, []trace.Cause{trace.Software, trace.Hardware})
}

// synthCauseTrace returns a trace of n nodes over [0, span): each node
// fails at rate lambda while up, with cause causes[i] with probability
// shares[i]. A software failure is repaired at once (a process crash,
// severity 1 under trace.DefaultSeverityMap), any other after an
// exponential repair of mean mttr.
func synthCauseTrace(t *testing.T, rng *rand.Rand, n int, span, lambda, mttr float64, shares []float64, causes []trace.Cause) *trace.Trace {
	t.Helper()
	nodes := make([]trace.Node, n)
	for i := range nodes {
		nd := trace.Node{Start: 0, End: span}
		at := 0.0
		for {
			at += rng.ExpFloat64() / lambda
			if at >= span {
				break
			}
			c, u := len(shares)-1, rng.Float64()
			for k, f := range shares {
				if u < f {
					c = k
					break
				}
				u -= f
			}
			iv := trace.Interval{Start: at, End: at, Cause: causes[c]}
			if iv.Cause != trace.Software {
				iv.End = math.Min(at+rng.ExpFloat64()*mttr, span)
			}
			nd.Down = append(nd.Down, iv)
			at = iv.End
		}
		nodes[i] = nd
	}
	tr, err := trace.New(nodes)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// twoLevelApp is an application of n processors with two checkpoint
// levels of constant costs: level 1 c1 seconds, level 2 c2 (latency =
// overhead = recovery), work rate a^0.9.
func twoLevelApp(n int, c1, c2 float64) scenario.Application {
	return levelsApp(n, c1, c2)
}

// levelsApp is an application of n processors with one checkpoint level
// per cost, of constant costs (latency = overhead = recovery), level 1
// the first, work rate a^0.9.
func levelsApp(n int, costs ...float64) scenario.Application {
	var work []float64
	for k := 1; k <= n; k++ {
		work = append(work, math.Pow(float64(k), 0.9))
	}
	app := scenario.Application{WorkRate: work}
	for _, c := range costs {
		lat := make([]float64, n)
		for k := range lat {
			lat[k] = c
		}
		app.Levels = append(app.Levels, scenario.Level{Latency: lat, Overhead: lat, Recovery: scenario.RecoveryConstant(c, n)})
	}
	return app
}

// TestLevelsReplayMatchesModel is the oracle of the multi-level replay:
// on a synthetic trace drawn from known rates and known severity shares,
// the work per second replayed with the model's joint optimum (and with
// its best single-level schedule), each failure's severity taken from the
// trace's causes, agrees with package multilevel's UWT within the
// replay's confidence interval (K independent segments, z = 3.29: 99.9 %),
// on one node, under greedy on four nodes and moldable:2 of four (spares
// and long repairs), and with three levels and failures of every
// severity under greedy and the vector (1, 2, 2, 4) on four nodes (the
// positional chain of docs/model.md section 12: a hardware failure
// restores a level-2 checkpoint inside the period).
// Power check: the model given the wrong severity shares predicts a UWT
// for the same schedule that the interval rejects.
func TestLevelsReplayMatchesModel(t *testing.T) {
	const (
		z    = 3.29
		K    = 24
		span = 20 * 86400.0
	)
	for _, tc := range []struct {
		name       string
		n          int
		mttf, mttr float64
		shares     []float64
		costs      []float64
		wrong      []float64
		seed       uint64
		policy     scenario.Policy
	}{
		{"one node", 1, 2 * 3600, 3600, []float64{0.75, 0.25}, []float64{10, 150}, []float64{0.4, 0.6}, 1, scenario.Policy{}},
		{"greedy on 4", 4, 8 * 3600, 2 * 3600, []float64{0.8, 0.2}, []float64{5, 120}, []float64{0.5, 0.5}, 2, scenario.Policy{}},
		{"moldable:2 of 4", 4, 4 * 3600, 8 * 3600, []float64{0.7, 0.3}, []float64{5, 120}, []float64{0.4, 0.6}, 3, scenario.Policy{Kind: scenario.Moldable, Processors: 2}},
		{"three levels, greedy on 4", 4, 6 * 3600, 2 * 3600, []float64{0.6, 0.3, 0.1}, []float64{5, 30, 300}, []float64{0.3, 0.3, 0.4}, 4, scenario.Policy{}},
		{"three levels, vector (1,2,2,4)", 4, 6 * 3600, 3 * 3600, []float64{0.6, 0.3, 0.1}, []float64{5, 30, 300}, []float64{0.3, 0.3, 0.4}, 5, scenario.Policy{Kind: scenario.Explicit, Explicit: []int{1, 2, 2, 4}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(tc.seed, 7))
			L := len(tc.costs)
			tr := synthCauseTrace(t, rng, tc.n, K*span, 1/tc.mttf, tc.mttr, tc.shares, []trace.Cause{trace.Software, trace.Hardware, trace.Network}[:L])
			app := levelsApp(tc.n, tc.costs...)
			model := func(shares []float64) *multilevel.Model {
				sc, err := scenario.New(scenario.System{Processors: tc.n, MTTF: tc.mttf, MTTR: tc.mttr,
					FailureSeverity: &scenario.FailureSeverity{Shares: shares}}, app, tc.policy)
				if err != nil {
					t.Fatal(err)
				}
				m, err := multilevel.New(sc)
				if err != nil {
					t.Fatal(err)
				}
				return m
			}
			truth := tc.shares
			m := model(truth)
			opt, err := m.Optimize(context.Background(), nil)
			if err != nil {
				t.Fatal(err)
			}
			if opt.Pattern[0] == 0 {
				t.Fatalf("the optimum %v uses one level: the case tests nothing", opt.Pattern)
			}
			sc, err := scenario.New(scenario.System{Processors: tc.n, MTTF: tc.mttf, MTTR: tc.mttr,
				FailureSeverity: &scenario.FailureSeverity{Shares: truth}}, app, tc.policy)
			if err != nil {
				t.Fatal(err)
			}
			wrong := model(tc.wrong)
			for _, sched := range []multilevel.Result{opt.Result, opt.SingleLevel} {
				run := *sc
				run.CheckpointPattern = sched.Pattern
				var sum, sum2 float64
				for k := range K {
					rp, _, err := newLevelsReplayer(tr, Segment{Start: float64(k) * span, Duration: span}, ReplaySettings{}, trace.DefaultSeverityMap(L), 0)
					if err != nil {
						t.Fatal(err)
					}
					r, err := rp.run(&run, sched.Interval)
					if err != nil {
						t.Fatal(err)
					}
					u := r.Work / span
					sum += u
					sum2 += u * u
				}
				mean := sum / K
				hw := z * math.Sqrt((sum2-K*mean*mean)/(K-1)/K)
				if d := math.Abs(mean - sched.UWT); d > hw {
					t.Errorf("pattern %v, I = %.1f s: replayed UWT %.5f ± %.5f, model %.5f (off by %.2g)", sched.Pattern, sched.Interval, mean, hw, sched.UWT, d)
				}
				w, err := wrong.Evaluate(sched.Pattern, sched.Interval)
				if err != nil {
					t.Fatal(err)
				}
				if math.Abs(mean-w.UWT) <= hw {
					t.Errorf("pattern %v: the model with shares %v (UWT %.5f) is not rejected by %.5f ± %.5f: no power", sched.Pattern, tc.wrong, w.UWT, mean, hw)
				}
				t.Logf("pattern %v, I = %.1f s: replay %.5f ± %.5f, model %.5f, wrong shares %.5f", sched.Pattern, sched.Interval, mean, hw, sched.UWT, w.UWT)
			}
		})
	}
}

// TestRunLevels runs the multi-level table on a synthetic trace of known
// severity shares: every segment's shares estimated from its history lie
// within 4 binomial standard deviations of the truth (the history holds
// hundreds of events), the table is the same whatever the worker count,
// and a one-level application, a mapping or shares of the wrong L, a bad
// pattern and the optimal policy are refused naming their field.
func TestRunLevels(t *testing.T) {
	const (
		n    = 4
		mttf = 8 * 3600.0
		f1   = 0.8
	)
	rng := rand.New(rand.NewPCG(5, 7))
	tr := synthSeverityTrace(t, rng, n, 120*86400, 1/mttf, f1, 2*3600)
	settings := func(workers int) *Settings {
		return &Settings{
			Systems:      []System{{Name: "synth", Trace: tr}},
			Applications: []string{"two"},
			Resolve: func(_ string, k int) (scenario.Application, error) {
				return twoLevelApp(k, 5, 120), nil
			},
			Segments: 4, MinDuration: 5 * 86400, MaxDuration: 10 * 86400,
			Seed: 3, Workers: workers,
		}
	}
	one, err := RunLevels(context.Background(), settings(1), nil)
	if err != nil {
		t.Fatal(err)
	}
	two, err := RunLevels(context.Background(), settings(2), nil)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(one, two) {
		t.Error("the table depends on the worker count")
	}
	row := one.Rows[0]
	if row.Status != Evaluated || len(row.Results) != 4 {
		t.Fatalf("row %+v", row)
	}
	for k, res := range row.Results {
		events := float64(res.Processors) * (res.Start - 0) / mttf
		if sd := math.Sqrt(f1 * (1 - f1) / events); !res.Estimated || math.Abs(res.Severity[0]-f1) > 4*sd {
			t.Errorf("segment %d: estimated shares %v, want f₁ = %v ± %.3f", k, res.Severity, f1, 4*sd)
		}
		if res.MultiLevel.Pattern[0] == 0 || !(res.Gain > -1) {
			t.Errorf("segment %d: pattern %v, gain %v", k, res.MultiLevel.Pattern, res.Gain)
		}
	}
	t.Logf("gain %.4f ± %.4f, replayed UWT %.4f vs model %.4f", row.Gain.Mean, row.Gain.Std, row.UWT.Mean, row.ModelUWT.Mean)

	// Three levels, greedy: software failures are severity 1, hardware 2
	// and network 3 under trace.DefaultSeverityMap(3); each segment's
	// estimated shares lie within 4 binomial standard deviations of the
	// truth, and the model's schedule writes level-2 checkpoints.
	three := []float64{0.6, 0.3, 0.1}
	tr3 := synthCauseTrace(t, rand.New(rand.NewPCG(6, 7)), n, 120*86400, 1/mttf, 2*3600, three, []trace.Cause{trace.Software, trace.Hardware, trace.Network})
	s3 := settings(1)
	s3.Systems = []System{{Name: "synth3", Trace: tr3}}
	s3.Resolve = func(_ string, k int) (scenario.Application, error) { return levelsApp(k, 5, 30, 300), nil }
	tab3, err := RunLevels(context.Background(), s3, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r := tab3.Rows[0]; r.Status != Evaluated || len(r.Results) != 4 {
		t.Fatalf("three levels: row %+v", r)
	}
	for k, res := range tab3.Rows[0].Results {
		events := float64(res.Processors) * res.Start / mttf
		for s, f := range three {
			if sd := math.Sqrt(f * (1 - f) / events); !res.Estimated || len(res.Severity) != 3 || math.Abs(res.Severity[s]-f) > 4*sd {
				t.Errorf("three levels, segment %d: estimated shares %v, want f%d = %v ± %.3f", k, res.Severity, s+1, f, 4*sd)
			}
		}
		if p := res.MultiLevel.Pattern; len(p) != 2 || p[1] == 0 {
			t.Errorf("three levels, segment %d: pattern %v writes no level-2 checkpoint", k, p)
		}
	}

	for _, tc := range []struct {
		name, field string
		set         func(*Settings)
		lv          *Levels
	}{
		{"one level", "application.checkpoint_levels", func(s *Settings) {
			s.Resolve = func(_ string, k int) (scenario.Application, error) { return topLevel(twoLevelApp(k, 5, 120)), nil }
		}, nil},
		{"map of 3 levels", "Levels.Map", func(*Settings) {}, &Levels{Map: trace.DefaultSeverityMap(3)}},
		{"shares of 3 levels", "Levels.Shares", func(*Settings) {}, &Levels{Shares: []float64{0.5, 0.25, 0.25}}},
		{"pattern of 2 entries", "Levels.Pattern", func(*Settings) {}, &Levels{Pattern: []int{1, 2}}},
		{"negative pattern", "Levels.Pattern", func(*Settings) {}, &Levels{Pattern: []int{-1}}},
		{"optimal", "Policy", func(s *Settings) { s.Policies = []scenario.Policy{{Kind: scenario.Optimal}} }, nil},
	} {
		s := settings(1)
		tc.set(s)
		_, err := RunLevels(context.Background(), s, tc.lv)
		var se *SettingsError
		if !errors.As(err, &se) || se.Field != tc.field {
			t.Errorf("%s: error %v, want one naming %s", tc.name, err, tc.field)
		}
	}
}
