package optimal

import (
	"context"
	"fmt"
	"slices"

	"github.com/ckpt-markov/markov/scenario"
)

// Grid returns the processor counts step, 2·step, …, and n itself: a
// candidate set (Settings.Candidates) for a first, coarse solve.
func Grid(n, step int) ([]int, error) {
	if n < 1 {
		return nil, fmt.Errorf("optimal: processors = %d, want ≥ 1", n)
	}
	if step < 1 {
		return nil, fmt.Errorf("optimal: step = %d, want ≥ 1", step)
	}
	var c []int
	for a := step; a <= n; a += step {
		c = append(c, a)
	}
	if len(c) == 0 || c[len(c)-1] != n {
		c = append(c, n)
	}
	return c, nil
}

// Refine returns the restricted candidate set of the coarse-to-fine
// search for large N. It solves level 2 (SingleInterval) on the counts of
// Grid(N, step), then, halving the stride d each time down to 1, on the
// counts a + k·d, k = −2..2, around every count a that carries stationary
// mass in the previous solve, and returns the last candidate set: the
// window of counts around the optimum. Each solve costs about as much as
// one on a few dozen counts when the mass sits on few counts; it finds the
// optimum of the full action set when the optimal counts stay within two
// strides of the coarser ones, which the tests check at sizes where both
// run. set configures every solve (its Candidates are replaced).
func Refine(ctx context.Context, sc *scenario.Scenario, set *Settings, step int) ([]int, error) {
	if sc == nil {
		return nil, fmt.Errorf("optimal: nil scenario")
	}
	grid, err := Grid(sc.N(), step)
	if err != nil {
		return nil, err
	}
	var s Settings
	if set != nil {
		s = *set
	}
	cand := grid
	for d := step; ; d /= 2 {
		if d == 1 {
			return cand, nil
		}
		s.Candidates = cand
		sv, err := New(sc, &s)
		if err != nil {
			return nil, err
		}
		one, err := sv.SingleInterval(ctx, 0)
		if err != nil {
			return nil, err
		}
		h := d / 2
		var next []int
		for a := range one.Mass {
			for k := -2; k <= 2; k++ {
				if b := a + k*h; b >= 1 && b <= sc.N() {
					next = append(next, b)
				}
			}
		}
		slices.Sort(next)
		cand = slices.Compact(next)
	}
}
