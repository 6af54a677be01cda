package batchchain

import (
	"math"
	"testing"
)

// TestWait: the waiting state's moves against their closed forms: with
// single failures (sizes [1]) k → k−1 with probability kλ/(kλ + (n−k)θ)
// and k → k+1 with the rest; with events, the law of the count taken
// down is min(K, k) (the sizes above k lumped on k), so that the mean
// loss is E[min(K, k)]; no repair from k = n, no event from k = 0; the
// sojourn is 1/(k·rate + (n − k)·θ). Tolerance 1e-15 relative (one
// division each).
func TestWait(t *testing.T) {
	const rate, theta = 0.3, 0.7
	for _, tc := range []struct {
		sizes []float64
		k, n  int
		want  map[int]float64 // probabilities by next count, before scaling
	}{
		{[]float64{1}, 3, 5, map[int]float64{2: 3 * rate, 4: 2 * theta}},
		{[]float64{1}, 0, 5, map[int]float64{1: 5 * theta}},
		{[]float64{1}, 5, 5, map[int]float64{4: 5 * rate}},
		{[]float64{0.5, 0, 0, 0.5}, 6, 8, map[int]float64{5: 6 * rate * 0.5, 4: 0, 3: 0, 2: 6 * rate * 0.5, 7: 2 * theta}},
		{[]float64{0.5, 0, 0, 0.5}, 2, 8, map[int]float64{1: 2 * rate * 0.5, 0: 2 * rate * 0.5, 3: 6 * theta}},
	} {
		total := float64(tc.k)*rate + float64(tc.n-tc.k)*theta
		got := map[int]float64{}
		tau := Wait(tc.sizes, tc.k, tc.n, rate, theta, func(next int, p float64) {
			if _, dup := got[next]; dup {
				t.Errorf("sizes %v k=%d: %d visited twice", tc.sizes, tc.k, next)
			}
			got[next] = p
		})
		if math.Abs(tau*total-1) > 1e-15 {
			t.Errorf("sizes %v k=%d n=%d: sojourn %v, want %v", tc.sizes, tc.k, tc.n, tau, 1/total)
		}
		if len(got) != len(tc.want) {
			t.Errorf("sizes %v k=%d n=%d: moves %v, want %v", tc.sizes, tc.k, tc.n, got, tc.want)
		}
		for next, w := range tc.want {
			if p, ok := got[next]; !ok || math.Abs(p-w/total) > 1e-15*w/total {
				t.Errorf("sizes %v k=%d n=%d: P(→%d) = %v, want %v", tc.sizes, tc.k, tc.n, next, p, w/total)
			}
		}
	}
}
