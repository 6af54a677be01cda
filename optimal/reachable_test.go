package optimal

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/ckpt-markov/markov/internal/testmodel"
)

// TestReachableFrom checks reachableFrom against the transitive closure
// of the same graph by Warshall's algorithm (testmodel.Closure), on
// seeded random graphs of several sizes and densities with repeated
// edges and self-loops: the states kept, their renumbering in increasing
// order, and the triplets kept (those leaving a kept state, in their
// order).
func TestReachableFrom(t *testing.T) {
	for _, tc := range []struct{ ns, edges int }{
		{1, 0}, {1, 2}, {5, 3}, {12, 12}, {30, 40}, {30, 200}, {80, 120},
	} {
		rng := rand.New(rand.NewPCG(uint64(tc.ns), uint64(tc.edges)))
		for x0 := range min(tc.ns, 4) {
			name := fmt.Sprintf("ns=%d edges=%d x0=%d", tc.ns, tc.edges, x0)
			var rows, cols []int
			var vals []float64
			for e := range tc.edges {
				rows, cols, vals = append(rows, rng.IntN(tc.ns)), append(cols, rng.IntN(tc.ns)), append(vals, float64(e+1))
			}
			reach := testmodel.Closure(tc.ns, rows, cols, nil)
			var wantSub []int
			idx := make([]int, tc.ns)
			for j := range tc.ns {
				if reach[x0][j] {
					idx[j] = len(wantSub)
					wantSub = append(wantSub, j)
				}
			}
			var wr, wc []int
			var wv []float64
			for e := range rows {
				if reach[x0][rows[e]] {
					wr, wc, wv = append(wr, idx[rows[e]]), append(wc, idx[cols[e]]), append(wv, vals[e])
				}
			}
			sub, r, c, v := reachableFrom(x0, tc.ns, slices.Clone(rows), slices.Clone(cols), slices.Clone(vals))
			if !slices.Equal(sub, wantSub) || !slices.Equal(r, wr) || !slices.Equal(c, wc) || !slices.Equal(v, wv) {
				t.Errorf("%s: got states %v rows %v cols %v vals %v, want %v %v %v %v", name, sub, r, c, v, wantSub, wr, wc, wv)
			}
		}
	}
}
