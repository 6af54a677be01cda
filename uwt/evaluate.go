package uwt

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"

	"github.com/ckpt-markov/markov/markov"
)

// Result is the outcome of one evaluation of the model at an interval.
type Result struct {
	// Interval is the checkpoint interval I evaluated, in seconds.
	Interval float64
	// UWT is the long-run useful work per second, Σπw / Σπτ.
	UWT float64
	// Availability is the long-run fraction of time spent on useful
	// computation, Σπu / Σπτ (for a moldable policy on a processors,
	// UWT = ω(a)·Availability).
	Availability float64
	// States is the number of states reachable from the start state,
	// Recurrent the number the chain keeps visiting (the support of π).
	States, Recurrent int
	// Built is the number of states the skeleton holds (the window of the
	// fast path), Pruned the number of those that pruning made
	// unreachable, that is, reachable without pruning but not with it.
	Built, Pruned int
	// Transitions is the number of transitions of the solved chain.
	Transitions int
	// Dropped is the stationary probability per jump of a transition that
	// the model dropped: out of the fast path's window, below the pruning
	// threshold, or in the negligible tail of a spare-chain row.
	Dropped float64
	// Outside is the part of Dropped that left the window of functional
	// counts; the fast path widens the window until it is at most
	// Settings.Tol.
	Outside float64
	// Residual is the stationary residual ‖πᵀP − πᵀ‖₁ of the solved chain.
	Residual float64
	// Solver is the stationary method used.
	Solver markov.Method

	sk *skeleton
	pi []float64 // over the skeleton's states
}

// Inspect returns the states the chain visits with their stationary
// probabilities (of the jump chain), in the model's state order.
func (r *Result) Inspect() []Weighted {
	var out []Weighted
	for i, p := range r.pi {
		if p > 0 {
			out = append(out, Weighted{State: r.sk.states[i], Prob: p})
		}
	}
	return out
}

// Weighted is a state with its stationary probability.
type Weighted struct {
	State State
	Prob  float64
}

// Evaluate computes UWT(I) for the checkpoint interval I > 0 (seconds).
// With the fast path, it widens the window of functional counts until the
// dropped mass is below Settings.Tol.
func (m *Model) Evaluate(ctx context.Context, interval float64) (Result, error) {
	if math.IsNaN(interval) || math.IsInf(interval, 0) || interval <= 0 {
		return Result{}, fmt.Errorf("uwt: interval = %v, want a positive number of seconds", interval)
	}
	for {
		res, windowDrop, err := m.evaluate(ctx, interval)
		if err != nil {
			return res, err
		}
		full := m.sk.lo == 0 && m.sk.hi == m.sc.N()
		if m.set.Exact || full || windowDrop <= m.set.Tol {
			return res, nil
		}
		// Widen the window: double its distance from N on each side.
		n := m.sc.N()
		w := max(m.sk.hi-m.sk.lo, 4)
		lo, hi := max(m.sk.lo-w, 0), min(m.sk.hi+w, n)
		if err := m.build(ctx, lo, hi); err != nil {
			return Result{}, err
		}
	}
}

// evaluate solves the chain of the current skeleton at one interval. It
// returns the dropped mass due to the window alone as well.
func (m *Model) evaluate(ctx context.Context, interval float64) (Result, float64, error) {
	sk := m.sk
	app := m.sc.Application
	for _, j := range sk.upJobs {
		j.t = m.upLength(j.a, interval)
	}
	if err := m.runJobs(ctx, sk.upJobs); err != nil {
		return Result{}, 0, err
	}
	ns := len(sk.states)
	// Rows and rewards of every state.
	tau := make([]float64, ns)
	work := make([]float64, ns)
	useful := make([]float64, ns)
	outWindow := make([]float64, ns) // mass leaving the window
	var rows, cols []int
	var vals []float64
	for i, st := range sk.states {
		if st.Kind == Down {
			k := st.N
			tau[i] = 1 / (float64(k)*m.lambda + float64(sk.n-k)*m.theta)
			for _, tr := range sk.down[i] {
				if tr.to < 0 {
					outWindow[i] += tr.p
					continue
				}
				rows, cols, vals = append(rows, i), append(cols, tr.to), append(vals, tr.p)
			}
			continue
		}
		ref := sk.rowOf[i]
		j := ref.j
		surv := math.Exp(-j.rho * j.t)
		tau[i] = sojourn(j.rho, j.t)
		if st.Kind == Up {
			a := st.A
			seg := interval + app.Latency[a-1] - app.Overhead[a-1]
			useful[i] = surv * seg
			work[i] = surv * seg * app.WorkRate[a-1]
		}
		lo, p, q := j.blk.row(ref.s)
		for c := range p {
			s2 := lo + c
			if v := surv * p[c]; v > 0 {
				if to := j.upTo[s2]; to >= 0 {
					rows, cols, vals = append(rows, i), append(cols, int(to)), append(vals, v)
				} else {
					outWindow[i] += v
				}
			}
			if v := q[c]; v > 0 {
				if to := j.failTo[s2]; to >= 0 {
					rows, cols, vals = append(rows, i), append(cols, int(to)), append(vals, v)
				} else {
					outWindow[i] += v
				}
			}
		}
	}
	// Prune each row relative to its exit mass, then keep the states
	// reachable from the start along the kept transitions.
	kept := pruneRows(rows, cols, vals, m.set.Prune)
	reach, sub := reachable(ns, sk.start, rows, cols, kept)
	pruned := 0
	if m.set.Prune > 0 {
		_, all := reachable(ns, sk.start, rows, cols, nil)
		pruned = len(all) - len(sub)
	}
	labels := make([]State, len(sub))
	for k, i := range sub {
		labels[k] = sk.states[i]
	}
	keep := 0
	for e := range rows {
		if kept[e] && reach[rows[e]] >= 0 {
			rows[keep], cols[keep], vals[keep] = int(reach[rows[e]]), int(reach[cols[e]]), vals[e]
			keep++
		}
	}
	chain, err := markov.FromCOO(labels, rows[:keep], cols[:keep], vals[:keep], &markov.BuildSettings{Renormalise: true})
	if err != nil {
		return Result{}, 0, fmt.Errorf("uwt: %w", err)
	}
	var start []float64
	if m.warm != nil {
		start = make([]float64, len(sub))
		for k, i := range sub {
			start[k] = m.warm[i]
		}
	}
	st, err := chain.Stationary(&markov.Settings{Start: start})
	if err != nil && !errors.Is(err, markov.ErrNoConvergence) {
		return Result{}, 0, fmt.Errorf("uwt: %w", err)
	}
	if err != nil && st.Pi != nil && start != nil {
		// A poor warm start can stall the iteration: retry cold.
		st, err = chain.Stationary(nil)
	}
	if err != nil {
		return Result{}, 0, fmt.Errorf("uwt: stationary solve at I = %g: %w", interval, err)
	}
	pi := make([]float64, ns)
	var tauS, workS, usefulS []float64
	deficit := chain.Renormalisation().Deficit
	dropped, windowDrop := 0.0, 0.0
	for k, i := range sub {
		pi[i] = st.Pi[k]
		if pi[i] > 0 {
			tauS, workS, usefulS = append(tauS, tau[i]), append(workS, work[i]), append(usefulS, useful[i])
			windowDrop += pi[i] * outWindow[i]
			dropped += pi[i] * deficit[k]
		}
	}
	piS := make([]float64, 0, len(tauS))
	for _, p := range pi {
		if p > 0 {
			piS = append(piS, p)
		}
	}
	uwt, err := markov.RenewalReward(piS, workS, tauS)
	if err != nil {
		return Result{}, 0, fmt.Errorf("uwt: %w", err)
	}
	avail, err := markov.RenewalReward(piS, usefulS, tauS)
	if err != nil {
		return Result{}, 0, fmt.Errorf("uwt: %w", err)
	}
	m.warm = pi
	res := Result{
		Interval:     interval,
		UWT:          uwt,
		Availability: avail,
		States:       len(sub),
		Recurrent:    len(piS),
		Built:        ns,
		Pruned:       pruned,
		Transitions:  chain.NNZ(),
		Dropped:      dropped,
		Outside:      windowDrop,
		Residual:     st.Residual,
		Solver:       st.Method,
		sk:           sk,
		pi:           pi,
	}
	return res, windowDrop, nil
}

// pruneRows marks the transitions to keep: transition i → j (j ≠ i) is
// pruned when p_ij < prune·(1 − p_ii), a fraction prune of the
// probability of leaving i. Pruning relative to the exit mass bounds the
// relative change of the flow between states by prune, and never removes
// the last exit of a state, which an absolute threshold can do (a state
// whose exits are all tiny would become absorbing and change the
// recurrent class). Rows are contiguous runs of equal rows[e].
func pruneRows(rows, cols []int, vals []float64, prune float64) []bool {
	kept := make([]bool, len(rows))
	for b := 0; b < len(rows); {
		e := b
		exit := 0.0
		for ; e < len(rows) && rows[e] == rows[b]; e++ {
			if cols[e] != rows[e] {
				exit += vals[e]
			}
		}
		for k := b; k < e; k++ {
			kept[k] = cols[k] == rows[k] || vals[k] >= prune*exit
		}
		b = e
	}
	return kept
}

// reachable returns, for each of n states, its index among the states
// reachable from start along the transitions with kept[e] (all when kept
// is nil), or −1, and the reachable states in increasing order.
func reachable(n, start int, rows, cols []int, kept []bool) ([]int32, []int) {
	ptr := make([]int, n+1)
	for e, r := range rows {
		if kept == nil || kept[e] {
			ptr[r+1]++
		}
	}
	for i := range n {
		ptr[i+1] += ptr[i]
	}
	adj := make([]int, ptr[n])
	fill := append([]int(nil), ptr[:n]...)
	for e, r := range rows {
		if kept == nil || kept[e] {
			adj[fill[r]] = cols[e]
			fill[r]++
		}
	}
	seen := make([]bool, n)
	stack := []int{start}
	seen[start] = true
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, j := range adj[ptr[i]:ptr[i+1]] {
			if !seen[j] {
				seen[j] = true
				stack = append(stack, j)
			}
		}
	}
	idx := make([]int32, n)
	var sub []int
	for i := range n {
		idx[i] = -1
		if seen[i] {
			idx[i] = int32(len(sub))
			sub = append(sub, i)
		}
	}
	return idx, sub
}

// inlineCost is the number of spare-chain row entries below which runJobs
// computes the rows on the calling goroutine. A variable so that tests can
// force the worker pool.
var inlineCost = 50_000

// runJobs computes the row blocks of jobs in a pool of m.set.Workers
// goroutines. Each job writes only its own block, so the result does not
// depend on the number of workers.
func (m *Model) runJobs(ctx context.Context, jobs []*job) error {
	if len(jobs) == 0 {
		return nil
	}
	// Small batches run inline: handing them to goroutines costs more in
	// scheduling than it saves. The cost estimate counts row entries.
	cost := 0
	for _, j := range jobs {
		cost += (j.s1 - j.s0) * (j.m + 1)
	}
	if m.set.Workers == 1 || cost < inlineCost {
		for _, j := range jobs {
			if err := ctx.Err(); err != nil {
				return err
			}
			blk, err := m.src.rows(j.m, j.t, j.rho, j.s0, j.s1)
			if err != nil {
				return fmt.Errorf("uwt: spare chain m = %d, T = %g: %w", j.m, j.t, err)
			}
			j.blk = blk
		}
		return nil
	}
	workers := min(m.set.Workers, len(jobs))
	next := make(chan *job)
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range next {
				if errs[w] != nil {
					continue
				}
				blk, err := m.src.rows(j.m, j.t, j.rho, j.s0, j.s1)
				if err != nil {
					errs[w] = fmt.Errorf("uwt: spare chain m = %d, T = %g: %w", j.m, j.t, err)
					continue
				}
				j.blk = blk
			}
		}()
	}
	var cerr error
	for _, j := range jobs {
		if cerr = ctx.Err(); cerr != nil {
			break
		}
		next <- j
	}
	close(next)
	wg.Wait()
	if cerr != nil {
		return cerr
	}
	return errors.Join(errs...)
}
