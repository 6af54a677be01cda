package scalar

import (
	"errors"
	"math"
	"sort"
)

// Point is one evaluation of a function: F = f(X).
type Point struct{ X, F float64 }

// Seen returns every evaluation a search's function has made so far, in
// increasing order of X. MaximizeSeen and CrossingSeen take one so that
// every evaluation counts, whoever made it: a costly f (a model solve)
// records its evaluations and the searches interpolate through all of
// them.
type Seen func() []Point

// ErrNoConvergence is returned by MaximizeSeen and CrossingSeen when they
// have not closed their bracket in maxSteps evaluations, which only a
// function that is not a number allows.
var ErrNoConvergence = errors.New("search did not converge (function not a number?)")

// maxSteps bounds the steps of MaximizeSeen and CrossingSeen: from a
// factor-4 bracket on log x, bisection alone reaches 1e-4 in about 14
// steps.
const maxSteps = 200

// MaximizeSeen returns the maximiser of f on [lo, hi], whose ends have
// been evaluated and bracket a better evaluated point, and its value. It
// runs parabolic interpolation through the best evaluation and its two
// nearest evaluated neighbours (every evaluation of seen inside [lo, hi]
// counts), and stops when both neighbours lie within 2·tol₁ of the best
// point, tol₁ = tol/3 + 1e-10·|x|: for a unimodal f the maximiser is then
// within 2·tol₁ of it, the same guarantee as Maximize (Brent's method).
// Brent's method narrows its bracket only from one side once the
// parabolic steps have converged, and takes golden-section steps to
// close the other (about 16 evaluations from a factor-4 bracket on log x
// to 1e-4); here, once the vertex is within tol₁ of the best point, the
// next evaluation goes tol₁ from it on the side whose neighbour is still
// far, which closes that side at once. When two steps in a row fail to
// halve the bracket, a golden-section step into its larger part follows,
// as in Brent's method. f must record its evaluations in seen.
func MaximizeSeen(f Func, seen Seen, lo, hi, tol float64) (float64, float64, error) {
	widths := []float64{math.Inf(1), math.Inf(1)}
	// Each step evaluates a new point inside the bracket, and golden
	// sections shrink it geometrically: the cap only guards against an f
	// that is not a number.
	for range maxSteps {
		var pts []Point
		for _, p := range seen() {
			if p.X >= lo && p.X <= hi {
				pts = append(pts, p)
			}
		}
		b := 0
		for j, p := range pts {
			if p.F > pts[b].F {
				b = j
			}
		}
		if b == 0 || b == len(pts)-1 {
			// Only a function that is not unimodal (or flat to rounding)
			// puts the best evaluation at an end of the bracket: return it.
			return pts[b].X, pts[b].F, nil
		}
		a, x, c := pts[b-1], pts[b], pts[b+1]
		tol1 := 1e-10*math.Abs(x.X) + tol/3
		gapL, gapR := x.X-a.X, c.X-x.X
		if gapL <= 2*tol1 && gapR <= 2*tol1 {
			return x.X, x.F, nil
		}
		width := c.X - a.X
		loose := 1.0 // the side whose neighbour is farther
		if gapL > gapR {
			loose = -1
		}
		var d float64
		if width > 0.5*widths[0] {
			// Two steps without halving the bracket: golden section.
			d = cgold * max(gapL, gapR) * loose
		} else {
			d = parabolaStep(a, x, c, gapL, gapR, width, tol1, loose)
		}
		widths = []float64{widths[1], width}
		if _, err := f(x.X + d); err != nil {
			return 0, 0, err
		}
	}
	return 0, 0, ErrNoConvergence
}

// parabolaStep returns MaximizeSeen's step from x: to the vertex of the
// parabola through a, x, c, at least tol₁ from x and from the neighbours,
// tol₁ towards the loose side when the vertex is within tol₁ of x, or a
// golden-section step when the vertex is not a number or outside the
// bracket.
func parabolaStep(a, x, c Point, gapL, gapR, width, tol1, loose float64) float64 {
	r := gapL * (x.F - c.F)
	q := -gapR * (x.F - a.F)
	den := 2 * (r - q)
	d := -(gapL*r + gapR*q) / den
	switch {
	case !(math.Abs(d) < width) || den == 0:
		d = cgold * max(gapL, gapR) * loose
	case math.Abs(d) < tol1 || (d < 0 && gapL <= 2*tol1) || (d > 0 && gapR <= 2*tol1):
		d = tol1 * loose
	}
	// Stay tol₁ away from the neighbours.
	if d > 0 {
		return min(max(d, tol1), gapR-tol1)
	}
	return max(min(d, -tol1), -gapL+tol1)
}

// CrossingSeen returns where f crosses level on side dir (−1 below top.X,
// +1 above) of top, an evaluation with top.F ≥ level: the crossing
// between top and the nearest evaluation of seen on that side below
// level (ErrNoBracket if there is none), located to xTol in x or to fTol
// in f (|f(x) − level| ≤ fTol, checked on an evaluation).
//
// Every evaluation counts: the crossing is bracketed by the nearest
// evaluations on either side of level, and each step goes to the crossing
// of the cubic through the bracket's ends and the two other evaluations
// nearest to it (falling back to bisection when that polynomial step
// lands too near an end or fails to shrink the bracket), so that a
// crossing usually costs one or two evaluations; see crossingStep. f must
// record its evaluations in seen.
func CrossingSeen(f Func, seen Seen, top Point, dir, level, xTol, fTol float64) (float64, error) {
	hPrev, fails := math.Inf(1), 0
	for range maxSteps {
		pts := seen()
		in, out, ok := crossingBracket(pts, top, dir, level)
		if !ok {
			return 0, ErrNoBracket
		}
		if math.Abs(out.X-in.X) <= xTol {
			return 0.5 * (in.X + out.X), nil
		}
		var x float64
		switch x = crossingStep(pts, in, out, level); {
		case fails >= 2:
			x, fails = 0.5*(in.X+out.X), 0
		case math.Abs(x-in.X) < xTol/4:
			// Next to an end: step half the tolerance inside, so that
			// the bracket closes to the tolerance if the crossing is
			// there.
			x = in.X + math.Copysign(xTol/2, out.X-in.X)
		case math.Abs(x-out.X) < xTol/4:
			x = out.X + math.Copysign(xTol/2, in.X-out.X)
		}
		v, err := f(x)
		if err != nil {
			return 0, err
		}
		h := math.Abs(v - level)
		if h <= fTol {
			return x, nil
		}
		// A step that does not halve the distance to the level counts
		// as a failure; two in a row force a bisection.
		if h > 0.5*hPrev {
			fails++
		} else {
			fails = 0
		}
		hPrev = min(hPrev, h)
	}
	return 0, ErrNoConvergence
}

// crossingBracket returns the bracket [in, out] of CrossingSeen (in order
// of distance from top): out the nearest evaluation on side dir below
// level, in the farthest at or above it that is nearer than out (top if
// none); ok is false when no evaluation on that side is below level.
func crossingBracket(pts []Point, top Point, dir, level float64) (in, out Point, ok bool) {
	in = top
	for _, p := range pts {
		if d := (p.X - top.X) * dir; d > 0 && p.F < level && (!ok || d < (out.X-top.X)*dir) {
			out, ok = p, true
		}
	}
	for _, p := range pts {
		if d := (p.X - top.X) * dir; d > 0 && d < (out.X-top.X)*dir && p.F >= level && d > (in.X-top.X)*dir {
			in = p
		}
	}
	return in, out, ok
}

// crossingStep returns the crossing of level inside the bracket (in,
// out), f(in) ≥ level > f(out), of the polynomial through in, out and
// (at most) two other evaluations nearest to the bracket's midpoint, each
// at least a tenth of the bracket from the other nodes: a cubic (Lagrange
// form) when four such points are known. The polynomial takes the
// bracket's values at its ends, so it crosses level inside; the crossing
// is found by bisection on the polynomial, which costs no evaluation.
func crossingStep(pts []Point, in, out Point, level float64) float64 {
	mid := 0.5 * (in.X + out.X)
	nodes := []Point{in, out}
	others := make([]Point, 0, len(pts))
	for _, p := range pts {
		if p.X != in.X && p.X != out.X {
			others = append(others, p)
		}
	}
	sort.Slice(others, func(a, b int) bool { return math.Abs(others[a].X-mid) < math.Abs(others[b].X-mid) })
	// Two more nodes, each at least a tenth of the bracket from the
	// others: evaluations clustered at the top would make the cubic
	// ill-conditioned.
	for _, p := range others {
		if len(nodes) == 4 {
			break
		}
		far := true
		for _, q := range nodes {
			far = far && math.Abs(p.X-q.X) > 0.1*math.Abs(out.X-in.X)
		}
		if far {
			nodes = append(nodes, p)
		}
	}
	poly := func(x float64) float64 {
		var v float64
		for i, a := range nodes {
			l := a.F
			for j, b := range nodes {
				if j != i {
					l *= (x - b.X) / (a.X - b.X)
				}
			}
			v += l
		}
		return v - level
	}
	a, b := in.X, out.X // poly(a) ≥ 0 > poly(b)
	for range 100 {
		m := 0.5 * (a + b)
		if m == a || m == b {
			break
		}
		if poly(m) >= 0 {
			a = m
		} else {
			b = m
		}
	}
	return 0.5 * (a + b)
}
