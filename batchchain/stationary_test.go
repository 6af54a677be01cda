package batchchain

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat/distuv"
)

// TestFunctionalSingleIsBinomial: with K ≡ 1 the processors are
// independent two-state chains, so the functional count is
// Binomial(n, θ/(λ+θ)) (docs/model.md, section 5), evaluated by distuv.
func TestFunctionalSingleIsBinomial(t *testing.T) {
	for _, tc := range []struct {
		n             int
		lambda, theta float64
	}{{1, 1, 1}, {10, 1, 3}, {128, 1 / (8 * hour), 1 / hour}, {4096, 1 / (24 * hour), 1 / (4 * hour)}} {
		pi, err := Functional(tc.n, tc.lambda, tc.theta, []float64{1})
		if err != nil {
			t.Fatal(err)
		}
		b := distuv.Binomial{N: float64(tc.n), P: tc.theta / (tc.lambda + tc.theta)}
		// distuv evaluates the pmf through log-gamma functions, whose
		// rounding error is about ε·log(n!) relative: the oracle's own
		// accuracy sets the tolerance (7e-12 at n = 4096).
		lg, _ := math.Lgamma(float64(tc.n + 1))
		tol := 1e-13 + 16*0x1p-53*lg
		for k, v := range pi {
			if want := b.Prob(float64(k)); math.Abs(v-want) > tol*math.Max(want, 1e-3) {
				t.Errorf("n=%d: π[%d] = %v, want %v", tc.n, k, v, want)
			}
		}
	}
}

// TestFunctionalBatchSolve holds the cut recurrence against a dense solve
// of πG = 0, Σπ = 1 (gonum LU) for the pool generator written from the
// definitions, on random size laws.
func TestFunctionalBatchSolve(t *testing.T) {
	rnd := rand.New(rand.NewPCG(13, 4))
	for it := range 10 {
		n := 2 + rnd.IntN(40)
		lambda := math.Exp(rnd.Float64()*4 - 2)
		theta := math.Exp(rnd.Float64()*4 - 2)
		sizes := randomSizes(rnd, min(2+rnd.IntN(7), n))
		law, _ := normalise(sizes, n)
		le := lambda / mean(law)
		// Gᵀ with the last equation replaced by Σπ = 1.
		g := mat.NewDense(n+1, n+1, nil)
		for k := 0; k <= n; k++ {
			if k < n {
				g.Set(k+1, k, float64(n-k)*theta)
				g.Set(k, k, g.At(k, k)-float64(n-k)*theta)
			}
			for x, p := range law {
				to := k - min(x+1, k)
				if to == k {
					continue
				}
				r := float64(k) * le * p
				g.Set(to, k, g.At(to, k)+r)
				g.Set(k, k, g.At(k, k)-r)
			}
		}
		rhs := mat.NewVecDense(n+1, nil)
		for k := 0; k <= n; k++ {
			g.Set(n, k, 1)
		}
		rhs.SetVec(n, 1)
		var want mat.VecDense
		if err := want.SolveVec(g, rhs); err != nil {
			t.Fatal(err)
		}
		pi, err := Functional(n, lambda, theta, sizes)
		if err != nil {
			t.Fatal(err)
		}
		for k, v := range pi {
			if d := math.Abs(v - want.AtVec(k)); d > 1e-12 {
				t.Errorf("#%d n=%d sizes=%.2f: π[%d] = %v, want %v", it, n, sizes, k, v, want.AtVec(k))
			}
		}
	}
}
