package batchchain

import (
	"fmt"
	"testing"

	"github.com/ckpt-markov/markov/internal/cputime"
)

// issueSizes is the size law of issue 13's synthetic traces: half of the
// events take one node, the other half 4–16 nodes uniformly.
func issueSizes() []float64 {
	s := make([]float64, 16)
	s[0] = 0.5
	for k := 3; k < 16; k++ {
		s[k] = 0.5 / 13
	}
	return s
}

// BenchmarkRows measures 16 rows of a segment of T = 1 h at N = 512 and
// 4096 processors, MTTR 1 h, MTTF 8 h and 1 d per processor, with the
// issue's size law, on the greedy policy's typical up states: a = the most
// likely functional count, spare counts 0..15 (tol 1e-16, the model's row
// tolerance).
func BenchmarkRows(b *testing.B) {
	for _, n := range []int{512, 4096} {
		for _, mttf := range []float64{8 * hour, 24 * hour} {
			pi, err := Functional(n, 1/mttf, 1/hour, issueSizes())
			if err != nil {
				b.Fatal(err)
			}
			mode := 0
			for k, v := range pi {
				if v > pi[mode] {
					mode = k
				}
			}
			c, err := New(n, mode, 1/mttf, 1/hour, issueSizes())
			if err != nil {
				b.Fatal(err)
			}
			b.Run(fmt.Sprintf("N=%d/MTTF=%gh/a=%d", n, mttf/hour, mode), func(b *testing.B) {
				b.ReportAllocs()
				c0 := cputime.Used()
				for b.Loop() {
					if _, err := c.Rows(0, 16, hour, 1e-16); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(cputime.Used()-c0)/float64(b.N), "cpu-ns/op")
			})
		}
	}
}

// BenchmarkTransition measures the dense Van Loan path (the exact path's
// rows) at N = 32 and 64.
func BenchmarkTransition(b *testing.B) {
	for _, n := range []int{32, 64} {
		c, err := New(n, n/2, 1/(8*hour), 1/hour, issueSizes())
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := c.Transition(nil, nil, nil, hour); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkSegments measures the uniformized sequence of an up phase
// (Phase.Segments and Expected at T = 600 s, the longest segment of the
// interval search at N = 4096) started from spare count 0, at N = 512 and
// 4096, MTTF 1 d, MTTR 1 h, the issue's size law, on the most likely
// functional count and on the count 4 % below it (more failed processors:
// a faster uniformization rate and a longer sequence).
func BenchmarkSegments(b *testing.B) {
	for _, n := range []int{512, 4096} {
		pi, err := Functional(n, 1/(24*hour), 1/hour, issueSizes())
		if err != nil {
			b.Fatal(err)
		}
		mode := 0
		for k, v := range pi {
			if v > pi[mode] {
				mode = k
			}
		}
		for _, a := range []int{mode, mode - n/25} {
			c, err := New(n, a, 1/(24*hour), 1/hour, issueSizes())
			if err != nil {
				b.Fatal(err)
			}
			ph, err := c.Phase()
			if err != nil {
				b.Fatal(err)
			}
			b.Run(fmt.Sprintf("N=%d/a=%d", n, a), func(b *testing.B) {
				b.ReportAllocs()
				c0 := cputime.Used()
				var terms int
				for b.Loop() {
					sg := ph.Segments([]float64{1}, 0, 0)
					if _, err := sg.Expected(600, nil); err != nil {
						b.Fatal(err)
					}
					terms = sg.Len()
				}
				b.ReportMetric(float64(cputime.Used()-c0)/float64(b.N), "cpu-ns/op")
				b.ReportMetric(float64(terms), "terms")
			})
		}
	}
}

// BenchmarkMulAdd measures the kernel of the products with K (mulAdd:
// assembly on amd64 unless -tags purego) on a band of 77 spare counts,
// the typical band of the up phases' sequences at N = 4096, and on 300:
// one mulAdd and one mulSet per operation.
func BenchmarkMulAdd(b *testing.B) {
	for _, n := range []int{77, 300} {
		dst, x, r := make([]float64, n), make([]float64, n), make([]float64, n)
		for i := range r {
			x[i], r[i] = 1/float64(i+1), 1e-3
		}
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			c0 := cputime.Used()
			for b.Loop() {
				mulAdd(dst, x, r)
				mulSet(dst[1:], x, r[:n-1])
			}
			b.ReportMetric(float64(cputime.Used()-c0)/float64(b.N), "cpu-ns/op")
		})
	}
}
