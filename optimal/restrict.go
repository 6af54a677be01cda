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
// search for large N: it solves level 2 (SingleInterval) on the counts of
// Grid(N, step), then returns every count within step − 1 of a count
// that carries stationary mass there (the window of counts around the
// coarse optimum). Solving on that set costs about as much as the coarse
// solve; it finds the optimum of the full action set when the optimal
// counts lie within step of the coarse ones, which the tests check at
// sizes where both run. set configures both solves (its Candidates are
// replaced).
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
	s.Candidates = grid
	sv, err := New(sc, &s)
	if err != nil {
		return nil, err
	}
	one, err := sv.SingleInterval(ctx, 0)
	if err != nil {
		return nil, err
	}
	var out []int
	for a := range one.Mass {
		for b := max(a-step+1, 1); b <= min(a+step-1, sc.N()); b++ {
			out = append(out, b)
		}
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}
