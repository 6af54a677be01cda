package optimal

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/lapack/lapack64"
	"gonum.org/v1/gonum/mat"
)

// The evaluation of the chain of up phases (evaluatePhase) without the
// general machinery of solveX when its policy has one closed class (the
// common case): the same sets solved in the same order with the same
// LAPACK calls, so the same bits, without a condition estimate per
// transient set where a cheaper argument bounds the condition
// (solveTransient) and without per-call allocations.

// reachOrder returns the decision states reachable from x0 under the
// equations eqs, in solveX's breadth-first order, and their flags.
func reachOrder(eqs []equation, x0 int) ([]int, []bool) {
	in := make([]bool, len(eqs))
	closed := []int{x0}
	in[x0] = true
	for k := 0; k < len(closed); k++ {
		for _, y := range eqs[closed[k]].to {
			if !in[y] {
				in[y] = true
				closed = append(closed, y)
			}
		}
	}
	return closed, in
}

// oneClosedInReach reports whether the states reachable from x0 (in)
// hold exactly one closed class (recurrent class) of the policy whose
// equations are eqs: one strongly connected set of them with no
// transition out of it (they hold at least one; Tarjan's order emits a
// set after every set it leads to). With the transient sets' check
// (leaves, in solveTransientSet), no closed class outside them, this is
// closedClasses' "exactly one". ts is the scratch storage.
func oneClosedInReach(eqs []equation, in []bool, ts *transientScratch) bool {
	for x := range eqs {
		if eqs[x].inactive {
			return false // states without equations: left to the general path
		}
	}
	ts.fill = grow(ts.fill, len(eqs))
	id := ts.fill // set number + 1 of each state emitted, 0 before
	bottoms := 0
	next := int32(0)
	_ = ts.scc(eqs, in, true, func(comp []int) (bool, error) {
		next++
		for _, x := range comp {
			id[x] = next
		}
		out := false
		for _, x := range comp {
			for _, y := range eqs[x].to {
				if id[y] != next {
					out = true
					break
				}
			}
			if out {
				break
			}
		}
		if !out {
			bottoms++
		}
		return bottoms > 1, nil
	})
	return bottoms == 1
}

// leaves reports whether a transition leads out of the set xs, whose
// states local maps to their index (−1 outside): a strongly connected
// set without one is a closed class.
func leaves(eqs []equation, xs []int, local []int32) bool {
	for _, x := range xs {
		for _, y := range eqs[x].to {
			if local[y] < 0 {
				return true
			}
		}
	}
	return false
}

// errClosedOutside stops solveTransient at a closed class outside the
// states reachable from x₀: the policy has several, for the general path.
var errClosedOutside = errors.New("optimal: a closed class outside the reachable set")

// transientScratch is the storage of solveTransient, kept by the solver
// between evaluations.
type transientScratch struct {
	index, low  []int
	onStack     []bool
	stack, comp []int
	call        []tarjanFrame
	local       []int32
	a, x, ones  []float64
	swaps       []int
	fill        []int32 // oneClosedInReach
}

func newTransientScratch(nx int) *transientScratch {
	ts := &transientScratch{index: make([]int, nx), low: make([]int, nx), onStack: make([]bool, nx), local: make([]int32, nx)}
	for i := range ts.local {
		ts.local[i] = -1
	}
	return ts
}

// scc calls emit with each strongly connected set of the active states x
// with in[x] == want, the others excluded as roots and as successors, in
// Tarjan's order (roots in increasing order, each state's transitions in
// their order), until emit asks to stop or fails. emit's slice is reused
// by the next call.
func (ts *transientScratch) scc(eqs []equation, in []bool, want bool, emit func([]int) (bool, error)) error {
	return ts.tarjan(eqs, in, want, emit)
}

// tarjan is scc, with every active state when in is nil: the one
// iterative Tarjan search of the package (components calls it too); a
// set comes after every set it leads to. The states outside the search
// are excluded as roots and as successors.
func (ts *transientScratch) tarjan(eqs []equation, in []bool, want bool, emit func([]int) (bool, error)) error {
	skip := func(x int) bool { return in != nil && in[x] != want } // inlined
	nx := len(eqs)
	index, low, onStack := ts.index, ts.low, ts.onStack
	for i := range index {
		index[i] = -1
	}
	stack := ts.stack[:0]
	defer func() {
		for _, y := range stack {
			onStack[y] = false
		}
		ts.stack = stack[:0]
	}()
	counter := 0
	for root := range nx {
		if index[root] >= 0 || eqs[root].inactive || skip(root) {
			continue
		}
		call := append(ts.call[:0], tarjanFrame{root, 0})
		index[root], low[root] = counter, counter
		counter++
		stack = append(stack, root)
		onStack[root] = true
		for len(call) > 0 {
			f := &call[len(call)-1]
			x := f.x
			if f.next < len(eqs[x].to) {
				y := eqs[x].to[f.next]
				f.next++
				if skip(y) {
					continue
				}
				if index[y] < 0 {
					index[y], low[y] = counter, counter
					counter++
					stack = append(stack, y)
					onStack[y] = true
					call = append(call, tarjanFrame{y, 0})
				} else if onStack[y] {
					low[x] = min(low[x], index[y])
				}
				continue
			}
			call = call[:len(call)-1]
			if len(call) > 0 {
				p := call[len(call)-1].x
				low[p] = min(low[p], low[x])
			}
			if low[x] == index[x] {
				comp := ts.comp[:0]
				for {
					y := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					onStack[y] = false
					comp = append(comp, y)
					if y == x {
						break
					}
				}
				ts.comp = comp
				stop, err := emit(comp)
				if stop || err != nil {
					ts.call = call
					return err
				}
			}
		}
		ts.call = call
	}
	return nil
}

type tarjanFrame struct{ x, next int }

// solveTransient solves the states outside the closed set in (h and g
// known there), one strongly connected set at a time in the order of
// components (the same sets, each in the same order of states, so the
// same matrices as solveX's), successors first. Each set's matrix
// A = I − P (P its transitions among its states) is an M-matrix: the
// set is left with probability one, so A⁻¹ ≥ 0 and ‖A⁻¹‖∞ = max A⁻¹·1,
// which one more solve with A's factors gives. When k·‖A‖∞·‖A⁻¹‖∞ ≤
// 1e12 (k the set's size: a bound on the condition in the 1-norm too),
// the condition estimate solveSet would compute is far below its limit
// 1e15, and the set is solved here with the same LAPACK calls as
// mat.LU (Getrf, Getrs), so with the same bits; otherwise, or on a zero
// pivot, solveSet solves it and judges its condition itself.
//
// The sets and their factors depend only on the policy's actions (the
// interval enters the right-hand sides alone), so solveTransient records
// them in plan (within maxPlanEntries) and, when plan already holds them
// (the same actions as the evaluation that recorded them), replays them:
// the same matrices' factors applied to the new right-hand sides in the
// same order, the same bits without Tarjan's pass or a factorisation.
func (sv *Solver) solveTransient(v *values, eqs []equation, plan *phasePlan) error {
	ts := sv.transientScratch(len(eqs))
	if plan.sets != nil {
		return sv.replayTransient(v, eqs, plan.sets, ts)
	}
	var sets []transientSet
	entries := 0
	record := true
	err := ts.scc(eqs, plan.in, false, func(comp []int) (bool, error) {
		var set *transientSet
		if record {
			sets = append(sets, transientSet{xs: slices.Clone(comp)})
			set = &sets[len(sets)-1]
		}
		if err := sv.solveTransientSet(v, eqs, comp, ts, set); err != nil {
			return false, err
		}
		if record {
			entries += len(comp) + len(set.lu) + len(set.swaps)
			record = entries <= maxPlanEntries
		}
		return false, nil
	})
	if err == nil && record {
		plan.sets = sets
		if plan.sets == nil {
			plan.sets = []transientSet{}
		}
	}
	return err
}

// maxPlanEntries bounds the indices and factors a phasePlan keeps for
// its transient sets: 2²² (32 MiB); beyond it each evaluation runs
// Tarjan's pass and factorises again.
const maxPlanEntries = 1 << 22

// phasePlan is what the evaluation of the chain of up phases computes
// from the policy's actions alone (the graph and the matrices of its
// equations), kept for the next evaluation with the same actions and
// reference state: the states reachable from x₀ in solveX's order and
// their flags, whether they hold exactly one closed class, and the
// transient sets (solveTransient; nil until recorded).
type phasePlan struct {
	acts   []int
	x0     int
	closed []int
	in     []bool
	one    bool
	sets   []transientSet
}

// transientSet is one transient set of a phasePlan in solveTransient's
// order: its states in Tarjan's order and, when it was solved by LU here
// (not by solveSet), the factors of its matrix and their row swaps.
type transientSet struct {
	xs    []int
	lu    []float64
	swaps []int
}

// phasePlan returns the plan of the policy whose actions are acts and
// whose equations are eqs: the solver's last one when it was made for
// the same actions and reference state x0, else a new one (kept).
func (sv *Solver) phasePlan(eqs []equation, acts []int, x0 int) *phasePlan {
	if p := sv.plan; p != nil && p.x0 == x0 && slices.Equal(p.acts, acts) {
		return p
	}
	closed, in := reachOrder(eqs, x0)
	p := &phasePlan{acts: slices.Clone(acts), x0: x0, closed: closed, in: in}
	p.one = oneClosedInReach(eqs, in, sv.transientScratch(len(eqs)))
	sv.plan = p
	return p
}

// replayTransient is solveTransient with the sets and factors of a plan:
// each set's right-hand side built as solveTransientSet builds it, then
// solved with its factors (or by solveSet where the plan has none).
func (sv *Solver) replayTransient(v *values, eqs []equation, sets []transientSet, ts *transientScratch) error {
	local := ts.local
	for _, set := range sets {
		if set.lu == nil {
			if err := sv.solveSet(v, eqs, set.xs, false); err != nil {
				return err
			}
			continue
		}
		k := len(set.xs)
		undo := indexSet(local, set.xs)
		x := grow(ts.x, k)
		ts.x = x
		for i, s := range set.xs {
			x[i] = transientRHS(v, &eqs[s], local)
		}
		undo()
		lu := blas64.General{Rows: k, Cols: k, Stride: k, Data: set.lu}
		lapack64.Getrs(blas.NoTrans, lu, blas64.General{Rows: k, Cols: 1, Stride: 1, Data: x}, set.swaps)
		for i, s := range set.xs {
			v.hX[s] = x[i]
		}
	}
	return nil
}

// transientRHS is the right-hand side of e in its transient set (local
// maps the set's states to their index, −1 outside): rh, the known
// values of the successors outside the set, less g·gc, summed in that
// order.
func transientRHS(v *values, e *equation, local []int32) float64 {
	r := e.rh
	for t, y := range e.to {
		if local[y] < 0 {
			r += e.coef[t] * v.hX[y]
		}
	}
	return r - v.g*e.gc
}

// grow returns s with length n, zero, reusing its storage.
func grow[T float64 | int32](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	s = s[:n]
	clear(s)
	return s
}

// indexSet sets local[x] to the position of x in xs (the others are −1)
// and returns the function that sets them back to −1.
func indexSet(local []int32, xs []int) (undo func()) {
	for i, x := range xs {
		local[x] = int32(i)
	}
	return func() {
		for _, x := range xs {
			local[x] = -1
		}
	}
}

// transientScratch returns the solver's scratch storage for nx states.
func (sv *Solver) transientScratch(nx int) *transientScratch {
	if sv.tscr == nil || len(sv.tscr.index) != nx {
		sv.tscr = newTransientScratch(nx)
	}
	return sv.tscr
}

// solveTransientSet solves the transient set xs (solveTransient) and,
// when rec is not nil and the set is solved here by LU, records the
// factors in rec.
func (sv *Solver) solveTransientSet(v *values, eqs []equation, xs []int, ts *transientScratch, rec *transientSet) error {
	k := len(xs)
	local := ts.local
	defer indexSet(local, xs)()
	if !leaves(eqs, xs, local) {
		return errClosedOutside
	}
	ts.a, ts.x, ts.ones = grow(ts.a, k*k), grow(ts.x, k), grow(ts.ones, k)
	a, x, ones := ts.a, ts.x, ts.ones
	// The matrix and right-hand side of solveSet, entry by entry in the
	// same order.
	for i, s := range xs {
		e := &eqs[s]
		row := a[i*k : (i+1)*k]
		row[i]++
		r := e.rh
		for t, y := range e.to {
			if l := local[y]; l >= 0 {
				row[l] -= e.coef[t]
			} else {
				r += e.coef[t] * v.hX[y]
			}
		}
		r -= v.g * e.gc
		x[i] = r
		ones[i] = 1
	}
	norm := 0.0
	for i := range k {
		s := 0.0
		for _, c := range a[i*k : (i+1)*k] {
			s += math.Abs(c)
		}
		norm = max(norm, s)
	}
	if cap(ts.swaps) < k {
		ts.swaps = make([]int, k)
	}
	swaps := ts.swaps[:k]
	lu := blas64.General{Rows: k, Cols: k, Stride: k, Data: a}
	if !lapack64.Getrf(lu, swaps) {
		return sv.solveSet(v, eqs, xs, false)
	}
	lapack64.Getrs(blas.NoTrans, lu, blas64.General{Rows: k, Cols: 1, Stride: 1, Data: ones}, swaps)
	inv := 0.0
	for _, u := range ones {
		if !(u > 0) || math.IsInf(u, 0) {
			return sv.solveSet(v, eqs, xs, false)
		}
		inv = max(inv, u)
	}
	if float64(k)*norm*inv > 1e12 {
		return sv.solveSet(v, eqs, xs, false)
	}
	lapack64.Getrs(blas.NoTrans, lu, blas64.General{Rows: k, Cols: 1, Stride: 1, Data: x}, swaps)
	for i, s := range xs {
		v.hX[s] = x[i]
	}
	if rec != nil {
		rec.lu, rec.swaps = slices.Clone(a), slices.Clone(swaps)
	}
	return nil
}

// closedLU is the factorisation of the closed set's system of the last
// evaluation (solveClosed), with what identifies it: the states in
// solveSet's order and their actions, which fix every coefficient of
// the matrix (the rows of an action never change; the interval enters
// only the right-hand side).
type closedLU struct {
	xs, acts []int
	lu       mat.LU
	ref      int
	gscale   float64
}

// solveClosed is solveSet(v, eqs, xs, true) for the chain of up phases,
// xs the closed set reachable from x₀ in solveX's order (every successor
// inside it) under pol: it factorises the matrix as solveSet does and
// keeps the factors, and when the next evaluation has the same states
// with the same actions (a new interval, or new actions outside the
// set), it solves with the factors kept: the same matrix, so the same
// factors, the same condition and the same bits.
func (sv *Solver) solveClosed(v *values, eqs []equation, xs []int, pol *Policy) error {
	c := sv.clu
	if c == nil || !slices.Equal(c.xs, xs) || !sameActions(c.acts, xs, pol) {
		if err := sv.factorClosed(eqs, xs, pol); err != nil {
			return err
		}
		c = sv.clu
	}
	k := len(xs)
	rhs := mat.NewVecDense(k, nil)
	for i, x := range xs {
		// solveSet's right-hand side: every successor is in the set.
		rhs.SetVec(i, eqs[x].rh)
	}
	var sol mat.VecDense
	if err := c.lu.SolveVecTo(&sol, false, rhs); err != nil {
		return fmt.Errorf("optimal: policy evaluation: %w", err)
	}
	for i, x := range xs {
		v.hX[x] = sol.AtVec(i)
	}
	v.g = sol.AtVec(c.ref) / c.gscale
	v.hX[v.x0] = 0
	return nil
}

// sameActions reports whether pol takes the actions acts in the states xs.
func sameActions(acts, xs []int, pol *Policy) bool {
	if len(acts) != len(xs) {
		return false
	}
	for i, x := range xs {
		if pol.action[x] != acts[i] {
			return false
		}
	}
	return true
}

// closedScratch holds the storage of factorClosed's matrix between calls.
var closedScratch = sync.Pool{New: func() any { return new([]float64) }}

// factorClosed builds and factorises solveSet's matrix of the closed set
// xs with g (entry by entry as solveSet does) into sv.clu, or returns
// solveSet's error for a singular system (and forgets the factors).
func (sv *Solver) factorClosed(eqs []equation, xs []int, pol *Policy) error {
	sv.clu = nil
	k := len(xs)
	ts := sv.transientScratch(len(eqs))
	local := ts.local
	defer indexSet(local, xs)()
	// The matrix is copied by Factorize: its storage goes back to
	// closedScratch.
	buf := closedScratch.Get().(*[]float64)
	defer closedScratch.Put(buf)
	*buf = slices.Grow((*buf)[:0], k*k)[:k*k]
	clear(*buf)
	a := mat.NewDense(k, k, *buf)
	gcol := make([]float64, k)
	for i, x := range xs {
		e := &eqs[x]
		row := a.RawRowView(i)
		row[i]++
		for t, y := range e.to {
			if l := local[y]; l >= 0 {
				row[l] -= e.coef[t]
			} else {
				panic("optimal: factorClosed: a successor outside the closed set")
			}
		}
		gcol[i] = e.gc
	}
	c := &closedLU{xs: slices.Clone(xs), ref: int(local[xs[0]]), gscale: 1}
	if m := floats.Norm(gcol, math.Inf(1)); m > 0 {
		c.gscale = m
	}
	for i := range k {
		a.Set(i, c.ref, gcol[i]/c.gscale)
	}
	c.lu.Factorize(a)
	if cond := c.lu.Cond(); cond > 1e15 || math.IsInf(cond, 0) {
		return sv.singular(cond, eqs, xs)
	}
	c.acts = make([]int, k)
	for i, x := range xs {
		c.acts[i] = pol.action[x]
	}
	sv.clu = c
	return nil
}
