package birthdeath

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestRowsMatchDense holds Rows against the dense VanLoan matrices (an
// independent algorithm) on every case of denseCases, for whole and
// partial blocks and several tolerances.
func TestRowsMatchDense(t *testing.T) {
	trimmed := false
	for _, dc := range denseCases {
		c, _ := New(dc.m, dc.lambda, dc.theta)
		var p, q mat.Dense
		if err := c.Transition(&p, &q, dc.t, dc.r, &Settings{Method: VanLoan}); err != nil {
			t.Fatal(err)
		}
		for _, tol := range []float64{0, 1e-15, 1e-9} {
			for _, blk := range [][2]int{{0, dc.m + 1}, {dc.m / 3, dc.m/2 + 1}} {
				rb, err := c.Rows(blk[0], blk[1], dc.t, dc.r, tol)
				if err != nil {
					t.Fatal(err)
				}
				name := fmt.Sprintf("%v tol=%g rows %v", dc, tol, blk)
				if len(rb.Rows) != blk[1]-blk[0] {
					t.Fatalf("%s: %d rows", name, len(rb.Rows))
				}
				if want := math.Exp(-dc.r * dc.t); rb.Survival != want {
					t.Errorf("%s: Survival = %v, want %v", name, rb.Survival, want)
				}
				for i, r := range rb.Rows {
					if r.S != blk[0]+i {
						t.Fatalf("%s: row %d has S = %d", name, i, r.S)
					}
					if r.Lo != 0 || r.Hi != dc.m+1 {
						trimmed = trimmed || tol > 0
					}
					checkRowAgainst(t, name, r, p.RawRowView(r.S), q.RawRowView(r.S), tol, denseTol)
				}
			}
		}
	}
	if !trimmed {
		t.Error("no case trimmed a window: the dropped-mass checks were vacuous")
	}
}

// checkRowAgainst compares a Row with reference full rows p and q: entries
// in the window to within eps, dropped masses at most tol, and the
// reference mass outside the window at most the reported dropped mass
// (plus eps per entry outside).
func checkRowAgainst(t *testing.T, name string, r Row, p, q []float64, tol, eps float64) {
	t.Helper()
	n := len(p)
	if r.Lo < 0 || r.Hi > n || r.Lo >= r.Hi || len(r.P) != r.Hi-r.Lo || len(r.Q) != r.Hi-r.Lo {
		t.Fatalf("%s row %d: bad window [%d,%d) with %d/%d values", name, r.S, r.Lo, r.Hi, len(r.P), len(r.Q))
	}
	if r.DroppedP > tol || r.DroppedQ > tol || r.DroppedP < 0 || r.DroppedQ < 0 {
		t.Errorf("%s row %d: dropped %v, %v exceed tol %v", name, r.S, r.DroppedP, r.DroppedQ, tol)
	}
	var outP, outQ float64
	for j := 0; j < n; j++ {
		if j < r.Lo || j >= r.Hi {
			outP += p[j]
			outQ += q[j]
			continue
		}
		if d := math.Abs(r.P[j-r.Lo] - p[j]); d > eps {
			t.Errorf("%s: P[%d,%d] = %v, reference %v (|Δ| = %.2e)", name, r.S, j, r.P[j-r.Lo], p[j], d)
		}
		if d := math.Abs(r.Q[j-r.Lo] - q[j]); d > eps {
			t.Errorf("%s: Q[%d,%d] = %v, reference %v (|Δ| = %.2e)", name, r.S, j, r.Q[j-r.Lo], q[j], d)
		}
	}
	slack := eps * float64(n-(r.Hi-r.Lo))
	if outP > r.DroppedP+slack || outQ > r.DroppedQ+slack {
		t.Errorf("%s row %d: reference mass outside the window P %v Q %v, reported %v %v",
			name, r.S, outP, outQ, r.DroppedP, r.DroppedQ)
	}
}

// checkRowSums checks 1 − ΣP ∈ [−δ, DroppedP + δ] and the same for Q with
// 1 − e^{−ρT}, δ = (window width)·4ε (summation rounding of entries ≤ 1).
func checkRowSums(t *testing.T, name string, rb *RowBlock) {
	t.Helper()
	wantQ := -math.Expm1(-rb.Rho * rb.T)
	for _, r := range rb.Rows {
		var sp, sq float64
		for k := range r.P {
			sp += r.P[k]
			sq += r.Q[k]
		}
		delta := 4 * float64(len(r.P)+1) * 0x1p-52
		if d := 1 - sp; d < -delta || d > r.DroppedP+delta {
			t.Errorf("%s row %d: 1 − ΣP = %.3e, DroppedP = %.3e", name, r.S, d, r.DroppedP)
		}
		if d := wantQ - sq; d < -delta || d > r.DroppedQ+delta {
			t.Errorf("%s row %d: (1 − e^{−ρT}) − ΣQ = %.3e, DroppedQ = %.3e", name, r.S, d, r.DroppedQ)
		}
	}
}

const hour = 3600.0

// largeCases are the model's large-m scenarios (brief: N = 1024 processors,
// a = 16 used, λ = 1/8 h, θ = 1/4 h; and MTTF 25 years, MTTR 1 h), in
// seconds.
var largeCases = []struct {
	name          string
	m, a          int
	lambda, theta float64
	s0, s1        int
	ts            []float64
}{
	{"N1024", 1008, 16, 1 / (8 * hour), 1 / (4 * hour), 640, 700, []float64{60, hour, 4 * hour}},
	{"N2016", 2000, 16, 1 / (8 * hour), 1 / (4 * hour), 1300, 1360, []float64{30 * 60}},
	{"MTTF25y", 100, 16, 1 / (25 * 8766 * hour), 1 / hour, 88, 101, []float64{600, hour, 24 * hour}},
}

// TestRowsLarge checks Rows for large m against uniformization (an
// independent algorithm, see uniformize) on a few rows, and the row sums
// of every row of the block.
func TestRowsLarge(t *testing.T) {
	const tol = 1e-15
	for _, lc := range largeCases {
		c, err := New(lc.m, lc.lambda, lc.theta)
		if err != nil {
			t.Fatal(err)
		}
		rho := float64(lc.a) * lc.lambda
		for _, tt := range lc.ts {
			name := fmt.Sprintf("%s T=%gs", lc.name, tt)
			rb, err := c.Rows(lc.s0, lc.s1, tt, rho, tol)
			if err != nil {
				t.Fatal(err)
			}
			checkRowSums(t, name, rb)
			for _, s := range []int{lc.s0, (lc.s0 + lc.s1) / 2, lc.s1 - 1} {
				p, q := uniformize(lc.m, lc.lambda, lc.theta, s, tt, rho)
				// Uniformization accumulates ~ (number of steps)·ε relative
				// error; 1e-12 absolute is the brief's target.
				checkRowAgainst(t, name, rb.Rows[s-lc.s0], p, q, tol, 1e-12)
			}
		}
	}
}

// TestMonteCarlo checks the product (binomial) structure of P_T against an
// event-by-event simulation of m independent processors, each alternating
// Exp(λ) up times and Exp(θ) repair times: the sample mean of the count at
// T lies within 5 standard errors of the mean of row s, and the
// Kolmogorov–Smirnov distance between the empirical and the computed CDF is
// below 1.95/√n (the 0.1 % critical value for continuous laws, conservative
// for discrete ones).
func TestMonteCarlo(t *testing.T) {
	const (
		m, s = 1008, 660
		reps = 2000
	)
	lambda, theta, tt := 1/(8*hour), 1/(4*hour), hour
	c, _ := New(m, lambda, theta)
	rb, err := c.Rows(s, s+1, tt, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	row := rb.Rows[0]
	var mean, second float64
	for k, v := range row.P {
		j := float64(row.Lo + k)
		mean += j * v
		second += j * j * v
	}
	sd := math.Sqrt(second - mean*mean)

	rnd := rand.New(rand.NewPCG(20240601, 7))
	counts := make([]int, reps)
	var sampleMean float64
	for r := range counts {
		n := 0
		for i := 0; i < m; i++ {
			up := i < s
			clock := 0.0
			for {
				rate := theta
				if up {
					rate = lambda
				}
				clock += rnd.ExpFloat64() / rate
				if clock > tt {
					break
				}
				up = !up
			}
			if up {
				n++
			}
		}
		counts[r] = n
		sampleMean += float64(n) / reps
	}
	if z := math.Abs(sampleMean-mean) / (sd / math.Sqrt(reps)); z > 5 {
		t.Errorf("Monte Carlo mean %v, computed %v (z = %.1f)", sampleMean, mean, z)
	}
	sort.Ints(counts)
	var ks, cdf float64
	idx := 0
	for k, v := range row.P {
		j := row.Lo + k
		cdf += v
		for idx < reps && counts[idx] <= j {
			idx++
		}
		ks = math.Max(ks, math.Abs(float64(idx)/reps-cdf))
	}
	if crit := 1.95 / math.Sqrt(reps); ks > crit {
		t.Errorf("KS distance %v > %v", ks, crit)
	}
}

func TestRowsErrors(t *testing.T) {
	c, _ := New(5, 1, 2)
	for _, tc := range []struct {
		s0, s1      int
		t, rho, tol float64
	}{
		{-1, 2, 1, 1, 0},
		{3, 2, 1, 1, 0},
		{0, 7, 1, 1, 0},
		{7, 7, 1, 1, 0},
		{0, 2, -1, 1, 0},
		{0, 2, math.NaN(), 1, 0},
		{0, 2, math.Inf(1), 1, 0},
		{0, 2, 1, -1, 0},
		{0, 2, 1, math.NaN(), 0},
		{0, 2, 1, 1, -1e-3},
		{0, 2, 1, 1, 1},
		{0, 2, 1, 1, math.NaN()},
	} {
		if _, err := c.Rows(tc.s0, tc.s1, tc.t, tc.rho, tc.tol); err == nil {
			t.Errorf("Rows(%+v): no error", tc)
		}
	}
	rb, err := c.Rows(3, 3, 1, 1, 0)
	if err != nil || len(rb.Rows) != 0 {
		t.Errorf("empty block: %v, %v", rb, err)
	}
}

// TestRowsNarrowQ checks the rows of Q solved on a window of columns (the
// killed resolvent, see resolvent) against the same rows solved on every
// column (tol = 0; that solve is held against VanLoan and uniformization
// by the tests above), for large m where the window is a small part of
// the row: entries to 1e-15 absolute, and the full row's mass outside the
// window within the reported DroppedQ. The scenarios are the scale
// issue's regimes (desktop grid MTTF 8 h, MTTR 4 h; MTTF 25 years, MTTR
// 1 h) with few and with many used processors (ρ = aλ).
func TestRowsNarrowQ(t *testing.T) {
	const (
		m   = 20000
		tol = 1e-16 // package uwt's row tolerance
	)
	narrow := false
	for _, rc := range []struct {
		name          string
		lambda, theta float64
		a             int
		rows          []int
	}{
		{"desktop a=16", 1 / (8 * hour), 1 / (4 * hour), 16, []int{0, 13300, 13333, 13400, m}},
		{"25y a=m", 1 / (25 * 8766 * hour), 1 / hour, m, []int{m - 40, m - 2, m}},
		{"25y a=16", 1 / (25 * 8766 * hour), 1 / hour, 16, []int{0, m - 3, m}},
	} {
		c, err := New(m, rc.lambda, rc.theta)
		if err != nil {
			t.Fatal(err)
		}
		rho := float64(rc.a) * rc.lambda
		for _, tt := range []float64{60, hour, 10 * hour, 1000 * hour} {
			for _, s := range rc.rows {
				name := fmt.Sprintf("%s T=%gs", rc.name, tt)
				full, err := c.Rows(s, s+1, tt, rho, 0)
				if err != nil {
					t.Fatal(err)
				}
				rb, err := c.Rows(s, s+1, tt, rho, tol)
				if err != nil {
					t.Fatal(err)
				}
				checkRowSums(t, name, rb)
				p, q := make([]float64, m+1), make([]float64, m+1)
				f := full.Rows[0]
				copy(p[f.Lo:f.Hi], f.P)
				copy(q[f.Lo:f.Hi], f.Q)
				r := rb.Rows[0]
				checkRowAgainst(t, name, r, p, q, 4*tol, 1e-15)
				lo, hi := c.qWindow(s, r.Lo, r.Hi, c.twoState(tt), 8)
				narrow = narrow || hi-lo < m/10
			}
		}
	}
	if !narrow {
		t.Error("no solve window was narrow: the test does not exercise the windowed solve")
	}
}

// TestRowsIntoMatchesRows checks RowsInto against Rows, bit for bit, on
// one RowBlock reused by a sequence of calls: a wide block first, then
// smaller ones, a call with ρ = 0 (no Q: a reused slab's values from the
// calls before must not show through) and a wide one again (the storage
// grows). An invalid call returns Rows' error and leaves the block as it
// was.
func TestRowsIntoMatchesRows(t *testing.T) {
	for _, dc := range denseCases {
		c, _ := New(dc.m, dc.lambda, dc.theta)
		type call struct {
			s0, s1    int
			t, r, tol float64
		}
		calls := []call{
			{0, dc.m + 1, dc.t, dc.r, 0},
			{dc.m / 2, dc.m/2 + 1, dc.t, dc.r, 1e-15},
			{dc.m / 3, dc.m/2 + 1, 2 * dc.t, dc.r, 1e-9},
			{0, dc.m + 1, dc.t, 0, 0},
			{dc.m / 2, dc.m + 1, dc.t / 3, 2 * dc.r, 0},
			{0, dc.m + 1, 4 * dc.t, dc.r, 1e-15},
		}
		var blk RowBlock
		for _, cl := range calls {
			name := fmt.Sprintf("%v %+v", dc, cl)
			want, err := c.Rows(cl.s0, cl.s1, cl.t, cl.r, cl.tol)
			if err != nil {
				t.Fatal(err)
			}
			if err := c.RowsInto(&blk, cl.s0, cl.s1, cl.t, cl.r, cl.tol); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if blk.T != want.T || blk.Rho != want.Rho || blk.Survival != want.Survival || len(blk.Rows) != len(want.Rows) {
				t.Fatalf("%s: block (%v, %v, %v, %d rows), want (%v, %v, %v, %d)", name,
					blk.T, blk.Rho, blk.Survival, len(blk.Rows), want.T, want.Rho, want.Survival, len(want.Rows))
			}
			for i, w := range want.Rows {
				g := blk.Rows[i]
				if g.S != w.S || g.Lo != w.Lo || g.Hi != w.Hi || g.DroppedP != w.DroppedP || g.DroppedQ != w.DroppedQ {
					t.Fatalf("%s: row %d header %+v, want %+v", name, i, g, w)
				}
				for j := range w.P {
					if g.P[j] != w.P[j] || g.Q[j] != w.Q[j] {
						t.Fatalf("%s: row %d column %d: (%v, %v), want (%v, %v)", name, i, w.Lo+j, g.P[j], g.Q[j], w.P[j], w.Q[j])
					}
				}
			}
		}
		before := blk.Rows
		err := c.RowsInto(&blk, dc.m+2, dc.m+2, dc.t, dc.r, 0)
		if err == nil || !strings.Contains(err.Error(), "s0") {
			t.Errorf("%v: s0 = m+2: error %v, want one naming s0", dc, err)
		}
		if len(blk.Rows) != len(before) || &blk.Rows[0] != &before[0] {
			t.Errorf("%v: a refused call changed the block", dc)
		}
	}
}
