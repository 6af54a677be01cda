package birthdeath_test

import (
	"fmt"
	"log"
	"math"

	"github.com/ckpt-markov/markov/birthdeath"
	"gonum.org/v1/gonum/mat"
)

// One spare processor (m = 1) with λ = θ = 1, over T = ln 2, with ρ = 1.
// By hand: π = 1/2, e^{−νT} = 1/4, so P_T = [[5/8, 3/8], [3/8, 5/8]];
// Q_T[1,1] = ∫₀ᵀ e^{−t}(1/2 + e^{−2t}/2) dt = 1/4 + 7/48 = 19/48 and
// Q_T[1,0] = 1/4 − 7/48 = 5/48; the rows of Q sum to 1 − e^{−ρT} = 1/2.
func Example() {
	c, err := birthdeath.New(1, 1, 1)
	if err != nil {
		log.Fatal(err)
	}
	var p, q mat.Dense
	if err := c.Transition(&p, &q, math.Ln2, 1, nil); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("P = %.4f\n", mat.Formatted(&p, mat.Prefix("    ")))
	fmt.Printf("Q = %.4f\n", mat.Formatted(&q, mat.Prefix("    ")))
	// Output:
	// P = ⎡0.6250  0.3750⎤
	//     ⎣0.3750  0.6250⎦
	// Q = ⎡0.3958  0.1042⎤
	//     ⎣0.1042  0.3958⎦
}

// The model's fast path: N = 1024 processors, a = 16 used, m = 1008 others,
// MTTF 8 h and MTTR 4 h, a one-hour segment, rows 640..699. Each row holds
// only the columns that carry all but 1e-15 of its mass; the rows sum to 1
// (P) and 1 − e^{−ρT} = 1 − e^{−2} (Q, ρT = 16·1 h/8 h = 2) up to that.
func ExampleChain_Rows() {
	const hour = 3600.0
	lambda, theta := 1/(8*hour), 1/(4*hour)
	c, err := birthdeath.New(1008, lambda, theta)
	if err != nil {
		log.Fatal(err)
	}
	rb, err := c.Rows(640, 700, hour, 16*lambda, 1e-15)
	if err != nil {
		log.Fatal(err)
	}
	r := rb.Rows[20] // s = 660
	var sp, sq float64
	for k := range r.P {
		sp += r.P[k]
		sq += r.Q[k]
	}
	fmt.Printf("row %d: ΣP = %.12f, ΣQ = %.12f, 1 − e^{−2} = %.12f\n", r.S, sp, sq, 1-math.Exp(-2))
	fmt.Println("dropped within tol:", r.DroppedP <= 1e-15 && r.DroppedQ <= 1e-15)
	// Output:
	// row 660: ΣP = 1.000000000000, ΣQ = 0.864664716763, 1 − e^{−2} = 0.864664716763
	// dropped within tol: true
}

// The spare count when one of a = 16 used processors first fails, for
// the pool of ExampleChain_Rows started from s = 660 spares: a row of the
// resolvent ρ(ρI − G)⁻¹. Its mean has the closed form
// mπ + (s − mπ)·ρ/(ρ + λ + θ) (the mean of each processor's state relaxes
// at rate λ + θ towards π = θ/(λ + θ), seen at an Exp(ρ) time):
// 672 − 12·16/19.
func ExampleChain_Resolvent() {
	const hour = 3600.0
	lambda, theta := 1/(8*hour), 1/(4*hour)
	c, err := birthdeath.New(1008, lambda, theta)
	if err != nil {
		log.Fatal(err)
	}
	rho := 16 * lambda
	rb, err := c.Resolvent(660, 661, rho, 1e-15)
	if err != nil {
		log.Fatal(err)
	}
	r := rb.Rows[0]
	var sum, mean float64
	for k, q := range r.Q {
		sum += q
		mean += float64(r.Lo+k) * q
	}
	fmt.Printf("row %d: ΣQ = %.12f, dropped within tol: %v\n", r.S, sum, r.DroppedQ <= 1e-15)
	fmt.Printf("mean %.9f, closed form %.9f\n", mean, 672-12*rho/(rho+lambda+theta))
	// Output:
	// row 660: ΣQ = 1.000000000000, dropped within tol: true
	// mean 661.894736842, closed form 661.894736842
}
