package optimal

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/ckpt-markov/markov/scenario"
)

// TestBoundsMatchExhaustive holds the improvement by bounds (doc.go,
// "Improvement by bounds") against the exhaustive search it replaces:
// for biases h drawn at random (smooth plus noise, seeded), far from any
// policy's, so that the bounds are stressed where d = h(X(p, ·)) −
// h(X(a, ·)) varies, every state's new action must be the one found by
// computing the exact bracket of every count with the same rule (wait,
// then the counts in increasing order, each taken when strictly better;
// TieTol against the current action). Exact equality: the two compute
// the same brackets, and a bound that were not one would show as a
// different action.
func TestBoundsMatchExhaustive(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		name string
		sc   *scenario.Scenario
	}{
		{"QR, R(p, a), N = 24, 2 d / 4 h", qrScenario(t, 24, 2*86400, 4*3600)},
		{"QR, R(p, a), N = 48, built-in rates", qrScenario(t, 48, 104.61*86400, 56.03*60)},
		{"desktop, N = 64", largeApp(t, 64, 8*3600, 4*3600)},
	} {
		sv, err := New(c.sc, nil)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(20, 7))
		changedSome := false
		for trial := range 8 {
			pol := sv.Greedy(3600 * float64(trial%4+1))
			var v *values
			if trial < 4 {
				v = &values{x0: sv.reference(), iv: phaseIntervals(pol), g: 5 * rng.Float64(), hX: make([]float64, sv.nX)}
				noise := []float64{0, 1, 100, 1e4}[trial]
				for x := range v.hX {
					n := float64(x%sv.w + sv.lo)
					v.hX[x] = 1000*math.Log1p(n) + noise*rng.NormFloat64()
				}
			} else {
				// A policy's own bias (near-ties are common there):
				// greedy's, then after trial − 4 improvements.
				for range trial - 4 {
					if v, err = sv.evaluate(ctx, pol, true); err != nil {
						t.Fatal(err)
					}
					if _, err := sv.improvePhaseAll(ctx, v, pol); err != nil {
						t.Fatal(err)
					}
				}
				if v, err = sv.evaluate(ctx, pol, true); err != nil {
					t.Fatal(err)
				}
			}
			got := sv.clone(pol)
			if _, err := sv.improvePhaseAll(ctx, v, got); err != nil {
				t.Fatal(err)
			}
			want := sv.clone(pol)
			for x := range sv.nX {
				pi, n := x/sv.w, x%sv.w+sv.lo
				cur := want.action[x]
				vc, v0 := sv.xValue(v, pi, n, cur), sv.xValue(v, pi, n, 0)
				scale := math.Abs(vc) + math.Abs(v.g)*sv.tauX(pi, n, cur)
				best, vb := cur, vc
				if cur != 0 && v0 > vb {
					best, vb = 0, v0
				}
				for b, a := range sv.acts {
					if a > n {
						break
					}
					if a == cur {
						continue
					}
					blk, _, err := sv.computeBlock(pi, b, n, n)
					if err != nil {
						t.Fatal(err)
					}
					if va := sv.rowBracket(v, pi, b, blk.surv, &blk.rows[0]); va > vb {
						best, vb = a, va
					}
				}
				if best != cur && vb > vc+sv.set.TieTol*scale {
					want.action[x] = best
				}
				if got.action[x] != want.action[x] {
					t.Errorf("%s, trial %d: X(%d, %d): bounds chose %d, exhaustive %d", c.name, trial, sv.ps[pi], n, got.action[x], want.action[x])
				}
				changedSome = changedSome || want.action[x] != pol.action[x]
			}
		}
		// Power: the biases must move actions, or the test compares
		// nothing.
		if !changedSome {
			t.Errorf("%s: no action changed in any trial", c.name)
		}
	}
}

// TestSplitBound holds splitBound against the exact sum over the
// recovery's failures, Σ_W Q_t[s, ·]·d, from the rows of package
// birthdeath (the rec part of a split row, un-renormalised), for random
// d (seeded) on every block (p, a) with p ≠ a and every row: it must
// never be exceeded (up to 1e-12 of M·max|d|), and it must be tighter
// than the crude bound M·max(0, max d) somewhere (else it is not tested).
func TestSplitBound(t *testing.T) {
	sv, err := New(qrScenario(t, 16, 2*86400, 4*3600), nil)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 11))
	hp, ha := make([]float64, sv.w), make([]float64, sv.w)
	tighter := false
	for trial := range 3 {
		for k := range sv.w {
			hp[k], ha[k] = rng.NormFloat64(), rng.NormFloat64()
			if trial == 2 { // smooth d, as a policy's biases give
				hp[k], ha[k] = float64(k), 0.9*float64(k)
			}
		}
		dmax, dabs := math.Inf(-1), 0.0
		for k := range sv.w {
			dmax, dabs = max(dmax, hp[k]-ha[k]), max(dabs, math.Abs(hp[k]-ha[k]))
		}
		for pi := range sv.ps {
			for b, a := range sv.acts {
				if sv.pa(b) == pi || max(sv.lo, a) > sv.hi {
					continue
				}
				tr, _, mass := sv.recovery(pi, b)
				blk, _, err := sv.computeBlock(pi, b, max(sv.lo, a), sv.hi)
				if err != nil {
					t.Fatal(err)
				}
				for i, r := range blk.rows {
					n := blk.n0 + i
					exact := 0.0
					for _, e := range r.rec {
						exact += e.p * (1 - r.drop) * (hp[e.i] - ha[e.i])
					}
					bound := sv.splitBound(hp, ha, n-sv.lo, n-a, sv.n-a, tr, mass, dmax)
					if exact > bound+1e-12*mass*dabs+1e-15 {
						t.Errorf("p = %d, a = %d, n = %d: Σ Q_t·d = %.17g above the bound %.17g", sv.ps[pi], a, n, exact, bound)
					}
					if bound < mass*max(dmax, 0)-1e-3*mass*dabs {
						tighter = true
					}
				}
			}
		}
	}
	if !tighter {
		t.Error("the bound was never tighter than M·max(0, max d)")
	}
}
