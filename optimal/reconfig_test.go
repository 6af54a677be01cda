package optimal

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/ckpt-markov/markov/scenario"
)

// reconfCases are the scenarios with reconfiguration at checkpoints of
// this package's tests: the enumeration cases (window and full), the dear
// recovery of TestReconfigureBeyondVectors, QR of package bench with
// R(p, a) (decision states X(p, n)) and the desktop grid with the
// application of BENCHMARKS.md.
func reconfCases(t *testing.T) []solverCase {
	type tc = solverCase
	cases := enumerationCases(t)
	dear := oracleCase{"dear recovery", 4, 12 * 3600, 2 * 3600, []float64{1, 2, 2.2, 2.3}}
	dsc := dear.scenario(t, scenario.Policy{})
	dsc.Application.Recovery = scenario.RecoveryConstant(1000, dear.n)
	const h = 3600.0
	cases = append(cases,
		tc{"dear/full", dsc, &Settings{Full: true}},
		tc{"qr8/desktop", qrScenario(t, 8, 8*h, 4*h), nil},
		tc{"large12/desktop", largeApp(t, 12, 8*h, 4*h), nil},
	)
	if !testing.Short() {
		cases = append(cases,
			tc{"qr16/desktop", qrScenario(t, 16, 8*h, 4*h), nil},
			tc{"large24/desktop", largeApp(t, 24, 8*h, 4*h), nil},
		)
	}
	for i := range cases {
		cases[i].sc.Reconfigure = scenario.AtCheckpoint
	}
	return cases
}

// TestReconfigReducedMatchesFull holds the reduced evaluation with
// reconfiguration at checkpoints (reconfiguring up states merged with
// their twins, equations kept between evaluations: reconfig.go) against
// the evaluation it replaced, with every reconfiguring up state an
// unknown of its own (reconfReduce off), on every scenario with
// reconfiguration of this package's tests: g*(I) at three intervals and
// levels 2, 3 and 4 to 1e-10 relative, and the same policy (the action
// in every X(p, n) and the choice in every U(a, s)) at every fixed
// interval and at levels 2 and 4. The two share the rows and the policy
// iteration, not the linear systems they solve.
func TestReconfigReducedMatchesFull(t *testing.T) {
	ctx := context.Background()
	const tol = 1e-10
	samePolicy := func(t *testing.T, what string, got, want *Policy) {
		t.Helper()
		if !slices.Equal(got.action, want.action) {
			t.Errorf("%s: actions in X differ: %v, full %v", what, got.action, want.action)
		}
		for b := range want.reconf {
			if !slices.Equal(got.reconf[b], want.reconf[b]) {
				t.Errorf("%s: choices in U(%d, ·) differ: %v, full %v", what, got.sv.acts[b], got.reconf[b], want.reconf[b])
			}
		}
	}
	for _, c := range reconfCases(t) {
		t.Run(c.name, func(t *testing.T) {
			solve := func(reduce bool) (fixed []Result, rep Report, unknowns int) {
				reconfReduce = reduce
				defer func() { reconfReduce = true }()
				sv, err := New(c.sc, c.set)
				if err != nil {
					t.Fatal(err)
				}
				for _, iv := range []float64{600, 3600, 4 * 3600} {
					r, err := sv.FixedInterval(ctx, iv)
					if err != nil {
						t.Fatal(err)
					}
					fixed = append(fixed, r)
				}
				if rep, err = sv.Levels(ctx, nil); err != nil {
					t.Fatal(err)
				}
				// The unknowns of the level-4 policy's evaluation: the
				// active equations.
				v, err := sv.evaluate(ctx, rep.PerState.Policy, false)
				if err != nil {
					t.Fatal(err)
				}
				return fixed, rep, v.unknowns
			}
			fr, rr, nr := solve(true)
			ff, rf, nf := solve(false)
			for i, iv := range []float64{600, 3600, 4 * 3600} {
				if d := relDiff(fr[i].UWT, ff[i].UWT); d > tol {
					t.Errorf("g*(%g) = %.15g, full evaluation %.15g (rel. diff %.2g)", iv, fr[i].UWT, ff[i].UWT, d)
				}
				samePolicy(t, fmt.Sprintf("I = %g", iv), fr[i].Policy, ff[i].Policy)
			}
			for _, l := range []struct {
				name      string
				got, want float64
			}{
				{"level 2", rr.Single.UWT, rf.Single.UWT},
				{"level 3", rr.PerConfiguration.UWT, rf.PerConfiguration.UWT},
				{"level 4", rr.PerState.UWT, rf.PerState.UWT},
			} {
				if d := relDiff(l.got, l.want); d > tol {
					t.Errorf("%s: g = %.15g, full evaluation %.15g (rel. diff %.2g)", l.name, l.got, l.want, d)
				}
			}
			samePolicy(t, "level 2", rr.Single.Policy, rf.Single.Policy)
			samePolicy(t, "level 4", rr.PerState.Policy, rf.PerState.Policy)
			if nr > nf {
				t.Errorf("the reduced evaluation has %d unknowns, the full one %d", nr, nf)
			}
			t.Logf("level 2 %.12g, level 4 %.12g; unknowns of the level-4 evaluation: %d reduced, %d full", rr.Single.UWT, rr.PerState.UWT, nr, nf)
		})
	}
}
