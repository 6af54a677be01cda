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

// Bracket is a bracket of a minimum: A < X < B (or A > X > B) with
// f(X) ≤ f(A) and f(X) < f(B).
type Bracket struct {
	A, X, B    float64
	FA, FX, FB float64
}

// BracketMin returns a bracket of a local minimum of g, starting at u
// with initial step h and stepping downhill with doubling steps until g
// rises (or is NaN). The bracket stays inside |u| ≤ LogLimit.
func BracketMin(g Func, u, h float64) (Bracket, error) {
	gu, err := g(u)
	if err != nil {
		return Bracket{}, err
	}
	// Choose the downhill direction.
	gr, err := g(u + h)
	if err != nil {
		return Bracket{}, err
	}
	prev, gprev := u, gu
	if gr > gu {
		gl, err := g(u - h)
		if err != nil {
			return Bracket{}, err
		}
		if gl >= gu {
			return Bracket{u - h, u, u + h, gl, gu, gr}, nil
		}
		h, gr = -h, gl
	}
	// Walk downhill, doubling the step, until g rises.
	cur, gcur := u+h, gr
	for {
		h *= 2
		next := cur + h
		if math.Abs(next) > LogLimit {
			return Bracket{}, ErrNoBracket
		}
		gn, err := g(next)
		if err != nil {
			return Bracket{}, err
		}
		if gn > gcur || math.IsNaN(gn) {
			return Bracket{prev, cur, next, gprev, gcur, gn}, nil
		}
		prev, gprev, cur, gcur = cur, gcur, next, gn
	}
}

// Minimize minimises g inside the bracket br by Brent's method (Maximize
// of −g) until the minimiser is located to within tol.
func Minimize(g Func, br Bracket, tol float64) (float64, error) {
	neg := func(x float64) (float64, error) {
		v, err := g(x)
		return -v, err
	}
	a, b, fa, fb := br.A, br.B, br.FA, br.FB
	if a > b {
		a, b, fa, fb = b, a, fb, fa
	}
	x, _, err := Maximize(neg, a, b, tol, br.X, -br.FX, -fa, -fb)
	return x, err
}

// LogMinimize minimises f(x) over x > 0, searching in u = ln x from
// x0 > 0: BracketMin with an initial step of 0.5, then Minimize to a
// width of tol in u (the returned x is then within a relative tol of the
// bracketed minimiser, or limited by the flatness of f: about
// sqrt(2ε·|f|/f″) in u). f should be unimodal for the result to be the
// global minimiser.
func LogMinimize(f Func, x0, tol float64) (float64, error) {
	g := func(u float64) (float64, error) { return f(math.Exp(u)) }
	br, err := BracketMin(g, math.Log(x0), 0.5)
	if err != nil {
		return math.NaN(), err
	}
	u, err := Minimize(g, br, tol)
	if err != nil {
		return math.NaN(), err
	}
	return math.Exp(u), nil
}
