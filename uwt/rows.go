package uwt

import (
	"context"
	"fmt"

	"github.com/ckpt-markov/markov/birthdeath"
	"github.com/ckpt-markov/markov/internal/decision"
	"github.com/ckpt-markov/markov/internal/pool"
)

// rowTol is the mass each spare-chain row may leave out of its column
// window on the fast path (package internal/decision, shared with optimal).
const rowTol = decision.RowTol

// spareChains is the model's one cache of spare chains, by m
// (decision.Chains), with how their rows are computed. It is safe for
// concurrent use.
type spareChains struct {
	*decision.Chains
	// exact computes every column of the requested rows (birthdeath's
	// Rows with tol = 0: the closed form, the same numbers as the dense
	// Transition, whose (m+1)² matrices it never holds); otherwise each
	// row on the columns that carry its mass (binomial convolution for
	// P_T, a tridiagonal resolvent solve on a window for Q_T): O(√m) per
	// entry kept rather than an O(m³) dense matrix per chain.
	exact bool
	// batch, when the scenario has failure events, computes every row
	// instead (package batchchain).
	batch *batchChains
}

func newSpareChains(lambda, theta float64, exact bool) *spareChains {
	return &spareChains{Chains: decision.NewChains(lambda, theta), exact: exact}
}

// fill computes the rows of g for its current length g.t.
func (c *spareChains) fill(ctx context.Context, g *segment) error {
	if c.batch != nil {
		return c.batch.fill(ctx, g, c.exact)
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
	fill := func(ctx context.Context, g *segment) error {
		if err := m.rows.fill(ctx, g); err != nil {
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
	if m.rows.batch != nil && !m.rows.exact {
		m.rows.batch.expect(segs)
	}
	workers := m.set.Workers
	if cost < inlineCost {
		workers = 1
	}
	return pool.Each(ctx, len(segs), workers, func(ctx context.Context, k int) error { return fill(ctx, segs[k]) })
}

// fillPhase computes the rows of a recovery and the up phase after it
// (doc.go, "Up phases"; decision.Phase.Rows): the resolvent's, which is
// where the next failure leaves the spare count; split, when g.failUp is
// set, into Q_T of the recovery (qt) and the failures in the up phase
// (pt).
func (c *spareChains) fillPhase(g *segment, ch *birthdeath.Chain, tol float64) error {
	ph := decision.Phase{A: g.a, Rho: g.rho}
	rows, err := ph.Rows(ch, g.s0, g.s1, g.t, g.failUp.sk != nil, tol)
	if err != nil {
		return err
	}
	k := g.s1 - g.s0
	g.lo, g.pt, g.qt = resize(g.lo, k), resizeRows(g.pt, k), resizeRows(g.qt, k)
	for k, r := range rows {
		g.lo[k], g.pt[k], g.qt[k] = r.Lo, r.Up, r.Rec
	}
	return nil
}
