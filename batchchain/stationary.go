package batchchain

import (
	"fmt"
	"math"
)

// Functional returns the stationary law of the number of functional
// processors of a pool of n (out[k] = P(k functional), k = 0..n), when the
// application is ignored: failure events at λ/E[K] per functional
// processor take down min(K, k) of the k functional ones, every failed
// processor is repaired at rate theta. sizes is as for New.
//
// The chain only moves up by one, so the flows across the cut between
// c − 1 and c balance:
//
//	π_{c−1}·(n − c + 1)θ = Σ_{k ≥ c} π_k · k·λ/E[K] · P(K ≥ k − c + 1),
//
// which gives π_{c−1} from π_c, …, π_{c−1+K_max} as a sum of positive
// terms (Grassmann, Taksar & Heyman 1985): no subtraction, accurate
// entrywise. The recurrence starts from π_n = 1 and rescales on the way
// against overflow; the result is normalised. For K ≡ 1 it is the
// Binomial(n, θ/(λ+θ)) law. λ = 0 gives all mass at n, θ = 0 at 0.
func Functional(n int, lambda, theta float64, sizes []float64) ([]float64, error) {
	if n < 0 {
		return nil, fmt.Errorf("batchchain: n = %d is negative", n)
	}
	if err := checkRate("lambda", lambda); err != nil {
		return nil, err
	}
	if err := checkRate("theta", theta); err != nil {
		return nil, err
	}
	law, err := normalise(sizes, max(n, len(sizes)))
	if err != nil {
		return nil, err
	}
	pi := make([]float64, n+1)
	switch {
	case lambda == 0:
		pi[n] = 1
		return pi, nil
	case theta == 0:
		pi[0] = 1
		return pi, nil
	}
	rate := lambda / mean(law)
	// tail[x-1] = P(K ≥ x), x = 1..K_max.
	tail := make([]float64, len(law))
	acc := 0.0
	for x := len(law); x >= 1; x-- {
		acc += law[x-1]
		tail[x-1] = acc
	}
	pi[n] = 1
	const big = 0x1p800
	for c := n; c >= 1; c-- {
		var flow float64
		for k := c; k <= min(n, c-1+len(law)); k++ {
			flow += pi[k] * float64(k) * rate * tail[k-c]
		}
		pi[c-1] = flow / (float64(n-c+1) * theta)
		if pi[c-1] > big {
			for k := c - 1; k <= n; k++ {
				pi[k] /= big
			}
		}
	}
	var sum float64
	for _, v := range pi {
		sum += v
	}
	for k := range pi {
		pi[k] /= sum
	}
	if math.IsNaN(sum) || math.IsInf(sum, 0) {
		return nil, fmt.Errorf("batchchain: stationary law overflowed")
	}
	return pi, nil
}
