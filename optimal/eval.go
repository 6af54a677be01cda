package optimal

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sync"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/ckpt-markov/markov/markov"
	"github.com/ckpt-markov/markov/scenario"
)

// block holds the up states U(a, ·) of one configuration at given
// intervals: their rows and the LU factors of I − S, S the transitions
// among U(a, ·). With F the transitions to the decision states,
//
//	h_U = (I − S)⁻¹ (w − g·τ + F·h_X(a, ·)),
//
// and a decision that enters U(a, ·) with probabilities σ sees
// σᵀh_U = ℓᵀ(w − g·τ + F·h_X) with (I − S)ᵀℓ = σ: one transposed solve
// per decision instead of the full (I − S)⁻¹F.
//
// With reconfiguration at checkpoints, the up states that reconfigure
// (mask[i] ≠ 0) are decision states like X (see evaluate): the
// transitions into them are part of F, and I − S is over the up states
// that run (idx, in increasing spare count; pos maps a spare index to
// its place there, or −1). The matrix with the identity in the rows and
// columns of the reconfiguring states, which the block factorised before,
// has the same LU on the running ones (no pivot of a running column is in
// an identity row, and an identity pivot's multipliers are zero): the
// same solutions, without the factorisation and solves of order
// len(rows) when most up states reconfigure.
type block struct {
	iv     []float64
	mask   []int
	rows   []row
	idx    []int
	pos    []int
	lu     luVec
	w, tau []float64
}

// blockAt returns configuration b's block at the intervals iv and the
// reconfiguration mask (nil: none), computing it unless the cached one
// has the same intervals and mask.
func (sv *Solver) blockAt(b int, iv []float64, mask []int) (*block, error) {
	if c := sv.cache[b]; c != nil && slices.Equal(c.iv, iv) && slices.Equal(c.mask, mask) {
		return c, nil
	}
	var rows []row
	if c := sv.cache[b]; c != nil && slices.Equal(c.iv, iv) {
		rows = c.rows // the rows depend on the intervals only, not on the mask
	} else {
		var err error
		if rows, err = sv.upRows(b, iv); err != nil {
			return nil, err
		}
	}
	k := len(rows)
	blk := &block{iv: slices.Clone(iv), mask: slices.Clone(mask), rows: rows, w: make([]float64, k), tau: make([]float64, k), pos: make([]int, k)}
	for i := range rows {
		blk.pos[i] = -1
		if !blk.reconfigures(i) {
			blk.pos[i] = len(blk.idx)
			blk.idx = append(blk.idx, i)
		}
	}
	if kr := len(blk.idx); kr > 0 {
		a := mat.NewDense(kr, kr, nil)
		for j, i := range blk.idx {
			r := &rows[i]
			a.Set(j, j, 1)
			for _, e := range r.up {
				if q := blk.pos[e.i]; q >= 0 {
					a.Set(j, q, a.At(j, q)-e.p)
				}
			}
			blk.w[i], blk.tau[i] = r.w, r.tau
		}
		var lu mat.LU
		lu.Factorize(a)
		blk.lu = newLUVec(&lu)
	}
	sv.cache[b] = blk
	return blk, nil
}

// reconfigures reports whether up state i of the block reconfigures.
func (blk *block) reconfigures(i int) bool { return blk.mask != nil && blk.mask[i] != 0 }

// maskOf returns the reconfiguration mask of configuration b (nil without
// reconfiguration at checkpoints).
func (pol *Policy) maskOf(b int) []int {
	if pol.reconf == nil {
		return nil
	}
	return pol.reconf[b]
}

// values are g and the bias h of a policy, with h(x₀) = 0.
type values struct {
	g      float64
	iv     []float64 // chain of up phases: the interval of each configuration
	closed []bool    // the decision states of the closed set reachable from x₀
	hX     []float64
	hU     [][]float64
	// unknowns counts the unknowns of the evaluation's linear systems
	// (with up states only): the active equations, or the up states and
	// g when solveByEntries solved them.
	unknowns int
	blocks   []*block
	x0       int
	// hU is filled on first use (upH): only the improvement reads it.
	upOnce sync.Once
	upFill func()
}

// upH returns h of the up states of configuration b. The up states of
// every block are solved on first use (evalUp): a search that needs g
// alone, as level 3's over one configuration's intervals, skips them.
func (v *values) upH(b int) []float64 {
	if v.upFill != nil {
		v.upOnce.Do(v.upFill)
	}
	return v.hU[b]
}

// pa returns the index into ps of the checkpoint count a failure in
// configuration b carries.
func (sv *Solver) pa(b int) int {
	if sv.byOld {
		return sv.pIdx[sv.acts[b]]
	}
	return 0
}

// reference returns the decision state x₀ with h(x₀) = 0: X at the most
// likely functional count (of the first p).
func (sv *Solver) reference() int {
	q := sv.theta / (sv.lambda + sv.theta)
	mode := min(max(int(math.Floor(float64(sv.n+1)*q)), sv.lo), sv.hi)
	return mode - sv.lo
}

// evaluate solves h(x) = w(x) − g·τ(x) + Σ_y P(x, y)·h(y), h(x₀) = 0, for
// every decision state: the up states are eliminated per configuration,
// which leaves one dense system over the decision states X and g. With
// reconfiguration at checkpoints, an up state U(a, s) whose action is to
// reconfigure onto a' has the transitions of X(a, a + s) under a' and
// joins the decision states, at index nX + uOff[b] + k (its index among
// all states). A policy with several recurrent classes has no single g:
// with repair evaluate makes it unichain in place (unichain), without it
// returns an error.
func (sv *Solver) evaluate(ctx context.Context, pol *Policy, repair bool) (*values, error) {
	if sv.phase {
		return sv.evaluatePhase(ctx, pol, repair)
	}
	v, err := sv.evalBlocks(ctx, pol)
	if err != nil {
		return nil, err
	}
	eqs, err := sv.evalEquations(v, pol)
	if err != nil {
		return nil, err
	}
	if classes := sv.recurrentClasses(eqs); len(classes) > 1 {
		if !repair {
			return nil, fmt.Errorf("optimal: the policy has %d recurrent classes (a gain each): its evaluation needs a unichain policy", len(classes))
		}
		if err := sv.unichain(v, pol, eqs, classes); err != nil {
			return nil, err
		}
	}
	if err := sv.evalSolve(v, pol, eqs); err != nil {
		return nil, err
	}
	if err := sv.fillUp(v); err != nil {
		return nil, err
	}
	return v, nil
}

// fillUp makes v solve h of its up states on first use (upH) from its g
// and h of the decision states, after checkUp.
func (sv *Solver) fillUp(v *values) error {
	if err := sv.checkUp(v); err != nil {
		return err
	}
	v.upFill = func() {
		if err := sv.evalUp(v); err != nil {
			panic(fmt.Sprintf("optimal: %v after checkUp", err)) // checkUp returns evalUp's only error
		}
	}
	return nil
}

// checkUp returns the error evalUp would: a block of up states singular
// to working precision (luVec.solve's only error).
func (sv *Solver) checkUp(v *values) error {
	for b, blk := range v.blocks {
		if len(blk.idx) > 0 && blk.lu.cond > mat.ConditionTolerance {
			return sv.upError(b, blk.iv, mat.Condition(blk.lu.cond))
		}
	}
	return nil
}

// evalBlocks is evaluate's first stage: the values with the block of up
// states of every configuration at the policy's intervals.
func (sv *Solver) evalBlocks(ctx context.Context, pol *Policy) (*values, error) {
	v := &values{blocks: make([]*block, len(sv.acts)), hU: make([][]float64, len(sv.acts)), x0: sv.reference()}
	for b := range sv.acts {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		blk, err := sv.blockAt(b, pol.interval[b], pol.maskOf(b))
		if err != nil {
			return nil, err
		}
		v.blocks[b] = blk
	}
	return v, nil
}

// evalEquations is evaluate's second stage: one linear equation per
// decision state, h(x) − Σ_y coef_y·h(y) + g·gc = rh, the reconfiguring
// up states after the states X (the others inactive).
func (sv *Solver) evalEquations(v *values, pol *Policy) ([]equation, error) {
	nx := sv.nX
	if pol.reconf != nil {
		nx += sv.nU
	}
	eqs := make([]equation, nx)
	for pi := range sv.ps {
		base := pi * sv.w
		for n := sv.lo; n <= sv.hi; n++ {
			x := base + n - sv.lo
			eqs[x] = sv.memoEquation(v, x, pi, n, pol.action[x])
			if eqs[x].err != nil {
				return nil, sv.upErrorIn(v, pol.action[x], eqs[x].err)
			}
		}
	}
	for b, a := range sv.acts {
		if pol.reconf == nil {
			break
		}
		s0, _ := sv.spares(a)
		for k, c := range pol.reconf[b] {
			x := sv.nX + sv.uOff[b] + k
			if c == 0 {
				eqs[x].inactive = true
				continue
			}
			eqs[x] = sv.memoEquation(v, x, sv.pa(b), a+s0+k, c)
			if eqs[x].err != nil {
				return nil, sv.upErrorIn(v, c, eqs[x].err)
			}
		}
	}
	return eqs, nil
}

// evalSolve is evaluate's third stage: the unichain equations solved for
// g and h of the decision states (of the merged up states too), with the
// decision states eliminated (solveByEntries) when that leaves fewer
// unknowns.
func (sv *Solver) evalSolve(v *values, pol *Policy, eqs []equation) error {
	twin := sv.mergeReconf(pol, eqs)
	if twin != nil && twin[v.x0] >= 0 {
		v.x0 = twin[v.x0]
	}
	for i := range eqs {
		if !eqs[i].inactive {
			v.unknowns++
		}
	}
	solved := false
	if reconfReduce && sv.byOld && pol.reconf != nil && sv.nU+1 < v.unknowns {
		// Fewer up states than unknowns: eliminate the decision states.
		var err error
		if solved, err = sv.solveByEntries(v, pol); err != nil {
			return err
		}
		if solved {
			v.unknowns = sv.nU + 1
		}
	}
	if !solved {
		if err := sv.solveX(v, pol, eqs); err != nil {
			return err
		}
	}
	for u, x := range twin {
		if x >= 0 {
			v.hX[u] = v.hX[x]
		}
	}
	return nil
}

// evalUp solves h of the up states of every block from g and h of the
// decision states (values.upH).
func (sv *Solver) evalUp(v *values) error {
	for b := range sv.acts {
		blk := v.blocks[b]
		k := len(blk.rows)
		if k == 0 {
			continue
		}
		pb := sv.pa(b) * sv.w
		ub := sv.nX + sv.uOff[b]
		hu := make([]float64, k)
		if len(blk.idx) > 0 {
			rhs := make([]float64, len(blk.idx))
			for j, i := range blk.idx {
				r := &blk.rows[i]
				s := blk.w[i] - v.g*blk.tau[i]
				for _, t := range r.fail {
					s += t.p * v.hX[pb+int(t.i)]
				}
				for _, t := range r.up {
					if blk.reconfigures(int(t.i)) {
						s += t.p * v.hX[ub+int(t.i)]
					}
				}
				rhs[j] = s
			}
			x, err := blk.lu.solve(rhs, false)
			if err != nil {
				return sv.upError(b, blk.iv, err)
			}
			for j, i := range blk.idx {
				hu[i] = x[j]
			}
		}
		for i := range hu {
			if blk.reconfigures(i) {
				hu[i] = v.hX[ub+i]
			}
		}
		v.hU[b] = hu
	}
	return nil
}

// Status tells how a solve ended. Its zero value means not solved.
type Status int

const (
	// NotSolved is the zero value.
	NotSolved Status = iota
	// Converged: no action changed (and g improved by less than RelTol).
	Converged
	// IterationLimit: Settings.MaxIter was reached first.
	IterationLimit
	// NoUsefulWork: no policy does useful work within the model's
	// accuracy (Solver.MaxUWT at most Settings.Tol·max ω(a)); nothing was
	// solved, UWT is 0 and Policy is greedy, unsolved.
	NoUsefulWork
)

func (s Status) String() string {
	switch s {
	case NotSolved:
		return "NotSolved"
	case Converged:
		return "Converged"
	case IterationLimit:
		return "IterationLimit"
	case NoUsefulWork:
		return "NoUsefulWork"
	}
	return fmt.Sprintf("Status(%d)", int(s))
}

// Result is a policy with its long-run useful work per second.
type Result struct {
	// Status tells whether the policy iteration converged.
	Status Status
	// UWT is g, the long-run useful work per second of the policy, from
	// the policy-evaluation solve.
	UWT float64
	// RenewalReward is Σπw/Σπτ over the stationary distribution π of the
	// decision states: a second computation of UWT.
	RenewalReward float64
	// Policy is the final policy.
	Policy *Policy
	// Iterations is the number of policy improvements made.
	Iterations int
	// Residual is the stationary residual ‖πᵀP − πᵀ‖₁.
	Residual float64
	// Dropped is the stationary probability per jump of a transition that
	// leaves the window (or the tail of a spare-chain row).
	Dropped float64
	// States is the number of decision states; Recurrent the number with
	// stationary mass.
	States, Recurrent int
	// Mass maps each processor count a to the stationary probability of
	// the up states U(a, ·) (of the jump chain).
	Mass map[int]float64
	// MeanInterval maps each processor count with mass to the
	// stationary-weighted mean of its up states' intervals.
	MeanInterval map[int]float64
}

// finish computes the stationary distribution of pol and fills r.
func (sv *Solver) finish(ctx context.Context, pol *Policy, v *values, r *Result) error {
	if sv.phase {
		return sv.finishPhase(ctx, pol, v, r)
	}
	jc := sv.jumpChain(pol, v)
	if err := ctx.Err(); err != nil {
		return err
	}
	// Keep the states reachable from x₀ (the recurrent class is reachable
	// from every state: the functional count can always fall to zero).
	sub, st, err := stationaryFrom(v.x0, len(jc.tau), jc.rows, jc.cols, jc.vals)
	if err != nil {
		return err
	}
	return sv.summarise(pol, v, jc, sub, st, r)
}

// jumpChainRows is the jump chain of the decision states and up states
// under a policy, as triplets, with each state's sojourn, work and
// dropped probability.
type jumpChainRows struct {
	rows, cols      []int
	vals            []float64
	tau, work, drop []float64
}

// add appends the row rw of state i, its up successors numbered from
// upBase and its failure successors from failBase.
func (jc *jumpChainRows) add(i int, rw *row, upBase, failBase int) {
	for _, e := range rw.up {
		jc.rows, jc.cols, jc.vals = append(jc.rows, i), append(jc.cols, upBase+int(e.i)), append(jc.vals, e.p)
	}
	for _, e := range rw.fail {
		jc.rows, jc.cols, jc.vals = append(jc.rows, i), append(jc.cols, failBase+int(e.i)), append(jc.vals, e.p)
	}
	jc.tau[i], jc.work[i], jc.drop[i] = rw.tau, rw.w, rw.drop
}

// jumpChain assembles the jump chain of pol evaluated as v: the decision
// states X first, then the up states of each configuration. The triplets
// are counted first (eachJumpRow) and allocated once.
func (sv *Solver) jumpChain(pol *Policy, v *values) *jumpChainRows {
	ns := sv.nX + sv.nU
	nz := 0
	sv.eachJumpRow(pol, v, func(_ int, rw *row, _, _ int) { nz += len(rw.up) + len(rw.fail) })
	jc := &jumpChainRows{tau: make([]float64, ns), work: make([]float64, ns), drop: make([]float64, ns),
		rows: make([]int, 0, nz), cols: make([]int, 0, nz), vals: make([]float64, 0, nz)}
	sv.eachJumpRow(pol, v, jc.add)
	return jc
}

// eachJumpRow calls f with every state i of the jump chain of pol
// evaluated as v, its row, and the bases of its up and failure
// successors (jumpChainRows.add), in the order of jumpChain.
func (sv *Solver) eachJumpRow(pol *Policy, v *values, f func(i int, rw *row, upBase, failBase int)) {
	for pi := range sv.ps {
		for n := sv.lo; n <= sv.hi; n++ {
			x := pi*sv.w + n - sv.lo
			act := pol.action[x]
			if act == 0 {
				rw := sv.waitRow(n)
				f(x, &rw, 0, pi*sv.w)
				continue
			}
			b := sv.aIdx[act]
			f(x, sv.recRow(pi, b, n), sv.nX+sv.uOff[b], pi*sv.w)
		}
	}
	for b, a := range sv.acts {
		s0, _ := sv.spares(a)
		for k := range v.blocks[b].rows {
			if c := pol.maskOf(b); c != nil && c[k] != 0 {
				// Reconfigure onto c[k]: X(a, a + s) under that action.
				b2 := sv.aIdx[c[k]]
				f(sv.nX+sv.uOff[b]+k, sv.recRow(sv.pa(b), b2, a+s0+k), sv.nX+sv.uOff[b2], sv.pa(b)*sv.w)
				continue
			}
			f(sv.nX+sv.uOff[b]+k, &v.blocks[b].rows[k], sv.nX+sv.uOff[b], sv.pa(b)*sv.w)
		}
	}
}

// summarise fills r from the stationary distribution st of the states
// sub of the jump chain jc of pol: the mass and mean interval of each
// configuration, the renewal-reward UWT and the counts.
func (sv *Solver) summarise(pol *Policy, v *values, jc *jumpChainRows, sub []int, st markov.Result, r *Result) error {
	var piS, wS, tS []float64
	r.Mass = map[int]float64{}
	wsum := map[int]float64{}
	for k, i := range sub {
		p := st.Pi[k]
		if p <= 0 {
			continue
		}
		piS, wS, tS = append(piS, p), append(wS, jc.work[i]), append(tS, jc.tau[i])
		r.Dropped += p * jc.drop[i]
		if i >= sv.nX {
			b := blockOf(sv.uOff, i-sv.nX)
			if c := pol.maskOf(b); c != nil && c[i-sv.nX-sv.uOff[b]] != 0 {
				continue // a reconfiguration: a recovery, not an up segment
			}
			a := sv.acts[b]
			r.Mass[a] += p
			wsum[a] += p * pol.interval[b][i-sv.nX-sv.uOff[b]]
		}
	}
	r.MeanInterval = map[int]float64{}
	for a, m := range r.Mass {
		r.MeanInterval[a] = wsum[a] / m
	}
	g, err := markov.RenewalReward(piS, wS, tS)
	if err != nil {
		return fmt.Errorf("optimal: %w", err)
	}
	r.RenewalReward = g
	r.Residual = st.Residual
	r.States = len(jc.tau)
	r.Recurrent = len(piS)
	r.UWT = v.g
	r.Policy = pol
	return nil
}

// blockOf returns the configuration index b whose up states hold offset k.
func blockOf(off []int, k int) int {
	b, _ := slices.BinarySearch(off, k+1)
	return b - 1
}

// equation is the linear equation of one decision state under the policy:
// h(x) − Σ coef·h(to) + g·gc = rh.
// inactive marks an up state that starts its segment: not a decision
// state, no equation.
type equation struct {
	to       []int
	coef     []float64
	gc, rh   float64
	err      error
	inactive bool
}

// equation returns the equation of X(ps[pi], n) under action act (also
// that of an up state that reconfigures onto act, with pi the index of its
// own count).
func (sv *Solver) equation(v *values, pi, n, act int) equation {
	base := pi * sv.w
	var e equation
	if act == 0 {
		return sv.waitEquation(pi, n)
	}
	if sv.phase {
		return sv.phaseEquation(v, pi, n, act)
	}
	b := sv.aIdx[act]
	r := sv.recRow(pi, b, n)
	blk := v.blocks[b]
	pb := sv.pa(b) * sv.w
	e.gc = r.tau
	acc := make([]float64, sv.w) // coefficients on X(a, ·) through U(a, ·)
	var accU []float64           // on the reconfiguring U(a, ·)
	if blk.mask != nil {
		accU = make([]float64, len(blk.rows))
	}
	if len(r.up) > 0 {
		if err := e.throughUp(blk, r.up, acc, accU); err != nil {
			e.err = err
			return e
		}
	}
	ub := sv.nX + sv.uOff[b]
	if pb == base {
		for _, t := range r.fail {
			acc[t.i] += t.p
		}
	}
	var fail []ent
	if pb != base {
		fail = r.fail
	}
	e.setTerms(accU, ub, fail, base, acc, pb)
	return e
}

// throughUp adds to e, acc (on X(a, ·)) and accU (on the reconfiguring
// U(a, ·)) the segments the recovery's row up leads into: the block's up
// states solved for the probability of entering each, and what they
// commit, cost and fail to.
func (e *equation) throughUp(blk *block, up []ent, acc, accU []float64) error {
	sigma := make([]float64, len(blk.idx))
	for _, t := range up {
		q := blk.pos[t.i]
		if q < 0 {
			accU[t.i] += t.p
			continue
		}
		sigma[q] += t.p
	}
	if len(sigma) == 0 {
		return nil
	}
	l, err := blk.lu.solve(sigma, true)
	if err != nil {
		return err
	}
	for j, li := range l {
		if li == 0 {
			continue
		}
		i := blk.idx[j]
		e.rh += li * blk.w[i]
		e.gc += li * blk.tau[i]
		for _, t := range blk.rows[i].fail {
			acc[t.i] += li * t.p
		}
		if accU != nil {
			for _, t := range blk.rows[i].up {
				if blk.reconfigures(int(t.i)) {
					accU[t.i] += li * t.p
				}
			}
		}
	}
	return nil
}

// setTerms writes e's terms, allocated once: the reconfiguring U(a, ·)
// from ub, then fail (the recovery's own failures, on X(ps[pi], ·) from
// base, when they are not on X(a, ·)), then acc on X(a, ·) from pb.
func (e *equation) setTerms(accU []float64, ub int, fail []ent, base int, acc []float64, pb int) {
	nz := 0 // the equation's terms, allocated once
	for _, c := range accU {
		if c != 0 {
			nz++
		}
	}
	for _, c := range acc {
		if c != 0 {
			nz++
		}
	}
	nz += len(fail)
	e.to, e.coef = make([]int, 0, nz), make([]float64, 0, nz)
	for k, c := range accU {
		if c != 0 {
			e.to, e.coef = append(e.to, ub+k), append(e.coef, c)
		}
	}
	for _, t := range fail {
		e.to, e.coef = append(e.to, base+int(t.i)), append(e.coef, t.p)
	}
	for k, c := range acc {
		if c != 0 {
			e.to, e.coef = append(e.to, pb+k), append(e.coef, c)
		}
	}
}

// solveX solves the equations of the decision states X for h_X and g with
// h(x₀) = 0. The states reachable from x₀ form a closed set, solved first
// together with g; every other state is transient and is solved
// afterwards, one strongly connected set at a time, successors first
// (Tarjan's order), with g and the h already found as knowns. When R
// depends on p, the reachable states X(p, n) are a fraction of the N·W of
// the window (n ≥ p − 1 only, and p among the counts the policy uses).
func (sv *Solver) solveX(v *values, pol *Policy, eqs []equation) error {
	nx := len(eqs)
	in := make([]bool, nx)
	closed := []int{v.x0}
	in[v.x0] = true
	for k := 0; k < len(closed); k++ {
		for _, y := range eqs[closed[k]].to {
			if !in[y] {
				in[y] = true
				closed = append(closed, y)
			}
		}
	}
	v.hX = make([]float64, nx)
	v.closed = in
	if err := sv.solveSet(v, eqs, closed, true); err != nil {
		return err
	}
	// The other states, one strongly connected set at a time, successors
	// first, with g and the h already found as knowns.
	return components(eqs, in, func(comp []int) error {
		return sv.solveSet(v, eqs, comp, false)
	})
}

// solveSet solves the equations of the states xs with the h of every
// other state known; withG makes g an unknown in place of h(x₀), which
// must be in xs.
func (sv *Solver) solveSet(v *values, eqs []equation, xs []int, withG bool) error {
	k := len(xs)
	if len(sv.local) < len(eqs) {
		sv.local = make([]int32, len(eqs))
		for i := range sv.local {
			sv.local[i] = -1
		}
	}
	local := sv.local
	defer indexSet(local, xs)()
	a := mat.NewDense(k, k, nil)
	rhs := mat.NewVecDense(k, nil)
	gcol := make([]float64, k)
	for i, x := range xs {
		e := &eqs[x]
		row := a.RawRowView(i)
		row[i]++
		r := e.rh
		for t, y := range e.to {
			if l := local[y]; l >= 0 {
				row[l] -= e.coef[t]
			} else {
				r += e.coef[t] * v.hX[y]
			}
		}
		if withG {
			gcol[i] = e.gc
		} else {
			r -= v.g * e.gc
		}
		rhs.SetVec(i, r)
	}
	// The g column holds sojourn times in seconds beside probabilities of
	// order one; it is scaled to unit max-norm (column equilibration) so
	// that the condition number judges the system, not the unit of time.
	ref, gscale := -1, 1.0
	if withG {
		ref = int(local[v.x0])
		if m := floats.Norm(gcol, math.Inf(1)); m > 0 {
			gscale = m
		}
		for i := range k {
			a.Set(i, ref, gcol[i]/gscale)
		}
	}
	var lu mat.LU
	lu.Factorize(a)
	if c := lu.Cond(); c > 1e15 || math.IsInf(c, 0) {
		return sv.singular(c, eqs, xs)
	}
	var sol mat.VecDense
	if err := lu.SolveVecTo(&sol, false, rhs); err != nil {
		return fmt.Errorf("optimal: policy evaluation: %w", err)
	}
	for i, x := range xs {
		v.hX[x] = sol.AtVec(i)
	}
	if withG {
		v.g = sol.AtVec(ref) / gscale
		v.hX[v.x0] = 0
	}
	return nil
}

// zeroClass reports whether some states of xs form a closed set of
// states that last 0 s (sojourn gc = 0, every successor among them): a
// recurrent class of zero duration, g = 0/0. It removes from the
// zero-sojourn states, until none changes, those with a successor
// outside them.
func zeroClass(eqs []equation, xs []int) bool {
	zero := map[int]bool{}
	for _, x := range xs {
		if eqs[x].gc == 0 {
			zero[x] = true
		}
	}
	for changed := true; changed && len(zero) > 0; {
		changed = false
		for x := range zero {
			for t, y := range eqs[x].to {
				if eqs[x].coef[t] != 0 && !zero[y] {
					delete(zero, x)
					changed = true
					break
				}
			}
		}
	}
	return len(zero) > 0
}

// singular is solveSet's error for a system of condition c over the
// states xs: it names the inputs that set the spread of its coefficients,
// the failure and repair rates (system.mttf, system.mttr) through the
// sojourn times of its states, and the other cause, a policy with several
// recurrent classes. When some states of xs form a closed set that lasts
// no time (zeroClass: a cycle of reconfigurations with zero costs, its g
// 0/0), it names those costs instead, as a *scenario.Error on application.recovery (improveR never
// picks such a cycle: closesZeroCycle).
func (sv *Solver) singular(c float64, eqs []equation, xs []int) error {
	lo, hi := math.Inf(1), 0.0
	for _, x := range xs {
		if t := eqs[x].gc; t > 0 {
			lo, hi = min(lo, t), max(hi, t)
		}
	}
	if zeroClass(eqs, xs) {
		return fmt.Errorf("optimal: the policy's evaluation system over %d decision states is singular (condition %.3g): %w", len(xs), c,
			&scenario.Error{Field: "application.recovery", Problem: "zero, with application.checkpoint_latency zero, on a cycle of reconfigurations of the policy: every state of the cycle lasts 0 s and does no work, so its UWT is 0/0"})
	}
	sys := sv.sc.System
	return fmt.Errorf("optimal: the policy's evaluation system over %d decision states is singular (condition %.3g): its sojourn times span %.3g s to %.3g s, set by system.mttf = %s and system.mttr = %s on %d processors; or the policy has several recurrent classes",
		len(xs), c, lo, hi, scenario.FormatDuration(sys.MTTF), scenario.FormatDuration(sys.MTTR), sv.n)
}

// waitEquation returns the equation of X(ps[pi], n) under the action
// wait, from the waiting rows and equations of every decision state
// built on first use (initWaits). Its slices are shared: a caller copies
// them before writing (reconfig.go does).
func (sv *Solver) waitEquation(pi, n int) equation {
	sv.initWaits()
	return sv.waitEqs[pi*sv.w+n-sv.lo]
}

// initWaits builds, once, the row of waiting in each functional count
// of the window (newWaitRow) and the equation of waiting in every
// decision state: they depend on n and the window alone.
func (sv *Solver) initWaits() {
	sv.waitOnce.Do(func() {
		sv.waitRows = make([]row, sv.w)
		for k := range sv.w {
			sv.waitRows[k] = sv.newWaitRow(sv.lo + k)
		}
		nx := len(sv.ps) * sv.w
		sv.waitEqs = make([]equation, nx)
		to, coef := make([]int, 0, 2*nx), make([]float64, 0, 2*nx)
		for x := range nx {
			base, r := x/sv.w*sv.w, &sv.waitRows[x%sv.w]
			k := len(to)
			for _, t := range r.fail {
				to, coef = append(to, base+int(t.i)), append(coef, t.p)
			}
			sv.waitEqs[x] = equation{gc: r.tau, to: to[k:len(to):len(to)], coef: coef[k:len(coef):len(coef)]}
		}
	})
}

// upFailFloor is the failure probability of an up segment below which a
// singular system of up states is blamed on system.mttf: the rows' mass
// 1 − P_jj of a running state is then resolved only to ε/p ≥ 2e-4
// relative, and I − P of the running states is singular to working
// precision (below about 1e-16, 1 − P_jj rounds to 0).
const upFailFloor = 1e-12

// upError returns err, the failure of a solve with the up states of
// configuration b at the intervals iv, with the configuration named;
// when an up segment of b fails with probability below upFailFloor
// (a system so reliable that its up states almost never leave, as at
// MTTF 10²⁰ s), as a *scenario.Error on system.mttf that says so.
func (sv *Solver) upError(b int, iv []float64, err error) error {
	a := sv.acts[b]
	if len(iv) > 0 {
		t := slices.Min(iv) + sv.sc.Application.Latency[a-1]
		if p := -math.Expm1(-float64(a) * sv.lambda * t); p < upFailFloor {
			return fmt.Errorf("optimal: up states of configuration %d: %w: %w", a, err, &scenario.Error{Field: "system.mttf",
				Problem: fmt.Sprintf("%s: with reconfiguration at checkpoints an up segment of %s on %d processors fails with probability %.3g, below the rounding of its rows: the up states' system is singular; a system this reliable gains nothing from reconfiguration (use --reconfigure never)",
					scenario.FormatDuration(sv.sc.System.MTTF), scenario.FormatDuration(t), a, p)})
		}
	}
	return fmt.Errorf("optimal: up states of configuration %d: %w", a, err)
}

// upErrorIn is upError for the configuration of action a in the values
// v (its block's intervals; none on the chain of up phases, which has no
// blocks).
func (sv *Solver) upErrorIn(v *values, a int, err error) error {
	b := sv.aIdx[a]
	var iv []float64
	if b < len(v.blocks) && v.blocks[b] != nil {
		iv = v.blocks[b].iv
	}
	return sv.upError(b, iv, err)
}
