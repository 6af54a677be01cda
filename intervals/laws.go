package intervals

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mathext"
)

// FailureLaw is the law of the i.i.d. times between failures in the model
// of Bouguerra et al. (2008). The failure process restarts after each
// checkpoint.
type FailureLaw interface {
	// Survival returns S(x) = P(X > x).
	Survival(x float64) float64

	// SegmentTime returns the expected time to get through a segment
	// that needs eta uninterrupted seconds, restarting it after every
	// failure (Bouguerra et al., Theorem 1):
	//
	//	g(η) = (1/S(η))·∫₀^η S(x) dx.
	SegmentTime(eta float64) float64
}

// validLaw reports a law whose parameters are invalid; laws that do not
// implement a Validate method are trusted.
func validLaw(fn string, law FailureLaw) error {
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

// SegmentTime returns g(η) = ∫₀^η S(x) dx / S(η), integrating S
// numerically.
func (s SurvivalLaw) SegmentTime(eta float64) float64 {
	if eta <= 0 {
		return 0
	}
	tol := s.Tol
	if tol == 0 {
		tol = 1e-12
	}
	// ∫₀^η S ≥ η·S(η) since S is non-increasing, so tol·η·S(η) is an
	// absolute tolerance at least as tight as tol relative.
	se := s.S(eta)
	return integrate(s.S, 0, eta, tol*eta*se) / se
}
