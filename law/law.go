package law

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// Law is the law of a positive duration, in seconds.
type Law interface {
	// Survival returns S(x) = P(X > x).
	Survival(x float64) float64
	// Quantile returns the p-quantile of X, 0 < p < 1.
	Quantile(p float64) float64
}

// Draw returns a duration of law l drawn by inversion from rng:
// l.Quantile(u) for u uniform on (0, 1).
func Draw(l Law, rng *rand.Rand) float64 {
	u := rng.Float64()
	for u == 0 {
		u = rng.Float64()
	}
	return l.Quantile(u)
}

// Check probes l at the quantiles 1e-9, 1/2 and 1 − 1e-9 and the survival
// at the median: each quantile must be a finite non-negative duration,
// the median positive, and S between 0 and 1. The error names the first
// failed probe; the caller names the law.
func Check(l Law) error {
	if l == nil {
		return fmt.Errorf("is nil")
	}
	for _, p := range []float64{1e-9, 0.5, 1 - 1e-9} {
		q := l.Quantile(p)
		if !(q >= 0) || math.IsInf(q, 0) || (p == 0.5 && q == 0) {
			return fmt.Errorf("has quantile %v at %v, want a finite positive duration", q, p)
		}
	}
	if s := l.Survival(l.Quantile(0.5)); !(s >= 0 && s <= 1) {
		return fmt.Errorf("has survival %v at its median, want one in [0, 1]", s)
	}
	return nil
}
