package uwt

import (
	"context"
	"maps"
	"math"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/ckpt-markov/markov/expm"
	"github.com/ckpt-markov/markov/internal/testmodel"
	"github.com/ckpt-markov/markov/scenario"
	"github.com/ckpt-markov/markov/sim"
)

// TestBatchPathSingleSize runs the batch code path (package batchchain's
// rows, the down rows by event, the window from the stationary law of the
// functional count) with sizes [1] on the table scenarios, on both paths,
// and holds it against the single-failure path (binomial closed form):
// UWT and availability agree to 1e-12 relative (issue 13, "Done when").
// The scenario field itself with sizes [1] takes the single-failure path,
// bit for bit (TestBatchSizeOneIsBitForBit).
func TestBatchPathSingleSize(t *testing.T) {
	scs := testScenarios(t)
	for _, name := range slices.Sorted(maps.Keys(scs)) {
		sc := scs[name]
		for _, exact := range []bool{true, false} {
			for _, interval := range []float64{1800, 3 * 3600} {
				set := &Settings{Exact: exact}
				want := evaluate(t, sc, set, interval)
				forceBatch = true
				got := evaluate(t, sc, set, interval)
				forceBatch = false
				for _, v := range []struct {
					what      string
					got, want float64
				}{{"UWT", got.UWT, want.UWT}, {"availability", got.Availability, want.Availability}} {
					if math.Abs(v.got-v.want) > 1e-12*v.want {
						t.Errorf("%s exact=%v I=%v: batch path %s %.15g, closed form %.15g (rel %.2g)",
							name, exact, interval, v.what, v.got, v.want, math.Abs(v.got-v.want)/v.want)
					}
				}
			}
		}
	}
}

// TestBatchSizeOneIsBitForBit: a scenario with failure_events sizes [1]
// (or [1, 0, …]) gives exactly today's UWT.
func TestBatchSizeOneIsBitForBit(t *testing.T) {
	sc := testScenarios(t)["greedy flaky C<L"]
	with := *sc
	with.System.FailureEvents = &scenario.FailureEvents{Sizes: []float64{1, 0, 0}}
	for _, exact := range []bool{true, false} {
		a := evaluate(t, sc, &Settings{Exact: exact}, 1800)
		b := evaluate(t, &with, &Settings{Exact: exact}, 1800)
		if a.UWT != b.UWT || a.Availability != b.Availability {
			t.Errorf("exact=%v: sizes [1, 0, 0] gives UWT %v, without events %v", exact, b.UWT, a.UWT)
		}
	}
}

// batchScenarios are scenarios with failure events of sizes 2–8, N ≤ 64.
func batchScenarios(t testing.TB) map[string]*scenario.Scenario {
	t.Helper()
	sys := func(n int, mttf, mttr float64, sizes ...float64) scenario.System {
		return scenario.System{Processors: n, MTTF: mttf, MTTR: mttr, FailureEvents: &scenario.FailureEvents{Sizes: sizes}}
	}
	out := map[string]*scenario.Scenario{}
	out["greedy N=8 pairs"] = mustScenario(t, sys(8, 10*3600, 3600, 0, 1), constApp(8, 1, 120, 120, 60), scenario.Policy{})
	out["greedy N=16 half in 4s"] = mustScenario(t, sys(16, 8*3600, 2*3600, 0.5, 0, 0, 0.5), constApp(16, 1, 90, 60, 30), scenario.Policy{})
	out["moldable N=24 sizes 2-6"] = mustScenario(t, sys(24, 12*3600, 4*3600, 0.4, 0.2, 0.1, 0.1, 0.1, 0.1), constApp(24, 1, 60, 60, 60),
		scenario.Policy{Kind: scenario.Moldable, Processors: 12})
	app := testmodel.QRLike(32)
	out["pb N=32 sizes 1-8"] = mustScenario(t, sys(32, 24*3600, 3600, 0.3, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1), app, scenario.Policy{Kind: scenario.PerformanceBased})
	rec := constApp(12, 1, 90, 60, 0)
	m := make([][]float64, 12)
	for p := range 12 {
		m[p] = make([]float64, 12)
		for a := range 12 {
			m[p][a] = 10 + 5*math.Abs(float64(p-a))
		}
	}
	rec.Recovery = scenario.RecoveryMatrix(m)
	out["greedy N=12 recovery matrix, triples"] = mustScenario(t, sys(12, 6*3600, 3600, 0.5, 0, 0.5), rec, scenario.Policy{})
	out["explicit N=16 waits, sizes 2-8"] = mustScenario(t, sys(16, 8*3600, 4*3600, 0, 0.2, 0, 0.3, 0, 0.2, 0, 0.3), constApp(16, 1, 60, 60, 45),
		scenario.Policy{Kind: scenario.Explicit, Explicit: []int{0, 0, 0, 4, 4, 4, 4, 8, 8, 8, 8, 8, 12, 12, 12, 12}})
	out["greedy N=64 sizes 1-8"] = mustScenario(t, sys(64, 2*86400, 3600, 0.5, 0, 0, 0.125, 0.125, 0.125, 0, 0.125), testmodel.QRLike(64), scenario.Policy{})
	return out
}

// TestBatchFastMatchesExact: the fast path (windowed uniformization rows,
// a window of functional counts) agrees with the exact path (dense Van
// Loan exponentials of package expm, every state) to 1e-9 relative, the
// agreement TestFastMatchesExact requires of single failures.
func TestBatchFastMatchesExact(t *testing.T) {
	skipNumericsUnderRace(t)
	scs := batchScenarios(t)
	for _, name := range slices.Sorted(maps.Keys(scs)) {
		for _, interval := range []float64{600, 3600} {
			exact := evaluate(t, scs[name], &Settings{Exact: true}, interval)
			fast := evaluate(t, scs[name], nil, interval)
			if math.Abs(fast.UWT-exact.UWT) > 1e-9*exact.UWT {
				t.Errorf("%s I=%v: fast %.12g, exact %.12g (rel %.2g)", name, interval, fast.UWT, exact.UWT, math.Abs(fast.UWT-exact.UWT)/exact.UWT)
			}
		}
	}
}

// TestBatchMatchesSimulation: the model with failure events against the
// Monte Carlo simulator run on the same batch process (sim.Batch), 99 %
// intervals of half-width under 0.5 % of UWT, on the seven batch scenarios
// at two intervals (N ≤ 64, sizes 2–8; issue 13, "Done when"). With 14
// checks at 99 %, a miss by chance is not rare (13 % of seed sequences),
// and the simulator's sequentially stopped intervals cover slightly less
// than nominal (measured on two of these scenarios and their
// single-failure twins at I = 1800 s: 3 misses in 160 runs, variance of
// the standardised error 0.8–1.5, mean −0.2 to 0.2). So the test fails if
// more than two checks miss their 99 % interval (probability 4e-4 at
// nominal coverage), if any check is outside its 99.99 % interval (same
// replications, Student-t quantile scaled), or if fewer than four
// scenarios agree at 99 % at both intervals. Power: the single-failure
// model of the same scenario (same MTTF, no events) must fall outside the
// 99 % interval on most checks. The seeds are 101, 102, ... in name order,
// not chosen; with them one check misses its 99 % interval (explicit N=16,
// I = 1800 s, 3.6 standard errors; at RelTol 6e-4 with other seeds the
// model is within 0.7 standard errors).
func TestBatchMatchesSimulation(t *testing.T) {
	if testing.Short() {
		t.Skip("simulation cross-check skipped in -short mode")
	}
	scs := batchScenarios(t)
	names := slices.Sorted(maps.Keys(scs))
	seed := uint64(100)
	var distinguished, checks, misses, agreeing int
	for _, name := range names {
		sc := scs[name]
		ok := true
		for _, interval := range []float64{1800, 3 * 3600} {
			model := evaluate(t, sc, nil, interval)
			seed++
			res, err := sim.Run(context.Background(), sc, interval, &sim.Settings{Seed: seed, RelTol: 0.005, Confidence: 0.99})
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if res.UWT.HalfWidth > 0.005*res.UWT.Mean {
				t.Errorf("%s, I=%v: half-width %v over 0.5 %% of %v (%v)", name, interval, res.UWT.HalfWidth, res.UWT.Mean, res.Status)
			}
			df := float64(res.Replications - 1)
			st := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: df}
			wide := res.UWT.HalfWidth * st.Quantile(0.99995) / st.Quantile(0.995)
			checks++
			if !res.UWT.Contains(model.UWT) {
				misses++
				ok = false
			}
			if math.Abs(model.UWT-res.UWT.Mean) > wide {
				t.Errorf("%s, I=%v: model UWT %.6g outside even the simulation's 99.99 %% interval %.6g ± %.3g",
					name, interval, model.UWT, res.UWT.Mean, wide)
			}
			single := *sc
			single.System.FailureEvents = nil
			alt := evaluate(t, &single, nil, interval)
			if !res.UWT.Contains(alt.UWT) {
				distinguished++
			}
			t.Logf("%s I=%v: model %.6g, sim %.6g ± %.2g (99 %%), single-failure model %.6g", name, interval, model.UWT, res.UWT.Mean, res.UWT.HalfWidth, alt.UWT)
		}
		if ok {
			agreeing++
		}
	}
	if misses > 2 {
		t.Errorf("%d of %d checks outside the 99 %% interval", misses, checks)
	}
	if agreeing < 4 {
		t.Errorf("only %d scenarios agree at 99 %% at both intervals, want at least 4", agreeing)
	}
	if distinguished < checks/2 {
		t.Errorf("the single-failure model fell outside the interval on only %d of %d checks: the test cannot tell batches apart", distinguished, checks)
	}
}

// handBatch is the chain of docs/model.md, sections 4 and 11, for a small
// N with failure events, built literally: the rates of the segment
// generator by enumerating every subset of the functional processors an
// event can take down (not by the hypergeometric formula), P_T, Q_T and τ
// from expm (Exp and Van Loan's Integral), the states reachable from the
// start, a dense LU solve.
type handBatch struct {
	t        *testing.T
	sc       *scenario.Scenario
	n        int
	lam, th  float64
	sizes    []float64 // normalised
	interval float64
}

// eventRate is λ/E[K].
func (h *handBatch) eventRate() float64 {
	var mean float64
	for k, p := range h.sizes {
		mean += float64(k+1) * p
	}
	return h.lam / mean
}

// taken returns, for f functional processors of which the first a are
// used, the rate of events that take down exactly the subset mask (of
// size min(K, f)): f·λe·P(min(K, f) = |mask|)/C(f, |mask|), each subset
// equally likely.
func (h *handBatch) subsets(f int, fn func(mask, size int, rate float64)) {
	le := h.eventRate()
	for mask := 1; mask < 1<<f; mask++ {
		size := bits(mask)
		var p float64
		for k, q := range h.sizes {
			if min(k+1, f) == size {
				p += q
			}
		}
		if p == 0 {
			continue
		}
		fn(mask, size, float64(f)*le*p/binom(f, size))
	}
}

func bits(x int) int {
	c := 0
	for ; x > 0; x &= x - 1 {
		c++
	}
	return c
}

func binom(n, k int) float64 {
	r := 1.0
	for i := range k {
		r = r * float64(n-i) / float64(i+1)
	}
	return r
}

// segment returns P_T, Q_T (columns n' = 0..N−1) and τ for a used.
func (h *handBatch) segment(a int, tt float64) (p, q *mat.Dense, tau []float64) {
	m := h.n - a
	ga := mat.NewDense(m+1, m+1, nil)
	gb := mat.NewDense(m+1, h.n+1, nil) // last column: 1, for τ
	for j := 0; j <= m; j++ {
		f := a + j
		// Processors 0..a−1 are used, a..f−1 the functional spares.
		h.subsets(f, func(mask, size int, rate float64) {
			if mask&(1<<a-1) != 0 {
				gb.Set(j, f-size, gb.At(j, f-size)+rate)
			} else {
				ga.Set(j, j-size, ga.At(j, j-size)+rate)
			}
			ga.Set(j, j, ga.At(j, j)-rate)
		})
		if j < m {
			ga.Set(j, j+1, float64(m-j)*h.th)
			ga.Set(j, j, ga.At(j, j)-float64(m-j)*h.th)
		}
		gb.Set(j, h.n, 1)
	}
	gt := mat.NewDense(m+1, m+1, nil)
	gt.Scale(tt, ga)
	p = &mat.Dense{}
	if err := expm.Exp(p, gt, nil); err != nil {
		h.t.Fatal(err)
	}
	var integral mat.Dense
	if err := expm.Integral(&integral, ga, gb, tt, 0, nil); err != nil {
		h.t.Fatal(err)
	}
	q = mat.DenseCopyOf(integral.Slice(0, m+1, 0, h.n))
	for j := 0; j <= m; j++ {
		tau = append(tau, integral.At(j, h.n))
	}
	return p, q, tau
}

func (h *handBatch) r(k int) int {
	if k <= 0 {
		return 0
	}
	return h.sc.Reschedule.At(k)
}

func (h *handBatch) afterFail(p, k int) handState {
	if h.r(k) > 0 {
		return handState{kind: 'R', p: p, n: k}
	}
	return handState{kind: 'D', p: p, n: k}
}

func (h *handBatch) out(st handState) (arcs []handArc, tau, work float64) {
	app := h.sc.Application
	if st.kind == 'D' {
		le := h.eventRate()
		rep := float64(h.n-st.n) * h.th
		total := float64(st.n)*le + rep
		if st.n > 0 {
			h.subsets(st.n, func(_, size int, rate float64) {
				arcs = append(arcs, handArc{h.afterFail(st.p, st.n-size), rate / total})
			})
		}
		if rep > 0 {
			arcs = append(arcs, handArc{h.afterFail(st.p, st.n+1), rep / total})
		}
		return arcs, 1 / total, 0
	}
	a, s, p, tt := st.a, st.s, st.a, h.interval+app.Latency[max(st.a, 1)-1]
	if st.kind == 'R' {
		a, p = h.r(st.n), st.p
		s, tt = st.n-a, app.Recovery.Cost(p, a)+app.Latency[a-1]
	}
	pt, qt, taus := h.segment(a, tt)
	var surv float64
	for s2 := 0; s2 <= h.n-a; s2++ {
		arcs = append(arcs, handArc{handState{kind: 'U', a: a, s: s2}, pt.At(s, s2)})
		surv += pt.At(s, s2)
	}
	for k := 0; k < h.n; k++ {
		arcs = append(arcs, handArc{h.afterFail(p, k), qt.At(s, k)})
	}
	if st.kind == 'U' {
		work = surv * app.WorkRate[a-1] * (h.interval + app.Latency[a-1] - app.Overhead[a-1])
	}
	return arcs, taus[s], work
}

// handBatchUWT builds the chain from its start, solves it by dense LU and
// returns UWT = Σπw / Σπτ.
func handBatchUWT(t *testing.T, sc *scenario.Scenario, interval float64) float64 {
	t.Helper()
	h := &handBatch{t: t, sc: sc, n: sc.N(), lam: sc.System.Lambda(), th: sc.System.Theta(),
		sizes: sc.System.FailureEvents.Law(), interval: interval}
	start := handState{kind: 'U', a: h.r(h.n), s: h.n - h.r(h.n)}
	if h.r(h.n) == 0 {
		start = handState{kind: 'D', p: h.n, n: h.n}
	}
	return handUWT(t, start, h.out)
}

// TestBatchRowOracle compares UWT with failure events against the
// hand-built chain for N = 3 (and 4) with batches of 2 (and 3): greedy,
// moldable, waiting vectors and a recovery cost depending on the old
// count, on the exact and the fast path, to 1e-12 (issue 13, "Done
// when"; the tolerance as in TestRowOracle).
func TestBatchRowOracle(t *testing.T) {
	app := func(n int, byOld bool) scenario.Application {
		w := []float64{1, 1.8, 2.4, 2.9}[:n]
		l := []float64{100, 80, 70, 65}[:n]
		c := []float64{50, 80, 30, 40}[:n]
		rec := scenario.RecoveryByNew([]float64{40, 60, 90, 100}[:n])
		if byOld {
			m := make([][]float64, n)
			for p := range n {
				m[p] = make([]float64, n)
				for a := range n {
					m[p][a] = 30 + 25*float64(p) + 10*float64(a) + 15*math.Abs(float64(p-a))
				}
			}
			rec = scenario.RecoveryMatrix(m)
		}
		return scenario.Application{WorkRate: w, Latency: l, Overhead: c, Recovery: rec}
	}
	for _, tc := range []struct {
		name  string
		n     int
		sizes []float64
		pol   scenario.Policy
		byOld bool
	}{
		{"N=3 greedy, pairs", 3, []float64{0, 1}, scenario.Policy{Kind: scenario.Greedy}, false},
		{"N=3 greedy, half pairs, R(p,a)", 3, []float64{0.5, 0.5}, scenario.Policy{Kind: scenario.Greedy}, true},
		{"N=3 moldable(2), half pairs", 3, []float64{0.5, 0.5}, scenario.Policy{Kind: scenario.Moldable, Processors: 2}, false},
		{"N=3 wait at 2, pairs", 3, []float64{0, 1}, scenario.Policy{Kind: scenario.Explicit, Explicit: []int{1, 0, 3}}, true},
		{"N=3 wait at N, 1-3", 3, []float64{0.5, 0.25, 0.25}, scenario.Policy{Kind: scenario.Explicit, Explicit: []int{1, 2, 0}}, false},
		{"N=4 moldable(2), 1-3", 4, []float64{0.2, 0.5, 0.3}, scenario.Policy{Kind: scenario.Moldable, Processors: 2}, false},
		{"N=4 greedy, triples", 4, []float64{0, 0, 1}, scenario.Policy{Kind: scenario.Greedy}, true},
		{"N=3 greedy, every event takes all", 3, []float64{0, 0, 1}, scenario.Policy{Kind: scenario.Greedy}, false},
		// Recurrent down states: D(1), D(2) wait for a repair, and events
		// move them down by one or two.
		{"N=3 wait below 3, half pairs", 3, []float64{0.5, 0.5}, scenario.Policy{Kind: scenario.Explicit, Explicit: []int{0, 0, 3}}, false},
		{"N=4 wait below 3, 1-3", 4, []float64{0.5, 0.3, 0.2}, scenario.Policy{Kind: scenario.Explicit, Explicit: []int{0, 0, 2, 4}}, true},
	} {
		sys := scenario.System{Processors: tc.n, MTTF: 5000, MTTR: 1500, FailureEvents: &scenario.FailureEvents{Sizes: tc.sizes}}
		sc := mustScenario(t, sys, app(tc.n, tc.byOld), tc.pol)
		for _, interval := range []float64{300, 2000, 20000} {
			want := handBatchUWT(t, sc, interval)
			for _, set := range []*Settings{{Exact: true}, nil, {Exact: true, Prune: -1}, {Prune: -1}} {
				got := evaluate(t, sc, set, interval).UWT
				if d := math.Abs(got-want) / want; d > 1e-12 {
					t.Errorf("%s, I = %v, %s: UWT %.16g, hand-built chain %.16g (rel %.2g)", tc.name, interval, settingsName(set), got, want, d)
				}
			}
		}
	}
}

// TestBatchWorkersIdentical: with failure events too, the result does
// not depend on the number of workers (every batch of rows goes to the
// pool).
func TestBatchWorkersIdentical(t *testing.T) {
	defer func(c int) { inlineCost = c }(inlineCost)
	inlineCost = 0
	scs := batchScenarios(t)
	for _, name := range slices.Sorted(maps.Keys(scs)) {
		for _, exact := range []bool{true, false} {
			one := evaluate(t, scs[name], &Settings{Exact: exact, Workers: 1}, 2000)
			many := evaluate(t, scs[name], &Settings{Exact: exact, Workers: 7}, 2000)
			if one.UWT != many.UWT || one.Availability != many.Availability {
				t.Errorf("%s exact=%v: 1 worker %v, 7 workers %v", name, exact, one.UWT, many.UWT)
			}
		}
	}
}
