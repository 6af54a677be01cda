package optimal

import (
	"context"
	"math"
	"slices"
	"testing"
)

// TestXValueBound holds xValues.bound against the bracket of every
// recovery X(p, n) → c (xValue) on every scenario with reconfiguration
// of the package, at the values of greedy and of the optimum at three
// intervals: bracket ≤ bound + slack. Power: the same bound with each
// range's maximum replaced by the plain mean of h over the range (a
// bound that forgets the weights can be exceeded) is exceeded by some
// bracket, and the bound itself is below the best bracket of its state
// for at least a tenth of the recoveries (it would rule them out).
func TestXValueBound(t *testing.T) {
	ctx := context.Background()
	wrong, ruled, total := 0, 0, 0
	for _, c := range reconfCases(t) {
		t.Run(c.name, func(t *testing.T) {
			sv, err := New(c.sc, c.set)
			if err != nil {
				t.Fatal(err)
			}
			for _, iv := range []float64{150, 600, 2400} {
				r, err := sv.FixedInterval(ctx, iv)
				if err != nil {
					t.Fatal(err)
				}
				for _, pol := range []*Policy{sv.Greedy(iv), r.Policy} {
					v, err := sv.evaluate(ctx, pol, false)
					if err != nil {
						t.Fatal(err)
					}
					w, rl, tl := checkXBound(t, sv, v)
					wrong, ruled, total = wrong+w, ruled+rl, total+tl
				}
			}
		})
	}
	if wrong == 0 {
		t.Error("power: no bracket exceeds the bound with the mean of h over each range: the test cannot tell a bound that ignores the weights")
	}
	if 10*ruled < total {
		t.Errorf("the bound rules out %d of %d recoveries: less than a tenth", ruled, total)
	}
	t.Logf("%d recoveries: %d ruled out by the bound, %d above the mean-of-range stand-in", total, ruled, wrong)
}

// checkXBound checks the bound of every recovery of sv at the values v
// and returns the counts of TestXValueBound: brackets above the
// mean-of-range stand-in, recoveries whose bound is below the state's
// best bracket, recoveries checked.
func checkXBound(t *testing.T, sv *Solver, v *values) (wrong, ruled, total int) {
	t.Helper()
	xv := sv.newXValues(v)
	mean := func(h []float64, i0, i1 int32) float64 {
		s := 0.0
		for _, x := range h[i0 : i1+1] {
			s += x
		}
		return s / float64(i1-i0+1)
	}
	for pi := range sv.ps {
		hx := v.hX[pi*sv.w : (pi+1)*sv.w]
		for n := sv.lo; n <= sv.hi; n++ {
			best := sv.xValue(v, pi, n, 0)
			for _, c := range sv.acts {
				if c <= n {
					best = max(best, sv.xValue(v, pi, n, c))
				}
			}
			for _, c := range sv.acts {
				if c > n {
					continue
				}
				b := sv.aIdx[c]
				got := sv.xValue(v, pi, n, c)
				ub, slack := xv.bound(pi, n, c)
				if got > ub+slack {
					t.Errorf("X(%d, %d) → %d: bracket %.17g above the bound %.17g + %.3g", sv.ps[pi], n, c, got, ub, slack)
				}
				sm := sv.recSum[sv.recSumIndex(pi, n, b)]
				alt := -v.g * sm.tau
				if sm.u1 >= sm.u0 {
					alt += sm.mu * mean(v.upH(b), sm.u0, sm.u1)
				}
				if sm.f1 >= sm.f0 {
					alt += sm.mf * mean(hx, sm.f0, sm.f1)
				}
				if got > alt+slack {
					wrong++
				}
				if ub+slack <= best {
					ruled++
				}
				total++
			}
		}
	}
	return wrong, ruled, total
}

// TestXBoundSameLevels holds the four levels with the improvement passes
// ruling out recoveries by the bound (xBound) against the exhaustive
// passes, on every scenario with reconfiguration of the package and on QR
// at N = 32 (MTTF 8 h, MTTR 4 h): the same g at levels 2, 3 and 4 bit for
// bit, the same actions in X and choices in U, the same intervals. A
// bracket the bound rules out could not have been taken (improveX and
// improveR take a strictly better one), so nothing may move. Power: the
// bound rules out brackets (in one pass at level 2's policy: from 12 on
// the smallest scenarios to 15,070 on QR at N = 32), so the comparison is
// not of two runs of one code path.
func TestXBoundSameLevels(t *testing.T) {
	cases := reconfCasesQR32(t)
	ctx := context.Background()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			levels := func(on bool) Report {
				xBound = on
				defer func() { xBound = true }()
				return levelsOf(t, c.sc, c.set)
			}
			rb, re := levels(true), levels(false)
			same := func(what string, got, want Result) {
				t.Helper()
				if math.Float64bits(got.UWT) != math.Float64bits(want.UWT) {
					t.Errorf("%s: g = %.17g with the bound, %.17g without", what, got.UWT, want.UWT)
				}
				gp, wp := got.Policy, want.Policy
				if !slices.Equal(gp.action, wp.action) {
					t.Errorf("%s: actions in X differ", what)
				}
				for b := range gp.interval {
					if !slices.Equal(gp.interval[b], wp.interval[b]) || !slices.Equal(gp.reconf[b], wp.reconf[b]) {
						t.Errorf("%s: configuration %d: intervals or choices in U differ", what, solverOf(gp).acts[b])
					}
				}
			}
			same("level 2", rb.Single.Result, re.Single.Result)
			same("level 3", rb.PerConfiguration.Result, re.PerConfiguration.Result)
			same("level 4", rb.PerState, re.PerState)
			s := solverOf(rb.Single.Policy)
			v, err := s.evaluate(ctx, rb.Single.Policy, false)
			if err != nil {
				t.Fatal(err)
			}
			xv := s.newXValues(v)
			if _, err := s.improveX(ctx, v, s.clone(rb.Single.Policy), xv); err != nil {
				t.Fatal(err)
			}
			if _, err := s.improveR(v, s.clone(rb.Single.Policy), xv); err != nil {
				t.Fatal(err)
			}
			if xv.skipped == 0 {
				t.Error("power: the bound ruled out no bracket at level 2's policy")
			}
			t.Logf("brackets ruled out in one pass at level 2's policy: %d", xv.skipped)
		})
	}
}

// solverOf returns the solver of pol.
func solverOf(pol *Policy) *Solver { return pol.sv }
