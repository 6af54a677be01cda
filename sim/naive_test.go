package sim

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/ckpt-markov/markov/scenario"
)

// naiveRun is a second, deliberately plain implementation of the process of
// docs/model.md section 3, used as an oracle: one failure/repair clock per
// processor (an absolute next-change time each, found by a linear scan),
// and recovery on the r(n) functional processors of HIGHEST index. It
// returns the committed work, the down time and the recovery time up to
// the horizon.
func naiveRun(sc *scenario.Scenario, interval, horizon float64, rng *rand.Rand) (work, down, recovery float64) {
	n := sc.N()
	lambda, theta := sc.System.Lambda(), sc.System.Theta()
	app := sc.Application
	up := make([]bool, n)
	change := make([]float64, n)
	for i := range up {
		up[i] = true
		change[i] = rng.ExpFloat64() / lambda
	}
	used := make([]bool, n)
	countUp := func() int {
		c := 0
		for _, u := range up {
			if u {
				c++
			}
		}
		return c
	}
	use := func(a int) {
		for i := range used {
			used[i] = false
		}
		for i := n - 1; i >= 0 && a > 0; i-- {
			if up[i] {
				used[i] = true
				a--
			}
		}
	}
	// nextChange returns the processor with the earliest next change.
	nextChange := func() int {
		j := 0
		for i := range change {
			if change[i] < change[j] {
				j = i
			}
		}
		return j
	}
	flip := func(j int) {
		up[j] = !up[j]
		if up[j] {
			change[j] += rng.ExpFloat64() / lambda
		} else {
			change[j] += rng.ExpFloat64() / theta
		}
	}
	t := 0.0
	a := sc.Reschedule[n-1]
	p := a
	use(a)
	recovering := false
	for t < horizon {
		if a == 0 { // down: wait for the next change, then maybe recover
			j := nextChange()
			if change[j] >= horizon {
				down += horizon - t
				return work, down, recovery
			}
			down += change[j] - t
			t = change[j]
			flip(j)
			if k := countUp(); k > 0 && sc.Reschedule[k-1] > 0 {
				a = sc.Reschedule[k-1]
				use(a)
				recovering = true
			}
			continue
		}
		var end float64
		if recovering {
			end = t + app.Recovery.Cost(p, a) + app.Latency[a-1]
		} else {
			end = t + interval + app.Latency[a-1]
		}
		hit := false
		start := t
		for {
			j := nextChange()
			if change[j] >= end || change[j] >= horizon {
				break
			}
			t = change[j]
			wasUsed := up[j] && used[j]
			flip(j)
			if wasUsed {
				hit = true
				break
			}
		}
		if !hit {
			if end > horizon {
				if recovering {
					recovery += horizon - start
				}
				return work, down, recovery
			}
			t = end
			if recovering {
				recovery += end - start
			} else {
				work += app.WorkRate[a-1] * (interval + app.Latency[a-1] - app.Overhead[a-1])
			}
			recovering = false
			p = a
			continue
		}
		if recovering {
			recovery += t - start
		}
		k := countUp()
		a = 0
		if k > 0 {
			a = sc.Reschedule[k-1]
		}
		if a > 0 {
			use(a)
			recovering = true
		}
	}
	return work, down, recovery
}

// TestAgainstNaive compares Run with naiveRun on a pool with down states
// (r(1) = 0), C < L on some counts and a recovery
// matrix R(p, a) that depends on the old count. The two estimates are
// independent: their difference must lie within √(h₁² + h₂²) (99 %).
func TestAgainstNaive(t *testing.T) {
	// Shrinking is expensive (R(p, a) = 3000 s for p > a), so that a
	// recovery charged with the wrong p shows.
	rec := scenario.RecoveryMatrix([][]float64{
		{10, 20, 30, 40},
		{3000, 20, 30, 40},
		{3000, 3000, 30, 40},
		{3000, 3000, 3000, 40},
	})
	// After a failure at most N−1 processors are functional, so a = 4 is
	// left for good at the first failure; 2 and 3 alternate.
	sc := scriptedScenario(t, 4*3600, 3600, []int{0, 2, 3, 3}, []float64{1, 1.9, 2.7, 3.4},
		[]float64{20, 30, 40, 50}, []float64{20, 25, 40, 35}, rec)
	const (
		interval = 1200
		horizon  = 2e7 // seconds per replication, about 5500 h
		reps     = 32
	)
	res, err := Run(context.Background(), sc, interval, &Settings{Seed: 99, Horizon: horizon, RelTol: -1, Replications: reps})
	if err != nil {
		t.Fatal(err)
	}
	uwt := make([]float64, reps)
	down := make([]float64, reps)
	recovery := make([]float64, reps)
	for k := range reps {
		w, d, r := naiveRun(sc, interval, horizon, rand.New(rand.NewPCG(1000+uint64(k), 7)))
		uwt[k], down[k], recovery[k] = w/horizon, d/horizon, r/horizon
	}
	q := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: reps - 1}.Quantile(0.995)
	naiveUWT := estimate(uwt, q)
	if d, h := math.Abs(res.UWT.Mean-naiveUWT.Mean), math.Hypot(res.UWT.HalfWidth, naiveUWT.HalfWidth); d > h {
		t.Errorf("UWT: Run %v, naive %v: difference %v > %v", res.UWT, naiveUWT, d, h)
	}
	// Down and recovery fractions: Run reports only their totals, whose
	// sampling error is the naive one's (same process, horizon and
	// replications), so the 99 % bound of the difference is √2 times the
	// naive half-width.
	for _, f := range []struct {
		name  string
		run   float64
		naive []float64
	}{{"down", res.Down, down}, {"recovery", res.Recovery, recovery}} {
		e := estimate(f.naive, q)
		if d := math.Abs(f.run/res.Time - e.Mean); d > math.Sqrt2*e.HalfWidth {
			t.Errorf("%s fraction: Run %v, naive %v", f.name, f.run/res.Time, e)
		}
	}
	if res.Down == 0 || res.Failures == 0 {
		t.Fatalf("scenario does not exercise down periods: %+v", res.Totals)
	}
}
