package markov_test

import (
	"fmt"
	"log"
	"math"

	"github.com/ckpt-markov/markov/markov"
)

// The one-processor checkpoint model: up segments (U) of I + L seconds,
// recoveries (R) of R + L seconds, each interrupted by a failure at rate λ,
// and down periods (D) ended by a repair at rate θ. The availability is the
// long-run fraction of time spent on useful work.
func Example() {
	const (
		lambda, theta = 1.0 / 3600, 1.0 / 600
		I, L, C, R    = 600, 60.6, 60.6, 30.0
	)
	failU := -math.Expm1(-lambda * (I + L)) // P(failure during an up segment)
	failR := -math.Expm1(-lambda * (R + L))

	b := markov.NewBuilder[string]()
	b.Add("U", "U", 1-failU)
	b.Add("U", "D", failU)
	b.Add("R", "U", 1-failR)
	b.Add("R", "D", failR)
	b.Add("D", "R", 1)
	chain, err := b.Build(nil)
	if err != nil {
		log.Fatal(err)
	}
	res, err := chain.Stationary(nil)
	if err != nil {
		log.Fatal(err)
	}

	// Expected sojourn and useful time per visit, by state.
	tau := map[string]float64{"U": failU / lambda, "R": failR / lambda, "D": 1 / theta}
	useful := map[string]float64{"U": (1 - failU) * (I + L - C)}
	t := make([]float64, chain.Len())
	u := make([]float64, chain.Len())
	for i, s := range chain.Labels() {
		t[i], u[i] = tau[s], useful[s]
		fmt.Printf("π(%s) = %.4f\n", s, res.Pi[i])
	}
	avail, err := markov.RenewalReward(res.Pi, u, t)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("method %v, status %v, period %d\n", res.Method, res.Status, res.Class.Period)
	fmt.Printf("availability %.5f\n", avail)
	// Output:
	// π(U) = 0.7441
	// π(D) = 0.1279
	// π(R) = 0.1279
	// method Dense, status Converged, period 1
	// availability 0.69164
}
