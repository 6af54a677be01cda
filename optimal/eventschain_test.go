package optimal

import (
	"context"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/ckpt-markov/markov/batchchain"
	"github.com/ckpt-markov/markov/scenario"
	"github.com/ckpt-markov/markov/uwt"
)

// chainCase is a system with failure events for the chain of up phases.
type chainCase struct {
	name       string
	n          int
	mttf, mttr float64
	sizes      []float64
	exp        float64 // ω(a) = a^exp
}

func (c chainCase) system() (scenario.System, scenario.Application) {
	w, lat, ovh, rec := make([]float64, c.n), make([]float64, c.n), make([]float64, c.n), make([]float64, c.n)
	for a := 1; a <= c.n; a++ {
		w[a-1] = math.Pow(float64(a), c.exp)
		lat[a-1] = 60 + 2*float64(a)
		ovh[a-1] = lat[a-1] / 2
		rec[a-1] = 40 + 3*float64(a)
	}
	return scenario.System{Processors: c.n, MTTF: c.mttf, MTTR: c.mttr, FailureEvents: &scenario.FailureEvents{Sizes: c.sizes}},
		scenario.Application{WorkRate: w, Latency: lat, Overhead: ovh, Recovery: scenario.RecoveryByNew(rec)}
}

// chainCases are the extra cases of the comparison with the dense
// solver: several size laws, MTTF and MTTR, and sizes.
func chainCases() []chainCase {
	const h, d = 3600.0, 86400.0
	return []chainCase{
		{"grid16", 16, 8 * h, 4 * h, []float64{0.5, 0, 0, 0.25, 0.25}, 0.8},
		{"day32", 32, 1 * d, 1 * h, []float64{0.3, 0.3, 0.4}, 0.9},
		{"fast24", 24, 2 * h, 2 * h, []float64{1}, 0.6},
		{"grid64", 64, 8 * h, 4 * h, []float64{0.5, 0, 0, 0.1, 0.1, 0.1, 0.1, 0.1}, 0.7},
	}
}

// shortChainCases is chainCases, without those of more than 32
// processors in -short mode (CI's run under the race detector).
func shortChainCases() []chainCase {
	cs := chainCases()
	if testing.Short() {
		cs = slices.DeleteFunc(cs, func(c chainCase) bool { return c.n > 32 })
	}
	return cs
}

// eventsScenarios returns every system of the comparison: those of
// optimal's events tests (eventsCases) and chainCases.
func eventsScenarios(t *testing.T) []struct {
	name string
	sys  scenario.System
	app  scenario.Application
} {
	var out []struct {
		name string
		sys  scenario.System
		app  scenario.Application
	}
	for _, c := range eventsCases() {
		base := c.scenario(t, scenario.Policy{})
		sys := base.System
		sys.FailureEvents = &scenario.FailureEvents{Sizes: c.sizes}
		out = append(out, struct {
			name string
			sys  scenario.System
			app  scenario.Application
		}{fmt.Sprintf("%s%v", c.name, c.sizes), sys, base.Application})
	}
	for _, c := range chainCases() {
		sys, app := c.system()
		out = append(out, struct {
			name string
			sys  scenario.System
			app  scenario.Application
		}{c.name, sys, app})
	}
	return out
}

// TestEventsChainMatchesDense: the chain of up phases on X(n) (column
// forms of package batchchain, the window of functional counts, or every
// count with Settings.Full) and the dense process on X(p, n) (Van Loan
// rows of every configuration) are two algorithms for g*(I): equal to
// 1e-10 relative on every events scenario of the events tests and
// chainCases, at three intervals. Their actions agree in every state of
// the window, or are tied: the dense process's values
// w − g·τ + Σ P·h of the two actions (at the dense optimum's g and h)
// differ by at most 1e-9 of max(|value|, g).
func TestEventsChainMatchesDense(t *testing.T) {
	ctx := context.Background()
	for _, e := range eventsScenarios(t) {
		for _, interval := range []float64{300, 1800, 6 * 3600} {
			debugDenseEvents = true
			want, err := FixedIntervalEvents(ctx, e.sys, e.app, interval, nil)
			debugDenseEvents = false
			if err != nil {
				t.Fatal(err)
			}
			pr, err := newEventsProcess(ctx, e.sys, e.app)
			if err != nil {
				t.Fatal(err)
			}
			pr.setInterval(interval)
			wv, err := want.Table.Vector()
			if err != nil {
				t.Fatal(err)
			}
			act := make([]int, pr.states())
			for n := 1; n <= e.sys.Processors; n++ {
				act[n] = wv[n-1]
			}
			g, h, err := evaluateEvents(pr, act)
			if err != nil {
				t.Fatal(err)
			}
			for _, full := range []bool{false, true} {
				set := &Settings{Full: full}
				got, err := FixedIntervalEvents(ctx, e.sys, e.app, interval, set)
				if err != nil {
					t.Fatal(err)
				}
				if d := relDiff(got.UWT, want.UWT); d > 1e-10 || got.Status != Converged {
					t.Errorf("%s I=%g full=%v: chain %.15g (%v), dense %.15g (rel. %.2g)", e.name, interval, full, got.UWT, got.Status, want.UWT, d)
				}
				gv, err := got.Table.Vector()
				if err != nil {
					t.Fatal(err)
				}
				ec, _ := newEventsChain(ctx, e.sys, e.app, mustDefaults(t, set))
				tr := &sparseRow{val: make([]float64, len(act))}
				for n := max(ec.lo, 1); n <= ec.hi; n++ {
					if gv[n-1] == wv[n-1] {
						continue
					}
					q := func(a int) float64 {
						w, tau, err := pr.row(n, a, tr)
						if err != nil {
							t.Fatal(err)
						}
						v := w - g*tau
						for _, y := range tr.idx {
							v += tr.val[y] * h[y]
						}
						return v
					}
					qg, qw := q(gv[n-1]), q(wv[n-1])
					if math.Abs(qg-qw) > 1e-9*math.Max(math.Abs(qw), g) {
						t.Errorf("%s I=%g full=%v: n=%d: chain runs %d (value %.15g), dense %d (%.15g)", e.name, interval, full, n, gv[n-1], qg, wv[n-1], qw)
					}
				}
			}
		}
	}
}

func mustDefaults(t *testing.T, s *Settings) Settings {
	t.Helper()
	set, err := s.withDefaults()
	if err != nil {
		t.Fatal(err)
	}
	return set
}

// TestEventsChainDeterministic: the chain of up phases gives the same
// bits (g*, I*, the table) with 1 and 8 workers, on every run, at a fixed
// interval and with the interval search, N = 64 and N = 200.
func TestEventsChainDeterministic(t *testing.T) {
	ctx := context.Background()
	cs := []chainCase{chainCases()[3], {"grid200", 200, 8 * 3600, 4 * 3600, []float64{0.6, 0, 0.2, 0.2}, 0.8}}
	for _, c := range cs {
		sys, app := c.system()
		var first EventsResult
		for i, workers := range []int{1, 8, 1, 8} {
			set := &Settings{Workers: workers}
			res, err := FixedIntervalEvents(ctx, sys, app, 1200, set)
			if err != nil {
				t.Fatal(err)
			}
			if c.n == 64 {
				if res, err = SingleIntervalEvents(ctx, sys, app, set); err != nil {
					t.Fatal(err)
				}
			}
			if i == 0 {
				first = res
				continue
			}
			if math.Float64bits(res.UWT) != math.Float64bits(first.UWT) || res.Interval != first.Interval || res.Table.String() != first.Table.String() {
				t.Fatalf("%s run %d (%d workers): %v at %v %s, first %v at %v %s", c.name, i, workers, res.UWT, res.Interval, res.Table, first.UWT, first.Interval, first.Table)
			}
		}
	}
}

// TestEventsChainBounds: beyond MaxEventsChainProcessors, and beyond
// MaxEventsProcessors when the recovery cost depends on the old count,
// the error names system.processors.
func TestEventsChainBounds(t *testing.T) {
	ctx := context.Background()
	for _, n := range []int{MaxEventsChainProcessors + 1} {
		c := chainCase{"big", n, 86400, 3600, []float64{0.5, 0.5}, 1}
		sys, app := c.system()
		_, err := FixedIntervalEvents(ctx, sys, app, 600, nil)
		if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("system.processors = %d", n)) {
			t.Errorf("N = %d: error %v", n, err)
		}
	}
	c := chainCase{"old", MaxEventsProcessors + 1, 86400, 3600, []float64{0.5, 0.5}, 1}
	sys, app := c.system()
	rec := make([][]float64, c.n)
	for p := range rec {
		rec[p] = make([]float64, c.n)
		for a := range rec[p] {
			rec[p][a] = 100
			if p != a {
				rec[p][a] = 300
			}
		}
	}
	app.Recovery = scenario.RecoveryMatrix(rec)
	_, err := FixedIntervalEvents(ctx, sys, app, 600, nil)
	if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("system.processors = %d", c.n)) {
		t.Errorf("R(p, a), N = %d: error %v", c.n, err)
	}
}

// TestEventsChainPower: the comparison of TestEventsChainMatchesDense
// rejects a wrong model: the chain of a neighbouring size law (the
// events' sizes shifted by one processor) or of a recovery 10 % dearer
// differs from the dense process of the true scenario by far more than
// 1e-10 (at least 1e-6 relative).
func TestEventsChainPower(t *testing.T) {
	ctx := context.Background()
	c := chainCases()[0]
	sys, app := c.system()
	debugDenseEvents = true
	want, err := FixedIntervalEvents(ctx, sys, app, 1800, nil)
	debugDenseEvents = false
	if err != nil {
		t.Fatal(err)
	}
	shifted := sys
	shifted.FailureEvents = &scenario.FailureEvents{Sizes: append([]float64{0}, c.sizes...)}
	dear := app
	rec := make([]float64, c.n)
	for a := range rec {
		rec[a] = 1.1 * app.Recovery.Cost(a+1, a+1)
	}
	dear.Recovery = scenario.RecoveryByNew(rec)
	for name, m := range map[string]struct {
		sys scenario.System
		app scenario.Application
	}{"sizes+1": {shifted, app}, "R×1.1": {sys, dear}} {
		got, err := FixedIntervalEvents(ctx, m.sys, m.app, 1800, nil)
		if err != nil {
			t.Fatal(err)
		}
		if d := relDiff(got.UWT, want.UWT); d < 1e-6 {
			t.Errorf("%s: the wrong model's g* %.15g is within %.2g of the dense %.15g", name, got.UWT, d, want.UWT)
		}
	}
}

// noBound hides the interval bound of a model: scanIntervals then
// evaluates every point, the oracle of the pruned scan.
type noBound struct{ eventsModel }

// chainModel returns the chain of up phases of c with default settings.
func chainModel(t *testing.T, c chainCase) (eventsModel, Settings) {
	t.Helper()
	set, err := (*Settings)(nil).withDefaults()
	if err != nil {
		t.Fatal(err)
	}
	sys, app := c.system()
	m, err := newEventsModel(context.Background(), sys, app, set)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := m.(intervalBounder); !ok {
		t.Fatalf("%s: the model has no interval bound", c.name)
	}
	return m, set
}

// TestIntervalBound: eventsChain.intervalBound is at least g*(I) (to
// 1e-12 relative, the rounding of g*) at intervals from 1 s to 10⁶ s on
// every case of chainCases: it is the bound the scan prunes with.
func TestIntervalBound(t *testing.T) {
	for _, c := range chainCases() {
		m, set := chainModel(t, c)
		for _, interval := range []float64{1, 30, 300, 1200, 3600, 2e4, 1e6} {
			r, err := solveEventsAt(m, set, interval)
			if err != nil {
				t.Fatal(err)
			}
			ub, err := m.(intervalBounder).intervalBound(interval)
			if err != nil {
				t.Fatal(err)
			}
			if !(r.UWT <= ub*(1+1e-12)) {
				t.Errorf("%s I=%v: g* = %.15g above the bound %.15g", c.name, interval, r.UWT, ub)
			}
		}
	}
}

// TestScanPrunedMatchesFull: the interval search with the pruned scan
// gives the bits of the whole scan (g*, I*, the table, the interval
// status), its scan values are those of the whole scan where it
// evaluates, and its largest is the same point; the power check: it
// evaluates fewer than half of the scan's points (the bound prunes).
func TestScanPrunedMatchesFull(t *testing.T) {
	for _, c := range shortChainCases() {
		m, set := chainModel(t, c)
		var evals [2]int
		var fss [2][]float64
		var ks [2]int
		for i, model := range []eventsModel{m, noBound{m}} {
			g := func(u float64) (float64, error) {
				evals[i]++
				r, err := solveEventsAt(m, set, set.intervalOf(u))
				return r.UWT, err
			}
			us := eventsGrid(set)
			var err error
			if fss[i], ks[i], err = scanIntervals(model, g, us, &set); err != nil {
				t.Fatal(err)
			}
		}
		if ks[0] != ks[1] {
			t.Errorf("%s: pruned scan's largest at %d, whole scan's at %d", c.name, ks[0], ks[1])
		}
		for j, f := range fss[0] {
			if !math.IsInf(f, -1) && math.Float64bits(f) != math.Float64bits(fss[1][j]) {
				t.Errorf("%s: point %d: pruned %v, whole %v", c.name, j, f, fss[1][j])
			}
		}
		if n := len(eventsGrid(set)); evals[1] != n || 2*evals[0] >= n {
			t.Errorf("%s: %d evaluations pruned, %d whole: the bound prunes too little", c.name, evals[0], evals[1])
		}
		got, err := searchEvents(m, set)
		if err != nil {
			t.Fatal(err)
		}
		want, err := searchEvents(noBound{m}, set)
		if err != nil {
			t.Fatal(err)
		}
		if math.Float64bits(got.UWT) != math.Float64bits(want.UWT) || got.Interval != want.Interval ||
			got.IntervalStatus != want.IntervalStatus || got.Table.String() != want.Table.String() {
			t.Errorf("%s: pruned %v at %v (%v), whole %v at %v (%v)", c.name, got.UWT, got.Interval, got.IntervalStatus, want.UWT, want.Interval, want.IntervalStatus)
		}
	}
}

// TestEventsChainBandMatchesFull: g*(I) with the rewards of
// SegmentsWindow (a band of spare counts) equals g*(I) with those of
// the whole SegmentsColumn to 1e-12 relative (each reward within about
// 1e-14 of the other plus the rounding of their sums), on a desktop grid
// of 1000 processors whose window of functional counts is narrow enough
// for the band (the rewards of most counts computed take one); the
// tables are equal.
func TestEventsChainBandMatchesFull(t *testing.T) {
	ctx := context.Background()
	c := chainCase{"grid1000", 1000, 8 * 3600, 4 * 3600, []float64{0.6, 0, 0.2, 0.2}, 0.8}
	sys, app := c.system()
	got, err := FixedIntervalEvents(ctx, sys, app, 1800, nil)
	if err != nil {
		t.Fatal(err)
	}
	columnSegments(t)
	want, err := FixedIntervalEvents(ctx, sys, app, 1800, nil)
	if err != nil {
		t.Fatal(err)
	}
	if d := relDiff(got.UWT, want.UWT); d > 1e-12 || got.Table.String() != want.Table.String() {
		t.Errorf("band g* = %.16g, whole %.16g (%.2g); tables equal: %v", got.UWT, want.UWT, d, got.Table.String() == want.Table.String())
	}
}

// TestEventsChainKeptSequences: the interval search with the rewards'
// sequences and the phases kept across intervals (batchchain.SegmentsSeq
// within eventsSeqBudget, the phases within eventsPhaseBudget) gives
// the same bits as with nothing kept (budgets of zero), and equals the
// search with the rewards of SegmentsColumn at each interval (no
// sequence shared: the oracle of the shared form) to 1e-12 relative in
// g*, to the search's tolerance (1e-6 relative) in I*, with the same
// table, on a desktop grid of 128 processors (the grid scan and
// Brent's points reuse the sequences).
func TestEventsChainKeptSequences(t *testing.T) {
	productionSegments(t)
	c := chainCase{"grid128", 128, 8 * 3600, 4 * 3600, []float64{0.6, 0, 0.2, 0.2}, 0.8}
	if testing.Short() {
		c.name, c.n = "grid48", 48
	}
	search := func(keep bool) EventsResult {
		t.Helper()
		m, set := chainModel(t, c)
		if !keep {
			ec := m.(*eventsChain)
			ec.budget, ec.phases = batchchain.NewBudget(0), batchchain.NewBudget(0)
		}
		r, err := searchEvents(m, set)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	got, none := search(true), search(false)
	if math.Float64bits(got.UWT) != math.Float64bits(none.UWT) || math.Float64bits(got.Interval) != math.Float64bits(none.Interval) ||
		got.Table.String() != none.Table.String() {
		t.Errorf("kept: g* = %v at %v; nothing kept: %v at %v; tables equal: %v", got.UWT, got.Interval, none.UWT, none.Interval, got.Table.String() == none.Table.String())
	}
	columnSegments(t)
	want := search(true)
	if d := relDiff(got.UWT, want.UWT); d > 1e-12 || relDiff(got.Interval, want.Interval) > 1e-6 || got.Table.String() != want.Table.String() {
		t.Errorf("kept: g* = %.16g at %.10g; per-interval SegmentsColumn: %.16g at %.10g (%.2g); tables equal: %v",
			got.UWT, got.Interval, want.UWT, want.Interval, d, got.Table.String() == want.Table.String())
	}
}

// segmentsAtProduction is segmentsAt as the package sets it, taken
// before any test runs.
var segmentsAtProduction = reflect.ValueOf(segmentsAt).Pointer()

// productionSegments fails t unless segmentsAt is the package's own (the
// kept sequences): a test that replaced it by the oracle and did not put
// it back would make the comparisons with that oracle compare it with
// itself.
func productionSegments(t *testing.T) {
	t.Helper()
	if reflect.ValueOf(segmentsAt).Pointer() != segmentsAtProduction {
		t.Fatal("segmentsAt is not the package's own: an earlier test left its replacement in place")
	}
}

// columnSegments makes segmentsAt the window of SegmentsColumn at each
// length (the oracle of the band and of the kept sequence) until the end
// of t, when the package's own is put back.
func columnSegments(t *testing.T) {
	prev := segmentsAt
	t.Cleanup(func() { segmentsAt = prev })
	segmentsAt = func(_ context.Context, _ *batchchain.SegmentsSeq, ph *batchchain.Phase, tr, tt float64, s0, s1 int, _ func([]float64) bool) ([]float64, error) {
		y, err := ph.SegmentsColumn(tr, tt)
		if err != nil {
			return nil, err
		}
		return y[s0 : s1+1], nil
	}
}

// TestEventsChainSumSkips: the improvement's counts whose rewards' sum
// stops once its bounds show they cannot win
// (batchchain.SegmentsSeq.AtOrSkip) give the same bits (g*, I*, the
// table) as the same search with every sum run to its end (skip never
// passed), from the chain's own start and from half (every state
// runs about half its functional processors: the improvements then
// change the policy), on
// a desktop grid of 128 processors and on a machine of 96 processors
// whose events are rarer than its repairs. The power checks: some sums
// do stop early on the grid (on the other machine the sums close in
// few terms, batchchain's restClosed, before a skip can take them), and
// from half a skip that takes the sum so far as zero (no bound at all)
// changes the result on the machine of 96 processors (g* 30.6 at 260 s
// instead of 44.5 at 660 s). On the desktop grid it does not, nor does
// a skip at the first point of the ladder: there the counts that win
// have values above the current action's even without their rewards.
// Not in -short mode (CI's run under the race detector): below about
// 100 processors no sum stops early.
func TestEventsChainSumSkips(t *testing.T) {
	productionSegments(t)
	const h, d = 3600.0, 86400.0
	cases := []chainCase{
		{"grid128", 128, 8 * h, 4 * h, []float64{0.6, 0, 0.2, 0.2}, 0.8},
		{"day96", 96, 1 * d, 1 * h, []float64{0.5, 0, 0, 0.125, 0.125, 0.125, 0.125}, 0.95},
	}
	if testing.Short() {
		t.Skip("the searches of 96 and 128 processors take about 25 s under the race detector")
	}
	prev := segmentsAt
	t.Cleanup(func() { segmentsAt = prev })
	var skipped atomic.Int64
	search := func(c chainCase, half bool, mode string) EventsResult {
		t.Helper()
		segmentsAt = func(ctx context.Context, sq *batchchain.SegmentsSeq, ph *batchchain.Phase, tr, tt float64, s0, s1 int, skip func([]float64) bool) ([]float64, error) {
			switch {
			case mode == "never":
				skip = nil
			case mode == "zero" && skip != nil:
				take := skip
				skip = func(ub []float64) bool { return take(make([]float64, len(ub))) }
			}
			y, err := prev(ctx, sq, ph, tr, tt, s0, s1, skip)
			if y == nil && err == nil {
				skipped.Add(1)
			}
			return y, err
		}
		m, set := chainModel(t, c)
		if half {
			m = halfStart{m.(*eventsChain)}
		}
		r, err := searchEvents(m, set)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	for _, c := range cases {
		for _, half := range []bool{false, true} {
			want := search(c, half, "never")
			same := func(r EventsResult) bool {
				return math.Float64bits(r.UWT) == math.Float64bits(want.UWT) && math.Float64bits(r.Interval) == math.Float64bits(want.Interval) &&
					r.Table.String() == want.Table.String()
			}
			skipped.Store(0)
			got := search(c, half, "production")
			if c.name == "grid128" && skipped.Load() == 0 {
				t.Errorf("%s half start %v: no sum stopped early: the power check fails", c.name, half)
			}
			if !same(got) {
				t.Errorf("%s half start %v: with the sums' skips g* = %v at %v; every sum to its end: %v at %v; tables equal: %v",
					c.name, half, got.UWT, got.Interval, want.UWT, want.Interval, got.Table.String() == want.Table.String())
			}
			if half && c.name[:3] == "day" {
				if bad := search(c, half, "zero"); same(bad) {
					t.Errorf("%s: skips taking the sum so far as zero give the same result: the power check fails", c.name)
				}
			}
		}
	}
}

// halfStart is the chain of up phases started from the largest count of
// positive work rate at most n/2 in every state X(n) (waiting below 2).
type halfStart struct{ *eventsChain }

func (hs halfStart) start() ([]int, error) {
	act := make([]int, hs.states())
	for x := range act {
		act[x] = allowedCount(hs.app.WorkRate, (hs.lo+x)/2)
	}
	return act, nil
}

// TestEventsChainHitRate: eventsChain.hitRate(a, n), the start's
// interruption rate, equals the rate of the interrupting events from the
// spare count n − a of package batchchain's up phase on a (B·1 by
// Phase.HitSum, its rates tabulated by another algorithm) to 1e-13
// relative, on chainCases and every a ≤ n for n in {1, N/2, N}; aλ with
// single failures. The power check: the rates of the law of sizes
// shifted by one processor differ by more than 1e-3 somewhere.
func TestEventsChainHitRate(t *testing.T) {
	for _, c := range chainCases() {
		m, _ := chainModel(t, c)
		ec := m.(*eventsChain)
		shifted := &eventsChain{law: append([]float64{0}, ec.law...), rate: ec.rate}
		rejected := false
		for _, n := range []int{1, c.n / 2, c.n} {
			for a := 1; a <= n; a++ {
				ph, err := ec.phase(a)
				if err != nil {
					t.Fatal(err)
				}
				all := make([]float64, c.n+1)
				for i := range all {
					all[i] = 1
				}
				want := ph.HitSum(all, 0)[n-a]
				if got := ec.hitRate(a, n); !(math.Abs(got-want) <= 1e-13*want) {
					t.Errorf("%s a=%d n=%d: hitRate %.17g, batchchain %.17g", c.name, a, n, got, want)
				}
				if bad := shifted.hitRate(a, n); math.Abs(bad-want) > 1e-3*want {
					rejected = true
				}
				if len(ec.law) == 1 {
					if single := float64(a) * ec.lambda; math.Abs(want-single) > 1e-13*single {
						t.Errorf("%s a=%d n=%d: rate %.17g with single failures, aλ = %.17g", c.name, a, n, want, single)
					}
				}
			}
		}
		if len(ec.law) > 1 && !rejected {
			t.Errorf("%s: the shifted law's rates pass: the power check fails", c.name)
		}
	}
}

// TestEventsSearchBounds: the interval search with failure events keeps
// within Settings.MinInterval and MaxInterval (as every search of the
// package does): bounds that exclude the optimum of the default range
// give I* at the bound, flagged AtMin or AtMax, and g* at most the
// default's; the default scan covers 1 s to DefaultMaxInterval (it
// used to stop at 10⁷ s whatever the settings).
func TestEventsSearchBounds(t *testing.T) {
	ctx := context.Background()
	c, sys, app, free := defaultEventsSearch(t)
	for _, k := range []struct {
		set    Settings
		want   float64
		status uwt.Status
	}{
		{Settings{MaxInterval: free.Interval / 3}, free.Interval / 3, uwt.AtMax},
		{Settings{MinInterval: free.Interval * 3}, free.Interval * 3, uwt.AtMin},
	} {
		r, err := SingleIntervalEvents(ctx, sys, app, &k.set)
		if err != nil {
			t.Fatal(err)
		}
		if r.Interval != k.want || r.IntervalStatus != k.status || !(r.UWT <= free.UWT) {
			t.Errorf("%s, %+v: I* = %.17g (%v), g* %v; want %.17g (%v), g* ≤ %v", c.name, k.set, r.Interval, r.IntervalStatus, r.UWT, k.want, k.status, free.UWT)
		}
	}
	set, err := (*Settings)(nil).withDefaults()
	if err != nil {
		t.Fatal(err)
	}
	if us := eventsGrid(set); us[0] != 0 || us[len(us)-1] != math.Log(DefaultMaxInterval) {
		t.Errorf("default scan from e^%g to e^%g s", us[0], us[len(us)-1])
	}
}

// TestEventsSearchInteriorNearBound: when the scan's largest point is an
// end of the grid, I* may still be inside [MinInterval, MaxInterval],
// between that end and its neighbour (a range narrower than one step of
// the scan, or an optimum just inside a bound). The search must then
// find it as it does over the default range (oracle: the default search,
// whose optimum I*₀ lies inside every range below): g* within 1e-9 of
// g*₀ (both to Brent's 1e-6 on log I, where g is flat: the differences
// are of order 1e-12) and log I* within 1e-4 of log I*₀, status
// Converged. Power: the end of the range, which a search that stops at
// the scan's end returns, is at least 4 % from I*₀ in every case, and
// g* there is below g*₀ by more than the tolerance (checked).
func TestEventsSearchInteriorNearBound(t *testing.T) {
	ctx := context.Background()
	c, sys, app, free := defaultEventsSearch(t)
	const gTol, xTol = 1e-9, 1e-4
	is := free.Interval
	for _, set := range []Settings{
		{MinInterval: is / 1.1, MaxInterval: is * 1.1},   // narrower than one step
		{MinInterval: is / 1.2, MaxInterval: is * 1.05},  // narrower, off centre
		{MinInterval: is / 1.05, MaxInterval: is * 100},  // I* just above the first point
		{MinInterval: is / 100, MaxInterval: is * 1.04},  // I* just below the last point
		{MinInterval: is / 1.04, MaxInterval: is * 1.04}, // both ends close
	} {
		r, err := SingleIntervalEvents(ctx, sys, app, &set)
		if err != nil {
			t.Fatal(err)
		}
		if r.IntervalStatus != uwt.Converged || !(r.UWT >= free.UWT*(1-gTol)) || math.Abs(math.Log(r.Interval/is)) > xTol {
			t.Errorf("%s, [%.6g, %.6g]: I* = %.10g (%v), g* %.15g; want I* = %.10g (Converged), g* %.15g", c.name, set.MinInterval, set.MaxInterval, r.Interval, r.IntervalStatus, r.UWT, is, free.UWT)
		}
		// Power: either end of the range is a wrong answer.
		for _, end := range []float64{set.MinInterval, set.MaxInterval} {
			fr, err := FixedIntervalEvents(ctx, sys, app, end, &set)
			if err != nil {
				t.Fatal(err)
			}
			if fr.UWT >= free.UWT*(1-gTol) {
				t.Errorf("%s: g*(%g) = %.15g within the tolerance of g*₀ = %.15g: the case cannot tell an end from I*", c.name, end, fr.UWT, free.UWT)
			}
		}
	}
}

// defaultEventsSearch returns the first case of shortChainCases, its
// system and application, and the interval search over the default range
// (Converged: its I* is inside the range), the oracle of the tests that
// narrow the range.
func defaultEventsSearch(t *testing.T) (chainCase, scenario.System, scenario.Application, EventsResult) {
	t.Helper()
	c := shortChainCases()[0]
	sys, app := c.system()
	free, err := SingleIntervalEvents(context.Background(), sys, app, nil)
	if err != nil {
		t.Fatal(err)
	}
	if free.IntervalStatus != uwt.Converged {
		t.Fatalf("%s: default search %v at %g s", c.name, free.IntervalStatus, free.Interval)
	}
	return c, sys, app, free
}
