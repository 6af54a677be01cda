package bench_test

import (
	"fmt"
	"log"
	"strings"

	"github.com/ckpt-markov/markov/bench"
	"github.com/ckpt-markov/markov/scenario"
)

// The end points of each application's curves are the paper's published
// numbers: C(1) is the Table I minimum and 0.93·ω(128) the Table III best UWT.
func Example() {
	for _, name := range bench.Names() {
		app, err := bench.Application(name, 128)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%s: C(1) = %.2f s, 0.93·ω(128) = %.2f/s\n", name, app.Overhead[0], 0.93*app.WorkRate[127])
	}
	// Output:
	// qr: C(1) = 91.90 s, 0.93·ω(128) = 10.47/s
	// cg: C(1) = 8.96 s, 0.93·ω(128) = 0.88/s
	// md: C(1) = 1.35 s, 0.93·ω(128) = 19.72/s
}

// A scenario file may name a benchmark application instead of listing its
// vectors.
func Example_scenario() {
	const file = `{
	  "system": {"processors": 128, "mttf": "104.61d", "mttr": "56.03m"},
	  "application": "md",
	  "policy": "greedy"
	}`
	s, err := scenario.Parse(strings.NewReader(file), &scenario.ParseSettings{Applications: bench.Application})
	if err != nil {
		log.Fatal(err)
	}
	app := s.Application
	fmt.Println("processors:", app.N())
	fmt.Println("recovery depends on the old count:", app.Recovery.DependsOnOld())
	fmt.Printf("R(1, 1) = %.2f s\n", app.Recovery.Cost(1, 1))
	// Output:
	// processors: 128
	// recovery depends on the old count: true
	// R(1, 1) = 8.27 s
}
