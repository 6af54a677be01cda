package birthdeath

import (
	"fmt"
	"sync"
)

// factorKey names a factorisation of the killed resolvent ρI − G_m of one
// chain: its rate and its first column.
type factorKey struct {
	rho float64
	lo  int
}

// factorCache keeps the factorisations (resolvent) that Rows and
// Resolvent compute, keyed by (ρ, lo), within a bound on their entries.
// Entry k of a factorisation is a function of ρ, lo and k only (the
// recurrence of factor runs upward from lo), so a factorisation kept on
// [lo, hi) serves, bit for bit, every request on [lo, hi') with hi' ≤ hi;
// a request beyond hi replaces it with one at least twice as wide. The
// kept factorisations are never written after they are stored, so the
// rows solved from them may read them without the lock.
type factorCache struct {
	mu    sync.Mutex
	max   int // bound on the kept entries (columns) over every key
	used  int
	hits  int // requests served by a kept factorisation (tests)
	cache map[factorKey]*resolvent
}

// KeepFactors makes Rows and Resolvent keep the factorisations of
// ρI − G_m they compute on a window of columns, keyed by the rate ρ and
// the window's first column, up to maxEntries columns in all (24 bytes
// each), and reuse them for every later row whose window starts at the
// same column. The rows are the same bit for bit with or without it: the
// factorisation's entry at a column depends on ρ, the first column and
// that column only (TestKeepFactorsSameRows). A caller that asks for rows
// of a few rates many times (one row per call, as package optimal's
// improvement does) saves their factorisations; maxEntries = 0 (the
// default) keeps none. KeepFactors returns an error if maxEntries is
// negative; it may be called at any time, concurrently with Rows (the
// kept factorisations beyond a smaller bound are released).
func (c *Chain) KeepFactors(maxEntries int) error {
	if maxEntries < 0 {
		return fmt.Errorf("birthdeath: maxEntries = %d is negative", maxEntries)
	}
	f := &c.factors
	f.mu.Lock()
	defer f.mu.Unlock()
	f.max = maxEntries
	if f.used > f.max {
		f.cache, f.used = nil, 0
	}
	return nil
}

// factorFor sets r to the factorisation of ρI − G_m on the columns
// [lo, hi): a kept one (KeepFactors) cut to those columns when the bound
// allows, else one computed into own, r's storage of its own. r.hi is hi
// either way, so the windows qRow derives from it do not depend on how
// wide the kept factorisation is.
func (c *Chain) factorFor(r, own *resolvent, rho float64, lo, hi int) {
	if kept := c.factors.get(c, rho, lo, hi); kept != nil {
		w := hi - lo
		*r = resolvent{lo: lo, hi: hi, invD: kept.invD[:w:w], up: kept.up[:w:w], down: kept.down[:w:w]}
		return
	}
	c.factor(own, rho, lo, hi)
	*r = *own
}

// get returns the kept factorisation of (ρ, lo) covering [lo, hi),
// computing and keeping it (at least twice as wide as the one it
// replaces, within the chain) when it is missing or short, or nil when
// the bound leaves no room for it.
func (f *factorCache) get(c *Chain, rho float64, lo, hi int) *resolvent {
	key := factorKey{rho, lo}
	f.mu.Lock()
	old := f.cache[key]
	if old != nil && old.hi >= hi {
		f.hits++
		f.mu.Unlock()
		return old
	}
	if old != nil {
		hi = max(hi, min(old.hi+(old.hi-lo), c.m+1))
	}
	freed := 0
	if old != nil {
		freed = old.hi - old.lo
	}
	fits := f.used-freed+(hi-lo) <= f.max
	f.mu.Unlock()
	if !fits {
		return nil
	}
	r := new(resolvent)
	c.factor(r, rho, lo, hi)
	// The last column's downward coefficient, which factor sets to zero
	// (the chain is killed above hi), is written as the recurrence gives
	// it so that a longer factorisation agrees with this one on [lo, hi):
	// a row solved on a window ending at hi multiplies it by x_hi = 0.
	r.down[hi-1-lo] = float64(hi) * c.lambda * r.invD[hi-1-lo]

	f.mu.Lock()
	defer f.mu.Unlock()
	if cur := f.cache[key]; cur != nil {
		if cur.hi >= hi {
			return cur // another goroutine kept one as wide
		}
		f.used -= cur.hi - cur.lo
	}
	if f.used+(hi-lo) > f.max {
		delete(f.cache, key)
		return r // used once, not kept
	}
	if f.cache == nil {
		f.cache = map[factorKey]*resolvent{}
	}
	f.cache[key] = r
	f.used += hi - lo
	return r
}
