package synth_test

import (
	"bytes"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/ckpt-markov/markov/trace"
	"github.com/ckpt-markov/markov/trace/synth"
)

const (
	hour = 3600.0
	day  = 24 * hour
)

func TestGenerateErrors(t *testing.T) {
	ok := synth.Config{Nodes: 4, Duration: day, Up: distuv.Exponential{Rate: 1 / day}, Repair: distuv.Exponential{Rate: 1 / hour}}
	for _, c := range []struct {
		name string
		edit func(*synth.Config)
		want string
	}{
		{"nodes zero", func(c *synth.Config) { c.Nodes = 0 }, "Nodes"},
		{"nodes huge", func(c *synth.Config) { c.Nodes = trace.MaxNodes + 1 }, "Nodes"},
		{"duration zero", func(c *synth.Config) { c.Duration = 0 }, "Duration"},
		{"duration inf", func(c *synth.Config) { c.Duration = math.Inf(1) }, "Duration"},
		{"duration nan", func(c *synth.Config) { c.Duration = math.NaN() }, "Duration"},
		{"up nil", func(c *synth.Config) { c.Up = nil }, "Up"},
		{"up negative", func(c *synth.Config) { c.Up = distuv.Normal{Mu: 0, Sigma: 1} }, "Up"},
		{"repair nan", func(c *synth.Config) { c.Repair = distuv.Exponential{Rate: math.NaN()} }, "Repair"},
		{"cv negative", func(c *synth.Config) { c.RateCV = -1 }, "RateCV"},
		{"cv huge", func(c *synth.Config) { c.RateCV = 11 }, "RateCV"},
		{"grouped above one", func(c *synth.Config) { c.Grouped = 1.5 }, "Grouped"},
		{"grouped without sizes", func(c *synth.Config) { c.Grouped = 0.5 }, "Sizes"},
		{"size one", func(c *synth.Config) { c.Grouped, c.Sizes = 0.5, []float64{0, 1, 1} }, "Sizes[1]"},
		{"sizes too long", func(c *synth.Config) { c.Grouped, c.Sizes = 0.5, synth.Uniform(2, 5) }, "Sizes"},
		{"max outages negative", func(c *synth.Config) { c.MaxOutages = -1 }, "MaxOutages"},
		{"size negative", func(c *synth.Config) { c.Grouped, c.Sizes = 0.5, []float64{0, 0, 1, -1} }, "Sizes[3]"},
	} {
		cfg := ok
		c.edit(&cfg)
		_, err := synth.Generate(cfg, rand.New(rand.NewPCG(1, 2)))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one naming %q", c.name, err, c.want)
		}
	}
	if _, err := synth.Generate(ok, nil); err == nil {
		t.Error("nil rng: no error")
	}
	// Too many outages: 4 nodes failing and repaired within seconds for a day
	// need far more than 1000 outages.
	big := ok
	big.Up, big.Repair, big.MaxOutages = distuv.Exponential{Rate: 1}, distuv.Exponential{Rate: 1}, 1000
	if _, err := synth.Generate(big, rand.New(rand.NewPCG(1, 2))); err == nil || !strings.Contains(err.Error(), "outages") {
		t.Errorf("outage bound: error %v", err)
	}
}

// TestGenerateGroups checks the structure of a grouped trace: the same
// seed gives the same trace, the labels number the grouped events, every
// group has 2–6 nodes failing at one instant, and the generic format
// writes and reads it back exactly.
func TestGenerateGroups(t *testing.T) {
	cfg := synth.Config{Nodes: 32, Duration: 30 * day,
		Up: distuv.Exponential{Rate: 1 / (4 * day)}, Repair: distuv.LogNormal{Mu: math.Log(hour), Sigma: 1},
		Grouped: 0.3, Sizes: synth.Uniform(2, 6)}
	a, err := synth.Generate(cfg, rand.New(rand.NewPCG(3, 4)))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := synth.Generate(cfg, rand.New(rand.NewPCG(3, 4)))
	if !reflect.DeepEqual(a, b) {
		t.Fatal("same seed, different traces")
	}
	type group struct {
		t     float64
		nodes int
	}
	groups := map[int]*group{}
	failures := 0
	for i := range a.Trace.NumNodes() {
		for _, iv := range a.Trace.Node(i).Down {
			failures++
			if iv.Event == 0 {
				continue
			}
			g := groups[iv.Event]
			if g == nil {
				g = &group{t: iv.Start}
				groups[iv.Event] = g
			}
			if g.t != iv.Start {
				t.Fatalf("event %d: failures at %v and %v", iv.Event, g.t, iv.Start)
			}
			g.nodes++
		}
	}
	if failures != a.Failures || len(groups) != a.GroupedEvents || a.GroupedEvents == 0 {
		t.Fatalf("%d failures, %d groups in the trace; result says %d, %d", failures, len(groups), a.Failures, a.GroupedEvents)
	}
	for label, g := range groups {
		if label < 1 || label > a.GroupedEvents || g.nodes < 2 || g.nodes > 6 {
			t.Errorf("event %d has %d nodes, want a label in 1..%d and 2–6 nodes", label, g.nodes, a.GroupedEvents)
		}
	}
	var buf bytes.Buffer
	if err := trace.WriteGeneric(&buf, a.Trace); err != nil {
		t.Fatal(err)
	}
	back, err := trace.ReadGeneric(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, a.Trace) {
		t.Error("generic round trip changed the trace")
	}
}

// minCovers is the fewest covers out of n intervals of nominal coverage
// level that a correct interval reaches with probability ≥ 0.999: below
// it, the test fails (a false alarm at most once in a thousand runs of
// fresh seeds, for an interval whose coverage is at least nominal).
func minCovers(n int, level float64) int {
	b := distuv.Binomial{N: float64(n), P: level}
	k := 0
	for b.CDF(float64(k)) <= 0.001 {
		k++
	}
	return k
}

// TestEstimateEventsRecovers generates traces with half the events
// grouped in 4–16 nodes (the setting, at a smaller scale) and
// checks that the 95 % intervals of EstimateEvents cover the generator's
// event rate, grouped fraction, mean size and size fractions as often as
// a 95 % interval should. Each interval is checked over 40 seeds against
// minCovers; the power check shifts the true value by 10 % and requires
// the count to fall below that bound, so the test can fail.
func TestEstimateEventsRecovers(t *testing.T) {
	const seeds = 40
	lambdaE := 1 / (2 * day) // events per functional node per second
	g := 0.5
	sizes := synth.Uniform(4, 16)
	trueMean := (1 - g) + g*10 // mean of uniform 4..16 is 10
	cfg := synth.Config{Nodes: 128, Duration: 20 * day,
		Up: distuv.Exponential{Rate: lambdaE}, Repair: distuv.Exponential{Rate: 1 / hour},
		Grouped: g, Sizes: sizes}
	var rate, rateOff, grouped, groupedOff, mean, meanOff, sizeCovers, sizeTotal int
	for s := range seeds {
		res, err := synth.Generate(cfg, rand.New(rand.NewPCG(uint64(s), 13)))
		if err != nil {
			t.Fatal(err)
		}
		e, err := trace.EstimateEvents(res.Trace, cfg.Duration, nil)
		if err != nil {
			t.Fatal(err)
		}
		st := e.Events
		in := func(x, lo, hi float64) int {
			if lo <= x && x <= hi {
				return 1
			}
			return 0
		}
		rate += in(lambdaE, st.Rate.Low, st.Rate.High)
		rateOff += in(1.1*lambdaE, st.Rate.Low, st.Rate.High)
		grouped += in(g, st.Grouped.Low, st.Grouped.High)
		groupedOff += in(1.1*g, st.Grouped.Low, st.Grouped.High)
		mean += in(trueMean, st.MeanLow, st.MeanHigh)
		meanOff += in(1.1*trueMean, st.MeanLow, st.MeanHigh)
		p := map[int]float64{1: 1 - g}
		for k := 4; k <= 16; k++ {
			p[k] = g / 13
		}
		seen := map[int]bool{}
		for _, sc := range st.Sizes {
			seen[sc.Size] = true
			sizeTotal++
			sizeCovers += in(p[sc.Size], sc.Fraction.Low, sc.Fraction.High)
		}
		for k := range p {
			if !seen[k] { // a size never seen: its interval is [0, High] of a zero count
				sizeTotal++
				sizeCovers++ // Clopper–Pearson with zero count: [0, 1−(α/2)^(1/n)]; p ≈ 0.038 is inside for n < 95
			}
		}
		if e.SingleFailures != trace.Contradicted {
			t.Errorf("seed %d: SingleFailures %v on a grouped trace", s, e.SingleFailures)
		}
	}
	need := minCovers(seeds, 0.95)
	for _, c := range []struct {
		name      string
		cover     int
		coverOff  int
		powerNeed bool
	}{
		{"event rate", rate, rateOff, true},
		{"grouped fraction", grouped, groupedOff, true},
		{"mean size", mean, meanOff, true},
	} {
		if c.cover < need {
			t.Errorf("%s: %d of %d intervals cover the truth, want ≥ %d", c.name, c.cover, seeds, need)
		}
		if c.coverOff >= need {
			t.Errorf("%s: %d of %d intervals cover a value 10%% off, the check has no power", c.name, c.coverOff, seeds)
		}
		t.Logf("%s: %d/%d cover the truth, %d/%d a value 10%% off", c.name, c.cover, seeds, c.coverOff, seeds)
	}
	// The size fractions: 14 intervals per seed, dependent within a seed
	// (multinomial), so the pooled count is held to a looser 90 %.
	if float64(sizeCovers) < 0.9*float64(sizeTotal) {
		t.Errorf("size fractions: %d of %d intervals cover the truth, want ≥ 90 %%", sizeCovers, sizeTotal)
	}
	t.Logf("size fractions: %d/%d cover", sizeCovers, sizeTotal)
}

// TestEstimateWeibullShape generates traces with Weibull up times of
// shape 0.6 (the decreasing hazard Schroeder and Gibson report for the
// LANL systems, DSN 2006, section 5) and checks that the profile
// likelihood interval covers 0.6 as often as a 95 % interval should, that
// it has power against 0.66, and that the exponential law is rejected; on
// exponential traces, the test rejects k = 1 at its 5 % level only.
func TestEstimateWeibullShape(t *testing.T) {
	const seeds = 40
	const shape = 0.6
	weib := distuv.Weibull{K: shape, Lambda: day}
	cfg := synth.Config{Nodes: 32, Duration: 60 * day, Up: weib, Repair: distuv.Exponential{Rate: 1 / hour}}
	expCfg := cfg
	expCfg.Up = distuv.Exponential{Rate: 1 / weib.Mean()}
	cover, coverOff, rejected, expRejected := 0, 0, 0, 0
	for s := range seeds {
		res, err := synth.Generate(cfg, rand.New(rand.NewPCG(uint64(s), 17)))
		if err != nil {
			t.Fatal(err)
		}
		e, err := trace.EstimateEvents(res.Trace, cfg.Duration, nil)
		if err != nil {
			t.Fatal(err)
		}
		u := e.UpTime
		if u.ShapeLow <= shape && shape <= u.ShapeHigh {
			cover++
		}
		if u.ShapeLow <= 1.1*shape && 1.1*shape <= u.ShapeHigh {
			coverOff++
		}
		if e.Exponential == trace.Contradicted {
			rejected++
		}
		if e.SingleFailures == trace.Contradicted {
			t.Errorf("seed %d: grouped failures reported on a trace without any", s)
		}

		res, err = synth.Generate(expCfg, rand.New(rand.NewPCG(uint64(s), 19)))
		if err != nil {
			t.Fatal(err)
		}
		e, err = trace.EstimateEvents(res.Trace, cfg.Duration, nil)
		if err != nil {
			t.Fatal(err)
		}
		if e.Exponential == trace.Contradicted {
			expRejected++
		}
	}
	need := minCovers(seeds, 0.95)
	t.Logf("shape %v: %d/%d intervals cover it, %d/%d cover %v; exponential rejected on %d Weibull and %d exponential traces",
		shape, cover, seeds, coverOff, seeds, 1.1*shape, rejected, expRejected)
	if cover < need {
		t.Errorf("shape: %d of %d intervals cover %v, want ≥ %d", cover, seeds, shape, need)
	}
	if coverOff >= need {
		t.Errorf("shape: %d of %d intervals cover %v: no power", coverOff, seeds, 1.1*shape)
	}
	if rejected != seeds {
		t.Errorf("exponential rejected on %d of %d Weibull(0.6) traces, want all", rejected, seeds)
	}
	// Rejections of a true exponential law: at most 40 − minCovers.
	if expRejected > seeds-need {
		t.Errorf("exponential rejected on %d of %d exponential traces, want ≤ %d", expRejected, seeds, seeds-need)
	}
}

// TestRateCV checks the rate multipliers against their Gamma law: mean 1
// and coefficient of variation RateCV, within five standard errors
// (the variance of the sample variance of a Gamma law uses its fourth
// moment; five standard errors make a false alarm negligible).
func TestRateCV(t *testing.T) {
	const n, cv = 20000, 0.5
	cfg := synth.Config{Nodes: n, Duration: 1, Up: distuv.Exponential{Rate: 1}, Repair: distuv.Exponential{Rate: 1}, RateCV: cv}
	res, err := synth.Generate(cfg, rand.New(rand.NewPCG(5, 6)))
	if err != nil {
		t.Fatal(err)
	}
	sum, sumSq := 0.0, 0.0
	for _, w := range res.Multipliers {
		sum += w
		sumSq += w * w
	}
	m := sum / n
	v := sumSq/n - m*m
	if math.Abs(m-1) > 5*cv/math.Sqrt(n) {
		t.Errorf("mean multiplier %v, want 1 ± %v", m, 5*cv/math.Sqrt(n))
	}
	// Gamma of shape a = 1/cv²: variance cv², excess kurtosis 6/a.
	varOfVar := cv * cv * cv * cv * (2 + 6*cv*cv) / n
	if math.Abs(v-cv*cv) > 5*math.Sqrt(varOfVar) {
		t.Errorf("multiplier variance %v, want %v ± %v", v, cv*cv, 5*math.Sqrt(varOfVar))
	}
}
