package expm_test

import (
	"fmt"
	"math"

	"github.com/james-bowman/sparse"
	"gonum.org/v1/gonum/mat"

	"github.com/ckpt-markov/markov/expm"
)

// A two-state availability model: failure rate 1, repair rate 9. The
// closed form is P(t) = [[0.9 + 0.1e^{−10t}, 0.1 − 0.1e^{−10t}],
// [0.9 − 0.9e^{−10t}, 0.1 + 0.9e^{−10t}]], so at t = 0.5
// P = [[0.900674, 0.099326], [0.893936, 0.106064]].
func ExampleExp() {
	g := mat.NewDense(2, 2, []float64{
		-1, 1,
		9, -9,
	})
	var gt, p mat.Dense
	gt.Scale(0.5, g)
	if err := expm.Exp(&p, &gt, nil); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%.6f\n", mat.Formatted(&p))
	// Output:
	// ⎡0.900674  0.099326⎤
	// ⎣0.893936  0.106064⎦
}

// The renewal identity ∫₀ᵀ r e^{−rt} e^{Gt} dt · 1 = (1 − e^{−rT})·1 for a
// generator G, here with r = 2 and T = 1: 1 − e^{−2} = 0.864665.
func ExampleIntegral() {
	g := mat.NewDense(3, 3, []float64{
		-3, 2, 1,
		0.5, -0.5, 0,
		4, 0, -4,
	})
	const r, T = 2.0, 1.0
	b := mat.NewDense(3, 1, []float64{r, r, r}) // r·1
	var x mat.Dense
	if err := expm.Integral(&x, g, b, T, r, nil); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%.6f\n", mat.Formatted(x.T()))
	fmt.Printf("%.6f\n", 1-math.Exp(-r*T))
	// Output:
	// [0.864665  0.864665  0.864665]
	// 0.864665
}

// The number of events of a Poisson process with rate 1 by time t = 2 is
// Poisson(2)-distributed: P(N = k) = e^{−2}2^k/k! = 0.135335, 0.270671,
// 0.270671, 0.180447 for k = 0..3. The pure-birth generator is sparse (CSR);
// the distribution e₀ᵀexp(tG) is the action of exp(tGᵀ) on e₀.
func ExampleExpMulVec() {
	const n = 60 // truncation: P(N ≥ 59) is negligible
	coo := sparse.NewCOO(n, n, nil, nil, nil)
	for i := 0; i+1 < n; i++ {
		coo.Set(i, i, -1)
		coo.Set(i, i+1, 1)
	}
	g := coo.ToCSR()
	start := make([]float64, n)
	start[0] = 1
	p := make([]float64, n)
	if _, err := expm.ExpMulVec(p, g.T(), 2, start, nil); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%.6f\n", p[:4])
	// Output:
	// [0.135335 0.270671 0.270671 0.180447]
}

// Uniformization gives the same Poisson probabilities and reports the
// number of terms and a bound on the truncation error.
func ExampleUniformize() {
	const n = 60
	coo := sparse.NewCOO(n, n, nil, nil, nil)
	for i := 0; i+1 < n; i++ {
		coo.Set(i, i, -1)
		coo.Set(i, i+1, 1)
	}
	g := coo.ToCSR()
	// (exp(tG)·e_k)_0 = P(N(t) = k): the column action with v = e_2.
	v := make([]float64, n)
	v[2] = 1
	x := make([]float64, n)
	res, err := expm.Uniformize(x, g, 2, v, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("P(N=2) = %.6f, error bound below 1e-15: %v\n", x[0], res.ErrorBound < 1e-15)
	// Output:
	// P(N=2) = 0.270671, error bound below 1e-15: true
}
