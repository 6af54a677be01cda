package evaluate

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/ckpt-markov/markov/scenario"
	"github.com/ckpt-markov/markov/sim"
	"github.com/ckpt-markov/markov/trace"
	"github.com/ckpt-markov/markov/uwt"
)

// newTrace builds a trace or fails the test.
func newTrace(t testing.TB, nodes []trace.Node) *trace.Trace {
	t.Helper()
	tr, err := trace.New(nodes)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// newScenario builds a scenario or fails the test.
func newScenario(t testing.TB, n int, app scenario.Application, pol scenario.Policy) *scenario.Scenario {
	t.Helper()
	sc, err := scenario.New(scenario.System{Processors: n, MTTF: 86400, MTTR: 3600}, app, pol)
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// flatApp is an application on n processors with work rate ω(a) = rate[a−1],
// latency L and overhead C the same on every count, and a constant
// recovery cost r.
func flatApp(rate []float64, l, c, r float64) scenario.Application {
	n := len(rate)
	app := scenario.Application{WorkRate: rate, Latency: make([]float64, n), Overhead: make([]float64, n),
		Recovery: scenario.RecoveryConstant(r, n)}
	for i := range n {
		app.Latency[i], app.Overhead[i] = l, c
	}
	return app
}

// TestSimulateHandCounted replays segments whose every commit is counted
// by hand in the comments (docs/model.md section 3 for the timeline).
func TestSimulateHandCounted(t *testing.T) {
	const t0 = 50000
	// Four nodes, greedy, ω = 1, 2, 3, 4, L = C = 10, R = 20, I = 90:
	// an up segment lasts 100 s and commits ω(a)·90.
	//   node 0: an outage in the history, and a zero-length outage at
	//           t0+450 (a failure repaired at once);
	//   node 1: down over t0+700 … t0+800, and an outage after the segment;
	//   node 2: down at the start (outage t0−1000 … t0+300);
	//   node 3: in production over t0+550 … t0+950 only.
	// Relative times:
	//   0–400    a = 2 (nodes 0, 1): 4 commits of 180 = 720; node 2 comes
	//            back at 300 as a spare.
	//   450      node 0 fails (and is repaired at once): interrupted in
	//            [400, 500); n = 3 → recover on 3: 20 + 10 = 30 s.
	//   480–680  two commits of 270 = 540 (node 3 enters at 550, spare);
	//   700      node 1 fails in [680, 780): n = 3 (0, 2, 3) → recover on 3.
	//   730–930  two commits of 270 = 540 (node 1 back at 800, spare);
	//   950      node 3 leaves production in [930, 1030): interrupted;
	//            n = 3 (0, 1, 2) → recovery [950, 980), up from 980.
	// Work 720 + 540 + 540 = 1800, 8 commits, 3 interruptions, up
	// 450 + 220 + 220 + 20 = 910 s, recovery 90 s, no down time, and 7
	// events (repair 300, failure and repair 450, entry 550, failure 700,
	// repair 800, exit 950).
	greedy := []trace.Node{
		{Start: 0, End: 100000, Down: []trace.Interval{{Start: 10000, End: 12000}, {Start: t0 + 450, End: t0 + 450}}},
		{Start: 0, End: 100000, Down: []trace.Interval{{Start: t0 + 700, End: t0 + 800}, {Start: t0 + 1500, End: t0 + 1600}}},
		{Start: 0, End: 100000, Down: []trace.Interval{{Start: t0 - 1000, End: t0 + 300}}},
		{Start: t0 + 550, End: t0 + 950},
	}
	// Two nodes, moldable on 2 (r(1) = 0), ω = 1, 2, L = C = 10, R = 5,
	// I = 90. Node 0 is down over 150 … 400:
	//   0–100    one commit of 180;
	//   150      interrupted; n = 1, r(1) = 0: down until 400;
	//   400      recover on 2: 5 + 10 = 15 s;
	//   415–915  five commits of 180; [915, 1015) is cut by the end.
	// Work 6·180 = 1080, up 150 + 585 = 735 s, down 250 s, recovery 15 s.
	moldable := []trace.Node{
		{Start: 0, End: 100000, Down: []trace.Interval{{Start: t0 + 150, End: t0 + 400}}},
		{Start: 0, End: 100000},
	}
	tests := []struct {
		name  string
		nodes []trace.Node
		app   scenario.Application
		pol   scenario.Policy
		want  Replay
	}{
		{
			name:  "greedy",
			nodes: greedy,
			app:   flatApp([]float64{1, 2, 3, 4}, 10, 10, 20),
			pol:   scenario.Policy{Kind: scenario.Greedy},
			want: Replay{Interval: 90, Initial: 2, Totals: sim.Totals{Time: 1000, Work: 1800, Useful: 720,
				Up: 910, Recovery: 90, Failures: 3, Commits: 8, Events: 7}},
		},
		{
			name:  "moldable",
			nodes: moldable,
			app:   flatApp([]float64{1, 2}, 10, 10, 5),
			pol:   scenario.Policy{Kind: scenario.Moldable, Processors: 2},
			want: Replay{Interval: 90, Initial: 2, Totals: sim.Totals{Time: 1000, Work: 1080, Useful: 540,
				Up: 735, Recovery: 15, Down: 250, Failures: 1, Commits: 6, Events: 2}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := newTrace(t, tt.nodes)
			sc := newScenario(t, len(tt.nodes), tt.app, tt.pol)
			got, err := Simulate(tr, sc, 90, Segment{Start: t0, Duration: 1000}, nil)
			if err != nil {
				t.Fatal(err)
			}
			// Every quantity is a sum of a few integers: exact.
			got.Functional = 0 // not counted by hand
			if got != tt.want {
				t.Errorf("got  %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

// TestRuleMatters replays a crafted trace where the choice of nodes
// decides the work. Three nodes, moldable on one, ω(1) = 1, L = C = 10,
// R = 5, I = 90 (segments of 100 s committing 90). History: node 0 failed
// 3 times, node 1 once, node 2 twice. In the segment node 0 fails at 250
// (back at 260) and node 1 at 550 (back at 560); node 2 never fails.
//
//   - LowestIndex: node 0 commits at 100, 200, fails at 250; recovery on
//     node 1 (15 s) then commits at 365, 465; node 1 fails at 550; recovery
//     on node 0 then commits at 665, 765, 865, 965: 8 commits, 2 failures.
//   - MostReliable: node 1 (1 failure) commits at 100 … 500, fails at 550;
//     now node 0 has 3+1 failures and node 2 has 2: recovery on node 2,
//     commits at 665 … 965: 9 commits, 1 failure.
//   - Random: the first pick is uniform over the three nodes; with node 2
//     (probability 1/3) the run is never interrupted and commits 10 times
//     (100 … 1000; the commit at the end counts).
func TestRuleMatters(t *testing.T) {
	const t0 = 100000
	hist := func(k int) []trace.Interval {
		var d []trace.Interval
		for j := range k {
			d = append(d, trace.Interval{Start: float64(1000 + 10000*j), End: float64(2000 + 10000*j)})
		}
		return d
	}
	nodes := []trace.Node{
		{Start: 0, End: 200000, Down: append(hist(3), trace.Interval{Start: t0 + 250, End: t0 + 260})},
		{Start: 0, End: 200000, Down: append(hist(1), trace.Interval{Start: t0 + 550, End: t0 + 560})},
		{Start: 0, End: 200000, Down: hist(2)},
	}
	tr := newTrace(t, nodes)
	sc := newScenario(t, 3, flatApp([]float64{1, 1, 1}, 10, 10, 5), scenario.Policy{Kind: scenario.Moldable, Processors: 1})
	seg := Segment{Start: t0, Duration: 1000}
	for _, tt := range []struct {
		rule              sim.Rule
		commits, failures int64
	}{
		{sim.LowestIndex{}, 8, 2},
		{sim.MostReliable{}, 9, 1},
		{nil, 9, 1}, // the default is MostReliable
	} {
		got, err := Simulate(tr, sc, 90, seg, &ReplaySettings{Rule: tt.rule})
		if err != nil {
			t.Fatal(err)
		}
		if got.Commits != tt.commits || got.Failures != tt.failures || got.Work != 90*float64(tt.commits) {
			t.Errorf("%v: %d commits, %d failures, work %v; want %d, %d, %v", tt.rule, got.Commits, got.Failures, got.Work,
				tt.commits, tt.failures, 90*float64(tt.commits))
		}
	}
	// A history window that excludes every past failure leaves the
	// MostReliable rule with run counts only: it then starts on node 0
	// (tie, lowest index) as LowestIndex does; after node 0 fails at 250
	// the tie between nodes 1 and 2 goes to node 1, which fails at 550;
	// node 0 (1 failure) and node 2 (0) remain: node 2. Commits at 100,
	// 200, 365, 465, then 665 … 965: 8 commits, 2 failures.
	got, err := Simulate(tr, sc, 90, seg, &ReplaySettings{Rule: sim.MostReliable{}, Lookback: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if got.Commits != 8 || got.Failures != 2 {
		t.Errorf("most reliable, short lookback: %d commits, %d failures; want 8, 2", got.Commits, got.Failures)
	}

	// Random: the run on node 2 alone happens with probability 1/3; over
	// 600 seeds the count is Binomial(600, 1/3): mean 200, sd 11.5; the
	// bounds are ±4 sd. The same seed must give the same run.
	clean := 0
	for seed := range uint64(600) {
		s := &ReplaySettings{Rule: sim.Random{}, Seed: seed}
		a, err := Simulate(tr, sc, 90, seg, s)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := Simulate(tr, sc, 90, seg, s)
		if a != b {
			t.Fatalf("seed %d: two runs differ: %+v, %+v", seed, a, b)
		}
		if a.Failures == 0 {
			clean++
			if a.Commits != 10 {
				t.Errorf("seed %d: uninterrupted run has %d commits, want 10", seed, a.Commits)
			}
		}
	}
	if clean < 154 || clean > 246 {
		t.Errorf("random rule: %d of 600 runs on the reliable node, want about 200 (154 … 246)", clean)
	}
}

// TestSegmentEventsMatchTrace checks the conversion of a trace to
// processor events against trace.Trace.Up: replaying the initial state
// and the events up to any instant of the segment must give the state the
// trace reports at that instant. The traces are random, with nodes
// entering and leaving production, zero-length outages and outages at the
// window edges.
func TestSegmentEventsMatchTrace(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for trial := range 200 {
		n := 1 + rng.IntN(5)
		nodes := make([]trace.Node, n)
		for i := range nodes {
			start := float64(rng.IntN(50))
			end := start + float64(rng.IntN(200))
			nd := trace.Node{Start: start, End: end}
			for range rng.IntN(6) {
				a := start - 5 + float64(rng.IntN(int(end-start)+10))
				b := a + float64(rng.IntN(3)*rng.IntN(20))
				nd.Down = append(nd.Down, trace.Interval{Start: a, End: b})
			}
			nodes[i] = nd
		}
		tr := newTrace(t, nodes)
		seg := Segment{Start: float64(rng.IntN(250)) - 10, Duration: 1 + float64(rng.IntN(250))}
		up, events := segmentEvents(tr, seg)
		state := append([]bool(nil), up...)
		k := 0
		// Integer event times: probe halfway between integers.
		for rel := 0.5; rel < seg.Duration; rel++ {
			for ; k < len(events) && events[k].Time < rel; k++ {
				if state[events[k].Proc] == events[k].Up {
					t.Fatalf("trial %d: event %+v does not change the state", trial, events[k])
				}
				state[events[k].Proc] = events[k].Up
			}
			for i := range n {
				if want := tr.Up(i, seg.Start+rel); state[i] != want {
					t.Fatalf("trial %d: node %d at %v: replayed up = %v, trace says %v", trial, i, seg.Start+rel, state[i], want)
				}
			}
		}
		for i := range n {
			if want := tr.Up(i, seg.Start); up[i] != want {
				t.Fatalf("trial %d: node %d at the start: up = %v, trace says %v", trial, i, up[i], want)
			}
		}
		if _, err := sim.NewListSource(up, events); err != nil {
			t.Fatalf("trial %d: %v", trial, err)
		}
	}
}

// exponentialTrace returns n nodes over [0, horizon) that alternate
// exponential up times of mean mttf and down times of mean mttr, all up
// at 0.
func exponentialTrace(t testing.TB, n int, mttf, mttr, horizon float64, rng *rand.Rand) *trace.Trace {
	nodes := make([]trace.Node, n)
	for i := range nodes {
		nd := trace.Node{Start: 0, End: horizon}
		for at := rng.ExpFloat64() * mttf; at < horizon; {
			end := at + rng.ExpFloat64()*mttr
			nd.Down = append(nd.Down, trace.Interval{Start: at, End: end})
			at = end + rng.ExpFloat64()*mttf
		}
		nodes[i] = nd
	}
	return newTrace(t, nodes)
}

// TestSimulateMatchesModel replays a long synthetic trace of exponential
// processors: the work per second must agree with the exact Markov model
// (package uwt, exact path) within the sampling error. The independent
// segments of the trace give the confidence interval.
func TestSimulateMatchesModel(t *testing.T) {
	const (
		n, mttf, mttr = 4, 5000.0, 1000.0
		interval      = 400.0
		k, length     = 20, 5e6 // segments and their length, seconds
	)
	sc := replayScenario(t)
	want := exactUWT(t, sc, interval)
	tr := exponentialTrace(t, n, mttf, mttr, k*length, rand.New(rand.NewPCG(3, 5)))
	mean, half, sd := replayMean(t, tr, sc, interval, k, length, want)
	if math.Abs(mean-want) > half {
		t.Errorf("replayed UWT %.5f ± %.5f, model %.5f", mean, half, want)
	}
	t.Logf("replayed %.5f ± %.5f, model %.5f", mean, half, want)
	if sd == 0 || half > 0.02*want {
		t.Errorf("sampling error %.5f of %.5f: the test has no power", half, want)
	}
}

// exactUWT is UWT(I) of sc by the exact path of package uwt.
func exactUWT(t testing.TB, sc *scenario.Scenario, interval float64) float64 {
	t.Helper()
	m, err := uwt.New(context.Background(), sc, &uwt.Settings{Exact: true})
	if err != nil {
		t.Fatal(err)
	}
	r, err := m.Evaluate(context.Background(), interval)
	if err != nil {
		t.Fatal(err)
	}
	return r.UWT
}

// replayMean replays sc with interval on k consecutive segments of
// length of tr and returns the mean work per second, the half-width
// of its 99.9 % interval and the standard deviation: t quantile 0.9995 with k − 1 = 19 degrees of
// freedom, 3.883, times the standard error, plus the bias of the lost
// last partial segment of each segment, below (I + L)/length < 1e-4
// relative to want.
func replayMean(t *testing.T, tr *trace.Trace, sc *scenario.Scenario, interval float64, k int, length, want float64) (mean, half, sd float64) {
	t.Helper()
	if k != 20 {
		t.Fatalf("replayMean: the t quantile is for 20 segments, not %d", k)
	}
	var sum, sum2 float64
	for j := range k {
		r, err := Simulate(tr, sc, interval, Segment{Start: float64(j) * length, Duration: length}, nil)
		if err != nil {
			t.Fatal(err)
		}
		u := r.Work / length
		sum += u
		sum2 += u * u
	}
	kf := float64(k)
	mean = sum / kf
	sd = math.Sqrt((sum2 - kf*mean*mean) / (kf - 1))
	return mean, 3.883*sd/math.Sqrt(kf) + 1e-4*want, sd
}

// replayScenario is the scenario of TestSimulateMatchesModel: 4 nodes,
// MTTF 5000 s, MTTR 1000 s, greedy, rates chosen so that every state kind
// occurs (with π = 5/6 the chance that all four nodes are down is
// (1/6)^4 ≈ 8e-4).
func replayScenario(t *testing.T) *scenario.Scenario {
	t.Helper()
	const n = 4
	app := scenario.Application{
		WorkRate: []float64{1, 1.8, 2.5, 3.1},
		Latency:  []float64{20, 25, 30, 35}, Overhead: []float64{15, 20, 25, 30},
		Recovery: scenario.RecoveryConstant(10, n),
	}
	sc, err := scenario.New(scenario.System{Processors: n, MTTF: 5000, MTTR: 1000}, app, scenario.Policy{Kind: scenario.Greedy})
	if err != nil {
		t.Fatal(err)
	}
	return sc
}
