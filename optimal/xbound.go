package optimal

import (
	"math"
	"math/bits"
)

// An upper bound on the bracket of a recovery, for the improvement passes
// with up states (doc.go, "Reconfiguration at checkpoints").
//
// With up states, the bracket of X(p, n) under a recovery on a ≥ 1,
//
//	−g·τ + Σ_i P_up[i]·h_U(a, i) + Σ_j P_fail[j]·h_X(p, j),
//
// (xValue) is at most
//
//	−g·τ + M_up·max_{i ∈ [i₀, i₁]} h_U(a, i) + M_fail·max_{j ∈ [j₀, j₁]} h_X(p, j),
//
// M the masses of the row's two parts (the probabilities are
// nonnegative) and [i₀, i₁], [j₀, j₁] the ranges of their indexes. The
// masses and ranges are the row's (recSummary, made once with the rows,
// which depend on neither the policy nor the interval); the maxima over a
// range are read from a sparse table of h per configuration and per
// checkpoint count (rangeMax, made once per improvement pass), O(1) a
// query. improveX and improveR take an action only when its bracket
// beats the best so far (strictly), so an action whose bound, plus a
// slack for the rounding of the two sums (1e-12 of the terms' largest
// magnitudes: the sums have at most a few hundred terms, each rounded
// to 1.1e-16), does not exceed the best so far cannot be taken, and its
// bracket is not computed (xValues.mayBeat): the same actions as the
// exhaustive pass, bit for bit (TestXBoundSameLevels), the bound held
// against every bracket in TestXValueBound.

// xBound enables xValues.mayBeat's test; tests turn it off to hold the
// passes with it against the exhaustive ones.
var xBound = true

// recSummary is what the bound needs of a recovery row: its sojourn τ,
// the masses of its transitions into the up states and into the decision
// states, and the ranges [u0, u1] and [f0, f1] of their indexes (u1 < u0
// when the part is empty).
type recSummary struct {
	tau, mu, mf    float64
	u0, u1, f0, f1 int32
}

// recSumIndex returns the index in sv.recSum of the row of X(ps[pi], n)
// → acts[b]: the configurations of one state are adjacent, as improveX
// and improveR visit them.
func (sv *Solver) recSumIndex(pi, n, b int) int {
	return (pi*sv.w+n-sv.lo)*len(sv.acts) + b
}

// summarize returns the recSummary of r.
func summarize(r *row) recSummary {
	s := recSummary{tau: r.tau, u0: math.MaxInt32, u1: -1, f0: math.MaxInt32, f1: -1}
	for _, e := range r.up {
		s.mu += e.p
		s.u0, s.u1 = min(s.u0, e.i), max(s.u1, e.i)
	}
	for _, e := range r.fail {
		s.mf += e.p
		s.f0, s.f1 = min(s.f0, e.i), max(s.f1, e.i)
	}
	return s
}

// rangeMax is a sparse table of the maxima of a vector h over the ranges
// of length 2^l (level l holds max h[i : i + 2^l]), and the largest |h|.
type rangeMax struct {
	lv     [][]float64
	maxAbs float64
}

// newRangeMax returns the table of h (not empty).
func newRangeMax(h []float64) *rangeMax {
	t := &rangeMax{lv: [][]float64{h}}
	for _, x := range h {
		t.maxAbs = max(t.maxAbs, math.Abs(x))
	}
	for l := 1; 1<<l <= len(h); l++ {
		prev, half := t.lv[l-1], 1<<(l-1)
		cur := make([]float64, len(h)-(1<<l)+1)
		for i := range cur {
			cur[i] = max(prev[i], prev[i+half])
		}
		t.lv = append(t.lv, cur)
	}
	return t
}

// max returns max h[i0..i1] (i0 ≤ i1, both within h).
func (t *rangeMax) max(i0, i1 int32) float64 {
	l := bits.Len32(uint32(i1-i0+1)) - 1
	row := t.lv[l]
	return max(row[i0], row[i1-int32(1<<l)+1])
}

// mayBeat reports whether the bracket of X(ps[pi], n) under c may exceed
// vb: always for waiting (c = 0) and without xBound; otherwise whether
// the bound on it, plus its slack, exceeds vb.
func (xv *xValues) mayBeat(pi, n, c int, vb float64) bool {
	if c == 0 || !xBound {
		return true
	}
	// improveR asks about X(a, a + s) under c from every up state U(a, s)
	// and improveX once more: the bound is kept like the bracket, and a
	// bracket computed already is compared as it is.
	var ub float64
	switch i := xv.index(pi, n, c); {
	case i >= 0 && xv.kind[i] == valueKept:
		return true
	case i >= 0 && xv.kind[i] == boundKept:
		ub = xv.vals[i]
	default:
		b, slack := xv.bound(pi, n, c)
		ub = b + slack
		if i >= 0 {
			xv.vals[i], xv.kind[i] = ub, boundKept
		}
	}
	if ub > vb {
		return true
	}
	xv.skipped++
	return false
}

// bound returns the upper bound on the bracket of X(ps[pi], n) under the
// recovery on c ≥ 1 and the slack for its rounding.
func (xv *xValues) bound(pi, n, c int) (ub, slack float64) {
	sv, v := xv.sv, xv.v
	b := sv.aIdx[c]
	sm := &sv.recSum[sv.recSumIndex(pi, n, b)]
	ub = -v.g * sm.tau
	terms := math.Abs(ub)
	if sm.u1 >= sm.u0 {
		t := xv.upTable(b)
		ub += sm.mu * t.max(sm.u0, sm.u1)
		terms += sm.mu * t.maxAbs
	}
	if sm.f1 >= sm.f0 {
		t := xv.xTable(pi)
		ub += sm.mf * t.max(sm.f0, sm.f1)
		terms += sm.mf * t.maxAbs
	}
	return ub, 1e-12 * terms
}

// upTable returns the rangeMax of h over the up states of configuration
// b, made on first use in this pass.
func (xv *xValues) upTable(b int) *rangeMax {
	if xv.tabU == nil {
		xv.tabU = make([]*rangeMax, len(xv.sv.acts))
	}
	if xv.tabU[b] == nil {
		xv.tabU[b] = newRangeMax(xv.v.upH(b))
	}
	return xv.tabU[b]
}

// xTable returns the rangeMax of h over the decision states X(ps[pi], ·),
// made on first use in this pass.
func (xv *xValues) xTable(pi int) *rangeMax {
	sv := xv.sv
	if xv.tabX == nil {
		xv.tabX = make([]*rangeMax, len(sv.ps))
	}
	if xv.tabX[pi] == nil {
		xv.tabX[pi] = newRangeMax(xv.v.hX[pi*sv.w : (pi+1)*sv.w])
	}
	return xv.tabX[pi]
}
