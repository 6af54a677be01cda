// Command tracegen writes a synthetic failure trace in the generic format
// of markov evaluate --trace: n nodes with exponential up and down times
// (trace.Exponential), for example a harsh desktop grid:
//
//	go run ./cmd/tracegen -nodes 64 -mttf 8h -mttr 4h -duration 730d -seed 1 > harsh.csv
package main

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"

	"github.com/ckpt-markov/markov/scenario"
	"github.com/ckpt-markov/markov/trace"
)

func main() {
	nodes := flag.Int("nodes", 64, "number of nodes")
	mttf := flag.String("mttf", "8h", "mean up time of a node")
	mttr := flag.String("mttr", "4h", "mean down time of a node")
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
	tr, err := trace.Exponential(nodes, t[0], t[1], t[2], rand.New(rand.NewPCG(seed, 0)))
	if err != nil {
		return err
	}
	return trace.WriteGeneric(os.Stdout, tr)
}
