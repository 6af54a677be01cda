package synth_test

import (
	"math"
	"math/rand/v2"
	"reflect"
	"sort"
	"strings"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/ckpt-markov/markov/trace/synth"
)

// TestDesktopGridSummaries checks that a desktop-grid trace reproduces
// the published summaries the preset is built from (Kondo, Andrzejak and
// Anderson, Grid 2008, quoted in seed 002, section III): 65 % of node
// time available, 35 % of the nodes available 99 % of the time or more,
// availability intervals of mean 20 h and median 8 h.
//
// Sampling error. Availability: a node's fraction of time up over
// [30 d, T) (the first 30 days dropped, so that the start of every node
// in a fresh up time does not bias it), compared per class with the
// class's renewal-reward value E[up]/(E[up] + E[down]) within 4 standard
// errors of the mean over the class's nodes. Intervals: the up times
// that start before T/2 (a choice by start time, which does not depend
// on the interval's own length, so they are independent draws of the
// law; the chance that one is still running at T is below 1e−4) pooled
// over nodes; their mean against 20 h within 4 standard errors (sample
// standard deviation), their count below 8 h against Binomial(n, 1/2)
// within 4 standard deviations. Power: the same samples reject, by more
// than 4 standard errors, an intermittent class whose mean unavailability
// is 10 % longer, a mean interval 10 % longer, and a median 10 % longer
// (a log-normal of the same σ).
func TestDesktopGridSummaries(t *testing.T) {
	const nodes = 256
	T := 365 * day
	if testing.Short() {
		T = 240 * day
	}
	cfg := synth.DesktopGrid(nodes, T)
	res, err := synth.Generate(cfg, rand.New(rand.NewPCG(25, 5)))
	if err != nil {
		t.Fatal(err)
	}
	const warm = 30 * day
	avail := make([][]float64, len(cfg.Classes)) // per class, node availabilities over [warm, T)
	var ups []float64                            // up times starting before T/2
	stableNodes, above99 := 0, 0
	for i := range res.Trace.NumNodes() {
		n := res.Trace.Node(i)
		k := res.Class[i]
		if cfg.Classes[k].Name == "stable" {
			stableNodes++
		}
		var downAll, downWarm float64
		start := 0.0 // start of the current up time
		for _, d := range n.Down {
			downAll += d.End - d.Start
			downWarm += math.Max(0, d.End-math.Max(d.Start, warm))
			if start < T/2 {
				ups = append(ups, d.Start-start)
			}
			start = d.End
		}
		if 1-downAll/T >= 0.99 {
			above99++
		}
		avail[k] = append(avail[k], 1-downWarm/(T-warm))
	}

	// 35 % of the nodes are stable, within one node (the round robin), and
	// exactly those are available 99 % of the time or more.
	if want := synth.DesktopStableShare * nodes; math.Abs(float64(stableNodes)-want) > 1 {
		t.Errorf("stable nodes %d, want %.1f ± 1", stableNodes, want)
	}
	if above99 != stableNodes {
		t.Errorf("%d nodes available ≥ 99 %% of the time, want the %d stable ones", above99, stableNodes)
	}

	// Availability per class, then the pool's 65 %.
	upMean := float64(synth.DesktopUpMean)
	pool, poolWant := 0.0, 0.0
	for k, cl := range cfg.Classes {
		dm := cl.Repair.(distuv.Exponential).Mean()
		want := upMean / (upMean + dm)
		mean, se := meanSE(avail[k])
		if math.Abs(mean-want) > 4*se {
			t.Errorf("class %s: availability %.5f ± %.2g, want %.5f", cl.Name, mean, se, want)
		}
		if cl.Name == "intermittent" {
			alt := upMean / (upMean + 1.1*dm)
			if math.Abs(mean-alt) <= 4*se {
				t.Errorf("class %s: availability %.5f ± %.2g does not reject %.5f (mean unavailability 10 %% longer): no power", cl.Name, mean, se, alt)
			}
		}
		pool += mean * float64(len(avail[k]))
		poolWant += want * float64(len(avail[k]))
	}
	pool /= nodes
	poolWant /= nodes
	// The class counts are the shares within one node: the pool's
	// expected availability is 65 % within (0.995 − 0.464)/256.
	if math.Abs(poolWant-synth.DesktopAvailability) > 0.6/nodes {
		t.Errorf("pool's expected availability %.5f, want %.2f within one node", poolWant, synth.DesktopAvailability)
	}
	t.Logf("pool availability %.4f (expected %.4f); %d up times", pool, poolWant, len(ups))

	// Availability intervals: mean 20 h, median 8 h.
	mean, se := meanSE(ups)
	if math.Abs(mean-upMean) > 4*se {
		t.Errorf("mean availability interval %.4g h ± %.2g, want 20 h", mean/hour, se/hour)
	}
	if math.Abs(mean-1.1*upMean) <= 4*se {
		t.Errorf("mean interval %.4g h ± %.2g does not reject 22 h: no power", mean/hour, se/hour)
	}
	n := float64(len(ups))
	below := func(x float64) float64 {
		c := 0
		for _, u := range ups {
			if u < x {
				c++
			}
		}
		return float64(c)
	}
	if z := (below(synth.DesktopUpMedian) - n/2) / math.Sqrt(n/4); math.Abs(z) > 4 {
		t.Errorf("median availability interval: %v of %v up times below 8 h (z = %.2f), want half", below(synth.DesktopUpMedian), n, z)
	}
	// Power: a median of 8.8 h puts Φ(ln(8/8.8)/σ) of the law below 8 h.
	sigma := math.Sqrt(2 * math.Log(2.5))
	p := distuv.UnitNormal.CDF(math.Log(1/1.1) / sigma)
	if z := (below(synth.DesktopUpMedian) - n*p) / math.Sqrt(n*p*(1-p)); math.Abs(z) <= 4 {
		t.Errorf("median 8.8 h not rejected (z = %.2f): no power", z)
	}
	sort.Float64s(ups)
	t.Logf("up times: mean %.3g h, median %.3g h", mean/hour, ups[len(ups)/2]/hour)
}

// TestDesktopGridDeterministic: a seed gives the same trace, and the
// classes alternate (no block of one class at the low indices).
func TestDesktopGridDeterministic(t *testing.T) {
	cfg := synth.DesktopGrid(20, 30*day)
	a, err := synth.Generate(cfg, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := synth.Generate(cfg, rand.New(rand.NewPCG(1, 2)))
	for i := range a.Trace.NumNodes() {
		if !reflect.DeepEqual(a.Trace.Node(i), b.Trace.Node(i)) {
			t.Fatalf("node %d: different outages from the same seed", i)
		}
	}
	// In every prefix of the nodes, each class holds its share within one node.
	count := make([]int, len(cfg.Classes))
	for i, k := range a.Class {
		count[k]++
		for j, cl := range cfg.Classes {
			if d := float64(count[j]) - cl.Share*float64(i+1); math.Abs(d) > 1 {
				t.Fatalf("after %d nodes, class %s has %d, want %.2f ± 1", i+1, cl.Name, count[j], cl.Share*float64(i+1))
			}
		}
	}
	if m := cfg.MeanCycle(); !(m > 20*hour && m < 40*hour) {
		t.Errorf("MeanCycle %v h, want between the classes' 20.1 h and 43.1 h", m/hour)
	}
}

func TestClassesErrors(t *testing.T) {
	good := synth.DesktopGrid(8, day)
	for _, c := range []struct {
		name string
		edit func(*synth.Config)
		want string
	}{
		{"up with classes", func(c *synth.Config) { c.Up = distuv.Exponential{Rate: 1} }, "Config.Up"},
		{"zero share", func(c *synth.Config) { c.Classes[1].Share = 0 }, "Classes[1].Share"},
		{"nan share", func(c *synth.Config) { c.Classes[0].Share = math.NaN() }, "Classes[0].Share"},
		{"nil law", func(c *synth.Config) { c.Classes[1].Repair = nil }, "Classes[1].Repair"},
		{"too many", func(c *synth.Config) {
			c.Classes = make([]synth.Class, synth.MaxClasses+1)
		}, "Classes"},
	} {
		cfg := good
		cfg.Classes = append([]synth.Class(nil), good.Classes...)
		c.edit(&cfg)
		_, err := synth.Generate(cfg, rand.New(rand.NewPCG(1, 2)))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one naming %q", c.name, err, c.want)
		}
	}
}

func meanSE(x []float64) (mean, se float64) {
	var s, s2 float64
	for _, v := range x {
		s += v
	}
	mean = s / float64(len(x))
	for _, v := range x {
		s2 += (v - mean) * (v - mean)
	}
	return mean, math.Sqrt(s2 / float64(len(x)-1) / float64(len(x)))
}
