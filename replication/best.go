package replication

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"

	"gonum.org/v1/gonum/mathext"

	"github.com/ckpt-markov/markov/reschedule"
	"github.com/ckpt-markov/markov/scenario"
	"github.com/ckpt-markov/markov/uwt"
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
	// Evaluated counts the (a, r) pairs optimised; Pruned those whose
	// upper bound (Bound) could not beat the best pair found (or, for r =
	// 1, the best r = 1 pair); Skipped those neither pruned nor within
	// MaxStates (not compared).
	Evaluated, Pruned, Skipped int
	// Work is the estimated work of the pairs optimised, in the units of
	// MaxWork.
	Work float64
}

// MaxWork bounds the estimated work of Best, in units of one step of a
// dense matrix product (about 0.15 ns of CPU each on the machine of
// BENCHMARKS.md): S³ for each pair with r > 1 (S = Model.States; the
// dense exponentials and integrals of its optimisation scale as S³), and
// 8·N for each pair with r = 1 (package uwt's chain on the functional
// counts, measured at N = 10⁴). 2e9 is about five minutes of CPU.
const MaxWork = 2e9

// MaxPairs bounds the number of (a, r) pairs Best enumerates (about
// 3.4·N for r ≤ 16), checked before anything is allocated.
const MaxPairs = 1 << 20

// WorkError tells that Best would exceed MaxPairs or MaxWork: the pool of
// Processors has too many (a, r) pairs that the bound cannot prune.
type WorkError struct {
	// Processors is N. Pairs is the number of (a, r) pairs when it
	// exceeds MaxPairs (nothing was solved), else 0.
	Processors, Pairs int
	// Work is the estimated work of the pairs optimised so far and of the
	// next one, which would exceed Limit (MaxWork for Best).
	Work, Limit float64
}

func (e *WorkError) Error() string {
	if e.Pairs > 0 {
		return fmt.Sprintf("replication: %d processors make %d (a, r) pairs, more than the limit of %d; use fewer processors", e.Processors, e.Pairs, MaxPairs)
	}
	return fmt.Sprintf("replication: the search over (a, r) on %d processors needs more than %.3g units of work (limit %.3g): too many pairs that the bound cannot prune; use fewer processors", e.Processors, e.Work, e.Limit)
}

// Bound returns an upper bound on UWT(I) of a processes × r replicas at
// every interval I: ω(a)·P(F ≥ a), F ~ Binomial(N, MTTF/(MTTF + MTTR))
// the stationary number of functional processors. Every processor fails
// and is repaired independently of the application (used and spare
// alike, unlimited repair), so F is that birth–death process whatever the
// application does; the application commits at most ω(a) work per second
// of up segment, and during an up segment each of the a processes has a
// live replica, so at least a processors are functional. Hence the
// long-run work per second is at most ω(a) times the fraction of time
// with F ≥ a (docs/model.md section 13). It does not depend on r (with r
// = 1 it is P(F ≥ a·r) too).
func (m Model) Bound() float64 {
	k := m.Processes
	q := m.MTTF / (m.MTTF + m.MTTR)
	// P(F ≥ k) = I_q(k, N − k + 1), the regularised incomplete beta.
	return m.WorkRate * mathext.RegIncBeta(float64(k), float64(m.Processors-k+1), q)
}

// boundSlack makes pruning safe against the rounding of Bound and of
// the chains' UWT: a pair is pruned only if Bound·(1 + boundSlack) is
// below the incumbent.
const boundSlack = 1e-9

// Best maximises UWT jointly over the count a of logical processes, the
// replication degree r = 1 … maxReplicas (≤ scenario.MaxReplicas) with
// a·r ≤ N, and the interval I, for the system and costs of sc (ω, L, C
// and R(a, a) read at a; sc's own replication degree, policy, failure
// events and levels are ignored), and the best pair with r = 1 beside it
// (Choice.Single).
//
// The pairs are visited in decreasing order of Bound (ties in increasing
// r then a); a pair whose Bound cannot beat the best UWT found so far
// (for r = 1: the best r = 1 UWT) is pruned, since no interval can make
// it better. The others are optimised (each I by Brent's method on ln I
// with tolerance tol): r = 1 with package uwt's chain on functional
// counts (the same model: docs/model.md section 13), r > 1 with the
// replica-profile chain of Model, or skipped and counted if that chain
// exceeds MaxStates. The best pair is the largest UWT, ties to the
// smallest (r, a), so the result does not depend on the order of visits
// and equals the exhaustive search's over the pairs not skipped. A pair
// with r = 1 reports the profile chain's States and Epochs, and NaN
// Interruptions (package uwt does not compute that rate). Best
// returns a *WorkError when the estimated work would exceed MaxWork (the
// work is a function of the pairs, not of timing). It stops with
// ctx.Err() when ctx is done, and calls progress (if not nil) after each
// pair.
func Best(ctx context.Context, sc *scenario.Scenario, maxReplicas int, tol float64, progress func(done, total int)) (Choice, error) {
	return best(ctx, sc, maxReplicas, tol, progress, searchOptions{prune: true, maxWork: MaxWork})
}

// searchOptions are the internal switches of best: prune (Best: true)
// and dense (solve r = 1 with the profile chain too, as an independent
// check of the uwt path; Best: false), and the work budget.
type searchOptions struct {
	prune, dense bool
	maxWork      float64
}

// candidate is a pair to visit with its bound.
type candidate struct {
	a, r  int
	bound float64
}

func best(ctx context.Context, sc *scenario.Scenario, maxReplicas int, tol float64, progress func(done, total int), o searchOptions) (Choice, error) {
	if sc == nil {
		return Choice{}, errors.New("replication: scenario is nil")
	}
	if err := sc.Validate(); err != nil {
		return Choice{}, err
	}
	if maxReplicas < 1 || maxReplicas > scenario.MaxReplicas {
		return Choice{}, fmt.Errorf("replication: maxReplicas = %d, want 1 … %d", maxReplicas, scenario.MaxReplicas)
	}
	if tol == 0 {
		tol = 1e-6
	}
	if !(tol > 0 && tol < 1) {
		return Choice{}, fmt.Errorf("replication: tol = %v, want 0 < tol < 1", tol)
	}
	n := sc.N()
	total := 0
	for r := 1; r <= min(maxReplicas, n); r++ {
		total += n / r
	}
	if total > MaxPairs {
		return Choice{}, &WorkError{Processors: n, Pairs: total}
	}
	cands := make([]candidate, 0, total)
	for r := 1; r <= min(maxReplicas, n); r++ {
		for a := 1; a*r <= n; a++ {
			cands = append(cands, candidate{a, r, modelAt(sc, a, r).Bound()})
		}
	}
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].bound > cands[j].bound })
	better := func(p Pair, inc Pair) bool {
		if inc.Processes == 0 || p.UWT != inc.UWT {
			return inc.Processes == 0 || p.UWT > inc.UWT
		}
		return p.Replicas < inc.Replicas || (p.Replicas == inc.Replicas && p.Processes < inc.Processes)
	}
	var ch Choice
	for done, c := range cands {
		if err := ctx.Err(); err != nil {
			return Choice{}, err
		}
		m := modelAt(sc, c.a, c.r)
		inc := ch.Pair
		if c.r == 1 {
			inc = ch.Single
		}
		switch {
		case m.WorkRate <= 0:
		case o.prune && inc.Processes > 0 && c.bound*(1+boundSlack) < inc.UWT:
			ch.Pruned++
		case (c.r > 1 || o.dense) && m.States() > MaxStates:
			ch.Skipped++
		default:
			opt, work, err := optimizePair(ctx, sc, m, tol, ch.Work, o)
			if err != nil {
				return Choice{}, fmt.Errorf("replication: a = %d, r = %d: %w", c.a, c.r, err)
			}
			ch.Work = work
			ch.Evaluated++
			p := Pair{c.a, c.r, opt}
			if better(p, ch.Pair) {
				ch.Pair = p
			}
			if c.r == 1 && better(p, ch.Single) {
				ch.Single = p
			}
		}
		if progress != nil {
			progress(done+1, total)
		}
	}
	if ch.Pair.Processes == 0 {
		return ch, fmt.Errorf("replication: no (a, r) pair fits MaxStates = %d with ω(a) > 0 (%d skipped)", MaxStates, ch.Skipped)
	}
	return ch, nil
}

// optimizePair optimises the interval of one pair, r = 1 with package
// uwt and r > 1 with the profile chain, after charging its work to the
// budget (work is the total so far).
func optimizePair(ctx context.Context, sc *scenario.Scenario, m Model, tol, work float64, o searchOptions) (Optimum, float64, error) {
	if m.Replicas > 1 || o.dense {
		s := float64(m.States())
		work += s * s * s
		if work > o.maxWork {
			return Optimum{}, work, &WorkError{Processors: m.Processors, Work: work, Limit: o.maxWork}
		}
		if err := m.Validate(); err != nil {
			return Optimum{}, work, err
		}
		pr, err := m.prepare()
		if err != nil {
			return Optimum{}, work, err
		}
		opt, err := m.optimizeWith(func(x float64) (Result, error) { return m.uwtWith(pr, x) }, tol)
		return opt, work, err
	}
	work += 8 * float64(m.Processors)
	if work > o.maxWork {
		return Optimum{}, work, &WorkError{Processors: m.Processors, Work: work, Limit: o.maxWork}
	}
	msc, err := moldableAt(sc, m.Processes)
	if err != nil {
		return Optimum{}, work, err
	}
	um, err := uwt.New(ctx, msc, nil)
	if err != nil {
		return Optimum{}, work, err
	}
	states := m.Processors - m.Processes + 1
	opt, err := m.optimizeWith(func(x float64) (Result, error) {
		res, err := um.Evaluate(ctx, x)
		if err != nil {
			return Result{}, err
		}
		return Result{Interval: x, UWT: res.UWT, Availability: res.Availability, Interruptions: math.NaN(),
			States: states, Epochs: states + m.Processors - m.Processes + 1}, nil
	}, tol)
	return opt, work, err
}

// moldableAt is sc's system (without failure events) and costs with the
// moldable policy on a processors and one replica: package uwt's form of
// Model with r = 1.
func moldableAt(sc *scenario.Scenario, a int) (*scenario.Scenario, error) {
	app := sc.Application
	v, err := reschedule.Moldable(sc.N(), a)
	if err != nil {
		return nil, err
	}
	return &scenario.Scenario{
		System: scenario.System{Processors: sc.N(), MTTF: sc.System.MTTF, MTTR: sc.System.MTTR},
		Application: scenario.Application{
			WorkRate: app.WorkRate, Latency: app.Latency, Overhead: app.Overhead, Recovery: app.Recovery,
		},
		Policy:     scenario.Policy{Kind: scenario.Moldable, Processors: a},
		Reschedule: v,
	}, nil
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
