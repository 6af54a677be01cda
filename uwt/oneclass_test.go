package uwt

import (
	"fmt"
	"math"
	"testing"

	"github.com/ckpt-markov/markov/internal/testmodel"
	"github.com/ckpt-markov/markov/markov"
	"github.com/ckpt-markov/markov/scenario"
)

// TestOneClassMatchesChain holds the closed form of a window with one
// recovery class (doc.go: the law of the functional count at failures by
// PASTA) against the solved chain of up phases over the same window (the
// closed form turned off) and the exact path's full chain of segments:
// UWT to 1e-12 and 1e-9 relative, and every state's probability to the
// solved chain's accuracy. Moldable policies whose
// window of likely functional counts lies above the moldable count, with
// and without a recovery cost R(p, a), on three rate regimes.
func TestOneClassMatchesChain(t *testing.T) {
	for _, tc := range []struct {
		n, a       int
		mttf, mttr float64
		byOld      bool
	}{
		{256, 64, 8 * 3600, 4 * 3600, false}, // desktop grid
		{200, 16, 8 * 3600, 4 * 3600, true},
		{128, 100, 100 * 86400, 3600, false}, // LANL-like
		{96, 48, 2 * 86400, 4 * 3600, true},  // flaky
	} {
		t.Run(fmt.Sprintf("N=%d/moldable(%d)/R(p,a)=%v", tc.n, tc.a, tc.byOld), func(t *testing.T) {
			app := testmodel.QRLike(tc.n)
			if tc.byOld {
				app = matrixApp(tc.n)
			}
			sys := scenario.System{Processors: tc.n, MTTF: tc.mttf, MTTR: tc.mttr}
			sc := mustScenario(t, sys, app, scenario.Policy{Kind: scenario.Moldable, Processors: tc.a})
			for _, interval := range []float64{300, 3600, 36000} {
				closed := evaluate(t, sc, nil, interval)
				if !closed.OneClass || closed.Transitions != 0 {
					t.Fatalf("I=%g: OneClass %v with %d transitions: the case does not test the closed form", interval, closed.OneClass, closed.Transitions)
				}
				lumpOneClass = false
				chain := evaluate(t, sc, nil, interval)
				lumpOneClass = true
				if chain.OneClass || chain.Transitions == 0 {
					t.Fatalf("I=%g: the chain was not built", interval)
				}
				exact := evaluate(t, sc, &Settings{Exact: true}, interval)
				if d := math.Abs(closed.UWT-chain.UWT) / chain.UWT; d > 1e-12 {
					t.Errorf("I=%g: closed form %.16g, solved chain %.16g (rel %.2g)", interval, closed.UWT, chain.UWT, d)
				}
				if d := math.Abs(closed.UWT-exact.UWT) / exact.UWT; d > 1e-9 {
					t.Errorf("I=%g: closed form %.16g, exact path %.16g (rel %.2g)", interval, closed.UWT, exact.UWT, d)
				}
				want := map[State]float64{}
				for _, w := range chain.Inspect() {
					want[w.State] = w.Prob
				}
				// The solved chain's π is accurate to its residual
				// tolerance (markov.DefaultTol) times the condition of
				// the chain: about 1/(1 − |λ₂|), with λ₂ = ρ/(ρ + λ + θ)
				// the resolvent's second eigenvalue (its spectral gap).
				lam, theta := sys.Lambda(), sys.Theta()
				rho := float64(tc.a) * lam
				tol := (rho + lam + theta) / (lam + theta) * markov.DefaultTol
				for _, w := range closed.Inspect() {
					if d := math.Abs(w.Prob - want[w.State]); d > tol {
						t.Errorf("I=%g: π(%v) = %.16g by PASTA, %.16g solved (%.2g)", interval, w.State, w.Prob, want[w.State], d)
					}
					delete(want, w.State)
				}
				for s, p := range want {
					if p > tol {
						t.Errorf("I=%g: π(%v) = %.3g solved, absent from the closed form", interval, s, p)
					}
				}
			}
		})
	}
}
