package trace

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// TestEstimateCounts checks events and exposures on a small trace whose
// totals are counted by hand (see the comments).
func TestEstimateCounts(t *testing.T) {
	tr, err := New([]Node{
		// Failures at 10, 50 (zero length), 70; repairs at 20, 50; the last
		// outage is still open at the window end.
		{0, 100, []Interval{{Start: 10, End: 20}, {Start: 50, End: 50}, {Start: 70, End: 100}}},
		// Enters production down (no failure at 30), repaired at 40; then
		// fails at 60, repaired at 65.
		{30, 100, []Interval{{Start: 30, End: 40}, {Start: 60, End: 65}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name     string
		t0       float64
		set      *EstimateSettings
		from, to float64
		n        int
		up       float64
		m        int
		down     float64
	}{
		// [0, 80): node 0 fails at 10, 50, 70, is repaired at 20 and 50,
		// down 10 + 0 + 10 = 20 of 80; node 1 (from 30) repaired at 40,
		// fails at 60, repaired at 65, down 10 + 5 = 15 of 50.
		{"all history", 80, nil, 0, 80, 4, 60 + 35, 4, 20 + 15},
		// [55, 80): node 0 fails at 70, down 10 of 25; node 1 fails at 60,
		// repaired at 65, down 5 of 25.
		{"lookback", 80, &EstimateSettings{Lookback: 25}, 55, 80, 2, 15 + 20, 1, 10 + 5},
		// [0, 100): t0 beyond the trace is cut at its end; the open outage
		// of node 0 adds 30 s of down time and no repair.
		{"past the end", 1e9, nil, 0, 100, 4, 60 + 55, 4, 40 + 15},
		// [35, 80): the outage of node 1 that spans 35 adds its last 5 s
		// and its repair at 40, not its failure.
		{"cut outage", 80, &EstimateSettings{Lookback: 45}, 35, 80, 3, 35 + 35, 3, 10 + 10},
	} {
		e, err := EstimateRates(tr, c.t0, c.set)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if e.From != c.from || e.To != c.to ||
			e.Failure.Events != c.n || e.Failure.Exposure != c.up ||
			e.Repair.Events != c.m || e.Repair.Exposure != c.down {
			t.Errorf("%s: got [%v, %v) %d failures in %v, %d repairs in %v; want [%v, %v) %d in %v, %d in %v",
				c.name, e.From, e.To, e.Failure.Events, e.Failure.Exposure, e.Repair.Events, e.Repair.Exposure,
				c.from, c.to, c.n, c.up, c.m, c.down)
		}
		if e.Failure.Value != float64(c.n)/c.up || e.Repair.Value != float64(c.m)/c.down {
			t.Errorf("%s: rates %v, %v; want n/U = %v, m/D = %v", c.name, e.Failure.Value, e.Repair.Value,
				float64(c.n)/c.up, float64(c.m)/c.down)
		}
	}
}

// poissonCDF returns P(X <= n) for X ~ Poisson(mu), by direct summation.
func poissonCDF(n int, mu float64) float64 {
	term, sum := math.Exp(-mu), 0.0
	for k := 0; k <= n; k++ {
		sum += term
		term *= mu / float64(k+1)
	}
	return sum
}

// TestConfidenceIntervalDefinition checks the interval against the
// definition of the exact Poisson interval, evaluated by summing the
// Poisson law (not by chi-square quantiles): at the upper bound μ_hi = High·T,
// P(X <= n; μ_hi) = α/2; at the lower one, P(X >= n; μ_lo) = α/2. For n = 1
// the lower bound is also −ln(1 − α/2)/T in closed form.
func TestConfidenceIntervalDefinition(t *testing.T) {
	for _, n := range []int{1, 2, 5, 30, 400} {
		for _, level := range []float64{0.9, 0.95, 0.99} {
			alpha := 1 - level
			const expo = 1234.5
			r := Rate{Events: n, Exposure: expo}
			r.fill(alpha)
			if got := poissonCDF(n, r.High*expo); math.Abs(got-alpha/2) > 1e-9 {
				t.Errorf("n=%d level=%v: P(X<=n; High·T) = %v, want %v", n, level, got, alpha/2)
			}
			if got := 1 - poissonCDF(n-1, r.Low*expo); math.Abs(got-alpha/2) > 1e-9 {
				t.Errorf("n=%d level=%v: P(X>=n; Low·T) = %v, want %v", n, level, got, alpha/2)
			}
			if n == 1 {
				if want := -math.Log(1-alpha/2) / expo; math.Abs(r.Low-want) > 1e-12*want {
					t.Errorf("n=1 level=%v: Low = %v, want %v", level, r.Low, want)
				}
			}
			if !(r.Low < r.Value && r.Value < r.High) {
				t.Errorf("n=%d level=%v: %v outside [%v, %v]", n, level, r.Value, r.Low, r.High)
			}
		}
	}
}

// alternating returns a trace of n nodes on [0, horizon), each starting up
// and alternating exponential up times (rate lambda) and down times (rate
// theta): the process the estimator assumes.
func alternating(rng *rand.Rand, n int, lambda, theta, horizon float64) *Trace {
	nodes := make([]Node, n)
	for i := range nodes {
		nodes[i] = Node{Start: 0, End: horizon}
		for t := rng.ExpFloat64() / lambda; t < horizon; {
			r := t + rng.ExpFloat64()/theta
			nodes[i].Down = append(nodes[i].Down, Interval{Start: t, End: math.Min(r, horizon)})
			t = r + rng.ExpFloat64()/lambda
		}
	}
	tr, err := New(nodes)
	if err != nil {
		panic(err)
	}
	return tr
}

// TestEstimateRecoversRates estimates λ and θ on synthetic traces drawn
// from known rates, over the whole history and over a lookback window
// ending mid-trace (so cut up and down periods occur at both ends): 36
// checks (6 settings × 3 replicates × 2 rates). For a correct estimator each
// true rate lies in its 99% interval with probability >= 0.99 and in its
// 99.9% interval with probability >= 0.999. The test requires every rate in
// its 99.9% interval (all 36 hold with probability >= 96.4%) and at most 3
// outside their 99% interval (misses ~ Binomial(36, p <= 0.01):
// P(more than 3) < 5e-4).
func TestEstimateRecoversRates(t *testing.T) {
	misses, checks := 0, 0
	for _, p := range []struct {
		nodes           int
		lambda, theta   float64
		horizon         float64
		t0, lookback    float64
		seed            uint64
		minEventsExpect int
	}{
		// MTTF 1000 s, MTTR 50 s: about 20·1e5/1050 ≈ 1900 failures.
		{20, 1e-3, 2e-2, 1e5, 1e5, 0, 1, 1000},
		{20, 1e-3, 2e-2, 1e5, 7e4, 3e4, 2, 300},
		// LANL-like: MTTF 100 days, MTTR 6 h, 512 nodes, 3 years.
		{512, 1.0 / (100 * 86400), 1.0 / (6 * 3600), 3 * 365 * 86400, 3 * 365 * 86400, 0, 3, 1000},
		{512, 1.0 / (100 * 86400), 1.0 / (6 * 3600), 3 * 365 * 86400, 2 * 365 * 86400, 90 * 86400, 4, 200},
		// Slow repairs (MTTR = MTTF / 2): much of the time is down time.
		{8, 1e-2, 2e-2, 2e4, 2e4, 0, 5, 500},
		{8, 1e-2, 2e-2, 2e4, 1.5e4, 5e3, 6, 150},
	} {
		for rep := range uint64(3) {
			name := fmt.Sprintf("N=%d λ=%.3g θ=%.3g t0=%g lookback=%g rep=%d", p.nodes, p.lambda, p.theta, p.t0, p.lookback, rep)
			tr := alternating(rand.New(rand.NewPCG(p.seed, rep)), p.nodes, p.lambda, p.theta, p.horizon)
			for _, level := range []float64{0.99, 0.999} {
				e, err := EstimateRates(tr, p.t0, &EstimateSettings{Lookback: p.lookback, Level: level})
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if e.Failure.Events < p.minEventsExpect || e.Repair.Events < p.minEventsExpect {
					t.Errorf("%s: only %d failures, %d repairs", name, e.Failure.Events, e.Repair.Events)
				}
				for _, c := range []struct {
					what string
					r    Rate
					true float64
				}{{"λ", e.Failure, p.lambda}, {"θ", e.Repair, p.theta}} {
					in := c.r.Low <= c.true && c.true <= c.r.High
					switch {
					case level == 0.99:
						checks++
						if !in {
							misses++
							t.Logf("%s: %s = %v outside its 99%% interval [%v, %v] (estimate %v from %d events)",
								name, c.what, c.true, c.r.Low, c.r.High, c.r.Value, c.r.Events)
						}
					case !in:
						t.Errorf("%s: %s = %v outside its 99.9%% interval [%v, %v] (estimate %v from %d events)",
							name, c.what, c.true, c.r.Low, c.r.High, c.r.Value, c.r.Events)
					}
				}
			}
		}
	}
	if misses > 3 {
		t.Errorf("%d of %d true rates outside their 99%% intervals, want at most 3", misses, checks)
	}
}

// TestEstimateCoverage repeats the estimation on 400 small independent
// traces (about 20 failures each) and counts how often the 99% intervals
// miss the true rates. The intervals are conservative, so misses are
// Binomial(400, p) with p <= 0.01, mean <= 4; P(misses > 12) < 1e-3.
func TestEstimateCoverage(t *testing.T) {
	const (
		reps          = 400
		lambda, theta = 1e-3, 5e-3
	)
	rng := rand.New(rand.NewPCG(7, 8))
	var missL, missT int
	for range reps {
		tr := alternating(rng, 4, lambda, theta, 6000)
		e, err := EstimateRates(tr, 6000, &EstimateSettings{Level: 0.99})
		if err != nil {
			t.Fatal(err)
		}
		if lambda < e.Failure.Low || lambda > e.Failure.High {
			missL++
		}
		if theta < e.Repair.Low || theta > e.Repair.High {
			missT++
		}
	}
	if missL > 12 || missT > 12 {
		t.Errorf("the 99%% intervals missed λ %d and θ %d times in %d, want at most 12", missL, missT, reps)
	}
}

func TestEstimateErrors(t *testing.T) {
	tr, err := New([]Node{{0, 100, []Interval{{Start: 10, End: 20}, {Start: 50, End: 50}}}})
	if err != nil {
		t.Fatal(err)
	}
	// Before 10 nothing has happened; before 15 one failure, no repair.
	for _, t0 := range []float64{5, 15, -1e9, math.Inf(-1)} {
		e, err := EstimateRates(tr, t0, nil)
		if !errors.Is(err, ErrTooFewEvents) {
			t.Errorf("t0=%v: error %v, want ErrTooFewEvents", t0, err)
		}
		if t0 == 15 && (e.Failure.Events != 1 || e.Failure.Exposure != 10 || e.Repair.Exposure != 5) {
			t.Errorf("t0=15: counts %+v not filled in", e)
		}
	}
	// Two failures and two repairs before 100: asking for three fails.
	if _, err := EstimateRates(tr, 100, &EstimateSettings{MinFailures: 3}); !errors.Is(err, ErrTooFewEvents) {
		t.Errorf("MinFailures 3: error %v, want ErrTooFewEvents", err)
	}
	if _, err := EstimateRates(tr, 100, &EstimateSettings{MinFailures: 2, MinRepairs: 2}); err != nil {
		t.Errorf("MinFailures 2, MinRepairs 2: %v", err)
	}
	for _, s := range []*EstimateSettings{
		{Lookback: -1}, {Lookback: nan()}, {Lookback: inf()},
		{Level: 1}, {Level: -0.5}, {Level: nan()},
	} {
		if _, err := EstimateRates(tr, 100, s); err == nil || errors.Is(err, ErrTooFewEvents) {
			t.Errorf("settings %+v: error %v, want an argument error", *s, err)
		}
	}
	if _, err := EstimateRates(tr, nan(), nil); err == nil {
		t.Error("t0 = NaN accepted")
	}
	// Only zero-length outages: θ̂ = 1/0.
	zero, err := New([]Node{{0, 100, []Interval{{Start: 50, End: 50}}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := EstimateRates(zero, 100, nil); err == nil || errors.Is(err, ErrTooFewEvents) {
		t.Errorf("zero repair time: error %v, want an unbounded-θ error", err)
	}
}
