package sim_test

import (
	"context"
	"testing"

	"github.com/ckpt-markov/markov/bench"
	"github.com/ckpt-markov/markov/scenario"
	"github.com/ckpt-markov/markov/sim"
	"github.com/ckpt-markov/markov/uwt"
)

// TestCoverage checks the default run's 99 % interval against the exact
// Markov model (package uwt, an independent algorithm) over 100 seeds: it
// must contain the model's UWT at least 97 times.
//
// The scenario is the one the defect was found on (markov simulate -n 4
// --interval 6h): the QR benchmark on 4 processors with the built-in LANL
// system-1 rates (MTTF 104.61 d, MTTR 56.03 min) and the greedy policy.
// Before the default horizon held MinInterruptions interruptions, 233 of
// 300 seeds covered the model (78 %), all the misses above it.
//
// Power: the seeds are fixed, so the test is deterministic; as a test of
// the coverage it rejects a true coverage of 95 % with probability 0.88
// (P(X ≥ 97) = 0.12 for X ~ Binomial(100, 0.95)) and the old 78 % with
// probability 1 − 10⁻⁸, while a nominal 99 % passes with probability 0.92.
// Fewer seeds lose that power (50 seeds with ≥ 48 pass 95 % with
// probability 0.28), so short mode (the race detector's run in CI) skips
// the test rather than run it weaker; it takes about 20 s of CPU.
func TestCoverage(t *testing.T) {
	if testing.Short() {
		t.Skip("100 simulations of 3·10⁵ interruptions each")
	}
	const (
		n         = 4
		interval  = 6 * 3600.0
		seeds     = 100
		minInside = 97
	)
	app, err := bench.Application("qr", n)
	if err != nil {
		t.Fatal(err)
	}
	sys := scenario.System{Processors: n, MTTF: 104.61 * 86400, MTTR: 56.03 * 60}
	sc, err := scenario.New(sys, app, scenario.Policy{Kind: scenario.Greedy})
	if err != nil {
		t.Fatal(err)
	}
	m, err := uwt.New(context.Background(), sc, &uwt.Settings{Exact: true})
	if err != nil {
		t.Fatal(err)
	}
	exact, err := m.Evaluate(context.Background(), interval)
	if err != nil {
		t.Fatal(err)
	}
	inside, above := 0, 0
	for seed := range uint64(seeds) {
		res, err := sim.Run(context.Background(), sc, interval, &sim.Settings{Seed: seed + 1})
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case res.UWT.Contains(exact.UWT):
			inside++
		case res.UWT.Mean > exact.UWT:
			above++
		}
	}
	if inside < minInside {
		t.Errorf("the 99 %% interval contains the model's UWT %v for %d of %d seeds (%d misses above it), want ≥ %d",
			exact.UWT, inside, seeds, above, minInside)
	}
	t.Logf("%d of %d intervals contain the model (%d misses above)", inside, seeds, above)
}
