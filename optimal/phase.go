package optimal

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/ckpt-markov/markov/birthdeath"
	"github.com/ckpt-markov/markov/internal/decision"
	"github.com/ckpt-markov/markov/internal/graph"
	"github.com/ckpt-markov/markov/internal/pool"
	"github.com/ckpt-markov/markov/markov"
)

// The chain of up phases (doc.go, "Decision states only"): without
// reconfiguration at checkpoints the solver keeps the decision states X
// only; a decision X(p, n) → a stands for the recovery and the up phase
// after it, whose law is package internal/decision's Phase.

// phaseRow is the exit law of X(p, n) under a: the failures in the
// recovery (rec, to X(p, ·)) and in the up phase (up, to X(a, ·)), at
// offsets n' − lo of the window, renormalised over the window; drop is
// the mass that left it.
type phaseRow struct {
	rec, up []ent
	drop    float64
}

// phaseBlock holds the rows of the decisions X(p, n) → a for every n of
// the window with n ≥ a (from n0), and the recovery's survival.
type phaseBlock struct {
	n0   int
	surv float64
	rows []phaseRow
}

// maxCachedEntries bounds the row entries the solver keeps for the
// policy's own decisions (16 bytes each): beyond it, a row is recomputed
// when needed instead of kept (rows never depend on the policy or the
// interval, so the choice changes no result).
const maxCachedEntries = 1 << 23

// recoveryLength returns R(p, a) + L(a) for checkpoint index pi.
func (sv *Solver) recoveryLength(pi, b int) float64 {
	a := sv.acts[b]
	p := sv.ps[pi]
	if p == 0 {
		p = a // the cost does not depend on p
	}
	app := sv.sc.Application
	return app.Recovery.Cost(p, a) + app.Latency[a-1]
}

// recovery returns the length t = R(p, a) + L(a) of the recovery of
// block (pi, b), its survival e^{−ρt} and its failure mass 1 − e^{−ρt}:
// from the table New fills when it is small, else computed.
func (sv *Solver) recovery(pi, b int) (t, surv, mass float64) {
	if sv.rtab != nil {
		r := &sv.rtab[pi*len(sv.acts)+b]
		return r[0], r[1], r[2]
	}
	t = sv.recoveryLength(pi, b)
	rho := sv.phases[b].Rho
	return t, math.Exp(-rho * t), -math.Expm1(-rho * t)
}

// maxRecoveryTable bounds the blocks (p, a) whose recovery New tabulates.
const maxRecoveryTable = 1 << 20

// initRecovery fills the recovery table (recovery) when it is small.
func (sv *Solver) initRecovery() {
	nb := len(sv.acts)
	if len(sv.ps)*nb > maxRecoveryTable {
		return
	}
	sv.rtab = make([][3]float64, len(sv.ps)*nb)
	for pi := range sv.ps {
		for b := range nb {
			t := sv.recoveryLength(pi, b)
			rho := sv.phases[b].Rho
			sv.rtab[pi*nb+b] = [3]float64{t, math.Exp(-rho * t), -math.Expm1(-rho * t)}
		}
	}
}

// stateRow is the row of one decision state under one action, kept
// between evaluations (the policy's rows change only where its actions
// do), with its transitions as the equation's states and coefficients.
type stateRow struct {
	act  int
	surv float64
	row  *phaseRow
	to   []int
	coef []float64
}

// entries is the memory of the row in units of 16 bytes.
func (r *stateRow) entries() int64 { return int64(len(r.row.rec) + len(r.row.up) + len(r.to)) }

// newStateRow returns the state row of X(ps[pi], ·) → acts[b] with the
// exit law r and survival surv.
func (sv *Solver) newStateRow(pi, b int, surv float64, r *phaseRow) stateRow {
	sr := stateRow{act: sv.acts[b], surv: surv, row: r}
	sr.to = make([]int, 0, len(r.rec)+len(r.up))
	sr.coef = make([]float64, 0, len(r.rec)+len(r.up))
	base, pb := pi*sv.w, sv.pa(b)*sv.w
	for _, t := range r.rec {
		sr.to, sr.coef = append(sr.to, base+int(t.i)), append(sr.coef, t.p)
	}
	for _, t := range r.up {
		sr.to, sr.coef = append(sr.to, pb+int(t.i)), append(sr.coef, t.p)
	}
	return sr
}

// keepRow stores sr in the slot of decision state x, within
// maxCachedEntries (beyond it the slot is emptied); the row the slot held,
// of another action, becomes the state's previous row (prows), which
// stateRowAt and promoteRow take back when the policy returns to that
// action. Not safe for concurrent use.
func (sv *Solver) keepRow(x int, sr stateRow) {
	r, prev := &sv.srows[x], &sv.prows[x]
	if prev.row != nil && (prev.act == sr.act || (r.row != nil && r.act != sr.act)) {
		sv.cached -= prev.entries()
		*prev = stateRow{}
	}
	if r.row != nil {
		if r.act != sr.act {
			*prev = *r
		} else {
			sv.cached -= r.entries()
		}
		*r = stateRow{}
	}
	if e := sr.entries(); sv.cached+e <= maxCachedEntries {
		sv.cached += e
		*r = sr
	}
}

// promoteRow makes the slot of decision state x hold the row of act when
// the state's previous row is that action's (keepRow), swapping the two;
// it reports whether the slot holds it. It touches the slots of x only,
// so the states of different checkpoint counts may be promoted
// concurrently.
func (sv *Solver) promoteRow(x, act int) bool {
	r, prev := &sv.srows[x], &sv.prows[x]
	if r.row != nil && r.act == act {
		return true
	}
	if prev.row == nil || prev.act != act {
		return false
	}
	*r, *prev = *prev, *r
	return true
}

// stateRowAt returns the row of X(ps[pi], n) → acts[b]: from the decision
// state's slot when it holds that action (or its previous row does,
// promoteRow), else computed and kept there (keepRow). Not safe for
// concurrent use.
func (sv *Solver) stateRowAt(pi, b, n int) (*stateRow, error) {
	x := pi*sv.w + n - sv.lo
	if sv.promoteRow(x, sv.acts[b]) {
		return &sv.srows[x], nil
	}
	blk, _, err := sv.computeBlock(pi, b, n, n)
	if err != nil {
		return nil, err
	}
	sr := sv.newStateRow(pi, b, blk.surv, &blk.rows[0])
	sv.keepRow(x, sr)
	return &sr, nil
}

// computeBlock computes the rows of X(ps[pi], n) → acts[b] for n0 ≤ n ≤
// n1 (n0 ≥ a) and returns them with their number of entries.
func (sv *Solver) computeBlock(pi, b, n0, n1 int) (*phaseBlock, int, error) {
	a := sv.acts[b]
	ph := sv.phases[b]
	t := sv.recoveryLength(pi, b)
	blk := &phaseBlock{n0: n0, surv: ph.Survival(t)}
	if n0 > n1 {
		return blk, 0, nil
	}
	ch, err := sv.chains.Chain(sv.n - a)
	if err != nil {
		return nil, 0, err
	}
	split := sv.byOld && sv.ps[pi] != a
	res, err := sv.resolvent(ph, ch, b, n0, n1)
	if err != nil {
		return nil, 0, fmt.Errorf("optimal: spare chain m = %d: %w", sv.n-a, err)
	}
	rows, err := ph.RowsFrom(ch, res, n0-a, n1-a+1, t, split, decision.RowTol)
	if err != nil {
		return nil, 0, fmt.Errorf("optimal: spare chain m = %d, recovery %g s: %w", sv.n-a, t, err)
	}
	blk.rows = make([]phaseRow, len(rows))
	entries := 0
	for i, r := range rows {
		// One allocation per row, of its exact bound.
		buf := make([]ent, 0, len(r.Rec)+len(r.Up))
		pr := phaseRow{rec: buf[:0:len(r.Rec)]}
		kept := 0.0
		add := func(dst *[]ent, vals []float64) {
			for j, v := range vals {
				if n2 := a - 1 + r.Lo + j; v > 0 && n2 >= sv.lo && n2 <= sv.hi {
					*dst = append(*dst, ent{int32(n2 - sv.lo), v})
					kept += v
				}
			}
		}
		add(&pr.rec, r.Rec)
		pr.up = buf[len(pr.rec):len(pr.rec)]
		add(&pr.up, r.Up)
		if kept <= 0 {
			return nil, 0, fmt.Errorf("optimal: every failure of a run on %d processors leaves the window [%d, %d]", a, sv.lo, sv.hi)
		}
		for j := range pr.rec {
			pr.rec[j].p /= kept
		}
		for j := range pr.up {
			pr.up[j].p /= kept
		}
		pr.drop = max(1-kept, 0)
		blk.rows[i] = pr
		entries += len(pr.rec) + len(pr.up)
	}
	return blk, entries, nil
}

// resolvent returns the resolvent rows of configuration b for the
// decision states n0..n1 (spare counts n − a), those of one state from
// the solver's cache (resCache) when it holds them, else computed and,
// for one state and within maxResEntries, kept there. The rows depend
// on neither p nor the policy nor the interval, so the cache changes no
// result; it is safe for concurrent use (which rows it keeps may depend
// on the scheduling, their values do not).
func (sv *Solver) resolvent(ph decision.Phase, ch *birthdeath.Chain, b, n0, n1 int) (*birthdeath.RowBlock, error) {
	a := sv.acts[b]
	if n0 != n1 || sv.resCache == nil {
		return ph.Resolvent(ch, n0-a, n1-a+1, decision.RowTol)
	}
	slot := &sv.resCache[b*sv.w+n0-sv.lo]
	if res := slot.Load(); res != nil {
		return res, nil
	}
	res, err := ph.Resolvent(ch, n0-a, n1-a+1, decision.RowTol)
	if err != nil {
		return nil, err
	}
	if e := int64(len(res.Rows[0].Q)); sv.resKept.Add(e) <= maxResEntries {
		// A copy of its own size: the row shares a larger slab.
		kept := *res
		kept.Rows = []birthdeath.Row{res.Rows[0]}
		kept.Rows[0].Q = slices.Clone(res.Rows[0].Q)
		slot.Store(&kept)
	}
	return res, nil
}

// maxResEntries bounds the resolvent entries the solver keeps (8 bytes
// each): 2²², 32 MiB; maxResSlots bounds the configurations × window
// states the cache covers (no cache beyond). The cache serves the
// states X(p, n) of every p, so initFast makes it only when R depends
// on p.
const (
	maxResEntries = 1 << 22
	maxResSlots   = 1 << 22
)

// maxFactorEntries bounds the columns of the spare chains'
// factorisations the solver keeps when R depends on p (three float64
// each, split evenly between the configurations' chains,
// birthdeath.Chain.KeepFactors): 2²⁰, 24 MiB. They change no bit.
const maxFactorEntries = 1 << 20

// phaseEquation returns the equation of X(ps[pi], n) under act ≥ 1 in
// the chain of up phases, with the interval v.iv[b] of the configuration.
func (sv *Solver) phaseEquation(v *values, pi, n, act int) equation {
	b := sv.aIdx[act]
	r, err := sv.stateRowAt(pi, b, n)
	if err != nil {
		return equation{err: err}
	}
	ph := sv.phases[b]
	return equation{gc: ph.Sojourn(), rh: r.surv * ph.WorkRate * ph.Useful(v.iv[b]), to: r.to, coef: r.coef}
}

// phaseIntervals returns the interval of each configuration of pol.
func phaseIntervals(pol *Policy) []float64 {
	iv := make([]float64, len(pol.interval))
	for b := range iv {
		iv[b] = pol.interval[b][0]
	}
	return iv
}

// evaluatePhase is evaluate for the chain of up phases: one equation per
// decision state, then solveX.
func (sv *Solver) evaluatePhase(ctx context.Context, pol *Policy, repair bool) (*values, error) {
	v := &values{x0: sv.reference(), iv: phaseIntervals(pol)}
	eqs := make([]equation, sv.nX)
	for x := range eqs {
		if x%sv.w == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		pi, n := x/sv.w, x%sv.w+sv.lo
		eqs[x] = sv.equation(v, pi, n, pol.action[x])
		if eqs[x].err != nil {
			return nil, fmt.Errorf("optimal: decisions on %d processors: %w", pol.action[x], eqs[x].err)
		}
	}
	plan := sv.phasePlan(eqs, pol.action, v.x0)
	if plan.one {
		// solveX's sets in solveX's order (phasesolve.go).
		v.hX, v.closed = make([]float64, sv.nX), plan.in
		if err := sv.solveClosed(v, eqs, plan.closed, pol); err != nil {
			return nil, err
		}
		err := sv.solveTransient(v, eqs, plan)
		if err == nil {
			return v, nil
		}
		if !errors.Is(err, errClosedOutside) {
			return nil, err
		}
		// Another closed class, outside: the general path below.
	}
	if classes := closedClasses(eqs); len(classes) > 1 {
		if !repair {
			return nil, fmt.Errorf("optimal: the policy has %d recurrent classes (a gain each): its evaluation needs a unichain policy", len(classes))
		}
		if err := sv.unichain(v, pol, eqs, classes); err != nil {
			return nil, err
		}
	}
	if err := sv.solveX(v, pol, eqs); err != nil {
		return nil, err
	}
	return v, nil
}

// improvePhase is improveX for the chain of up phases. In each decision
// state it takes the best action in a fixed order (wait, then the
// counts in increasing order; another action must beat the current one
// by more than TieTol), as improveX does, but it computes the exact
// bracket of a decision X(p, n) → a only where an upper bound on it can
// beat the better of the current action and waiting (doc.go,
// "Improvement by bounds"): the actions it skips cannot change the
// result. The bounds come from one killed-resolvent solve per
// configuration (internal/decision, Band); the checkpoint counts p (or,
// with one p, its states) are improved in a pool of Settings.Workers
// goroutines (internal/pool), each task writing only its own results,
// which are applied in increasing order of p, so the result does not
// depend on the number of workers.
//
// When the decision states keep p (R depends on it), improvePhase
// improves only the checkpoint counts p with a state in the closed set
// of the current policy (the states its gain depends on; an improvement
// on a subset of the states is still an improvement), and
// improvePhaseAll every p: policy iteration calls the second when the
// first changes nothing, so that it ends at the same optimum while most
// of its steps skip the transient counts.
func (sv *Solver) improvePhase(ctx context.Context, v *values, pol *Policy) (bool, error) {
	return sv.improvePhaseOn(ctx, v, pol, !sv.byOld)
}

// improvePhaseAll is improvePhase on every checkpoint count p.
func (sv *Solver) improvePhaseAll(ctx context.Context, v *values, pol *Policy) (bool, error) {
	return sv.improvePhaseOn(ctx, v, pol, true)
}

// improvePhaseOn is improvePhase on every p (all) or on those with a
// state in the closed set. The checkpoint counts are independent within
// a pass (each reads v and writes only its own states), so the pool
// (internal/pool) takes one p per task when there are several, and the
// states of the one p otherwise; the actions are set and the rows kept
// in increasing order of p, on the calling goroutine.
func (sv *Solver) improvePhaseOn(ctx context.Context, v *values, pol *Policy, all bool) (bool, error) {
	var ps []int
	for pi := range sv.ps {
		if all || slices.Contains(v.closed[pi*sv.w:(pi+1)*sv.w], true) {
			ps = append(ps, pi)
		}
	}
	// The brackets of the current actions and of waiting first: the
	// least threshold over the slices tells which configurations need
	// their resolvent sums (newPass).
	// One allocation per kind for the whole pass, sliced per p.
	nw := len(ps) * sv.w
	fl := make([]float64, 4*nw)
	acts, rows, curRows := make([]int, nw), make([]*stateRow, nw), make([]stateRow, nw)
	steps := make([]sliceStep, len(ps))
	for i := range steps {
		o, w := i*sv.w, sv.w
		steps[i] = sliceStep{vc: fl[o : o+w : o+w], v0: fl[nw+o : nw+o+w : nw+o+w], thr: fl[2*nw+o : 2*nw+o+w : 2*nw+o+w],
			best: fl[3*nw+o : 3*nw+o+w : 3*nw+o+w], acts: acts[o : o+w : o+w], rows: rows[o : o+w : o+w], curRows: curRows[o : o+w : o+w]}
	}
	cut := math.Inf(1)
	err := pool.Map(ctx, len(ps), sv.set.Workers, func(_ context.Context, i int) (*sliceStep, error) {
		return &steps[i], sv.sliceThresholds(v, pol, ps[i], &steps[i])
	}, func(i int, st *sliceStep) error {
		pi := ps[i]
		for k, r := range st.curRows {
			if r.row != nil {
				sv.keepRow(pi*sv.w+k, r)
			}
		}
		cut = min(cut, st.cut)
		return nil
	})
	if err != nil {
		return false, err
	}
	pass, err := sv.newPass(ctx, v, cut)
	if err != nil {
		return false, err
	}
	stateWorkers := 1
	if len(ps) == 1 {
		stateWorkers = sv.set.Workers
	}
	changed := false
	err = pool.Each(ctx, len(ps), sv.set.Workers, func(ctx context.Context, i int) error {
		return sv.improveSlice(ctx, pass, pol, ps[i], &steps[i], stateWorkers)
	})
	if err != nil {
		return false, err
	}
	for i, pi := range ps {
		st := &steps[i]
		if sv.takeBest(v, pol, pi, st.vc, st.v0, st.acts, st.best) {
			changed = true
		}
		for k, r := range st.rows {
			if x := pi*sv.w + k; r != nil && pol.action[x] == r.act && !sv.promoteRow(x, r.act) {
				sv.keepRow(x, *r)
			}
		}
	}
	return changed, nil
}

// passBounds is what every checkpoint count's step of one improvement
// pass shares, read only: the values, the resolvent sums of every
// configuration (resolventSums) over their kept mass (ratio), the
// largest |h| of each p and each configuration's useful time.
type passBounds struct {
	v            *values
	sums, ratio  [][]float64
	habs, useful []float64
	// order lists the configurations whose blocks are tested with their
	// largest bound (fastConfig.keptMin ≥ 1/2) by decreasing key: key[b]
	// bounds every such block's bound from above but for the terms of
	// the states' own brackets (blockKey); loose lists the others.
	order, loose []int
	key          []float64
}

// newPass computes the passBounds of v.
func (sv *Solver) newPass(ctx context.Context, v *values, cut float64) (*passBounds, error) {
	nb := len(sv.acts)
	ps := &passBounds{v: v, habs: make([]float64, len(sv.ps)), useful: make([]float64, nb), ratio: make([][]float64, nb)}
	hmax := make([]float64, len(sv.ps))
	for pi := range sv.ps {
		hmax[pi] = math.Inf(-1)
		for _, h := range v.hX[pi*sv.w : (pi+1)*sv.w] {
			ps.habs[pi] = max(ps.habs[pi], math.Abs(h))
			hmax[pi] = max(hmax[pi], h)
		}
	}
	for b, ph := range sv.phases {
		ps.useful[b] = ph.Useful(v.iv[b])
	}
	habsAll := 0.0
	for _, h := range ps.habs {
		habsAll = max(habsAll, h)
	}
	// S/K is an average of h(X(a, ·)) over the window, at most its
	// largest: the configurations whose key with that value is at most
	// the least threshold's cut fail every block test without their sums.
	need := make([]bool, nb)
	for b, fc := range sv.fast {
		need[b] = fc != nil && (fc.keptMin < 0.5 || sv.blockKey(v, b, hmax[sv.pa(b)], ps.useful[b], habsAll) > cut)
	}
	sums, err := sv.resolventSums(ctx, v, need)
	if err != nil {
		return nil, err
	}
	ps.sums = sums
	ps.key = make([]float64, nb)
	for b := range nb {
		if sums[b] != nil {
			ps.ratio[b] = make([]float64, len(sums[b]))
			for i, s := range sums[b] {
				ps.ratio[b][i] = s / sv.fast[b].kept[i]
			}
			if sv.fast[b].keptMin >= 0.5 {
				ps.key[b] = sv.blockKey(v, b, slices.Max(ps.ratio[b]), ps.useful[b], habsAll)
				ps.order = append(ps.order, b)
			} else {
				ps.loose = append(ps.loose, b)
			}
		}
	}
	slices.SortStableFunc(ps.order, func(x, y int) int { return cmpf(ps.key[y], ps.key[x]) })
	return ps, nil
}

// blockKey returns the key of configuration b for a pass at v (rmax at
// least the largest of its resolvent sums over their kept mass, useful
// its useful time, habs the largest |h|): for every checkpoint count p,
// the bound that bounds tests first for the whole block (p, b),
//
//	w − g/ρ + max_i (S/K − thr)_i + |T|/K_min + slack,
//
// is at most key − min_k thr_k + 1e-9·max_k |thr_k|: w = e^{−ρt}·ω·u ≤
// max(ω·u, 0), S/K ≤ rmax, |T| ≤ 2·M_max·|h|_max with M_max the
// largest recovery failure mass of b over p (fastConfig.massMax), and the
// slack's terms at their largest, plus 1e-12 of the terms' size for the
// rounding of the two computations. A block whose key is at most
// min thr − 1e-9·max|thr| therefore fails that first test: its actions
// cannot win in any state of the slice.
func (sv *Solver) blockKey(v *values, b int, rmax, useful, habs float64) float64 {
	fc := sv.fast[b]
	ph := sv.phases[b]
	wr := ph.WorkRate * useful
	gt := v.g * ph.Sojourn()
	tAbs := 0.0
	if sv.byOld {
		tAbs = 2 * fc.massMax * habs
	}
	slack := 2*(fc.exitMax+1e-12)*(habs+tAbs)/fc.keptMin + 1e-9*(math.Abs(wr)+math.Abs(gt)+habs+tAbs)
	key := max(wr, 0) - gt + rmax + tAbs/fc.keptMin + slack
	return key + 1e-12*(math.Abs(wr)+math.Abs(gt)+math.Abs(rmax)+habs+tAbs+slack)
}

// sliceStep is the outcome of one improvement step on the states
// X(ps[pi], ·), by offset k = n − lo: the brackets of the current action
// (vc) and of waiting (v0), their maximum (thr), the best count found by
// the bounds (acts, 0 for none) with its bracket (best) and row (rows),
// and the rows of the current actions computed because the solver did
// not hold them (curRows, zero where it did). cut is min thr − 1e-9·
// max |thr| (blockKey).
type sliceStep struct {
	vc, v0, thr, best []float64
	thrAbs, cut       float64
	acts              []int
	rows              []*stateRow
	curRows           []stateRow
}

// boundScratch is the storage of the bounds of one step, reused through
// boundScratches: per state, the counts whose bound beats its threshold.
type boundScratch struct {
	cands [][]cand
}

// cand is a configuration index b with the upper bound ub on its
// bracket in some state.
type cand struct {
	b  int
	ub float64
}

var boundScratches = sync.Pool{New: func() any { return new(boundScratch) }}

// sliceThresholds sets, in st (its slices of length w, zero), the
// brackets of the current actions of X(ps[pi], ·) under pol and of
// waiting (the rest is set by improveSlice). It neither changes pol nor
// keeps rows.
func (sv *Solver) sliceThresholds(v *values, pol *Policy, pi int, st *sliceStep) error {
	w := sv.w
	for k := range w {
		n := sv.lo + k
		act := pol.action[pi*w+k]
		if act > 0 {
			if !sv.promoteRow(pi*w+k, act) {
				// Not held: computed here, kept by the caller.
				blk, _, err := sv.computeBlock(pi, sv.aIdx[act], n, n)
				if err != nil {
					return fmt.Errorf("optimal: decisions on %d processors: %w", act, err)
				}
				st.curRows[k] = sv.newStateRow(pi, sv.aIdx[act], blk.surv, &blk.rows[0])
			}
		}
		st.vc[k] = sv.sliceValue(v, pi, n, act, &st.curRows[k])
		st.v0[k] = sv.xValue(v, pi, n, 0)
	}
	thrMin := math.Inf(1)
	for k := range w {
		st.thr[k] = max(st.vc[k], st.v0[k])
		st.thrAbs = max(st.thrAbs, math.Abs(st.thr[k]))
		thrMin = min(thrMin, st.thr[k])
	}
	st.cut = thrMin - 1e-9*st.thrAbs
	return nil
}

// improveSlice completes st, the sliceStep of X(ps[pi], ·) under pol
// (sliceThresholds), with the best count of each state by the bounds
// of pass, its states' candidates in a pool of stateWorkers goroutines.
// It neither changes pol nor keeps rows.
func (sv *Solver) improveSlice(ctx context.Context, pass *passBounds, pol *Policy, pi int, st *sliceStep, stateWorkers int) error {
	v := pass.v
	w := sv.w
	sc := boundScratches.Get().(*boundScratch)
	defer boundScratches.Put(sc)
	if len(sc.cands) != w {
		sc.cands = make([][]cand, w)
	}
	cands := sc.cands
	for k := range cands {
		cands[k] = cands[k][:0]
	}
	// The blocks by decreasing key, down to the first whose key shows
	// that it and every block after it fail their first test (blockKey),
	// then the blocks without that test.
	for _, b := range pass.order {
		if !(pass.key[b] > st.cut) {
			break
		}
		sv.bounds(v, pol, pi, b, pass.sums[b], pass.ratio[b], pass.habs, pass.useful, st.thr, st.thrAbs, cands)
	}
	for _, b := range pass.loose {
		sv.bounds(v, pol, pi, b, pass.sums[b], pass.ratio[b], pass.habs, pass.useful, st.thr, st.thrAbs, cands)
	}
	return pool.Each(ctx, w, stateWorkers, func(_ context.Context, k int) error {
		a, vb, row, err := sv.bestByBounds(v, pi, k, st.thr[k], cands[k])
		st.best[k] = math.NaN()
		if a > 0 {
			st.best[k] = vb
		}
		st.acts[k], st.rows[k] = a, row
		return err
	})
}

// sliceValue is xValue for X(ps[pi], n) under act, with the row of act
// from the solver when it holds it, else cur (improveSlice computed it).
func (sv *Solver) sliceValue(v *values, pi, n, act int, cur *stateRow) float64 {
	if act == 0 {
		return sv.xValue(v, pi, n, 0)
	}
	r := cur
	if cur.row == nil {
		r = &sv.srows[pi*sv.w+n-sv.lo]
	}
	b := sv.aIdx[act]
	ph := sv.phases[b]
	e := equation{gc: ph.Sojourn(), rh: r.surv * ph.WorkRate * ph.Useful(v.iv[b]), to: r.to, coef: r.coef}
	s := e.rh - v.g*e.gc
	for k, y := range e.to {
		s += e.coef[k] * v.hX[y]
	}
	return s
}

// resolventSums returns, for every configuration b with decision rows in
// the window, Σ_{n'} Q_∞[n − a, n' − a + 1]·h(X(a, n')) over the window's
// n' for its rows n = max(lo, a), …, hi, with Q_∞ the resolvent of the
// spare chain killed outside its band (fastConfig): the part of every
// bracket of the block that does not depend on p. Only the
// configurations with need[b] are computed (nil for the others).
func (sv *Solver) resolventSums(ctx context.Context, v *values, need []bool) ([][]float64, error) {
	out := make([][]float64, len(sv.acts))
	err := pool.Map(ctx, len(sv.acts), sv.set.Workers, func(_ context.Context, b int) ([]float64, error) {
		fc := sv.fast[b]
		if fc == nil || !need[b] {
			return nil, nil
		}
		a := sv.acts[b]
		sc := bandScratch.Get().(*bandWork)
		defer bandScratch.Put(sc)
		bd := fc.band
		if bd == nil {
			bd = &sc.bd
			bd.Reset(sv.n-a, sv.lambda, sv.theta, sv.phases[b].Rho, fc.b0, fc.b1)
		}
		// f[j] = h(X(a, n')) for n' = a − 1 + B0 + j in the window, 0
		// outside it.
		k := bd.B1 - bd.B0 + 1
		f := slices.Grow(sc.f[:0], k)[:k]
		hp := v.hX[sv.pa(b)*sv.w : (sv.pa(b)+1)*sv.w]
		j0 := min(max(sv.lo-(a-1+bd.B0), 0), k)
		j1 := max(min(sv.hi-(a-1+bd.B0)+1, k), j0)
		clear(f[:j0])
		if j0 < j1 {
			copy(f[j0:j1], hp[a-1+bd.B0+j0-sv.lo:])
		}
		clear(f[j1:])
		r0 := fc.n0 - a - bd.B0
		sc.f = bd.ApplyRows(f, f, r0)
		return slices.Clone(sc.f[r0 : r0+len(fc.kept)]), nil
	}, func(b int, sum []float64) error {
		out[b] = sum
		return nil
	})
	return out, err
}

// bandWork is the storage of one killed-resolvent solve, reused through
// bandScratch by the goroutines of resolventSums.
type bandWork struct {
	bd decision.Band
	f  []float64
}

var bandScratch = sync.Pool{New: func() any { return new(bandWork) }}

// fastConfig is what the bounds of improvePhase need of configuration b
// that depends on neither the policy nor p: the band of spare counts its
// killed resolvent lives on, and for each decision row n = n0, …, hi
// (n0 = max(lo, a)) the resolvent's mass on the window's columns (kept)
// and the probability of leaving the band before the failure (exit).
type fastConfig struct {
	b0, b1     int
	n0         int
	kept, exit []float64
	// keptMin and exitMax are the least kept and the largest exit.
	keptMin, exitMax float64
	// massMax is the largest failure mass 1 − e^{−ρt} of the recovery
	// over the checkpoint counts p (t = R(p, a) + L(a)).
	massMax float64
	// band is the factorised killed resolvent, kept within
	// maxBandEntries (nil beyond: factorised again at each use).
	band *decision.Band
}

// maxBandEntries bounds the band states whose factorisations initFast
// keeps (four float64 each): 2²¹ states, 64 MiB. The factorisation
// depends on neither the policy nor the interval, so keeping it changes
// no result.
const maxBandEntries = 1 << 21

// bandMargin is the number of spare counts the band of a configuration
// extends beyond the rows and columns of the window, in units of the
// window's width (plus two): a path of the spare chain that leaves it
// before the failure is counted in exit and widens the bounds, never
// lost.
const bandMargin = 1

// initFast computes the fastConfig of every configuration with decision
// rows in the window.
func (sv *Solver) initFast() error {
	sv.fast = make([]*fastConfig, len(sv.acts))
	if len(sv.ps) > 1 && len(sv.acts)*sv.w <= maxResSlots {
		// With one checkpoint count the rows are rarely asked for twice
		// (measured: the cache cost more than it saved).
		sv.resCache = make([]atomic.Pointer[birthdeath.RowBlock], len(sv.acts)*sv.w)
		// The recovery rows (Q_t) of X(p, n) → a are new for every p, one
		// row per call; their factorisations of ρI − G_m are not.
		if err := sv.chains.KeepFactors(maxFactorEntries / len(sv.acts)); err != nil {
			return fmt.Errorf("optimal: %w", err)
		}
	}
	keptBand := 0 // band states whose factorisation is kept
	var scratch []float64
	for b, a := range sv.acts {
		n0 := max(sv.lo, a)
		if n0 > sv.hi {
			continue
		}
		m := sv.n - a
		// Rows s = n − a, columns s' = n' − a + 1, both clamped to 0..m.
		lo := max(min(n0-a, sv.lo-a+1), 0)
		hi := min(max(sv.hi-a, sv.hi-a+1), m)
		k := bandMargin*sv.w + 2
		fc := &fastConfig{b0: max(lo-k, 0), b1: min(hi+k, m), n0: n0}
		sv.fast[b] = fc
		bd := sv.band(b)
		ones := slices.Grow(scratch[:0], bd.B1-bd.B0+1)[:bd.B1-bd.B0+1]
		for j := range ones {
			ones[j] = 0
			if n2 := a - 1 + bd.B0 + j; n2 >= sv.lo && n2 <= sv.hi {
				ones[j] = 1
			}
		}
		r0, r1 := n0-a-bd.B0, sv.hi-a-bd.B0+1
		kept := bd.ApplyRows(ones, ones, r0)
		fc.kept = slices.Clone(kept[r0:r1])
		exit := bd.ExitRows(kept, r0)
		fc.exit = slices.Clone(exit[r0:r1])
		scratch = exit
		fc.keptMin, fc.exitMax = slices.Min(fc.kept), slices.Max(fc.exit)
		for pi := range sv.ps {
			_, _, mass := sv.recovery(pi, b)
			fc.massMax = max(fc.massMax, mass)
		}
		if k := bd.B1 - bd.B0 + 1; keptBand+k <= maxBandEntries {
			fc.band, keptBand = bd, keptBand+k
		}
	}
	return nil
}

// band returns the killed resolvent of configuration b on its band.
func (sv *Solver) band(b int) *decision.Band {
	fc := sv.fast[b]
	return decision.NewBand(sv.n-sv.acts[b], sv.lambda, sv.theta, sv.phases[b].Rho, fc.b0, fc.b1)
}

// bounds appends {b, ub} to cands[k], for the states X(ps[pi], lo + k),
// with ub an upper bound on the bracket of the decision → acts[b], where
// that bound exceeds thr, the better of the current action and waiting
// (thrAbs the largest |thr|; ratio is sums over the resolvent's mass),
// and not where it does not (the action cannot win there) or where
// acts[b] is the current action (doc.go, "Improvement by bounds"). The
// bound is
//
//	w − g/ρ + (S + T)/K + slack,
//
// with S the killed resolvent's sum of h(X(a, ·)) over the window (sums),
// K its mass there, and, when the failures in the recovery keep p ≠ a,
// T ≥ Σ Q_t·(h(X(p, ·)) − h(X(a, ·))) over the window (splitBound). The
// slack covers the band's exit probability e (2(e + 1e-12)(|h| + |T|)/K)
// and rounding (1e-9 of the terms' size); a row with K < 1/2 gets +∞.
func (sv *Solver) bounds(v *values, pol *Policy, pi, b int, sums, ratio, habs, useful, thr []float64, thrAbs float64, cands [][]cand) {
	a := sv.acts[b]
	fc := sv.fast[b]
	ph := sv.phases[b]
	pb := sv.pa(b)
	t, surv, mass := sv.recovery(pi, b)
	w := surv * ph.WorkRate * useful[b]
	gt := v.g * ph.Sojourn()
	split := sv.byOld && pb != pi
	habsT := max(habs[pi], habs[pb])
	if fc.keptMin >= 0.5 {
		// The whole block first: every row's bound is at most
		// w − g/ρ + max(S/K − thr) + M·2|h|/K_min + the largest slack
		// (|T| ≤ M·2|h|).
		k0 := fc.n0 - sv.lo
		diff := math.Inf(-1)
		for i, r := range ratio {
			diff = max(diff, r-thr[k0+i])
		}
		tAbs := 0.0
		if split {
			tAbs = 2 * mass * habsT
		}
		slack := 2*(fc.exitMax+1e-12)*(habsT+tAbs)/fc.keptMin + 1e-9*(math.Abs(w)+math.Abs(gt)+habsT+tAbs+thrAbs)
		if w-gt+diff+tAbs/fc.keptMin+slack <= 0 {
			return
		}
	}
	dmax := 0.0
	var hp, ha []float64
	if split {
		hp, ha = v.hX[pi*sv.w:(pi+1)*sv.w], v.hX[pb*sv.w:(pb+1)*sv.w]
		dmax = math.Inf(-1)
		for k := range sv.w {
			dmax = max(dmax, hp[k]-ha[k])
		}
	}
	m := sv.n - a
	for i, kept := range fc.kept {
		n := fc.n0 + i
		k := n - sv.lo
		if pol.action[pi*sv.w+k] == a {
			continue // its value is vc
		}
		if kept < 0.5 {
			cands[k] = append(cands[k], cand{b, math.Inf(1)})
			continue
		}
		tt := 0.0
		if split {
			tt = sv.splitBound(hp, ha, k, n-a, m, t, mass, dmax)
		}
		ub := w - gt + (sums[i]+tt)/kept
		ub += 2*(fc.exit[i]+1e-12)*(habsT+math.Abs(tt))/kept + 1e-9*(math.Abs(w)+math.Abs(gt)+habsT+math.Abs(tt)+math.Abs(thr[k]))
		if ub > thr[k] {
			cands[k] = append(cands[k], cand{b, ub})
		}
	}
}

// bestByBounds returns, for the state X(ps[pi], lo + k), the count a
// whose exact bracket is the largest among the candidates cs (the counts
// whose bound is above the state's threshold thr, bounds), and that
// bracket (a = 0: none beats thr). It computes the exact brackets in
// decreasing order of bound (equal bounds by increasing count) and stops
// when the next bound is below the best bracket found: the counts left
// cannot reach it. Equal brackets go to the smaller count, as in
// takeBest's order. It reorders cs.
func (sv *Solver) bestByBounds(v *values, pi, k int, thr float64, cs []cand) (int, float64, *stateRow, error) {
	if len(cs) > 1 {
		slices.SortFunc(cs, func(x, y cand) int {
			if c := cmpf(y.ub, x.ub); c != 0 {
				return c
			}
			return x.b - y.b
		})
	}
	n := sv.lo + k
	bestA, bestB, bestV := 0, 0, thr
	var bestBlk *phaseBlock
	for _, c := range cs {
		if c.ub < bestV {
			break
		}
		blk, _, err := sv.computeBlock(pi, c.b, n, n)
		if err != nil {
			return 0, 0, nil, err
		}
		val := sv.rowBracket(v, pi, c.b, blk.surv, &blk.rows[0])
		a := sv.acts[c.b]
		if val > bestV || (val == bestV && bestA > 0 && a < bestA) {
			bestA, bestB, bestV, bestBlk = a, c.b, val, blk
		}
	}
	if bestBlk == nil {
		return 0, bestV, nil, nil
	}
	// The state row of the winner only.
	sr := sv.newStateRow(pi, bestB, bestBlk.surv, &bestBlk.rows[0])
	return bestA, bestV, &sr, nil
}

// splitBound bounds Σ_y Q_t[s, y]·d(y) from above, d = h(X(p, ·)) −
// h(X(a, ·)) (hp − ha by window offset, 0 outside the window, where the
// failures leave it), for the recovery of length t from spare count s on
// a = n − s processors (k = n − lo, m = N − a): the failures before t,
// of mass M = 1 − e^{−ρt} (mass), split by the moves of the spare chain
// before them (each independent of the failure clock). With ν_j = jλ +
// (m − j)θ the rate of moving from j: no move (mass q ≥ M·e^{−ν_s·t} ≥
// M(1 − ν_s·t)) lands on s itself; two moves or more (mass r ≤
// M·ν_s·ν'·t²/2, ν' = max(ν_{s−1}, ν_{s+1}), since the sum of two
// exponential times is below t with at most that probability) land
// anywhere (d ≤ max(0, dmax)); exactly one lands on s ± 1. The bound is
// the largest Σ over those masses: r at its bound, and the rest on s at
// its least, or all on s if d(s) is at least d(s ± 1).
func (sv *Solver) splitBound(hp, ha []float64, k, s, m int, t, mass, dmax float64) float64 {
	d := func(j int) float64 { // d at the functional count n − 1 + j
		if k-1+j < 0 || k-1+j >= sv.w {
			return 0
		}
		return hp[k-1+j] - ha[k-1+j]
	}
	nu := func(j int) float64 {
		if j < 0 || j > m {
			return 0
		}
		return float64(j)*sv.lambda + float64(m-j)*sv.theta
	}
	ns := nu(s)
	r := min(mass*ns*max(nu(s-1), nu(s+1))*t*t/2, mass)
	q0 := min(mass*max(1-ns*t, 0), mass-r)
	d0, d1 := d(0), max(d(-1), d(1))
	if d0 >= d1 {
		return (mass-r)*d0 + r*max(dmax, 0)
	}
	return q0*d0 + (mass-r-q0)*d1 + r*max(dmax, 0)
}

// takeBest sets, in every state X(ps[pi], lo + k), the best action
// among the current one (value vc), waiting (v0) and the count acts[k]
// (value best[k]; none when acts[k] = 0), in the order wait, then the
// count; another action must beat the current one by more than TieTol.
// It reports whether an action changed. With acts[k] the first count
// with the largest bracket (bestByBounds), this is the rule of the
// exhaustive search: wait, then the counts in increasing order, each
// taken when strictly better.
func (sv *Solver) takeBest(v *values, pol *Policy, pi int, vc, v0 []float64, acts []int, best []float64) bool {
	changed := false
	for n := sv.lo; n <= sv.hi; n++ {
		k := n - sv.lo
		x := pi*sv.w + k
		cur := pol.action[x]
		scale := math.Abs(vc[k]) + math.Abs(v.g)*sv.tauX(pi, n, cur)
		bestA, vb := cur, vc[k]
		if cur != 0 && v0[k] > vb {
			bestA, vb = 0, v0[k]
		}
		if a := acts[k]; a > 0 && a != cur && best[k] > vb {
			bestA, vb = a, best[k]
		}
		if bestA != cur && vb > vc[k]+sv.set.TieTol*scale {
			pol.action[x] = bestA
			changed = true
		}
	}
	return changed
}

// rowBracket returns the bracket w − g·τ + Σ P·h of the decision
// X(ps[pi], ·) → acts[b] whose row is r (survival surv).
func (sv *Solver) rowBracket(v *values, pi, b int, surv float64, r *phaseRow) float64 {
	ph := sv.phases[b]
	s := surv*ph.WorkRate*ph.Useful(v.iv[b]) - v.g*ph.Sojourn()
	base, pb := pi*sv.w, sv.pa(b)*sv.w
	for _, t := range r.rec {
		s += t.p * v.hX[base+int(t.i)]
	}
	for _, t := range r.up {
		s += t.p * v.hX[pb+int(t.i)]
	}
	return s
}

// finishPhase is finish for the chain of up phases: the stationary law π
// of the decision states reachable from x₀ under pol, and from it UWT by
// renewal–reward, the dropped mass, and the mass of each configuration
// in the jump chain of docs/optimal-policy.md (a decision state, then
// each committed up segment a state): a decision X → a is followed by
// V = e^{−ρ(R+L)}/(1 − e^{−ρT}) up states on a on average.
func (sv *Solver) finishPhase(ctx context.Context, pol *Policy, v *values, r *Result) error {
	ns := sv.nX
	var rows, cols []int
	var vals []float64
	tau, work, drop, visits := make([]float64, ns), make([]float64, ns), make([]float64, ns), make([]float64, ns)
	for x := range ns {
		pi, n := x/sv.w, x%sv.w+sv.lo
		e := sv.equation(v, pi, n, pol.action[x])
		if e.err != nil {
			return e.err
		}
		for k, y := range e.to {
			rows, cols, vals = append(rows, x), append(cols, y), append(vals, e.coef[k])
		}
		tau[x], work[x] = e.gc, e.rh
		if a := pol.action[x]; a > 0 {
			b := sv.aIdx[a]
			sr, err := sv.stateRowAt(pi, b, n)
			if err != nil {
				return err
			}
			drop[x] = sr.row.drop
			ph := sv.phases[b]
			visits[x] = sr.surv / -math.Expm1(-ph.Rho*(v.iv[b]+ph.Latency))
		} else {
			drop[x] = sv.waitRow(n).drop
		}
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	sub, st, err := stationaryFrom(v.x0, ns, rows, cols, vals)
	if err != nil {
		return err
	}
	var piS, wS, tS []float64
	r.Mass = map[int]float64{}
	jumps := 0.0
	for k, x := range sub {
		p := st.Pi[k]
		if p <= 0 {
			continue
		}
		piS, wS, tS = append(piS, p), append(wS, work[x]), append(tS, tau[x])
		r.Dropped += p * drop[x]
		jumps += p * (1 + visits[x])
		if a := pol.action[x]; a > 0 {
			r.Mass[a] += p * visits[x]
		}
	}
	r.Dropped /= jumps // per jump of the chain with up states, as Result.Dropped says
	r.MeanInterval = map[int]float64{}
	for a := range r.Mass {
		r.Mass[a] /= jumps
		r.MeanInterval[a] = v.iv[sv.aIdx[a]]
	}
	g, err := markov.RenewalReward(piS, wS, tS)
	if err != nil {
		return fmt.Errorf("optimal: %w", err)
	}
	r.RenewalReward = g
	r.Residual = st.Residual
	r.States = ns
	r.Recurrent = len(piS)
	r.UWT = v.g
	r.Policy = pol
	return nil
}

// stationaryFrom solves the chain of the transitions (rows, cols, vals)
// over ns states restricted to the states reachable from x0 (the
// recurrent class is reachable from every state: the functional count can
// always fall to zero): it returns those states and their stationary law.
func stationaryFrom(x0, ns int, rows, cols []int, vals []float64) ([]int, markov.Result, error) {
	sub, rows, cols, vals := reachableFrom(x0, ns, rows, cols, vals)
	chain, err := markov.FromCOO(sub, rows, cols, vals, &markov.BuildSettings{Renormalise: true})
	if err != nil {
		return nil, markov.Result{}, fmt.Errorf("optimal: %w", err)
	}
	st, err := chain.Stationary(nil)
	if err != nil && !errors.Is(err, markov.ErrNoConvergence) {
		return nil, markov.Result{}, fmt.Errorf("optimal: stationary distribution: %w", err)
	}
	return sub, st, nil
}

// reachableFrom restricts the transitions (rows, cols, vals) over ns
// states to the states reachable from x0, renumbered in increasing
// order: it returns those states and the transitions among them.
func reachableFrom(x0, ns int, rows, cols []int, vals []float64) ([]int, []int, []int, []float64) {
	// The successors as compressed rows: two allocations, not one a state.
	ptr, adj := graph.Compress(ns, rows, cols)
	seen := make([]bool, ns)
	seen[x0] = true
	graph.Search(ptr, adj, nil, seen, []int{x0})
	idx, sub := graph.Renumber[int](seen)
	keep := 0
	for e := range rows {
		if seen[rows[e]] {
			rows[keep], cols[keep], vals[keep] = idx[rows[e]], idx[cols[e]], vals[e]
			keep++
		}
	}
	return sub, rows[:keep], cols[:keep], vals[:keep]
}
