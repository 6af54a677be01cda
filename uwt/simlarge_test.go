package uwt

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/ckpt-markov/markov/internal/testmodel"
	"github.com/ckpt-markov/markov/scenario"
	"github.com/ckpt-markov/markov/sim"
)

// At sizes beyond the exact solve, the fast path agrees with the Monte
// Carlo simulator within its 99 % interval (issue "Scale": N = 512 and
// 4096). About four seconds; skipped with -short.
func TestFastMatchesSimulationLarge(t *testing.T) {
	if testing.Short() {
		t.Skip("large simulation skipped in -short mode")
	}
	for _, tc := range []struct {
		n          int
		mttf, mttr float64
	}{
		{512, 100 * 86400, 3600},
		{4096, 100 * 86400, 3600},
		{4096, 20 * 86400, 4 * 3600},
	} {
		t.Run(fmt.Sprintf("N=%d/MTTF=%gd", tc.n, tc.mttf/86400), func(t *testing.T) {
			sys := scenario.System{Processors: tc.n, MTTF: tc.mttf, MTTR: tc.mttr}
			sc := mustScenario(t, sys, testmodel.QRLike(tc.n), scenario.Policy{})
			m, err := New(context.Background(), sc, nil)
			if err != nil {
				t.Fatal(err)
			}
			opt, err := m.Optimize(context.Background(), nil)
			if err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			res, err := sim.Run(context.Background(), sc, opt.Interval, &sim.Settings{Seed: 7, RelTol: 0.005})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("I* = %.1f s: model UWT %.6g (%d states), simulation %.6g ± %.3g (%v, %s)",
				opt.Interval, opt.UWT, opt.Result.States, res.UWT.Mean, res.UWT.HalfWidth, res.Status, time.Since(start).Round(time.Millisecond))
			if !res.UWT.Contains(opt.UWT) {
				t.Errorf("model UWT %.6g outside the simulation's 99 %% interval %.6g ± %.3g", opt.UWT, res.UWT.Mean, res.UWT.HalfWidth)
			}
		})
	}
}
