package uwt

import (
	"context"
	"math"
	"testing"

	"github.com/ckpt-markov/markov/internal/testmodel"
	"github.com/ckpt-markov/markov/markov"
	"github.com/ckpt-markov/markov/scenario"
)

// A window of ±30 standard deviations (Tol = 1e-200) holds probabilities
// down to 1e-200, on which GMRES stalls (residual 0.25 after 2000
// iterations, found when the chain of up phases was introduced); the
// solve falls back to the state reduction in band storage. The oracle is
// the closed form of the same scenario's one recovery class (PASTA),
// which needs no solve.
func TestBandedFallback(t *testing.T) {
	skipNumericsUnderRace(t)
	sc := mustScenario(t, scenario.System{Processors: 1024, MTTF: 8 * 3600, MTTR: 4 * 3600}, testmodel.QRLike(1024),
		scenario.Policy{Kind: scenario.Moldable, Processors: 16})
	want := evaluate(t, sc, &Settings{Tol: 1e-200}, 600)
	lumpOneClass = false
	defer func() { lumpOneClass = true }()
	m, err := New(context.Background(), sc, &Settings{Tol: 1e-200})
	if err != nil {
		t.Fatal(err)
	}
	got, err := m.Evaluate(context.Background(), 600)
	if err != nil {
		t.Fatal(err)
	}
	if !want.OneClass || got.OneClass || got.Solver != markov.Banded {
		t.Fatalf("closed form %v, solved %v by %v: not the case under test", want.OneClass, !got.OneClass, got.Solver)
	}
	if d := math.Abs(got.UWT-want.UWT) / want.UWT; d > 1e-12 {
		t.Errorf("UWT %.16g solved, %.16g closed form (rel %.2g)", got.UWT, want.UWT, d)
	}
}

// skipNumericsUnderRace skips, in CI's race run (-race -short), a test
// that checks arithmetic against an oracle on a long single solve: its
// worker pool is the one the package's worker tests (TestBatchWorkersIdentical
// and TestWorkersIdentical) run under the race detector, which
// multiplies this test's time by ten or more and has nothing new to find.
// The test still runs in go test ./... .
func skipNumericsUnderRace(t *testing.T) {
	t.Helper()
	if raceEnabled && testing.Short() {
		t.Skip("single-threaded numerics: run without -race")
	}
}
