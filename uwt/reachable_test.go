package uwt

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/ckpt-markov/markov/internal/graph"
	"github.com/ckpt-markov/markov/internal/testmodel"
)

// TestReachable checks reachable against Warshall's transitive closure
// (testmodel.Closure) on seeded random graphs with a random mask of kept
// transitions: the states reachable along the kept transitions, their
// indices in increasing order (−1 for the others), and the number
// reachable along every transition, exactly. The cases where the mask
// loses states are counted: without them the number reachable along
// every transition would equal the first count and a reachable that
// does not continue its search would pass.
func TestReachable(t *testing.T) {
	lost := 0
	for _, tc := range []struct {
		n, edges int
		keepP    float64
	}{{1, 0, 1}, {1, 2, 0.5}, {5, 8, 0.5}, {12, 12, 0.5}, {30, 60, 0.6}, {30, 200, 0.3}, {80, 120, 0.9}, {80, 400, 0.7}} {
		rng := rand.New(rand.NewPCG(uint64(tc.n), uint64(tc.edges)))
		var rows, cols []int
		for range tc.edges {
			rows, cols = append(rows, rng.IntN(tc.n)), append(cols, rng.IntN(tc.n))
		}
		ptr, adj := graph.Compress(tc.n, rows, cols)
		from := make([]int, len(adj)) // the row of each transition of adj
		kept := make([]bool, len(adj))
		for i := range tc.n {
			for e := ptr[i]; e < ptr[i+1]; e++ {
				from[e], kept[e] = i, rng.Float64() < tc.keepP
			}
		}
		keptReach, allReach := testmodel.Closure(tc.n, from, adj, kept), testmodel.Closure(tc.n, from, adj, nil)
		for start := range min(tc.n, 4) {
			name := fmt.Sprintf("n=%d edges=%d start=%d", tc.n, tc.edges, start)
			idx, sub, all := reachable(start, ptr, adj, kept)
			var wantSub []int
			wantIdx := make([]int32, tc.n)
			wantAll := 0
			for j := range tc.n {
				wantIdx[j] = -1
				if keptReach[start][j] {
					wantIdx[j] = int32(len(wantSub))
					wantSub = append(wantSub, j)
				}
				if allReach[start][j] {
					wantAll++
				}
			}
			if !slices.Equal(sub, wantSub) || !slices.Equal(idx, wantIdx) || all != wantAll {
				t.Errorf("%s: got %v %v %d, want %v %v %d", name, sub, idx, all, wantSub, wantIdx, wantAll)
			}
			if wantAll > len(wantSub) {
				lost++
			}
		}
	}
	if lost < 5 {
		t.Errorf("only %d cases where the mask loses states: the count along every transition is barely tested", lost)
	}
}
