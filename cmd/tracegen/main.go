// Command tracegen writes a synthetic failure trace in the generic format
// of markov evaluate --trace: n identical nodes with exponential up and
// repair times (package trace/synth), for example a harsh desktop grid:
//
//	go run ./cmd/tracegen -nodes 64 -mttf 8h -mttr 4h -duration 730d -seed 1 > harsh.csv
package main

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/ckpt-markov/markov/scenario"
	"github.com/ckpt-markov/markov/trace"
	"github.com/ckpt-markov/markov/trace/synth"
)

func main() {
	nodes := flag.Int("nodes", 64, "number of nodes")
	mttf := flag.String("mttf", "8h", "mean up time of a node")
	mttr := flag.String("mttr", "4h", "mean repair time of a node")
	dur := flag.String("duration", "730d", "length of the trace")
	seed := flag.Uint64("seed", 1, "random seed")
	flag.Parse()
	if err := run(*nodes, *mttf, *mttr, *dur, *seed); err != nil {
		fmt.Fprintln(os.Stderr, "tracegen:", err)
		os.Exit(1)
	}
}

func run(nodes int, mttf, mttr, dur string, seed uint64) error {
	var t [3]float64
	for i, s := range []string{mttf, mttr, dur} {
		v, err := scenario.ParseDuration(s)
		if err != nil {
			return err
		}
		t[i] = v
	}
	res, err := synth.Generate(synth.Config{Nodes: nodes, Duration: t[2],
		Up: distuv.Exponential{Rate: 1 / t[0]}, Repair: distuv.Exponential{Rate: 1 / t[1]}},
		rand.New(rand.NewPCG(seed, 0)))
	if err != nil {
		return err
	}
	return trace.WriteGeneric(os.Stdout, res.Trace)
}
