package replication

import (
	"context"
	"errors"
	"fmt"

	"github.com/ckpt-markov/markov/scenario"
)

// Pair is a count a of logical processes, a replication degree r and the
// model's optimum at (a, r).
type Pair struct {
	// Processes is a, Replicas r.
	Processes, Replicas int
	// Optimum is the model's optimum at (a, r).
	Optimum
}

// Choice is the outcome of Best: the pair (a, r) and the interval that
// maximise UWT, and beside it the best pair without replication.
type Choice struct {
	// Pair is the best pair over every r searched.
	Pair
	// Single is the best pair with r = 1 (the toolkit's moldable model),
	// for comparison; Single.Processes is 0 if no r = 1 pair does useful
	// work.
	Single Pair
	// Evaluated counts the (a, r) pairs optimised; Skipped those whose
	// chain exceeds MaxStates (not compared).
	Evaluated, Skipped int
}

// Best maximises UWT jointly over the count a of logical processes, the
// replication degree r = 1 … maxReplicas (≤ scenario.MaxReplicas) with
// a·r ≤ N, and the interval I, for the system and costs of sc (ω, L, C
// and R(a, a) read at a; sc's own replication degree and policy are
// ignored), and the best pair with r = 1 beside it (Choice.Single). Pairs whose chain exceeds MaxStates are skipped and counted;
// the search is exhaustive over the others (each I by Optimize with
// tolerance tol), in increasing r then a, so the result does not depend
// on timing; ties keep the first. It stops with ctx.Err() when ctx is
// done, and calls progress (if not nil) after each pair.
func Best(ctx context.Context, sc *scenario.Scenario, maxReplicas int, tol float64, progress func(done, total int)) (Choice, error) {
	if sc == nil {
		return Choice{}, errors.New("replication: scenario is nil")
	}
	if err := sc.Validate(); err != nil {
		return Choice{}, err
	}
	if maxReplicas < 1 || maxReplicas > scenario.MaxReplicas {
		return Choice{}, fmt.Errorf("replication: maxReplicas = %d, want 1 … %d", maxReplicas, scenario.MaxReplicas)
	}
	n := sc.N()
	total := 0
	for r := 1; r <= min(maxReplicas, n); r++ {
		total += n / r
	}
	var best Choice
	done := 0
	found := false
	for r := 1; r <= min(maxReplicas, n); r++ {
		for a := 1; a*r <= n; a++ {
			if err := ctx.Err(); err != nil {
				return Choice{}, err
			}
			m := modelAt(sc, a, r)
			done++
			if m.States() > MaxStates {
				best.Skipped++
			} else if m.WorkRate > 0 {
				opt, err := m.Optimize(tol)
				if err != nil {
					return Choice{}, fmt.Errorf("replication: a = %d, r = %d: %w", a, r, err)
				}
				best.Evaluated++
				if !found || opt.UWT > best.UWT {
					best.Pair = Pair{a, r, opt}
					found = true
				}
				if r == 1 && (best.Single.Processes == 0 || opt.UWT > best.Single.UWT) {
					best.Single = Pair{a, r, opt}
				}
			}
			if progress != nil {
				progress(done, total)
			}
		}
	}
	if !found {
		return best, fmt.Errorf("replication: no (a, r) pair fits MaxStates = %d with ω(a) > 0 (%d skipped)", MaxStates, best.Skipped)
	}
	return best, nil
}

// modelAt is the model of sc's system and costs for a processes × r
// replicas.
func modelAt(sc *scenario.Scenario, a, r int) Model {
	app := sc.Application
	return Model{
		Processors: sc.N(), Processes: a, Replicas: r,
		MTTF: sc.System.MTTF, MTTR: sc.System.MTTR,
		WorkRate: app.WorkRate[a-1], Latency: app.Latency[a-1], Overhead: app.Overhead[a-1],
		Recovery: app.Recovery.Cost(a, a),
	}
}
