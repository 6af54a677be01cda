package scalar

import (
	"errors"
	"math"
)

// Func is a function of one variable whose evaluation may fail.
type Func func(x float64) (float64, error)

// Plain adapts a function that cannot fail.
func Plain(f func(float64) float64) Func {
	return func(x float64) (float64, error) { return f(x), nil }
}

// ErrNoBracket is returned when a search cannot bracket a root or a
// minimum inside |u| ≤ LogLimit.
var ErrNoBracket = errors.New("no bracket found")

// LogLimit bounds the searches in u = ln x, so that e^u stays finite.
const LogLimit = 700

// invPhi is 1/φ for the golden ratio φ.
var invPhi = (math.Sqrt(5) - 1) / 2

// BracketMin returns [a, b] containing a local minimum of g, starting at u
// with initial step h and stepping downhill with doubling steps until g
// rises. The bracket stays inside |u| ≤ LogLimit.
func BracketMin(g Func, u, h float64) (a, b float64, err error) {
	gu, err := g(u)
	if err != nil {
		return math.NaN(), math.NaN(), err
	}
	// Choose the downhill direction.
	gr, err := g(u + h)
	if err != nil {
		return math.NaN(), math.NaN(), err
	}
	if gr > gu {
		gl, err := g(u - h)
		if err != nil {
			return math.NaN(), math.NaN(), err
		}
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
		if math.Abs(next) > LogLimit {
			return math.NaN(), math.NaN(), ErrNoBracket
		}
		gn, err := g(next)
		if err != nil {
			return math.NaN(), math.NaN(), err
		}
		if gn > gcur || math.IsNaN(gn) {
			return math.Min(prev, next), math.Max(prev, next), nil
		}
		prev, cur, gcur = cur, next, gn
	}
}

// GoldenMin returns the minimiser of g on [a, b] by golden-section search,
// stopping when the bracket is narrower than tol.
func GoldenMin(g Func, a, b, tol float64) (float64, error) {
	c := b - invPhi*(b-a)
	d := a + invPhi*(b-a)
	gc, err := g(c)
	if err != nil {
		return math.NaN(), err
	}
	gd, err := g(d)
	if err != nil {
		return math.NaN(), err
	}
	for b-a > tol {
		if gc < gd {
			b, d, gd = d, c, gc
			c = b - invPhi*(b-a)
			if gc, err = g(c); err != nil {
				return math.NaN(), err
			}
		} else {
			a, c, gc = c, d, gd
			d = a + invPhi*(b-a)
			if gd, err = g(d); err != nil {
				return math.NaN(), err
			}
		}
	}
	if gc < gd {
		return c, nil
	}
	return d, nil
}

// LogMinimize minimises f(x) over x > 0, searching in u = ln x from
// x0 > 0: BracketMin with an initial step of 0.5, then GoldenMin until the
// bracket is narrower than tol in u (the returned x is then within a
// relative tol of the bracketed minimiser, or limited by the flatness of
// f: about sqrt(2ε·|f|/f″) in u). f should be unimodal for the result to
// be the global minimiser.
func LogMinimize(f Func, x0, tol float64) (float64, error) {
	g := func(u float64) (float64, error) { return f(math.Exp(u)) }
	a, b, err := BracketMin(g, math.Log(x0), 0.5)
	if err != nil {
		return math.NaN(), err
	}
	u, err := GoldenMin(g, a, b, tol)
	if err != nil {
		return math.NaN(), err
	}
	return math.Exp(u), nil
}
