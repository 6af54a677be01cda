package optimal

import (
	"fmt"
	"math"
	"slices"

	"github.com/ckpt-markov/markov/scenario"
)

// Level 2 with reconfiguration at checkpoints, started from the optimum
// without it (doc.go, "The four levels").
//
// A policy that never reconfigures is a policy of the process with
// reconfiguration at checkpoints too (every up state runs), with the same
// gain: its evaluation over the decision and up states is the chain of up
// phases with the up states eliminated (doc.go, "Decision states only";
// TestPhaseMatchesUpStates). So g*_never(I) ≤ g*(I), and the optimum
// without reconfiguration at I, μ_never(I), which the chain of up phases
// finds on the decision states alone, is a start for policy iteration at
// I that is often already optimal in X: on QR at N = 64 (MTTF 8 h, MTTR
// 4 h), at every interval level 2 solves, g*(I) = g*_never(I) to rounding
// and the optimum takes μ_never's actions in X, while it reconfigures in
// hundreds of up states where reconfiguring is as good as running or
// better, which seed's improvement mostly finds before the first
// evaluation. Policy iteration over the finitely many actions at a fixed
// I ends at g*(I) from any start, so the start changes the number of
// evaluations, not g*(I) (but for ties within Settings.TieTol, which
// policy iteration resolves by its start; TestNeverStartSameLevel2).

// neverStart makes SingleInterval, with up states, start its
// fixed-interval solves from the optimum without reconfiguration at
// their interval (startAt) where that pays (useNeverStart); tests turn
// it off to hold the two starts against each other.
var neverStart = true

// neverStartMinUp is the least number of up states for which level 2
// starts its solves from the optimum without reconfiguration
// (useNeverStart).
const neverStartMinUp = 1024

// useNeverStart reports whether SingleInterval starts its solves from the
// optimum without reconfiguration (neverStart, with reconfiguration at
// checkpoints): where the evaluation solves the reduced system over the
// up states (R depends on p: solveByEntries) and that system has at least
// neverStartMinUp unknowns, so that the evaluations the start saves, each
// with a factorisation of it, cost more than the solves without
// reconfiguration it adds (its first is cold: band factorisations,
// resolvent rows). Measured on the four levels (BENCHMARKS.md,
// "(reconf11)"): QR at N = 64 (2,002 up states) 45 % less CPU; at N = 32
// (528) 25 % more; the desktop grid at N = 64 (2,002 up states, R
// independent of p: no reduced system) 20 % more.
// neverStartForce (tests) applies it with reconfiguration at checkpoints
// whatever the cost.
func (sv *Solver) useNeverStart() bool {
	return neverStart && sv.reconf && (neverStartForce || sv.byOld && reconfReduce && sv.nU >= neverStartMinUp)
}

// neverStartForce makes useNeverStart ignore the cost: tests hold the
// start against the one it replaces on their small scenarios.
var neverStartForce = false

// neverSolver returns the solver of sv's scenario without reconfiguration
// at checkpoints and with sv's settings (the chain of up phases), built on
// first use and kept in sv.never.
func (sv *Solver) neverSolver() (*Solver, error) {
	if sv.never != nil {
		return sv.never, nil
	}
	sc := *sv.sc
	sc.Reconfigure = scenario.Never
	set := sv.set
	nv, err := New(&sc, &set)
	if err != nil {
		return nil, err
	}
	if nv.nX != sv.nX || len(nv.acts) != len(sv.acts) {
		return nil, fmt.Errorf("optimal: the solver without reconfiguration has %d decision states and %d configurations, want %d and %d", nv.nX, len(nv.acts), sv.nX, len(sv.acts))
	}
	sv.never = nv
	return nv, nil
}

// fromNever returns the policy of sv (with up states) that takes the
// actions of pn, a policy of sv.never, in the decision states X, runs in
// every up state (reconfigures nowhere) and has the interval I
// everywhere. The two solvers index X(p, n) alike (the same checkpoint
// counts, window and configurations: neverSolver checks the sizes).
func (sv *Solver) fromNever(pn *Policy, interval float64) *Policy {
	pol := sv.uniform(func(int) int { return 0 }, interval)
	copy(pol.action, pn.action)
	for b := range pol.reconf {
		clear(pol.reconf[b])
	}
	return pol
}

// neverPolicy returns the start of a fixed-interval solve at x = log I
// from the optimum without reconfiguration at I (s.never's solve, from
// the policy it found at the nearest interval it solved): its actions in
// X, as a policy of s.sv (fromNever), with the choices in U of one
// improvement (improveR) at its values (seed). It sets s.err and returns
// nil when a solve or an evaluation fails.
func (s *singleSearch) neverPolicy(x float64) *Policy {
	nv := s.never
	if nv.gstar(x); nv.err != nil {
		s.err = nv.err
		return nil
	}
	pn := nv.visited[len(nv.visited)-1].r.Policy
	pol := s.sv.fromNever(pn, s.sv.intervalOf(x))
	if err := s.seed(pol, pn); err != nil {
		s.err = err
		return nil
	}
	return pol
}

// seed sets the choices in U of pol, which runs in every up state and
// takes pn's actions in X (pn the optimum without reconfiguration at
// pol's interval, a policy of s.never), to those of one improvement of
// them (improveR) at pn's values: g and h of the decision states from
// the chain of up phases (evaluate of s.never's solver), h of the up
// states from the blocks of pol at the interval (evalUp), the values of
// pol itself in the process with up states (its evaluation there solves
// the same equations with the up states eliminated; at the window's
// edges, where the two round the transitions that leave the window
// differently, h differs in the states near the edge). Without it, the
// first evaluation of a solve from pn is followed by an improvement that
// changes the choices of hundreds of up states (760 of 2,002 at QR, N =
// 64, 300 s: the optimum reconfigures where the chain of up phases cannot
// say so) and a second evaluation of a system that differs in as many
// rows, which GMRES on the kept factors does not solve (a factorisation).
// The seed changes the start alone, not the optimum policy iteration ends
// at.
func (s *singleSearch) seed(pol, pn *Policy) error {
	sv := s.sv
	vn, err := s.never.sv.evaluate(s.ctx, pn, false)
	if err != nil {
		return err
	}
	v, err := sv.evalBlocks(s.ctx, pol)
	if err != nil {
		return err
	}
	v.g = vn.g
	v.hX = make([]float64, sv.nX+sv.nU) // no up state reconfigures: h of X alone is read
	copy(v.hX, vn.hX[:sv.nX])
	if err := sv.fillUp(v); err != nil {
		return err
	}
	_, err = sv.improveR(v, pol, sv.newXValues(v))
	return err
}

// startAt returns the start of a fixed-interval solve at x = log I, and
// whether it is neverPolicy's: from (the policy found at the nearest
// interval solved, near, when from is nil) unless s has a search without
// reconfiguration and the nearest solve, if any, is farther than
// nearStartWidth and ended with the actions of X of its start from
// neverPolicy (visit.neverX): then neverPolicy at x. Where reconfiguring changes the actions of X too (the desktop grid),
// the optimum at the nearest interval is the better start; where it does
// not (QR at N = 64), neverPolicy's. It returns nil (s.err set) when
// neverPolicy fails.
func (s *singleSearch) startAt(x float64, from *Policy) (*Policy, bool) {
	if from == nil {
		from = s.near(x)
	}
	if s.never == nil {
		return from, false
	}
	if i := s.nearest(x); i >= 0 && (!s.visited[i].neverX || math.Abs(s.visited[i].x-x) <= nearStartWidth) {
		return from, false
	}
	return s.neverPolicy(x), true
}

// sameX reports whether the actions of X of r's policy are those of
// start (the solve's start).
func sameX(r Result, start *Policy) bool {
	return slices.Equal(r.Policy.action, start.action)
}

// nearStartWidth is the distance on log I (a factor e^0.2 ≈ 1.22) within
// which startAt starts a solve from the optimum at the nearest interval
// solved rather than from the optimum without reconfiguration: the
// gradient steps after the first move I by a few per cent, where policy
// iteration from the last optimum takes no or one improvement step and
// its evaluations are solved by GMRES on the kept factors, while the
// seeded start differs from that optimum in enough choices in U to need
// a factorisation (QR at N = 64: the last step, from 443.7 s to 442.8 s,
// took one factorisation from the seeded start and none from the last
// optimum; the four levels 1.73 cpu-s against 1.90 with the seeded start
// everywhere, six runs each).
const nearStartWidth = 0.2
