package batchchain

// Wait visits the moves of the waiting state of k functional processors
// out of n, where no application runs (docs/model.md, section 11): the
// next event, at rate k·rate, takes min(K, k) of them down (Loss), or
// one of the n − k failed processors is repaired, at rate (n − k)·θ.
// It calls to(k', p) for each count k' it may move to with its
// probability p, the events by increasing size, then the repair
// (k < n), and returns the expected sojourn 1/(k·rate + (n − k)·θ).
// sizes must be a normalised law (as Chain.Sizes), n ≥ 1, and rate
// and θ positive (a finite MTTF and MTTR, as the scenario's), so that
// the total rate is positive for every 0 ≤ k ≤ n; New, which allows zero
// rates, does not ensure it.
func Wait(sizes []float64, k, n int, rate, theta float64, to func(next int, p float64)) float64 {
	fail, repair := float64(k)*rate, float64(n-k)*theta
	total := fail + repair
	if k > 0 {
		for x, q := range Loss(sizes, k) {
			to(k-x-1, fail*q/total)
		}
	}
	if k < n {
		to(k+1, repair/total)
	}
	return 1 / total
}
