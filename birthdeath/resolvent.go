package birthdeath

import (
	"fmt"
	"math"
)

// Resolvent returns rows s0 ≤ s < s1 of the resolvent
//
//	Q_∞(ρ) = ρ(ρI − G_m)⁻¹ = ∫₀^∞ ρ e^{−ρt} exp(G_m t) dt,
//
// the limit of Q_t(ρ) as t → ∞: row s is the law of the spare count at
// an independent Exp(ρ) time, started from s (the spare count when a used
// processor first fails, whatever the segments in between). Each row is
// solved on a window of columns as Rows solves Q_t (the killed resolvent
// of Grassmann, Taksar & Heyman, subtraction-free, a lower bound entrywise
// whose deficit from the row sum 1 is checked) and restricted to the
// columns that hold all but at most tol of its mass; tol = 0 keeps every
// column. The window starts from the range the spare count's mean sweeps
// until t = ln(8/tol)/ρ, beyond which the exponential clock has at most
// tol/8 of its mass, and widens until the deficit is below tol/2. The
// rows have Q only: P is nil, Survival 0 and T +Inf.
//
// Resolvent returns an error naming the argument if 0 ≤ s0 ≤ s1 ≤ m+1
// does not hold, if rho is not a positive finite rate, or if tol is not in
// [0, 1).
func (c *Chain) Resolvent(s0, s1 int, rho, tol float64) (*RowBlock, error) {
	if s0 < 0 || s0 > c.m+1 {
		return nil, fmt.Errorf("birthdeath: s0 = %d is outside [0, m+1 = %d]", s0, c.m+1)
	}
	if s1 < s0 || s1 > c.m+1 {
		return nil, fmt.Errorf("birthdeath: s1 = %d is outside [s0 = %d, m+1 = %d]", s1, s0, c.m+1)
	}
	if err := checkRate("rho", rho); err != nil {
		return nil, err
	}
	if rho == 0 {
		return nil, fmt.Errorf("birthdeath: rho = 0, want a positive rate (ρI − G is singular)")
	}
	if math.IsNaN(tol) || tol < 0 || tol >= 1 {
		return nil, fmt.Errorf("birthdeath: tol = %v is not in [0, 1)", tol)
	}
	return c.resolventRows(s0, s1, rho, tol), nil
}

// resolventRows implements Resolvent for validated arguments.
func (c *Chain) resolventRows(s0, s1 int, rho, tol float64) *RowBlock {
	ws := workspaces.Get().(*workspace)
	defer workspaces.Put(ws)
	ws.res.lo, ws.res.hi = 0, 0 // nothing factorised yet
	// The window's time horizon: the clock has run out by then with
	// probability 1 − tol/8.
	horizon := math.Inf(1)
	if tol > 0 {
		horizon = math.Log(8/tol) / rho
	}
	ts := c.twoState(horizon)
	blk := &RowBlock{T: math.Inf(1), Rho: rho, Survival: 0, Rows: make([]Row, s1-s0)}
	var slab []float64
	for s := s0; s < s1; s++ {
		// With P's window empty (plo = phi = s) qRow solves the first
		// right-hand side only, and e^{−ρt} = 0 at t = ∞.
		qWin, qv, qDropped := c.qRow(ws, s, s, s, rho, math.Inf(1), ts, tol)
		l, h := trim(qv, math.Max(tol-qDropped, 0))
		if l == h { // keep the diagonal column of an all-negligible row
			l, h = 0, len(qv)
		}
		width := h - l
		if cap(slab)-len(slab) < width {
			n := width // the last row takes its own size (rows, closedform.go)
			if s+1 < s1 {
				n = max(n, 8*len(qv))
			}
			slab = make([]float64, 0, n)
		}
		vals := slab[len(slab) : len(slab)+width : len(slab)+width]
		slab = slab[:len(slab)+width]
		copy(vals, qv[l:h])
		blk.Rows[s-s0] = Row{S: s, Lo: qWin + l, Hi: qWin + h, Q: vals,
			DroppedQ: qDropped + sumOutside(qv, l, h)}
	}
	return blk
}
