package reschedule_test

import (
	"fmt"
	"log"

	"github.com/ckpt-markov/markov/reschedule"
)

func ExamplePerformanceBased() {
	// ω(a) peaks at 3 processors; ω(4) ties ω(2) and loses to ω(3).
	v, err := reschedule.PerformanceBased([]float64{1, 1.9, 2.7, 1.9})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(v)
	// Output:
	// [1 2 3 3]
}

func ExampleMoldable() {
	v, err := reschedule.Moldable(5, 3)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(v, v.At(2), v.At(4))
	// Output:
	// [0 0 3 3 3] 0 3
}

func ExampleAvailabilityBased() {
	// Every processor fails at the same two instants, so any set of a
	// processors sees F(a) = 2 failures; the policy then minimises 2/ω(a):
	// the fastest count, the larger one on ties.
	failures := [][]float64{{10, 20}, {20, 10}, {10, 20}, {10, 20}}
	f, err := reschedule.FailureCounts(failures, nil)
	if err != nil {
		log.Fatal(err)
	}
	v, err := reschedule.AvailabilityBased(failures, []float64{1, 1.8, 1.8, 1.5}, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(f, v)
	// Output:
	// [2 2 2 2] [1 2 3 3]
}
