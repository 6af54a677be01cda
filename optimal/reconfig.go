package optimal

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// The evaluation with reconfiguration at checkpoints, reduced (doc.go,
// "Reconfiguration at checkpoints"): reconfiguring up states merged with
// their twins (mergeReconf), the decision states eliminated group by
// group when R depends on p (solveByEntries), and what an evaluation
// computes kept for the next (memoEquation, recurrentClasses, entryRow,
// entrySolve).
//
// With reconfiguration at checkpoints
// an up state U(a, s) that reconfigures onto a' has the transitions,
// sojourn and reward of the decision state X(a, a + s) under a' (of
// X(a + s) when R does not depend on p): its equation is that state's
// equation under a'. When the policy takes a' in X(a, a + s) too, which
// is the rule of every vector (scenario.Reconfigure.Target) and what
// policy iteration mostly finds, the two states have the same equation,
// so h(U(a, s)) = h(X(a, a + s)) and the up state is no unknown of its
// own: mergeReconf replaces it by its twin in every equation. Only the
// up states whose reconfiguration differs from their twin's action stay
// unknowns of the evaluation.

// reconfReduce enables the reduction (mergeReconf, solveByEntries and the
// memos); tests turn it off to hold the reduced evaluation against the
// one it replaced, with every reconfiguring up state an unknown of its
// own, the decision states X in the dense system and everything
// recomputed.
var reconfReduce = true

// mergeReconf merges every reconfiguring up state whose equation is its
// twin's (the twin X(a, a + s) takes the same action) into the twin: it
// rewrites the equations that lead to it to lead to the twin and marks it
// inactive. It returns, per state of eqs, the twin of a merged state and
// −1 for the others (nil when nothing was merged). The policy's actions
// must be final (after unichain).
func (sv *Solver) mergeReconf(pol *Policy, eqs []equation) []int {
	if !reconfReduce || pol.reconf == nil {
		return nil
	}
	var twin []int
	for b, a := range sv.acts {
		s0, _ := sv.spares(a)
		pb := sv.pa(b) * sv.w
		for k, c := range pol.reconf[b] {
			if c == 0 {
				continue
			}
			x := pb + a + s0 + k - sv.lo // X(a, a + s), or X(a + s)
			if pol.action[x] != c {
				continue
			}
			if twin == nil {
				twin = make([]int, len(eqs))
				for i := range twin {
					twin[i] = -1
				}
			}
			u := sv.nX + sv.uOff[b] + k
			twin[u] = x
		}
	}
	if twin == nil {
		return nil
	}
	for i := range eqs {
		if twin[i] >= 0 {
			eqs[i] = equation{inactive: true}
			continue
		}
		e := &eqs[i]
		shared := true // e.to may be shared with another equation: copy before writing
		for t, y := range e.to {
			if y < sv.nX || twin[y] < 0 {
				continue
			}
			if shared {
				e.to = append([]int(nil), e.to...)
				shared = false
			}
			e.to[t] = twin[y]
		}
	}
	return twin
}

// eqMemo is an equation of the evaluation with what it was computed
// from: the action and the block of up states of that action's
// configuration (nil for waiting).
type eqMemo struct {
	act int
	blk *block
	eq  equation
}

// memoEquation returns sv.equation(v, pi, n, act) for the state x of the
// evaluation (an X state, or an up state that reconfigures onto act),
// from sv.memo when it was computed for the same action and the same
// block of up states: the equation is a function of these alone (the
// recovery row is fixed, the block holds the up states' rows and
// factors), so a search that changes one configuration's intervals
// recomputes only the equations that lead into that configuration.
// Equations are read-only once made (mergeReconf and unichain replace
// them, never write into them), so the memo may share their slices.
func (sv *Solver) memoEquation(v *values, x, pi, n, act int) equation {
	if !reconfReduce {
		return sv.equation(v, pi, n, act)
	}
	if len(sv.memo) != sv.nX+sv.nU {
		sv.memo = make([]eqMemo, sv.nX+sv.nU)
	}
	var blk *block
	if act != 0 {
		blk = v.blocks[sv.aIdx[act]]
	}
	m := &sv.memo[x]
	if m.blk == blk && m.act == act && (blk != nil || m.eq.gc != 0) {
		return m.eq
	}
	e := sv.equation(v, pi, n, act)
	if e.err == nil {
		*m = eqMemo{act: act, blk: blk, eq: e}
	}
	return e
}

// solveByEntries solves the evaluation's equations with the decision
// states X eliminated group by group, which leaves one dense system over
// the up states and g (doc.go, "Reconfiguration at checkpoints"). The
// states X(p, ·) of one checkpoint count p (a group) lead among
// themselves (a wait, a failure in a recovery) or, when a recovery
// succeeds, into up states, and only the up states lead into a group,
// that of their own count (a failure in an up segment, or in the
// recovery of an up state that reconfigures):
//
//	L_p h_X(p) = −g·τ_p + D_p h_U,   h_U = w_U − g·τ_U + A·h_U + B·h_X,
//
// with L_p = I − (the transitions within group p), nonsingular when
// every state of the group can leave it. Substituting
// h_X(p) = −g·t_p + H_p h_U, with H_p = L_p⁻¹D_p and t_p = L_p⁻¹τ_p
// (entryGroup, kept while the group's actions do not change), into the
// rows of the up states leaves the up states and g, with h(x₀) = 0 as
// the last equation. When R depends on p there are
// N·W decision states X(p, n) but about half as many up states, so the
// dense solve costs about an eighth. It returns false, with v unchanged,
// when a group cannot be eliminated or the reduced system is singular;
// the caller then solves the equations themselves (solveX).
func (sv *Solver) solveByEntries(v *values, pol *Policy) (bool, error) {
	w, nU := sv.w, sv.nU
	if len(sv.groups) != len(sv.ps) {
		sv.groups = make([]*entryGroup, len(sv.ps))
		sv.entryRows = make([]entryRow, nU)
	}
	for pi := range sv.ps {
		if !sv.group(pi, pol) {
			return false, nil
		}
	}
	// The reduced system over the up states (columns 0..nU−1) and g
	// (column nU, scaled by pow2Scale of its largest entry, exactly):
	// the rows of the up states from entryRow, then h(x₀) = 0.
	k := nU + 1
	rows := make([][]float64, k)
	gens := make([]uint64, k)
	rhs := mat.NewVecDense(k, nil)
	gcol := make([]float64, k)
	for b, act := range sv.acts {
		s0, _ := sv.spares(act)
		blk := v.blocks[b]
		pa := sv.pa(b)
		for kk := range blk.rows {
			u := sv.uOff[b] + kk
			r, upOff := &blk.rows[kk], sv.uOff[b]
			work := r.w
			if c := pol.maskOf(b); c != nil && c[kk] != 0 {
				b2 := sv.aIdx[c[kk]]
				r, upOff, work = sv.recRow(pa, b2, act+s0+kk), sv.uOff[b2], 0
			}
			er := sv.entryRow(u, r, upOff, sv.groups[pa])
			rows[u], gens[u] = er.coef, er.gen
			gcol[u] = er.gc
			rhs.SetVec(u, work)
		}
	}
	ref := make([]float64, k) // gens[nU] = 0: compared by content
	if v.x0 < sv.nX {
		// h_X(x₀) = −g·t[n₀] + H[n₀, ·]·h_U = 0.
		q := sv.groups[v.x0/w]
		copy(ref[:nU], q.h.RawRowView(v.x0%w))
		gcol[nU] = -q.t[v.x0%w]
	} else {
		ref[v.x0-sv.nX] = 1
	}
	rows[nU] = ref
	gscale := pow2Scale(floats.Norm(gcol, math.Inf(1)))
	if gscale == 0 {
		return false, nil
	}
	for i := range k {
		rows[i][nU] = gcol[i] / gscale
	}
	sol, ok := sv.entrySolve(rows, gens, rhs)
	if !ok {
		return false, nil
	}
	hu := sol.RawVector().Data
	g := hu[nU] / gscale
	// h_X(p) = −g·t_p + H_p h_U, every group.
	nx := sv.nX
	if pol.reconf != nil {
		nx += nU
	}
	hX := make([]float64, nx)
	for pi, q := range sv.groups {
		out := mat.NewVecDense(w, hX[pi*w:(pi+1)*w])
		out.MulVec(q.h, mat.NewVecDense(nU, hu[:nU]))
		floats.AddScaled(out.RawVector().Data, -g, q.t)
	}
	if pol.reconf != nil {
		copy(hX[sv.nX:], hu[:nU])
	}
	hX[v.x0] = 0
	v.g, v.hX, v.closed = g, hX, nil
	return true, nil
}

// pow2Scale returns the power of two 2^e with m ≤ 2^e < 2m for m > 0
// (m itself for 0, for m not finite and for m above 2^1023).
// solveByEntries scales g's column by it, which is exact and, unlike m,
// stays the same while m moves within a factor of 2, so a search over
// one configuration's interval changes the g entry of that
// configuration's rows only (entrySolve's low-rank test), not of every
// row.
func pow2Scale(m float64) float64 {
	if m == 0 || math.IsInf(m, 0) || math.IsNaN(m) {
		return m
	}
	frac, e := math.Frexp(m) // m = frac·2^e, 1/2 ≤ frac < 1
	if frac == 0.5 || e > 1023 {
		return m // a power of two already, or 2^e overflows
	}
	return math.Ldexp(1, e)
}

// entryGroup is group p of solveByEntries under the actions acts of its
// states X(p, ·): with L_p = I − (the transitions within the group) and
// D_p its recovery successes into the up states, H = L_p⁻¹D_p and
// t = L_p⁻¹τ_p, so that h_X(p) = −g·t + H·h_U. It depends on the
// actions alone, not on the intervals.
type entryGroup struct {
	acts []int
	h    *mat.Dense
	t    []float64
}

// group makes sv.groups[pi] hold group pi under the policy's actions,
// computing it unless they are those of the one held. It reports false
// when L_p is singular to working precision (some state of the group
// cannot leave it).
func (sv *Solver) group(pi int, pol *Policy) bool {
	w, nU := sv.w, sv.nU
	acts := pol.action[pi*w : (pi+1)*w]
	if q := sv.groups[pi]; q != nil && slices.Equal(q.acts, acts) {
		return true
	}
	if sv.groupL == nil {
		sv.groupL, sv.groupD = mat.NewDense(w, w, nil), mat.NewDense(w, nU, nil)
	}
	l, d := sv.groupL, sv.groupD
	l.Zero()
	d.Zero()
	tau := make([]float64, w)
	for k, act := range acts {
		l.Set(k, k, 1)
		var r *row
		if act == 0 {
			wr := sv.waitRow(sv.lo + k)
			r = &wr
		} else {
			b := sv.aIdx[act]
			r = sv.recRow(pi, b, sv.lo+k)
			dr := d.RawRowView(k)
			for _, e := range r.up {
				dr[sv.uOff[b]+int(e.i)] += e.p
			}
		}
		for _, e := range r.fail {
			l.Set(k, int(e.i), l.At(k, int(e.i))-e.p)
		}
		tau[k] = r.tau
	}
	var lu mat.LU
	lu.Factorize(l)
	if c := lu.Cond(); c > 1e12 || math.IsInf(c, 0) {
		sv.groups[pi] = nil
		return false
	}
	var reuse *mat.Dense // the storage of the group replaced: entryRow compares groups by pointer only
	if old := sv.groups[pi]; old != nil {
		reuse = old.h
	}
	h, err := solveNonzeroColumns(&lu, d, reuse)
	q := &entryGroup{acts: slices.Clone(acts), h: h}
	var t mat.VecDense
	if err != nil || lu.SolveVecTo(&t, false, mat.NewVecDense(w, tau)) != nil {
		sv.groups[pi] = nil
		return false
	}
	q.t = t.RawVector().Data
	sv.groups[pi] = q
	return true
}

// entryRow is the row of up state u in solveByEntries' reduced system:
// its coefficients on h_U and g (before scaling), and what it was
// computed from (the state's row and its group).
type entryRow struct {
	src  *row
	grp  *entryGroup
	coef []float64 // its last entry is g's, set by solveByEntries
	gc   float64
	gen  uint64 // sv.entryGen when computed: entrySolve's test of a changed row
}

// entryRow returns the row of up state u, whose transitions are r (to the
// up states from upOff and to the group q), from sv.entryRows when it was
// computed from the same row and group: a search over one
// configuration's intervals recomputes the rows of that configuration's
// up states only. With β the failures into the group,
//
//	h_U(u) − Σ r.up·h_U − βᵀH·h_U + g·(τ + βᵀt) = w.
func (sv *Solver) entryRow(u int, r *row, upOff int, q *entryGroup) *entryRow {
	er := &sv.entryRows[u]
	if er.src == r && er.grp == q {
		return er
	}
	nU := sv.nU
	if er.coef == nil {
		er.coef = make([]float64, nU+1)
	} else {
		clear(er.coef)
	}
	c := er.coef[:nU]
	c[u] = 1
	for _, e := range r.up {
		c[upOff+int(e.i)] -= e.p
	}
	er.gc = r.tau
	for _, e := range r.fail {
		floats.AddScaled(c, -e.p, q.h.RawRowView(int(e.i)))
		er.gc += e.p * q.t[e.i]
	}
	er.src, er.grp = r, q
	sv.entryGen++
	er.gen = sv.entryGen
	return er
}

// entryBase is the last reduced system solveByEntries factorised: its
// matrix and LU factors.
type entryBase struct {
	a    *mat.Dense
	gens []uint64 // the entryRow generation of each row (0: none)
	f    luVec    // B's packed LU factors (factorLU), for the solves with one right-hand side (luVec.solveTo)
	// rows and z = B⁻¹E of the last low-rank solve: a search over one
	// configuration's intervals changes the same rows each time.
	rows []int
	z    *mat.Dense
	// rhs and y = B⁻¹rhs of the factorisation: a right-hand side that
	// differs from rhs only in the changed rows gives B⁻¹rhs' = y + Zδ.
	rhs, y []float64
	// last is the system krylov solved last on these factors.
	last entrySolution
	kw   *krylovWork // krylov's workspace, kept for the next system of this order
}

// entrySolve solves a·x = rhs for solveByEntries, a given by its rows
// (and, per row, the entryRow generation it comes from, 0 for none).
// When a differs from
// the last factorised system in few rows (r, at most an eighth of its
// order: a search over one configuration's intervals changes only the
// rows of that configuration's up states), it solves by the
// Sherman–Morrison–Woodbury formula with the factors kept: with
// a = B + EΔ (E the r unit columns of the rows, Δ their change),
//
//	x = y − Z(I + ΔZ)⁻¹Δy,   y = B⁻¹rhs,  Z = B⁻¹E,
//
// r + 1 solves and an r × r system instead of a factorisation.
// Otherwise it solves by GMRES preconditioned by the kept factors
// (entryBase.krylov) when that converges within krylovIter steps, and
// else factorises a and keeps it; the system krylov solved last, and its
// solution, are kept with the factors (entrySolution), and the same
// system again (policy iteration evaluates the policy it ends with once
// more when a search goes on from it) is not solved again.
// It reports false when a (or the r × r system) is singular to working
// precision.
func (sv *Solver) entrySolve(arows [][]float64, gens []uint64, rhs *mat.VecDense) (*mat.VecDense, bool) {
	base, rows := sv.changedRows(arows, gens)
	if base == nil {
		return sv.factorEntries(arows, gens, rhs)
	}
	if 8*len(rows) > len(arows) {
		if x := base.last.lookup(arows, gens, rhs); x != nil {
			return x, true
		}
		if x, ok := base.krylov(arows, rhs); ok {
			base.last.keep(arows, gens, rhs, x)
			return x, true
		}
		return sv.factorEntries(arows, gens, rhs)
	}
	if len(rows) == 0 {
		if slices.Equal(rhs.RawVector().Data, base.rhs) {
			return mat.NewVecDense(len(arows), slices.Clone(base.y)), true
		}
		return base.solve(rhs), true
	}
	return base.woodbury(arows, rows, rhs)
}

// changedRows returns the kept factorisation (nil when there is none of
// the order of arows) and the rows where arows differs from it, stopping
// once they are more than an eighth of the order.
func (sv *Solver) changedRows(arows [][]float64, gens []uint64) (*entryBase, []int) {
	k := len(arows)
	base := sv.entry
	if base == nil {
		return nil, nil
	}
	if kb, _ := base.a.Dims(); kb != k {
		return nil, nil
	}
	var rows []int
	for i, ri := range arows {
		// A row of the same generation differs at most in g's entry.
		if gens[i] != 0 && gens[i] == base.gens[i] && ri[k-1] == base.a.At(i, k-1) {
			continue
		}
		if !slices.Equal(ri, base.a.RawRowView(i)) {
			rows = append(rows, i)
			if 8*len(rows) > k {
				break
			}
		}
	}
	return base, rows
}

// factorEntries factorises the system of arows, keeps it as sv.entry
// (with the solve for rhs) and returns that solve; false when it is
// singular to working precision. It reuses the storage of the kept
// factorisation it replaces (of the same order): a search whose points
// change too many rows for woodbury, and too much for krylov to
// converge, refactorises at each point.
func (sv *Solver) factorEntries(arows [][]float64, gens []uint64, rhs *mat.VecDense) (*mat.VecDense, bool) {
	k := len(arows)
	base := sv.entry
	sv.entry = nil
	if base == nil || base.a.RawMatrix().Rows != k {
		base = &entryBase{a: mat.NewDense(k, k, nil)}
	}
	*base = entryBase{a: base.a, gens: append(base.gens[:0], gens...), f: base.f, rhs: base.rhs[:0], y: base.y[:0], kw: base.kw}
	for i, ri := range arows {
		copy(base.a.RawRowView(i), ri)
	}
	base.f = factorSparse(base.f, base.a)
	if c := base.f.cond; c > 1e15 || math.IsInf(c, 0) || math.IsNaN(c) {
		sv.entry = nil
		return nil, false
	}
	sv.entry = base
	x := base.solve(rhs)
	base.rhs, base.y = append(base.rhs, rhs.RawVector().Data...), append(base.y, x.RawVector().Data...)
	return x, true
}

// solve returns B⁻¹rhs (luVec.solveTo).
func (base *entryBase) solve(rhs *mat.VecDense) *mat.VecDense {
	x := mat.NewVecDense(base.f.n, nil)
	base.f.solveTo(x.RawVector().Data, rhs.RawVector().Data)
	return x
}

// woodbury solves arows·x = rhs from the kept factors of B, arows
// differing from B in the given rows (entrySolve's formula).
func (base *entryBase) woodbury(arows [][]float64, rows []int, rhs *mat.VecDense) (*mat.VecDense, bool) {
	k, r := len(arows), len(rows)
	d := mat.NewDense(r, k, nil)
	for j, i := range rows {
		floats.SubTo(d.RawRowView(j), arows[i], base.a.RawRowView(i))
	}
	z, ok := base.unitSolve(rows)
	if !ok {
		return nil, false
	}
	x, ok := base.baseSolve(z, rows, rhs)
	if !ok {
		return nil, false
	}
	c := mat.NewDense(r, r, nil)
	c.Mul(d, z)
	for j := range r {
		c.Set(j, j, c.At(j, j)+1)
	}
	var dy mat.VecDense
	dy.MulVec(d, x)
	var clu mat.LU
	clu.Factorize(c)
	if cc := clu.Cond(); cc > 1e15 || math.IsInf(cc, 0) {
		return nil, false
	}
	var t mat.VecDense
	if err := clu.SolveVecTo(&t, false, &dy); err != nil {
		return nil, false
	}
	var corr mat.VecDense
	corr.MulVec(z, &t)
	x.SubVec(x, &corr)
	return x, true
}

// refineTol is the acceptance of a solve on kept factors that are not
// the system's own (entryBase.krylov): the last correction, B⁻¹ times
// the residual, at most refineTol of the solution in the ∞-norm and in
// g's entry.
const refineTol = 1e-14

// unitSolve returns Z = B⁻¹E for the unit columns E of rows, kept for
// the next call with the same rows: column j by luVec.solveUnitTo.
func (base *entryBase) unitSolve(rows []int) (*mat.Dense, bool) {
	if slices.Equal(rows, base.rows) {
		return base.z, true
	}
	k, r := base.f.n, len(rows)
	zt := make([]float64, r*k) // Zᵀ, row j = column j of Z
	for j, i := range rows {
		base.f.solveUnitTo(zt[j*k:(j+1)*k], i)
	}
	z := mat.NewDense(k, r, nil)
	z.Copy(mat.NewDense(r, k, zt).T())
	base.rows, base.z = rows, z
	return z, true
}

// baseSolve returns y = B⁻¹rhs: from the kept solve y₀ = B⁻¹rhs₀ as
// y₀ + Zδ when rhs differs from rhs₀ in the rows only, else by a solve.
func (base *entryBase) baseSolve(z *mat.Dense, rows []int, rhs *mat.VecDense) (*mat.VecDense, bool) {
	var x mat.VecDense
	inRows := true
	for i, ri := range rhs.RawVector().Data {
		if ri != base.rhs[i] && !slices.Contains(rows, i) {
			inRows = false
			break
		}
	}
	if inRows {
		delta := make([]float64, len(rows))
		for j, i := range rows {
			delta[j] = rhs.AtVec(i) - base.rhs[i]
		}
		x.MulVec(z, mat.NewVecDense(len(rows), delta))
		floats.Add(x.RawVector().Data, base.y)
	} else {
		return base.solve(rhs), true
	}
	return &x, true
}

// classMemo is the graph of the last evaluation's equations (their
// successors and inactive marks) and its recurrent classes.
type classMemo struct {
	to       [][]int
	inactive []bool
	classes  [][]int
}

// recurrentClasses returns closedClasses(eqs), from sv.classes when the
// graph is that of the last call: the classes depend on the successors
// alone, and an evaluation that changes the intervals keeps them (the
// memoised equations even share their slices).
func (sv *Solver) recurrentClasses(eqs []equation) [][]int {
	if !reconfReduce {
		return closedClasses(eqs)
	}
	m := sv.classes
	same := m != nil && len(m.to) == len(eqs)
	for i := 0; same && i < len(eqs); i++ {
		e := &eqs[i]
		t := m.to[i]
		switch {
		case e.inactive != m.inactive[i] || len(e.to) != len(t):
			same = false
		case len(t) > 0 && &t[0] == &e.to[0]:
		default:
			same = slices.Equal(t, e.to)
		}
	}
	if same {
		return m.classes
	}
	m = &classMemo{to: make([][]int, len(eqs)), inactive: make([]bool, len(eqs))}
	for i := range eqs {
		m.to[i], m.inactive[i] = eqs[i].to, eqs[i].inactive
	}
	m.classes = closedClasses(eqs)
	sv.classes = m
	return m.classes
}

// runValue returns the bracket of the up state U(acts[b], s0+k) running
// at interval I (uValue), from the row of the evaluation's block when the
// block computed it at I: improveR compares running with reconfiguring
// in every up state at the policy's own intervals, which the evaluation
// has just used.
func (sv *Solver) runValue(sc *rowScratch, v *values, b, k int, interval float64) (float64, error) {
	if blk := v.blocks[b]; blk != nil && k < len(blk.rows) && blk.iv[k] == interval {
		return sv.bracket(v, b, &blk.rows[k]), nil
	}
	return sv.uValue(sc, v, b, k, interval)
}

// bracket returns w − g·τ + Σ P·h of the row r of an up state of
// configuration b.
func (sv *Solver) bracket(v *values, b int, r *row) float64 {
	s := r.w - v.g*r.tau
	for _, e := range r.up {
		s += e.p * v.upH(b)[e.i]
	}
	pb := sv.pa(b) * sv.w
	for _, e := range r.fail {
		s += e.p * v.hX[pb+int(e.i)]
	}
	return s
}

// xValues holds xValue(v, pi, n, c) of one improvement pass (improveX,
// then improveR, on the same values v), each computed on first use.
// improveX computes the bracket of every decision state X(ps[pi], n)
// under every action; improveR compares, in every up state U(a, s),
// running with reconfiguring onto each c, whose bracket is that of
// X(a, a + s) under c (of X(a + s) when R does not depend on p), one of
// the same brackets: the pass computes each once. The table has
// len(ps)·W·(len(acts) + 1) entries, of the order of the decision states
// times the configurations; above xValuesMax entries at calls xValue.
type xValues struct {
	sv   *Solver
	v    *values
	vals []float64 // per (pi, n, action index + 1; 0: wait, aIdx[0] = −1): the bracket, or its bound plus slack (mayBeat)
	kind []uint8   // what vals holds: 0 nothing, boundKept, valueKept
	// tabU and tabX are the range maxima of h over each configuration's
	// up states and each checkpoint count's decision states (mayBeat).
	tabU, tabX []*rangeMax
	skipped    int // brackets mayBeat ruled out
}

// xValuesMax bounds the entries of an xValues table (about 36 MB).
const xValuesMax = 1 << 22

// newXValues returns an empty xValues of v.
func (sv *Solver) newXValues(v *values) *xValues {
	return &xValues{sv: sv, v: v}
}

// at returns xValue(v, pi, n, c).
func (xv *xValues) at(pi, n, c int) float64 {
	i := xv.index(pi, n, c)
	if i < 0 {
		return xv.sv.xValue(xv.v, pi, n, c)
	}
	if xv.kind[i] != valueKept {
		xv.vals[i], xv.kind[i] = xv.sv.xValue(xv.v, pi, n, c), valueKept
	}
	return xv.vals[i]
}

// What an entry of xValues.vals holds.
const (
	boundKept uint8 = 1 + iota // the bound plus its slack (mayBeat)
	valueKept                  // the bracket (at)
)

// index returns the entry of X(ps[pi], n) under c in xv.vals, allocating
// the table on first use, or −1 when the table would have more than
// xValuesMax entries.
func (xv *xValues) index(pi, n, c int) int {
	sv := xv.sv
	na := len(sv.acts) + 1
	if xv.vals == nil {
		m := len(sv.ps) * sv.w * na
		if m > xValuesMax {
			return -1
		}
		xv.vals, xv.kind = make([]float64, m), make([]uint8, m)
	}
	return (pi*sv.w+n-sv.lo)*na + sv.aIdx[c] + 1
}
