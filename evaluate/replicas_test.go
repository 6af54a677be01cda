package evaluate

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/ckpt-markov/markov/replication"
	"github.com/ckpt-markov/markov/scenario"
	"github.com/ckpt-markov/markov/sim"
	"github.com/ckpt-markov/markov/trace/synth"
)

// replicatedApp is docs/examples/volunteer-pairs.json: ω(a) = a on 12
// processors, 10-minute checkpoints and recoveries, two replicas.
func replicatedApp(r int) scenario.Application {
	app := flatApp(fill(12, func(a int) float64 { return float64(a) }), 600, 600, 600)
	app.Replicas = r
	return app
}

func fill(n int, f func(a int) float64) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = f(i + 1)
	}
	return v
}

// TestReplayReplicatedAgainstModel: on synthetic traces of exponential
// up and repair times (MTTF 8 h, MTTR 4 h, 12 nodes), the replay of 4
// processes × 2 replicas (moldable:8, Volpex's Lastval host selection,
// hot spares and co-operative checkpoints in package sim) must commit
// work per second within its 99 % Student-t interval (over 24 independent
// traces of one year each, the first day dropped) of package
// replication's exact UWT at the same interval with the true rates: an
// independent computation (a Markov chain against a replay of traces).
// Exponential hosts are memoryless, so the host rule does not change the
// law the model describes. Power: the same interval must exclude the
// model with one replica (4 unreplicated processes) and with an MTTF 5 %
// off.
func TestReplayReplicatedAgainstModel(t *testing.T) {
	const (
		n, a, r    = 12, 4, 2
		mttf, mttr = 8 * 3600, 4 * 3600
		day        = 86400
		traces     = 24
		year       = 365 * day
	)
	sc, err := scenario.New(scenario.System{Processors: n, MTTF: mttf, MTTR: mttr}, replicatedApp(r), scenario.Policy{Kind: scenario.Moldable, Processors: a * r})
	if err != nil {
		t.Fatal(err)
	}
	m, err := replication.FromScenario(sc, a)
	if err != nil {
		t.Fatal(err)
	}
	opt, err := m.Optimize(0)
	if err != nil {
		t.Fatal(err)
	}
	iv := opt.Interval
	rates := make([]float64, traces)
	for k := range traces {
		res, err := synth.Generate(synth.Config{Nodes: n, Duration: year + day, Up: distuv.Exponential{Rate: 1.0 / mttf}, Repair: distuv.Exponential{Rate: 1.0 / mttr}},
			rand.New(rand.NewPCG(2026, uint64(k))))
		if err != nil {
			t.Fatal(err)
		}
		rp, err := Simulate(res.Trace, sc, iv, Segment{Start: day, Duration: year}, &ReplaySettings{Rule: sim.Lastval{}, Seed: uint64(k)})
		if err != nil {
			t.Fatal(err)
		}
		rates[k] = rp.Work / rp.Time
	}
	mean, sd := stat.MeanStdDev(rates, nil)
	half := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: traces - 1}.Quantile(0.995) * sd / math.Sqrt(traces)
	t.Logf("I* = %.6g s: replay %.6g ± %.2g work/s, model %.6g", iv, mean, half, opt.UWT)
	if math.Abs(opt.UWT-mean) > half {
		t.Errorf("model UWT %.6g outside the replay's 99%% interval %.6g ± %.2g", opt.UWT, mean, half)
	}
	off, fewer := m, m
	off.MTTF *= 0.95
	fewer.Replicas = 1
	for _, alt := range []replication.Model{off, fewer} {
		res, err := alt.UWT(iv)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(res.UWT-mean) <= half {
			t.Errorf("the replay's interval %.6g ± %.2g also holds %.6g (MTTF %v, r = %d): no power", mean, half, res.UWT, alt.MTTF, alt.Replicas)
		}
	}
}

// TestRunReplicated: Run replays a replicated application with the
// moldable policy on a·r processors only (its model's), beside every
// policy of its unreplicated twin; the replicated row's model is package
// replication's optimum at the segment's estimated rates, and a
// replicated application that no policy fits is an error.
func TestRunReplicated(t *testing.T) {
	const n = 12
	res, err := synth.Generate(synth.Config{Nodes: n, Duration: 200 * 86400, Up: distuv.Exponential{Rate: 1.0 / (8 * 3600)}, Repair: distuv.Exponential{Rate: 1.0 / (4 * 3600)}},
		rand.New(rand.NewPCG(7, 7)))
	if err != nil {
		t.Fatal(err)
	}
	set := &Settings{
		Systems:      []System{{Name: "synth", Trace: res.Trace}},
		Applications: []string{"pairs", "single"},
		Resolve: func(name string, _ int) (scenario.Application, error) {
			if name == "pairs" {
				return replicatedApp(2), nil
			}
			return replicatedApp(0), nil
		},
		Policies: []scenario.Policy{{Kind: scenario.Moldable, Processors: 8}, {Kind: scenario.Greedy}},
		Rule:     sim.Lastval{},
		Segments: 3,
		Seed:     1,
	}
	tab, err := Run(context.Background(), set)
	if err != nil {
		t.Fatal(err)
	}
	type key struct{ app, pol string }
	var got []key
	for _, row := range tab.Rows {
		got = append(got, key{row.Application, row.Policy.String()})
		if row.Application != "pairs" {
			continue
		}
		for k := range row.Results {
			sr := &row.Results[k]
			sc, err := scenario.New(scenario.System{Processors: n, MTTF: sr.MTTF, MTTR: sr.MTTR}, replicatedApp(2), scenario.Policy{Kind: scenario.Moldable, Processors: 8})
			if err != nil {
				t.Fatal(err)
			}
			m, err := replication.FromScenario(sc, 4)
			if err != nil {
				t.Fatal(err)
			}
			opt, err := m.Optimize(0)
			if err != nil {
				t.Fatal(err)
			}
			if sr.ModelUWT != opt.UWT || sr.Model.Interval != opt.Interval || !(sr.Model.Work > 0) {
				t.Errorf("segment %d: model UWT %v at I %v (work %v), replication %v at %v", k, sr.ModelUWT, sr.Model.Interval, sr.Model.Work, opt.UWT, opt.Interval)
			}
		}
	}
	want := []key{{"pairs", "moldable:8"}, {"single", "moldable:8"}, {"single", "greedy"}}
	if len(got) != len(want) {
		t.Fatalf("rows %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("row %d: %v, want %v", i, got[i], want[i])
		}
	}
	set.Events.Model = true
	var se *SettingsError
	if _, err := Run(context.Background(), set); !errors.As(err, &se) || se.Field != "Events.Model" {
		t.Errorf("replicas with Events.Model: %v, want a SettingsError on Events.Model", err)
	}
	set.Events.Model = false
	set.Policies = []scenario.Policy{{Kind: scenario.Greedy}}
	if _, err := Run(context.Background(), set); err == nil {
		t.Error("a replicated application with only greedy: no error")
	}
}
