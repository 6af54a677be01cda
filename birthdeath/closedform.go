package birthdeath

import (
	"fmt"
	"math"
	"sync"

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
	// DroppedQ bounds the mass of row S of Q_t(ρ) that the row misses: the
	// sum of the trimmed entries plus, when the row was solved on a window
	// of columns (tol > 0), the deficit of that solve, (1 − e^{−ρT}) minus
	// its sum (the windowed solve is a lower bound entrywise), less a
	// summation rounding allowance of 4(w+1)ε(1 − e^{−ρT}).
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

	slab []float64 // the rows' values, kept for RowsInto
}

// Rows returns rows s0 ≤ s < s1 of P_t and Q_t(ρ) by the closed form,
// each restricted to a contiguous column window outside which at most tol
// of the mass of P (and, separately, at most tol of the mass of Q) lies.
// tol = 0 keeps every entry that does not underflow. The cost per row is
// O(w_a·w_b + w_q), where w_a, w_b ≤ O(√m) are the widths of the two
// binomial pmfs and w_q that of the columns on which the row of Q is
// solved (the range its mean sweeps plus ten standard deviations, every
// column when tol = 0), not O(m); the tridiagonal factorisation of
// ρI − G_m is shared by the block, and scratch space is reused across
// calls.
//
// Accuracy: entries of P have relative error O(m·ε) (ε = 2⁻⁵³); entries of
// Q have absolute error O(ε), i.e. relative error O(ε/(1 − e^{−ρt})) with
// respect to the row sum.
//
// Rows returns an error naming the argument if 0 ≤ s0 ≤ s1 ≤ m+1 does not
// hold, if t or rho is negative, NaN or infinite, or if tol is not in [0, 1).
func (c *Chain) Rows(s0, s1 int, t, rho, tol float64) (*RowBlock, error) {
	if err := c.checkRows(s0, s1, t, rho, tol); err != nil {
		return nil, err
	}
	blk := new(RowBlock)
	c.rows(blk, s0, s1, t, rho, tol)
	return blk, nil
}

// RowsInto is Rows writing into blk: it reuses the storage of blk's rows
// from an earlier call, whose rows it overwrites (they must no longer be
// in use), and allocates only when that storage is short. The rows are
// those of Rows, bit for bit. On error blk is left as it was.
func (c *Chain) RowsInto(blk *RowBlock, s0, s1 int, t, rho, tol float64) error {
	if err := c.checkRows(s0, s1, t, rho, tol); err != nil {
		return err
	}
	c.rows(blk, s0, s1, t, rho, tol)
	return nil
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

// binomial returns the pmf of Binomial(n, p) (q = 1 − p given separately)
// on [lo, lo+len(w)), written into dst (grown as needed), and an upper
// bound on the mass outside that window. Starting from weight 1 at the
// mode, the weights are built outward by the ratio recurrence
// w_{k+1}/w_k = (n−k)p/((k+1)q) (all terms positive, no overflow since
// the mode is the largest) and normalised by their sum. Each tail is cut
// once the geometric bound w_k·r/(1−r) on the rest (the ratios r decrease
// away from the mode) is at most cut times the kept mass; cut = 0 keeps
// all weights that do not underflow. The cost is O(len(w)), not O(n).
func (ws *workspace) binomial(dst []float64, n int, p, q, cut float64) (lo int, w []float64, dropped float64) {
	switch {
	case n == 0 || p == 0:
		w = grow(dst, 1)
		w[0] = 1
		return 0, w, 0
	case q == 0:
		w = grow(dst, 1)
		w[0] = 1
		return n, w, 0
	}
	mode := int(float64(n+1) * p)
	if mode > n {
		mode = n
	}
	// w_{k+1}/w_k = (n−k)p/((k+1)q) above the mode, w_{k−1}/w_k =
	// k·q/((n−k+1)p) below it.
	up, sum, tailUp := side(ws.up[:0], n-mode, mode+1, p/q, cut, 1)
	down, sum, tailDown := side(ws.down[:0], mode, n-mode+1, q/p, cut, sum)
	ws.up, ws.down = up, down

	nd := len(down)
	w = grow(dst, nd+1+len(up))
	for i, v := range down {
		w[nd-1-i] = v
	}
	w[nd] = 1
	copy(w[nd+1:], up)
	inv := 1 / sum
	floats.Scale(inv, w)
	return mode - nd, w, (tailUp + tailDown) * inv
}

// side appends to out the weights of one side of the binomial's mode,
// relative to the mode's: x_{j+1} = x_j·r_j, x_0 = 1, with the ratios
// r_j = (a − j)/(b + j)·r for j = 0 … a − 1 (binomial gives a, b and r for
// each side), each added to sum, the kept mass so far. It stops at an
// underflow, or (cut > 0) once the geometric bound x_j·r_j/(1 − r_j) on
// the rest (the ratios decrease) is at most cut·sum, and returns that
// bound as tail (0 otherwise).
func side(out []float64, a, b int, r, cut, sum float64) (w []float64, total, tail float64) {
	x := 1.0
	for j := 0; j < a; j++ {
		rj := float64(a-j) / float64(b+j) * r
		if cut > 0 && rj < 1 {
			if t := x * rj / (1 - rj); t <= cut*sum {
				return out, sum, t
			}
		}
		x *= rj
		if x == 0 {
			break
		}
		out = append(out, x)
		sum += x
	}
	return out, sum, 0
}

// grow returns s resliced to length n, reallocated when its capacity is
// short. The contents are not preserved.
func grow(s []float64, n int) []float64 {
	if cap(s) < n {
		return make([]float64, n, max(n, 2*cap(s)))
	}
	return s[:n]
}

// resolvent holds the LU factorisation A_W = LU (no pivoting) of the
// principal submatrix of A = ρI − G_m on the columns W = [lo, hi), in the
// subtraction-free form of Grassmann, Taksar & Heyman: with σ_lo =
// ρ + lo·λ (the row sum of the first row, whose downward rate leaves W),
// σ_i = ρ + iλσ_{i−1}/d_{i−1} (the row sums of the reduced matrix) and
// d_i = σ_i + (m−i)θ (the pivots), every quantity is a sum of positive
// terms. Solving A_Wᵀx = v for v ≥ 0 is then subtraction-free as well,
// hence accurate entrywise. The vectors are indexed relative to lo.
//
// A_W is A with the chain killed when it leaves W, so A_W⁻¹ ≤ A⁻¹
// restricted to W entrywise (both are non-negative): a row of Q computed
// on W is a lower bound of the true row, and the mass it misses is the
// row sum 1 − e^{−ρT} minus its sum.
type resolvent struct {
	lo, hi int
	invD   []float64 // 1/d_i
	up     []float64 // (m−i+1)θ/d_i, i > lo; up[0] = 0 (forward sweep)
	down   []float64 // (i+1)λ/d_i, i < hi−1 (backward sweep); the last entry multiplies x_hi = 0: 0 from factor, the recurrence's value in a kept one
}

// factor factorises A on the columns [lo, hi) into r.
func (c *Chain) factor(r *resolvent, rho float64, lo, hi int) {
	m, w := c.m, hi-lo
	r.lo, r.hi = lo, hi
	r.invD, r.up, r.down = grow(r.invD, w), grow(r.up, w), grow(r.down, w)
	sigma := rho + float64(lo)*c.lambda
	d := sigma + float64(m-lo)*c.theta
	r.invD[0] = 1 / d
	r.up[0] = 0
	for k := 1; k < w; k++ {
		i := lo + k
		sigma = rho + float64(i)*c.lambda*sigma/d
		d = sigma + float64(m-i)*c.theta
		r.invD[k] = 1 / d
		r.up[k] = float64(m-i+1) * c.theta / d
	}
	for k := 0; k < w-1; k++ {
		r.down[k] = float64(lo+k+1) * c.lambda * r.invD[k]
	}
	r.down[w-1] = 0
}

// workspace holds the scratch vectors of Rows, indexed relative to the
// windows they hold, so that a row costs in proportion to its windows and
// not to m. Workspaces are pooled and reused across calls.
type workspace struct {
	up, down []float64 // binomial weights outward from the mode
	a, b     []float64 // binomial pmfs
	p        []float64 // row of P on [plo, phi)
	q        []float64 // row of Q on the window of its solve
	yp, ym   []float64 // forward-sweep results
	res      resolvent // the factorisation in use: own, or a kept one
	own      resolvent // storage of the factorisations not kept
}

var workspaces = sync.Pool{New: func() any { return new(workspace) }}

// qSpread is the number of standard deviations of the spare count by
// which the window of a row of Q extends beyond the range its mean sweeps
// during the segment: the tails of the binomial laws beyond it are below
// e^{−qSpread²/2} ≈ 2e-22, and the computed mass check widens the window
// in the rare case they are not.
const qSpread = 10

// qWindow returns the columns [lo, hi) on which row s of Q_t is computed:
// the range the spare count's mean sweeps over [0, t] (from s towards the
// mean of row s of P_t, the union with P's window [plo, phi)), widened by
// qSpread standard deviations, a bound on those of the count over [0, t],
// plus slack columns.
func (c *Chain) qWindow(s, plo, phi int, ts twoState, slack int) (lo, hi int) {
	m := c.m
	// The variance at time u ≤ t is s·p₁₁q₁₁ + (m−s)·p₀₁q₀₁ at u; each
	// product is at most 1/4 and, while p₁₁ ≥ 1/2 and p₀₁ ≤ 1/2 hold at
	// t, largest at t (p₁₁ falls and p₀₁ rises monotonically with u).
	v1, v0 := 0.25, 0.25
	if ts.p11 >= 0.5 {
		v1 = ts.p11 * ts.q11
	}
	if ts.p01 <= 0.5 {
		v0 = ts.p01 * ts.q01
	}
	sd := math.Sqrt(float64(s)*v1 + float64(m-s)*v0)
	mean := float64(s)*ts.p11 + float64(m-s)*ts.p01
	spread := int(math.Ceil(qSpread*sd)) + slack
	lo = min(s, plo, int(math.Floor(mean))) - spread
	hi = max(s+1, phi, int(math.Ceil(mean))+1) + spread
	return max(lo, 0), min(hi, m+1)
}

// checkRows validates the arguments of Rows and RowsInto.
func (c *Chain) checkRows(s0, s1 int, t, rho, tol float64) error {
	if s0 < 0 || s0 > c.m+1 {
		return fmt.Errorf("birthdeath: s0 = %d is outside [0, m+1 = %d]", s0, c.m+1)
	}
	if s1 < s0 || s1 > c.m+1 {
		return fmt.Errorf("birthdeath: s1 = %d is outside [s0 = %d, m+1 = %d]", s1, s0, c.m+1)
	}
	if err := checkTime("t", t); err != nil {
		return err
	}
	if err := checkRate("rho", rho); err != nil {
		return err
	}
	if math.IsNaN(tol) || tol < 0 || tol >= 1 {
		return fmt.Errorf("birthdeath: tol = %v is not in [0, 1)", tol)
	}
	return nil
}

// rows implements Rows and RowsInto for validated arguments, writing into
// blk (reusing its Rows and slab).
func (c *Chain) rows(blk *RowBlock, s0, s1 int, t, rho, tol float64) {
	ws := workspaces.Get().(*workspace)
	defer workspaces.Put(ws)
	m := c.m
	ts := c.twoState(t)
	surv := math.Exp(-rho * t)
	needQ := rho > 0 && t > 0
	cut := 0.0
	if tol > 0 {
		cut = math.Min(tol, maxBinomialCut) / 4
	}
	ws.res.lo, ws.res.hi = 0, 0 // nothing factorised yet

	blk.T, blk.Rho, blk.Survival = t, rho, surv
	if cap(blk.Rows) < s1-s0 {
		blk.Rows = make([]Row, s1-s0)
	}
	blk.Rows = blk.Rows[:s1-s0]
	slab := blk.slab[:0]
	for s := s0; s < s1; s++ {
		// Row s of P_t: Binomial(s, p11) * Binomial(m−s, p01).
		alo, av, da := ws.binomial(ws.a, s, ts.p11, ts.q11, cut)
		blo, bv, db := ws.binomial(ws.b, m-s, ts.p01, ts.q01, cut)
		ws.a, ws.b = av, bv
		plo, phi := alo+blo, alo+blo+len(av)+len(bv)-1
		pv := grow(ws.p, phi-plo)
		ws.p = pv
		clear(pv)
		if len(av) > len(bv) {
			av, bv = bv, av
		}
		for i, ai := range av {
			floats.AddScaled(pv[i:i+len(bv)], ai, bv)
		}
		dropBinom := da + db

		l, h := trim(pv, math.Max(tol-dropBinom, 0))
		lo, hi := plo+l, plo+h
		var qv []float64
		var qDropped float64
		var qWin int
		if needQ {
			qWin, qv, qDropped = c.qRow(ws, s, plo, phi, rho, t, ts, tol)
			l, h := trim(qv, math.Max(tol-qDropped, 0))
			if l < h {
				lo, hi = min(lo, qWin+l), max(hi, qWin+h)
			}
		}

		width := hi - lo
		if cap(slab)-len(slab) < 2*width {
			// Room for several rows when more follow; the last row of a
			// block (a block of one row above all) takes its own size.
			n := 2 * width
			if s+1 < s1 {
				n = max(n, 8*(phi-plo+width))
			}
			slab = make([]float64, 0, n)
		}
		vals := slab[len(slab) : len(slab)+2*width]
		slab = slab[:len(slab)+2*width]
		clear(vals) // a reused slab holds an earlier call's values
		row := Row{S: s, Lo: lo, Hi: hi, P: vals[:width:width], Q: vals[width : 2*width : 2*width]}
		// P is zero outside [plo, phi).
		for j := max(lo, plo); j < min(hi, phi); j++ {
			row.P[j-lo] = pv[j-plo]
		}
		row.DroppedP = dropBinom + sumOutside(pv, lo-plo, hi-plo)
		if needQ {
			for j := max(lo, qWin); j < min(hi, qWin+len(qv)); j++ {
				row.Q[j-lo] = qv[j-qWin]
			}
			row.DroppedQ = qDropped + sumOutside(qv, lo-qWin, hi-qWin)
		}
		blk.Rows[s-s0] = row
	}
	blk.slab = slab
}

// qRow computes row s of Q_t(ρ) = ρ(ρI − G)⁻¹(I − e^{−ρt}P_t) on a window
// of columns [lo, lo+len(q)), given row s of P_t in ws.p on [plo, phi),
// and returns the window, the row on it, and a bound on the mass of the
// true row that the computed one misses (outside the window, and the
// deficit of the lower bound inside it) beyond summation rounding. It
// solves A_Wᵀx⁺ = e_s and A_Wᵀx⁻ = P_t[s,W]ᵀ with A_W the killed
// resolvent on W (see resolvent) in one fused pass (both right-hand sides
// are non-negative, so both solves are subtraction-free) and forms
// ρ(x⁺ − e^{−ρt}x⁻), the only subtraction, clamped at zero. Since P_t
// killed on W is at most P_t, the result is at most the true row entrywise.
// With tol = 0 the window is every column, and the row is exact.
func (c *Chain) qRow(ws *workspace, s, plo, phi int, rho, t float64, ts twoState, tol float64) (lo int, q []float64, missed float64) {
	surv, mass := math.Exp(-rho*t), -math.Expm1(-rho*t) // e^{−ρt}, 1 − e^{−ρt}
	for slack := 8; ; slack *= 4 {
		lo, hi := 0, c.m+1
		if tol > 0 {
			lo, hi = c.qWindow(s, plo, phi, ts, slack)
		}
		r := &ws.res
		if lo < r.lo || hi > r.hi {
			// Factorise a window covering this row and the rows after it
			// (whose windows move up with s), so that one factorisation
			// serves a block.
			if r.hi > r.lo {
				lo, hi = min(lo, r.lo), max(hi, r.hi)
			}
			c.factorFor(r, &ws.own, rho, lo, min(hi+(hi-lo), c.m+1))
		}
		q = c.qSolve(ws, s, plo, phi, lo, hi, rho, surv)
		if tol == 0 || (lo == 0 && hi == c.m+1) {
			return lo, q, 0
		}
		var sum float64
		for _, v := range q {
			sum += v
		}
		// The computed deficit, less the rounding of the sum (each entry
		// carries an absolute error of a few ε of the row's mass).
		missed = mass - sum - 4*float64(len(q)+1)*0x1p-52*mass
		if missed <= tol/2 {
			return lo, q, max(missed, 0)
		}
	}
}

// qSolve solves for row s of Q on the columns [lo, hi), inside the
// factorised window ws.res, with the chain killed above hi (x_hi = 0).
func (c *Chain) qSolve(ws *workspace, s, plo, phi, lo, hi int, rho, surv float64) []float64 {
	r := &ws.res
	w := hi - lo
	pv := ws.p
	yp, ym := grow(ws.yp, w), grow(ws.ym, w)
	ws.yp, ws.ym = yp, ym
	// Forward sweep with Uᵀ: y_i = (v_i + (m−i+1)θ y_{i−1})/d_i; both
	// right-hand sides vanish below min(s, plo). Below the window the
	// factorisation's own first row is lower still: r.lo ≤ lo.
	i0 := min(s, plo)
	clear(yp[:i0-lo])
	clear(ym[:i0-lo])
	var a, b float64
	for i := i0; i < hi; i++ {
		k := i - r.lo
		a *= r.up[k]
		b *= r.up[k]
		if i == s {
			a += r.invD[k]
		}
		if i >= plo && i < phi {
			b += pv[i-plo] * r.invD[k]
		}
		yp[i-lo], ym[i-lo] = a, b
	}
	// Backward sweep with Lᵀ: x_i = y_i + (i+1)λ x_{i+1}/d_i, x_hi = 0.
	q := grow(ws.q, w)
	ws.q = q
	a, b = 0, 0
	for i := hi - 1; i >= lo; i-- {
		k := i - r.lo
		a = yp[i-lo] + r.down[k]*a
		b = ym[i-lo] + r.down[k]*b
		v := rho * (a - surv*b)
		if v < 0 {
			v = 0
		}
		q[i-lo] = v
	}
	return q
}

// trim returns the window [lo, hi) ⊆ [0, len(v)) left after removing from
// each end of v the entries whose cumulative sum stays within the budget:
// half of it for the low end, the rest for the high end.
func trim(v []float64, budget float64) (lo, hi int) {
	lo, hi = 0, len(v)
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

// sumOutside returns the sum of v[j] over j in [0, len(v)) \ [lo, hi).
func sumOutside(v []float64, lo, hi int) float64 {
	var s float64
	for j := 0; j < min(lo, len(v)); j++ {
		s += v[j]
	}
	for j := max(hi, 0); j < len(v); j++ {
		s += v[j]
	}
	return s
}

// closedDense computes the dense P_t and Q_t(ρ) by the closed form: all
// rows with tol = 0.
func (c *Chain) closedDense(t, rho float64, wantP, wantQ bool) (p, q *mat.Dense, err error) {
	n := c.m + 1
	blk := new(RowBlock)
	c.rows(blk, 0, n, t, rho, 0)
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
