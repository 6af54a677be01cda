package optimal

import (
	"math"
	"testing"
)

// TestMaximize holds maximize against the closed-form maximiser of
// concave quadratics and of a bounded one (the maximum at a bound), to
// within the tolerance asked for, with f(x) returned exactly as f gives
// it at x, and x evaluated once: the value of the search's own evaluation
// is returned, not a new one (each evaluation of the searches of levels 2
// and 3 is a solve of the whole chain). maximizeFrom, given f(x0), must
// return the same point and value without evaluating x0.
func TestMaximize(t *testing.T) {
	const tol = 1e-6
	for _, c := range []struct {
		name           string
		peak, lo, hi   float64
		x0, step, want float64
	}{
		{"interior", 0.3, -5, 5, 1, 0.1, 0.3},
		{"interior, far start", -2.7, -5, 5, 3, 0.35, -2.7},
		{"at the upper bound", 7, -5, 5, 0, 0.1, 5},
		{"at the lower bound", -9, -5, 5, 0, 0.1, -5},
	} {
		t.Run(c.name, func(t *testing.T) {
			calls := map[float64]int{}
			f := func(x float64) float64 {
				calls[x]++
				return -(x - c.peak) * (x - c.peak)
			}
			x, fx := maximize(f, c.x0, c.step, c.lo, c.hi, tol)
			if math.Abs(x-c.want) > 2*tol {
				t.Errorf("x = %.9g, want %.9g within %g", x, c.want, 2*tol)
			}
			if want := -(x - c.peak) * (x - c.peak); fx != want {
				t.Errorf("f(x) = %.17g, want %.17g", fx, want)
			}
			if calls[x] != 1 {
				t.Errorf("x evaluated %d times, want once", calls[x])
			}
			// maximizeFrom with f(x0) given: the same search, without
			// evaluating x0 (inside the bounds) again.
			clear(calls)
			xf, ff := maximizeFrom(f, c.x0, -(c.x0-c.peak)*(c.x0-c.peak), c.step, c.lo, c.hi, tol)
			if xf != x || ff != fx {
				t.Errorf("maximizeFrom: (%.17g, %.17g), maximize (%.17g, %.17g)", xf, ff, x, fx)
			}
			if calls[c.x0] != 0 {
				t.Errorf("maximizeFrom evaluated x0 %d times, want none", calls[c.x0])
			}
		})
	}
}
