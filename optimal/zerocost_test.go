package optimal

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/ckpt-markov/markov/scenario"
	"github.com/ckpt-markov/markov/uwt"
)

// zeroCostCase returns a seeded random small scenario with every cost at
// eps (checkpoint_latency and recovery eps, checkpoint_overhead eps/2; 0:
// L = C = R = 0): N = 1..5, a per-processor MTTF from 1e2 to 1e8 s and an
// MTTR from 1 to 1e7 s, work rates from 0.1 to 10 in any order, and
// reconfiguration at checkpoints in two cases of three. The random draws
// do not depend on eps, so the same seed gives the same scenario at
// every cost.
func zeroCostCase(t *testing.T, rng *rand.Rand, eps float64) (string, *scenario.Scenario) {
	logU := func(lo, hi float64) float64 {
		return math.Exp(math.Log(lo) + rng.Float64()*(math.Log(hi)-math.Log(lo)))
	}
	n := 1 + rng.IntN(5)
	mttf, mttr := logU(1e2, 1e8), logU(1, 1e7)
	work, lat, ovh, rec := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
	for a := range n {
		work[a], lat[a], ovh[a], rec[a] = logU(0.1, 10), eps, eps/2, eps
	}
	sc, err := scenario.New(scenario.System{Processors: n, MTTF: mttf, MTTR: mttr},
		scenario.Application{WorkRate: work, Latency: lat, Overhead: ovh, Recovery: scenario.RecoveryByNew(rec)}, scenario.Policy{})
	if err != nil {
		t.Fatal(err)
	}
	if rng.IntN(3) != 0 {
		sc.Reconfigure = scenario.AtCheckpoint
	}
	return fmt.Sprintf("n=%d,mttf=%.3g,mttr=%.3g,%v", n, mttf, mttr, sc.Reconfigure), sc
}

// TestZeroCostsSolve: with L = C = R = 0 and reconfiguration at
// checkpoints, reconfiguring onto a' takes no time and does no work, so
// in U(a, s) it ties exactly with what U(a', s') does; rounding between
// the tied brackets used to make policy iteration close a cycle of such
// reconfigurations (U(1, 1) onto 2 and U(2, 0) onto 1), a recurrent class
// of zero duration whose evaluation system is singular (g = 0/0), and
// levels 2 and 4 failed with an error that blamed system.mttf and
// system.mttr. improveR now never closes such a cycle (closesZeroCycle).
//
// On 60 seeded random scenarios (zeroCostCase) every level solves, level
// 2's I* is Settings.MinInterval (within the search's 2·IntervalTol on
// log I) flagged uwt.AtMin (free segments: g rises as I falls;
// singleSearch.toBound ends the search there; or, where g*(I) is flat to
// rounding near 1 s, within 1e-3 of it with g*(1 s) within 1e-9 of g*),
// and
// level 4 ≥ level 2 − RelTol. Oracles, at I = 1, 30 and
// 1000 s, against the same scenario with every cost ε = 1e-9 s (μ₀ and
// μ_ε the optimal policies of FixedInterval at zero costs and at ε):
//   - continuity: g_ε(μ₀) ≤ g₀(μ₀) and g₀(μ₀) − g_ε(μ₀) ≤ 4ε/I·g + 1e-9·g
//     (a segment of I + ε seconds commits I + ε/2 of work, a recovery
//     costs ε: each changes g by at most about ε/I relative; 1e-9 for the
//     rounding of solves on MTTR/MTTF up to 1e5);
//   - optimality: when μ_ε has no cycle of zero-cost reconfigurations,
//     g₀(μ_ε) ≤ g₀(μ₀) + 1e-9·g. (Policy iteration at ε may stop short
//     of g_ε(μ₀): a cycle of ε-cost reconfigurations is all but a closed
//     class, where policy iteration's unichain premise fails; counted,
//     not failed: 1 of the 180 comparisons.) When μ_ε
//     has one, μ_ε idles in it at a cost of ε per turn (the process has no
//     "wait" in an up state), a policy the model at zero costs cannot
//     express: the limit of small costs may then lie above g₀(μ₀), the
//     discontinuity docs/optimal-policy.md describes (counted, not
//     failed).
//
// Power: with costs 1e-3 s, g(μ₀) falls outside the continuity tolerance
// in most comparisons (the comparison sees a cost), and without the
// guard some scenarios fail with the singular system (the scan meets the
// defect).
func TestZeroCostsSolve(t *testing.T) {
	ctx := context.Background()
	const cases, eps, big, round = 60, 1e-9, 1e-3, 1e-9
	rng := func() *rand.Rand { return rand.New(rand.NewPCG(2026, 20)) }
	r0, rEps, rBig := rng(), rng(), rng()
	seen, singularOff, idle, stuck := 0, 0, 0, 0
	solver := func(sc *scenario.Scenario) *Solver {
		sv, err := New(sc, nil)
		if err != nil {
			t.Fatal(err)
		}
		return sv
	}
	for range cases {
		name, sc := zeroCostCase(t, r0, 0)
		_, scEps := zeroCostCase(t, rEps, eps)
		_, scBig := zeroCostCase(t, rBig, big)
		sv, svEps, svBig := solver(sc), solver(scEps), solver(scBig)
		two, err := sv.SingleInterval(ctx, 0)
		if err != nil {
			t.Errorf("%s: level 2: %v", name, err)
			continue
		}
		four, err := sv.PerState(ctx, two.Policy)
		if err != nil {
			t.Errorf("%s: level 4: %v", name, err)
			continue
		}
		atMin := two.Interval <= DefaultMinInterval*math.Exp(2*DefaultIntervalTol) && two.IntervalStatus == uwt.AtMin
		if !atMin && two.Interval <= 1.001*DefaultMinInterval {
			// g*(I) flat to rounding near the bound: g*(MinInterval) is
			// then within the solves' rounding of g*(I*).
			r, err := sv.FixedInterval(ctx, DefaultMinInterval)
			atMin = err == nil && r.UWT >= two.UWT*(1-round)
		}
		if !atMin || four.UWT < two.UWT*(1-DefaultRelTol) {
			t.Errorf("%s: I* = %g (%v), want %d; level 4 %.12g, level 2 %.12g", name, two.Interval, two.IntervalStatus, DefaultMinInterval, four.UWT, two.UWT)
		}
		for _, interval := range []float64{1, 30, 1000} {
			eval := func(sv *Solver, pol *Policy) float64 {
				r, err := sv.Evaluate(ctx, moved(sv, pol))
				if err != nil {
					t.Fatalf("%s: I = %g: %v", name, interval, err)
				}
				return r.UWT
			}
			opt := func(sv *Solver) *Policy {
				r, err := sv.FixedInterval(ctx, interval)
				if err != nil {
					t.Fatalf("%s: I = %g: %v", name, interval, err)
				}
				return r.Policy
			}
			mu0, muEps := opt(sv), opt(svEps)
			g0 := eval(sv, mu0)
			gEps, gOpt := eval(svEps, mu0), eval(svEps, muEps)
			tol := (4*eps/interval + round) * g0
			if gEps > g0+round*g0 || g0-gEps > tol {
				t.Errorf("%s: I = %g: g(μ₀) %.15g with zero costs, %.15g with costs %g s (tolerance %.3g)", name, interval, g0, gEps, eps, tol)
			}
			if gOpt < gEps-round*g0 {
				// Policy iteration at ε short of μ₀ (nearly multichain:
				// a cycle of ε-cost reconfigurations is all but closed).
				stuck++
			}
			if hasZeroCycle(sv, moved(sv, muEps)) {
				idle++
			} else if g := eval(sv, muEps); g > g0+round*g0 {
				t.Errorf("%s: I = %g: g₀(μ_ε) %.15g above g₀(μ₀) %.15g", name, interval, g, g0)
			}
			if g0-eval(svBig, mu0) > tol {
				seen++
			}
		}
		zeroCycleGuard = false
		if _, err := solver(sc).SingleInterval(ctx, 0); err != nil && strings.Contains(err.Error(), "singular") {
			singularOff++
		}
		zeroCycleGuard = true
	}
	if seen < cases*3*3/4 {
		t.Errorf("power: costs of %g s seen in %d of %d comparisons, want at least 3/4", big, seen, cases*3)
	}
	if singularOff == 0 {
		t.Errorf("power: no scenario fails without the guard: the scan does not meet the defect")
	}
	t.Logf("%d of %d scenarios singular without the guard; %d of %d ε-optima idle in a zero-cost cycle, %d below g_ε(μ₀)", singularOff, cases, idle, cases*3, stuck)
}

// moved returns pol's actions as a policy of sv (a solver of the same
// scenario at other costs: the same window and counts).
func moved(sv *Solver, pol *Policy) *Policy {
	return sv.clone(pol)
}

// hasZeroCycle reports whether pol has a cycle of reconfigurations that
// take no time in sv's scenario.
func hasZeroCycle(sv *Solver, pol *Policy) bool {
	if pol.reconf == nil {
		return false
	}
	for b, a := range sv.acts {
		s0, _ := sv.spares(a)
		for k, c := range pol.reconf[b] {
			if c != 0 && sv.closesZeroCycle(pol, a, a+s0+k, c) {
				return true
			}
		}
	}
	return false
}
