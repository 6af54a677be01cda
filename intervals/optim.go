package intervals

import (
	"errors"
	"math"
)

// errNoBracket is returned when a search cannot bracket a root or a
// minimum inside the representable range.
var errNoBracket = errors.New("no bracket found")

// invPhi is 1/φ for the golden ratio φ.
var invPhi = (math.Sqrt(5) - 1) / 2

// logMinimize minimises f(x) over x > 0, searching in u = ln x from
// x0 > 0. It first brackets a local minimum by stepping downhill with
// doubling steps, then narrows the bracket by golden-section search until
// its width in u is below tol (the returned x is then within a relative
// tol of the bracketed minimiser, or limited by the flatness of f: about
// sqrt(2ε·|f|/f″) in u). f should be unimodal for the result to be the
// global minimiser.
func logMinimize(f func(x float64) float64, x0, tol float64) (float64, error) {
	g := func(u float64) float64 { return f(math.Exp(u)) }
	a, b, err := bracketMin(g, math.Log(x0), 0.5)
	if err != nil {
		return math.NaN(), err
	}
	return math.Exp(golden(g, a, b, tol)), nil
}

// bracketMin returns [a, b] containing a local minimum of g, starting at u
// with initial step h. The bracket stays inside |u| ≤ 700 so that e^u is
// finite.
func bracketMin(g func(float64) float64, u, h float64) (a, b float64, err error) {
	const limit = 700
	gu := g(u)
	// Choose the downhill direction.
	gr := g(u + h)
	if gr > gu {
		gl := g(u - h)
		if gl >= gu {
			return u - h, u + h, nil
		}
		h = -h
		gr = gl
	}
	// Walk downhill, doubling the step, until g rises.
	prev, cur, gcur := u, u+h, gr
	for {
		h *= 2
		next := cur + h
		if math.Abs(next) > limit {
			return math.NaN(), math.NaN(), errNoBracket
		}
		gn := g(next)
		if gn > gcur || math.IsNaN(gn) {
			return math.Min(prev, next), math.Max(prev, next), nil
		}
		prev, cur, gcur = cur, next, gn
	}
}

// golden returns the minimiser of g on [a, b] by golden-section search,
// stopping when the bracket is narrower than tol.
func golden(g func(float64) float64, a, b, tol float64) float64 {
	c := b - invPhi*(b-a)
	d := a + invPhi*(b-a)
	gc, gd := g(c), g(d)
	for b-a > tol {
		if gc < gd {
			b, d, gd = d, c, gc
			c = b - invPhi*(b-a)
			gc = g(c)
		} else {
			a, c, gc = c, d, gd
			d = a + invPhi*(b-a)
			gd = g(d)
		}
	}
	if gc < gd {
		return c
	}
	return d
}

// logRoot finds a root of f over x > 0 where f is increasing in x, from the
// starting guess x0 > 0: it brackets the sign change by moving by factors
// of 2, then runs Brent's method in u = ln x to a width of tol in u.
func logRoot(f func(x float64) float64, x0, tol float64) (float64, error) {
	g := func(u float64) float64 { return f(math.Exp(u)) }
	u := math.Log(x0)
	gu := g(u)
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
		if math.Abs(b) > 700 {
			return math.NaN(), errNoBracket
		}
		gb := g(b)
		if math.IsNaN(gb) {
			return math.NaN(), errNoBracket
		}
		if gb == 0 {
			return math.Exp(b), nil
		}
		if (gb > 0) != (ga > 0) {
			return math.Exp(brent(g, a, b, ga, gb, tol)), nil
		}
		a, ga = b, gb
	}
}

// brent returns a root of g in [a, b] with g(a)·g(b) < 0 by Brent's method
// (inverse quadratic interpolation, secant and bisection steps), to an
// absolute accuracy tol. See R. P. Brent, Algorithms for Minimization
// without Derivatives (1973), chapter 4.
func brent(g func(float64) float64, a, b, ga, gb, tol float64) float64 {
	if math.Abs(ga) < math.Abs(gb) {
		a, b, ga, gb = b, a, gb, ga
	}
	c, gc := a, ga
	d := b - a
	e := d
	for range 200 {
		if gb == 0 {
			return b
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
			return b
		}
		if math.Abs(e) >= tol1 && math.Abs(ga) > math.Abs(gb) {
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
				e, d = d, p/q
			} else {
				d, e = m, m
			}
		} else {
			d, e = m, m
		}
		a, ga = b, gb
		if math.Abs(d) > tol1 {
			b += d
		} else {
			b += math.Copysign(tol1, m)
		}
		gb = g(b)
	}
	return b
}
