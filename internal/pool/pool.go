// Package pool is the toolkit's one worker pool: it runs n independent
// calls fn(ctx, i), i = 0, …, n−1, on a bounded number of goroutines and
// hands their results back in index order, so that what a caller builds
// from them does not depend on the number of workers or on the order in
// which the calls end.
//
// A call that fails cancels the context the others see and stops the
// pool from starting more; the pool returns once the running calls have
// ended. Of several failures it returns the error of the lowest index
// among those that are not the pool's own cancellation, or the parent
// context's error when that is what stopped the run.
package pool

import (
	"context"
	"errors"
	"runtime"
	"sync"
	"sync/atomic"
)

// Workers returns the number of goroutines a pool asked for w workers
// runs for n calls: w, or GOMAXPROCS when w ≤ 0, and at most n.
func Workers(w, n int) int {
	if w <= 0 {
		w = runtime.GOMAXPROCS(0)
	}
	return max(min(w, n), 0)
}

// Map calls fn(ctx, i) for i = 0, …, n−1 on Workers(workers, n)
// goroutines and collect(i, v) for each result v, in increasing order of
// i, from the calling goroutine (collect may be nil). With one worker the
// calls run inline, in order. Map stops at the first error of fn or
// collect and returns it, or at the cancellation of ctx and returns
// ctx.Err(); collect is not called after either.
func Map[T any](ctx context.Context, n, workers int, fn func(context.Context, int) (T, error), collect func(int, T) error) error {
	if collect == nil {
		collect = func(int, T) error { return nil }
	}
	w := Workers(workers, n)
	if w <= 1 {
		return inline(ctx, n, fn, collect)
	}
	parent := ctx
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var next atomic.Int64
	results := make(chan result[T], w)
	var wg sync.WaitGroup
	for range w {
		wg.Go(func() {
			for ctx.Err() == nil {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				v, err := fn(ctx, i)
				results <- result[T]{i, v, err}
			}
		})
	}
	go func() {
		wg.Wait()
		close(results)
	}()
	c := collector[T]{parent: parent, cancel: cancel, collect: collect, pending: map[int]T{}, errAt: n}
	for r := range results {
		c.add(r)
	}
	if c.failed == nil && c.turn < n {
		// Stopped without an error of its own: the parent was cancelled.
		c.failed = parent.Err()
	}
	return c.failed
}

// inline runs Map's calls in order on the calling goroutine.
func inline[T any](ctx context.Context, n int, fn func(context.Context, int) (T, error), collect func(int, T) error) error {
	for i := range n {
		if err := ctx.Err(); err != nil {
			return err
		}
		v, err := fn(ctx, i)
		if err == nil {
			err = ctx.Err()
		}
		if err == nil {
			err = collect(i, v)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// result is the outcome of call i.
type result[T any] struct {
	i   int
	v   T
	err error
}

// collector hands Map's results to collect in index order: results that
// arrive ahead of their turn wait in pending. failed is the error Map
// returns, of call errAt.
type collector[T any] struct {
	parent  context.Context
	cancel  context.CancelFunc
	collect func(int, T) error
	pending map[int]T
	turn    int
	failed  error
	errAt   int
}

// add takes one result: an error stops the pool (the lowest index's
// counts, except the pool's own cancellation); a value is collected with
// those that were waiting for it.
func (c *collector[T]) add(r result[T]) {
	if r.err != nil {
		// Errors of calls the pool itself cancelled do not count.
		if r.i < c.errAt && !(c.failed != nil && c.parent.Err() == nil && errors.Is(r.err, context.Canceled)) {
			c.failed, c.errAt = r.err, r.i
		}
		c.cancel()
		return
	}
	if c.failed != nil {
		return
	}
	c.pending[r.i] = r.v
	for v, ok := c.pending[c.turn]; ok; v, ok = c.pending[c.turn] {
		delete(c.pending, c.turn)
		err := c.parent.Err()
		if err == nil {
			err = c.collect(c.turn, v)
		}
		if err != nil {
			c.failed, c.errAt = err, c.turn
			c.cancel()
			return
		}
		c.turn++
	}
}

// Each calls fn(ctx, i) for i = 0, …, n−1 on Workers(workers, n)
// goroutines, as Map with no results.
func Each(ctx context.Context, n, workers int, fn func(context.Context, int) error) error {
	return Map(ctx, n, workers, func(ctx context.Context, i int) (struct{}, error) {
		return struct{}{}, fn(ctx, i)
	}, nil)
}
