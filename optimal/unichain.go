package optimal

import (
	"fmt"
	"slices"
)

// components calls emit with each strongly connected set of the active
// decision states x without skip[x], in Tarjan's order: a set comes
// after every set it leads to. skip (nil: none) excludes states as roots
// and as successors. The search is iterative (the graph can be deep); it
// stops at the first error of emit.
func components(eqs []equation, skip []bool, emit func([]int) error) error {
	return newTransientScratch(len(eqs)).tarjan(eqs, skip, false, func(comp []int) (bool, error) {
		return false, emit(slices.Clone(comp))
	})
}

// closedClasses returns the closed communicating classes (the recurrent
// classes) of the decision states under the policy whose equations are
// eqs, in Tarjan's order: strongly connected sets of active states with no
// transition leaving them.
func closedClasses(eqs []equation) [][]int {
	comp := make([]int, len(eqs))
	for i := range comp {
		comp[i] = -1 // inactive states belong to no class
	}
	var comps [][]int
	_ = components(eqs, nil, func(c []int) error {
		for _, y := range c {
			comp[y] = len(comps)
		}
		comps = append(comps, c)
		return nil
	})
	var closed [][]int
	for ci, c := range comps {
		leaves := false
		for _, x := range c {
			for _, y := range eqs[x].to {
				if comp[y] != ci {
					leaves = true
					break
				}
			}
			if leaves {
				break
			}
		}
		if !leaves {
			slices.Sort(c)
			closed = append(closed, c)
		}
	}
	return closed
}

// unichain makes a policy with several recurrent classes unichain, as
// policy iteration for communicating models does (Puterman 1994, section
// 9.5): it solves each class for its own gain, keeps the class C* with
// the largest, and in every decision state X that cannot reach C* under
// the policy takes an action that leads into the states that can (the
// actions C* uses first, then the other counts, then waiting), until
// every state reaches C*. Every recurrent class of a policy produced by an
// improvement step has a gain at least that of the policy it improves
// (sum the improvement inequality over the class's stationary law), so
// the repaired policy, whose gain is C*'s, does not lose gain. The states
// outside C* become transient; v.x0 is moved into C*. eqs is updated.
func (sv *Solver) unichain(v *values, pol *Policy, eqs []equation, classes [][]int) error {
	nx := len(eqs)
	best, err := sv.bestClass(v, eqs, classes)
	if err != nil {
		return err
	}
	v.x0 = classes[best][0]
	reach := make([]bool, nx)
	for _, x := range classes[best] {
		reach[x] = true
	}
	order := sv.actionOrder(pol, classes[best])
	for {
		reachBackward(eqs, reach)
		progress, left, err := sv.redirect(v, pol, eqs, reach, order)
		if err != nil {
			return err
		}
		if left == 0 {
			break
		}
		if !progress {
			return fmt.Errorf("optimal: %d decision states cannot reach the recurrent class with the largest gain", left)
		}
	}
	for x := sv.nX; x < nx; x++ {
		if !reach[x] && !eqs[x].inactive {
			return fmt.Errorf("optimal: a reconfiguring up state cannot reach the recurrent class with the largest gain")
		}
	}
	return nil
}

// bestClass solves each recurrent class on its own and returns the index
// of the first with the largest gain.
func (sv *Solver) bestClass(v *values, eqs []equation, classes [][]int) (int, error) {
	best, bestG := -1, 0.0
	for ci, c := range classes {
		v.x0 = c[0]
		v.hX = make([]float64, len(eqs))
		if err := sv.solveSet(v, eqs, c, true); err != nil {
			return 0, fmt.Errorf("optimal: recurrent class %d of %d: %w", ci+1, len(classes), err)
		}
		if best < 0 || v.g > bestG {
			best, bestG = ci, v.g
		}
	}
	return best, nil
}

// actionOrder returns the actions tried to redirect a state: those the
// class uses, in order of first use, then the other configurations, then
// waiting.
func (sv *Solver) actionOrder(pol *Policy, class []int) []int {
	var order []int
	for _, x := range class {
		if x < sv.nX && !slices.Contains(order, pol.action[x]) {
			order = append(order, pol.action[x])
		}
	}
	for _, a := range sv.acts {
		if !slices.Contains(order, a) {
			order = append(order, a)
		}
	}
	if !slices.Contains(order, 0) {
		order = append(order, 0)
	}
	return order
}

// reachBackward extends reach to every active state whose transitions
// lead into it (the backward closure).
func reachBackward(eqs []equation, reach []bool) {
	for changed := true; changed; {
		changed = false
		for x := range eqs {
			if reach[x] || eqs[x].inactive {
				continue
			}
			for _, y := range eqs[x].to {
				if reach[y] {
					reach[x], changed = true, true
					break
				}
			}
		}
	}
}

// redirect gives every decision state X outside reach the first action of
// order (other than its own) with a transition into reach, and reports
// whether one was redirected and how many were outside.
func (sv *Solver) redirect(v *values, pol *Policy, eqs []equation, reach []bool, order []int) (progress bool, left int, err error) {
	for x := range sv.nX {
		if reach[x] {
			continue
		}
		left++
		pi, n := x/sv.w, x%sv.w+sv.lo
		for _, act := range order {
			if act > n || act == pol.action[x] {
				continue
			}
			e := sv.equation(v, pi, n, act)
			if e.err != nil {
				return false, 0, sv.upErrorIn(v, act, e.err)
			}
			if slices.ContainsFunc(e.to, func(y int) bool { return reach[y] }) {
				pol.action[x], eqs[x], reach[x] = act, e, true
				progress = true
				break
			}
		}
	}
	return progress, left, nil
}
