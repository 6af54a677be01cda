package graph_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/ckpt-markov/markov/internal/graph"
	"github.com/ckpt-markov/markov/internal/testmodel"
)

// randomGraph returns edges of a seeded random graph with repeated edges
// and self-loops, and a mask keeping each edge with probability keepP
// (nil when keepP is 1).
func randomGraph(rng *rand.Rand, n, edges int, keepP float64) (rows, cols []int, keep []bool) {
	for range edges {
		rows, cols = append(rows, rng.IntN(n)), append(cols, rng.IntN(n))
	}
	if keepP < 1 {
		keep = make([]bool, edges)
		for e := range keep {
			keep[e] = rng.Float64() < keepP
		}
	}
	return rows, cols, keep
}

// search runs Search from the vertices of from (marked first) on the
// graph in compressed rows, the mask permuted along with the edges.
func search(n int, rows, cols []int, keep []bool, from []int) ([]bool, int) {
	ptr, adj := graph.Compress(n, rows, cols)
	var keepAdj []bool
	if keep != nil {
		// The edges' positions in adj: Compress is stable within a row.
		keepAdj = make([]bool, len(keep))
		next := slices.Clone(ptr[:n])
		for e, i := range rows {
			keepAdj[next[i]] = keep[e]
			next[i]++
		}
	}
	seen := make([]bool, n)
	for _, i := range from {
		seen[i] = true
	}
	return seen, graph.Search(ptr, adj, keepAdj, seen, slices.Clone(from))
}

// mismatch returns the first vertex whose mark differs from the union of
// the closure's rows of from ("" when none), and checks the count of new
// marks.
func mismatch(reach [][]bool, from []int, seen []bool, count int) string {
	marked := 0
	for j := range seen {
		want := false
		for _, i := range from {
			want = want || reach[i][j]
		}
		if seen[j] != want {
			return fmt.Sprintf("vertex %d marked %v, want %v", j, seen[j], want)
		}
		if want {
			marked++
		}
	}
	if count != marked-len(from) {
		return fmt.Sprintf("count %d, want %d", count, marked-len(from))
	}
	return ""
}

// TestSearch checks Search against Warshall's transitive closure
// (testmodel.Closure) on seeded random graphs of several sizes and densities (repeated edges,
// self-loops, isolated vertices), along every edge and along a random
// mask, from one vertex and from several: the vertices marked and their
// count, exactly. Power check: the same comparison rejects a search that
// skips one edge (Search with that edge masked out) for every edge whose
// loss changes what a start reaches, by the closure of the graph
// without it, from every such start (in all at least 100 searches: the
// dense strongly connected cases have no such edge, the sparse ones
// many).
func TestSearch(t *testing.T) {
	caught := 0
	for _, tc := range []struct {
		n, edges int
		keepP    float64
	}{
		{1, 0, 1}, {1, 2, 1}, {2, 1, 1}, {5, 3, 1}, {12, 12, 1}, {12, 12, 0.5},
		{30, 40, 1}, {30, 200, 1}, {30, 200, 0.3}, {80, 120, 1}, {80, 400, 0.7},
	} {
		rng := rand.New(rand.NewPCG(uint64(tc.n), uint64(tc.edges)))
		rows, cols, keep := randomGraph(rng, tc.n, tc.edges, tc.keepP)
		reach := testmodel.Closure(tc.n, rows, cols, keep)
		starts := [][]int{{0}, {tc.n - 1}, {tc.n / 2}}
		if tc.n > 2 {
			starts = append(starts, []int{1, tc.n - 1})
		}
		for _, from := range starts {
			name := fmt.Sprintf("n=%d edges=%d keep=%v from=%v", tc.n, tc.edges, tc.keepP, from)
			seen, count := search(tc.n, rows, cols, keep, from)
			if msg := mismatch(reach, from, seen, count); msg != "" {
				t.Errorf("%s: %s", name, msg)
			}
		}
		// Power: skipping edge e is caught from every start whose closure
		// without e differs.
		for e := range rows {
			drop := make([]bool, len(rows))
			for f := range drop {
				drop[f] = f != e && (keep == nil || keep[f])
			}
			without := testmodel.Closure(tc.n, rows, cols, drop)
			for x0 := range tc.n {
				if slices.Equal(without[x0], reach[x0]) {
					continue
				}
				seen, count := search(tc.n, rows, cols, drop, []int{x0})
				if mismatch(reach, []int{x0}, seen, count) == "" {
					t.Errorf("n=%d edges=%d: a search from %d without edge %d passes", tc.n, tc.edges, x0, e)
				}
				caught++
			}
		}
	}
	if caught < 100 {
		t.Errorf("%d searches without an edge that matters: the power check tests too little", caught)
	}
	t.Logf("power: %d searches without an edge that matters, all rejected", caught)
}

// TestCompress checks Compress against its definition: row i lists the
// columns of the edges with row i, in the edges' order.
func TestCompress(t *testing.T) {
	for _, tc := range []struct{ n, edges int }{{1, 0}, {3, 0}, {1, 3}, {7, 20}, {40, 100}} {
		rng := rand.New(rand.NewPCG(uint64(tc.n), uint64(tc.edges)))
		rows, cols, _ := randomGraph(rng, tc.n, tc.edges, 1)
		ptr, adj := graph.Compress(tc.n, rows, cols)
		if len(ptr) != tc.n+1 || ptr[0] != 0 || ptr[tc.n] != len(adj) || len(adj) != tc.edges {
			t.Fatalf("n=%d edges=%d: ptr %v, %d successors", tc.n, tc.edges, ptr, len(adj))
		}
		for i := range tc.n {
			var want []int
			for e := range rows {
				if rows[e] == i {
					want = append(want, cols[e])
				}
			}
			if got := adj[ptr[i]:ptr[i+1]]; !slices.Equal(got, want) {
				t.Errorf("n=%d edges=%d: row %d = %v, want %v", tc.n, tc.edges, i, got, want)
			}
		}
	}
}

// TestRenumber checks Marked and Renumber against their definitions.
func TestRenumber(t *testing.T) {
	for _, seen := range [][]bool{nil, {false}, {true}, {true, false, true, true, false}, {false, false, true}} {
		var want []int
		for i, ok := range seen {
			if ok {
				want = append(want, i)
			}
		}
		if got := graph.Marked(seen); !slices.Equal(got, want) {
			t.Errorf("Marked(%v) = %v, want %v", seen, got, want)
		}
		idx, sub := graph.Renumber[int32](seen)
		if !slices.Equal(sub, want) || len(idx) != len(seen) {
			t.Errorf("Renumber(%v) = %v, %v", seen, idx, sub)
			continue
		}
		for i, k := range idx {
			if want := int32(slices.Index(sub, i)); k != want {
				t.Errorf("Renumber(%v): idx[%d] = %d, want %d", seen, i, k, want)
			}
		}
	}
}
