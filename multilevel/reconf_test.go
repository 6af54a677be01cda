package multilevel

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/ckpt-markov/markov/scenario"
	"github.com/ckpt-markov/markov/uwt"
)

// reconfPolicies are the policies of the reconfiguration tests: each
// changes the count at some checkpoints of an 8-processor pool.
var reconfPolicies = []scenario.Policy{
	{Kind: scenario.Greedy},
	{Kind: scenario.PerformanceBased},
	{Kind: scenario.Explicit, Explicit: []int{1, 2, 2, 4, 4, 4, 6, 6}},
}

// TestReconfOneLevel: with one level the chain with reconfiguration at
// (top-level) checkpoints is package uwt's exact chain of segments with
// reconfiguration (an independent construction: per-segment states, the
// recovery rows split by the checkpoint's writer), to 1e-10 relative, on
// several policies, intervals, and recovery costs by new and by old
// count. The same scenario as two levels whose level 1 is never written
// (V = 0) and never needed (every failure of the top severity) gives
// the same figure through the three-level embedding.
func TestReconfOneLevel(t *testing.T) {
	ctx := context.Background()
	for _, pol := range reconfPolicies {
		for _, byOld := range []bool{false, true} {
			sc := twoLevel(t, 8, 3e4, 5000, []float64{0, 1}, pol)
			if byOld {
				sc.Application.Levels[1].Recovery = scenario.RecoveryLinear(100, 20, 5, 8)
			}
			sc.Reconfigure = scenario.AtCheckpoint
			one := topOnly(t, sc)
			one.Reconfigure = scenario.AtCheckpoint
			exact, err := uwt.New(ctx, one, &uwt.Settings{Exact: true, Prune: -1})
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range []*scenario.Scenario{one, sc} {
				m, err := NewWith(ctx, s, &Settings{Tol: 1e-15, Prune: -1})
				if err != nil {
					t.Fatal(err)
				}
				if m.mall == nil || m.mall.rc == nil {
					t.Fatalf("%v: not the chain with reconfiguration", pol)
				}
				for _, I := range []float64{120, 900, 3600, 20000} {
					got, err := m.Evaluate(make([]int, m.Levels()-1), I)
					if err != nil {
						t.Fatal(err)
					}
					e, err := exact.Evaluate(ctx, I)
					if err != nil {
						t.Fatal(err)
					}
					name := fmt.Sprintf("%v old=%v L=%d I=%g", pol, byOld, m.Levels(), I)
					if d := math.Abs(got.UWT-e.UWT) / e.UWT; d > 1e-10 {
						t.Errorf("%s: UWT %.15g, uwt exact %.15g (relative %.2g)", name, got.UWT, e.UWT, d)
					}
					if d := math.Abs(got.Availability-e.Availability) / e.Availability; d > 1e-10 {
						t.Errorf("%s: availability %.15g, uwt exact %.15g (relative %.2g)", name, got.Availability, e.Availability, d)
					}
				}
			}
		}
	}
}
