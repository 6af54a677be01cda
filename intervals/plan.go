package intervals

import (
	"fmt"
	"math"

	"github.com/ckpt-markov/markov/law"
)

// PlanSettings controls BouguerraPlan. A nil *PlanSettings means the
// defaults.
type PlanSettings struct {
	// Steps is the number m ≥ 2 of grid steps over the work [0, W],
	// rounded up to an even number so that the grid of step 2h used for
	// the error estimate is a subgrid; zero means 1000.
	Steps int
}

// Plan is a checkpoint placement for variable checkpoint and restart
// costs, optimal on a grid of the work.
type Plan struct {
	// Segments are the work lengths I_1, …, I_k, multiples of Step
	// summing to W.
	Segments []float64
	// Expected is the expected completion time of Segments
	// (ExpectedCompletion), the optimum over the grid.
	Expected float64
	// Step is the grid step h = W/m (m = Steps rounded up to even).
	Step float64
	// Coarse is the optimum over the grid of step 2h (m/2 steps), a
	// subgrid, so Coarse ≥ Expected.
	Coarse float64
	// ErrorEstimate is (Coarse − Expected)/3, the Richardson estimate of
	// Expected − E*, where E* is the optimum over unrestricted segment
	// lengths, assuming the grid error decreases as h² (see BouguerraPlan).
	ErrorEstimate float64
}

// BouguerraPlan minimises the expected completion time of Bouguerra et al.
// (2008, section 5.2) with checkpoint cost C(S) and restart cost R(S)
// depending on the work done S,
//
//	E = Σ_j g(I_j + C(S_j) + R(S_{j−1})),   Σ_j I_j = W,
//
// over the number of segments k and the segment lengths, with the
// segment boundaries S_j restricted to the grid {0, h, 2h, …, W}, h = W/m.
// The dynamic programme
//
//	V(W) = 0,   V(S) = min_{S' > S} [ g(S' − S + C(S') + R(S)) + V(S') ]
//
// is solved exactly on the grid. Because g(η) ≥ η and g' ≥ 1, the bound
// g(S' − S) + (W − S') on the bracket is non-decreasing in S', and the
// scan over S' stops once it exceeds the best value found, so long
// segments are never evaluated.
//
// Grid error. Let E* be the optimum over unrestricted lengths and E_h the
// grid optimum. Then E* ≤ E_h, and rounding each boundary of an optimal
// continuous plan to the nearest grid point shows E_h − E* ≤ Σ_j
// |∂E/∂S_j|·h/2 + O(k·h²·max g″·(1 + |C'| + |R'|)²). At an interior optimum
// with C, R and S differentiable the gradient terms vanish, so E_h − E* =
// O(k·h²). Plan.ErrorEstimate estimates it from the solution on the grid
// of step 2h.
func BouguerraPlan(law law.Law, w float64, c, r CostFunc, set *PlanSettings) (*Plan, error) {
	const fn = "BouguerraPlan"
	if err := validLaw(fn, law); err != nil {
		return nil, err
	}
	if err := checkPositive(fn, "W", w); err != nil {
		return nil, err
	}
	if c == nil || r == nil {
		return nil, fmt.Errorf("intervals: %s: nil cost function", fn)
	}
	m := 1000
	if set != nil && set.Steps != 0 {
		m = set.Steps
	}
	if m < 2 {
		return nil, fmt.Errorf("intervals: %s: Steps = %d, want ≥ 2", fn, m)
	}
	m += m % 2
	cg := make([]float64, m+1)
	rg := make([]float64, m+1)
	for i := range cg {
		s := w * float64(i) / float64(m)
		cg[i], rg[i] = c(s), r(s)
		if !nonNegative(cg[i]) {
			return nil, paramError(fn, fmt.Sprintf("C(%v)", s), cg[i], "a finite value ≥ 0")
		}
		if !nonNegative(rg[i]) {
			return nil, paramError(fn, fmt.Sprintf("R(%v)", s), rg[i], "a finite value ≥ 0")
		}
	}
	cuts, fine := planDP(law, w, m, cg, rg, 1)
	if math.IsInf(fine, 1) {
		return nil, fmt.Errorf("intervals: %s: expected time is infinite on the grid (failures too frequent or Steps too small)", fn)
	}
	_, coarse := planDP(law, w, m/2, cg, rg, 2)
	h := w / float64(m)
	segs := make([]float64, len(cuts)-1)
	for j := range segs {
		segs[j] = w * float64(cuts[j+1]-cuts[j]) / float64(m)
	}
	return &Plan{
		Segments:      segs,
		Expected:      fine,
		Step:          h,
		Coarse:        coarse,
		ErrorEstimate: (coarse - fine) / 3,
	}, nil
}

// planDP solves the dynamic programme on the grid of m steps of size W/m.
// cg and rg hold the costs on the finest grid; grid point i of this grid
// is point i·stride of the finest one. It returns the boundaries as
// indices of the finest grid (0 first, m·stride last) and the optimum.
func planDP(law law.Law, w float64, m int, cg, rg []float64, stride int) ([]int, float64) {
	h := w / float64(m)
	// gLen[d] = g(d·h): the bound of the scan.
	gLen := make([]float64, m+1)
	for d := 1; d <= m; d++ {
		gLen[d] = segmentTime(law, float64(d)*h)
	}
	v := make([]float64, m+1)
	next := make([]int, m+1)
	for i := m - 1; i >= 0; i-- {
		best, arg := math.Inf(1), m
		ri := rg[i*stride]
		for j := i + 1; j <= m; j++ {
			d := j - i
			if gLen[d]+w*float64(m-j)/float64(m) >= best {
				break
			}
			val := segmentTime(law, float64(d)*h+cg[j*stride]+ri) + v[j]
			if val < best {
				best, arg = val, j
			}
		}
		v[i], next[i] = best, arg
	}
	cuts := []int{0}
	for i := 0; i < m; i = next[i] {
		cuts = append(cuts, next[i]*stride)
	}
	return cuts, v[0]
}
