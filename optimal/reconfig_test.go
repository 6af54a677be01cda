package optimal

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/ckpt-markov/markov/scenario"
)

// reconfCases are the scenarios with reconfiguration at checkpoints of
// this package's tests: the enumeration cases (window and full), the dear
// recovery of TestReconfigureBeyondVectors, QR of package bench with
// R(p, a) (decision states X(p, n)) and the desktop grid with the
// application of BENCHMARKS.md.
func reconfCases(t *testing.T) []solverCase {
	type tc = solverCase
	cases := enumerationCases(t)
	dear := oracleCase{"dear recovery", 4, 12 * 3600, 2 * 3600, []float64{1, 2, 2.2, 2.3}}
	dsc := dear.scenario(t, scenario.Policy{})
	dsc.Application.Recovery = scenario.RecoveryConstant(1000, dear.n)
	const h = 3600.0
	cases = append(cases,
		tc{"dear/full", dsc, &Settings{Full: true}},
		tc{"qr8/desktop", qrScenario(t, 8, 8*h, 4*h), nil},
		tc{"large12/desktop", largeApp(t, 12, 8*h, 4*h), nil},
	)
	if !testing.Short() {
		cases = append(cases,
			tc{"qr16/desktop", qrScenario(t, 16, 8*h, 4*h), nil},
			tc{"large24/desktop", largeApp(t, 24, 8*h, 4*h), nil},
		)
	}
	for i := range cases {
		cases[i].sc.Reconfigure = scenario.AtCheckpoint
	}
	return cases
}

// TestReconfigReducedMatchesFull holds the reduced evaluation with
// reconfiguration at checkpoints (reconfiguring up states merged with
// their twins, equations kept between evaluations: reconfig.go) against
// the evaluation it replaced, with every reconfiguring up state an
// unknown of its own (reconfReduce off), on every scenario with
// reconfiguration of this package's tests: g*(I) at three intervals and
// levels 2, 3 and 4 to 1e-10 relative, and the same policy (the action
// in every X(p, n) and the choice in every U(a, s)) at every fixed
// interval and at levels 2 and 4. The two share the rows and the policy
// iteration, not the linear systems they solve.
func TestReconfigReducedMatchesFull(t *testing.T) {
	ctx := context.Background()
	const tol = 1e-10
	samePolicy := func(t *testing.T, what string, got, want *Policy) {
		t.Helper()
		if !slices.Equal(got.action, want.action) {
			t.Errorf("%s: actions in X differ: %v, full %v", what, got.action, want.action)
		}
		for b := range want.reconf {
			if !slices.Equal(got.reconf[b], want.reconf[b]) {
				t.Errorf("%s: choices in U(%d, ·) differ: %v, full %v", what, got.sv.acts[b], got.reconf[b], want.reconf[b])
			}
		}
	}
	for _, c := range reconfCases(t) {
		t.Run(c.name, func(t *testing.T) {
			solve := func(reduce bool) (fixed []Result, rep Report, unknowns int) {
				reconfReduce = reduce
				defer func() { reconfReduce = true }()
				sv, err := New(c.sc, c.set)
				if err != nil {
					t.Fatal(err)
				}
				for _, iv := range []float64{600, 3600, 4 * 3600} {
					r, err := sv.FixedInterval(ctx, iv)
					if err != nil {
						t.Fatal(err)
					}
					fixed = append(fixed, r)
				}
				if rep, err = sv.Levels(ctx, nil); err != nil {
					t.Fatal(err)
				}
				// The unknowns of the level-4 policy's evaluation: the
				// active equations.
				v, err := sv.evaluate(ctx, rep.PerState.Policy, false)
				if err != nil {
					t.Fatal(err)
				}
				return fixed, rep, v.unknowns
			}
			fr, rr, nr := solve(true)
			ff, rf, nf := solve(false)
			for i, iv := range []float64{600, 3600, 4 * 3600} {
				if d := relDiff(fr[i].UWT, ff[i].UWT); d > tol {
					t.Errorf("g*(%g) = %.15g, full evaluation %.15g (rel. diff %.2g)", iv, fr[i].UWT, ff[i].UWT, d)
				}
				samePolicy(t, fmt.Sprintf("I = %g", iv), fr[i].Policy, ff[i].Policy)
			}
			for _, l := range []struct {
				name      string
				got, want float64
			}{
				{"level 2", rr.Single.UWT, rf.Single.UWT},
				{"level 3", rr.PerConfiguration.UWT, rf.PerConfiguration.UWT},
				{"level 4", rr.PerState.UWT, rf.PerState.UWT},
			} {
				if d := relDiff(l.got, l.want); d > tol {
					t.Errorf("%s: g = %.15g, full evaluation %.15g (rel. diff %.2g)", l.name, l.got, l.want, d)
				}
			}
			samePolicy(t, "level 2", rr.Single.Policy, rf.Single.Policy)
			samePolicy(t, "level 4", rr.PerState.Policy, rf.PerState.Policy)
			if nr > nf {
				t.Errorf("the reduced evaluation has %d unknowns, the full one %d", nr, nf)
			}
			t.Logf("level 2 %.12g, level 4 %.12g; unknowns of the level-4 evaluation: %d reduced, %d full", rr.Single.UWT, rr.PerState.UWT, nr, nf)
		})
	}
}

// TestPow2Scale holds pow2Scale(m) to its definition, a power of two s
// with m ≤ s < 2m, on a table and on seeded random magnitudes over the
// range of float64 below 2^1023 (subnormals included).
func TestPow2Scale(t *testing.T) {
	for _, c := range []struct{ m, want float64 }{
		{0, 0}, {1, 1}, {0.75, 1}, {3, 4}, {4, 4}, {4.000000000000001, 8}, {0.5, 0.5},
		{math.SmallestNonzeroFloat64, math.SmallestNonzeroFloat64}, {math.MaxFloat64, math.MaxFloat64}, // 2^1024 overflows
	} {
		if got := pow2Scale(c.m); got != c.want {
			t.Errorf("pow2Scale(%g) = %g, want %g", c.m, got, c.want)
		}
	}
	rnd := rand.New(rand.NewPCG(20, 13))
	for range 10000 {
		m := math.Ldexp(0.5+rnd.Float64()/2, rnd.IntN(2097)-1074) // up to 2^1023
		if m == 0 || math.IsInf(m, 0) {
			continue
		}
		s := pow2Scale(m)
		if frac, _ := math.Frexp(s); frac != 0.5 || s < m || (s >= 2*m && !math.IsInf(2*m, 0)) {
			t.Fatalf("pow2Scale(%g) = %g: not the power of two in [m, 2m)", m, s)
		}
	}
}

// TestPerConfigurationCoordinateOptimum holds level 3 with
// reconfiguration at checkpoints (PerConfiguration's coordinate ascent,
// whose searches after the first pass start from a bracket of their last
// move: ascendStep) against a fine scan: for every configuration with
// mass at least 1e-6, g of the level-3 policy with I(a) alone moved over
// log I(a) ± 0.05 in 40 steps (the other intervals and the actions kept)
// must not exceed g* by more than 1e-9 relative (RelTol is 1e-10; the
// maximum is quadratic, so the search's IntervalTol of 1e-6 on log I
// costs far less). The power check: with the heaviest configuration's
// I(a) moved by 2 % off the optimum, the same scan must find a point
// above it by more than that tolerance.
func TestPerConfigurationCoordinateOptimum(t *testing.T) {
	ctx := context.Background()
	const tol, width, steps = 1e-9, 0.05, 40
	for _, c := range gradientCases(t)[:2] {
		t.Run(c.name, func(t *testing.T) {
			sv, err := New(c.sc, nil)
			if err != nil {
				t.Fatal(err)
			}
			rep, err := sv.Levels(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			conf := rep.PerConfiguration
			gAt := func(pol *Policy, b int, x float64) float64 {
				p := sv.clone(pol)
				setConf(p, b, math.Exp(x))
				v, err := sv.evaluate(ctx, p, true)
				if err != nil {
					t.Fatal(err)
				}
				return v.g
			}
			// scanMax returns the largest g over the scan of I(a) of b.
			scanMax := func(pol *Policy, b int) (float64, float64) {
				x0 := math.Log(pol.interval[b][0])
				best, xb := math.Inf(-1), x0
				for i := range steps + 1 {
					x := x0 - width + 2*width*float64(i)/steps
					if g := gAt(pol, b, x); g > best {
						best, xb = g, x
					}
				}
				return best, xb
			}
			heavy, mh, scanned := 0, 0.0, 0
			for a, m := range conf.Mass {
				if m > mh || (m == mh && a < heavy) {
					heavy, mh = a, m
				}
				if m < 1e-6 {
					continue
				}
				scanned++
				b := sv.aIdx[a]
				if iv := conf.Intervals[a]; iv != conf.Policy.interval[b][0] {
					t.Fatalf("I(%d) = %g, policy's %g", a, iv, conf.Policy.interval[b][0])
				}
				if g, xb := scanMax(conf.Policy, b); g > conf.UWT*(1+tol) {
					t.Errorf("a = %d (mass %.3g): g = %.15g at I = %g beats level 3's %.15g at I = %g", a, m, g, math.Exp(xb), conf.UWT, conf.Intervals[a])
				}
			}
			if scanned < 2 {
				t.Fatalf("%d configurations with mass ≥ 1e-6: the scan tests too little", scanned)
			}
			t.Logf("%d configurations scanned", scanned)
			// Power: 2 % off the optimum is found.
			b := sv.aIdx[heavy]
			off := sv.clone(conf.Policy)
			setConf(off, b, conf.Intervals[heavy]*1.02)
			g0 := gAt(off, b, math.Log(off.interval[b][0]))
			if g, _ := scanMax(off, b); g <= g0*(1+tol) {
				t.Errorf("power: I(%d) 2 %% off the optimum (g = %.15g) not beaten by the scan (%.15g)", heavy, g0, g)
			}
		})
	}
}
