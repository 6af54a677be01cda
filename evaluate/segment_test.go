package evaluate

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/ckpt-markov/markov/scenario"
	"github.com/ckpt-markov/markov/trace"
	"github.com/ckpt-markov/markov/uwt"
)

const day = 86400.0

// quietTrace has n nodes over [0, 300 days): node i fails at day
// 5 + 10k + i/10 (k = 0 … 9) for two hours, so the history before day 100
// holds 10n failures, and nothing fails after day 100.
func quietTrace(t testing.TB, n int) *trace.Trace {
	nodes := make([]trace.Node, n)
	for i := range nodes {
		nodes[i] = trace.Node{Start: 0, End: 300 * day}
		for k := range 10 {
			at := (5 + 10*float64(k) + float64(i)/10) * day
			nodes[i].Down = append(nodes[i].Down, trace.Interval{Start: at, End: at + 7200})
		}
	}
	return newTrace(t, nodes)
}

// TestEfficiencyFailureFree checks the sweep and the efficiency on
// failure-free segments, where the work is known in closed form. On a
// processors with no failure, k commits of an up segment of I + L seconds
// fit in d seconds when k(I + L) ≤ d and yield W = k·ω(a)(I + L − C) ≤
// ω(a)(d − k·C): the most work is ω(a)(d − C), with the single segment
// I = d − L, and no other interval reaches it.
func TestEfficiencyFailureFree(t *testing.T) {
	const l, c = 60.0, 50.0
	tr := quietTrace(t, 4)
	app := flatApp([]float64{1, 2, 3, 4}, l, c, 30)
	ctx := context.Background()
	t0 := 100 * day
	first, err := EvaluateSegment(ctx, tr, app, Segment{Start: t0, Duration: 10 * day}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if first.Used != 4 {
		t.Fatalf("greedy uses %d processors, want 4", first.Used)
	}

	// The sweep finds the top of the best plateau of the doubling scan up
	// to its resolution. With interval g, k = ⌊d/(g + L)⌋ segments commit
	// W(g) = k·ω(I + L − C); the plateau of k commits ends at
	// x = d/k − L, where W = ω(d − kC). For the best scan point g, x lies
	// in [g, 2g) (a larger x would make 2g a better scan point), inside
	// the first refinement [g/2, 2g]; two refinements of 16 points narrow
	// the step ratio to (4^(1/15))^(2/15) = 1.0124, so the sweep reaches
	// W ≥ ω·k·(x/1.0124 + L − C).
	for _, d := range []float64{0.4 * day, 1 * day, 3.7 * day, 10 * day} {
		res, err := EvaluateSegment(ctx, tr, app, Segment{Start: t0, Duration: d}, nil)
		if err != nil {
			t.Fatal(err)
		}
		bestW, bestK := 0.0, 0.0
		for g := 300.0; g <= d; g *= 2 {
			k := math.Floor(d / (g + l))
			if w := 4 * k * (g + l - c); w > bestW {
				bestW, bestK = w, k
			}
		}
		x := d/bestK - l
		low, most := 4*bestK*(x/1.0124+l-c), 4*(d-c)
		if res.Best.Work > most || res.Best.Work < low {
			t.Errorf("d = %v: best work %v, want in [%v, %v]", d, res.Best.Work, low, most)
		}
		t.Logf("d = %v: best %v (%v commits at %v), plateau top %v, global max %v", d, res.Best.Work, res.Best.Commits, res.Best.Interval, 4*(d-bestK*c), most)
		checkOutcomes(t, &res)
	}

	// With d = I* + L the model's interval is the single best segment:
	// efficiency exactly 1, the best work ω(4)(d − C), and I* the best
	// interval. The model's interval depends on the history only.
	d := first.Model.Interval + l
	res, err := EvaluateSegment(ctx, tr, app, Segment{Start: t0, Duration: d}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Model.Interval != first.Model.Interval {
		t.Fatalf("I* = %v, then %v for the same history", first.Model.Interval, res.Model.Interval)
	}
	if want := 4 * (d - c); res.Model.Work != want || res.Model.Commits != 1 {
		t.Errorf("work with I* = %v in %d commits, want %v in 1", res.Model.Work, res.Model.Commits, want)
	}
	if res.Model.Efficiency != 1 || res.Best.Interval != res.Model.Interval {
		t.Errorf("efficiency %v, best interval %v; want 1 and I* = %v", res.Model.Efficiency, res.Best.Interval, res.Model.Interval)
	}
	checkOutcomes(t, &res)
}

// checkOutcomes checks the invariants of a segment result: the best work
// is at least every replayed work and comes from one of the replayed
// intervals, and every efficiency is work / best work.
func checkOutcomes(t *testing.T, res *SegmentResult) {
	t.Helper()
	best := res.Best.Work
	found := false
	for _, p := range res.Sweep {
		if p.Work > best {
			t.Errorf("sweep point %+v beats the best work %v", p, best)
		}
		found = found || (p.Interval == res.Best.Interval && p.Work == best)
	}
	outs := []*Outcome{&res.Model, &res.Paper}
	if res.Young != nil {
		outs = append(outs, res.Young, res.Daly)
	}
	for _, o := range outs {
		if o.Work > best {
			t.Errorf("interval %v: work %v beats the best %v", o.Interval, o.Work, best)
		}
		if best == 0 { // no useful work: no efficiency
			if !math.IsNaN(o.Efficiency) || !res.NoWork() {
				t.Errorf("interval %v: no work, efficiency %v and NoWork %v; want NaN and true", o.Interval, o.Efficiency, res.NoWork())
			}
		} else if want := o.Work / best; o.Efficiency != want || o.Efficiency > 1 || o.Efficiency < 0 {
			t.Errorf("interval %v: efficiency %v, want %v", o.Interval, o.Efficiency, want)
		}
		found = found || (o.Interval == res.Best.Interval && o.Work == best)
	}
	if !found {
		t.Errorf("best interval %v was never replayed", res.Best.Interval)
	}
	if res.Best.Efficiency != 1 && !(best == 0 && math.IsNaN(res.Best.Efficiency)) {
		t.Errorf("best efficiency %v, want 1 (NaN without work)", res.Best.Efficiency)
	}
	if math.Abs(res.Best.Up+res.Best.Recovery+res.Best.Down-res.Duration) > 1e-9*res.Duration {
		t.Errorf("time in states %v + %v + %v, want the duration %v", res.Best.Up, res.Best.Recovery, res.Best.Down, res.Duration)
	}
}

// TestEvaluateSegmentModel checks what EvaluateSegment feeds the model
// and the closed forms: the rates of trace.EstimateRates, I* of
// uwt.Optimize on the scenario built from them, and Young's and Daly's
// intervals written out here (Young 1974: sqrt(2δM); Daly 2006, eq. 37:
// sqrt(2δM)(1 + sqrt(δ/2M)/3 + δ/(18M)) − δ) with M = 1/(aλ̂), δ = C(a).
func TestEvaluateSegmentModel(t *testing.T) {
	tr := quietTrace(t, 4)
	// PB: ω peaks at 2 processors (ties to the smaller count).
	app := flatApp([]float64{1, 3, 2, 3}, 60, 50, 30)
	app.Overhead = []float64{40, 45, 50, 55}
	seg := Segment{Start: 100 * day, Duration: 5 * day}
	res, err := EvaluateSegment(context.Background(), tr, app, seg, &SegmentSettings{Policy: scenario.Policy{Kind: scenario.PerformanceBased}})
	if err != nil {
		t.Fatal(err)
	}
	est, err := trace.EstimateRates(tr, seg.Start, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Estimate != est || res.MTTF != 1/est.Failure.Value || res.MTTR != 1/est.Repair.Value {
		t.Errorf("estimate %+v, MTTF %v, MTTR %v; EstimateRates gives %+v", res.Estimate, res.MTTF, res.MTTR, est)
	}
	if res.Used != 2 {
		t.Errorf("PB uses %d processors, want 2 (ω = 1, 3, 2, 3)", res.Used)
	}
	sc, err := scenario.New(scenario.System{Processors: 4, MTTF: res.MTTF, MTTR: res.MTTR}, app, scenario.Policy{Kind: scenario.PerformanceBased})
	if err != nil {
		t.Fatal(err)
	}
	m, err := uwt.New(context.Background(), sc, nil)
	if err != nil {
		t.Fatal(err)
	}
	opt, err := m.Optimize(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Model.Interval != opt.Interval || res.Paper.Interval != opt.ModelInterval || res.ModelUWT != opt.UWT {
		t.Errorf("I* %v, I_model %v, UWT %v; uwt gives %v, %v, %v", res.Model.Interval, res.Paper.Interval, res.ModelUWT,
			opt.Interval, opt.ModelInterval, opt.UWT)
	}
	mtbf, delta := 1/(2*est.Failure.Value), 45.0
	young := math.Sqrt(2 * delta * mtbf)
	x := delta / (2 * mtbf)
	daly := young*(1+math.Sqrt(x)/3+x/9) - delta
	if math.Abs(res.Young.Interval-young) > 1e-12*young || math.Abs(res.Daly.Interval-daly) > 1e-12*daly {
		t.Errorf("Young %v, Daly %v; want %v, %v", res.Young.Interval, res.Daly.Interval, young, daly)
	}
	checkOutcomes(t, &res)

	// Without checkpoint cost neither closed form applies.
	app.Overhead = make([]float64, 4)
	res, err = EvaluateSegment(context.Background(), tr, app, seg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Young != nil || res.Daly != nil {
		t.Errorf("C = 0: Young %+v, Daly %+v; want nil", res.Young, res.Daly)
	}
	// Nor when the policy does not run on all N processors:
	// r = (1, 2, 2, 0).
	app.Overhead = []float64{40, 45, 50, 55}
	res, err = EvaluateSegment(context.Background(), tr, app, seg, &SegmentSettings{Policy: scenario.Policy{Kind: scenario.Explicit, Explicit: []int{1, 2, 2, 0}}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Used != 0 || res.Young != nil || res.Daly != nil {
		t.Errorf("r(N) = 0: used %d, Young %+v, Daly %+v; want 0, nil, nil", res.Used, res.Young, res.Daly)
	}
	checkOutcomes(t, &res)
}

// TestAvailabilityBased: with the same work rate on every count, failures
// per unit of work grow with the count (distinct failure instants of a
// nodes), so the availability-based policy runs on one processor.
func TestAvailabilityBased(t *testing.T) {
	tr := quietTrace(t, 4)
	app := flatApp([]float64{2, 2, 2, 2}, 60, 60, 30)
	res, err := EvaluateSegment(context.Background(), tr, app, Segment{Start: 100 * day, Duration: 5 * day}, &SegmentSettings{Policy: scenario.Policy{Kind: scenario.AvailabilityBased}, Seed: 9})
	if err != nil {
		t.Fatal(err)
	}
	if res.Used != 1 {
		t.Errorf("AB uses %d processors, want 1", res.Used)
	}
	checkOutcomes(t, &res)
}

func TestEvaluateSegmentErrors(t *testing.T) {
	tr := quietTrace(t, 4)
	app := flatApp([]float64{1, 2, 3, 4}, 60, 50, 30)
	ok := Segment{Start: 100 * day, Duration: day}
	tests := []struct {
		name string
		tr   *trace.Trace
		app  scenario.Application
		seg  Segment
		s    *SegmentSettings
		is   error
	}{
		{name: "nil trace", app: app, seg: ok},
		{name: "app size", tr: tr, app: flatApp([]float64{1, 2}, 60, 50, 30), seg: ok},
		{name: "policy", tr: tr, app: app, seg: ok, s: &SegmentSettings{Policy: scenario.Policy{Kind: -1}}},
		{name: "lookback", tr: tr, app: app, seg: ok, s: &SegmentSettings{Estimate: trace.EstimateSettings{Lookback: -1}}},
		{name: "sweep start", tr: tr, app: app, seg: ok, s: &SegmentSettings{Sweep: Sweep{Start: math.NaN()}}},
		{name: "sweep points", tr: tr, app: app, seg: ok, s: &SegmentSettings{Sweep: Sweep{Points: 2}}},
		{name: "duration", tr: tr, app: app, seg: Segment{Start: 100 * day}},
		{name: "start", tr: tr, app: app, seg: Segment{Start: math.Inf(1), Duration: day}},
		{name: "no history", tr: tr, app: app, seg: Segment{Start: day, Duration: day}, is: trace.ErrTooFewEvents},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := EvaluateSegment(context.Background(), tt.tr, tt.app, tt.seg, tt.s)
			if err == nil {
				t.Fatal("no error")
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("error %v, want one wrapping %v", err, tt.is)
			}
		})
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := EvaluateSegment(ctx, tr, app, ok, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: error %v, want context.Canceled", err)
	}
}

// TestSweepBounds: the sweep's doubling scan starts at StartFraction·I*
// by default, so that it reaches well below the model's interval (issue
// 16: the paper's fixed 5-minute start cannot see a best interval below
// 150 s), and Start, End and StartFraction bound it as documented.
func TestSweepBounds(t *testing.T) {
	// Four nodes failing every hour on average (MTTR 10 minutes) and a
	// cheap checkpoint (L = C = 5 s): Young's interval for a = 4 is
	// sqrt(2·5·900) ≈ 95 s, so I* is a few minutes at most.
	tr := exponentialTrace(t, 4, 3600, 600, 20*day, rand.New(rand.NewPCG(16, 2)))
	app := flatApp([]float64{1, 2, 3, 4}, 5, 5, 10)
	seg := Segment{Start: 10 * day, Duration: day}
	ctx := context.Background()
	res, err := EvaluateSegment(ctx, tr, app, seg, nil)
	if err != nil {
		t.Fatal(err)
	}
	istar := res.Model.Interval
	if istar > 600 {
		t.Fatalf("I* = %v s, want a short interval for this test", istar)
	}
	if first := res.Sweep[0].Interval; !(first < istar/4) {
		t.Errorf("the sweep starts at %v s, not below I*/4 = %v s", first, istar/4)
	}
	t.Logf("I* = %.1f s, the sweep starts at %.1f s", istar, res.Sweep[0].Interval)

	scan := func(sw Sweep) []float64 {
		t.Helper()
		sw.Levels = -1 // the doubling scan alone
		r, err := EvaluateSegment(ctx, tr, app, seg, &SegmentSettings{Sweep: sw})
		if err != nil {
			t.Fatal(err)
		}
		var xs []float64
		for _, p := range r.Sweep {
			xs = append(xs, p.Interval)
		}
		return xs
	}
	// Powers of two times the start: exact in floating point.
	if got := scan(Sweep{Start: 100, End: 1600}); !slices.Equal(got, []float64{100, 200, 400, 800, 1600}) {
		t.Errorf("Start 100, End 1600: %v", got)
	}
	if got := scan(Sweep{StartFraction: 0.5, End: 2 * istar}); !slices.Equal(got, []float64{istar / 2, istar, 2 * istar}) {
		t.Errorf("StartFraction 1/2, End 2I*: %v, want I*/2, I*, 2I* with I* = %v", got, istar)
	}
	// Without End the scan runs to the segment's length.
	got := scan(Sweep{Start: 1000})
	if last := got[len(got)-1]; last > seg.Duration || 2*last <= seg.Duration {
		t.Errorf("Start 1000: last scan point %v, want the last doubling ≤ %v", last, seg.Duration)
	}
	for _, bad := range []Sweep{{Start: -1}, {Start: math.Inf(1)}, {StartFraction: 1.5}, {StartFraction: -0.1},
		{End: math.NaN()}, {Start: 100, End: 50}, {Points: MaxSweepPoints + 1}, {Levels: 21}} {
		if _, err := EvaluateSegment(ctx, tr, app, seg, &SegmentSettings{Sweep: bad}); err == nil {
			t.Errorf("sweep %+v: no error", bad)
		}
	}
}
