package uwt

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/ckpt-markov/markov/internal/testmodel"
	"github.com/ckpt-markov/markov/scenario"
)

// TestWindowWidening forces the fast path to start from a window of one
// functional count (the most likely one), far too narrow, and checks that
// the widening loop of Evaluate reaches the exact answer: the same 1e-9
// relative agreement with the full state space as TestFastMatchesExact,
// with the window's dropped mass at most Tol.
func TestWindowWidening(t *testing.T) {
	for _, tc := range []struct {
		n          int
		mttf, mttr float64
		pol        scenario.Policy
		interval   float64
	}{
		{32, 2 * 86400, 4 * 3600, scenario.Policy{}, 3600},
		{64, 2 * 86400, 4 * 3600, scenario.Policy{}, 600},
		{48, 8 * 3600, 4 * 3600, scenario.Policy{Kind: scenario.Moldable, Processors: 12}, 1800},
		{40, 10 * 86400, 3600, scenario.Policy{Kind: scenario.PerformanceBased}, 7200},
	} {
		t.Run(fmt.Sprintf("N=%d %v", tc.n, tc.pol), func(t *testing.T) {
			sys := scenario.System{Processors: tc.n, MTTF: tc.mttf, MTTR: tc.mttr}
			sc := mustScenario(t, sys, testmodel.QRLike(tc.n), tc.pol)
			want := evaluate(t, sc, &Settings{Exact: true}, tc.interval)
			ctx := context.Background()
			m, err := New(ctx, sc, nil)
			if err != nil {
				t.Fatal(err)
			}
			if err := m.build(ctx, m.mode, m.mode); err != nil {
				t.Fatal(err)
			}
			// The narrow window really drops more than Tol, so that the
			// loop has to widen it.
			narrow, err := m.evaluate(ctx, tc.interval)
			if err != nil {
				t.Fatal(err)
			}
			if narrow.Outside <= m.set.Tol {
				t.Fatalf("window [%d, %d] drops %g, not above Tol: the test does not force widening", m.sk.lo, m.sk.hi, narrow.Outside)
			}
			got, err := m.Evaluate(ctx, tc.interval)
			if err != nil {
				t.Fatal(err)
			}
			if m.sk.hi-m.sk.lo < 4 {
				t.Errorf("window [%d, %d] not widened", m.sk.lo, m.sk.hi)
			}
			if got.Outside > m.set.Tol {
				t.Errorf("widened window [%d, %d] drops %g > Tol", m.sk.lo, m.sk.hi, got.Outside)
			}
			if d := math.Abs(got.UWT-want.UWT) / want.UWT; d > 1e-9 {
				t.Errorf("widened from one count: UWT %.15g, exact %.15g (rel %g)", got.UWT, want.UWT, d)
			}
		})
	}
}
