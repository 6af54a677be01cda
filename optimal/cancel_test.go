package optimal

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/ckpt-markov/markov/scenario"
)

// countdownCtx is a context that is cancelled at its (left+1)-th call of
// Err: a cancellation that arrives at a chosen point of a solve, the same
// point from run to run with one worker (the calls run in order).
type countdownCtx struct {
	context.Context
	mu    sync.Mutex
	left  int
	calls int
	fired bool
	done  chan struct{}
}

func newCountdown(left int) *countdownCtx {
	return &countdownCtx{Context: context.Background(), left: left, done: make(chan struct{})}
}

func (c *countdownCtx) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.calls++
	if c.fired || c.left <= 0 {
		if !c.fired {
			c.fired = true
			close(c.done)
		}
		return context.Canceled
	}
	c.left--
	return nil
}

func (c *countdownCtx) Done() <-chan struct{} { return c.done }

// TestLevelsCancelled: a solve of the four levels whose context is
// cancelled part-way returns context.Canceled, not a result: with
// reconfiguration at checkpoints (up states: the gradient searches of
// levels 2 and 3, policy iteration over intervals) and without (the
// chain of up phases), with one worker (the cancellation at the same
// point each run) and two. The points are the checks of ctx.Err a whole
// solve makes (counted by a first run that is not cancelled), every one
// up to 64 checks, else 64 evenly spread: a search that met the cancellation and went on as if an
// evaluation had merely failed would return a result with a nil error.
// The power check: every cancelled run did observe the cancellation
// (Err returned Canceled), so the requirement is not vacuous.
func TestLevelsCancelled(t *testing.T) {
	const h = 3600.0
	for _, c := range []struct {
		name     string
		reconfig scenario.Reconfigure
		workers  int
	}{
		{"reconfigure/1", scenario.AtCheckpoint, 1},
		{"reconfigure/2", scenario.AtCheckpoint, 2},
		{"phase/1", scenario.Never, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			sc := qrScenario(t, 8, 8*h, 4*h)
			sc.Reconfigure = c.reconfig
			checkCancelled(t, 64, func(ctx context.Context) error {
				sv, err := New(sc, &Settings{Workers: c.workers})
				if err != nil {
					t.Fatal(err)
				}
				_, err = sv.Levels(ctx, nil)
				return err
			})
		})
	}
}

// TestSingleIntervalEventsCancelled is TestLevelsCancelled for the
// search of the interval with failure events (the events chain, its
// kept sequences and bounds) on a desktop grid of 48 processors, at 16
// points.
func TestSingleIntervalEventsCancelled(t *testing.T) {
	c := chainCase{"grid48", 48, 8 * 3600, 4 * 3600, []float64{0.6, 0, 0.2, 0.2}, 0.8}
	sys, app := c.system()
	for _, workers := range []int{1, 2} {
		checkCancelled(t, 16, func(ctx context.Context) error {
			_, err := SingleIntervalEvents(ctx, sys, app, &Settings{Workers: workers})
			return err
		})
	}
}

// checkCancelled runs solve with a context that is never cancelled,
// counting its checks of ctx.Err, then cancelled at every check (up to
// points of them, else at points evenly spread), and requires context.Canceled
// from each cancelled run that observed the cancellation, and that each
// did observe it.
func checkCancelled(t *testing.T, points int, solve func(context.Context) error) {
	t.Helper()
	full := newCountdown(1 << 40)
	if err := solve(full); err != nil {
		t.Fatal(err)
	}
	if full.calls < 8 {
		t.Fatalf("a whole solve checks ctx.Err %d times: too few to cancel part-way", full.calls)
	}
	t.Logf("%d checks of ctx.Err in a whole solve", full.calls)
	step := max(1, full.calls/points)
	for at := 0; at < full.calls; at += step {
		ctx := newCountdown(at)
		err := solve(ctx)
		if !ctx.fired {
			t.Errorf("cancelled at check %d of %d: never observed", at, full.calls)
			continue
		}
		if !errors.Is(err, context.Canceled) {
			t.Errorf("cancelled at check %d of %d: error %v, want context.Canceled", at, full.calls, err)
		}
	}
}
