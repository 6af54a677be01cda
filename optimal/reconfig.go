package optimal

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
