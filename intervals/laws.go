package intervals

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mathext"

	"github.com/ckpt-markov/markov/internal/scalar"
	"github.com/ckpt-markov/markov/law"
)

// The time between failures in the model of Bouguerra et al. (2008) is
// i.i.d. of any law.Law (gonum's distuv distributions among them); the
// failure process restarts after each checkpoint. The model needs the
// law's expected segment time g: a law that has it in closed form
// (Exponential, Weibull) gives it by a method SegmentTime(eta float64)
// float64; for any other law it is integrated from the survival function.
type segmentTimer interface {
	SegmentTime(eta float64) float64
}

// segmentTime returns the expected time to get through a segment that
// needs eta uninterrupted seconds, restarting it after every failure
// (Bouguerra et al., Theorem 1):
//
//	g(η) = (1/S(η))·∫₀^η S(x) dx,
//
// in closed form when l has it, else by quadrature to 1e−12 relative.
func segmentTime(l law.Law, eta float64) float64 {
	if g, ok := l.(segmentTimer); ok {
		return g.SegmentTime(eta)
	}
	return integratedSegmentTime(l.Survival, eta, 1e-12)
}

// integratedSegmentTime returns g(η) = ∫₀^η S(x) dx / S(η) by adaptive
// Gauss–Legendre quadrature to the relative tolerance tol.
func integratedSegmentTime(s func(float64) float64, eta, tol float64) float64 {
	if eta <= 0 {
		return 0
	}
	// ∫₀^η S ≥ η·S(η) since S is non-increasing, so tol·η·S(η) is an
	// absolute tolerance at least as tight as tol relative.
	se := s(eta)
	return integrate(s, 0, eta, tol*eta*se) / se
}

// validLaw reports a law whose parameters are invalid; laws that do not
// implement a Validate method are trusted.
func validLaw(fn string, law law.Law) error {
	if law == nil {
		return fmt.Errorf("intervals: %s: law is nil", fn)
	}
	if v, ok := law.(interface{ Validate() error }); ok {
		if err := v.Validate(); err != nil {
			return fmt.Errorf("intervals: %s: %w", fn, err)
		}
	}
	return nil
}

// Exponential is the exponential failure law S(x) = e^{−λx}.
type Exponential struct {
	// Rate is the failure rate λ > 0.
	Rate float64
}

// Validate reports whether the rate is valid.
func (e Exponential) Validate() error { return checkPositive("Exponential", "Rate", e.Rate) }

// Survival returns e^{−λx}.
func (e Exponential) Survival(x float64) float64 { return math.Exp(-e.Rate * x) }

// Quantile returns −ln(1 − p)/λ.
func (e Exponential) Quantile(p float64) float64 { return -math.Log1p(-p) / e.Rate }

// SegmentTime returns g(η) = (e^{λη} − 1)/λ (Bouguerra et al.,
// Proposition 1).
func (e Exponential) SegmentTime(eta float64) float64 { return math.Expm1(e.Rate*eta) / e.Rate }

// Weibull is the Weibull failure law S(x) = exp(−(λx)^β) of Bouguerra et
// al. (section 4.2), with scale 1/λ and shape β; β = 1 is the exponential
// law, β < 1 a decreasing hazard rate.
type Weibull struct {
	// Rate is the inverse scale λ > 0.
	Rate float64
	// Shape is the shape β > 0.
	Shape float64
}

// Validate reports whether the parameters are valid.
func (w Weibull) Validate() error {
	return firstError(checkPositive("Weibull", "Rate", w.Rate), checkPositive("Weibull", "Shape", w.Shape))
}

// Survival returns exp(−(λx)^β).
func (w Weibull) Survival(x float64) float64 { return math.Exp(-math.Pow(w.Rate*x, w.Shape)) }

// Quantile returns (−ln(1 − p))^{1/β}/λ.
func (w Weibull) Quantile(p float64) float64 {
	return math.Pow(-math.Log1p(-p), 1/w.Shape) / w.Rate
}

// SegmentTime returns g(η) = e^{(λη)^β}·∫₀^η e^{−(λx)^β} dx (Bouguerra et
// al., Proposition 2), with the integral in closed form through the
// regularised lower incomplete gamma function P:
//
//	∫₀^η e^{−(λx)^β} dx = Γ(1/β)·P(1/β, (λη)^β)/(λβ).
func (w Weibull) SegmentTime(eta float64) float64 {
	if eta <= 0 {
		return 0
	}
	z := math.Pow(w.Rate*eta, w.Shape)
	a := 1 / w.Shape
	// Γ(1/β)/β = Γ(1 + 1/β).
	lg, _ := math.Lgamma(1 + a)
	return math.Exp(z+lg) * mathext.GammaIncReg(a, z) / w.Rate
}

// SurvivalLaw is a failure law known only through its survival function;
// SegmentTime integrates it numerically by adaptive Gauss–Legendre
// quadrature (15-point panels, nodes from gonum's quad.Legendre).
type SurvivalLaw struct {
	// S is the survival function: S(0) = 1, non-increasing, S(x) > 0
	// wherever it is evaluated.
	S func(x float64) float64
	// Tol is the relative accuracy of the integral; zero means 1e−12.
	Tol float64
}

// Validate reports whether the law is usable.
func (s SurvivalLaw) Validate() error {
	if s.S == nil {
		return fmt.Errorf("SurvivalLaw: S is nil")
	}
	if !(s.Tol >= 0) || s.Tol >= 1 {
		return paramError("SurvivalLaw", "Tol", s.Tol, "in [0, 1)")
	}
	return nil
}

// Survival returns S(x).
func (s SurvivalLaw) Survival(x float64) float64 { return s.S(x) }

// Quantile returns the x > 0 where S(x) = 1 − p, by Brent's method on
// ln x (internal/scalar) to 1e−12 relative; NaN when S does not fall to
// 1 − p inside e^{±700}.
func (s SurvivalLaw) Quantile(p float64) float64 {
	x, err := scalar.LogRoot(scalar.Plain(func(x float64) float64 { return (1 - p) - s.S(x) }), 1, 1e-12)
	if err != nil {
		return math.NaN()
	}
	return x
}

// SegmentTime returns g(η) = ∫₀^η S(x) dx / S(η), integrating S
// numerically.
func (s SurvivalLaw) SegmentTime(eta float64) float64 {
	tol := s.Tol
	if tol == 0 {
		tol = 1e-12
	}
	return integratedSegmentTime(s.S, eta, tol)
}
