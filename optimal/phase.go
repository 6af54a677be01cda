package optimal

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/ckpt-markov/markov/internal/decision"
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

// maxCachedEntries bounds the row entries the solver keeps between
// improvements (16 bytes each): beyond it, blocks are recomputed when
// needed instead of kept (the rows never depend on the policy or the
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

// phaseBlock returns the block of X(ps[pi], ·) → acts[b] from the cache,
// or computed, with its number of entries (0 when cached). It is safe for
// concurrent use; keep caches a computed block, from one goroutine, so
// that what the cache holds depends on the order of the calls to keep
// only, not on the scheduling of the goroutines.
func (sv *Solver) phaseBlock(pi, b int) (*phaseBlock, int, error) {
	if blk := sv.pcache[pi*len(sv.acts)+b]; blk != nil {
		return blk, 0, nil
	}
	return sv.computeBlock(pi, b, max(sv.lo, sv.acts[b]), sv.hi)
}

// keep caches the block (pi, b) of the given number of entries while the
// cache holds fewer than maxCachedEntries; 0 entries means already cached.
func (sv *Solver) keep(pi, b int, blk *phaseBlock, entries int) {
	if entries == 0 || sv.cached+int64(entries) > maxCachedEntries {
		return
	}
	sv.cached += int64(entries)
	sv.pcache[pi*len(sv.acts)+b] = blk
}

// phaseRowAt returns the row of X(ps[pi], n) → acts[b] and its block's
// survival: from the cached block, else computed alone (not cached).
func (sv *Solver) phaseRowAt(pi, b, n int) (*phaseRow, float64, error) {
	if blk := sv.pcache[pi*len(sv.acts)+b]; blk != nil {
		return &blk.rows[n-blk.n0], blk.surv, nil
	}
	blk, _, err := sv.computeBlock(pi, b, n, n)
	if err != nil {
		return nil, 0, err
	}
	return &blk.rows[0], blk.surv, nil
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
	rows, err := ph.Rows(ch, n0-a, n1-a+1, t, split, decision.RowTol)
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

// phaseEquation returns the equation of X(ps[pi], n) under act ≥ 1 in
// the chain of up phases, with the interval v.iv[b] of the configuration.
func (sv *Solver) phaseEquation(v *values, pi, n, act int) equation {
	b := sv.aIdx[act]
	r, surv, err := sv.phaseRowAt(pi, b, n)
	if err != nil {
		return equation{err: err}
	}
	ph := sv.phases[b]
	e := equation{gc: ph.Sojourn(), rh: surv * ph.WorkRate * ph.Useful(v.iv[b])}
	e.to = make([]int, 0, len(r.rec)+len(r.up))
	e.coef = make([]float64, 0, len(r.rec)+len(r.up))
	base, pb := pi*sv.w, sv.pa(b)*sv.w
	for _, t := range r.rec {
		e.to, e.coef = append(e.to, base+int(t.i)), append(e.coef, t.p)
	}
	for _, t := range r.up {
		e.to, e.coef = append(e.to, pb+int(t.i)), append(e.coef, t.p)
	}
	return e
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
// by more than TieTol), as improveX does, but it computes the brackets
// of a block (p, a) only when the block can win somewhere: every
// bracket of the block is at most
//
//	max(ω(a)·Useful(I(a)), 0) − g/(aλ) + max h over X(p, ·) and X(a, ·)
//
// (the recovery's survival is at most 1 and each row a probability law),
// and a block whose bound does not exceed, in any of its states, the
// better of the current action and waiting cannot change an action.
// The blocks that can are computed in a pool of Settings.Workers
// goroutines, each block by one goroutine, so the result does not depend
// on the number of workers.
//
// When the decision states keep p (R depends on it), improvePhase
// improves only the checkpoint counts p with a state in the closed set
// of the current policy (the states its gain depends on; an improvement
// on a subset of the states is still an improvement), and
// improvePhaseAll every p: policy iteration calls the second when the
// first changes nothing, so that it ends at the same optimum while most
// of its steps skip the blocks of the transient counts.
func (sv *Solver) improvePhase(ctx context.Context, v *values, pol *Policy) (bool, error) {
	return sv.improvePhaseOn(ctx, v, pol, !sv.byOld)
}

// improvePhaseAll is improvePhase on every checkpoint count p.
func (sv *Solver) improvePhaseAll(ctx context.Context, v *values, pol *Policy) (bool, error) {
	return sv.improvePhaseOn(ctx, v, pol, true)
}

// improvePhaseOn is improvePhase on every p (all) or on those with a
// state in the closed set.
func (sv *Solver) improvePhaseOn(ctx context.Context, v *values, pol *Policy, all bool) (bool, error) {
	nb := len(sv.acts)
	hmax := make([]float64, len(sv.ps))
	for pi := range sv.ps {
		hmax[pi] = math.Inf(-1)
		for _, h := range v.hX[pi*sv.w : (pi+1)*sv.w] {
			hmax[pi] = max(hmax[pi], h)
		}
	}
	ub := make([]float64, nb)
	for b, ph := range sv.phases {
		ub[b] = max(ph.WorkRate*ph.Useful(v.iv[b]), 0) - v.g*ph.Sojourn()
	}
	vals := make([][]float64, nb)
	need := make([]bool, nb)
	got, size := make([]*phaseBlock, nb), make([]int, nb)
	var res [][]float64
	if sv.byOld {
		var err error
		if res, err = sv.resolventSums(ctx, v); err != nil {
			return false, err
		}
	}
	vc, v0, thr := make([]float64, sv.w), make([]float64, sv.w), make([]float64, sv.w+1)
	changed := false
	for pi := range sv.ps {
		if err := ctx.Err(); err != nil {
			return false, err
		}
		if !all && !slices.Contains(v.closed[pi*sv.w:(pi+1)*sv.w], true) {
			continue
		}
		// thr[k]: the least, over the counts n ≥ lo + k, of the better
		// of the current action and waiting.
		thr[sv.w] = math.Inf(1)
		for k := sv.w - 1; k >= 0; k-- {
			n := sv.lo + k
			vc[k] = sv.xValue(v, pi, n, pol.action[pi*sv.w+k])
			v0[k] = sv.xValue(v, pi, n, 0)
			thr[k] = min(max(vc[k], v0[k]), thr[k+1])
		}
		for b, a := range sv.acts {
			k := max(sv.lo, a) - sv.lo
			bound := ub[b] + max(hmax[pi], hmax[sv.pa(b)])
			slack := 1e-12 * (math.Abs(ub[b]) + math.Abs(hmax[pi]) + math.Abs(hmax[sv.pa(b)]) + math.Abs(thr[min(k, sv.w)]))
			need[b] = k < sv.w && bound+slack > thr[k]
			if need[b] && sv.byOld && sv.pa(b) != pi {
				need[b] = sv.splitNeeded(v, pi, b, res[b], vc, v0)
			}
		}
		if err := sv.forBlocks(ctx, func(b int) error {
			if !need[b] {
				return nil
			}
			blk, entries, err := sv.phaseBlock(pi, b)
			if err != nil {
				return err
			}
			vals[b] = sv.blockBrackets(v, pi, b, blk, vals[b])
			got[b], size[b] = blk, entries
			return nil
		}, func(b int) {
			if got[b] != nil {
				sv.keep(pi, b, got[b], size[b])
				got[b] = nil
			}
		}); err != nil {
			return false, err
		}
		if sv.takeBest(v, pol, pi, vc, v0, vals, need) {
			changed = true
		}
	}
	return changed, nil
}

// resolventSums returns, for every configuration b and functional count
// n ≥ a of the window, Σ_y Q(y)·h(X(a, y)) over the row of the
// decision X(a, n) → a (no split: every failure carries a), by offset
// from the block's first count: the part of a bracket that does not
// depend on p (splitNeeded).
func (sv *Solver) resolventSums(ctx context.Context, v *values) ([][]float64, error) {
	out := make([][]float64, len(sv.acts))
	got, size := make([]*phaseBlock, len(sv.acts)), make([]int, len(sv.acts))
	err := sv.forBlocks(ctx, func(b int) error {
		pb := sv.pa(b)
		blk, entries, err := sv.phaseBlock(pb, b)
		if err != nil {
			return err
		}
		got[b], size[b] = blk, entries
		out[b] = make([]float64, len(blk.rows))
		for i := range blk.rows {
			s := 0.0
			for _, t := range blk.rows[i].rec {
				s += t.p * v.hX[pb*sv.w+int(t.i)]
			}
			out[b][i] = s
		}
		return nil
	}, func(b int) {
		sv.keep(sv.pa(b), b, got[b], size[b])
		got[b] = nil
	})
	return out, err
}

// splitNeeded reports whether a decision X(p, n) → a with p ≠ a (rows
// split between the failures in the recovery, to X(p, ·), and in the up
// phase, to X(a, ·)) can beat the better of the current action and
// waiting (vc, v0) in some state of block (pi, b), without computing its
// rows. Its bracket is at most
//
//	w − g/ρ + Σ Q_∞·h(X(a, ·)) + (1 − e^{−ρ(R+L)})·max(0, max_y h(X(p, y)) − h(X(a, y))):
//
// the failures in the recovery, of mass at most 1 − e^{−ρ(R+L)}, are the
// resolvent's moved from X(a, y) to X(p, y). A slack of 1e-9 of the
// terms' size covers the renormalisation over the window and rounding.
func (sv *Solver) splitNeeded(v *values, pi, b int, res []float64, vc, v0 []float64) bool {
	a := sv.acts[b]
	ph := sv.phases[b]
	pb := sv.pa(b)
	d := 0.0
	for k := range sv.w {
		d = max(d, v.hX[pi*sv.w+k]-v.hX[pb*sv.w+k])
	}
	surv := ph.Survival(sv.recoveryLength(pi, b))
	w := surv * ph.WorkRate * ph.Useful(v.iv[b])
	gt := v.g * ph.Sojourn()
	extra := -math.Expm1(-ph.Rho*sv.recoveryLength(pi, b)) * d
	n0 := max(sv.lo, a)
	for i, r := range res {
		k := n0 + i - sv.lo
		thr := max(vc[k], v0[k])
		bound := w - gt + r + extra
		slack := 1e-9 * (math.Abs(w) + math.Abs(gt) + math.Abs(r) + math.Abs(extra) + math.Abs(thr))
		if bound+slack > thr {
			return true
		}
	}
	return false
}

// takeBest sets, in every state X(ps[pi], ·), the best action among the
// current one (value vc), waiting (v0) and the counts of the blocks
// computed (vals where need), in the fixed order wait, then counts
// increasing; another action must beat the current one by more than
// TieTol. It reports whether an action changed.
func (sv *Solver) takeBest(v *values, pol *Policy, pi int, vc, v0 []float64, vals [][]float64, need []bool) bool {
	changed := false
	for n := sv.lo; n <= sv.hi; n++ {
		k := n - sv.lo
		x := pi*sv.w + k
		cur := pol.action[x]
		scale := math.Abs(vc[k]) + math.Abs(v.g)*sv.tauX(pi, n, cur)
		best, vb := cur, vc[k]
		if cur != 0 && v0[k] > vb {
			best, vb = 0, v0[k]
		}
		for b, a := range sv.acts {
			if a > n {
				break
			}
			if a == cur || !need[b] {
				continue
			}
			if va := vals[b][n-max(sv.lo, a)]; va > vb {
				best, vb = a, va
			}
		}
		if best != cur && vb > vc[k]+sv.set.TieTol*scale {
			pol.action[x] = best
			changed = true
		}
	}
	return changed
}

// blockBrackets returns the brackets w − g·τ + Σ P·h of the decisions of
// block (pi, b), by functional count from the block's n0, in buf's
// storage.
func (sv *Solver) blockBrackets(v *values, pi, b int, blk *phaseBlock, buf []float64) []float64 {
	ph := sv.phases[b]
	w := blk.surv * ph.WorkRate * ph.Useful(v.iv[b])
	gt := v.g * ph.Sojourn()
	base, pb := pi*sv.w, sv.pa(b)*sv.w
	buf = buf[:0]
	for i := range blk.rows {
		r := &blk.rows[i]
		s := w - gt
		for _, t := range r.rec {
			s += t.p * v.hX[base+int(t.i)]
		}
		for _, t := range r.up {
			s += t.p * v.hX[pb+int(t.i)]
		}
		buf = append(buf, s)
	}
	return buf
}

// blockChunk is the number of configurations forBlocks hands to its pool
// at a time: the blocks of a chunk are alive together.
const blockChunk = 64

// forBlocks calls f(b) for every configuration index b, in a pool of
// Settings.Workers goroutines, chunk by chunk (blockChunk), and after each
// chunk then(b) for its b in increasing order on the calling goroutine
// (nil: nothing); it returns the first error by b.
func (sv *Solver) forBlocks(ctx context.Context, f func(b int) error, then func(b int)) error {
	nb := len(sv.acts)
	errs := make([]error, nb)
	for b0 := 0; b0 < nb; b0 += blockChunk {
		b1 := min(b0+blockChunk, nb)
		if err := ctx.Err(); err != nil {
			return err
		}
		workers := min(sv.set.Workers, b1-b0)
		if workers <= 1 {
			for b := b0; b < b1; b++ {
				errs[b] = f(b)
			}
		} else {
			next := atomic.Int64{}
			next.Store(int64(b0))
			var wg sync.WaitGroup
			for range workers {
				wg.Go(func() {
					for {
						b := int(next.Add(1)) - 1
						if b >= b1 || ctx.Err() != nil {
							return
						}
						errs[b] = f(b)
					}
				})
			}
			wg.Wait()
		}
		if err := errors.Join(errs[b0:b1]...); err != nil {
			return err
		}
		if then != nil {
			for b := b0; b < b1; b++ {
				then(b)
			}
		}
	}
	return ctx.Err()
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
			row, surv, err := sv.phaseRowAt(pi, b, n)
			if err != nil {
				return err
			}
			drop[x] = row.drop
			ph := sv.phases[b]
			visits[x] = surv / -math.Expm1(-ph.Rho*(v.iv[b]+ph.Latency))
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
	seen := make([]bool, ns)
	adj := make([][]int, ns)
	for e := range rows {
		adj[rows[e]] = append(adj[rows[e]], cols[e])
	}
	stack := []int{x0}
	seen[x0] = true
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, j := range adj[i] {
			if !seen[j] {
				seen[j] = true
				stack = append(stack, j)
			}
		}
	}
	idx := make([]int, ns)
	var sub []int
	for i := range ns {
		idx[i] = -1
		if seen[i] {
			idx[i] = len(sub)
			sub = append(sub, i)
		}
	}
	keep := 0
	for e := range rows {
		if seen[rows[e]] {
			rows[keep], cols[keep], vals[keep] = idx[rows[e]], idx[cols[e]], vals[e]
			keep++
		}
	}
	return sub, rows[:keep], cols[:keep], vals[:keep]
}
