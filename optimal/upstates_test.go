package optimal

import (
	"context"
	"fmt"
	"testing"

	"github.com/ckpt-markov/markov/scenario"
)

// solverCase is a scenario of this package's tests with its settings.
type solverCase struct {
	name string
	sc   *scenario.Scenario
	set  *Settings
}

// enumerationCases are the enumeration cases of oracleCases, each with
// the default settings and with Full.
func enumerationCases(t *testing.T) []solverCase {
	var cases []solverCase
	for _, c := range oracleCases() {
		cases = append(cases, solverCase{c.name, c.scenario(t, scenario.Policy{}), nil}, solverCase{c.name + "/full", c.scenario(t, scenario.Policy{}), &Settings{Full: true}})
	}
	return cases
}

// secondOracleCases are the scenarios of this package's tests (the
// enumeration cases, QR of package bench with R(p, a) on the built-in
// system and a desktop grid, the application of BENCHMARKS.md, the
// multichain case), each with its settings.
func secondOracleCases(t *testing.T) []solverCase {
	type tc = solverCase
	cases := enumerationCases(t)
	const h, d, year = 3600.0, 86400.0, 365.25 * 86400
	cases = append(cases,
		tc{"qr16/desktop", qrScenario(t, 16, 8*h, 4*h), nil},
		tc{"qr24/desktop", qrScenario(t, 24, 8*h, 4*h), nil},
		tc{"qr32/builtin", qrScenario(t, 32, 104.61*d, 56.03*60), nil},
	)
	if !testing.Short() {
		var cand []int
		for a := 4; a <= 160; a += 4 {
			cand = append(cand, a)
		}
		cases = append(cases,
			tc{"large48/desktop", largeApp(t, 48, 8*h, 4*h), nil},
			tc{"qr48/builtin", qrScenario(t, 48, 104.61*d, 56.03*60), nil},
			tc{"qr160/multichain", qrScenario(t, 160, 0.5*year, 7*h), &Settings{Candidates: cand}},
		)
	}
	return cases
}

// TestPhaseMatchesUpStates holds the chain of up phases (decision states
// only) against the solver with up states it replaced (upStates, kept for
// reconfiguration at checkpoints), on every scenario of this package's
// tests: g*(I) at three intervals, level 2 and level 4, to 1e-10
// relative. The two solvers share the policy iteration but not the
// states, rows or rewards: the old one eliminates the up states U(a, s)
// per configuration from their P_T, Q_T rows; the new one takes the
// resolvent's rows and the closed-form reward of a whole up phase.
func TestPhaseMatchesUpStates(t *testing.T) {
	ctx := context.Background()
	for _, c := range secondOracleCases(t) {
		t.Run(c.name, func(t *testing.T) {
			solve := func(old bool) (fixed []float64, g2, g4 float64) {
				upStates = old
				defer func() { upStates = false }()
				sv, err := New(c.sc, c.set)
				if err != nil {
					t.Fatal(err)
				}
				if sv.phase == old {
					t.Fatalf("upStates = %v gave phase = %v", old, sv.phase)
				}
				for _, iv := range []float64{600, 3600, 6 * 3600} {
					r, err := sv.FixedInterval(ctx, iv)
					if err != nil {
						t.Fatal(err)
					}
					fixed = append(fixed, r.UWT)
				}
				one, err := sv.SingleInterval(ctx, 0)
				if err != nil {
					t.Fatal(err)
				}
				four, err := sv.PerState(ctx, one.Policy)
				if err != nil {
					t.Fatal(err)
				}
				return fixed, one.UWT, four.UWT
			}
			fNew, g2New, g4New := solve(false)
			fOld, g2Old, g4Old := solve(true)
			check := func(what string, x, y float64) {
				if d := relDiff(x, y); d > 1e-10 {
					t.Errorf("%s: up phases %.15g, up states %.15g (rel %.2g)", what, x, y, d)
				}
			}
			for k := range fNew {
				check(fmt.Sprintf("g*(I) #%d", k), fNew[k], fOld[k])
			}
			check("level 2", g2New, g2Old)
			check("level 4", g4New, g4Old)
		})
	}
}
