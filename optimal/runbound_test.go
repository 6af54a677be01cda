package optimal

import (
	"context"
	"math"
	"slices"
	"testing"

	"github.com/ckpt-markov/markov/scenario"
)

// TestPoissonTailBound holds poissonTails, localDrift's bounds on
// P(Poisson(μ) ≥ r), against the tail summed term by term to
// convergence, on a table of μ and r: each bound is at least the tail,
// and within a factor 2 of it where μ/(r + 1) ≤ 1/2 and the tail is
// above 1e-300 (the bound, not a bare 1, is then in use).
//
// Beyond μ ≈ 708, e^{−μ} underflows (to a subnormal, then to zero), and
// so would the tail computed from it: TestPoissonTailBoundLarge.
func TestPoissonTailBound(t *testing.T) {
	for _, mu := range []float64{1e-6, 0.01, 0.3, 1, 3, 10, 40} {
		tails := poissonTails(mu, 80)
		term := math.Exp(-mu)
		for r := 1; r <= 80; r++ {
			term *= mu / float64(r)
			tail, p := 0.0, term
			for i := r; i < r+2000 && p > 0; i++ {
				tail += p
				p *= mu / float64(i+1)
			}
			if tails[r-1] < tail {
				t.Errorf("μ = %g, r = %d: bound %.17g below the tail %.17g", mu, r, tails[r-1], tail)
			}
			if mu/float64(r+1) <= 0.5 && tail > 1e-300 && tails[r-1] > 2*tail {
				t.Errorf("μ = %g, r = %d: bound %.3g more than twice the tail %.3g", mu, r, tails[r-1], tail)
			}
		}
	}
}

// TestPoissonTailBoundLarge holds poissonTails against the tail summed
// from the terms in logarithms, e^{−μ + r·ln μ − ln r!} (lgamma: each
// term to about ε·(μ + r·|ln μ| + ln r!) relative, which the tolerance
// allows 8 times), for μ where e^{−μ} is subnormal or zero, from the
// mode to where the tail is below 1e-300: every bound must be at least
// the tail and at most 1. A tail computed from e^{−μ} (0 beyond μ ≈ 745,
// where the true tail just above the mode is about ½) fails it, and
// would let localDrift take the chain as never leaving a neighbourhood
// of s (a spare chain of 700 counts or more, Λ·T near μ).
func TestPoissonTailBoundLarge(t *testing.T) {
	for _, mu := range []float64{700, 712.5, 745.2, 800, 3000.7, 1e5 + 0.3} {
		n := int(mu + 40*math.Sqrt(mu) + 50)
		tails := poissonTails(mu, n)
		// The tails from the mode r0 on, summed from the far end K (the
		// terms beyond it below e^{−745} of the mode's neighbourhood).
		r0, k := int(mu), n+int(20*math.Sqrt(mu))+100
		tails2, tol := make([]float64, k-r0+2), 0.0
		for i := k; i >= r0; i-- {
			lg, _ := math.Lgamma(float64(i + 1))
			tails2[i-r0] = tails2[i-r0+1] + math.Exp(-mu+float64(i)*math.Log(mu)-lg)
			tol = max(tol, 8*0x1p-53*(mu+float64(i)*math.Abs(math.Log(mu))+lg))
		}
		checked := 0
		for r := r0; r <= n; r++ {
			tail := tails2[r-r0]
			if tail < 1e-300 {
				break
			}
			checked++
			if got := tails[r-1]; got < tail*(1-tol) || got > 1 {
				t.Errorf("μ = %g, r = %d: bound %.17g, the tail %.17g (tolerance %.2g)", mu, r, got, tail, tol)
			}
		}
		if checked < int(mu+10*math.Sqrt(mu))-int(mu) {
			t.Errorf("μ = %g: only %d tails checked", mu, checked)
		}
	}
}

// runBoundCases are reconfCases, two with a narrow window (tail mass
// 1e-4 a side), whose rows are renormalised over it: runMax extends h
// outside the window there, and one found by a seeded scan of random
// small scenarios (stale): an up state U(2, 2) outside the recurrent
// class reconfigures while runMax shows that running loses, its interval
// is then left where an earlier pass put it, and at the policy where
// iteration stops running at its best interval wins.
func runBoundCases(t *testing.T) []solverCase {
	const h = 3600.0
	cases := reconfCases(t)
	stale, err := scenario.New(scenario.System{Processors: 4, MTTF: 8.66e4, MTTR: 7.75e4},
		scenario.Application{WorkRate: []float64{1.15, 1.25, 1.47, 0.443}, Latency: []float64{1.77e4, 1.44, 106, 17.6},
			Overhead: []float64{1.62e4, 0.114, 94.1, 13.5}, Recovery: scenario.RecoveryByNew([]float64{10.3, 3.65e4, 2.24, 4.41e4})}, scenario.Policy{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []solverCase{
		{"large24/narrow", largeApp(t, 24, 8*h, 4*h), &Settings{Tol: 1e-4}},
		{"qr12/narrow", qrScenario(t, 12, 8*h, 4*h), &Settings{Tol: 1e-4}},
		{"stale/full", stale, &Settings{Full: true}},
	} {
		c.sc.Reconfigure = scenario.AtCheckpoint
		cases = append(cases, c)
	}
	return cases
}

// TestRunMaxBound holds runMax, the bound on the bracket of running an
// up state over every interval, against the brackets themselves
// (uValue: the rows at the interval) on a grid of 321 intervals from
// MinInterval to MaxInterval (20 a factor e) and at maximize's optimum,
// for every up state where it applies, at the level-2 policy of every
// scenario with reconfiguration of this package's tests and two with a
// narrow window (runBoundCases): the bound must
// be at least every bracket. Power: the same bound without the drift
// terms (D_U = D_X = 0, as if P_t left h unchanged) falls below a
// bracket in some case, and so does the bound whose second-order part
// leaves out its t² term (the tangent at t = 0), and so does the bound
// with h extended outside the window by its least value, and the bound must skip some reconfiguring
// state somewhere (else improveU would gain nothing).
func TestRunMaxBound(t *testing.T) {
	ctx := context.Background()
	skipped, wrong, noCurve, lowOut := 0, 0, 0, 0
	for _, c := range runBoundCases(t) {
		t.Run(c.name, func(t *testing.T) {
			sv, err := New(c.sc, c.set)
			if err != nil {
				t.Fatal(err)
			}
			s, err := sv.SingleInterval(ctx, 0)
			if err != nil {
				t.Fatal(err)
			}
			v, err := sv.evaluate(ctx, s.Policy, false)
			if err != nil {
				t.Fatal(err)
			}
			rb := sv.newRunBounds(v)
			flat := &runBounds{ok: rb.ok, fu: rb.fu, fx: rb.fx, pieces: rb.pieces, span: rb.span, fmax: rb.fmax, u: make([]drifts, len(sv.acts)), x: make([]drifts, len(sv.acts))}
			for b := range sv.acts {
				for _, d := range []struct{ to, from *drifts }{{&flat.u[b], &rb.u[b]}, {&flat.x[b], &rb.x[b]}} {
					n := len(d.from.g1)
					d.to.g1, d.to.g2 = make([]float64, n), make([]float64, n)
				}
			}
			// The second-order bound without its t² term: the tangent.
			tangent := &runBounds{ok: rb.ok, fu: rb.fu, fx: rb.fx, pieces: rb.pieces, span: rb.span, fmax: rb.fmax, u: slices.Clone(rb.u), x: slices.Clone(rb.x)}
			for b := range sv.acts {
				for _, d := range []*drifts{&tangent.u[b], &tangent.x[b]} {
					d.g2, d.max2 = make([]float64, len(d.g1)), 0
				}
			}
			// h extended outside the window by its least value, not its
			// largest: wrong for the renormalised rows.
			low := &runBounds{ok: rb.ok, pieces: rb.pieces, span: rb.span, fmax: rb.fmax, u: slices.Clone(rb.u), x: slices.Clone(rb.x),
				fu: slices.Clone(rb.fu), fx: slices.Clone(rb.fx)}
			for b, a := range sv.acts {
				if !rb.ok[b] {
					continue
				}
				s0, _ := sv.spares(a)
				least := slices.Min(append(slices.Clone(rb.fu[b][s0:s0+len(v.upH(b))]), v.hX[sv.pa(b)*sv.w:(sv.pa(b)+1)*sv.w]...))
				low.fu[b], low.fx[b] = slices.Clone(rb.fu[b]), slices.Clone(rb.fx[b])
				for j := range low.fu[b] {
					if j < s0 || j >= s0+len(v.upH(b)) {
						low.fu[b][j] = least
					}
					if n := a - 1 + j; n < sv.lo || n > sv.hi {
						low.fx[b][j] = least
					}
				}
				low.u[b], low.x[b] = sv.drifts(low.fu[b]), sv.drifts(low.fx[b])
			}
			xv := sv.newXValues(v)
			lo, hi := math.Log(sv.set.MinInterval), math.Log(sv.set.MaxInterval)
			for b, a := range sv.acts {
				s0, _ := sv.spares(a)
				for k := range s.Policy.interval[b] {
					bd, ok := sv.runMax(rb, v, b, k, math.Inf(1))
					if !ok {
						continue
					}
					bf, _ := sv.runMax(flat, v, b, k, math.Inf(1))
					bt, _ := sv.runMax(tangent, v, b, k, math.Inf(1))
					bl, _ := sv.runMax(low, v, b, k, math.Inf(1))
					best := bestBracket(t, sv, v, b, k, lo, hi, 320)
					if best > bd {
						t.Errorf("U(%d, %d): bracket %.17g above the bound %.17g", a, s0+k, best, bd)
					}
					if best > bf {
						wrong++
					}
					if best > bt {
						noCurve++
					}
					if best > bl {
						lowOut++
					}
					if cur := s.Policy.reconf[b][k]; cur != 0 && bd < xv.at(sv.pa(b), a+s0+k, cur) {
						skipped++
					}
				}
			}
		})
	}
	if wrong == 0 {
		t.Errorf("the bound without drift terms is never below a bracket: the test cannot tell a wrong bound")
	}
	if noCurve == 0 {
		t.Errorf("the bound without the t² term is never below a bracket: the test cannot tell a wrong second-order bound")
	}
	if lowOut == 0 {
		t.Errorf("the bound with h extended by its least value is never below a bracket: the test cannot tell a wrong extension")
	}
	if skipped == 0 {
		t.Errorf("the bound never shows that running loses in a reconfiguring up state")
	}
	t.Logf("%d brackets above the bound without drifts, %d above it without the t² term, %d above it with h extended by its least value; %d reconfiguring up states whose search is skipped", wrong, noCurve, lowOut, skipped)
}

// TestRunBoundSameLevel4 holds level 4 with the bound (runBound: the
// interval searches of reconfiguring up states that cannot run skipped)
// against level 4 without it, on every scenario with reconfiguration of
// this package's tests and the others of runBoundCases (a narrow
// window, a stale interval): the same g to 1e-12 relative, the same
// action in every X and choice in every U, and in every up state that
// runs the same interval or, where the searches took another path (a
// state outside the recurrent class, whose interval g does not see:
// "stale"), one whose bracket is that of the interval without the bound
// to policy iteration's stopping tolerance RelTol. Only the intervals
// of the up states that reconfigure (never used) may differ otherwise.
// Power: without staleMayRun, "stale" stops at a policy that
// reconfigures in U(2, 2), where level 4 without the bound runs.
func TestRunBoundSameLevel4(t *testing.T) {
	for _, c := range runBoundCases(t) {
		t.Run(c.name, func(t *testing.T) {
			solve := func(on bool) Result {
				runBound = on
				defer func() { runBound = true }()
				_, _, r := levelsTwoFour(t, c.sc, c.set)
				return r
			}
			got, want := solve(true), solve(false)
			checkSameLevel4(t, got, want)
		})
	}
}

// checkSameLevel4 holds level 4 with the bound (got) against level 4
// without it (want), as TestRunBoundSameLevel4 says.
func checkSameLevel4(t *testing.T, got, want Result) {
	t.Helper()
	if d := relDiff(got.UWT, want.UWT); d > 1e-12 {
		t.Errorf("level 4: g = %.17g, without the bound %.17g (rel. diff %.2g)", got.UWT, want.UWT, d)
	}
	gp, wp := got.Policy, want.Policy
	var v *values // want's, evaluated where two intervals differ
	bracketAt := func(b, k int, interval float64) float64 {
		if v == nil {
			var err error
			if v, err = wp.sv.evaluate(context.Background(), wp, false); err != nil {
				t.Fatal(err)
			}
		}
		u, err := wp.sv.uValue(nil, v, b, k, interval)
		if err != nil {
			t.Fatal(err)
		}
		return u
	}
	if !slices.Equal(gp.action, wp.action) {
		t.Errorf("actions in X differ: %v, without the bound %v", gp.action, wp.action)
	}
	for b := range wp.reconf {
		if !slices.Equal(gp.reconf[b], wp.reconf[b]) {
			t.Errorf("choices in U(%d, ·) differ: %v, without the bound %v", gp.sv.acts[b], gp.reconf[b], wp.reconf[b])
			continue
		}
		for k, c := range wp.reconf[b] {
			ig, iw := gp.interval[b][k], wp.interval[b][k]
			if c != 0 || ig == iw {
				continue
			}
			// Another path of the searches (a state outside the
			// recurrent class, whose interval does not move g):
			// policy iteration stops when g gains less than
			// RelTol·g, so the two brackets, at the values without
			// the bound, must agree to RelTol·(|bracket| + |g|·I).
			bg, bw := bracketAt(b, k, ig), bracketAt(b, k, iw)
			tol := wp.sv.set.RelTol * (math.Abs(bw) + math.Abs(v.g)*max(ig, iw))
			if math.Abs(bg-bw) > tol {
				t.Errorf("U(%d, %d) runs at %.17g, without the bound %.17g: brackets %.17g, %.17g beyond the tolerance %.3g", gp.sv.acts[b], k, ig, iw, bg, bw, tol)
			}
		}
	}
}

// bestBracket returns the largest bracket of running up state k of
// configuration b over log-intervals [lo, hi]: Brent's maximum from 300 s
// and a grid of points+1 log-intervals, the oracle the bounds of
// runbound.go are held against.
func bestBracket(t *testing.T, sv *Solver, v *values, b, k int, lo, hi float64, points int) float64 {
	t.Helper()
	f := func(x float64) float64 {
		u, err := sv.uValue(nil, v, b, k, math.Exp(x))
		if err != nil {
			t.Fatal(err)
		}
		return u
	}
	_, best := maximize(f, math.Log(300), intervalStep, lo, hi, sv.set.IntervalTol)
	for i := 0; i <= points; i++ {
		best = max(best, f(lo+(hi-lo)*float64(i)/float64(points)))
	}
	return best
}
