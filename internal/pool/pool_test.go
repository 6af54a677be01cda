package pool

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync/atomic"
	"testing"
	"time"
)

// TestMapOrder checks that collect sees every index once, in increasing
// order, whatever the number of workers and the order in which the calls
// end (each call sleeps a seeded random time, so later indices often end
// first).
func TestMapOrder(t *testing.T) {
	for _, tc := range []struct{ n, workers int }{
		{0, 4}, {1, 4}, {7, 1}, {7, 0}, {50, 3}, {50, 8}, {200, 64},
	} {
		rng := rand.New(rand.NewPCG(uint64(tc.n), uint64(tc.workers)))
		delay := make([]time.Duration, tc.n)
		for i := range delay {
			delay[i] = time.Duration(rng.IntN(200)) * time.Microsecond
		}
		var got []int
		err := Map(context.Background(), tc.n, tc.workers, func(_ context.Context, i int) (int, error) {
			time.Sleep(delay[i])
			return i * i, nil
		}, func(i, v int) error {
			if v != i*i {
				return fmt.Errorf("index %d carries %d", i, v)
			}
			got = append(got, i)
			return nil
		})
		if err != nil {
			t.Fatalf("n=%d workers=%d: %v", tc.n, tc.workers, err)
		}
		if len(got) != tc.n {
			t.Fatalf("n=%d workers=%d: %d results", tc.n, tc.workers, len(got))
		}
		for k, i := range got {
			if i != k {
				t.Fatalf("n=%d workers=%d: result %d is index %d", tc.n, tc.workers, k, i)
			}
		}
	}
}

// TestWorkers checks the pool's size: GOMAXPROCS by default, never more
// than the calls, and that no more calls run at once than that.
func TestWorkers(t *testing.T) {
	p := runtime.GOMAXPROCS(0)
	for _, tc := range []struct{ w, n, want int }{
		{0, 1000, p}, {-3, 1000, p}, {3, 1000, 3}, {8, 2, 2}, {4, 0, 0},
	} {
		if got := Workers(tc.w, tc.n); got != tc.want {
			t.Errorf("Workers(%d, %d) = %d, want %d", tc.w, tc.n, got, tc.want)
		}
	}
	var running, peak atomic.Int64
	err := Each(context.Background(), 40, 3, func(context.Context, int) error {
		r := running.Add(1)
		for {
			q := peak.Load()
			if r <= q || peak.CompareAndSwap(q, r) {
				break
			}
		}
		time.Sleep(100 * time.Microsecond)
		running.Add(-1)
		return nil
	})
	if err != nil || peak.Load() > 3 {
		t.Errorf("3 workers: %v, %d calls at once", err, peak.Load())
	}
}

// TestErrors checks which error the pool returns: the lowest failing
// index's, not the cancellation it causes in the others; a collect error;
// the parent's cancellation; and that collect stops at the first error.
func TestErrors(t *testing.T) {
	boom := errors.New("boom")
	for _, workers := range []int{1, 2, 5} {
		// Indices 13 and 29 fail; the others wait for the cancellation if
		// they see it, so that they fail with context.Canceled.
		var collected []int
		err := Map(context.Background(), 40, workers, func(ctx context.Context, i int) (int, error) {
			switch i {
			case 13, 29:
				return 0, fmt.Errorf("index %d: %w", i, boom)
			}
			select {
			case <-ctx.Done():
				return 0, ctx.Err()
			case <-time.After(time.Millisecond):
			}
			return i, nil
		}, func(i, _ int) error { collected = append(collected, i); return nil })
		if !errors.Is(err, boom) || err.Error() != "index 13: boom" {
			t.Errorf("workers=%d: %v, want index 13's error", workers, err)
		}
		if len(collected) > 13 {
			t.Errorf("workers=%d: collected %v past the failure", workers, collected)
		}
		for k, i := range collected {
			if i != k {
				t.Fatalf("workers=%d: collected %v", workers, collected)
			}
		}

		err = Map(context.Background(), 20, workers, func(_ context.Context, i int) (int, error) { return i, nil },
			func(i, _ int) error {
				if i == 4 {
					return boom
				}
				return nil
			})
		if !errors.Is(err, boom) {
			t.Errorf("workers=%d: collect error: %v", workers, err)
		}

		ctx, cancel := context.WithCancel(context.Background())
		var calls atomic.Int64
		err = Each(ctx, 1000, workers, func(context.Context, int) error {
			if calls.Add(1) == 5 {
				cancel()
			}
			return nil
		})
		if !errors.Is(err, context.Canceled) || calls.Load() >= 1000 {
			t.Errorf("workers=%d: parent cancelled after 5 calls: %v after %d calls", workers, err, calls.Load())
		}
	}
}

// TestCancelInCollect checks that collect is not called again once it has
// cancelled the parent context, whatever results are already waiting.
func TestCancelInCollect(t *testing.T) {
	for _, workers := range []int{1, 4} {
		ctx, cancel := context.WithCancel(context.Background())
		calls := 0
		err := Each(ctx, 100, workers, func(context.Context, int) error { return nil })
		if err != nil {
			t.Fatal(err)
		}
		err = Map(ctx, 100, workers, func(_ context.Context, i int) (int, error) { return i, nil },
			func(int, int) error { calls++; cancel(); return nil })
		if !errors.Is(err, context.Canceled) || calls != 1 {
			t.Errorf("workers=%d: %v after %d calls of collect, want context.Canceled after 1", workers, err, calls)
		}
	}
}
