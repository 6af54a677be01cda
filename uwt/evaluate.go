package uwt

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/ckpt-markov/markov/internal/decision"
	"github.com/ckpt-markov/markov/internal/graph"
	"github.com/ckpt-markov/markov/markov"
)

// Result is the outcome of one evaluation of the model at an interval.
type Result struct {
	// Interval is the checkpoint interval I evaluated, in seconds.
	Interval float64
	// UWT is the long-run useful work per second, Σπw / Σπτ.
	UWT float64
	// Availability is the long-run fraction of time spent on useful
	// computation, Σπu / Σπτ (for a moldable policy on a processors,
	// UWT = ω(a)·Availability).
	Availability float64
	// States is the number of states reachable from the start state,
	// Recurrent the number the chain keeps visiting (the support of π).
	States, Recurrent int
	// Built is the number of states the skeleton holds (the window of the
	// fast path), Pruned the number of those that pruning made
	// unreachable, that is, reachable without pruning but not with it
	// (found by continuing the reachability search along the pruned
	// transitions, not by a second search).
	Built, Pruned int
	// Transitions is the number of transitions of the solved chain.
	Transitions int
	// Dropped is the stationary probability per jump of a transition that
	// the model dropped: out of the fast path's window, below the pruning
	// threshold, or in the negligible tail of a spare-chain row.
	Dropped float64
	// Outside is the part of Dropped that left the window of functional
	// counts; the fast path widens the window until it is at most
	// Settings.Tol.
	Outside float64
	// Residual is the stationary residual ‖πᵀP − πᵀ‖₁ of the solved chain.
	Residual float64
	// Solver is the stationary method used.
	Solver markov.Method
	// Phases tells that the chain has no up states (the fast path
	// without failure events or reconfiguration, doc.go "Up phases"): a
	// recovery state R(p, n) then stands for the recovery and the up
	// phase after it, until the next failure.
	Phases bool
	// OneClass tells that every functional count of the window recovers
	// on the same processor count (doc.go, "One recovery class"): the
	// probabilities then come in closed form, no chain is built
	// (Transitions is 0) and nothing is solved (Residual is 0, Solver
	// Auto).
	OneClass bool
	// OldCountBin is the number of consecutive used counts that share one
	// old count when Settings.OldCountBin binned them (doc.go, "Old-count
	// bins"), 0 when the old counts are exact (the setting is 0 or 1, or
	// the recovery cost does not depend on p).
	OldCountBin int
	// BinError is the a-posteriori estimate of the binning's error in UWT
	// (work per second, as UWT): |UWT − UWT'|, UWT' the same model's with
	// bins of BinCompared used counts (twice OldCountBin, or half when
	// OldCountBin already puts every used count in one bin). 0 without
	// bins. Model.Optimize computes it at I* only.
	BinError float64
	// BinCompared is the bin width of the models BinError compares with.
	BinCompared int

	sk *skeleton
	pi []float64 // over the skeleton's states
}

// Inspect returns the states the chain visits with their stationary
// probabilities (of the jump chain), in the model's state order.
func (r *Result) Inspect() []Weighted {
	var out []Weighted
	for i, p := range r.pi {
		if p > 0 {
			out = append(out, Weighted{State: r.sk.states[i], Prob: p})
		}
	}
	return out
}

// Weighted is a state with its stationary probability.
type Weighted struct {
	State State
	Prob  float64
}

// Evaluate computes UWT(I) for the checkpoint interval I > 0 (seconds).
// With the fast path, it widens the window of functional counts until the
// dropped mass is below Settings.Tol.
//
// With old-count bins (Settings.OldCountBin) it also evaluates the two
// models of other bins (built on first use and kept) at the same
// interval, for Result.BinError.
func (m *Model) Evaluate(ctx context.Context, interval float64) (Result, error) {
	res, err := m.evaluateWindowed(ctx, interval)
	if err != nil {
		return res, err
	}
	if err := m.binError(ctx, &res); err != nil {
		return Result{}, err
	}
	return res, nil
}

// binError sets res.OldCountBin and, with old-count bins, res.BinError
// and res.BinCompared from two comparison models (doc.go, "Old-count
// bins"): the largest difference in UWT from the two models whose bins
// merge those of m.bin in pairs (bins of 2·m.bin used counts, the second
// with a first bin of m.bin), or, when the window holds fewer than
// minBins bins, from two models of bins of m.bin/2. The
// comparison models are built once, on first use.
func (m *Model) binError(ctx context.Context, res *Result) error {
	if m.bin <= 1 {
		return nil
	}
	// The two ways of merging the bins of m.bin in pairs: bins of 2·m.bin
	// from the first used count, and from m.bin used counts later.
	wide, shift := 2*m.bin, m.bin
	if len(m.sk.olds) < minBins {
		wide, shift = max(m.bin/2, 1), m.bin/4
	}
	res.OldCountBin = m.bin
	res.BinError = 0
	for c, alt := range [2][2]int{{wide, 0}, {wide, shift}} {
		if m.compare[c] == nil {
			set := m.given
			set.OldCountBin = alt[0]
			cm, err := newModel(ctx, m.sc, &set, alt[1])
			if err != nil {
				return fmt.Errorf("uwt: the model of old-count bins of %d, which estimates the binning error: %w", alt[0], err)
			}
			m.compare[c] = cm
		}
		cr, err := m.compare[c].evaluateWindowed(ctx, res.Interval)
		if err != nil {
			return fmt.Errorf("uwt: the model of old-count bins of %d, which estimates the binning error: %w", alt[0], err)
		}
		res.BinError = max(res.BinError, math.Abs(res.UWT-cr.UWT))
	}
	res.BinCompared = m.compare[0].bin
	return nil
}

// minBins is the fewest bins of Settings.OldCountBin for which
// Result.BinError compares with wider bins; with fewer, pairs of bins
// cover most of the window and merging them changes too little to
// measure the binning (measured: N = 128, MTTF 100 d, bins of 8 in two
// bins underestimated the error 7-fold), so it compares with bins of half
// the width.
const minBins = 4

// Solve solves the chain of up phases (Result.Phases) on the window of
// functional counts Evaluate would reach, without its rewards: UWT and
// Availability are zero, Inspect gives the states and their stationary
// law, which do not depend on the interval. It is for callers that reward
// the chain's states themselves (package multilevel, whose rewards depend
// on a checkpoint pattern), and skips the series of committed segments
// of Evaluate. It returns an error if the model's chain is not a chain
// of up phases.
func (m *Model) Solve(ctx context.Context) (Result, error) {
	if !m.phase {
		return Result{}, errors.New("uwt: Solve needs the chain of up phases (no reconfiguration at checkpoints, not Settings.Exact)")
	}
	return m.widening(ctx, func() (Result, error) {
		if err := ctx.Err(); err != nil {
			return Result{}, err
		}
		var res Result
		if m.solved != nil {
			// Solved when built (doc.go, "One recovery class").
			res = m.solved.res
		} else {
			// No up state: the interval rewards nothing here.
			var err error
			if res, err = m.solveAt(3600); err != nil {
				return Result{}, err
			}
		}
		res.Phases = true
		return res, nil
	})
}

// evaluateWindowed is Evaluate without the binning error estimate.
func (m *Model) evaluateWindowed(ctx context.Context, interval float64) (Result, error) {
	if math.IsNaN(interval) || math.IsInf(interval, 0) || interval <= 0 {
		return Result{}, fmt.Errorf("uwt: interval = %v, want a positive number of seconds", interval)
	}
	return m.widening(ctx, func() (Result, error) { return m.evaluate(ctx, interval) })
}

// widening returns solve's result on the current window, widened and
// rebuilt until the mass outside it is at most Settings.Tol (or the
// window is 0..N, or Settings.Exact), with the accuracy check of
// Evaluate: the loop of evaluateWindowed and Solve.
func (m *Model) widening(ctx context.Context, solve func() (Result, error)) (Result, error) {
	for {
		res, err := solve()
		if err != nil {
			return Result{}, err
		}
		full := m.sk.lo == 0 && m.sk.hi == m.sc.N()
		if m.set.Exact || full || res.Outside <= m.set.Tol {
			return res, m.set.checkAccuracy(res)
		}
		lo, hi := m.widen(m.sk.lo, m.sk.hi)
		if err := m.build(ctx, lo, hi); err != nil {
			return Result{}, err
		}
	}
}

// evaluate solves the chain of the current skeleton at one interval:
// rows, assembly, pruning and restriction to the reachable states, the
// stationary solve, and the rewards.
func (m *Model) evaluate(ctx context.Context, interval float64) (Result, error) {
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	if m.phase {
		if m.solved == nil {
			res, err := m.solveAt(interval)
			if err != nil {
				return Result{}, err
			}
			if m.events != nil {
				m.solved, err = m.newEventPhaseSolution(res)
				if err != nil {
					return Result{}, err
				}
			} else {
				m.solved = newPhaseSolution(res, m.sk, m.asm.tau)
			}
		}
		return m.solved.at(ctx, m, interval)
	}
	for _, g := range m.sk.up {
		g.t = m.upLength(g.a, interval)
	}
	if err := m.fillAll(ctx, m.sk.up); err != nil {
		return Result{}, err
	}
	return m.solveAt(interval)
}

// solveAt assembles, prunes, restricts and solves the chain of the
// current skeleton, whose rows are filled, with the rewards at interval.
func (m *Model) solveAt(interval float64) (Result, error) {
	sk := m.sk
	asm := m.assemble(interval)
	kept := asm.prune(m.set.Prune)
	reach, sub, unpruned := reachable(sk.start, asm.ptr, asm.cols, kept)
	chain, err := asm.chain(sk.states, reach, sub, kept)
	if err != nil {
		return Result{}, fmt.Errorf("uwt: %w", err)
	}
	st, err := m.solve(chain, sub, interval)
	if err != nil {
		return Result{}, err
	}
	res, err := asm.reward(chain, sub, st)
	if err != nil {
		return Result{}, fmt.Errorf("uwt: %w", err)
	}
	res.Interval = interval
	res.Built, res.Pruned = len(sk.states), unpruned-len(sub)
	res.sk = sk
	m.warm = res.pi
	return res, nil
}

// assembly is the chain of one interval over the skeleton's states before
// pruning: its transitions (in COO form, rows contiguous and in order,
// ptr[i] the first transition of state i, each row's columns increasing
// except around the start state) and, per state, the rewards of
// docs/model.md §6 and the mass of the transitions that leave the window.
// A Model keeps one assembly and reuses its buffers at every evaluation:
// the chain built in place in cols and vals (markov.FromCOO) does not
// outlive the evaluation.
type assembly struct {
	ptr, rows, cols            []int
	vals                       []float64
	kept                       []bool
	tau, work, useful, outside []float64
	sum                        []float64 // a row's interruption law (assembleBatchPhase)
}

// reset empties asm for ns states, keeping its buffers.
func (asm *assembly) reset(ns int) {
	asm.ptr = resize(asm.ptr, ns+1)
	asm.rows, asm.cols, asm.vals = asm.rows[:0], asm.cols[:0], asm.vals[:0]
	asm.tau, asm.work = resize(asm.tau, ns), resize(asm.work, ns)
	asm.useful, asm.outside = resize(asm.useful, ns), resize(asm.outside, ns)
}

// resize returns s with length n and zero entries, reusing its storage.
func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	s = s[:n]
	clear(s)
	return s
}

// assemble builds the transitions and rewards of every state at the
// interval, from the segments' rows (docs/model.md §5–6), in m's reused
// assembly.
func (m *Model) assemble(interval float64) *assembly {
	if m.asm == nil {
		m.asm = new(assembly)
	}
	asm := m.asm
	asm.reset(len(m.sk.states))
	if n := m.entriesBound(); cap(asm.rows) < n {
		// At once rather than by appends, whose copies and fresh memory
		// cost more than the transitions themselves.
		asm.rows, asm.cols, asm.vals = make([]int, 0, n), make([]int, 0, n), make([]float64, 0, n)
	}
	for i, st := range m.sk.states {
		asm.ptr[i] = len(asm.rows)
		if st.Kind == Down {
			m.assembleDown(asm, i, st)
		} else {
			m.assembleSegment(asm, i, st, interval)
		}
		if len(asm.rows) == asm.ptr[i] {
			// Every transition leaves the window (an up phase's row in a
			// window too narrow): a self-loop holds the state, and the
			// mass outside makes the window widen.
			asm.rows, asm.cols, asm.vals = append(asm.rows, i), append(asm.cols, i), append(asm.vals, 1)
		}
	}
	asm.ptr[len(m.sk.states)] = len(asm.rows)
	return asm
}

// entriesBound returns an upper bound on the transitions that assemble
// adds: each row's entries (the rows' lengths, or the event sizes and a
// repair for a waiting state) or its self-loop. Only the storage depends
// on it.
func (m *Model) entriesBound() int {
	n := 0
	for i, st := range m.sk.states {
		n++ // a self-loop, or the first entry of a row of one
		if st.Kind == Down {
			if m.events != nil {
				n += len(m.events.sizes) + 1
			} else {
				n++
			}
			continue
		}
		g := m.sk.segOf[i]
		s := st.S
		if st.Kind == Recovery {
			s = st.N - g.a
		}
		k := s - g.s0
		if g.failN != nil && g.phase {
			n += len(g.qt[k]) + len(g.upQ[k])
			continue
		}
		_, p, q := g.row(s)
		n += len(p) + len(q)
	}
	return n
}

// add appends the transition i → j with probability v, or counts it as
// leaving the window when j < 0.
func (asm *assembly) add(i int, j int32, v float64) {
	if j < 0 {
		asm.outside[i] += v
		return
	}
	// One append per statement: each is then done in place, writing the
	// length only (no write barrier) while the capacity lasts.
	asm.rows = append(asm.rows, i)
	asm.cols = append(asm.cols, int(j))
	asm.vals = append(asm.vals, v)
}

// assembleDown adds the row of D(p, k): one more failure or one more
// repair, whichever comes first.
func (m *Model) assembleDown(asm *assembly, i int, st State) {
	if m.events != nil {
		m.assembleBatchDown(asm, i, st)
		return
	}
	k := st.N
	fail, repair := float64(k)*m.lambda, float64(m.sk.n-k)*m.theta
	asm.tau[i] = 1 / (fail + repair)
	to := m.sk.down[i]
	for c, p := range [2]float64{fail / (fail + repair), repair / (fail + repair)} {
		if p != 0 {
			asm.add(i, to[c], p)
		}
	}
}

// assembleSegment adds the row of an up or recovery state from row s of
// its segment: survival to U(a, s'), failure to the decision state of
// a − 1 + s' functional.
func (m *Model) assembleSegment(asm *assembly, i int, st State, interval float64) {
	g := m.sk.segOf[i]
	s := st.S
	if st.Kind == Recovery {
		s = st.N - g.a
	}
	if g.failN != nil && g.phase {
		m.assembleBatchPhase(asm, i, g, s)
		return
	}
	if g.failN != nil {
		m.assembleBatchSegment(asm, i, st, s, interval)
		return
	}
	if g.phase {
		m.assemblePhase(asm, i, g, s)
		return
	}
	surv := math.Exp(-g.rho * g.t)
	asm.tau[i] = sojourn(g.rho, g.t)
	if st.Kind == Up {
		app := m.sc.Application
		asm.useful[i] = surv * (interval + app.Latency[g.a-1] - app.Overhead[g.a-1])
		asm.work[i] = asm.useful[i] * app.WorkRate[g.a-1]
	}
	// The up states precede the decision states in the skeleton, and
	// both targets increase with s', so the row comes out sorted.
	lo, p, q := g.row(s)
	for c, v := range p {
		if v *= surv; v > 0 {
			asm.add(i, g.upTo.at(lo+c), v)
		}
	}
	for c, v := range q {
		if v > 0 {
			asm.add(i, g.failTo.at(lo+c), v)
		}
	}
}

// assemblePhase adds the row of a recovery state that stands for the
// recovery and the up phase after it, to the next failure: an Exp(ρ)
// time (doc.go, "Up phases"), with the targets of the failures in the
// recovery and in the up phase in increasing order. Its rewards depend
// on I and are the solution's (phaseSolution.at), not the assembly's.
func (m *Model) assemblePhase(asm *assembly, i int, g *segment, s int) {
	asm.tau[i] = 1 / g.rho
	lo, up, rec := g.row(s)
	parts := [2][]float64{rec, up}
	to := [2]targets{g.failTo, g.failUp}
	if g.p > g.a { // the decision states of the larger count come later
		parts[0], parts[1], to[0], to[1] = up, rec, g.failUp, g.failTo
	}
	for k, part := range parts {
		for c, v := range part {
			if v > 0 {
				asm.add(i, to[k].at(lo+c), v)
			}
		}
	}
}

// phaseUseful returns the expected useful computing time of an up phase
// on a processors at the interval (doc.go, "Up phases";
// decision.Phase.Useful).
func (m *Model) phaseUseful(a int, interval float64) float64 {
	return decision.NewPhase(&m.sc.Application, a, m.lambda).Useful(interval)
}

// phaseSolution is the solved chain of a window of up phases, which does
// not depend on I: only the rewards of the up states do, so that each
// interval costs one pass over the recurrent states.
type phaseSolution struct {
	res       Result    // the solve (its UWT and availability are set by at)
	rec       []int     // the recurrent states (π > 0), skeleton indices
	pi, tau   []float64 // their probabilities and sojourns
	surv      []float64 // their recovery's survival e^{−ρ(R + L)}, 0 if down
	work, use []float64 // scratch for the rewards
	// events, with failure events, computes the rewards instead (the
	// up phase's segments depend on the spare count).
	events *eventRewards
}

func newPhaseSolution(res Result, sk *skeleton, tau []float64) *phaseSolution {
	ps := &phaseSolution{res: res}
	for i, p := range res.pi {
		if p > 0 {
			ps.rec = append(ps.rec, i)
			ps.pi, ps.tau = append(ps.pi, p), append(ps.tau, tau[i])
			surv := 0.0
			if g := sk.segOf[i]; g != nil {
				surv = math.Exp(-g.rho * g.t)
			}
			ps.surv = append(ps.surv, surv)
		}
	}
	ps.work, ps.use = make([]float64, len(ps.rec)), make([]float64, len(ps.rec))
	return ps
}

// at returns the result at interval: the solve's, with UWT and the
// availability from the rewards at interval.
func (ps *phaseSolution) at(ctx context.Context, m *Model, interval float64) (Result, error) {
	res := ps.res
	res.Interval = interval
	res.Phases = true
	if ps.events != nil {
		return ps.events.at(ctx, m, res, interval)
	}
	for k, i := range ps.rec {
		ps.work[k], ps.use[k] = 0, 0
		if g := m.sk.segOf[i]; g != nil {
			ps.use[k] = ps.surv[k] * m.phaseUseful(g.a, interval)
			ps.work[k] = ps.use[k] * m.sc.Application.WorkRate[g.a-1]
		}
	}
	var err error
	if res.UWT, err = markov.RenewalReward(ps.pi, ps.work, ps.tau); err != nil {
		return Result{}, fmt.Errorf("uwt: %w", err)
	}
	if res.Availability, err = markov.RenewalReward(ps.pi, ps.use, ps.tau); err != nil {
		return Result{}, fmt.Errorf("uwt: %w", err)
	}
	return res, nil
}

// chain builds the Markov chain of the states sub reachable along the
// kept transitions (reach maps a state to its index in sub, or −1),
// renormalising the rows that pruning cut. It reuses asm's transitions.
func (asm *assembly) chain(states []State, reach []int32, sub []int, kept []bool) (*markov.Chain[State], error) {
	labels := make([]State, len(sub))
	for k, i := range sub {
		labels[k] = states[i]
	}
	rows, cols, vals := asm.rows, asm.cols, asm.vals
	keep := 0
	for e := range rows {
		if kept[e] && reach[rows[e]] >= 0 {
			rows[keep], cols[keep], vals[keep] = int(reach[rows[e]]), int(reach[cols[e]]), vals[e]
			keep++
		}
	}
	// The chain is built in place in cols and vals; asm keeps them for
	// the next evaluation, when this chain is no longer used.
	return markov.FromCOO(labels, rows[:keep], cols[:keep], vals[:keep], &markov.BuildSettings{Renormalise: true, UniqueLabels: true})
}

// solve returns the stationary distribution of chain, warm-started from
// the previous evaluation's (restricted to sub) and preconditioned with
// the factors of an earlier interval while they serve, and retried cold
// if the warm start stalls the iteration.
func (m *Model) solve(chain *markov.Chain[State], sub []int, interval float64) (markov.Result, error) {
	var start []float64
	if m.warm != nil {
		start = make([]float64, len(sub))
		for k, i := range sub {
			start[k] = m.warm[i]
		}
	}
	// The ILU(0) factors of the last interval precondition this one while
	// they keep GMRES fast (markov.Settings.Preconditioner).
	st, err := chain.Stationary(&markov.Settings{Start: start, Preconditioner: &m.pc})
	if err != nil && !errors.Is(err, markov.ErrNoConvergence) {
		return st, fmt.Errorf("uwt: %w", err)
	}
	if err != nil && st.Pi != nil && start != nil {
		st, err = chain.Stationary(nil)
	}
	if err != nil && st.Method == markov.Iterative {
		// GMRES can stall on a window whose probabilities span hundreds
		// of orders of magnitude (Settings.Tol = 1e-200); the state
		// reduction in band storage has no such trouble, and refuses
		// with an error a band too large for memory.
		if bst, berr := chain.Stationary(&markov.Settings{Method: markov.Banded}); berr == nil {
			st, err = bst, nil
		}
	}
	if err != nil {
		return st, fmt.Errorf("uwt: stationary solve at I = %g: %w", interval, err)
	}
	return st, nil
}

// reward computes UWT = Σπw / Σπτ and the availability Σπu / Σπτ over
// the recurrent states (Markov renewal–reward), and the dropped masses.
func (asm *assembly) reward(chain *markov.Chain[State], sub []int, st markov.Result) (Result, error) {
	pi := make([]float64, len(asm.tau))
	var piS, tauS, workS, usefulS []float64
	deficit := chain.Renormalisation().Deficit
	res := Result{States: len(sub), Transitions: chain.NNZ(), Residual: st.Residual, Solver: st.Method, pi: pi}
	for k, i := range sub {
		pi[i] = st.Pi[k]
		if pi[i] > 0 {
			piS, tauS = append(piS, pi[i]), append(tauS, asm.tau[i])
			workS, usefulS = append(workS, asm.work[i]), append(usefulS, asm.useful[i])
			res.Outside += pi[i] * asm.outside[i]
			// A row summing above 1 by rounding (a negative deficit) was
			// renormalised down: nothing was dropped.
			res.Dropped += pi[i] * max(deficit[k], 0)
		}
	}
	res.Recurrent = len(piS)
	var err error
	if res.UWT, err = markov.RenewalReward(piS, workS, tauS); err != nil {
		return Result{}, err
	}
	if res.Availability, err = markov.RenewalReward(piS, usefulS, tauS); err != nil {
		return Result{}, err
	}
	return res, nil
}

// prune marks the transitions of asm to keep (in asm.kept, reused) by
// pruneRows.
func (asm *assembly) prune(prune float64) []bool {
	asm.kept = pruneRows(resize(asm.kept, len(asm.rows)), asm.rows, asm.cols, asm.vals, prune)
	return asm.kept
}

// pruneRows marks in kept the transitions to keep: transition i → j (j ≠ i) is
// pruned when p_ij < prune·(1 − p_ii), a fraction prune of the
// probability of leaving i. Pruning relative to the exit mass bounds the
// relative change of the flow between states by prune, and never removes
// the last exit of a state, which an absolute threshold can do (a state
// whose exits are all tiny would become absorbing and change the
// recurrent class). Rows are contiguous runs of equal rows[e].
func pruneRows(kept []bool, rows, cols []int, vals []float64, prune float64) []bool {
	for b := 0; b < len(rows); {
		e := b
		exit := 0.0
		for ; e < len(rows) && rows[e] == rows[b]; e++ {
			if cols[e] != rows[e] {
				exit += vals[e]
			}
		}
		for k := b; k < e; k++ {
			kept[k] = cols[k] == rows[k] || vals[k] >= prune*exit
		}
		b = e
	}
	return kept
}

// reachable returns, for each of the n = len(ptr) − 1 states, its index
// among the states reachable from start along the transitions with
// kept[e], or −1; those states in increasing order; and the number of
// states reachable along all transitions. State i's transitions are
// ptr[i] .. ptr[i+1]−1, to cols[e]. The number reachable along all
// transitions comes from continuing the same search (graph.Search) along
// the pruned transitions (every state reachable at all is reachable from
// the kept-reachable ones), not from a second search.
func reachable(start int, ptr, cols []int, kept []bool) ([]int32, []int, int) {
	seen := make([]bool, len(ptr)-1)
	seen[start] = true
	graph.Search(ptr, cols, kept, seen, []int{start})
	idx, sub := graph.Renumber[int32](seen)
	// Continue from the targets of the pruned transitions out of the
	// reachable states: a sequential scan that touches seen only for the
	// pruned transitions, then a search along every transition.
	var from []int
	for _, i := range sub {
		for k := ptr[i]; k < ptr[i+1]; k++ {
			if j := cols[k]; !kept[k] && !seen[j] {
				seen[j] = true
				from = append(from, j)
			}
		}
	}
	extra := len(from) + graph.Search(ptr, cols, nil, seen, from)
	return idx, sub, len(sub) + extra
}
