package optimal_test

import (
	"context"
	"fmt"

	"github.com/ckpt-markov/markov/optimal"
	"github.com/ckpt-markov/markov/scenario"
)

// The example of docs/optimal-policy.md section 1: 5 processors, MTTF 2
// days, MTTR 1 h, linear speed-up: the best vector waits for all 5.
func ExampleSolver_FixedInterval() {
	const n = 5
	work, lat, ovh := make([]float64, n), make([]float64, n), make([]float64, n)
	for a := 1; a <= n; a++ {
		work[a-1], lat[a-1], ovh[a-1] = float64(a), 60, 30
	}
	sc, err := scenario.New(scenario.System{Processors: n, MTTF: 2 * 86400, MTTR: 3600},
		scenario.Application{WorkRate: work, Latency: lat, Overhead: ovh, Recovery: scenario.RecoveryConstant(60, n)},
		scenario.Policy{Kind: scenario.Greedy})
	if err != nil {
		fmt.Println(err)
		return
	}
	sv, err := optimal.New(sc, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := sv.FixedInterval(context.Background(), 3600)
	if err != nil {
		fmt.Println(err)
		return
	}
	v, _ := res.Policy.Vector()
	fmt.Printf("r* = %v, g*(1 h) = %.4f\n", v, res.UWT)
	// Output:
	// r* = [0 0 0 0 5], g*(1 h) = 4.2258
}

// A command line's --policy optimal: the overrides resolve to the parts
// of a scenario whose policy is the optimal policy not yet solved (no
// Scenario holds it, nothing stands in for it); Solve takes the parts'
// system and application, and the solved policy makes the Scenario.
func ExampleSolve_overrides() {
	n, optimalPolicy := 5, scenario.Policy{Kind: scenario.Optimal}
	app := scenario.Application{
		WorkRate: []float64{1, 2, 3, 4, 5}, Latency: []float64{60, 60, 60, 60, 60},
		Overhead: []float64{60, 60, 60, 60, 60}, Recovery: scenario.RecoveryConstant(60, n),
	}
	base, err := scenario.New(scenario.System{Processors: n, MTTF: 2 * 86400, MTTR: 3600}, app, scenario.Policy{Kind: scenario.Greedy})
	if err != nil {
		fmt.Println(err)
		return
	}
	ov := scenario.Overrides{Policy: &optimalPolicy}
	if _, err := ov.Apply(base, nil); err != nil {
		fmt.Println("Apply:", err != nil)
	}
	parts, err := ov.Resolve(base, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("unsolved:", parts.Policy.Unsolved())
	sol, err := optimal.Solve(context.Background(), parts.System, parts.Application, &optimal.Options{Reconfigure: parts.Reconfigure})
	if err != nil {
		fmt.Println(err)
		return
	}
	t, err := sol.DecisionTable()
	if err != nil {
		fmt.Println(err)
		return
	}
	parts.Policy = parts.Policy.ResolvedTable(t)
	sc, err := parts.Scenario()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("scenario policy:", sc.Policy, "unsolved:", sc.Policy.Unsolved(), "vector entries:", len(sc.Reschedule))
	// Output:
	// Apply: true
	// unsolved: true
	// scenario policy: optimal unsolved: false vector entries: 5
}
