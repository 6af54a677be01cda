package replication_test

import (
	"fmt"

	"github.com/ckpt-markov/markov/replication"
)

// Four logical processes with two replicas each on ten processors (MTTF
// 10 h, MTTR 2 h): UWT at I = 1 h (package sim measures 3.561 ± 0.009,
// replication's tests) and the optimal interval.
func Example() {
	m := replication.Model{
		Processors: 10, Processes: 4, Replicas: 2,
		MTTF: 36000, MTTR: 7200,
		WorkRate: 4, Latency: 60, Overhead: 60, Recovery: 120,
	}
	r, err := m.UWT(3600)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("UWT(1 h) = %.3f work/s over %d states\n", r.UWT, r.States)
	opt, err := m.Optimize(0)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("I* = %.0f s, UWT %.3f\n", opt.Interval, opt.UWT)
	// Output:
	// UWT(1 h) = 3.564 work/s over 25 states
	// I* = 1950 s, UWT 3.616
}
