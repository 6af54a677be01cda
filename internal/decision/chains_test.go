package decision

import (
	"math"
	"strings"
	"testing"
)

// TestChainsKeepFactors checks that Chains.KeepFactors reaches the chains
// built before and after it: the rows of Phase.Rows from its chains,
// asked twice each (the second time from the kept factorisations), are
// those of a cache that keeps none, bit for bit (birthdeath's
// TestKeepFactorsSameRows is the oracle of the kept rows themselves);
// and that a negative bound is refused with an error naming it.
func TestChainsKeepFactors(t *testing.T) {
	const n, lambda, theta = 64, 1 / (104.61 * 86400), 1 / (56.03 * 60)
	plain, kept := NewChains(lambda, theta), NewChains(lambda, theta)
	before, err := kept.Chain(n - 8) // built before KeepFactors
	if err != nil {
		t.Fatal(err)
	}
	if err := kept.KeepFactors(1 << 12); err != nil {
		t.Fatal(err)
	}
	for _, a := range []int{8, 30, 64} {
		ch, err := kept.Chain(n - a)
		if err != nil {
			t.Fatal(err)
		}
		if a == 8 && ch != before {
			t.Fatal("Chain built a second chain for the same m")
		}
		ref, err := plain.Chain(n - a)
		if err != nil {
			t.Fatal(err)
		}
		ph := Phase{A: a, Rho: float64(a) * lambda}
		for _, rt := range []float64{60, 600} {
			for s := 0; s <= n-a; s++ {
				want, err := ph.Rows(ref, s, s+1, rt, true, RowTol)
				if err != nil {
					t.Fatal(err)
				}
				for range 2 {
					got, err := ph.Rows(ch, s, s+1, rt, true, RowTol)
					if err != nil {
						t.Fatal(err)
					}
					if !sameRows(got[0], want[0]) {
						t.Fatalf("a = %d, s = %d, recovery %g s: the row differs with kept factorisations", a, s, rt)
					}
				}
			}
		}
	}
	if err := kept.KeepFactors(-1); err == nil || !strings.Contains(err.Error(), "maxEntries") {
		t.Errorf("KeepFactors(-1): error %v, want one naming maxEntries", err)
	}
	// Refused on an empty cache too: the bound would otherwise reach
	// every chain built later and fail each Chain call.
	empty := NewChains(1e-6, 1e-3)
	if err := empty.KeepFactors(-1); err == nil || !strings.Contains(err.Error(), "maxEntries") {
		t.Errorf("KeepFactors(-1) on an empty cache: error %v, want one naming maxEntries", err)
	}
	if _, err := empty.Chain(4); err != nil {
		t.Errorf("Chain after a refused KeepFactors(-1): %v", err)
	}
}

// sameRows reports whether two exit rows agree bit for bit.
func sameRows(a, b Row) bool {
	same := func(x, y []float64) bool {
		if len(x) != len(y) {
			return false
		}
		for i := range x {
			if math.Float64bits(x[i]) != math.Float64bits(y[i]) {
				return false
			}
		}
		return true
	}
	return a.Lo == b.Lo && same(a.Rec, b.Rec) && same(a.Up, b.Up)
}
