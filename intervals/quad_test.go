package intervals

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestIntegrate checks the adaptive quadrature on integrals with closed
// forms, including an integrand with an infinite derivative at 0.
func TestIntegrate(t *testing.T) {
	for _, tc := range []struct {
		name string
		f    func(float64) float64
		a, b float64
		want float64
	}{
		{"sin on [0, π]", math.Sin, 0, math.Pi, 2},
		{"e^{−x} on [0, 10]", func(x float64) float64 { return math.Exp(-x) }, 0, 10, -math.Expm1(-10)},
		{"sqrt on [0, 1]", math.Sqrt, 0, 1, 2.0 / 3},
		{"x^{0.3} on [0, 2]", func(x float64) float64 { return math.Pow(x, 0.3) }, 0, 2, math.Pow(2, 1.3) / 1.3},
		{"1/(1+x²) on [−50, 50]", func(x float64) float64 { return 1 / (1 + x*x) }, -50, 50, 2 * math.Atan(50)},
	} {
		got := integrate(tc.f, tc.a, tc.b, 1e-13*math.Abs(tc.want))
		if relDiff(got, tc.want) > 1e-12 {
			t.Errorf("%s: %.16g, want %.16g", tc.name, got, tc.want)
		}
	}
	// A noisy integrand cannot meet a tolerance below its noise; the panel
	// budget must stop the refinement with a sensible value.
	rng := rand.New(rand.NewPCG(53, 59))
	noisy := func(float64) float64 { return 1 + 1e-6*(rng.Float64()-0.5) }
	if got := integrate(noisy, 0, 1, 1e-300); math.Abs(got-1) > 1e-6 {
		t.Errorf("noisy integrand: %v, want 1 ± 1e−6", got)
	}
}
