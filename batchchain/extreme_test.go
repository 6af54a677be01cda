package batchchain

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/gonum/floats"
)

// evSizes is the event-size law of the extreme-rate tests (the issue's
// ev.json): 70 % single failures, 20 % pairs, 10 % triples.
var evSizes = []float64{0.7, 0.2, 0.1}

// longSum is the oracle of Segments' closed form of the flat weights: the
// plain sum Σ_n c_n(Λt)·s_n of a fresh sequence from the same start,
// carried on until the bound on the rest, s_N·(1/x + 1/√(2π(N+1)))·
// r/(1 − r), is below 1e-17 of the sum (the ladder's rule at a thousandth
// of its tolerance, and no closed form). It returns the sum and the
// number of terms it took.
func longSum(sg *Segments, v []float64, lo int, tt float64) (float64, int) {
	ref := sg.SegmentsBase.Segments(v, lo)
	x := sg.lam * tt
	w := NewWeights(x)
	var e float64
	for n := 0; ; n++ {
		ref.extend(n)
		w.ensure(n + 1)
		e += w.at(n) * ref.s[n]
		if n%ladderStep == ladderStep-1 {
			if ref.s[n]*weightBound(x, n+1)*ref.r/(1-ref.r) <= 1e-17*e {
				return e, n + 1
			}
		}
	}
}

// TestSegmentsFlatTail (the sequence path, seqOnly): once the weights are flat, Expected closes the
// sum by v·Kᴺ·(−A)⁻¹·1/t; against the plain sum carried on to 1e-17
// (longSum, thousands to hundreds of thousands of terms, which the
// closed form skips: the sequence stops within a ladder step of
// flatFrom(Λt)) to 1e-12 relative, and against the dense (I − M)⁻¹·M·1
// (expm) to 1e-11, the conditioning 1/(ρ_min·t) of I − M times 1e-15
// within it. Power: the partial sum without the closed form, or with the
// rest taken one ladder step late, is rejected by the oracle by more than
// 1e3 times the tolerance.
func TestSegmentsFlatTail(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 13))
	cases := []struct {
		n, a int
		mttf float64
		ts   []float64
	}{
		{32, 29, 1e7, []float64{60, 300, 3000}},
		{32, 29, 1e8, []float64{300, 2400}},
		{32, 1, 1e6, []float64{30, 300}},
		{12, 4, 1e6, []float64{100, 1000}},
	}
	for _, tc := range cases {
		c, ph := newPhase(t, tc.n, tc.a, 1/tc.mttf, 1/hour, evSizes)
		a, _ := c.Generator()
		v, lo := randomStart(rng, c.M())
		for _, tt := range tc.ts {
			sg := seqOnly(ph).Segments(v, lo)
			got, err := sg.Expected(tt, nil)
			if err != nil {
				t.Fatal(err)
			}
			want, terms := longSum(sg, v, lo, tt)
			w := NewWeights(sg.lam * tt)
			// The first ladder point at or after flatFrom.
			nFlat := (w.flat + ladderStep - 1) / ladderStep * ladderStep
			if sg.Len() > nFlat+1 {
				t.Errorf("n=%d a=%d MTTF %g t=%g: %d terms, want at most %d (flatFrom %d; the plain sum took %d)", tc.n, tc.a, tc.mttf, tt, sg.Len(), nFlat+1, w.flat, terms)
			}
			if terms < 4*nFlat {
				t.Errorf("n=%d a=%d MTTF %g t=%g: the plain sum took %d terms, not far more than the closed form's %d: the case does not test it", tc.n, tc.a, tc.mttf, tt, terms, nFlat)
			}
			const tol = 1e-12
			if math.Abs(got-want) > tol*want {
				t.Errorf("n=%d a=%d MTTF %g t=%g: Expected %.16g, plain sum %.16g (rel %.2g)", tc.n, tc.a, tc.mttf, tt, got, want, math.Abs(got-want)/want)
			}
			if d := denseExpected(t, a, c.M()+1, v, lo, tt); math.Abs(got-d) > 1e-11*d {
				t.Errorf("n=%d a=%d MTTF %g t=%g: Expected %.16g, dense %.16g (rel %.2g)", tc.n, tc.a, tc.mttf, tt, got, d, math.Abs(got-d)/d)
			}
			// Power: the same partial sum with a wrong rest.
			w.ensure(nFlat)
			var part float64
			for n := range nFlat {
				part += w.at(n) * sg.s[n]
			}
			sg.extend(nFlat + ladderStep)
			for _, wrong := range []float64{part, part + sg.u[nFlat/ladderStep+1]/tt} {
				if math.Abs(wrong-want) <= 1e3*tol*want {
					t.Errorf("n=%d a=%d MTTF %g t=%g: a wrong rest (%.16g) is not rejected by the oracle %.16g", tc.n, tc.a, tc.mttf, tt, wrong, want)
				}
			}
		}
	}
}

// TestSegmentsHugeMTTF (the sequence path, seqOnly): MTTF 10²⁰ s, interruptions 10¹⁵ times rarer than
// the repairs (the old sequence needed about 10¹⁷ terms and grew without
// bound): Expected stops within a ladder step of flatFrom(Λt), between the bounds
// s_0·q/(1 − q) at q = e^{−ρ_max t} (Lower) and at q = e^{−ρ_min t}
// (exp(A t)·1 lies between e^{−ρ_max t} and e^{−ρ_min t}), which differ
// by the spread of ρ; and t·Expected tends to v·(−A)⁻¹·1 − t·s_0/2 (the
// expected up time over t, less half a segment: Euler–Maclaurin on the
// slowly decaying v·exp(A s)·1), checked to 1e-9 relative: the
// corrections are O(ρ·t) ≈ 1e-16 of the sum here.
func TestSegmentsHugeMTTF(t *testing.T) {
	for _, tc := range []struct {
		n, a int
		t    float64
	}{{32, 29, 900}, {32, 16, 3600}, {64, 48, 60}} {
		_, ph := newPhase(t, tc.n, tc.a, 1e-20, 1/hour, evSizes)
		m := tc.n - tc.a
		v := make([]float64, m+1)
		v[m] = 1 // every spare functional
		sg := seqOnly(ph).Segments(v, 0)
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		got, err := sg.ExpectedFloorContext(ctx, tc.t, nil, 1, 0)
		cancel()
		if err != nil {
			t.Fatalf("n=%d a=%d: %v", tc.n, tc.a, err)
		}
		flat := NewWeights(sg.lam * tc.t).flat
		if nFlat := (flat + ladderStep - 1) / ladderStep * ladderStep; sg.Len() > nFlat+1 {
			t.Errorf("n=%d a=%d: %d terms, want at most %d (flatFrom %d)", tc.n, tc.a, sg.Len(), nFlat+1, flat)
		}
		lo, hi := ph.HitRates()
		bound := func(rho float64) float64 { q := math.Exp(-rho * tc.t); return q / -math.Expm1(-rho*tc.t) }
		// The bounds to 1e-14: the sum's rounding.
		if !(got >= bound(hi)*(1-1e-14) && got <= bound(lo)*(1+1e-14)) {
			t.Errorf("n=%d a=%d: Expected %.16g outside [%.16g, %.16g]", tc.n, tc.a, got, bound(hi), bound(lo))
		}
		// The mean up time from s = m, (−A)⁻¹·1 (Solve: TestColumnsMatchDense).
		up := ph.Solve(ones(m + 1))[m]
		if want := up/tc.t - 0.5; math.Abs(got-want) > 1e-9*want {
			t.Errorf("n=%d a=%d: Expected %.16g, up time/t − ½ %.16g (rel %.2g)", tc.n, tc.a, got, want, math.Abs(got-want)/want)
		}
	}
}

// TestSegmentsCancel (the sequence path, seqOnly): a sequence of about 10⁷ terms (a = 1 of 32, MTTF
// 10⁹ s, Λt ≈ 8600: the flat weights too far) stops at the first check of
// a cancelled context, after cancelEvery products, with its error; with a
// live context it stops at MaxSegmentsProducts with an error that says so.
func TestSegmentsCancel(t *testing.T) {
	_, ph := newPhase(t, 32, 1, 1e-9, 1/hour, evSizes)
	v := make([]float64, 32)
	v[31] = 1
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	sg := seqOnly(ph).Segments(v, 0)
	if _, err := sg.ExpectedFloorContext(ctx, 1e6, nil, 1, 0); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: error %v, want context.Canceled", err)
	}
	if sg.Len() > cancelEvery+1 {
		t.Errorf("cancelled: %d terms, want at most %d", sg.Len(), cancelEvery+1)
	}
	if testing.Short() {
		return
	}
	sg = seqOnly(ph).Segments(v, 0)
	_, err := sg.ExpectedFloorContext(context.Background(), 1e6, nil, 1, 0)
	if err == nil || !strings.Contains(err.Error(), "MaxSegmentsProducts") {
		t.Fatalf("error %v, want the bound MaxSegmentsProducts", err)
	}
	if sg.Len() > MaxSegmentsProducts {
		t.Errorf("%d terms, more than MaxSegmentsProducts = %d", sg.Len(), MaxSegmentsProducts)
	}
}

// TestRowsExtremeRates: with MTTF 1 µs a recovery of 60 s has ΛT ≈ 10⁹
// events, and every product kills at least a/(a + m) of the mass: the
// rows underflow to zero within a few thousand products and Rows stops
// there (the old loop ran all 10⁹). The row's oracle: no survival,
// Q + Dropped = 1, and the sojourn between (1 − e^{−ρ_min t})/ρ_max and
// 1/ρ_min. A cancelled context stops a long uniformization (MTTF 1 h,
// T = 10⁷ s: ΛT ≈ 10⁵, no underflow) with its error; ΛT beyond
// MaxRowProducts is refused.
func TestRowsExtremeRates(t *testing.T) {
	c, ph := newPhase(t, 32, 29, 1e6, 1/hour, evSizes)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	rows, err := c.RowsContext(ctx, 0, c.M()+1, 60, 1e-12)
	if err != nil {
		t.Fatal(err)
	}
	lo, hi := ph.HitRates()
	for _, r := range rows {
		if r.Survival != 0 {
			t.Errorf("s=%d: survival %g, want 0", r.S, r.Survival)
		}
		if q := floats.Sum(r.Q); math.Abs(q+r.Dropped-1) > 1e-12 {
			t.Errorf("s=%d: Q sums to %.16g, dropped %g", r.S, q, r.Dropped)
		}
		if r.Sojourn < -math.Expm1(-lo*60)/hi*(1-1e-12) || r.Sojourn > 1/lo*(1+1e-12) {
			t.Errorf("s=%d: sojourn %g outside [%g, %g]", r.S, r.Sojourn, -math.Expm1(-lo*60)/hi, 1/lo)
		}
	}
	c2, _ := newPhase(t, 32, 16, 1/hour, 1/60.0, evSizes)
	cctx, ccancel := context.WithCancel(context.Background())
	ccancel()
	if _, err := c2.RowsContext(cctx, 0, 1, 1e7, 1e-12); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: error %v, want context.Canceled", err)
	}
	if _, err := c2.Rows(0, 1, 1e12, 1e-12); err == nil || !strings.Contains(err.Error(), "MaxRowProducts") {
		t.Errorf("ΛT ≈ 10¹⁰: error %v, want the bound MaxRowProducts", err)
	}
}

// TestSegmentsBudget (the sequence path, seqOnly): sequences sharing a Budget store at most its terms
// in all (beyond each one's first): a sum that needs more returns an
// error saying so, with the sequence no longer than the budget allows,
// and a sum within it is bit for bit the one without a budget.
func TestSegmentsBudget(t *testing.T) {
	_, ph := newPhase(t, 32, 29, 1e-7, 1/hour, evSizes)
	v := []float64{0, 0, 0, 1}
	free := seqOnly(ph).Segments(v, 0)
	want, err := free.Expected(300, nil)
	if err != nil {
		t.Fatal(err)
	}
	need := free.Len()
	for _, size := range []int{need + 1, 10 * need} {
		b := NewBudget(int64(size))
		sg := seqOnly(ph).Segments(v, 0)
		sg.SetBudget(b)
		got, err := sg.Expected(300, nil)
		if err != nil || got != want {
			t.Errorf("budget %d: %v, %v; without a budget %v", size, got, err, want)
		}
	}
	b := NewBudget(int64(need / 2))
	for i := range 2 {
		sg := seqOnly(ph).Segments(v, 0)
		sg.SetBudget(b)
		_, err := sg.Expected(300, nil)
		if err == nil || !strings.Contains(err.Error(), "budget") {
			t.Errorf("sequence %d, budget %d of the %d terms needed: error %v, want the budget's", i, need/2, need, err)
		}
		if sg.Len() > need/2+1 {
			t.Errorf("sequence %d: %d terms, more than the budget %d allows", i, sg.Len(), need/2)
		}
	}
}

// countCtx is a context whose Err counts its calls and reports
// context.Canceled from the call number cancelAt on (0: never): the
// loops check Err once every cancelEvery products, so calls bounds the
// products made before they stop, at most calls·cancelEvery.
type countCtx struct {
	context.Context
	calls, cancelAt int
}

func (c *countCtx) Err() error {
	c.calls++
	if c.cancelAt > 0 && c.calls >= c.cancelAt {
		return context.Canceled
	}
	return nil
}

// TestColumnCancel: SegmentsColumnContext (its sum and exp(A·tr)) and
// SegmentsSeq.AtContext (the sequence's start, exp(A·tr)·1 by
// columnK.expTimes) stop with context.Canceled at the first check that
// sees a cancelled context: after at most 2·cancelEvery products when it
// is cancelled at the second check. The power check: with a live context
// each call makes at least 3 checks (so the cancellation, not the end of
// the work, stopped it), and returns the bits of the call without a
// context.
func TestColumnCancel(t *testing.T) {
	_, ph := newPhase(t, 32, 1, 1e-9, 1/hour, evSizes)
	lam := ph.Rate()
	seq := func(ctx context.Context) ([]float64, error) {
		sq, err := NewSegmentsSeq(1e7, 0, 3, nil)
		if err != nil {
			return nil, err
		}
		return sq.AtContext(ctx, ph, 1)
	}
	for _, c := range []struct {
		name string
		run  func(context.Context) ([]float64, error)
		want func() ([]float64, error)
	}{
		// Λt = 100: about 1.9·10⁴ products to the flat weights.
		{"sum", func(ctx context.Context) ([]float64, error) { return ph.SegmentsColumnContext(ctx, 0, 100/lam) },
			func() ([]float64, error) { return ph.SegmentsColumn(0, 100/lam) }},
		// Λ·tr = 5·10⁴ products in exp(A·tr), a short sum (Λt = 0.5).
		{"exp", func(ctx context.Context) ([]float64, error) { return ph.SegmentsColumnContext(ctx, 5e4/lam, 0.5/lam) },
			func() ([]float64, error) { return ph.SegmentsColumn(5e4/lam, 0.5/lam) }},
		{"seq start", seq, func() ([]float64, error) { return seq(context.Background()) }},
	} {
		live := &countCtx{Context: context.Background()}
		got, err := c.run(live)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		want, err := c.want()
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: with a context %v, without %v", c.name, got, want)
		}
		if live.calls < 3 {
			t.Errorf("%s: %d checks of the live context, want at least 3 (the work too short to test)", c.name, live.calls)
		}
		cancelled := &countCtx{Context: context.Background(), cancelAt: 2}
		if _, err := c.run(cancelled); !errors.Is(err, context.Canceled) {
			t.Errorf("%s: cancelled: error %v, want context.Canceled", c.name, err)
		}
		if cancelled.calls != 2 {
			t.Errorf("%s: cancelled at the 2nd check: %d checks (at most %d products wanted)", c.name, cancelled.calls, 2*cancelEvery)
		}
	}
}
