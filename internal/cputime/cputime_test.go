//go:build unix

package cputime_test

import (
	"testing"
	"time"

	"github.com/ckpt-markov/markov/internal/cputime"
)

// TestUsedGrows: the CPU time after 50 ms of busy work
// exceeds the time before by at least 10 ms (getrusage's resolution is
// at worst the scheduler's tick, 10 ms), and never falls.
func TestUsedGrows(t *testing.T) {
	before := cputime.Used()
	x := 0.0
	for start := time.Now(); time.Since(start) < 50*time.Millisecond; {
		x += 1e-9
	}
	after := cputime.Used()
	if after-before < 10*time.Millisecond {
		t.Errorf("CPU time grew by %v over 50 ms of busy work (x = %v), want ≥ 10 ms", after-before, x)
	}
}
