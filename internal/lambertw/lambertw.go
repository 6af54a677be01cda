package lambertw

import "math"

const (
	// eHi + eLo represents e to about 32 significant digits.
	eHi = math.E
	eLo = 1.44564689172925013655e-16

	// seriesMax is the largest |p| for which the branch-point series is
	// returned without refinement.
	seriesMax = 0.03

	// branchSlack is how far below zero e·x + 1 may fall and still be
	// treated as the branch point: float64(−1/e) lies about 1.2e−17
	// below −1/e, so e·float64(−1/e) + 1 ≈ −3.4e−17.
	branchSlack = 1e-15

	maxIter = 50
)

// seriesCoef are the coefficients of the expansion of W about the branch
// point in p = ±sqrt(2(e·x + 1)) (Corless et al. 1996, eq. 4.22).
var seriesCoef = [...]float64{
	-1,
	1,
	-1.0 / 3,
	11.0 / 72,
	-43.0 / 540,
	769.0 / 17280,
	-221.0 / 8505,
	680863.0 / 43545600,
	-1963.0 / 204120,
	226287557.0 / 37623398400,
}

// branchP returns sqrt(2(e·x + 1)) for x ≥ −1/e and false when x lies
// outside the real domain of W.
func branchP(x float64) (float64, bool) {
	q := math.FMA(eHi, x, 1) + eLo*x
	if q < 0 {
		if q < -branchSlack {
			return math.NaN(), false
		}
		q = 0
	}
	return math.Sqrt(2 * q), true
}

// series evaluates the branch-point expansion at p by Horner's rule.
func series(p float64) float64 {
	w := 0.0
	for i := len(seriesCoef) - 1; i >= 0; i-- {
		w = w*p + seriesCoef[i]
	}
	return w
}

// W0 returns the principal branch W0(x) of the Lambert W function, the
// solution w ≥ −1 of w·e^w = x. It returns NaN for x < −1/e or x NaN.
func W0(x float64) float64 {
	switch {
	case math.IsNaN(x):
		return math.NaN()
	case x == 0:
		return x
	case math.IsInf(x, 1):
		return x
	}
	p, ok := branchP(x)
	if !ok {
		return math.NaN()
	}
	if p <= seriesMax {
		return series(p)
	}
	var w float64
	switch {
	case x < -0.25:
		w = series(p)
	case x <= 3:
		l := math.Log1p(x)
		w = l * (1 - math.Log1p(l)/(2+l))
	default:
		l1 := math.Log(x)
		l2 := math.Log(l1)
		w = l1 - l2 + l2/l1
	}
	if x > 3 {
		return halleyLarge(w, x)
	}
	return halley(w, x)
}

// Wm1 returns the lower branch W−1(x) of the Lambert W function, the
// solution w ≤ −1 of w·e^w = x for −1/e ≤ x < 0. It returns NaN for x
// outside [−1/e, 0] or x NaN, and −Inf for x = 0.
func Wm1(x float64) float64 {
	switch {
	case math.IsNaN(x) || x > 0:
		return math.NaN()
	case x == 0:
		return math.Inf(-1)
	}
	p, ok := branchP(x)
	if !ok {
		return math.NaN()
	}
	p = -p
	if p >= -seriesMax {
		return series(p)
	}
	var w float64
	if x < -0.25 {
		w = series(p)
	} else {
		l1 := math.Log(-x)
		l2 := math.Log(-l1)
		w = l1 - l2 + l2/l1
	}
	return halley(w, x)
}

// halley refines w by Halley's iteration on f(w) = w·e^w − x.
func halley(w, x float64) float64 {
	for range maxIter {
		ew := math.Exp(w)
		f := w*ew - x
		wp1 := w + 1
		d := f / (ew*wp1 - (w+2)*f/(2*wp1))
		w -= d
		if math.Abs(d) <= 2*epsilon*math.Abs(w) {
			break
		}
	}
	return w
}

// halleyLarge refines w by Halley's iteration on f(w) = w − x·e^{−w}, which
// stays finite for x close to math.MaxFloat64.
func halleyLarge(w, x float64) float64 {
	for range maxIter {
		g := x * math.Exp(-w) // = e^{W−w}·W, close to w
		f := w - g
		fp := 1 + g
		fpp := -g
		d := 2 * f * fp / (2*fp*fp - f*fpp)
		w -= d
		if math.Abs(d) <= 2*epsilon*math.Abs(w) {
			break
		}
	}
	return w
}

// epsilon is the unit round-off of float64.
const epsilon = 0x1p-52

// OnePlusW0 returns 1 + W0(x) for x = (d − 1)/e, given d = e·x + 1 ≥ 0, the
// scaled distance of x from the branch point −1/e. Near the branch point,
// where 1 + W0 ≈ sqrt(2d) is small, it keeps full relative accuracy, which
// neither forming x nor adding 1 to W0(x) would. It returns NaN for d < 0
// or d NaN.
func OnePlusW0(d float64) float64 {
	if !(d >= 0) {
		return math.NaN()
	}
	p := math.Sqrt(2 * d)
	if p <= seriesMax {
		// The series without its constant term −1.
		s := 0.0
		for i := len(seriesCoef) - 1; i >= 1; i-- {
			s = s*p + seriesCoef[i]
		}
		return s * p
	}
	return 1 + W0((d-1)/eHi)
}
