package intervals

import (
	"math"
	"testing"
)

// TestPlanConstantCostExact: with constant costs the optimum is k equal
// segments (Bouguerra et al., Lemma 1). On a grid that contains W/k for the
// closed-form k, the dynamic programme must find exactly that plan.
func TestPlanConstantCostExact(t *testing.T) {
	for _, tc := range []struct{ lambda, w, c, r float64 }{
		{1.0 / 86400, 7 * 86400, 600, 300},
		{0.5 / 86400, 7 * 86400, 60, 0},
		{1e-3, 2e4, 5, 5},
	} {
		s, err := BouguerraExponential(tc.lambda, tc.w, tc.c, tc.r)
		if err != nil {
			t.Fatal(err)
		}
		p, err := BouguerraPlan(Exponential{Rate: tc.lambda}, tc.w, ConstantCost(tc.c), ConstantCost(tc.r),
			&PlanSettings{Steps: 12 * s.Count})
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Segments) != s.Count || relDiff(p.Expected, s.Expected) > 1e-12 {
			t.Errorf("%+v: plan has %d segments, E=%v; closed form k=%d, E=%v", tc, len(p.Segments), p.Expected, s.Count, s.Expected)
		}
		for _, seg := range p.Segments {
			if relDiff(seg, s.Interval) > 1e-12 {
				t.Errorf("%+v: segment %v, want W/k = %v", tc, seg, s.Interval)
			}
		}
	}
}

// TestPlanGridError: off-grid optima. With E* = min over integer k of the
// equal-segment cost (closed form), E* ≤ E_h and, rounding the boundaries
// of the continuous optimum to the grid (each segment changes by at most
// h, the changes summing to zero), E_h − E* ≤ ½·k·max g″·h² with
// g″(η) = λe^{λη}. The Richardson estimate must have the right size.
func TestPlanGridError(t *testing.T) {
	const lambda, w, c, r = 1.0 / 86400, 7 * 86400.0, 600.0, 300.0
	s, _ := BouguerraExponential(lambda, w, c, r)
	law := Exponential{Rate: lambda}
	for _, m := range []int{97, 301, 1001, 3001} {
		p, err := BouguerraPlan(law, w, ConstantCost(c), ConstantCost(r), &PlanSettings{Steps: m})
		if err != nil {
			t.Fatal(err)
		}
		h := w / float64(m)
		bound := 0.5 * float64(s.Count) * lambda * math.Exp(lambda*(s.Interval+h+c+r)) * h * h
		excess := p.Expected - s.Expected
		if excess < -1e-9*s.Expected || excess > bound+1e-9*s.Expected {
			t.Errorf("m=%d: E_h − E* = %v, want in [0, %v]", m, excess, bound)
		}
		e, _ := ExpectedCompletion(law, p.Segments, ConstantCost(c), ConstantCost(r))
		if relDiff(e, p.Expected) > 1e-12 {
			t.Errorf("m=%d: Expected %v ≠ ExpectedCompletion(Segments) %v", m, p.Expected, e)
		}
		var sum float64
		for _, seg := range p.Segments {
			sum += seg
		}
		if relDiff(sum, w) > 1e-12 {
			t.Errorf("m=%d: segments sum to %v, want W = %v", m, sum, w)
		}
		if p.ErrorEstimate < -1e-9*s.Expected || p.ErrorEstimate > 4*bound+1e-9*s.Expected {
			t.Errorf("m=%d: ErrorEstimate %v outside [0, 4·bound = %v]", m, p.ErrorEstimate, 4*bound)
		}
	}
}

// TestPlanVariableCost: checkpoint cost growing with the work done (as
// in Bouguerra et al., figs. 7–9). Against an independent continuous
// optimiser (cyclic coordinate descent over the k−1 boundaries with
// ternary search, started from the grid plan), the grid plan must be
// optimal up to the grid error, and the segments must lengthen where
// checkpoints cost more (fig. 9). (gonum's optimize package cannot be
// used here: it imports stat/distmv, whose dependency golang.org/x/tools
// is not in go.sum.)
func TestPlanVariableCost(t *testing.T) {
	// About 11 segments: coordinate descent converges in ~k² sweeps.
	const w = 15 * 3600.0
	cost := func(s float64) float64 { return 60 + 1140*s/w } // 1 to 20 min
	restart := func(s float64) float64 { return cost(s) / 2 }
	for _, law := range []closedLaw{
		Exponential{Rate: 1.0 / 20000},
		Weibull{Rate: 1.0 / 20000, Shape: 0.7},
	} {
		p, err := BouguerraPlan(law, w, cost, restart, &PlanSettings{Steps: 1000})
		if err != nil {
			t.Fatal(err)
		}
		k := len(p.Segments)
		if k < 3 {
			t.Fatalf("%+v: only %d segments", law, k)
		}
		// Continuous refinement in the boundaries S_1 … S_{k−1}.
		bounds := make([]float64, k-1)
		var acc float64
		for j := range bounds {
			acc += p.Segments[j]
			bounds[j] = acc
		}
		segs := func(b []float64) ([]float64, bool) {
			out := make([]float64, k)
			prev := 0.0
			for j, x := range b {
				if x <= prev || x >= w {
					return nil, false
				}
				out[j], prev = x-prev, x
			}
			out[k-1] = w - prev
			return out, true
		}
		best := coordinateDescent(law, cost, restart, bounds, w)
		if s, ok := segs(bounds); !ok {
			t.Fatalf("%+v: refinement broke the ordering of boundaries", law)
		} else if e, _ := ExpectedCompletion(law, s, cost, restart); relDiff(e, best) > 1e-12 {
			t.Fatalf("%+v: refined total %v ≠ ExpectedCompletion %v", law, best, e)
		}
		// Bound of the grid error: segments move by up to h, each η by up to
		// h·(1 + max|C'| + max|R'|) = h·(1 + 1.5·1140/W); g″ is bounded by
		// its largest finite-difference value over the η ranges reached.
		h := p.Step
		var gpp float64
		for _, seg := range p.Segments {
			lo, hi := seg-2*h+cost(0)+restart(0), seg+2*h+cost(w)+restart(w)
			for i := 0; i <= 8; i++ {
				eta := lo + (hi-lo)*float64(i)/8
				d := 1e-3 * eta
				gpp = math.Max(gpp, (law.SegmentTime(eta+d)-2*law.SegmentTime(eta)+law.SegmentTime(eta-d))/(d*d))
			}
		}
		dh := h * (1 + 1.5*1140/w)
		bound := 0.5 * float64(k) * gpp * dh * dh
		if gap := p.Expected - best; gap > bound || gap < 0 {
			t.Errorf("%+v: grid optimum %v, continuous %v: gap %v outside [0, %v]", law, p.Expected, best, gap, bound)
		}
		for j := 1; j < k-1; j++ { // the last segment absorbs the remainder
			if p.Segments[j] < p.Segments[j-1]-h-1e-9 {
				t.Errorf("%+v: segment %d (%v) shorter than segment %d (%v) though C grows", law, j, p.Segments[j], j-1, p.Segments[j-1])
			}
		}
		if p.Segments[k-2] <= p.Segments[0] {
			t.Errorf("%+v: segments do not lengthen: first %v, last full %v", law, p.Segments[0], p.Segments[k-2])
		}
	}
}

// coordinateDescent minimises the expected completion time over increasing
// boundaries b in (0, w), in place, by sweeping over the boundaries and
// minimising each by ternary search between its neighbours (moving S_j
// changes only η_j and η_{j+1}), until a sweep improves the total by less
// than 1e−14 relative. It returns the final total from ExpectedCompletion.
func coordinateDescent(law closedLaw, c, r CostFunc, b []float64, w float64) float64 {
	at := func(j int) float64 { // S_j, with S_0 = 0 and S_k = w
		switch {
		case j == 0:
			return 0
		case j == len(b)+1:
			return w
		}
		return b[j-1]
	}
	seg := func(j int) float64 { // g(η_j) for segment j = 1 … k
		return law.SegmentTime(at(j) - at(j-1) + c(at(j)) + r(at(j-1)))
	}
	total := func() float64 {
		var s float64
		for j := 1; j <= len(b)+1; j++ {
			s += seg(j)
		}
		return s
	}
	f := total()
	for range 2000 {
		for j := 1; j <= len(b); j++ {
			lo, hi := at(j-1), at(j+1)
			x0 := b[j-1]
			local := func(x float64) float64 { b[j-1] = x; return seg(j) + seg(j+1) }
			v0 := local(x0)
			l, rr := lo+(hi-lo)*1e-9, hi-(hi-lo)*1e-9
			for range 60 {
				m1, m2 := l+(rr-l)/3, rr-(rr-l)/3
				if local(m1) < local(m2) {
					rr = m2
				} else {
					l = m1
				}
			}
			if local((l+rr)/2) >= v0 {
				b[j-1] = x0
			}
		}
		prev := f
		f = total()
		if prev-f <= 1e-14*f {
			break
		}
	}
	return f
}

func TestPlanErrors(t *testing.T) {
	law := Exponential{Rate: 1e-3}
	_, err := BouguerraPlan(law, 0, ConstantCost(1), ConstantCost(1), nil)
	wantErr(t, "W = 0", err, "W")
	_, err = BouguerraPlan(law, 100, nil, ConstantCost(1), nil)
	wantErr(t, "nil C", err, "nil cost")
	_, err = BouguerraPlan(law, 100, ConstantCost(1), ConstantCost(1), &PlanSettings{Steps: 1})
	wantErr(t, "Steps = 1", err, "Steps")
	_, err = BouguerraPlan(law, 100, func(s float64) float64 { return 1 - s }, ConstantCost(1), nil)
	wantErr(t, "negative C", err, "C(")
	_, err = BouguerraPlan(Exponential{Rate: 10}, 1e5, ConstantCost(1), ConstantCost(1), &PlanSettings{Steps: 4})
	wantErr(t, "infinite expected time", err, "infinite")
}
