package availability_test

import (
	"context"
	"fmt"
	"log"

	"github.com/ckpt-markov/markov/availability"
	"github.com/ckpt-markov/markov/scenario"
)

// Choose how many of 8 failure-prone processors a job should use, and how
// often it should checkpoint.
func Example() {
	n := 8
	app := scenario.Application{
		WorkRate: make([]float64, n),
		Latency:  make([]float64, n),
		Overhead: make([]float64, n),
		Recovery: scenario.RecoveryConstant(60, n),
	}
	for a := 1; a <= n; a++ {
		app.WorkRate[a-1] = float64(a)
		app.Latency[a-1], app.Overhead[a-1] = 120, 120
	}
	sys := scenario.System{Processors: n, MTTF: 8 * 3600, MTTR: 4 * 3600}
	s, err := availability.Best(context.Background(), sys, app, nil)
	if err != nil {
		log.Fatal(err)
	}
	b := s.Best
	fmt.Printf("a = %d, I* = %.0f min, A = %.3f\n", b.Processors, b.Interval/60, b.Availability)
	// Output:
	// a = 4, I* = 21 min, A = 0.737
}
