// Package testmodel holds the oracles and inputs that the tests of several
// packages share, so that each is written once: the closed form of the
// one-processor model, the QR-like application of the scale tests and
// the enumeration of rescheduling vectors.
// It is imported by tests only.
package testmodel

import (
	"math"

	"github.com/ckpt-markov/markov/reschedule"
	"github.com/ckpt-markov/markov/scenario"
)

// OneProcessorAvailability is the availability of the model on one
// processor (N = a = 1, r(1) = 1; docs/model.md §7):
//
//	A(I) = λθ/(λ+θ) · (I + L − C) · e^{−λ(I + 2L + R)} / (1 − e^{−λ(I+L)}),
//
// and UWT = ω(1)·A. Derivation: the jump chain has the states U, R, D;
// with x = e^{−λ(I+L)} and y = e^{−λ(R+L)}, U → U with probability x and
// U → D otherwise, R → U with probability y and R → D otherwise, D → R
// always, so π_R = π_D = π_U(1 − x)/y. The sojourns are (1 − x)/λ,
// (1 − y)/λ and 1/θ, the useful time of U is x(I + L − C) (§6), and the
// renewal–reward ratio simplifies to the formula above. The example of
// §7 (λ = 1/3600, θ = 1/600, I = 600, L = C = 60.6, R = 30) gives
// A = 0.69164.
func OneProcessorAvailability(lambda, theta, interval, l, c, r float64) float64 {
	return lambda * theta / (lambda + theta) * (interval + l - c) *
		math.Exp(-lambda*(interval+2*l+r)) / -math.Expm1(-lambda*(interval+l))
}

// QRLike returns an application on n processors with the average
// checkpoint and recovery costs of the paper's QR benchmark (Table I:
// C = L = 99.19 s, R = 17.21 s) for every count and the speed-up
// ω(a) = a/(1 + a/2000), which saturates slowly: the "QR-like costs" of
// the scale tests and benchmarks, usable beyond package bench's 512
// processors.
func QRLike(n int) scenario.Application {
	app := scenario.Application{
		WorkRate: make([]float64, n),
		Latency:  make([]float64, n),
		Overhead: make([]float64, n),
		Recovery: scenario.RecoveryConstant(17.21, n),
	}
	for i := range n {
		a := float64(i + 1)
		app.WorkRate[i] = a / (1 + a/2000)
		app.Latency[i], app.Overhead[i] = 99.19, 99.19
	}
	return app
}

// Vectors calls f with every rescheduling vector r(1..n), r(k) ∈ 0..k,
// that runs somewhere (reschedule.Vector.Validate), in lexicographic
// order; f must not keep v, which is reused. The oracle of enumeration
// tests: the optimal policy is at least as good as each of them.
func Vectors(n int, f func(v reschedule.Vector)) {
	v := make(reschedule.Vector, n)
	var rec func(k int)
	rec = func(k int) {
		if k == n {
			if v.Validate() == nil {
				f(v)
			}
			return
		}
		for r := 0; r <= k+1; r++ {
			v[k] = r
			rec(k + 1)
		}
	}
	rec(0)
}

// Closure is Warshall's transitive closure of the graph over n vertices
// with the edges rows[e] → cols[e] for which keep[e] holds (every edge
// when keep is nil): reach[i][j] when j is reachable from i in zero or
// more steps. O(n³) and no search: the oracle of the reachability
// searches (package graph and its callers). S. Warshall, A theorem on
// Boolean matrices, J. ACM 9(1), 11–12, 1962.
func Closure(n int, rows, cols []int, keep []bool) [][]bool {
	reach := make([][]bool, n)
	for i := range reach {
		reach[i] = make([]bool, n)
		reach[i][i] = true
	}
	for e := range rows {
		if keep == nil || keep[e] {
			reach[rows[e]][cols[e]] = true
		}
	}
	for k := range n {
		for i := range n {
			if reach[i][k] {
				for j := range n {
					reach[i][j] = reach[i][j] || reach[k][j]
				}
			}
		}
	}
	return reach
}
