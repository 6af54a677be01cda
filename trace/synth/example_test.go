package synth_test

import (
	"fmt"
	"math/rand/v2"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/ckpt-markov/markov/trace"
	"github.com/ckpt-markov/markov/trace/synth"
)

// A trace of 128 nodes where half the failure events take down 4 to 16
// nodes at once, and what the estimator makes of it.
func Example() {
	cfg := synth.Config{
		Nodes:    128,
		Duration: 90 * day,
		Up:       distuv.Exponential{Rate: 1 / (8 * day)}, // events per functional node
		Repair:   distuv.Exponential{Rate: 1 / hour},
		Grouped:  0.5,
		Sizes:    synth.Uniform(4, 16),
	}
	res, err := synth.Generate(cfg, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		fmt.Println(err)
		return
	}
	e, err := trace.EstimateEvents(res.Trace, cfg.Duration, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	// Failures of one event share a time and a label: the estimator finds
	// the generator's events exactly.
	fmt.Println("events found:", e.Events.Events == res.Events)
	fmt.Println("exponential up times:", e.Exponential, "; single-node failures:", e.SingleFailures)
	// Output:
	// events found: true
	// exponential up times: holds ; single-node failures: contradicted
}

// A volunteer pool of 20 hosts over 30 days: the classes hold the
// published shares (35 % stable hosts) whatever the seed.
func ExampleDesktopGrid() {
	cfg := synth.DesktopGrid(20, 30*day)
	res, err := synth.Generate(cfg, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		fmt.Println(err)
		return
	}
	count := make([]int, len(cfg.Classes))
	for _, k := range res.Class {
		count[k]++
	}
	for k, cl := range cfg.Classes {
		fmt.Printf("%s hosts: %d\n", cl.Name, count[k])
	}
	// Output:
	// stable hosts: 7
	// intermittent hosts: 13
}
