package optimal

import (
	"context"
	"math"
	"testing"
)

// TestGainBound holds gainBound, which lets SingleInterval's scan skip
// the solve of a point that cannot be the maximum, above g*(I) solved by
// policy iteration on every scenario of this package's tests, on a
// doubling grid of intervals from 30 s to 8.5 d, to 1e-12 relative (the
// solve's rounding). The bound is closed form (each configuration's gain
// with free recoveries and no down time); the solve is the Markov
// decision process. The power check: where repairs are short beside the
// MTTF (the built-in system) the bound is within 1 % of g*(I) at the
// best interval of the grid, so a bound off by a constant factor fails
// too (where repairs are long, the "greedy" case, it is 4× g*). The
// bound holds with the up states too (reconfiguration at checkpoints,
// and the solver with up states without it): every scenario of
// reconfCases, and the enumeration cases with the up states kept.
func TestGainBound(t *testing.T) {
	ctx := context.Background()
	tightest := math.Inf(1)
	cases := secondOracleCases(t)
	cases = append(cases, reconfCases(t)...)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sv, err := New(c.sc, c.set)
			if err != nil {
				t.Fatal(err)
			}
			bestG, bestUB := math.Inf(-1), 0.0
			for iv := 30.0; iv <= 8.5*86400; iv *= 2 {
				r, err := sv.FixedInterval(ctx, iv)
				if err != nil {
					t.Fatal(err)
				}
				ub := sv.gainBound(iv)
				if r.UWT > ub*(1+1e-12) {
					t.Errorf("I = %g s: g* %.15g above the bound %.15g", iv, r.UWT, ub)
				}
				if r.UWT > bestG {
					bestG, bestUB = r.UWT, ub
				}
			}
			tightest = min(tightest, bestUB/bestG)
		})
	}
	if !(tightest < 1.01) {
		t.Errorf("the bound is at least %g × g* at the best interval in every case", tightest)
	}
	// The solver with up states and without reconfiguration.
	upStates = true
	defer func() { upStates = false }()
	for _, c := range enumerationCases(t) {
		sv, err := New(c.sc, c.set)
		if err != nil {
			t.Fatal(err)
		}
		for iv := 30.0; iv <= 8.5*86400; iv *= 4 {
			r, err := sv.FixedInterval(ctx, iv)
			if err != nil {
				t.Fatal(err)
			}
			if ub := sv.gainBound(iv); r.UWT > ub*(1+1e-12) {
				t.Errorf("%s, up states: I = %g s: g* %.15g above the bound %.15g", c.name, iv, r.UWT, ub)
			}
		}
	}
}

// TestBestIndex: the scan's best point (peak's and climb's start) is the
// first with the largest g, a NaN counted below every number (where the
// index of the first point equal to the maximum found none, -1, for a
// NaN first point); the wanted indices are read off each table.
func TestBestIndex(t *testing.T) {
	nan := math.NaN()
	for _, tc := range []struct {
		g    []float64
		want int
	}{
		{[]float64{1}, 0},
		{[]float64{1, 3, 2}, 1},
		{[]float64{3, 1, 3}, 0},
		{[]float64{math.Inf(-1), -2, -1}, 2},
		{[]float64{nan, 1, 2}, 2},
		{[]float64{1, nan, 0.5}, 0},
		{[]float64{nan, nan}, 0},
	} {
		scan := make([]scanPoint, len(tc.g))
		for i, g := range tc.g {
			scan[i] = scanPoint{x: float64(i), g: g}
		}
		if got := bestIndex(scan); got != tc.want {
			t.Errorf("bestIndex(%v) = %d, want %d", tc.g, got, tc.want)
		}
	}
}

// TestAscendStep: the first step of a coordinate search is 0.1 the first
// time (recorded step 0), then the recorded step (twice the last move, at
// least ascendMinStep) capped at 0.1, as docs/optimal-policy.md states.
func TestAscendStep(t *testing.T) {
	for _, tc := range []struct{ last, want float64 }{
		{0, 0.1}, {ascendMinStep, ascendMinStep}, {0.05, 0.05}, {0.1, 0.1}, {0.5, 0.1},
	} {
		if got := ascendStep(tc.last); got != tc.want {
			t.Errorf("ascendStep(%v) = %v, want %v", tc.last, got, tc.want)
		}
	}
}
