//go:build unix

package cputime_test

import (
	"testing"
	"time"

	"github.com/ckpt-markov/markov/internal/cputime"
)

// TestUsedGrows: busy work makes the CPU time grow by 20 ms (getrusage's
// resolution is at worst the scheduler's tick, 10 ms) within 10 s of
// wall time, however loaded the machine, and it never falls; a Used that
// returned a constant would fail after the 10 s.
func TestUsedGrows(t *testing.T) {
	before := cputime.Used()
	last, x := before, 0.0
	for start := time.Now(); last-before < 20*time.Millisecond; {
		for range 100000 {
			x += 1e-9
		}
		now := cputime.Used()
		if now < last {
			t.Fatalf("CPU time fell from %v to %v", last, now)
		}
		last = now
		if time.Since(start) > 10*time.Second {
			t.Fatalf("CPU time grew by %v in 10 s of busy work (x = %v), want 20 ms", last-before, x)
		}
	}
}
