package uwt

import (
	"context"
	"math"
	"testing"

	"github.com/ckpt-markov/markov/internal/testmodel"
	"github.com/ckpt-markov/markov/scenario"
)

// TestDroppedBoundCovers: where UWT is a tiny fraction of the work rate
// (QR-like costs, N = 64, MTTF = MTTR = 3 min, I = 1.167 s: UWT ≈ 5e-12,
// the regime of issue 23's "fast vs exact" cases), the fast and exact
// paths differ by far more than 1e-9 relative with the default Tol and
// Prune. The oracle is the value both paths converge to when Tol and
// Prune are tightened (1e-15 and 1e-18): they agree there to 1e-6, so the
// difference is the dropped mass, not a bug, and each default result is
// within its DroppedBound of that value.
func TestDroppedBoundCovers(t *testing.T) {
	sc := mustScenario(t, scenario.System{Processors: 64, MTTF: 180, MTTR: 180}, testmodel.QRLike(64), scenario.Policy{})
	const interval = 1.167
	eval := func(s *Settings) (Result, *Model) {
		m, err := New(context.Background(), sc, s)
		if err != nil {
			t.Fatal(err)
		}
		r, err := m.Evaluate(context.Background(), interval)
		if err != nil {
			t.Fatal(err)
		}
		return r, m
	}
	fast, mf := eval(nil)
	exact, me := eval(&Settings{Exact: true})
	tightFast, _ := eval(&Settings{Tol: 1e-15, Prune: 1e-18})
	tightExact, _ := eval(&Settings{Exact: true, Prune: 1e-18})
	rel := func(a, b float64) float64 { return math.Abs(a-b) / math.Abs(b) }
	if d := rel(tightFast.UWT, tightExact.UWT); d > 1e-6 {
		t.Fatalf("tightened: fast %.10g, exact %.10g differ by %.2g relative, want at most 1e-6", tightFast.UWT, tightExact.UWT, d)
	}
	if d := rel(fast.UWT, exact.UWT); d < 1e-9 {
		t.Errorf("defaults: fast and exact differ by only %.2g: not the regime this test is about", d)
	}
	for _, c := range []struct {
		name string
		r    Result
		m    *Model
	}{{"fast", fast, mf}, {"exact", exact, me}} {
		d, b := rel(c.r.UWT, tightExact.UWT), c.m.DroppedBound(c.r)
		t.Logf("%s: UWT %.10g, %.2g from the converged %.10g, DroppedBound %.2g", c.name, c.r.UWT, d, tightExact.UWT, b)
		if d > b {
			t.Errorf("%s: UWT %.10g differs from the converged %.10g by %.2g relative, more than its DroppedBound %.2g", c.name, c.r.UWT, tightExact.UWT, d, b)
		}
	}
}
