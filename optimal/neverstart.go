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
// finds on W·|ps| decision states with a closed form per configuration,
// is a start for policy iteration at I that is already optimal wherever
// reconfiguring does not pay (QR on 64 processors, MTTF 8 h, MTTR 4 h:
// every interval level 2 solves). Policy iteration over the finitely
// many actions at a fixed I ends at g*(I) from any start, so the start
// changes the number of evaluations, not g*(I) (but for ties within
// Settings.TieTol, which policy iteration resolves by its start).

// neverStart makes SingleInterval, with up states, start each
// fixed-interval solve of its scan and its gradient steps from the
// optimum without reconfiguration at that interval (neverPolicy); tests
// turn it off to hold the two starts against each other.
var neverStart = true

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

// neverPolicy returns the optimum at x = log I without reconfiguration
// (s.never's solve, from the policy it found at the nearest interval it
// solved), as a policy of s.sv (fromNever). It sets s.err and returns
// nil when that solve fails.
func (s *singleSearch) neverPolicy(x float64) *Policy {
	nv := s.never
	if nv.gstar(x); nv.err != nil {
		s.err = nv.err
		return nil
	}
	return s.sv.fromNever(nv.visited[len(nv.visited)-1].r.Policy, math.Exp(x))
}

// startAt returns the start of a fixed-interval solve at x = log I and
// whether it takes the actions of X from the optimum without
// reconfiguration at I (neverPolicy): from, or the policy found at the
// nearest interval solved (near) when from is nil, unless s has a
// search without reconfiguration and the nearest solve's optimum took
// the actions of X of the optimum without reconfiguration at its
// interval (visit.neverX; every first solve). Then the start has those
// actions at I and the reconfiguration choices of from (none on a first
// solve: every up state runs). It returns nil (s.err set) when
// neverPolicy fails.
func (s *singleSearch) startAt(x float64, from *Policy) (*Policy, bool) {
	if from == nil {
		from = s.near(x)
	}
	if s.never == nil {
		return from, false
	}
	if i := s.nearest(x); i >= 0 && !s.visited[i].neverX {
		return from, false
	}
	pol := s.neverPolicy(x)
	if pol != nil && len(s.visited) > 0 {
		for b := range pol.reconf {
			copy(pol.reconf[b], from.reconf[b])
		}
	}
	return pol, true
}

// sameX reports whether the actions of X of r's policy are those of
// start (the solve's start).
func sameX(r Result, start *Policy) bool {
	return slices.Equal(r.Policy.action, start.action)
}
