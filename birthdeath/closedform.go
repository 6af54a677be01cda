package birthdeath

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// Row is one row s of P_t and Q_t(ρ), restricted to the column window
// [Lo, Hi) that holds all but at most the requested tolerance of the mass
// of each. Entries outside the window are treated as zero.
type Row struct {
	// S is the row index: the spare count at the start of the segment.
	S int
	// Lo and Hi delimit the column window [Lo, Hi).
	Lo, Hi int
	// P[k] is P_t[S, Lo+k] and Q[k] is Q_t(ρ)[S, Lo+k], k = 0..Hi−Lo−1.
	P, Q []float64
	// DroppedP is an upper bound on the mass of row S of P_t outside the
	// window: the exact sum of the trimmed tail entries plus a rigorous
	// bound on the binomial tails never evaluated.
	DroppedP float64
	// DroppedQ is the mass of row S of Q_t(ρ) outside the window (the sum
	// of the trimmed entries, all of which were computed).
	DroppedQ float64
}

// RowBlock is the result of Chain.Rows.
type RowBlock struct {
	// T and Rho are the segment length and the competing failure rate.
	T, Rho float64
	// Survival is e^{−ρT}, the probability that no used processor fails in
	// the segment; the row sums are 1 for P and 1 − Survival for Q.
	Survival float64
	// Rows[i] is row S0+i of the requested range.
	Rows []Row
}

// Rows returns rows s0 ≤ s < s1 of P_t and Q_t(ρ) by the closed form,
// each restricted to a contiguous column window outside which at most tol
// of the mass of P (and, separately, at most tol of the mass of Q) lies.
// tol = 0 keeps every entry that does not underflow. The cost per row is
// O(w_a·w_b + m), where w_a, w_b ≤ O(√m) are the widths of the two binomial
// pmfs; the tridiagonal factorisation of ρI − G_m is shared by the block.
//
// Accuracy: entries of P have relative error O(m·ε) (ε = 2⁻⁵³); entries of
// Q have absolute error O(ε), i.e. relative error O(ε/(1 − e^{−ρt})) with
// respect to the row sum.
//
// Rows returns an error naming the argument if 0 ≤ s0 ≤ s1 ≤ m+1 does not
// hold, if t or rho is negative, NaN or infinite, or if tol is not in [0, 1).
func (c *Chain) Rows(s0, s1 int, t, rho, tol float64) (*RowBlock, error) {
	if s0 < 0 || s0 > c.m+1 {
		return nil, fmt.Errorf("birthdeath: s0 = %d is outside [0, m+1 = %d]", s0, c.m+1)
	}
	if s1 < s0 || s1 > c.m+1 {
		return nil, fmt.Errorf("birthdeath: s1 = %d is outside [s0 = %d, m+1 = %d]", s1, s0, c.m+1)
	}
	if err := checkTime("t", t); err != nil {
		return nil, err
	}
	if err := checkRate("rho", rho); err != nil {
		return nil, err
	}
	if math.IsNaN(tol) || tol < 0 || tol >= 1 {
		return nil, fmt.Errorf("birthdeath: tol = %v is not in [0, 1)", tol)
	}
	return c.rows(s0, s1, t, rho, tol), nil
}

// maxBinomialCut bounds the relative mass dropped from each tail of a
// binomial pmf when tol > 0: 2⁻⁶⁰ is far below the unit roundoff, so the
// renormalisation of the kept part is exact to working precision.
const maxBinomialCut = 0x1p-60

// twoState holds the transition probabilities over time t of one processor
// that alternates between functional (1) and failed (0): p11 = P(1 → 1),
// q11 = 1 − p11, p01 = P(0 → 1), q01 = 1 − p01. Each is computed without
// cancellation so that both a probability and its complement are accurate.
type twoState struct {
	p11, q11, p01, q01 float64
}

func (c *Chain) twoState(t float64) twoState {
	nu := c.lambda + c.theta
	if nu == 0 || t == 0 {
		return twoState{p11: 1, q11: 0, p01: 0, q01: 1}
	}
	e := math.Exp(-nu * t)
	em := -math.Expm1(-nu * t) // 1 − e^{−νt}
	return twoState{
		p11: (c.theta + c.lambda*e) / nu, // π + (1−π)e^{−νt}
		q11: c.lambda * em / nu,
		p01: c.theta * em / nu, // π(1 − e^{−νt})
		q01: (c.lambda + c.theta*e) / nu,
	}
}

// binomial writes the pmf of Binomial(n, p) (q = 1 − p given separately)
// into buf[lo:hi] and returns lo, hi and an upper bound on the mass outside
// [lo, hi). buf must have length at least n+1; entries outside [lo, hi) are
// not touched. Starting from weight 1 at the mode, the weights are built
// outward by the ratio recurrence w_{k+1}/w_k = (n−k)p/((k+1)q) (all
// terms positive, no overflow since the mode is the largest) and normalised
// by their sum. Each tail is cut once the geometric bound w_k·r/(1−r) on
// the rest (the ratios r decrease away from the mode) is at most cut times
// the kept mass; cut = 0 keeps all weights that do not underflow.
func binomial(buf []float64, n int, p, q, cut float64) (lo, hi int, dropped float64) {
	switch {
	case n == 0 || p == 0:
		buf[0] = 1
		return 0, 1, 0
	case q == 0:
		buf[n] = 1
		return n, n + 1, 0
	}
	mode := int(float64(n+1) * p)
	if mode > n {
		mode = n
	}
	buf[mode] = 1
	sum := 1.0
	var tailUp, tailDown float64

	hi = mode + 1
	r := p / q
	w := 1.0
	for k := mode; k < n; k++ {
		rk := float64(n-k) / float64(k+1) * r // w_{k+1}/w_k
		if cut > 0 && rk < 1 {
			if b := w * rk / (1 - rk); b <= cut*sum {
				tailUp = b
				break
			}
		}
		w *= rk
		if w == 0 {
			break
		}
		buf[k+1] = w
		sum += w
		hi = k + 2
	}

	lo = mode
	r = q / p
	w = 1
	for k := mode; k > 0; k-- {
		rk := float64(k) / float64(n-k+1) * r // w_{k−1}/w_k
		if cut > 0 && rk < 1 {
			if b := w * rk / (1 - rk); b <= cut*sum {
				tailDown = b
				break
			}
		}
		w *= rk
		if w == 0 {
			break
		}
		buf[k-1] = w
		sum += w
		lo = k - 1
	}

	inv := 1 / sum
	floats.Scale(inv, buf[lo:hi])
	return lo, hi, (tailUp + tailDown) * inv
}

// resolvent holds the LU factorisation A = ρI − G_m = LU (no pivoting) in
// the subtraction-free form of Grassmann, Taksar & Heyman: with
// σ_0 = ρ, σ_i = ρ + iλσ_{i−1}/d_{i−1} (the row sums of the reduced
// matrix) and d_i = σ_i + (m−i)θ (the pivots), every quantity is a sum of
// positive terms. Solving Aᵀx = v for v ≥ 0 is then subtraction-free as
// well, hence accurate entrywise.
type resolvent struct {
	invD []float64 // 1/d_i
	up   []float64 // (m−i+1)θ/d_i, i ≥ 1; up[0] = 0 (forward sweep)
	down []float64 // (i+1)λ/d_i, i < m; down[m] = 0 (backward sweep)
}

func (c *Chain) factor(r *resolvent, rho float64) {
	m := c.m
	sigma := rho
	d := rho + float64(m)*c.theta
	r.invD[0] = 1 / d
	r.up[0] = 0
	for i := 1; i <= m; i++ {
		sigma = rho + float64(i)*c.lambda*sigma/d
		d = sigma + float64(m-i)*c.theta
		r.invD[i] = 1 / d
		r.up[i] = float64(m-i+1) * c.theta / d
	}
	for i := 0; i < m; i++ {
		r.down[i] = float64(i+1) * c.lambda * r.invD[i]
	}
	r.down[m] = 0
}

// workspace holds the scratch vectors of one Rows call.
type workspace struct {
	a, b   []float64 // binomial pmfs
	p, q   []float64 // full rows of P and Q
	yp, ym []float64 // forward-sweep results
	res    resolvent
}

func newWorkspace(n int) *workspace {
	buf := make([]float64, 9*n)
	w := &workspace{}
	for _, s := range []*[]float64{&w.a, &w.b, &w.p, &w.q, &w.yp, &w.ym, &w.res.invD, &w.res.up, &w.res.down} {
		*s, buf = buf[:n:n], buf[n:]
	}
	return w
}

// rows implements Rows for validated arguments.
func (c *Chain) rows(s0, s1 int, t, rho, tol float64) *RowBlock {
	m := c.m
	n := m + 1
	ws := newWorkspace(n)
	ts := c.twoState(t)
	surv := math.Exp(-rho * t)
	needQ := rho > 0 && t > 0
	if needQ {
		c.factor(&ws.res, rho)
	}
	cut := 0.0
	if tol > 0 {
		cut = math.Min(tol, maxBinomialCut) / 4
	}

	blk := &RowBlock{T: t, Rho: rho, Survival: surv, Rows: make([]Row, s1-s0)}
	var slab []float64
	for s := s0; s < s1; s++ {
		// Row s of P_t: Binomial(s, p11) * Binomial(m−s, p01).
		alo, ahi, da := binomial(ws.a, s, ts.p11, ts.q11, cut)
		blo, bhi, db := binomial(ws.b, m-s, ts.p01, ts.q01, cut)
		plo, phi := alo+blo, ahi+bhi-1
		pv := ws.p
		clear(pv[plo:phi])
		av, bv := ws.a[alo:ahi], ws.b[blo:bhi]
		if len(av) > len(bv) {
			av, bv = bv, av
		}
		for i, ai := range av {
			floats.AddScaled(pv[plo+i:plo+i+len(bv)], ai, bv)
		}
		dropBinom := da + db

		loP, hiP := trim(pv, plo, phi, math.Max(tol-dropBinom, 0))
		lo, hi := loP, hiP
		qv := ws.q
		if needQ {
			c.qRow(ws, s, plo, phi, rho, surv)
			loQ, hiQ := trim(qv, 0, n, tol)
			if loQ < hiQ {
				lo, hi = min(lo, loQ), max(hi, hiQ)
			}
		}

		width := hi - lo
		if cap(slab)-len(slab) < 2*width {
			slab = make([]float64, 0, max(2*width, 8*n))
		}
		vals := slab[len(slab) : len(slab)+2*width]
		slab = slab[:len(slab)+2*width]
		row := Row{S: s, Lo: lo, Hi: hi, P: vals[:width:width], Q: vals[width : 2*width : 2*width]}
		// P is zero outside [plo, phi).
		for j := max(lo, plo); j < min(hi, phi); j++ {
			row.P[j-lo] = pv[j]
		}
		row.DroppedP = dropBinom + sumOutside(pv, plo, phi, lo, hi)
		if needQ {
			copy(row.Q, qv[lo:hi])
			row.DroppedQ = sumOutside(qv, 0, n, lo, hi)
		}
		blk.Rows[s-s0] = row
	}
	return blk
}

// qRow writes row s of Q_t(ρ) = ρ(ρI − G)⁻¹(I − e^{−ρt}P_t) into ws.q, given
// row s of P_t in ws.p[plo:phi] (zero elsewhere in [0, m]). It solves
// Aᵀx⁺ = e_s and Aᵀx⁻ = P_t[s,·]ᵀ with A = ρI − G in one fused pass (both
// right-hand sides are non-negative, so both solves are subtraction-free)
// and forms ρ(x⁺ − e^{−ρt}x⁻), the only subtraction, clamped at zero.
func (c *Chain) qRow(ws *workspace, s, plo, phi int, rho, surv float64) {
	m := c.m
	r := &ws.res
	pv, yp, ym := ws.p, ws.yp, ws.ym
	// Forward sweep with Uᵀ: y_i = (v_i + (m−i+1)θ y_{i−1})/d_i; both
	// right-hand sides vanish below min(s, plo).
	i0 := min(s, plo)
	clear(yp[:i0])
	clear(ym[:i0])
	var a, b float64
	for i := i0; i <= m; i++ {
		a *= r.up[i]
		b *= r.up[i]
		if i == s {
			a += r.invD[i]
		}
		if i >= plo && i < phi {
			b += pv[i] * r.invD[i]
		}
		yp[i], ym[i] = a, b
	}
	// Backward sweep with Lᵀ: x_i = y_i + (i+1)λ x_{i+1}/d_i.
	qv := ws.q
	a, b = 0, 0
	for i := m; i >= 0; i-- {
		a = yp[i] + r.down[i]*a
		b = ym[i] + r.down[i]*b
		v := rho * (a - surv*b)
		if v < 0 {
			v = 0
		}
		qv[i] = v
	}
}

// trim returns the window [lo, hi) ⊆ [lo0, hi0) left after removing from
// each end of v[lo0:hi0] the entries whose cumulative sum stays within the
// budget: half of it for the low end, the rest for the high end.
func trim(v []float64, lo0, hi0 int, budget float64) (lo, hi int) {
	lo, hi = lo0, hi0
	var cum float64
	for lo < hi && cum+v[lo] <= budget/2 {
		cum += v[lo]
		lo++
	}
	for hi > lo && cum+v[hi-1] <= budget {
		cum += v[hi-1]
		hi--
	}
	return lo, hi
}

// sumOutside returns the sum of v[j] over j in [lo0, hi0) \ [lo, hi).
func sumOutside(v []float64, lo0, hi0, lo, hi int) float64 {
	var s float64
	for j := lo0; j < min(lo, hi0); j++ {
		s += v[j]
	}
	for j := max(hi, lo0); j < hi0; j++ {
		s += v[j]
	}
	return s
}

// closedDense computes the dense P_t and Q_t(ρ) by the closed form: all
// rows with tol = 0.
func (c *Chain) closedDense(t, rho float64, wantP, wantQ bool) (p, q *mat.Dense, err error) {
	n := c.m + 1
	blk := c.rows(0, n, t, rho, 0)
	if wantP {
		p = mat.NewDense(n, n, nil)
	}
	if wantQ {
		q = mat.NewDense(n, n, nil)
	}
	for _, r := range blk.Rows {
		if p != nil {
			copy(p.RawRowView(r.S)[r.Lo:r.Hi], r.P)
		}
		if q != nil {
			copy(q.RawRowView(r.S)[r.Lo:r.Hi], r.Q)
		}
	}
	return p, q, nil
}
