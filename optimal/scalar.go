package optimal

import "math"

// This file holds the minimal scalar search the solver needs: maximising
// a function of one variable (log I) that is unimodal near its maximum.
// It is kept in one file so that a shared scalar-search package can
// replace it.

// maximize returns the maximiser x and value f(x) of f on [lo, hi],
// starting from x0 with a first step of step: it brackets a maximum by
// expanding geometrically in the rising direction (stopping at the
// bounds), then runs Brent's method (parabolic steps with a golden-section
// safeguard; Brent, Algorithms for Minimization without Derivatives,
// 1973, ch. 5) to the absolute tolerance tol in x. evals counts the calls
// of f. f must not return NaN.
func maximize(f func(float64) float64, x0, step, lo, hi, tol float64) (x, fx float64, evals int) {
	eval := func(x float64) float64 { evals++; return f(x) }
	x0 = min(max(x0, lo), hi)
	a, fa := x0, eval(x0)
	b := min(x0+step, hi)
	fb := eval(b)
	if fb < fa {
		// Go the other way: swap so that b is the better point.
		b = max(x0-step, lo)
		fb2 := eval(b)
		if fb2 < fa {
			// x0 is already above both neighbours: bracket [x0−step, x0+step].
			x, fx = brent(eval, max(x0-step, lo), x0, fa, min(x0+step, hi), tol)
			return x, fx, evals
		}
		fb = fb2
	}
	// Expand from a through b until f falls or the bound is reached.
	for {
		dir := b - a
		c := b + 1.618034*dir
		if c > hi {
			c = hi
		}
		if c < lo {
			c = lo
		}
		if c == b {
			// At the bound: the maximum is there.
			return b, fb, evals
		}
		fc := eval(c)
		if fc < fb {
			l, r := a, c
			if l > r {
				l, r = r, l
			}
			x, fx = brent(eval, l, b, fb, r, tol)
			return x, fx, evals
		}
		a, b, fb = b, c, fc
	}
}

// brent maximises f on [a, c] from the interior point b with value fb.
func brent(f func(float64) float64, a, b, fb, c, tol float64) (float64, float64) {
	const cgold = 0.3819660112501051
	x, w, v := b, b, b
	fx, fw, fv := fb, fb, fb
	var d, e float64
	for range 200 {
		m := 0.5 * (a + c)
		tol1 := tol + 1e-12*math.Abs(x)
		tol2 := 2 * tol1
		if math.Abs(x-m) <= tol2-0.5*(c-a) {
			break
		}
		golden := true
		if math.Abs(e) > tol1 {
			// Parabola through x, w, v (for a maximum of f = minimum of −f).
			r := (x - w) * (fv - fx)
			q := (x - v) * (fw - fx)
			p := (x-v)*q - (x-w)*r
			q = 2 * (q - r)
			if q > 0 {
				p = -p
			}
			q = math.Abs(q)
			if math.Abs(p) < math.Abs(0.5*q*e) && p > q*(a-x) && p < q*(c-x) {
				e, d = d, p/q
				u := x + d
				if u-a < tol2 || c-u < tol2 {
					d = math.Copysign(tol1, m-x)
				}
				golden = false
			}
		}
		if golden {
			if x >= m {
				e = a - x
			} else {
				e = c - x
			}
			d = cgold * e
		}
		u := x + d
		if math.Abs(d) < tol1 {
			u = x + math.Copysign(tol1, d)
		}
		fu := f(u)
		if fu >= fx {
			if u >= x {
				a = x
			} else {
				c = x
			}
			v, fv, w, fw, x, fx = w, fw, x, fx, u, fu
		} else {
			if u < x {
				a = u
			} else {
				c = u
			}
			if fu >= fw || w == x {
				v, fv, w, fw = w, fw, u, fu
			} else if fu >= fv || v == x || v == w {
				v, fv = u, fu
			}
		}
	}
	return x, fx
}
