package markov

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// closureSCC is the brute-force oracle for strongly connected components:
// i and j communicate iff each is reachable from the other (one BFS per
// state). It returns a canonical component label: the smallest member.
func closureSCC(c *Chain[int]) []int {
	n := c.Len()
	reach := make([][]bool, n)
	for i := range reach {
		reach[i] = c.reach(i)
	}
	label := make([]int, n)
	for i := 0; i < n; i++ {
		label[i] = i
		for j := 0; j < i; j++ {
			if reach[i][j] && reach[j][i] {
				label[i] = label[j]
				break
			}
		}
	}
	return label
}

// bruteClosedClasses finds the closed classes from the oracle above: a
// class is closed iff nothing outside it is reachable from it.
func bruteClosedClasses(c *Chain[int]) [][]int {
	label := closureSCC(c)
	var out [][]int
	for i := 0; i < c.Len(); i++ {
		if label[i] != i {
			continue
		}
		var members []int
		for j := range label {
			if label[j] == i {
				members = append(members, j)
			}
		}
		closed := true
		for _, j := range c.Reachable(i) {
			if label[j] != i {
				closed = false
			}
		}
		if closed {
			out = append(out, members)
		}
	}
	return out
}

// brutePeriod is the oracle for the period of the class containing state
// i: the gcd of the lengths n ≤ limit of the closed walks i → i, from
// boolean matrix-vector products.
func brutePeriod(c *Chain[int], i, limit int) int {
	cur := make([]bool, c.Len())
	cur[i] = true
	g := 0
	for step := 1; step <= limit; step++ {
		next := make([]bool, c.Len())
		for u, ok := range cur {
			if ok {
				to, _ := c.Row(u)
				for _, v := range to {
					next[v] = true
				}
			}
		}
		if next[i] {
			g = gcd(g, step)
		}
		cur = next
	}
	return g
}

// randomGraphChain returns a chain whose transition graph is a sparse random
// directed graph (uniform weights), often reducible.
func randomGraphChain(tb testing.TB, rng *rand.Rand, n int, deg float64) *Chain[int] {
	tr := &triplets{n: n}
	for i := 0; i < n; i++ {
		cols := []int{}
		for len(cols) == 0 || rng.Float64() < deg/(deg+1) {
			cols = append(cols, rng.IntN(n))
		}
		tr.randomRow(rng, i, cols)
	}
	return tr.build(tb, nil)
}

func TestSCCAgainstClosure(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	for trial := 0; trial < 200; trial++ {
		n := 1 + rng.IntN(40)
		c := randomGraphChain(t, rng, n, 0.3+2*rng.Float64())
		comp, ncomp := scc(c.indptr, c.ind)
		want := closureSCC(c)
		// Same partition: comp[i] == comp[j] iff want[i] == want[j].
		seen := make(map[int]int)
		for i := range comp {
			if w, ok := seen[comp[i]]; ok && w != want[i] {
				t.Fatalf("trial %d: SCC %v, closure %v", trial, comp, want)
			}
			seen[comp[i]] = want[i]
		}
		if len(seen) != ncomp {
			t.Fatalf("trial %d: %d labels used, ncomp %d", trial, len(seen), ncomp)
		}
		got := c.ClosedClasses()
		wantClasses := bruteClosedClasses(c)
		if len(got) != len(wantClasses) {
			t.Fatalf("trial %d: %d closed classes, want %d", trial, len(got), len(wantClasses))
		}
		for k := range got {
			if !slices.Equal(got[k].States, wantClasses[k]) {
				t.Fatalf("trial %d: class %v, want %v", trial, got[k].States, wantClasses[k])
			}
			// Closed walks at state i up to 3n long give the period: for
			// every simple cycle C (|C| ≤ n) through some v of the class,
			// i→v→i (length L ≤ 2n−2) and i→v, around C, v→i (L + |C|)
			// are both such walks, so their gcd divides every cycle length.
			if p := brutePeriod(c, got[k].States[0], 3*n); got[k].Period != p {
				t.Fatalf("trial %d: class %v period %d, want %d", trial, got[k].States, got[k].Period, p)
			}
		}
	}
}

// TestSCCDeep: a single cycle of 200,000 states makes the depth-first search
// 200,000 calls deep, which the iterative Tarjan must survive.
func TestSCCDeep(t *testing.T) {
	const n = 200000
	tr := &triplets{n: n}
	for i := 0; i < n; i++ {
		tr.add(i, (i+1)%n, 1)
	}
	c := tr.build(t, nil)
	cls := c.ClosedClasses()
	if len(cls) != 1 || len(cls[0].States) != n || cls[0].Period != n {
		t.Fatalf("got %d classes, first of %d states and period %d", len(cls), len(cls[0].States), cls[0].Period)
	}
}

func TestPeriod(t *testing.T) {
	for _, tc := range []struct {
		name  string
		edges [][2]int
		want  int
	}{
		{"self-loop", [][2]int{{0, 0}}, 1},
		{"3-cycle", [][2]int{{0, 1}, {1, 2}, {2, 0}}, 3},
		// Cycles of lengths 3 and 6 through state 0: gcd 3.
		{"3 and 6", [][2]int{{0, 1}, {1, 2}, {2, 0}, {2, 3}, {3, 4}, {4, 5}, {5, 0}}, 3},
		// Cycles of lengths 2 and 3: gcd 1.
		{"2 and 3", [][2]int{{0, 1}, {1, 0}, {1, 2}, {2, 0}}, 1},
		// Complete bipartite K_{2,3} walk: period 2.
		{"bipartite", [][2]int{{0, 2}, {0, 3}, {0, 4}, {1, 2}, {1, 3}, {1, 4}, {2, 0}, {2, 1}, {3, 0}, {3, 1}, {4, 0}, {4, 1}}, 2},
	} {
		out := map[int]int{}
		for _, e := range tc.edges {
			out[e[0]]++
		}
		b := NewBuilder[int]()
		for _, e := range tc.edges {
			b.Add(e[0], e[1], 1/float64(out[e[0]]))
		}
		c, err := b.Build(nil)
		if err != nil {
			t.Fatal(err)
		}
		cl, err := c.ClosedClass(0)
		if err != nil {
			t.Fatal(err)
		}
		if cl.Period != tc.want {
			t.Errorf("%s: period %d, want %d", tc.name, cl.Period, tc.want)
		}
	}
}

func TestReachableAndClosedClass(t *testing.T) {
	// s → {t, x}; t → {a1}; a1 ↔ a2 (closed); x → {b} (closed, absorbing);
	// y → {a1} is unreachable from s.
	b := NewBuilder[string]()
	for _, e := range []struct {
		from, to string
		p        float64
	}{
		{"s", "t", 0.5}, {"s", "x", 0.5}, {"t", "a1", 1}, {"a1", "a2", 1}, {"a2", "a1", 1},
		{"x", "b", 1}, {"b", "b", 1}, {"y", "a1", 1},
	} {
		b.Add(e.from, e.to, e.p)
	}
	c, err := b.Build(nil)
	if err != nil {
		t.Fatal(err)
	}
	names := func(idx []int) string {
		var s []string
		for _, i := range idx {
			s = append(s, c.Label(i))
		}
		slices.Sort(s)
		return strings.Join(s, " ")
	}
	idx := func(l string) int { i, _ := c.Index(l); return i }
	if got := names(c.Reachable(idx("s"))); got != "a1 a2 b s t x" {
		t.Errorf("Reachable(s) = %s", got)
	}
	if got := names(c.Reachable(idx("b"))); got != "b" {
		t.Errorf("Reachable(b) = %s", got)
	}
	cl, err := c.ClosedClass(idx("t"))
	if err != nil || names(cl.States) != "a1 a2" || cl.Period != 2 {
		t.Errorf("ClosedClass(t) = %v (%s), %v", cl, names(cl.States), err)
	}
	cl, err = c.ClosedClass(idx("x"))
	if err != nil || names(cl.States) != "b" || cl.Period != 1 {
		t.Errorf("ClosedClass(x) = %v, %v", cl, err)
	}
	_, err = c.ClosedClass(idx("s"))
	if !errors.Is(err, ErrReducible) || !strings.Contains(err.Error(), "state s") {
		t.Errorf("ClosedClass(s): error %v", err)
	}
	if got := fmt.Sprint(len(c.ClosedClasses())); got != "2" {
		t.Errorf("%s closed classes, want 2", got)
	}
}
