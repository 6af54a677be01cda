package birthdeath

import (
	"fmt"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// BenchmarkRowsN1024 is the model's large case: 60 rows of P and Q for
// m = 1008 (N = 1024, a = 16, MTTF 8 h, MTTR 4 h).
func BenchmarkRowsN1024(b *testing.B) {
	lambda, theta := 1/(8*hour), 1/(4*hour)
	c, _ := New(1008, lambda, theta)
	for _, tt := range []float64{60, hour, 4 * hour} {
		b.Run(fmt.Sprintf("T=%gs", tt), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := c.Rows(640, 700, tt, 16*lambda, 1e-15); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkRowsM80 computes all 81 rows of a small chain.
func BenchmarkRowsM80(b *testing.B) {
	for _, rates := range [][2]float64{{1 / (8 * hour), 1 / (4 * hour)}, {1 / (25 * 8766 * hour), 1 / hour}} {
		c, _ := New(80, rates[0], rates[1])
		b.Run(fmt.Sprintf("θ/λ=%.3g", rates[1]/rates[0]), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := c.Rows(0, 81, hour, 16*rates[0], 1e-15); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkTransition compares the dense methods (Eigen with its
// factorisation cached, as in repeated use).
func BenchmarkTransition(b *testing.B) {
	for _, m := range []int{10, 60, 200} {
		c, _ := New(m, 1, 2)
		for _, meth := range []Method{ClosedForm, Eigen, VanLoan} {
			if meth == VanLoan && m > 60 {
				continue
			}
			s := &Settings{Method: meth}
			var p, q mat.Dense
			if err := c.Transition(&p, &q, 0.5, 0.7, s); err != nil {
				b.Fatal(err)
			}
			b.Run(fmt.Sprintf("m=%d/%v", m, meth), func(b *testing.B) {
				b.ReportAllocs()
				for i := 0; i < b.N; i++ {
					if err := c.Transition(&p, &q, 0.5, 0.7, s); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
