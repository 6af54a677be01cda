package markov

import (
	"errors"
	"fmt"
	"strings"

	"github.com/ckpt-markov/markov/internal/graph"
)

// ErrReducible is returned (wrapped) when the stationary distribution is
// not unique because more than one closed communicating class is present.
var ErrReducible = errors.New("markov: more than one closed class: stationary distribution not unique")

// Class is a closed communicating class of a chain: a set of states that
// all reach each other and that the chain never leaves. Its states are
// recurrent; every other state of a finite chain is transient or belongs to
// another closed class.
type Class struct {
	// States holds the state indices of the class in increasing order.
	States []int
	// Period is the gcd of the lengths of the cycles through the class
	// (1 for an aperiodic class).
	Period int
}

// Reachable returns, in increasing order, the states reachable from start
// in zero or more steps (start included). It panics if start is out of
// range.
func (c *Chain[L]) Reachable(start int) []int {
	return graph.Marked(c.reach(start))
}

// reach marks the states reachable from start (graph.Search).
func (c *Chain[L]) reach(start int) []bool {
	n := len(c.labels)
	if start < 0 || start >= n {
		panic(fmt.Sprintf("markov: start state %d out of range [0, %d)", start, n))
	}
	seen := make([]bool, n)
	seen[start] = true
	graph.Search(c.indptr, c.ind, nil, seen, []int{start})
	return seen
}

// ClosedClasses returns every closed communicating class of the chain, in
// the order of their smallest state.
func (c *Chain[L]) ClosedClasses() []Class {
	comp, ncomp := scc(c.indptr, c.ind)
	closed := closedComponents(c.indptr, c.ind, comp, ncomp)
	return c.classes(comp, closed, nil)
}

// ClosedClass returns the closed communicating class reachable from start.
// The error wraps ErrReducible, naming a state of each class, when start
// reaches more than one closed class. It panics if start is out of range.
func (c *Chain[L]) ClosedClass(start int) (Class, error) {
	seen := c.reach(start)
	comp, ncomp := scc(c.indptr, c.ind)
	closed := closedComponents(c.indptr, c.ind, comp, ncomp)
	cls := c.classes(comp, closed, seen)
	if len(cls) != 1 {
		return Class{}, fmt.Errorf("%w: %d closed classes reachable from state %v (%s)",
			ErrReducible, len(cls), c.labels[start], c.describe(cls))
	}
	return cls[0], nil
}

// uniqueClass returns the only closed class of the chain, or an error
// wrapping ErrReducible.
func (c *Chain[L]) uniqueClass() (Class, error) {
	cls := c.ClosedClasses()
	if len(cls) != 1 {
		return Class{}, fmt.Errorf("%w: the chain has %d closed classes (%s)",
			ErrReducible, len(cls), c.describe(cls))
	}
	return cls[0], nil
}

// describe names the first state of up to three classes.
func (c *Chain[L]) describe(cls []Class) string {
	var b strings.Builder
	for k, cl := range cls {
		if k == 3 {
			b.WriteString(", ...")
			break
		}
		if k > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "one containing %v with %d states", c.labels[cl.States[0]], len(cl.States))
	}
	return b.String()
}

// classes gathers the closed components (restricted to the states marked
// in keep, when keep is not nil) into Classes with their periods.
func (c *Chain[L]) classes(comp []int, closed []bool, keep []bool) []Class {
	var out []Class
	slot := make([]int, len(closed)) // 1 + position in out, 0 when not yet seen
	for i, k := range comp {
		if !closed[k] || (keep != nil && !keep[i]) {
			continue
		}
		if slot[k] == 0 {
			out = append(out, Class{})
			slot[k] = len(out)
		}
		s := slot[k] - 1
		out[s].States = append(out[s].States, i)
	}
	for s := range out {
		out[s].Period = period(c.indptr, c.ind, out[s].States)
	}
	return out
}

// scc labels the strongly connected components of the directed graph of a
// CSR pattern with Tarjan's algorithm (Tarjan 1972), run iteratively with an
// explicit stack so that its depth is not limited by the goroutine stack.
// Components are numbered in reverse topological order of the condensation.
func scc(indptr, ind []int) (comp []int, ncomp int) {
	n := len(indptr) - 1
	const unvisited = -1
	index := make([]int, n)
	low := make([]int, n)
	comp = make([]int, n)
	for i := range index {
		index[i] = unvisited
		comp[i] = unvisited
	}
	stack := make([]int, 0, 64) // Tarjan's stack of visited, unassigned states
	type frame struct{ v, next int }
	calls := make([]frame, 0, 64) // explicit call stack of the depth-first search
	counter := 0
	for root := 0; root < n; root++ {
		if index[root] != unvisited {
			continue
		}
		index[root], low[root] = counter, counter
		counter++
		stack = append(stack, root)
		calls = append(calls, frame{v: root, next: indptr[root]})
		for len(calls) > 0 {
			f := &calls[len(calls)-1]
			v := f.v
			if f.next < indptr[v+1] {
				w := ind[f.next]
				f.next++
				switch {
				case index[w] == unvisited:
					index[w], low[w] = counter, counter
					counter++
					stack = append(stack, w)
					calls = append(calls, frame{v: w, next: indptr[w]})
				case comp[w] == unvisited: // w is on the stack
					low[v] = min(low[v], index[w])
				}
				continue
			}
			calls = calls[:len(calls)-1]
			if low[v] == index[v] {
				for {
					w := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					comp[w] = ncomp
					if w == v {
						break
					}
				}
				ncomp++
			}
			if len(calls) > 0 {
				u := calls[len(calls)-1].v
				low[u] = min(low[u], low[v])
			}
		}
	}
	return comp, ncomp
}

// closedComponents reports which components have no edge leaving them.
func closedComponents(indptr, ind, comp []int, ncomp int) []bool {
	closed := make([]bool, ncomp)
	for k := range closed {
		closed[k] = true
	}
	for i, ci := range comp {
		for _, j := range ind[indptr[i]:indptr[i+1]] {
			if comp[j] != ci {
				closed[ci] = false
				break
			}
		}
	}
	return closed
}

// period returns the period of a closed class: with levels d(v) from a
// breadth-first search inside the class, it is the gcd of d(u) + 1 − d(v)
// over all edges u → v of the class.
func period(indptr, ind []int, states []int) int {
	if len(states) == 0 {
		return 0
	}
	level := make([]int, len(indptr)-1)
	for _, v := range states {
		level[v] = -1
	}
	level[states[0]] = 0
	queue := make([]int, 1, len(states))
	queue[0] = states[0]
	g := 0
	for h := 0; h < len(queue); h++ {
		u := queue[h]
		du := level[u]
		for _, v := range ind[indptr[u]:indptr[u+1]] {
			if level[v] < 0 {
				level[v] = du + 1
				queue = append(queue, v)
				continue
			}
			if g = gcd(g, du+1-level[v]); g == 1 {
				return 1
			}
		}
	}
	return g
}

func gcd(a, b int) int {
	if a < 0 {
		a = -a
	}
	if b < 0 {
		b = -b
	}
	for b != 0 {
		a, b = b, a%b
	}
	return a
}
