package markov

import (
	"fmt"
	"math"
)

// RenewalReward returns the long-run reward rate of a Markov renewal
// (semi-Markov) process
//
//	Σ_i π_i w_i / Σ_i π_i τ_i,
//
// where pi is the stationary distribution of its embedded jump chain,
// reward[i] the expected reward earned per visit to state i and time[i] the
// expected sojourn per visit. The sums are compensated (Neumaier).
//
// The slices must have equal lengths; pi and time must be finite and
// non-negative, reward finite, and Σ π_i τ_i positive. Errors name the
// offending argument and index.
func RenewalReward(pi, reward, time []float64) (float64, error) {
	if len(reward) != len(pi) || len(time) != len(pi) {
		return 0, fmt.Errorf("markov: RenewalReward: lengths differ: len(pi) = %d, len(reward) = %d, len(time) = %d",
			len(pi), len(reward), len(time))
	}
	if len(pi) == 0 {
		return 0, fmt.Errorf("markov: RenewalReward: no states")
	}
	var num, numC, den, denC float64
	for i, p := range pi {
		w, t := reward[i], time[i]
		switch {
		case !(p >= 0) || math.IsInf(p, 1):
			return 0, fmt.Errorf("markov: RenewalReward: pi[%d] = %v, want finite and non-negative", i, p)
		case math.IsNaN(w) || math.IsInf(w, 0):
			return 0, fmt.Errorf("markov: RenewalReward: reward[%d] = %v, want finite", i, w)
		case !(t >= 0) || math.IsInf(t, 1):
			return 0, fmt.Errorf("markov: RenewalReward: time[%d] = %v, want finite and non-negative", i, t)
		}
		if p == 0 {
			continue
		}
		num, numC = neumaierAdd(num, numC, p*w)
		den, denC = neumaierAdd(den, denC, p*t)
	}
	num += numC
	den += denC
	if !(den > 0) || math.IsInf(den, 1) {
		return 0, fmt.Errorf("markov: RenewalReward: mean time per visit Σ pi·time = %v, want positive and finite", den)
	}
	r := num / den
	if math.IsInf(r, 0) || math.IsNaN(r) {
		return 0, fmt.Errorf("markov: RenewalReward: ratio overflows (%v / %v)", num, den)
	}
	return r, nil
}

// neumaierAdd adds v to the compensated sum (sum, comp) (Neumaier 1974).
func neumaierAdd(sum, comp, v float64) (float64, float64) {
	t := sum + v
	if math.Abs(sum) >= math.Abs(v) {
		comp += (sum - t) + v
	} else {
		comp += (v - t) + sum
	}
	return t, comp
}

// neumaierSum returns the compensated sum of x.
func neumaierSum(x []float64) float64 {
	var sum, comp float64
	for _, v := range x {
		sum, comp = neumaierAdd(sum, comp, v)
	}
	return sum + comp
}
