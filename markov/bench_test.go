package markov

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/ckpt-markov/markov/internal/cputime"
)

// benchChains are banded random chains (bandedChain): "narrow" bands mix
// slowly and suit the banded reduction, "wide" bands (a fifth of the
// states) mix fast and suit GMRES.
var benchChains = []struct {
	name            string
	n, band, perRow int
	methods         []Method
}{
	{"n=1e3/narrow", 1000, 10, 10, []Method{Auto, Iterative}},
	{"n=1e3/wide", 1000, 200, 10, []Method{Auto, Banded}},
	{"n=5e3/nnz=1e5", 5000, 1000, 20, []Method{Auto}},
	{"n=1e4/narrow", 10000, 10, 10, []Method{Auto}},
	{"n=1e4/wide", 10000, 2000, 10, []Method{Auto}},
	{"n=1e5/narrow", 100000, 10, 10, []Method{Auto}},
	{"n=1e5/wide", 100000, 20000, 10, []Method{Auto}},
}

// BenchmarkStationary solves banded random chains with Auto (Banded for
// the narrow ones, Iterative for the wide ones) and, on the small chains,
// with the other method for comparison. The "iters" metric is the number
// of GMRES iterations.
func BenchmarkStationary(b *testing.B) {
	for _, bc := range benchChains {
		c := bandedChain(rand.New(rand.NewPCG(1, uint64(bc.n))), bc.n, bc.band, bc.perRow).build(b, nil)
		for _, m := range bc.methods {
			b.Run(fmt.Sprintf("%s/%v", bc.name, m), func(b *testing.B) {
				b.ReportAllocs()
				var res Result
				for b.Loop() {
					var err error
					res, err = c.Stationary(&Settings{Method: m})
					if err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(res.Iterations), "iters")
				b.ReportMetric(float64(c.NNZ()), "nnz")
			})
		}
	}
}

// BenchmarkStationaryWarm re-solves a perturbed chain from the previous π,
// as an interval search does.
func BenchmarkStationaryWarm(b *testing.B) {
	rng := rand.New(rand.NewPCG(2, 3))
	tr := bandedChain(rng, 5000, 1000, 20)
	c := tr.build(b, nil)
	prev, err := c.Stationary(&Settings{Method: Iterative})
	if err != nil {
		b.Fatal(err)
	}
	for k := range tr.vals {
		tr.vals[k] *= 1 + 1e-3*rng.Float64()
	}
	c2 := tr.build(b, &BuildSettings{Renormalise: true})
	b.ReportAllocs()
	var res Result
	for b.Loop() {
		res, err = c2.Stationary(&Settings{Method: Iterative, Start: prev.Pi})
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(res.Iterations), "iters")
}

// BenchmarkDenseVsIterative compares the two methods on small random chains
// (it motivates DefaultDenseMax).
func BenchmarkDenseVsIterative(b *testing.B) {
	for _, n := range []int{50, 100, 150, 200, 300} {
		c := randomChain(rand.New(rand.NewPCG(4, uint64(n))), n, 10).build(b, nil)
		for _, m := range []Method{Dense, Iterative} {
			b.Run(fmt.Sprintf("n=%d/%v", n, m), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := c.Stationary(&Settings{Method: m}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkFromCOO builds chains from row-ordered triplets (the in-place
// path); the copies of the triplets are made outside the timer.
func BenchmarkFromCOO(b *testing.B) {
	for _, bc := range []struct {
		name            string
		n, band, perRow int
	}{{"n=1e4", 10000, 100, 10}, {"n=1e5", 100000, 100, 10}} {
		tr := bandedChain(rand.New(rand.NewPCG(5, 6)), bc.n, bc.band, bc.perRow)
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				b.StopTimer()
				labels := intLabels(tr.n)
				cols := append([]int(nil), tr.cols...)
				vals := append([]float64(nil), tr.vals...)
				b.StartTimer()
				if _, err := FromCOO(labels, tr.rows, cols, vals, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkClosedClasses(b *testing.B) {
	c := bandedChain(rand.New(rand.NewPCG(7, 8)), 100000, 100, 10).build(b, nil)
	b.ReportAllocs()
	for b.Loop() {
		if len(c.ClosedClasses()) != 1 {
			b.Fatal("not irreducible")
		}
	}
}

// BenchmarkReachable searches the states reachable from state 0 of a
// banded random chain of 10⁵ states (10⁶ transitions), with the CPU
// time per search (cpu-ns/op; the machine is shared).
func BenchmarkReachable(b *testing.B) {
	c := bandedChain(rand.New(rand.NewPCG(7, 8)), 100000, 100, 10).build(b, nil)
	b.ReportAllocs()
	c0 := cputime.Used()
	for b.Loop() {
		if len(c.Reachable(0)) != c.Len() {
			b.Fatal("not every state reachable")
		}
	}
	b.ReportMetric(float64(cputime.Used()-c0)/float64(b.N), "cpu-ns/op")
}

func BenchmarkRenewalReward(b *testing.B) {
	const n = 100000
	rng := rand.New(rand.NewPCG(9, 10))
	pi, w, tau := make([]float64, n), make([]float64, n), make([]float64, n)
	for i := range pi {
		pi[i], w[i], tau[i] = rng.Float64(), rng.Float64(), rng.Float64()
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := RenewalReward(pi, w, tau); err != nil {
			b.Fatal(err)
		}
	}
}
