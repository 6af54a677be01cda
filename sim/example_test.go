package sim_test

import (
	"context"
	"fmt"
	"log"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/ckpt-markov/markov/scenario"
	"github.com/ckpt-markov/markov/sim"
)

// One processor (docs/model.md section 7): MTTF 1 h, MTTR 10 min, I = 10 min,
// L = C = 60.6 s, R = 30 s. The simulated availability is compared with
// the closed form λθ/(λ+θ)·(I+L−C)·e^{−λ(I+2L+R)}/(1−e^{−λ(I+L)}).
func ExampleRun() {
	sc, err := scenario.New(
		scenario.System{Processors: 1, MTTF: 3600, MTTR: 600},
		scenario.Application{WorkRate: []float64{1}, Latency: []float64{60.6}, Overhead: []float64{60.6},
			Recovery: scenario.RecoveryConstant(30, 1)},
		scenario.Policy{Kind: scenario.Greedy})
	if err != nil {
		log.Fatal(err)
	}
	res, err := sim.Run(context.Background(), sc, 600, &sim.Settings{Seed: 1, RelTol: 0.005})
	if err != nil {
		log.Fatal(err)
	}
	l, th := 1/3600.0, 1/600.0
	exact := l * th / (l + th) * 600 * math.Exp(-l*(600+2*60.6+30)) / -math.Expm1(-l*660.6)
	fmt.Printf("exact A = %.5f\n", exact)
	fmt.Println("status:", res.Status)
	fmt.Println("99% CI of the simulation contains it:", res.Availability.Contains(exact))
	fmt.Println("half-width within 0.5% of UWT:", res.UWT.HalfWidth <= 0.005*res.UWT.Mean)
	// Output:
	// exact A = 0.69164
	// status: Converged
	// 99% CI of the simulation contains it: true
	// half-width within 0.5% of UWT: true
}

// A scripted source makes a run countable by hand. Two processors, greedy,
// ω = 1.5 on two, I = 100 s, L = 6 s, C = 4 s: segments [0,106) and
// [106,212) commit 1.5·102 = 153 each; processor 1 fails at 250, so the
// application recovers on processor 0 alone (R = 20 s + L(1) = 10 s) and
// commits 100 at 390; processor 1 is back at 260 but waits as a spare.
func ExampleTimeline() {
	sc, err := scenario.New(
		scenario.System{Processors: 2, MTTF: 3600, MTTR: 600},
		scenario.Application{WorkRate: []float64{1, 1.5}, Latency: []float64{10, 6}, Overhead: []float64{10, 4},
			Recovery: scenario.RecoveryConstant(20, 2)},
		scenario.Policy{Kind: scenario.Greedy})
	if err != nil {
		log.Fatal(err)
	}
	src, err := sim.NewListSource([]bool{true, true}, []sim.Event{
		{Time: 250, Proc: 1},
		{Time: 260, Proc: 1, Up: true},
	})
	if err != nil {
		log.Fatal(err)
	}
	tl, err := sim.NewTimeline(sc, 100, src, sim.LowestIndex{}, nil)
	if err != nil {
		log.Fatal(err)
	}
	if err := tl.Run(400); err != nil {
		log.Fatal(err)
	}
	t := tl.Totals()
	fmt.Printf("work %g in %g s: %d commits, %d failure, up %g s, recovery %g s\n",
		t.Work, t.Time, t.Commits, t.Failures, t.Up, t.Recovery)
	// Output:
	// work 406 in 400 s: 3 commits, 1 failure, up 370 s, recovery 30 s
}

// A renewal source whose processors have Weibull up times of shape 0.7
// (failures cluster after repairs) and log-normal repair times. Over a long
// run the fraction of time a processor is up approaches the renewal-reward
// limit E[U] / (E[U] + E[R]) = 36455 s / (36455 s + 4079 s) = 0.899
// (Weibull mean λ·Γ(1 + 1/k), log-normal mean e^{μ + σ²/2}).
func ExampleRenewal() {
	up := distuv.Weibull{K: 0.7, Lambda: 8 * 3600}
	repair := distuv.LogNormal{Mu: math.Log(3600), Sigma: 0.5}
	src, err := sim.NewRenewal(16, up, repair, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		fmt.Println(err)
		return
	}
	const horizon = 1e9
	state := make([]bool, src.Processors())
	src.Init(state)
	since := make([]float64, len(state))
	upTime := 0.0
	for ev := src.Next(); ev.Time < horizon; ev = src.Next() {
		if !ev.Up {
			upTime += ev.Time - since[ev.Proc]
		}
		since[ev.Proc], state[ev.Proc] = ev.Time, ev.Up
	}
	for p, u := range state {
		if u {
			upTime += horizon - since[p]
		}
	}
	fmt.Printf("simulated %.3f, renewal-reward %.3f\n", upTime/(16*horizon), up.Mean()/(up.Mean()+repair.Mean()))
	// Output:
	// simulated 0.899, renewal-reward 0.899
}

// A pool of 64 processors whose failures come in events of one or four
// processors (half each, mean 2.5), repaired so fast that the pool stays
// full: the processors of one event fail at one instant, and the mean
// event size over 20000 events is 2.5 (its standard error is 0.01).
func ExampleNewBatch() {
	b, err := sim.NewBatch(64, 1e6, 1, []float64{0.5, 0, 0, 0.5}, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		log.Fatal(err)
	}
	up := make([]bool, 64)
	b.Init(up)
	events, failures := 0, 0
	last := -1.0
	for events < 20000 {
		ev := b.Next()
		if ev.Up {
			continue
		}
		if ev.Time != last {
			events++
			last = ev.Time
		}
		failures++
	}
	fmt.Printf("mean event size %.1f\n", float64(failures)/float64(events))
	// Output:
	// mean event size 2.5
}
