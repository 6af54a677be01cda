package optimal

import (
	"math"

	"github.com/ckpt-markov/markov/internal/scalar"
)

// maximize returns the maximiser x of f on [lo, hi] and f(x), starting
// from x0 with a first step of step, to within tol in x, with package
// scalar's downhill bracket and Brent's method. Outside [lo, hi], the
// function searched is f at the nearest bound minus the distance to it,
// so that a maximum at a bound is bracketed there. A value −∞ (an
// evaluation that failed, recorded by the caller) counts as the lowest.
// A point is evaluated once (Brent's method returns a point it
// evaluated; the bracket of a maximum at a bound reaches the bound from
// several points outside): each evaluation of the searches of levels 2
// and 3 is a solve of the whole chain.
func maximize(f func(float64) float64, x0, step, lo, hi, tol float64) (x, fx float64) {
	return search(f, nil, x0, step, lo, hi, tol)
}

// maximizeFrom is maximize when the caller has f0 = f(x0) already (the
// value of the current interval, which it compares the maximum with):
// the search does not evaluate x0 again. f0 must be f's own value at x0,
// so that the search is the same as maximize's.
func maximizeFrom(f func(float64) float64, x0, f0, step, lo, hi, tol float64) (x, fx float64) {
	if x0 < lo || x0 > hi {
		return maximize(f, x0, step, lo, hi, tol)
	}
	return search(f, []scalarPoint{{x0, f0}}, x0, step, lo, hi, tol)
}

// search is maximize with the points of seen evaluated already.
func search(f func(float64) float64, seen []scalarPoint, x0, step, lo, hi, tol float64) (x, fx float64) {
	clamp := func(u float64) float64 { return min(max(u, lo), hi) }
	fc := func(c float64) float64 {
		for _, p := range seen {
			if p.x == c {
				return p.f
			}
		}
		v := f(c)
		seen = append(seen, scalarPoint{c, v})
		return v
	}
	g := func(u float64) (float64, error) {
		c := clamp(u)
		v := fc(c)
		if math.IsInf(v, -1) || math.IsNaN(v) {
			return math.Inf(1), nil
		}
		return -v + math.Abs(u-c)*(1+math.Abs(v)), nil
	}
	x0 = clamp(x0)
	br, err := scalar.BracketMin(g, x0, step)
	if err != nil {
		return x0, fc(x0)
	}
	u, err := scalar.Minimize(g, br, tol)
	if err != nil {
		return x0, fc(x0)
	}
	x = clamp(u)
	return x, fc(x)
}

// scalarPoint is a point maximize evaluated.
type scalarPoint struct{ x, f float64 }
