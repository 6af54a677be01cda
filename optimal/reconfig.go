package optimal

import (
	"math"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// Reconfiguring up states merged with their decision states (doc.go,
// "Reconfiguration at checkpoints"). With reconfiguration at checkpoints
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

// reconfReduce enables mergeReconf and memoEquation; tests turn it off to
// hold the reduced evaluation against the one it replaced, with every
// reconfiguring up state an unknown of its own and every equation
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
// h_X(p) = L_p⁻¹(−g·τ_p + D_p h_U) into the rows of the up states, one
// transposed solve of order W per up state, leaves the up states and g,
// with h(x₀) = 0 as the last equation. When R depends on p there are
// N·W decision states X(p, n) but about half as many up states, so the
// dense solve costs about an eighth. It returns false, with v unchanged,
// when a group cannot be eliminated or the reduced system is singular;
// the caller then solves the equations themselves (solveX).
func (sv *Solver) solveByEntries(v *values, pol *Policy) (bool, error) {
	w, nU := sv.w, sv.nU
	type ent2 struct {
		u int
		p float64
	}
	// The groups: L_p, τ_p and the rows of D_p.
	type group struct {
		lu  mat.LU
		tau []float64
		d   [][]ent2
	}
	groups := make([]group, len(sv.ps))
	for pi := range sv.ps {
		g := &groups[pi]
		l := mat.NewDense(w, w, nil)
		g.tau = make([]float64, w)
		g.d = make([][]ent2, w)
		for k := range w {
			n := sv.lo + k
			l.Set(k, k, 1)
			act := pol.action[pi*w+k]
			var r *row
			if act == 0 {
				wr := sv.waitRow(n)
				r = &wr
			} else {
				b := sv.aIdx[act]
				r = sv.recRow(pi, b, n)
				for _, e := range r.up {
					g.d[k] = append(g.d[k], ent2{sv.uOff[b] + int(e.i), e.p})
				}
			}
			for _, e := range r.fail {
				l.Set(k, int(e.i), l.At(k, int(e.i))-e.p)
			}
			g.tau[k] = r.tau
		}
		g.lu.Factorize(l)
		if c := g.lu.Cond(); c > 1e12 || math.IsInf(c, 0) {
			return false, nil
		}
	}
	// The reduced system over the up states (columns 0..nU−1) and g
	// (column nU, scaled as solveSet does).
	k := nU + 1
	a := mat.NewDense(k, k, nil)
	rhs := mat.NewVecDense(k, nil)
	gcol := make([]float64, k)
	beta := mat.NewVecDense(w, nil)
	var z mat.VecDense
	// addX adds coef·z^T(D_q h_U − g·τ_q) to row i, z = L_q⁻ᵀβ.
	addX := func(i int, q *group, zr []float64, sign float64) {
		row := a.RawRowView(i)
		for n, zn := range zr {
			if zn == 0 {
				continue
			}
			for _, e := range q.d[n] {
				row[e.u] -= sign * zn * e.p
			}
			gcol[i] += sign * zn * q.tau[n]
		}
	}
	for b, act := range sv.acts {
		if nU == 0 {
			break
		}
		s0, _ := sv.spares(act)
		blk := v.blocks[b]
		pa := sv.pa(b)
		for kk := range blk.rows {
			u := sv.uOff[b] + kk
			ar := a.RawRowView(u)
			ar[u]++
			var r *row
			upOff := sv.uOff[b]
			if c := pol.maskOf(b); c != nil && c[kk] != 0 {
				b2 := sv.aIdx[c[kk]]
				r = sv.recRow(pa, b2, act+s0+kk)
				upOff = sv.uOff[b2]
			} else {
				r = &blk.rows[kk]
				rhs.SetVec(u, r.w)
			}
			for _, e := range r.up {
				ar[upOff+int(e.i)] -= e.p
			}
			gcol[u] = r.tau
			if len(r.fail) == 0 {
				continue
			}
			beta.Zero()
			for _, e := range r.fail {
				beta.SetVec(int(e.i), beta.AtVec(int(e.i))+e.p)
			}
			if err := groups[pa].lu.SolveVecTo(&z, true, beta); err != nil {
				return false, nil
			}
			addX(u, &groups[pa], z.RawVector().Data, 1)
		}
	}
	// h(x₀) = 0.
	if v.x0 < sv.nX {
		pi0 := v.x0 / w
		beta.Zero()
		beta.SetVec(v.x0%w, 1)
		if err := groups[pi0].lu.SolveVecTo(&z, true, beta); err != nil {
			return false, nil
		}
		// z^T(D h_U − g·τ) = 0: addX's terms with the opposite sign.
		addX(nU, &groups[pi0], z.RawVector().Data, -1)
	} else {
		a.Set(nU, v.x0-sv.nX, 1)
	}
	gscale := floats.Norm(gcol, math.Inf(1))
	if gscale == 0 {
		return false, nil
	}
	for i := range k {
		a.Set(i, nU, gcol[i]/gscale)
	}
	var lu mat.LU
	lu.Factorize(a)
	if c := lu.Cond(); c > 1e15 || math.IsInf(c, 0) {
		return false, nil
	}
	var sol mat.VecDense
	if err := lu.SolveVecTo(&sol, false, rhs); err != nil {
		return false, nil
	}
	hu := sol.RawVector().Data
	g := hu[nU] / gscale
	// h_X(p) = L_p⁻¹(−g·τ_p + D_p h_U), every group.
	nx := sv.nX
	if pol.reconf != nil {
		nx += nU
	}
	hX := make([]float64, nx)
	for pi := range groups {
		q := &groups[pi]
		for n := range w {
			s := -g * q.tau[n]
			for _, e := range q.d[n] {
				s += e.p * hu[e.u]
			}
			beta.SetVec(n, s)
		}
		if err := q.lu.SolveVecTo(&z, false, beta); err != nil {
			return false, nil
		}
		copy(hX[pi*w:(pi+1)*w], z.RawVector().Data)
	}
	if pol.reconf != nil {
		copy(hX[sv.nX:], hu[:nU])
	}
	hX[v.x0] = 0
	v.g, v.hX, v.closed = g, hX, nil
	return true, nil
}
