package scalar

import "math"

// cgold is the golden-section fraction (3 − √5)/2.
const cgold = 0.3819660112501051

// Maximize maximises f on [a, b] by Brent's method (parabolic
// interpolation safeguarded by golden-section steps; Brent 1973, ch. 5),
// starting from the interior point x with f(x) = fx and the known values
// fa, fb at the ends (so that the first step can already be parabolic),
// until the maximiser is located to within tol in x. It returns the
// maximiser and its value.
func Maximize(f Func, a, b, tol, x, fx, fa, fb float64) (float64, float64, error) {
	w, v, fw, fv := a, b, fa, fb
	if fb > fa {
		w, v, fw, fv = b, a, fb, fa
	}
	d, e := 0.0, b-a
	for {
		mid := 0.5 * (a + b)
		tol1 := 1e-10*math.Abs(x) + tol/3
		tol2 := 2 * tol1
		if math.Abs(x-mid) <= tol2-0.5*(b-a) {
			return x, fx, nil
		}
		golden := true
		if math.Abs(e) > tol1 {
			// Parabola through (x, fx), (w, fw), (v, fv); step to its vertex.
			r := (x - w) * (fx - fv)
			q := (x - v) * (fx - fw)
			p := (x-v)*q - (x-w)*r
			q = 2 * (q - r)
			if q > 0 {
				p = -p
			} else {
				q = -q
			}
			// The vertex is the same for a maximum as for a minimum: the
			// step is Brent's unchanged.
			if math.Abs(p) < math.Abs(0.5*q*e) && p > q*(a-x) && p < q*(b-x) {
				e, d = d, p/q
				if u := x + d; u-a < tol2 || b-u < tol2 {
					d = math.Copysign(tol1, mid-x)
				}
				golden = false
			}
		}
		if golden {
			if x < mid {
				e = b - x
			} else {
				e = a - x
			}
			d = cgold * e
		}
		u := x + d
		if math.Abs(d) < tol1 {
			u = x + math.Copysign(tol1, d)
		}
		fu, err := f(u)
		if err != nil {
			return 0, 0, err
		}
		if fu >= fx {
			if u < x {
				b = x
			} else {
				a = x
			}
			v, fv, w, fw, x, fx = w, fw, x, fx, u, fu
			continue
		}
		if u < x {
			a = u
		} else {
			b = u
		}
		switch {
		case fu >= fw || w == x:
			v, fv, w, fw = w, fw, u, fu
		case fu >= fv || v == x || v == w:
			v, fv = u, fu
		}
	}
}

// LevelCrossing finds x between in (f(in) = fin ≥ level) and out
// (f(out) = fout < level) with f(x) = level, by the Illinois variant of
// regula falsi. It stops when the bracket is narrower than tol or
// |f(x) − level| is below tol·(fin − level) at the start.
func LevelCrossing(f Func, in, out, fin, fout, level, tol float64) (float64, error) {
	hin, hout := fin-level, fout-level
	hTol := tol * hin
	side := 0
	for math.Abs(out-in) > tol {
		x := out - hout*(out-in)/(hout-hin)
		// Keep the step strictly inside and away from the ends.
		lo, hi := math.Min(in, out), math.Max(in, out)
		if !(x > lo+tol/4 && x < hi-tol/4) {
			x = 0.5 * (in + out)
		}
		v, err := f(x)
		if err != nil {
			return 0, err
		}
		h := v - level
		if h >= 0 {
			in, hin = x, h
			if side == 1 {
				hout /= 2
			}
			side = 1
		} else {
			out, hout = x, h
			if side == -1 {
				hin /= 2
			}
			side = -1
		}
		if math.Abs(h) <= hTol {
			return x, nil
		}
	}
	return 0.5 * (in + out), nil
}

// LogRoot finds a root of f over x > 0 where f is increasing in x, from the
// starting guess x0 > 0: it brackets the sign change by moving by factors
// of 2, then runs Root in u = ln x to a width of tol in u.
func LogRoot(f Func, x0, tol float64) (float64, error) {
	g := func(u float64) (float64, error) { return f(math.Exp(u)) }
	u := math.Log(x0)
	gu, err := g(u)
	if err != nil {
		return math.NaN(), err
	}
	if gu == 0 {
		return x0, nil
	}
	h := math.Ln2
	if gu > 0 {
		h = -h
	}
	a, ga := u, gu
	for {
		b := a + h
		if math.Abs(b) > LogLimit {
			return math.NaN(), ErrNoBracket
		}
		gb, err := g(b)
		if err != nil {
			return math.NaN(), err
		}
		if math.IsNaN(gb) {
			return math.NaN(), ErrNoBracket
		}
		if gb == 0 {
			return math.Exp(b), nil
		}
		if (gb > 0) != (ga > 0) {
			r, err := Root(g, a, b, ga, gb, tol)
			if err != nil {
				return math.NaN(), err
			}
			return math.Exp(r), nil
		}
		a, ga = b, gb
	}
}

// LogRootIn returns the root of f between a and b (0 < a < b, f(a) and
// f(b) of opposite signs) by Root in u = ln x, to a width of tol in u
// (a relative tol in x).
func LogRootIn(f Func, a, b, tol float64) (float64, error) {
	g := func(u float64) (float64, error) { return f(math.Exp(u)) }
	ua, ub := math.Log(a), math.Log(b)
	ga, err := g(ua)
	if err != nil {
		return math.NaN(), err
	}
	gb, err := g(ub)
	if err != nil {
		return math.NaN(), err
	}
	if (ga > 0) == (gb > 0) || math.IsNaN(ga) || math.IsNaN(gb) {
		return math.NaN(), ErrNoBracket
	}
	u, err := Root(g, ua, ub, ga, gb, tol)
	return math.Exp(u), err
}

// Root returns a root of g in [a, b] with g(a)·g(b) < 0 by Brent's method
// (inverse quadratic interpolation, secant and bisection steps), to an
// absolute accuracy tol, in at most 200 evaluations (Brent 1973, ch. 4).
func Root(g Func, a, b, ga, gb, tol float64) (float64, error) {
	if math.Abs(ga) < math.Abs(gb) {
		a, b, ga, gb = b, a, gb, ga
	}
	c, gc := a, ga
	d := b - a
	e := d
	for range 200 {
		if gb == 0 {
			return b, nil
		}
		if (gb > 0) == (gc > 0) {
			c, gc = a, ga
			d = b - a
			e = d
		}
		if math.Abs(gc) < math.Abs(gb) {
			a, b, c = b, c, b
			ga, gb, gc = gb, gc, gb
		}
		tol1 := 2*0x1p-52*math.Abs(b) + tol/2
		m := (c - b) / 2
		if math.Abs(m) <= tol1 {
			return b, nil
		}
		d, e = rootStep(a, b, c, ga, gb, gc, d, e, m, tol1)
		a, ga = b, gb
		if math.Abs(d) > tol1 {
			b += d
		} else {
			b += math.Copysign(tol1, m)
		}
		var err error
		if gb, err = g(b); err != nil {
			return math.NaN(), err
		}
	}
	return b, nil
}

// rootStep returns Root's next step d and the step before it, e: inverse
// quadratic interpolation (secant when a = c) if it stays well inside the
// bracket, bisection otherwise.
func rootStep(a, b, c, ga, gb, gc, d, e, m, tol1 float64) (float64, float64) {
	if math.Abs(e) < tol1 || math.Abs(ga) <= math.Abs(gb) {
		return m, m
	}
	var p, q float64
	s := gb / ga
	if a == c {
		p = 2 * m * s
		q = 1 - s
	} else {
		qq := ga / gc
		r := gb / gc
		p = s * (2*m*qq*(qq-r) - (b-a)*(r-1))
		q = (qq - 1) * (r - 1) * (s - 1)
	}
	if p > 0 {
		q = -q
	} else {
		p = -p
	}
	if 2*p < math.Min(3*m*q-math.Abs(tol1*q), math.Abs(e*q)) {
		return p / q, d
	}
	return m, m
}
