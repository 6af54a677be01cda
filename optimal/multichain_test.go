package optimal

import (
	"context"
	"testing"

	"github.com/ckpt-markov/markov/reschedule"
	"github.com/ckpt-markov/markov/scenario"
	"github.com/ckpt-markov/markov/uwt"
)

// TestMultichainImprovement reproduces, at a size that runs in about a
// second, the structure of the LANL segments on which the evaluation
// failed as "singular": QR (package bench, recovery cost R(p, a)
// depending on the old count, so the decision states X(p, n) keep p) on
// N = 160 with mild rates (per-node MTTF half a year, MTTR 7 h, the
// order of LANL system 18), so that the window of functional counts
// lies near N, above most candidate counts p (QR is flat near N). The improvement step
// then makes some transient states X(p, ·) recover on p again (R(p, p) is
// the cheapest), which closes a second recurrent class. The candidates
// are every fourth count (Settings.Candidates), to keep the test fast;
// the old evaluation failed on this case (condition 1.19e18), as on
// steps 1 to 3 and on N = 200 and 256. Oracles: g against the
// renewal–reward ratio of the final policy's stationary law (a second
// computation), and g* ≥ package uwt's UWT, at the same interval, of the
// vector that runs on the largest candidate count (a policy of the same
// decision process).
func TestMultichainImprovement(t *testing.T) {
	ctx := context.Background()
	const n, year = 160, 365.25 * 86400
	sc := qrScenario(t, n, 0.5*year, 7*3600)
	var cand []int
	for a := 4; a <= n; a += 4 {
		cand = append(cand, a)
	}
	sv, err := New(sc, &Settings{Workers: 1, Candidates: cand})
	if err != nil {
		t.Fatal(err)
	}
	one, err := sv.SingleInterval(ctx, 0)
	if err != nil {
		t.Fatal(err) // before the fix: "the policy's evaluation system is singular"
	}
	if d := relDiff(one.UWT, one.RenewalReward); d > 1e-9 {
		t.Errorf("g = %.15g, renewal–reward %.15g (rel. %.3g)", one.UWT, one.RenewalReward, d)
	}
	// The vector r(m) = largest candidate ≤ m.
	r := make(reschedule.Vector, n)
	for m := 1; m <= n; m++ {
		r[m-1] = m / 4 * 4
	}
	vsc, err := scenario.New(sc.System, sc.Application, scenario.Policy{Kind: scenario.Explicit, Explicit: r})
	if err != nil {
		t.Fatal(err)
	}
	m, err := uwt.New(ctx, vsc, nil)
	if err != nil {
		t.Fatal(err)
	}
	u, err := m.Evaluate(ctx, one.Interval)
	if err != nil {
		t.Fatal(err)
	}
	// 1e-9: both sides drop the mass outside the window (Tol).
	if one.UWT < u.UWT*(1-1e-9) {
		t.Errorf("g* = %.15g below the vector's UWT %.15g at I = %g", one.UWT, u.UWT, one.Interval)
	}
	t.Logf("I* = %g: g* = %.12g (depends on p: %v), vector %.12g", one.Interval, one.UWT, one.Policy.DependsOnOld(), u.UWT)
}
