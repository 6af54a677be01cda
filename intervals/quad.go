package intervals

import (
	"math"

	"gonum.org/v1/gonum/integrate/quad"
)

// glOrder is the number of Gauss–Legendre nodes per panel.
const glOrder = 15

// glNodes and glWeights are the Gauss–Legendre rule on [0, 1], from
// gonum's quad.Legendre.
var glNodes, glWeights = func() ([]float64, []float64) {
	x := make([]float64, glOrder)
	w := make([]float64, glOrder)
	quad.Legendre{}.FixedLocations(x, w, 0, 1)
	return x, w
}()

// glPanel integrates f over [a, b] with the glOrder-point rule.
func glPanel(f func(float64) float64, a, b float64) float64 {
	h := b - a
	var s float64
	for i, x := range glNodes {
		s += glWeights[i] * f(a+h*x)
	}
	return s * h
}

// maxDepth bounds the bisection depth of integrate; 2⁻⁶⁰ of the range is
// below the resolution of float64. maxPanels bounds the number of
// subdivisions, so a noisy integrand cannot make the recursion explode;
// past it, panels are accepted as they are.
const (
	maxDepth  = 60
	maxPanels = 100000
)

// integrate returns ∫_a^b f by adaptive Gauss–Legendre quadrature: a panel
// is accepted when the sum over its two halves agrees with the whole-panel
// value to within tol (absolute) or to within rounding (64 ulp of the
// panel's value), otherwise both halves are refined with tol/2 each. Integrands with an integrable derivative singularity at an
// end point, such as e^{−(λx)^β} with β < 1 at 0, are handled by the
// geometric refinement towards that point.
func integrate(f func(float64) float64, a, b, tol float64) float64 {
	panels := 0
	return integrateRec(f, a, b, glPanel(f, a, b), tol, 0, &panels)
}

func integrateRec(f func(float64) float64, a, b, whole, tol float64, depth int, panels *int) float64 {
	m := a + (b-a)/2
	left, right := glPanel(f, a, m), glPanel(f, m, b)
	*panels++
	d := math.Abs(left + right - whole)
	if d <= tol || d <= 64*0x1p-52*math.Abs(left+right) || depth >= maxDepth || *panels >= maxPanels || m == a || m == b {
		return left + right
	}
	return integrateRec(f, a, m, left, tol/2, depth+1, panels) + integrateRec(f, m, b, right, tol/2, depth+1, panels)
}
