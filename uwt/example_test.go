package uwt_test

import (
	"context"
	"fmt"
	"log"

	"github.com/ckpt-markov/markov/scenario"
	"github.com/ckpt-markov/markov/uwt"
)

// Find the best checkpoint interval of an application on 8 processors
// that fail every 10 days on average and take an hour to repair.
func Example() {
	n := 8
	app := scenario.Application{
		WorkRate: make([]float64, n),
		Latency:  make([]float64, n),
		Overhead: make([]float64, n),
		Recovery: scenario.RecoveryConstant(120, n),
	}
	for a := 1; a <= n; a++ {
		app.WorkRate[a-1] = float64(a) // perfect speed-up
		app.Latency[a-1] = 300
		app.Overhead[a-1] = 300
	}
	sys := scenario.System{Processors: n, MTTF: 10 * 86400, MTTR: 3600}
	sc, err := scenario.New(sys, app, scenario.Policy{Kind: scenario.Greedy})
	if err != nil {
		log.Fatal(err)
	}
	m, err := uwt.New(context.Background(), sc, nil)
	if err != nil {
		log.Fatal(err)
	}
	opt, err := m.Optimize(context.Background(), nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("I* = %.2f h, UWT = %.4f (%.1f %% of ω(8))\n", opt.Interval/3600, opt.UWT, 100*opt.UWT/8)
	// Output:
	// I* = 2.34 h, UWT = 6.4665 (80.8 % of ω(8))
}
