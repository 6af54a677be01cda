package optimal

import (
	"context"
	"math"
	"slices"
	"testing"

	"github.com/ckpt-markov/markov/scenario"
)

// TestDeterministic solves the four levels with 1 and 8 workers, three
// times each, and requires bit-identical results: the UWT of each level,
// I*, the intervals of level 3, the actions of every decision state and
// the stationary masses. The scenarios: the desktop grid with the
// application of BENCHMARKS.md (many configurations, so the pool has
// blocks to share), QR with R(p, a) (decision states X(p, n)), and an
// oracle case and QR with reconfiguration at checkpoints (the solver with
// up states; for QR the decision states eliminated, reconfig.go).
func TestDeterministic(t *testing.T) {
	ctx := context.Background()
	const h = 3600.0
	n, nq := 64, 24
	if testing.Short() {
		n, nq = 24, 12
	}
	rc := oracleCases()[1].scenario(t, scenario.Policy{})
	rc.Reconfigure = scenario.AtCheckpoint
	// QR with reconfiguration: the decision states eliminated group by
	// group, the low-rank solves of level 3 (reconfig.go).
	qrc := qrScenario(t, nq/2, 8*h, 4*h)
	qrc.Reconfigure = scenario.AtCheckpoint
	for _, c := range []struct {
		name string
		sc   *scenario.Scenario
	}{
		{"desktop", largeApp(t, n, 8*h, 4*h)},
		{"qr", qrScenario(t, nq, 8*h, 4*h)},
		{"reconfigure", rc},
		{"qr/reconfigure", qrc},
	} {
		t.Run(c.name, func(t *testing.T) {
			type out struct {
				g        []uint64
				actions  []int
				mass, iv []uint64
			}
			solve := func(workers int) out {
				sv, err := New(c.sc, &Settings{Workers: workers})
				if err != nil {
					t.Fatal(err)
				}
				rep, err := sv.Levels(ctx, nil)
				if err != nil {
					t.Fatal(err)
				}
				var o out
				for _, x := range []float64{rep.Single.UWT, rep.Single.Interval, rep.PerConfiguration.UWT, rep.PerState.UWT, rep.PerState.RenewalReward} {
					o.g = append(o.g, math.Float64bits(x))
				}
				o.actions = slices.Clone(rep.PerState.Policy.action)
				for _, c := range rep.PerState.Policy.reconf {
					o.actions = append(o.actions, c...) // the choices in U
				}
				for _, a := range sv.acts {
					o.mass = append(o.mass, math.Float64bits(rep.PerState.Mass[a]))
					o.iv = append(o.iv, math.Float64bits(rep.PerConfiguration.Intervals[a]))
				}
				return o
			}
			ref := solve(1)
			for run := range 3 {
				for _, w := range []int{1, 8} {
					got := solve(w)
					if !slices.Equal(got.g, ref.g) || !slices.Equal(got.actions, ref.actions) ||
						!slices.Equal(got.mass, ref.mass) || !slices.Equal(got.iv, ref.iv) {
						t.Errorf("run %d, %d workers: results differ in their bits from 1 worker's", run, w)
					}
				}
			}
		})
	}
}
