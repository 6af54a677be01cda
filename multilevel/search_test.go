package multilevel

import (
	"context"
	"math"
	"slices"
	"testing"

	"github.com/ckpt-markov/markov/internal/scalar"
	"github.com/ckpt-markov/markov/scenario"
)

// scanOptimum is the exhaustive oracle of Optimize: every pattern of the
// grid [0, hi₁] × … × [0, hi_{L−1}], each with its own interval search by
// Brent's method in ln I (scalar.LogMinimize, a second algorithm: Optimize
// uses a bracket and scalar.MaximizeSeen) to 1e-9 from the first-order
// interval. It returns the best and the second-best UWT of the grid.
func scanOptimum(t *testing.T, m *Model, hi []int) (best Result, second float64) {
	t.Helper()
	sr := newSearcher(context.Background(), m, DefaultTol, 1)
	second = math.Inf(-1)
	v := make([]int, len(hi))
	for {
		f := func(I float64) (float64, error) {
			r, err := m.Evaluate(v, I)
			return -r.UWT, err
		}
		x0, ok := sr.firstOrderLog(v)
		if !ok {
			x0 = math.Log(3600)
		}
		I, err := scalar.LogMinimize(f, math.Exp(x0), 1e-9)
		if err != nil {
			t.Fatal(err)
		}
		r, err := m.Evaluate(v, I)
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case best.Pattern == nil || r.UWT > best.UWT:
			if best.Pattern != nil {
				second = best.UWT
			}
			best = r
		case r.UWT > second:
			second = r.UWT
		}
		l := 0
		for l < len(v) && v[l] == hi[l] {
			v[l] = 0
			l++
		}
		if l == len(v) {
			return best, second
		}
		v[l]++
	}
}

// TestOptimizeMatchesScan: the joint optimum (coordinate search on loose
// interval maxima, the winner polished) is the best pattern of an
// exhaustive scan of a grid that holds it inside, with each pattern's
// interval by Brent's method to 1e-9: the same pattern, UWT to
// 4ρ + κ·1e-12 relative and the interval to 1e-6 + 2·sqrt(2·4ρ/κ) in ln I,
// κ the relative curvature of UWT in ln I at the optimum and ρ the
// relative rounding noise of UWT there (the largest relative change over
// eight steps of 1e-9 in ln I, where the true change is below κ·1e-16):
// no search locates a maximum better than where UWT changes by its noise,
// and the search's 1e-6 in ln I costs κ·1e-12/2. The power checks: every
// other pattern of the grid is below the best by more than the UWT
// tolerance (a neighbouring pattern is rejected), and the loose accuracy
// of the pattern comparison (1e-3 in ln I) is above the interval
// tolerance (an unpolished winner is rejected). Cases: two and
// three levels on a fixed count (the nested period), three levels under
// greedy with severity-2 processor failures (the positional chain).
func TestOptimizeMatchesScan(t *testing.T) {
	greedy3 := threeLevel(t, 8, 2e5, 3600, []float64{0.85, 0.1, 0.05}, scenario.Policy{})
	moldable3 := threeLevel(t, 8, 2e5, 3600, []float64{0.85, 0.1, 0.05}, scenario.Policy{Kind: scenario.Moldable, Processors: 6})
	for _, tc := range []struct {
		name string
		sc   *scenario.Scenario
		hi   []int
	}{
		{"Atlas", atlas(t, 1), []int{60}},
		{"three levels, moldable", moldable3, []int{6, 4}},
		{"three levels, greedy, f2 > 0", greedy3, []int{6, 4}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := New(tc.sc)
			if err != nil {
				t.Fatal(err)
			}
			opt, err := m.Optimize(context.Background(), nil)
			if err != nil {
				t.Fatal(err)
			}
			want, second := scanOptimum(t, m, tc.hi)
			for l, v := range want.Pattern {
				if v == tc.hi[l] {
					t.Fatalf("the scan's best %v is on the grid's edge %v: widen the grid", want.Pattern, tc.hi)
				}
			}
			kappa, rho := curvature(t, m, want)
			uTol := 4*rho + kappa*DefaultTol*DefaultTol
			iTol := DefaultTol + 2*math.Sqrt(8*rho/kappa)
			t.Logf("optimum %v, I = %.6f s, UWT %.15g (%d patterns, %d evaluations); scan %v, I = %.6f s, UWT %.15g; second best %.3g below; κ = %.3g, ρ = %.2g, tolerances %.2g (UWT), %.2g (ln I)",
				opt.Pattern, opt.Interval, opt.UWT, opt.Patterns, opt.Evaluations, want.Pattern, want.Interval, want.UWT, 1-second/want.UWT, kappa, rho, uTol, iTol)
			if !(1-second/want.UWT > uTol) || !(iTol < looseTol) || !(kappa < 1) {
				t.Fatalf("the case cannot tell a neighbouring pattern or a loose interval (second best %.3g below, interval tolerance %.2g, κ %.3g)", 1-second/want.UWT, iTol, kappa)
			}
			if !slices.Equal(opt.Pattern, want.Pattern) {
				t.Errorf("pattern %v, scan %v", opt.Pattern, want.Pattern)
			}
			if d := math.Abs(opt.UWT/want.UWT - 1); d > uTol {
				t.Errorf("UWT %.15g, scan %.15g (relative %.2g)", opt.UWT, want.UWT, d)
			}
			if d := math.Abs(math.Log(opt.Interval / want.Interval)); d > iTol {
				t.Errorf("interval %.9g, scan %.9g (%.2g in ln I)", opt.Interval, want.Interval, d)
			}
		})
	}
}

// curvature returns κ = −(d²UWT/du²)/UWT at r, u = ln I, by the central
// difference of step 0.01, and ρ, the largest relative change of UWT over
// steps of k·1e-9 in u, k = 1..8 (rounding: the true change is below
// κ·1e-16), at least 1e-16.
func curvature(t *testing.T, m *Model, r Result) (kappa, rho float64) {
	t.Helper()
	uwt := func(s float64) float64 {
		q, err := m.Evaluate(r.Pattern, r.Interval*math.Exp(s))
		if err != nil {
			t.Fatal(err)
		}
		return q.UWT
	}
	kappa = -(uwt(-0.01) - 2*r.UWT + uwt(0.01)) / (1e-4 * r.UWT)
	rho = 1e-16
	for k := 1; k <= 8; k++ {
		rho = max(rho, math.Abs(uwt(float64(k)*1e-9)/r.UWT-1))
	}
	return kappa, rho
}

// TestUpperBound: the bound polish uses is at least the maximum of a
// function concave near its top (closed form: −(u − c)² + 5 peaks at 5)
// from three evaluations around it at the loose spacing, wherever the
// top lies between them, and within the spacing's square of it (the best
// evaluation alone, a wrong bound, is below 5 at every top but 0);
// without a neighbour on one side it is +Inf.
func TestUpperBound(t *testing.T) {
	const h = looseTol / 3
	for _, c := range []float64{-0.4 * h, -0.2 * h, 0, 0.3 * h, 0.6 * h} {
		f := func(u float64) float64 { return -(u-c)*(u-c) + 5 }
		ps := &patternSearch{}
		for _, u := range []float64{-h, 0, 1.5 * h} {
			ps.pts = append(ps.pts, scalar.Point{X: u, F: f(u)})
		}
		ps.best = ps.pts[0]
		for _, p := range ps.pts {
			if p.F > ps.best.F {
				ps.best = p
			}
		}
		if ps.best.X != 0 {
			t.Fatalf("top at %g: the best evaluation is an end, not a bracket", c)
		}
		up := ps.upper()
		if up < 5 || up > 5+4*h*h {
			t.Errorf("top at %g: bound %.17g, want in [5, 5 + 4h²]", c, up)
		}
	}
	ps := &patternSearch{pts: []scalar.Point{{X: 0, F: 1}, {X: 1, F: 0}}, best: scalar.Point{X: 0, F: 1}}
	if up := ps.upper(); !math.IsInf(up, 1) {
		t.Errorf("best at an end: bound %v, want +Inf", up)
	}
}
