package batchchain

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// releaseCases are chains whose tables differ in every way a table can
// be partly written: f < K_max (rows shorter than K_max), sizes of
// probability zero, spare-only rates that are zero (j < k), one size, and
// sizes from 1 to 64; the rare-interruption case takes the dense path.
var releaseCases = []struct {
	n, a          int
	lambda, theta float64
	sizes         []float64
}{
	{64, 40, 1 / (8 * hour), 1 / hour, issueSizes()},
	{40, 3, 1 / hour, 1 / hour, issueSizes()},
	{300, 250, 1 / (24 * hour), 1 / hour, []float64{0.2, 0, 0.3, 0, 0, 0.5}},
	{50, 20, 1 / (8 * hour), 1 / hour, []float64{1}},
	{64, 10, 1 / (8 * hour), 1 / hour, hugeSize(40)},
	{12, 1, 1 / (8 * hour), 1 / hour, hugeSize(12)},
	{24, 20, 1 / (1e5 * 24 * hour), 1 / hour, []float64{0.5, 0, 0.5}},
}

// dirty sets every entry of st's storage, to its capacity, to NaN: what
// a phase built into it must overwrite before reading.
func dirty(st *phaseTables) {
	for _, v := range []*[]float64{&st.dn, &st.hit, &st.edn, &st.up, &st.hitTot, &st.eout, &st.ratio, &st.tail, &st.left} {
		*v = (*v)[:cap(*v)]
		for i := range *v {
			(*v)[i] = math.NaN()
		}
	}
}

// phaseBits is what a phase computes, for comparison bit for bit.
type phaseBits struct {
	tables [][]float64 // dn, hit, up, hitTot, the censored edn and eout
	hits   [3]float64  // hitMin, hitMax, Rate
	exit   []float64   // Exit's law, then its qlo and τ
	solve  []float64   // Solve(B·h)
	segs   []float64   // Expected at three lengths
}

func bitsOf(t *testing.T, ph *Phase, v []float64, lo int) phaseBits {
	t.Helper()
	edn, eout := ph.censored()
	b := phaseBits{hits: [3]float64{ph.hitMin, ph.hitMax, ph.Rate()}}
	for _, tb := range [][]float64{ph.dn, ph.hit, ph.up, ph.hitTot, edn, eout} {
		b.tables = append(b.tables, slices.Clone(tb)) // the storage may be reused
	}
	q, qlo, tau := ph.Exit(v, lo)
	b.exit = append(q, float64(qlo), tau)
	h := make([]float64, ph.c.n)
	for i := range h {
		h[i] = float64(i%7) + 0.5
	}
	b.solve = ph.Solve(ph.HitSum(h, 0))
	sg := ph.Segments(v, lo, 0)
	for _, tt := range []float64{60, hour, 24 * hour} {
		e, err := sg.Expected(tt, nil)
		if err != nil {
			t.Fatal(err)
		}
		b.segs = append(b.segs, e)
	}
	return b
}

// sameBits reports the first difference between a and b ("" if none);
// NaN differs from everything.
func sameBits(a, b phaseBits) string {
	eq := func(x, y []float64) bool {
		return slices.EqualFunc(x, y, func(p, q float64) bool { return math.Float64bits(p) == math.Float64bits(q) })
	}
	for i := range a.tables {
		if !eq(a.tables[i], b.tables[i]) {
			return [...]string{"dn", "hit", "up", "hitTot", "edn", "eout"}[i]
		}
	}
	switch {
	case !eq(a.hits[:], b.hits[:]):
		return "hitMin, hitMax, Rate"
	case !eq(a.exit, b.exit):
		return "Exit"
	case !eq(a.solve, b.solve):
		return "Solve"
	case !eq(a.segs, b.segs):
		return "Expected"
	}
	return ""
}

// TestPhaseTablesReused: a phase built into the storage of another
// phase's tables (Release hands them on), every entry of which was set
// to NaN, computes the same bits as one built into fresh storage: its
// rates, the censored rates, Exit, Solve and Expected, for each chain of
// releaseCases built into the storage left by each of them (larger and
// smaller tables, other sizes). Power checks (storage not cleared where
// it must be): fillRates without the zeros it writes where a rate is
// zero fails 28 of the 49 pairs (every case), without clearing its
// scratch tail 29, and killRates without clearing its scratch left 15.
func TestPhaseTablesReused(t *testing.T) {
	rng := rand.New(rand.NewPCG(20, 11))
	for _, tc := range releaseCases {
		c, err := New(tc.n, tc.a, tc.lambda, tc.theta, tc.sizes)
		if err != nil {
			t.Fatal(err)
		}
		v, lo := randomStart(rng, c.M())
		want := bitsOf(t, c.newPhase(new(phaseTables)), v, lo)
		for _, prev := range releaseCases {
			pc, err := New(prev.n, prev.a, prev.lambda, prev.theta, prev.sizes)
			if err != nil {
				t.Fatal(err)
			}
			old := pc.newPhase(new(phaseTables))
			old.SegmentsBase(0) // every table and scratch in use
			st := old.store
			dirty(st)
			if d := sameBits(want, bitsOf(t, c.newPhase(st), v, lo)); d != "" {
				t.Errorf("n=%d a=%d in the tables of n=%d a=%d: %s differs from a fresh phase's", tc.n, tc.a, prev.n, prev.a, d)
			}
		}
	}
}

// TestPhaseRelease: after Release, the chain no longer reads the
// phase's tables (Rows the same bits as before, from its own rates, and
// Phase builds a new phase with the same bits), the phase's methods
// panic, and a SegmentsBase built before (the sequence, and the dense
// path for the rare-interruption case) gives the same Expected once the
// released tables are overwritten (set to NaN): it holds none of them.
// Power checks: a dense path that keeps the phase's censored rates
// instead of copies gives NaN in the two rare-interruption cases (n = 12
// and 24), and a Release that leaves the chain its phase fails at once.
func TestPhaseRelease(t *testing.T) {
	rng := rand.New(rand.NewPCG(20, 12))
	for _, tc := range releaseCases {
		c, ph := newPhase(t, tc.n, tc.a, tc.lambda, tc.theta, tc.sizes)
		v, lo := randomStart(rng, c.M())
		want := bitsOf(t, ph, v, lo)
		rowsBefore, err := c.Rows(0, c.M()+1, hour, 1e-16)
		if err != nil {
			t.Fatal(err)
		}
		base := ph.SegmentsBase(0)
		tt := []float64{60, hour, 24 * hour}
		before := make([]float64, len(tt))
		for i, x := range tt {
			if before[i], err = base.Segments(v, lo).Expected(x, nil); err != nil {
				t.Fatal(err)
			}
		}
		st := ph.store
		ph.Release()
		if c.phase.Load() != nil {
			t.Fatalf("n=%d a=%d: the chain still holds the released phase", tc.n, tc.a)
		}
		// Taken back from the pool before anything else can take it
		// (no test here runs in parallel), then overwritten.
		for tablePool.Get() != nil {
		}
		dirty(st)
		for i, x := range tt {
			got, err := base.Segments(v, lo).Expected(x, nil)
			if err != nil {
				t.Fatal(err)
			}
			if math.Float64bits(got) != math.Float64bits(before[i]) {
				t.Errorf("n=%d a=%d t=%g: Expected %v after the release, %v before (dense path %v)", tc.n, tc.a, x, got, before[i], base.dense != nil)
			}
		}
		rowsAfter, err := c.Rows(0, c.M()+1, hour, 1e-16)
		if err != nil {
			t.Fatal(err)
		}
		for s := range rowsBefore {
			w, g := rowsBefore[s], rowsAfter[s]
			if w.Lo != g.Lo || w.QLo != g.QLo || !slices.Equal(w.P, g.P) || !slices.Equal(w.Q, g.Q) ||
				w.Survival != g.Survival || w.Sojourn != g.Sojourn || w.Dropped != g.Dropped {
				t.Errorf("n=%d a=%d s=%d: the rows differ after the release", tc.n, tc.a, s)
			}
		}
		ph2, err := c.Phase()
		if err != nil {
			t.Fatal(err)
		}
		if d := sameBits(want, bitsOf(t, ph2, v, lo)); d != "" {
			t.Errorf("n=%d a=%d: the phase built again differs in %s", tc.n, tc.a, d)
		}
		if !panics(func() { ph.Exit(v, lo) }) {
			t.Errorf("n=%d a=%d: Exit on a released phase does not panic", tc.n, tc.a)
		}
	}
}

func panics(f func()) (p bool) {
	defer func() { p = recover() != nil }()
	f()
	return false
}
