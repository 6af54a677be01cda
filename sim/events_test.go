package sim

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/ckpt-markov/markov/batchchain"
	"github.com/ckpt-markov/markov/scenario"
)

// meanFunctional returns E[n]/N under the stationary law of the
// functional count with failure events, from package batchchain's cut
// equations (an independent derivation of the same process).
func meanFunctional(t *testing.T, n int, mttf, mttr float64, sizes []float64) float64 {
	t.Helper()
	pi, err := batchchain.Functional(n, 1/mttf, 1/mttr, sizes)
	if err != nil {
		t.Fatal(err)
	}
	var m float64
	for k, p := range pi {
		m += float64(k) * p
	}
	return m / float64(n)
}

// TestBatchFunctionalFraction runs the simulator with failure events and
// checks the mean functional fraction against the stationary law of
// batchchain.Functional within the 99 % interval. Power: the same law with
// the event rate λ instead of λ/E[K] (the natural mistake) must fall
// outside the interval, or the test could not tell them apart.
func TestBatchFunctionalFraction(t *testing.T) {
	for _, tc := range []struct {
		n          int
		mttf, mttr float64
		sizes      []float64
	}{
		{8, 3600, 600, []float64{0, 1}},                                     // pairs only
		{16, 36000, 3600, []float64{0.5, 0, 0, 0.5}},                        // half single, half 4
		{32, 8 * 3600, 3600, []float64{0.5, 0, 0, 0.1, 0.1, 0.1, 0.1, 0.1}}, // 4–8
	} {
		sc, err := scenario.New(
			scenario.System{Processors: tc.n, MTTF: tc.mttf, MTTR: tc.mttr, FailureEvents: &scenario.FailureEvents{Sizes: tc.sizes}},
			scenario.Application{WorkRate: linear(tc.n), Latency: constant(tc.n, 60), Overhead: constant(tc.n, 60), Recovery: scenario.RecoveryConstant(30, tc.n)},
			scenario.Policy{Kind: scenario.Greedy})
		if err != nil {
			t.Fatal(err)
		}
		relax := 1 / (1/tc.mttf + 1/tc.mttr)
		res, err := Run(context.Background(), sc, 1800, &Settings{Seed: 7, Horizon: 5e3 * relax, RelTol: -1})
		if err != nil {
			t.Fatal(err)
		}
		want := meanFunctional(t, tc.n, tc.mttf, tc.mttr, tc.sizes)
		if !res.Functional.Contains(want) {
			t.Errorf("N = %d, sizes %v: functional fraction %v, exact %v outside the CI", tc.n, tc.sizes, res.Functional, want)
		}
		var mean float64
		for k, p := range tc.sizes {
			mean += float64(k+1) * p
		}
		wrong := meanFunctional(t, tc.n, tc.mttf/mean, tc.mttr, tc.sizes)
		if res.Functional.Contains(wrong) {
			t.Errorf("N = %d: the interval %v also holds %v, the law with event rate λ: no power", tc.n, res.Functional, wrong)
		}
		checkTotals(t, res)
	}
}

// TestBatchEvents checks the stream itself: events of one instant are
// distinct functional processors, the mean size of the failure events
// matches E[min(K, n)] for n = N (the pool stays nearly full: MTTR ≪ MTTF),
// and the per-processor failure rate is λ, within 99 % normal intervals.
func TestBatchEvents(t *testing.T) {
	const (
		n          = 64
		mttf, mttr = 1e6, 1.0
		events     = 20000
	)
	sizes := []float64{0.25, 0.25, 0, 0.5} // E[K] = 0.25 + 0.5 + 2 = 2.75, E[K²] = 0.25 + 1 + 8 = 9.25
	b, err := NewBatch(n, mttf, mttr, sizes, rand.New(rand.NewPCG(3, 4)))
	if err != nil {
		t.Fatal(err)
	}
	up := make([]bool, n)
	b.Init(up)
	var groups, fails int
	var upTime, last float64
	nUp := n
	ev := b.Next()
	for groups < events {
		t0 := ev.Time
		upTime += float64(nUp) * (t0 - last)
		last = t0
		size := 0
		for ev.Time == t0 {
			if ev.Up {
				if up[ev.Proc] {
					t.Fatalf("repair of functional processor %d", ev.Proc)
				}
				up[ev.Proc] = true
				nUp++
			} else {
				if !up[ev.Proc] {
					t.Fatalf("failure of failed processor %d at %v", ev.Proc, t0)
				}
				up[ev.Proc] = false
				nUp--
				size++
			}
			ev = b.Next()
		}
		if size > 0 {
			groups++
			fails += size
		}
	}
	meanSize := float64(fails) / float64(groups)
	sd := math.Sqrt((9.25 - 2.75*2.75) / float64(groups))
	if math.Abs(meanSize-2.75) > 2.58*sd {
		t.Errorf("mean event size %v, want 2.75 ± %v", meanSize, 2.58*sd)
	}
	// Failures are (nearly) a Poisson count of events of mean upTime·λ/E[K]
	// times the sizes: relative sd √(E[K²]/E[K]² / events).
	rate := float64(fails) / upTime
	rel := math.Sqrt(9.25 / (2.75 * 2.75) / float64(groups))
	if math.Abs(rate*mttf-1) > 2.58*rel {
		t.Errorf("per-processor failure rate %v, want 1/MTTF = %v ± %.2g relative", rate, 1/mttf, 2.58*rel)
	}
}

// TestNewBatchErrors checks that bad arguments get errors.
func TestNewBatchErrors(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, tc := range []struct {
		name       string
		n          int
		mttf, mttr float64
		sizes      []float64
		rng        *rand.Rand
	}{
		{"n", 0, 1, 1, []float64{1}, rng},
		{"mttf", 2, 0, 1, []float64{1}, rng},
		{"mttr", 2, 1, math.Inf(1), []float64{1}, rng},
		{"no sizes", 2, 1, 1, nil, rng},
		{"too many sizes", 2, 1, 1, []float64{0, 0, 1}, rng},
		{"negative", 2, 1, 1, []float64{1, -1}, rng},
		{"NaN", 2, 1, 1, []float64{math.NaN()}, rng},
		{"zero", 2, 1, 1, []float64{0, 0}, rng},
		{"rng", 2, 1, 1, []float64{1}, nil},
	} {
		if _, err := NewBatch(tc.n, tc.mttf, tc.mttr, tc.sizes, tc.rng); err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
}
