package decision

import (
	"math"

	"github.com/ckpt-markov/markov/batchchain"
)

// Mode returns the mode of Binomial(n, q).
func Mode(n int, q float64) int {
	return min(max(int(math.Floor(float64(n+1)*q)), 0), n)
}

// Window returns the functional counts [lo, hi] outside which the
// stationary law of the functional count, Binomial(n, 1−q) (q = λ/(λ+θ)
// the probability that a processor is failed), has at most tol of its
// mass on each side, widened by a margin of two processors per side
// (states are entered at failure instants).
func Window(n int, q, tol float64) (lo, hi int) {
	// The failed count F ~ Binomial(n, q). Walk out from the mode in log
	// space, accumulating each tail until it is below tol.
	mode := Mode(n, q)
	logq, logp := math.Log(q), math.Log1p(-q)
	lgn, _ := math.Lgamma(float64(n + 1))
	logPMF := func(k int) float64 {
		a, _ := math.Lgamma(float64(k + 1))
		b, _ := math.Lgamma(float64(n - k + 1))
		return lgn - a - b + float64(k)*logq + float64(n-k)*logp
	}
	// Upper tail of F: smallest fHi with P(F > fHi) ≤ tol. The pmf falls
	// faster than geometrically beyond the mode, so the tail beyond k is
	// at most pmf(k+1)/(1 − ratio) with ratio = pmf(k+2)/pmf(k+1).
	tail := func(k, dir int) bool {
		next := k + dir
		if next < 0 || next > n {
			return true
		}
		l1, l2 := logPMF(next), logPMF(next+dir)
		ratio := 0.0
		if next+dir >= 0 && next+dir <= n {
			ratio = math.Exp(l2 - l1)
		}
		return ratio < 1 && math.Exp(l1)/(1-ratio) <= tol
	}
	fHi := mode
	for !tail(fHi, +1) {
		fHi++
	}
	fLo := mode
	for !tail(fLo, -1) {
		fLo--
	}
	const margin = 2
	return max(n-fHi-margin, 0), min(n-fLo+margin, n)
}

// EventsWindow returns the functional counts [lo, hi] outside which the
// stationary law of the functional count (batchchain.Functional) has at
// most tol of its mass on each side, widened by the largest event plus
// one below and two above (states are entered at failure instants), and
// the most likely count: the window of packages uwt and optimal with
// failure events (docs/model.md section 11).
func EventsWindow(n int, lambda, theta float64, sizes []float64, tol float64) (lo, hi, mode int, err error) {
	pi, err := batchchain.Functional(n, lambda, theta, sizes)
	if err != nil {
		return 0, 0, 0, err
	}
	for k, v := range pi {
		if v > pi[mode] {
			mode = k
		}
	}
	lo, hi = 0, n
	var acc float64
	for k := 0; k < mode && acc+pi[k] <= tol; k++ {
		acc += pi[k]
		lo = k + 1
	}
	acc = 0
	for k := n; k > mode && acc+pi[k] <= tol; k-- {
		acc += pi[k]
		hi = k - 1
	}
	return max(lo-len(sizes)-1, 0), min(hi+2, n), mode, nil
}
