package scenario_test

import (
	"errors"
	"fmt"
	"log"
	"strings"

	"github.com/ckpt-markov/markov/scenario"
)

func Example() {
	const file = `{
	  "system": {"processors": 4, "mttf": "100d", "mttr": "90m"},
	  "application": {
	    "work_rate": [1, 1.9, 2.7, 2.6],
	    "checkpoint_latency": "1.5m",
	    "checkpoint_overhead": 60,
	    "recovery": [10, 12, 14, 16]
	  },
	  "policy": "pb"
	}`
	s, err := scenario.Parse(strings.NewReader(file), nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("processors:", s.N())
	fmt.Println("MTTF:", scenario.FormatDuration(s.System.MTTF), "MTTR:", scenario.FormatDuration(s.System.MTTR))
	fmt.Println("L(4), C(4), R(4, 3):", s.Application.Latency[3], s.Application.Overhead[3], s.Application.Recovery.Cost(4, 3))
	fmt.Println("policy", s.Policy, "gives r =", s.Reschedule)
	// Output:
	// processors: 4
	// MTTF: 100d MTTR: 1.5h
	// L(4), C(4), R(4, 3): 90 60 14
	// policy pb gives r = [1 2 3 3]
}

// Errors name the field at fault.
func Example_error() {
	const file = `{
	  "system": {"processors": 2, "mttf": 1e6, "mttr": 600},
	  "application": {"work_rate": [1, 2], "checkpoint_latency": [30, 40], "checkpoint_overhead": [30, 45], "recovery": 5},
	  "policy": "greedy"
	}`
	_, err := scenario.Parse(strings.NewReader(file), nil)
	var se *scenario.Error
	if errors.As(err, &se) {
		fmt.Println(se.Field)
		fmt.Println(se.Problem)
	}
	// Output:
	// application.checkpoint_overhead[1]
	// C(2) = 45 exceeds the checkpoint latency L(2) = 40
}

func ExampleParseDuration() {
	for _, s := range []string{"3600", "90m", "1h30m", "100d", "2w", "25y"} {
		x, err := scenario.ParseDuration(s)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%s = %g s\n", s, x)
	}
	// Output:
	// 3600 = 3600 s
	// 90m = 5400 s
	// 1h30m = 5400 s
	// 100d = 8.64e+06 s
	// 2w = 1.2096e+06 s
	// 25y = 7.884e+08 s
}

func ExampleParsePolicy() {
	p, err := scenario.ParsePolicy("moldable:3")
	if err != nil {
		log.Fatal(err)
	}
	r, err := p.Vector(scenario.PolicyInputs{N: 5})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(p, r)
	// Output:
	// moldable:3 [0 0 3 3 3]
}

// The availability-based policy is resolved from a failure history. Here
// the three processors always fail together (one rack), so more processors
// bring no more failure instants, F(a) = 2 for every a, and the policy uses
// them all: r(n) = argmin_{a ≤ n} F(a)/ω(a) = n.
func ExamplePolicy_Vector_availabilityBased() {
	p, err := scenario.ParsePolicy("ab")
	if err != nil {
		log.Fatal(err)
	}
	in := scenario.PolicyInputs{
		N:        3,
		WorkRate: []float64{1, 2, 3},
		Failures: [][]float64{{100, 200}, {100, 200}, {100, 200}},
	}
	r, err := p.Vector(in)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(p, r)
	// Output:
	// ab [1 2 3]
}

// A system whose failure events, estimated from a trace, strike at 1e-5
// per second per functional node and take down one node half of the time
// and four nodes the other half: E[K] = 0.5·1 + 0.5·4 = 2.5, so a node
// fails every 1/(2.5·1e-5) = 40000 s on average. The JSON form is
// "failure_events": {"sizes": [0.5, 0, 0, 0.5]}.
func ExampleEventSystem() {
	sys, err := scenario.EventSystem(128, 1e-5, 3600, []float64{0.5, 0, 0, 0.5})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("MTTF %.0f s, mean event size %.1f, event rate %.0e /s per node\n",
		sys.MTTF, sys.FailureEvents.MeanSize(), sys.EventRate())
	// Output:
	// MTTF 40000 s, mean event size 2.5, event rate 1e-05 /s per node
}
