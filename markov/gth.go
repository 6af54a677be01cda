package markov

import (
	"fmt"

	"gonum.org/v1/gonum/floats"
)

// gth computes the stationary distribution of the irreducible stochastic
// matrix a (n×n, row-major, overwritten) by Grassmann–Taksar–Heyman state
// reduction and stores it in pi.
//
// Step k = n−1, …, 1 censors state k out of the chain on {0, …, k}:
//
//	s_k  = Σ_{j<k} a_kj               (= 1 − a_kk, computed without subtraction)
//	a_ik ← a_ik / s_k                  for i < k
//	a_ij ← a_ij + a_ik·a_kj            for i, j < k
//
// and back substitution gives π_0 = 1, π_k = Σ_{i<k} π_i a_ik, then π is
// normalised. No subtraction occurs, so every quantity is computed with
// small relative error. The partial vector is rescaled whenever an entry
// grows beyond 1e150, so that π may span more than the range of float64
// (entries below it relative to the largest underflow to zero).
func gth(a []float64, n int, pi []float64) error {
	for k := n - 1; k > 0; k-- {
		rowK := a[k*n : k*n+k]
		s := floats.Sum(rowK)
		if !(s > 0) {
			return fmt.Errorf("markov: GTH: state %d has no transition to states 0..%d of its censored chain (sum %v)", k, k-1, s)
		}
		for i := 0; i < k; i++ {
			f := a[i*n+k] / s
			a[i*n+k] = f
			if f != 0 {
				floats.AddScaled(a[i*n:i*n+k], f, rowK)
			}
		}
	}
	pi[0] = 1
	for k := 1; k < n; k++ {
		var v float64
		for i := 0; i < k; i++ {
			v += pi[i] * a[i*n+k]
		}
		pi[k] = v
		rescaleLarge(pi[:k+1])
	}
	total := neumaierSum(pi)
	for k := range pi {
		pi[k] /= total
	}
	return nil
}

// bandwidths returns the lower and upper bandwidths of the transition
// matrix restricted to a closed class, in the local numbering: every
// transition k → l of the class has −lower ≤ l − k ≤ upper.
func (c *Chain[L]) bandwidths(states, local []int) (lower, upper int) {
	for k, i := range states {
		for _, j := range c.ind[c.indptr[i]:c.indptr[i+1]] {
			d := local[j] - k
			lower = max(lower, -d)
			upper = max(upper, d)
		}
	}
	return lower, upper
}

// bandedClass returns the transition matrix restricted to a closed class in
// band storage: row k holds columns k−lower … k+upper at a[k·w : (k+1)·w],
// w = lower+upper+1, column l at offset l − k + lower.
func (c *Chain[L]) bandedClass(states, local []int, lower, upper int) []float64 {
	w := lower + upper + 1
	a := make([]float64, len(states)*w)
	for k, i := range states {
		for p := c.indptr[i]; p < c.indptr[i+1]; p++ {
			a[k*w+local[c.ind[p]]-k+lower] = c.data[p]
		}
	}
	return a
}

// gthBanded is gth for a matrix in band storage (see bandedClass). State
// reduction without pivoting creates fill only inside the band, so it costs
// O(n·lower·upper) operations and no extra memory.
func gthBanded(a []float64, n, lower, upper int, pi []float64) error {
	w := lower + upper + 1
	for k := n - 1; k > 0; k-- {
		j0 := max(0, k-lower)
		// Row k, columns j0 … k−1.
		rowK := a[k*w+j0-k+lower : k*w+lower]
		s := floats.Sum(rowK)
		if !(s > 0) {
			return fmt.Errorf("markov: GTH: state %d has no transition to states 0..%d of its censored chain (sum %v)", k, k-1, s)
		}
		for i := max(0, k-upper); i < k; i++ {
			ik := i*w + k - i + lower
			f := a[ik] / s
			a[ik] = f
			if f != 0 {
				start := i*w + j0 - i + lower
				floats.AddScaled(a[start:start+len(rowK)], f, rowK)
			}
		}
	}
	pi[0] = 1
	for k := 1; k < n; k++ {
		var v float64
		for i := max(0, k-upper); i < k; i++ {
			v += pi[i] * a[i*w+k-i+lower]
		}
		pi[k] = v
		rescaleLarge(pi[:k+1])
	}
	total := neumaierSum(pi)
	for k := range pi {
		pi[k] /= total
	}
	return nil
}

// rescaleLarge divides x by its last entry when that entry exceeds 1e150,
// keeping the back substitution of state reduction from overflowing.
func rescaleLarge(x []float64) {
	last := x[len(x)-1]
	if last <= 1e150 {
		return
	}
	floats.Scale(1/last, x)
}
