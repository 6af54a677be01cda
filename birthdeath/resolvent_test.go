package birthdeath

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestResolventMatchesDense holds Resolvent against ρ(ρI − G)⁻¹ from a
// dense LU of the generator (an independent algorithm) on every case of
// denseCases, whole and partial blocks, with and without windows. The
// dense solve's error is bounded by a few ε·κ₁(ρI − G) of the row sum 1
// (Higham, Accuracy and Stability, Thm 9.4 with the usual growth-free
// bound for a diagonally dominant M-matrix), so the tolerance is
// 8·(m+1)·ε·κ₁.
func TestResolventMatchesDense(t *testing.T) {
	trimmed := false
	for _, dc := range denseCases {
		if dc.r == 0 {
			continue // ρI − G is singular: Resolvent refuses ρ = 0 (TestResolventErrors)
		}
		c, _ := New(dc.m, dc.lambda, dc.theta)
		n := dc.m + 1
		var a mat.Dense
		a.Scale(-1, c.Generator())
		for i := range n {
			a.Set(i, i, a.At(i, i)+dc.r)
		}
		var ref mat.Dense
		if err := ref.Inverse(&a); err != nil {
			t.Fatalf("%v: dense inverse: %v", dc, err)
		}
		ref.Scale(dc.r, &ref)
		eps := 8 * float64(n) * 0x1p-52 * mat.Cond(&a, 1)
		for _, tol := range []float64{0, 1e-15, 1e-9} {
			for _, blk := range [][2]int{{0, n}, {dc.m / 3, dc.m/2 + 1}} {
				rb, err := c.Resolvent(blk[0], blk[1], dc.r, tol)
				if err != nil {
					t.Fatal(err)
				}
				name := fmt.Sprintf("%v tol=%g rows %v", dc, tol, blk)
				if len(rb.Rows) != blk[1]-blk[0] || rb.Survival != 0 || !math.IsInf(rb.T, 1) {
					t.Fatalf("%s: %d rows, Survival %v, T %v", name, len(rb.Rows), rb.Survival, rb.T)
				}
				for i, r := range rb.Rows {
					if r.S != blk[0]+i || r.P != nil || len(r.Q) != r.Hi-r.Lo {
						t.Fatalf("%s: row %d: S = %d, %d P and %d Q values on [%d, %d)", name, i, r.S, len(r.P), len(r.Q), r.Lo, r.Hi)
					}
					trimmed = trimmed || r.Hi-r.Lo < n
					checkResolventRow(t, name, r, ref.RawRowView(r.S), tol, eps)
				}
			}
		}
	}
	if !trimmed {
		t.Error("no case trimmed a window: the dropped-mass checks were vacuous")
	}
}

// checkResolventRow compares a resolvent row with the reference full row
// q: entries in the window within eps, DroppedQ in [0, tol], the
// reference mass outside the window at most DroppedQ (plus eps per
// column outside), and 1 − ΣQ within [−δ, DroppedQ + δ].
func checkResolventRow(t *testing.T, name string, r Row, q []float64, tol, eps float64) {
	t.Helper()
	if r.DroppedQ < 0 || r.DroppedQ > tol {
		t.Errorf("%s row %d: DroppedQ = %v, want in [0, %v]", name, r.S, r.DroppedQ, tol)
	}
	var out, sum float64
	for j, v := range q {
		if j < r.Lo || j >= r.Hi {
			out += v
			continue
		}
		sum += r.Q[j-r.Lo]
		if d := math.Abs(r.Q[j-r.Lo] - v); d > eps {
			t.Errorf("%s: Q∞[%d,%d] = %v, reference %v (|Δ| = %.2e > %.2e)", name, r.S, j, r.Q[j-r.Lo], v, d, eps)
		}
	}
	if out > r.DroppedQ+eps*float64(len(q)-(r.Hi-r.Lo)) {
		t.Errorf("%s row %d: reference mass outside the window %v, reported %v", name, r.S, out, r.DroppedQ)
	}
	delta := 4 * float64(len(r.Q)+1) * 0x1p-52
	if d := 1 - sum; d < -delta || d > r.DroppedQ+delta {
		t.Errorf("%s row %d: 1 − ΣQ = %.3e, DroppedQ = %.3e", name, r.S, d, r.DroppedQ)
	}
}

// TestResolventLimit holds Resolvent against Rows at a segment so long
// that the clock has run out, T = 60/ρ: Q_T = Q_∞ − e^{−ρT}·ρ(ρI − G)⁻¹P_T
// differs by at most e^{−60} ≈ 9e-27 in each entry, and P plays no part
// in Q_∞. On the large-m cases of TestRowsLarge (N = 1024 and 2016 with
// a desktop grid's rates, MTTF 25 y), windowed at 1e-15.
func TestResolventLimit(t *testing.T) {
	const tol = 1e-15
	for _, lc := range largeCases {
		c, err := New(lc.m, lc.lambda, lc.theta)
		if err != nil {
			t.Fatal(err)
		}
		rho := float64(lc.a) * lc.lambda
		want, err := c.Rows(lc.s0, lc.s1, 60/rho, rho, tol)
		if err != nil {
			t.Fatal(err)
		}
		got, err := c.Resolvent(lc.s0, lc.s1, rho, tol)
		if err != nil {
			t.Fatal(err)
		}
		for i, r := range got.Rows {
			w := want.Rows[i]
			ref := make([]float64, lc.m+1)
			copy(ref[w.Lo:w.Hi], w.Q)
			// The reference is itself windowed: its entries outside its
			// window are at most its DroppedQ; the entries compare to a
			// few ε of the row sum, like Rows' own (TestRowsLarge).
			checkResolventRow(t, lc.name, r, ref, tol+w.DroppedQ, 1e-14)
		}
	}
}

// TestResolventErrors checks that bad arguments are named.
func TestResolventErrors(t *testing.T) {
	c, _ := New(4, 1, 2)
	for _, tc := range []struct {
		s0, s1   int
		rho, tol float64
		want     string
	}{
		{-1, 2, 1, 0, "s0"},
		{0, 6, 1, 0, "s1"},
		{3, 2, 1, 0, "s1"},
		{0, 2, 0, 0, "rho"},
		{0, 2, -1, 0, "rho"},
		{0, 2, math.NaN(), 0, "rho"},
		{0, 2, math.Inf(1), 0, "rho"},
		{0, 2, 1, 1, "tol"},
		{0, 2, 1, math.NaN(), "tol"},
	} {
		_, err := c.Resolvent(tc.s0, tc.s1, tc.rho, tc.tol)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Resolvent(%d, %d, %v, %v) = %v, want an error naming %s", tc.s0, tc.s1, tc.rho, tc.tol, err, tc.want)
		}
	}
}
