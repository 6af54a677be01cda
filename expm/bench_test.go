package expm

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// benchMatrices returns a random normal matrix scaled to ‖A‖₁ = 10 and a
// random generator scaled to ‖G‖₁ = 1e3 (about 8 squarings).
func benchMatrices(n int) (a, g *mat.Dense) {
	rnd := rand.New(rand.NewPCG(uint64(n), 12))
	a = randomNormal(rnd, n, 1)
	a.Scale(10/mat.Norm(a, 1), a)
	g = randomGenerator(rnd, n, math.Min(1, 8/float64(n)), 1)
	g.Scale(1e3/mat.Norm(g, 1), g)
	return a, g
}

func BenchmarkExp(b *testing.B) {
	for _, n := range []int{10, 50, 200} {
		a, g := benchMatrices(n)
		for _, c := range []struct {
			name string
			m    *mat.Dense
		}{{"random", a}, {"generator", g}} {
			b.Run(c.name+"/n="+strconv.Itoa(n), func(b *testing.B) {
				b.ReportAllocs()
				var dst mat.Dense
				for b.Loop() {
					if err := Exp(&dst, c.m, nil); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkGonumExp times gonum's mat.Dense.Exp on the same matrices, for
// comparison.
func BenchmarkGonumExp(b *testing.B) {
	for _, n := range []int{10, 50, 200} {
		a, g := benchMatrices(n)
		for _, c := range []struct {
			name string
			m    *mat.Dense
		}{{"random", a}, {"generator", g}} {
			b.Run(c.name+"/n="+strconv.Itoa(n), func(b *testing.B) {
				b.ReportAllocs()
				var dst mat.Dense
				for b.Loop() {
					dst.Exp(c.m)
				}
			})
		}
	}
}

func BenchmarkIntegral(b *testing.B) {
	_, g := benchMatrices(50)
	rI := mat.NewDense(50, 50, nil)
	for i := 0; i < 50; i++ {
		rI.Set(i, i, 0.1)
	}
	b.ReportAllocs()
	var dst mat.Dense
	for b.Loop() {
		if err := Integral(&dst, g, rI, 1, 0.1, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAction times exp(tG)·v for a 10⁴-state tridiagonal (birth–death)
// generator in CSR form, with ‖tG‖₁ = 10 and 1000.
func BenchmarkAction(b *testing.B) {
	const n = 10000
	g := birthDeath(n, 0.7, 1.0) // ‖G‖₁ = 3.4
	v := make([]float64, n)
	for i := range v {
		v[i] = 1 / float64(i+1)
	}
	dst := make([]float64, n)
	for _, tt := range []float64{10 / 3.4, 1000 / 3.4} {
		name := "normTG=" + strconv.FormatFloat(tt*3.4, 'g', 3, 64)
		b.Run("ExpMulVec/"+name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := ExpMulVec(dst, g, tt, v, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("Uniformize/"+name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Uniformize(dst, g, tt, v, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
