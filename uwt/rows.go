package uwt

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/ckpt-markov/markov/birthdeath"
)

// rowTol is the mass each spare-chain row may leave out of its column
// window on the fast path: far below DefaultTol, so that the window of
// functional counts, not the row tails, dominates the dropped mass.
const rowTol = 1e-16

// SpareChains is the model's one cache of spare chains, by m: each chain
// holds its eigendecomposition, computed once per model and shared by
// every segment and interval. It is safe for concurrent use.
type SpareChains struct {
	lambda, theta float64
	// exact computes every column of the requested rows (birthdeath's
	// Rows with tol = 0: the closed form, the same numbers as the dense
	// Transition, whose (m+1)² matrices it never holds); otherwise each
	// row on the columns that carry its mass (binomial convolution for
	// P_T, a tridiagonal resolvent solve on a window for Q_T): O(√m) per
	// entry kept rather than an O(m³) dense matrix per chain.
	exact  bool
	mu     sync.Mutex
	chains map[int]*birthdeath.Chain
	// batch, when the scenario has failure events, computes every row
	// instead (package batchchain).
	batch *batchChains
}

// NewSpareChains returns an empty cache of the spare chains of processors
// failing at rate lambda and repaired at rate theta, for closed-form rows
// (birthdeath.Chain.Rows with tolerance RowTol): the row machinery that
// package optimal reuses for its decision states.
func NewSpareChains(lambda, theta float64) *SpareChains { return newSpareChains(lambda, theta, false) }

// RowTol is the mass each spare-chain row may leave out of its column
// window on the fast path.
const RowTol = rowTol

func newSpareChains(lambda, theta float64, exact bool) *SpareChains {
	return &SpareChains{lambda: lambda, theta: theta, exact: exact, chains: map[int]*birthdeath.Chain{}}
}

// Chain returns the spare chain with m other processors, built on first
// use. Package optimal shares it for its decision rows.
func (c *SpareChains) Chain(m int) (*birthdeath.Chain, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if ch, ok := c.chains[m]; ok {
		return ch, nil
	}
	ch, err := birthdeath.New(m, c.lambda, c.theta)
	if err != nil {
		return nil, err
	}
	c.chains[m] = ch
	return ch, nil
}

// fill computes the rows of g for its current length g.t.
func (c *SpareChains) fill(g *segment) error {
	if c.batch != nil {
		return c.batch.fill(g, c.exact)
	}
	ch, err := c.Chain(g.m)
	if err != nil {
		return err
	}
	tol := rowTol
	if c.exact {
		tol = 0 // every column: the same closed form as the dense Transition
	}
	if g.phase {
		return c.fillPhase(g, ch, tol)
	}
	rb, err := ch.Rows(g.s0, g.s1, g.t, g.rho, tol)
	if err != nil {
		return err
	}
	k := g.s1 - g.s0
	g.lo, g.pt, g.qt = resize(g.lo, k), resizeRows(g.pt, k), resizeRows(g.qt, k)
	for k, r := range rb.Rows {
		g.lo[k], g.pt[k], g.qt[k] = r.Lo, r.P, r.Q
	}
	return nil
}

// resizeRows returns s with length n, reusing its storage.
func resizeRows(s [][]float64, n int) [][]float64 {
	if cap(s) < n {
		return make([][]float64, n)
	}
	return s[:n]
}

// inlineCost is the number of spare-chain row entries below which fillAll
// computes the rows on the calling goroutine. A variable so that tests can
// force the worker pool.
var inlineCost = 50_000

// fillAll computes the rows of segs in a pool of m.set.Workers goroutines.
// Each segment is written by one goroutine only, so the result does not
// depend on the number of workers.
func (m *Model) fillAll(ctx context.Context, segs []*segment) error {
	fill := func(g *segment) error {
		if err := m.rows.fill(g); err != nil {
			return fmt.Errorf("uwt: spare chain m = %d, T = %g: %w", g.m, g.t, err)
		}
		return nil
	}
	// Small batches run inline: handing them to goroutines costs more in
	// scheduling than it saves. The cost estimate counts row entries.
	cost := 0
	for _, g := range segs {
		cost += (g.s1 - g.s0) * (g.m + 1)
	}
	if m.set.Workers == 1 || cost < inlineCost {
		for _, g := range segs {
			if err := ctx.Err(); err != nil {
				return err
			}
			if err := fill(g); err != nil {
				return err
			}
		}
		return nil
	}
	workers := min(m.set.Workers, len(segs))
	next := make(chan *segment)
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for g := range next {
				if errs[w] == nil {
					errs[w] = fill(g)
				}
			}
		})
	}
	var cerr error
	for _, g := range segs {
		if cerr = ctx.Err(); cerr != nil {
			break
		}
		next <- g
	}
	close(next)
	wg.Wait()
	if cerr != nil {
		return cerr
	}
	return errors.Join(errs...)
}

// fillPhase computes the rows of a recovery and the up phase after it
// (doc.go, "Up phases"): the resolvent's, which is where the next failure
// leaves the spare count; split, when g.failUp is set, into Q_T of the
// recovery and the rest, Q_∞ − Q_T = e^{−ρT}·P_T·Q_∞ (the failures in the
// up phase), on the union of their windows, clamped at zero.
func (c *SpareChains) fillPhase(g *segment, ch *birthdeath.Chain, tol float64) error {
	res, err := ch.Resolvent(g.s0, g.s1, g.rho, tol)
	if err != nil {
		return err
	}
	k := g.s1 - g.s0
	g.lo, g.pt, g.qt = resize(g.lo, k), resizeRows(g.pt, k), resizeRows(g.qt, k)
	if g.failUp.sk == nil {
		for k, r := range res.Rows {
			g.lo[k], g.pt[k], g.qt[k] = r.Lo, nil, r.Q
		}
		return nil
	}
	rec, err := ch.Rows(g.s0, g.s1, g.t, g.rho, tol)
	if err != nil {
		return err
	}
	for k, r := range res.Rows {
		q := rec.Rows[k]
		lo, hi := min(r.Lo, q.Lo), max(r.Hi, q.Hi)
		vals := make([]float64, 2*(hi-lo))
		qt, up := vals[:hi-lo], vals[hi-lo:]
		copy(qt[q.Lo-lo:], q.Q)
		copy(up[r.Lo-lo:], r.Q)
		for j := range up {
			up[j] = max(up[j]-qt[j], 0)
		}
		g.lo[k], g.pt[k], g.qt[k] = lo, up, qt
	}
	return nil
}
