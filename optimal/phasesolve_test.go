package optimal

import (
	"context"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/ckpt-markov/markov/internal/decision"
)

// TestTransientSolveMatchesSolveX holds the evaluation of the chain of
// up phases (reachOrder, solveClosed, solveTransient) against solveX,
// the general path it replaces, on the policies of a policy iteration
// (greedy, then each improvement) at three intervals, each policy
// evaluated at a second interval first (the closed set's factors and
// the transient sets with theirs, phasePlan, are then reused): g and
// every h must agree bit for bit, since both solve the same sets in the
// same order with the same LAPACK calls.
func TestTransientSolveMatchesSolveX(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		name string
		sv   func() (*Solver, error)
	}{
		{"QR, R(p, a), N = 24, 2 d / 4 h", func() (*Solver, error) { return New(qrScenario(t, 24, 2*86400, 4*3600), nil) }},
		{"QR, R(p, a), N = 48, built-in rates", func() (*Solver, error) { return New(qrScenario(t, 48, 104.61*86400, 56.03*60), nil) }},
		{"desktop, N = 64", func() (*Solver, error) { return New(largeApp(t, 64, 8*3600, 4*3600), nil) }},
	} {
		sv, err := c.sv()
		if err != nil {
			t.Fatal(err)
		}
		transient, replayed := 0, 0
		for _, iv := range []float64{600, 3600, 20000} {
			pol := sv.Greedy(iv)
			for step := range 6 {
				// The policy at its interval, then at another (the
				// second evaluation reuses the closed set's factors,
				// solveClosed).
				var v *values
				var plan *phasePlan
				for _, f := range []float64{1.37, 1} {
					p := sv.clone(pol)
					for b := range p.interval {
						p.interval[b][0] = iv * f
					}
					v, err = sv.evaluate(ctx, p, true)
					if err != nil {
						t.Fatal(err)
					}
					if f == 1 && sv.plan == plan && plan.sets != nil {
						replayed++
					}
					plan = sv.plan
					eqs := make([]equation, sv.nX)
					for x := range eqs {
						eqs[x] = sv.equation(v, x/sv.w, x%sv.w+sv.lo, p.action[x])
					}
					w := &values{x0: v.x0, iv: v.iv}
					if err := sv.solveX(w, p, eqs); err != nil {
						t.Fatal(err)
					}
					if math.Float64bits(v.g) != math.Float64bits(w.g) {
						t.Errorf("%s, I = %g, step %d: g = %v, solveX %v", c.name, iv*f, step, v.g, w.g)
					}
					for x := range v.hX {
						if math.Float64bits(v.hX[x]) != math.Float64bits(w.hX[x]) {
							t.Errorf("%s, I = %g, step %d: h(%d) = %v, solveX %v", c.name, iv*f, step, x, v.hX[x], w.hX[x])
							break
						}
						if !v.closed[x] {
							transient++
						}
					}
				}
				if ch, err := sv.improvePhaseAll(ctx, v, pol); err != nil {
					t.Fatal(err)
				} else if !ch {
					break
				}
			}
		}
		if transient == 0 || replayed == 0 {
			t.Errorf("%s: %d transient states, %d replayed plans: the comparison tests nothing", c.name, transient, replayed)
		}
	}
}

// TestOneClosedClass holds evaluatePhase's test for one closed class
// (oneClosedInReach, then leaves on every other strongly connected set)
// against closedClasses on random transition graphs (seeded): sparse
// ones with several closed classes and chains that end in one.
func TestOneClosedClass(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 9))
	seen := map[bool]int{}
	for trial := range 400 {
		n := 2 + rng.IntN(30)
		eqs := make([]equation, n)
		for x := range eqs {
			deg := rng.IntN(3)
			if trial%2 == 0 {
				deg++ // no absorbing singletons: fewer closed classes
			}
			for range deg {
				eqs[x].to = append(eqs[x].to, rng.IntN(n))
			}
			if len(eqs[x].to) == 0 {
				eqs[x].to = []int{x}
			}
		}
		x0 := rng.IntN(n)
		_, in := reachOrder(eqs, x0)
		want := len(closedClasses(eqs)) == 1
		// evaluatePhase's test: one closed class among the reachable
		// states, and every other strongly connected set leaves.
		ts := newTransientScratch(n)
		got := oneClosedInReach(eqs, in, ts)
		if got {
			_ = ts.scc(eqs, in, false, func(comp []int) (bool, error) {
				for i, x := range comp {
					ts.local[x] = int32(i)
				}
				if !leaves(eqs, comp, ts.local) {
					got = false
				}
				for _, x := range comp {
					ts.local[x] = -1
				}
				return !got, nil
			})
		}
		if got != want {
			t.Errorf("trial %d: one closed class = %v, closedClasses says %v", trial, got, want)
		}
		seen[want]++
	}
	if seen[true] < 20 || seen[false] < 20 {
		t.Errorf("cases with one closed class and with several: %d and %d, want ≥ 20 each", seen[true], seen[false])
	}
}

// TestResolventCacheSameRows computes every row of every block (p, a)
// twice with the solver's resolvent cache and its spare chains' kept
// factorisations (the second time from them) and once without either, on
// QR with R(p, a) (split rows where p ≠ a; both exist only when R depends
// on p) on two systems: the rows must be equal bit for bit, and the
// caches must have served some.
func TestResolventCacheSameRows(t *testing.T) {
	for _, c := range []struct {
		name string
		n    int
		qr   bool // the 2 d / 4 h system, else the built-in rates
	}{{"QR, N = 16, 2 d / 4 h", 16, true}, {"QR, N = 24, built-in rates", 24, false}} {
		mk := func() *Solver {
			sc := qrScenario(t, c.n, 2*86400, 4*3600)
			if !c.qr {
				sc = qrScenario(t, c.n, 104.61*86400, 56.03*60)
			}
			sv, err := New(sc, nil)
			if err != nil {
				t.Fatal(err)
			}
			return sv
		}
		cached, plain := mk(), mk()
		plain.resCache = nil
		plain.chains = decision.NewChains(plain.lambda, plain.theta) // keeps no factorisation
		served := 0
		for pi := range cached.ps {
			for b, a := range cached.acts {
				for n := max(cached.lo, a); n <= cached.hi; n++ {
					for pass := range 2 {
						if pass == 1 && cached.resCache[b*cached.w+n-cached.lo].Load() != nil {
							served++
						}
						got, _, err := cached.computeBlock(pi, b, n, n)
						if err != nil {
							t.Fatal(err)
						}
						want, _, err := plain.computeBlock(pi, b, n, n)
						if err != nil {
							t.Fatal(err)
						}
						g, w := got.rows[0], want.rows[0]
						same := math.Float64bits(got.surv) == math.Float64bits(want.surv) && math.Float64bits(g.drop) == math.Float64bits(w.drop) &&
							len(g.rec) == len(w.rec) && len(g.up) == len(w.up)
						for i := 0; same && i < len(g.rec); i++ {
							same = g.rec[i].i == w.rec[i].i && math.Float64bits(g.rec[i].p) == math.Float64bits(w.rec[i].p)
						}
						for i := 0; same && i < len(g.up); i++ {
							same = g.up[i].i == w.up[i].i && math.Float64bits(g.up[i].p) == math.Float64bits(w.up[i].p)
						}
						if !same {
							t.Fatalf("%s: X(%d, %d) → %d: the rows differ with the cache", c.name, cached.ps[pi], n, a)
						}
					}
				}
			}
		}
		if served == 0 {
			t.Errorf("%s: the cache served no row", c.name)
		}
	}
}

// TestClosedClassOutside gives greedy a second closed class that x₀
// does not reach: on QR with R(p, a) (built-in rates, the window near
// N), the states X(2, ·) recover on 2 processors, so their failures
// stay in X(2, ·). evaluatePhase finds it in the transient sets
// (errClosedOutside) and takes the general path: without repair the
// evaluation is an error naming the recurrent classes; with repair the
// class of x₀ (greedy's, far better than running on 2) is kept, and g
// is greedy's own (1e-12).
func TestClosedClassOutside(t *testing.T) {
	ctx := context.Background()
	sv, err := New(qrScenario(t, 48, 104.61*86400, 56.03*60), nil)
	if err != nil {
		t.Fatal(err)
	}
	greedy := sv.Greedy(3600)
	vg, err := sv.evaluate(ctx, greedy, false)
	if err != nil {
		t.Fatal(err)
	}
	pi := sv.pIdx[2]
	if pi < 0 || vg.closed[pi*sv.w] || sv.lo < 2 {
		t.Fatalf("the case needs X(2, ·) outside greedy's closed set and the window above 2 (lo = %d)", sv.lo)
	}
	pol := sv.clone(greedy)
	for k := range sv.w {
		pol.action[pi*sv.w+k] = 2
	}
	if _, in := reachOrder(sv.phaseEquations(t, pol), sv.reference()); !oneClosedInReach(sv.phaseEquations(t, pol), in, newTransientScratch(sv.nX)) {
		t.Fatal("the reachable states should hold one closed class: the second must be outside")
	}
	if _, err := sv.evaluate(ctx, sv.clone(pol), false); err == nil || !strings.Contains(err.Error(), "recurrent classes") {
		t.Fatalf("evaluation without repair: %v, want the recurrent classes' error", err)
	}
	v, err := sv.evaluate(ctx, pol, true)
	if err != nil {
		t.Fatal(err)
	}
	if d := relDiff(v.g, vg.g); d > 1e-12 {
		t.Errorf("repaired g = %.17g, greedy's %.17g (rel. %.3g)", v.g, vg.g, d)
	}
}

// phaseEquations returns the equations of pol's decision states.
func (sv *Solver) phaseEquations(t *testing.T, pol *Policy) []equation {
	t.Helper()
	v := &values{x0: sv.reference(), iv: phaseIntervals(pol)}
	eqs := make([]equation, sv.nX)
	for x := range eqs {
		eqs[x] = sv.equation(v, x/sv.w, x%sv.w+sv.lo, pol.action[x])
		if eqs[x].err != nil {
			t.Fatal(eqs[x].err)
		}
	}
	return eqs
}

// TestPreviousRowKept moves decision states back and forth between
// actions through keepRow, as the search over the interval does, and
// checks that stateRowAt then serves the previous action's row from
// prows (no new row: the slot's row is the very one kept), bit for bit
// the row computeBlock gives afresh, that a third action evicts the
// oldest, and that cached counts the entries of both slots.
func TestPreviousRowKept(t *testing.T) {
	sv, err := New(qrScenario(t, 24, 104.61*86400, 56.03*60), nil)
	if err != nil {
		t.Fatal(err)
	}
	row := func(pi, b, n int) stateRow {
		blk, _, err := sv.computeBlock(pi, b, n, n)
		if err != nil {
			t.Fatal(err)
		}
		return sv.newStateRow(pi, b, blk.surv, &blk.rows[0])
	}
	entries := func() int64 {
		var e int64
		for x := range sv.srows {
			if sv.srows[x].row != nil {
				e += sv.srows[x].entries()
			}
			if sv.prows[x].row != nil {
				e += sv.prows[x].entries()
			}
		}
		return e
	}
	for pi := range sv.ps {
		n := sv.hi
		x := pi*sv.w + n - sv.lo
		nb := len(sv.acts)
		b1, b2, b3 := nb-1, nb-2, nb-3 // three counts that X(p, N) may recover on
		r1, r2 := row(pi, b1, n), row(pi, b2, n)
		sv.keepRow(x, r1)
		sv.keepRow(x, r2)
		for range 3 { // back and forth: 1, 2, 1, 2
			for _, c := range []struct {
				b    int
				want *stateRow
			}{{b1, &r1}, {b2, &r2}} {
				got, err := sv.stateRowAt(pi, c.b, n)
				if err != nil {
					t.Fatal(err)
				}
				if got.row != c.want.row || got.act != sv.acts[c.b] {
					t.Fatalf("X(%d, %d) → %d: not the row kept before", sv.ps[pi], n, sv.acts[c.b])
				}
				fresh := row(pi, c.b, n)
				if !sameStateRow(got, &fresh) {
					t.Fatalf("X(%d, %d) → %d: the kept row differs from a fresh one", sv.ps[pi], n, sv.acts[c.b])
				}
			}
		}
		sv.keepRow(x, row(pi, b3, n)) // evicts b1, the older of the two
		if sv.promoteRow(x, sv.acts[b1]) || !sv.promoteRow(x, sv.acts[b2]) {
			t.Fatalf("X(%d, %d): after a third action, the previous row is not the second's", sv.ps[pi], n)
		}
		if sv.cached != entries() {
			t.Fatalf("cached = %d, the slots hold %d entries", sv.cached, entries())
		}
	}
}

// sameStateRow reports whether two state rows agree bit for bit.
func sameStateRow(a, b *stateRow) bool {
	if a.act != b.act || math.Float64bits(a.surv) != math.Float64bits(b.surv) || len(a.to) != len(b.to) {
		return false
	}
	for i := range a.to {
		if a.to[i] != b.to[i] || math.Float64bits(a.coef[i]) != math.Float64bits(b.coef[i]) {
			return false
		}
	}
	return true
}

// TestWaitRowsBuiltOnce holds the rows and equations of waiting that
// the solver builds once (initWaits) against newWaitRow computed afresh
// for every decision state, bit for bit, on QR with R(p, a) (several
// checkpoint counts) and on a window that cuts the chain (N = 512 at the
// built-in rates, where the rows at the window's ends lose a move).
func TestWaitRowsBuiltOnce(t *testing.T) {
	for _, n := range []int{16, 512} {
		sv, err := New(qrScenario(t, n, 104.61*86400, 56.03*60), nil)
		if err != nil {
			t.Fatal(err)
		}
		for pi := range sv.ps {
			for m := sv.lo; m <= sv.hi; m++ {
				want := sv.newWaitRow(m)
				got, e := sv.waitRow(m), sv.waitEquation(pi, m)
				same := math.Float64bits(got.tau) == math.Float64bits(want.tau) && math.Float64bits(got.drop) == math.Float64bits(want.drop) &&
					len(got.fail) == len(want.fail) && len(e.to) == len(want.fail) && math.Float64bits(e.gc) == math.Float64bits(want.tau)
				for i := 0; same && i < len(want.fail); i++ {
					same = got.fail[i] == want.fail[i] && e.to[i] == pi*sv.w+int(want.fail[i].i) && math.Float64bits(e.coef[i]) == math.Float64bits(want.fail[i].p)
				}
				if !same {
					t.Fatalf("N = %d, X(%d, %d): the kept row or equation of waiting differs from a fresh one", n, sv.ps[pi], m)
				}
			}
		}
	}
}
