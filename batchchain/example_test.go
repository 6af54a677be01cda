package batchchain_test

import (
	"fmt"
	"log"

	"github.com/ckpt-markov/markov/batchchain"
)

// A segment of one hour on a = 6 of N = 8 processors, MTTF 8 h and MTTR
// 1 h per processor, where every failure event takes down two processors
// (event rate λ/2 per functional processor). Starting with both spares
// functional, the row of P (no interruption) and the row of Q (first
// interruption, by the functional count it leaves) sum to one. By hand,
// while all 8 are functional, events come at 8/(16 h) = 0.5/h and spare
// the 6 used ones with probability C(2,2)/C(8,2) = 1/28, so the survival
// is about e^{−0.5·27/28} = 0.617.
func ExampleChain_Rows() {
	const hour = 3600.0
	c, err := batchchain.New(8, 6, 1/(8*hour), 1/hour, []float64{0, 1})
	if err != nil {
		log.Fatal(err)
	}
	rows, err := c.Rows(2, 3, hour, 0)
	if err != nil {
		log.Fatal(err)
	}
	r := rows[0]
	var q float64
	for _, v := range r.Q {
		q += v
	}
	fmt.Printf("survival %.4f, interrupted %.4f, sum %.12f\n", r.Survival, q, r.Survival+q)
	fmt.Printf("P(no interruption, 0 spares left) = %.4f\n", r.P[0-r.Lo])
	fmt.Printf("P(interrupted, 6 functional left) = %.4f\n", r.Q[6-r.QLo])
	fmt.Printf("expected time to end or interruption %.0f s\n", r.Sojourn)
	// Output:
	// survival 0.6179, interrupted 0.3821, sum 1.000000000000
	// P(no interruption, 0 spares left) = 0.0049
	// P(interrupted, 6 functional left) = 0.3797
	// expected time to end or interruption 2857 s
}
