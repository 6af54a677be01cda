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
