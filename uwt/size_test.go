package uwt

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/ckpt-markov/markov/internal/testmodel"
	"github.com/ckpt-markov/markov/scenario"
)

// matrixApp returns the QR-like application with a recovery matrix
// R(p, a) = 10 + p/10 + a/20 seconds: a recovery cost that depends on
// the old count, so that the recovery states carry p.
func matrixApp(n int) scenario.Application {
	app := testmodel.QRLike(n)
	m := make([][]float64, n)
	for p := range n {
		m[p] = make([]float64, n)
		for a := range n {
			m[p][a] = 10 + float64(p+1)/10 + float64(a+1)/20
		}
	}
	app.Recovery = scenario.RecoveryMatrix(m)
	return app
}

// The size estimate that guards New bounds the transitions the model
// actually assembles (every transition inside the window, before
// pruning), on both paths, for greedy, moldable and waiting policies and
// a recovery matrix, at short and long intervals.
func TestSizeEstimateBounds(t *testing.T) {
	const n = 48
	for _, tc := range []struct {
		name string
		sys  scenario.System
		app  scenario.Application
		pol  scenario.Policy
	}{
		{"desktop greedy", scenario.System{Processors: n, MTTF: 8 * 3600, MTTR: 4 * 3600}, testmodel.QRLike(n), scenario.Policy{}},
		{"desktop moldable(12)", scenario.System{Processors: n, MTTF: 8 * 3600, MTTR: 4 * 3600}, testmodel.QRLike(n),
			scenario.Policy{Kind: scenario.Moldable, Processors: 12}},
		{"hpc greedy R(p,a)", scenario.System{Processors: n, MTTF: 20 * 86400, MTTR: 3600}, matrixApp(n), scenario.Policy{}},
		{"flaky moldable(40) R(p,a)", scenario.System{Processors: n, MTTF: 86400, MTTR: 4 * 3600}, matrixApp(n),
			scenario.Policy{Kind: scenario.Moldable, Processors: 40}},
		{"desktop greedy, failure events", scenario.System{Processors: n, MTTF: 8 * 3600, MTTR: 4 * 3600,
			FailureEvents: &scenario.FailureEvents{Sizes: []float64{0.5, 0.3, 0.2}}}, testmodel.QRLike(n), scenario.Policy{}},
		// A window far wider than the rows (Tol = 1e-200: ±30 standard
		// deviations), where the fast path's Hoeffding bound on the row
		// widths, not the window, bounds the transitions.
		{"desktop moldable(600) wide", scenario.System{Processors: 1024, MTTF: 8 * 3600, MTTR: 4 * 3600}, testmodel.QRLike(1024),
			scenario.Policy{Kind: scenario.Moldable, Processors: 600}},
	} {
		sc := mustScenario(t, tc.sys, tc.app, tc.pol)
		for _, exact := range []bool{false, true} {
			name := fmt.Sprintf("%s exact=%v", tc.name, exact)
			set := &Settings{Exact: exact}
			if strings.HasSuffix(tc.name, "wide") {
				if exact {
					continue
				}
				set.Tol = 1e-200
			}
			m, err := New(context.Background(), sc, set)
			if err != nil {
				t.Fatal(err)
			}
			for _, i := range []float64{60, 3600, 86400} {
				res, err := m.Evaluate(context.Background(), i)
				if err != nil {
					t.Fatal(err)
				}
				if res.OneClass {
					t.Fatalf("%s: one recovery class: no transitions to bound", name)
				}
				states, trans := m.estimateSize(m.usedCounts(m.sk.lo, m.sk.hi), m.sk.lo, m.sk.hi)
				if got := len(m.asm.rows); float64(got) > trans {
					t.Errorf("%s I=%g: %d transitions assembled, estimate %g", name, i, got, trans)
				}
				if set.Tol == 1e-200 {
					if w := float64(m.sk.hi - m.sk.lo + 1); trans >= 2*float64(states)*w {
						t.Errorf("%s: estimate %g not below the window's bound %g: the row bound is not exercised",
							name, trans, 2*float64(states)*w)
					}
				}
				// The estimate counts the start state among the up
				// states of r(N) when the window reaches N.
				if got := len(m.sk.states); got != states {
					t.Errorf("%s I=%g: %d states built, estimate %d", name, i, got, states)
				}
			}
		}
	}
}

// The exact path with a recovery matrix needs O(N³) transitions; beyond
// the cap New refuses before building anything, naming the setting.
func TestExactRefusedEarly(t *testing.T) {
	const n = 400 // ≈ N³(2/3 + 1) ≈ 1.07e8 transitions > DefaultMaxTransitions
	sc := mustScenario(t, scenario.System{Processors: n, MTTF: 8 * 3600, MTTR: 4 * 3600}, matrixApp(n), scenario.Policy{})
	_, err := New(context.Background(), sc, &Settings{Exact: true})
	if err == nil || !strings.Contains(err.Error(), "MaxTransitions") || !strings.Contains(err.Error(), "exact path") {
		t.Fatalf("exact N = %d with R(p, a): error %v, want one naming MaxTransitions and the exact path", n, err)
	}
}

// A linear recovery cost R(p, a) = c + kp·p + ka·a held as three
// coefficients (scenario.RecoveryLinear) gives the model of the same cost
// written out as an N×N matrix, on both paths.
func TestLinearRecoveryMatchesMatrix(t *testing.T) {
	const n = 24
	lin := testmodel.QRLike(n)
	lin.Recovery = scenario.RecoveryLinear(12, 0.4, 0.25, n)
	mat := testmodel.QRLike(n)
	mat.Recovery = scenario.RecoveryMatrix(lin.Recovery.Matrix(n))
	sys := scenario.System{Processors: n, MTTF: 86400, MTTR: 4 * 3600}
	for _, exact := range []bool{false, true} {
		a := evaluate(t, mustScenario(t, sys, lin, scenario.Policy{}), &Settings{Exact: exact}, 1800)
		b := evaluate(t, mustScenario(t, sys, mat, scenario.Policy{}), &Settings{Exact: exact}, 1800)
		if a.UWT != b.UWT || a.States != b.States {
			t.Errorf("exact=%v: linear UWT %v (%d states), matrix %v (%d states)", exact, a.UWT, a.States, b.UWT, b.States)
		}
	}
}

// skeleton.target finds the decision states by arithmetic on their block;
// it must agree with the index of every state built, on both paths and
// with and without the old count p in the states.
func TestTargetArithmetic(t *testing.T) {
	const n = 40
	sys := scenario.System{Processors: n, MTTF: 86400, MTTR: 4 * 3600}
	for _, app := range []scenario.Application{testmodel.QRLike(n), matrixApp(n)} {
		for _, pol := range []scenario.Policy{{}, {Kind: scenario.Moldable, Processors: 30}, {Kind: scenario.Explicit, Explicit: waitVector(n)}} {
			sc := mustScenario(t, sys, app, pol)
			for _, exact := range []bool{false, true} {
				m, err := New(context.Background(), sc, &Settings{Exact: exact})
				if err != nil {
					t.Fatal(err)
				}
				checked := 0
				for st, i := range m.sk.index {
					if got := m.sk.target(st); got != int32(i) {
						t.Errorf("%v exact=%v: target(%v) = %d, index %d", pol, exact, st, got, i)
					}
					if st.Kind != Up {
						checked++
					}
				}
				if checked == 0 {
					t.Errorf("%v exact=%v: no decision state", pol, exact)
				}
				if got := m.sk.target(State{Kind: Recovery, N: m.sk.hi + 1}); got != -1 {
					t.Errorf("%v exact=%v: a state beyond the window has target %d", pol, exact, got)
				}
			}
		}
	}
}

// waitVector is greedy except that it waits at two thirds of n.
func waitVector(n int) []int {
	v := make([]int, n)
	for k := range v {
		v[k] = k + 1
	}
	v[2*n/3-1] = 0
	return v
}
