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
	parent := ctx
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type result struct {
		i   int
		v   T
		err error
	}
	var next atomic.Int64
	results := make(chan result, w)
	var wg sync.WaitGroup
	for range w {
		wg.Go(func() {
			for ctx.Err() == nil {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				v, err := fn(ctx, i)
				results <- result{i, v, err}
			}
		})
	}
	go func() {
		wg.Wait()
		close(results)
	}()
	// Results that arrive ahead of their turn wait in pending.
	pending := make(map[int]T)
	turn, failed, errAt := 0, error(nil), n
	for r := range results {
		if r.err != nil {
			// Errors of calls the pool itself cancelled do not count.
			if r.i < errAt && !(failed != nil && parent.Err() == nil && errors.Is(r.err, context.Canceled)) {
				failed, errAt = r.err, r.i
			}
			cancel()
			continue
		}
		if failed != nil {
			continue
		}
		pending[r.i] = r.v
		for v, ok := pending[turn]; ok; v, ok = pending[turn] {
			delete(pending, turn)
			err := parent.Err()
			if err == nil {
				err = collect(turn, v)
			}
			if err != nil {
				failed, errAt = err, turn
				cancel()
				break
			}
			turn++
		}
	}
	if failed == nil && turn < n {
		// Stopped without an error of its own: the parent was cancelled.
		failed = parent.Err()
	}
	return failed
}

// Each calls fn(ctx, i) for i = 0, …, n−1 on Workers(workers, n)
// goroutines, as Map with no results.
func Each(ctx context.Context, n, workers int, fn func(context.Context, int) error) error {
	return Map(ctx, n, workers, func(ctx context.Context, i int) (struct{}, error) {
		return struct{}{}, fn(ctx, i)
	}, nil)
}
