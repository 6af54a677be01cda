package evaluate_test

import (
	"context"
	"fmt"
	"log"

	"github.com/ckpt-markov/markov/evaluate"
	"github.com/ckpt-markov/markov/scenario"
	"github.com/ckpt-markov/markov/trace"
)

// Two nodes, greedy, ω = 1 and 1.5 on one and two, L = 10 and 6, C = 10
// and 4, R = 20, I = 100, replayed from t = 1000 for 400 s. By hand: two
// segments of 106 s on both nodes commit 1.5·102 = 153 each; node 1 fails
// at 1250 (relative 250), the application recovers on node 0 alone
// (20 + 10 s) and commits 100 at 390; node 1 is back at 260 as a spare.
func ExampleSimulate() {
	tr, err := trace.New([]trace.Node{
		{Start: 0, End: 5000},
		{Start: 0, End: 5000, Down: []trace.Interval{{Start: 1250, End: 1260}}},
	})
	if err != nil {
		log.Fatal(err)
	}
	sc, err := scenario.New(
		scenario.System{Processors: 2, MTTF: 3600, MTTR: 600}, // not used by the replay
		scenario.Application{WorkRate: []float64{1, 1.5}, Latency: []float64{10, 6}, Overhead: []float64{10, 4},
			Recovery: scenario.RecoveryConstant(20, 2)},
		scenario.Policy{Kind: scenario.Greedy})
	if err != nil {
		log.Fatal(err)
	}
	r, err := evaluate.Simulate(tr, sc, 100, evaluate.Segment{Start: 1000, Duration: 400}, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("work %g: %d commits, %d failure; up %g s, recovery %g s, down %g s\n",
		r.Work, r.Commits, r.Failures, r.Up, r.Recovery, r.Down)
	// Output:
	// work 406: 3 commits, 1 failure; up 370 s, recovery 30 s, down 0 s
}

// A failure-free segment whose length is exactly one up segment with the
// model's interval, d = I* + L: the model's interval commits ω(1)·(d − C),
// the most any interval can commit, so its efficiency is 1. One node,
// failing for an hour every 10 days in the history: before day 100, 10
// failures in 100 days − 10 hours of up time give an MTTF of
// 8604000/10 s = 9.96 days, and 10 repairs in 10 hours an MTTR of 3600 s.
func ExampleEvaluateSegment() {
	node := trace.Node{Start: 0, End: 400 * 86400}
	for k := range 10 {
		at := float64(5+10*k) * 86400
		node.Down = append(node.Down, trace.Interval{Start: at, End: at + 3600})
	}
	tr, err := trace.New([]trace.Node{node})
	if err != nil {
		log.Fatal(err)
	}
	app := scenario.Application{WorkRate: []float64{2}, Latency: []float64{60}, Overhead: []float64{60},
		Recovery: scenario.RecoveryConstant(30, 1)}
	ctx := context.Background()
	start := 100 * 86400.0
	res, err := evaluate.EvaluateSegment(ctx, tr, app, evaluate.Segment{Start: start, Duration: 86400}, nil)
	if err != nil {
		log.Fatal(err)
	}
	d := res.Model.Interval + 60
	res, err = evaluate.EvaluateSegment(ctx, tr, app, evaluate.Segment{Start: start, Duration: d}, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("MTTF %.2f days, MTTR %.0f s\n", res.MTTF/86400, res.MTTR)
	fmt.Println("work with I* is 2·(d − C):", res.Model.Work == 2*(d-60))
	fmt.Println("efficiency:", res.Model.Efficiency)
	// Output:
	// MTTF 9.96 days, MTTR 3600 s
	// work with I* is 2·(d − C): true
	// efficiency: 1
}
