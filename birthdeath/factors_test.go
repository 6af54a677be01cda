package birthdeath

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
)

// sameBits reports whether a and b hold the same float64 values bit for
// bit (signed zeros and NaN payloads included).
func sameBits(a, b []float64) bool {
	return slices.EqualFunc(a, b, func(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) })
}

// sameRow reports whether two rows agree bit for bit in every field.
func sameRow(a, b Row) bool {
	return a.S == b.S && a.Lo == b.Lo && a.Hi == b.Hi && sameBits(a.P, b.P) && sameBits(a.Q, b.Q) &&
		math.Float64bits(a.DroppedP) == math.Float64bits(b.DroppedP) &&
		math.Float64bits(a.DroppedQ) == math.Float64bits(b.DroppedQ)
}

// factorCase is a chain and the rates, segment lengths and rows asked of
// it in TestKeepFactorsSameRows.
type factorCase struct {
	name          string
	m             int
	lambda, theta float64
	rhos, ts      []float64
	rows          int // single rows asked per (ρ, t), in a seeded random order
	tols          []float64
}

func factorCases() []factorCase {
	const day = 86400.0
	var out []factorCase
	for _, dc := range denseCases {
		if dc.r == 0 {
			continue
		}
		out = append(out, factorCase{dc.String(), dc.m, dc.lambda, dc.theta, []float64{dc.r, 2 * dc.r}, []float64{dc.t, 3 * dc.t}, 2 * (dc.m + 1), []float64{1e-16, 1e-9, 0}})
	}
	// The CLI's built-in system (LANL system 1) at N = 512 and a desktop
	// grid: windows far narrower than the chain (tol = 0 would solve on
	// every column).
	lam, th := 1/(104.61*day), 1/(56.03*60)
	out = append(out,
		factorCase{"builtin m=400", 400, lam, th, []float64{112 * lam, 300 * lam}, []float64{60, 900, 4000}, 100, []float64{1e-16, 1e-9}},
		factorCase{"desktop m=2000", 2000, 1 / (8 * hour), 1 / (4 * hour), []float64{16 / (8 * hour)}, []float64{99, hour, 10 * hour}, 40, []float64{1e-16}},
	)
	return out
}

// TestKeepFactorsSameRows holds the rows of a chain that keeps its
// factorisations (KeepFactors) against those of a chain that keeps none,
// bit for bit, on every row of Rows and Resolvent asked one at a time in
// a seeded random order and in blocks, with a bound that keeps every
// factorisation and with one that keeps only some: the oracle is the
// same algorithm without the cache, and any entry that depended on the
// cache (a factorisation from another first column, a window widened or
// narrowed by a kept factorisation's width) would change bits
// (TestFactorStartChangesBits shows that it does). It also checks that
// the kept factorisations served requests, so that the comparison is not
// vacuous.
func TestKeepFactorsSameRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	hits := 0
	for _, fc := range factorCases() {
		ref, _ := New(fc.m, fc.lambda, fc.theta)
		for _, bound := range []int{1 << 20, fc.m + 1} {
			c, _ := New(fc.m, fc.lambda, fc.theta)
			if err := c.KeepFactors(bound); err != nil {
				t.Fatal(err)
			}
			for _, rho := range fc.rhos {
				for _, tt := range append(slices.Clone(fc.ts), math.Inf(1)) {
					for _, tol := range fc.tols {
						name := fmt.Sprintf("%s bound=%d ρ=%g T=%g tol=%g", fc.name, bound, rho, tt, tol)
						for range fc.rows {
							s0 := rng.IntN(fc.m + 1)
							s1 := s0 + 1
							if rng.IntN(8) == 0 { // now and then a block
								s1 = s0 + 1 + rng.IntN(fc.m+1-s0)
							}
							compareRows(t, name, ref, c, s0, s1, tt, rho, tol)
						}
						// Blocks whose later rows outgrow the factorisation
						// of the first, which a kept one may cover.
						for _, k := range []int{3, 30, fc.m / 4} {
							s0 := rng.IntN(fc.m + 1)
							compareRows(t, name, ref, c, s0, min(s0+k, fc.m+1), tt, rho, tol)
						}
					}
				}
			}
			c.factors.mu.Lock()
			hits += c.factors.hits
			if c.factors.used > bound {
				t.Errorf("%s: %d entries kept, bound %d", fc.name, c.factors.used, bound)
			}
			c.factors.mu.Unlock()
		}
	}
	if hits == 0 {
		t.Error("no request was served by a kept factorisation: the comparison is vacuous")
	}
}

// compareRows asks rows s0..s1 of both chains (Resolvent when tt is
// infinite, Rows otherwise) and reports the first that differs.
func compareRows(t *testing.T, name string, ref, c *Chain, s0, s1 int, tt, rho, tol float64) {
	t.Helper()
	get := func(ch *Chain) (*RowBlock, error) {
		if math.IsInf(tt, 1) {
			return ch.Resolvent(s0, s1, rho, tol)
		}
		return ch.Rows(s0, s1, tt, rho, tol)
	}
	want, err := get(ref)
	if err != nil {
		t.Fatal(err)
	}
	got, err := get(c)
	if err != nil {
		t.Fatal(err)
	}
	for i := range want.Rows {
		if !sameRow(got.Rows[i], want.Rows[i]) {
			t.Fatalf("%s rows [%d, %d): row %d differs with kept factorisations", name, s0, s1, want.Rows[i].S)
		}
	}
}

// TestFactorStartChangesBits is the power check of
// TestKeepFactorsSameRows: a row solved on the same window from a
// factorisation that starts one column lower (what a cache keyed on ρ
// alone would serve) differs in its bits, so the bitwise comparison
// would catch it.
func TestFactorStartChangesBits(t *testing.T) {
	c, _ := New(400, 1/(104.61*86400), 1/(56.03*60))
	rho := 112 * c.lambda
	differ := 0
	for s := 50; s <= 400; s += 50 {
		lo, hi := c.qWindow(s, s, s, c.twoState(math.Inf(1)), 8)
		if lo == 0 {
			continue
		}
		ws := new(workspace)
		c.factor(&ws.own, rho, lo, hi)
		ws.res = ws.own
		q := slices.Clone(c.qSolve(ws, s, s, s, lo, hi, rho, 0))
		c.factor(&ws.own, rho, lo-1, hi)
		ws.res = ws.own
		if !sameBits(q, c.qSolve(ws, s, s, s, lo, hi, rho, 0)) {
			differ++
		}
	}
	if differ == 0 {
		t.Error("a factorisation from another first column gave the same bits on every row: the bitwise check has no power")
	}
}

// TestKeepFactorsConcurrent asks the rows of one chain that keeps its
// factorisations from several goroutines (run with -race) and holds them
// against a chain that keeps none, bit for bit.
func TestKeepFactorsConcurrent(t *testing.T) {
	const m = 300
	lam, th := 1/(104.61*86400), 1/(56.03*60)
	ref, _ := New(m, lam, th)
	c, _ := New(m, lam, th)
	if err := c.KeepFactors(4 * (m + 1)); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(g), 7))
			for range 200 {
				s := rng.IntN(m + 1)
				rho := float64(1+rng.IntN(4)) * 50 * lam
				compareRows(t, fmt.Sprintf("goroutine %d", g), ref, c, s, s+1, float64(60*(1+rng.IntN(3))), rho, 1e-16)
			}
		})
	}
	wg.Wait()
}

// TestKeepFactorsErrors checks that a negative bound is refused, and that
// a smaller bound releases the kept factorisations beyond it.
func TestKeepFactorsErrors(t *testing.T) {
	c, _ := New(10, 1, 2)
	if err := c.KeepFactors(-1); err == nil || !strings.Contains(err.Error(), "maxEntries") {
		t.Errorf("KeepFactors(-1): error %v, want one naming maxEntries", err)
	}
	if err := c.KeepFactors(100); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Rows(3, 4, 0.5, 1, 1e-16); err != nil {
		t.Fatal(err)
	}
	if c.factors.used == 0 {
		t.Fatal("no factorisation kept within a bound of 100")
	}
	if err := c.KeepFactors(0); err != nil {
		t.Fatal(err)
	}
	if c.factors.used != 0 || len(c.factors.cache) != 0 {
		t.Errorf("KeepFactors(0) left %d entries kept", c.factors.used)
	}
}
