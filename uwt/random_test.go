package uwt

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/ckpt-markov/markov/scenario"
)

// TestRandomScenariosFastMatchesExact draws small scenarios at random
// (seeded): N = 2 … 12, explicit rescheduling vectors with waits (r = 0)
// and shrinking counts, work rates with zeros where the vector never
// runs, C ≤ L, recovery costs by new count or by (old, new), and rates
// from a LANL-like system to a desktop grid. The fast path's chain of up
// phases (decision states only, split rows when R depends on p, one-class
// closed forms) must agree with the exact path's chain of segments, a
// different chain solved by a different method, to 1e-9 relative at three
// intervals, wherever UWT is not negligible (above 1e-12 of the largest
// work rate, doc.go "Accuracy"), and below that within twice the fast
// path's DroppedBound (the exact path's is of the same order).
func TestRandomScenariosFastMatchesExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(2026, 15))
	cases := 60
	if testing.Short() {
		cases = 20
	}
	compared := 0
	for c := range cases {
		n := 2 + rng.IntN(11)
		v := make([]int, n)
		for v[n-1] == 0 { // some count must run
			for k := range v {
				if rng.IntN(4) > 0 {
					v[k] = 1 + rng.IntN(k+1)
				} else {
					v[k] = 0
				}
			}
		}
		w, lat, ovh := make([]float64, n), make([]float64, n), make([]float64, n)
		for a := 1; a <= n; a++ {
			w[a-1] = float64(a) * (0.5 + rng.Float64())
			lat[a-1] = 30 + 300*rng.Float64()
			ovh[a-1] = lat[a-1] * rng.Float64()
		}
		var rec scenario.Recovery
		if rng.IntN(2) == 0 {
			r := make([]float64, n)
			for a := range r {
				r[a] = 10 + 200*rng.Float64()
			}
			rec = scenario.RecoveryByNew(r)
		} else {
			m := make([][]float64, n)
			for p := range m {
				m[p] = make([]float64, n)
				for a := range m[p] {
					m[p][a] = 10 + 5*math.Abs(float64(p-a)) + 50*rng.Float64()
				}
			}
			rec = scenario.RecoveryMatrix(m)
		}
		mttf := 3600 * math.Exp(rng.Float64()*math.Log(24*200)) // 1 h … 200 d
		mttr := 600 * math.Exp(rng.Float64()*math.Log(48))      // 10 min … 8 h
		sys := scenario.System{Processors: n, MTTF: mttf, MTTR: mttr}
		app := scenario.Application{WorkRate: w, Latency: lat, Overhead: ovh, Recovery: rec}
		sc, err := scenario.New(sys, app, scenario.Policy{Kind: scenario.Explicit, Explicit: v})
		if err != nil {
			t.Fatalf("case %d: %v", c, err)
		}
		name := fmt.Sprintf("case %d: N=%d r=%v MTTF %.3g s MTTR %.3g s R(p,a)=%v", c, n, v, mttf, mttr, rec.DependsOnOld())
		for _, interval := range []float64{60 * (1 + rng.Float64()), 3600 * (1 + rng.Float64()), 86400 * (1 + rng.Float64())} {
			mf, err := New(context.Background(), sc, nil)
			if err != nil {
				t.Fatal(err)
			}
			fast, err := mf.Evaluate(context.Background(), interval)
			if err != nil {
				t.Fatal(err)
			}
			exact := evaluate(t, sc, &Settings{Exact: true}, interval)
			if !fast.Phases {
				t.Fatalf("%s: the fast path did not take the chain of up phases", name)
			}
			// Below 1e-12 of the largest work rate UWT is accurate only
			// to the dropped mass's bound (DroppedBound, TestDroppedBoundCovers).
			tol := 1e-9
			if exact.UWT <= 1e-12*maxOf(w) {
				tol = max(tol, 2*mf.DroppedBound(fast))
			} else {
				compared++
			}
			if d := math.Abs(fast.UWT-exact.UWT) / exact.UWT; d > tol {
				t.Errorf("%s, I = %.4g: fast %.15g (one class %v), exact %.15g: rel %.2g, want at most %.2g", name, interval, fast.UWT, fast.OneClass, exact.UWT, d, tol)
			}
		}
	}
	t.Logf("%d comparisons", compared)
	if compared < cases {
		t.Errorf("only %d comparisons above the negligible level", compared)
	}
}

func maxOf(x []float64) float64 {
	m := math.Inf(-1)
	for _, v := range x {
		m = max(m, v)
	}
	return m
}
