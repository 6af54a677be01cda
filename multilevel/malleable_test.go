package multilevel

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/ckpt-markov/markov/scenario"
	"github.com/ckpt-markov/markov/uwt"
)

// twoLevel returns a two-level scenario of n processors under pol:
// ω(a) = a^0.9; level 1 (node-local) L = 20 + a/4, C = 15, R = 25;
// level 2 (file system) L = 200 + 5a, C = 0.75 L, R = 300 + 2a; the
// severity shares sev.
func twoLevel(t testing.TB, n int, mttf, mttr float64, sev []float64, pol scenario.Policy) *scenario.Scenario {
	t.Helper()
	var work, l1, c1, l2, c2, r2 []float64
	for k := 1; k <= n; k++ {
		a := float64(k)
		work = append(work, math.Pow(a, 0.9))
		l1, c1 = append(l1, 20+a/4), append(c1, 15)
		l2, c2 = append(l2, 200+5*a), append(c2, 0.75*(200+5*a))
		r2 = append(r2, 300+2*a)
	}
	app := scenario.Application{WorkRate: work, Levels: []scenario.Level{
		{Latency: l1, Overhead: c1, Recovery: scenario.RecoveryConstant(25, n)},
		{Latency: l2, Overhead: c2, Recovery: scenario.RecoveryByNew(r2)},
	}}
	sc, err := scenario.New(scenario.System{Processors: n, MTTF: mttf, MTTR: mttr,
		FailureSeverity: &scenario.FailureSeverity{Shares: sev}}, app, pol)
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// topOnly returns the single-level scenario of sc's highest level.
func topOnly(t *testing.T, sc *scenario.Scenario) *scenario.Scenario {
	t.Helper()
	top := sc.Application.Levels[len(sc.Application.Levels)-1]
	app := scenario.Application{WorkRate: sc.Application.WorkRate, Latency: top.Latency, Overhead: top.Overhead, Recovery: top.Recovery}
	one, err := scenario.New(scenario.System{Processors: sc.N(), MTTF: sc.System.MTTF, MTTR: sc.System.MTTR}, app, sc.Policy)
	if err != nil {
		t.Fatal(err)
	}
	return one
}

// fixedAndMalleable returns the fixed-count model of sc (New), which it
// checks is not the malleable one, and its malleable model (newMalleable,
// to Tol 1e-15 without pruning): the two paths the fixed-count tests hold
// against each other.
func fixedAndMalleable(t *testing.T, ctx context.Context, sc *scenario.Scenario) (*Model, *malleable) {
	t.Helper()
	fixed, err := New(sc)
	if err != nil {
		t.Fatal(err)
	}
	if fixed.Malleable() {
		t.Fatalf("%v: New gave the malleable model", sc.Policy)
	}
	mm, err := newMalleable(ctx, sc, &Settings{Tol: 1e-15, Prune: -1})
	if err != nil {
		t.Fatal(err)
	}
	return fixed, mm
}

// mallPolicies are the policies of the malleable and reconfiguration
// tests: each changes the count at some checkpoints of an 8-processor
// pool.
var mallPolicies = []scenario.Policy{
	{Kind: scenario.Greedy},
	{Kind: scenario.PerformanceBased},
	{Kind: scenario.Explicit, Explicit: []int{1, 2, 2, 4, 4, 4, 6, 6}},
}

// TestMalleableTopSeverity: with every failure of the top severity
// (failure_severity = [0, 1]) and V = 0 the level-1 checkpoints are never
// written and never needed: the model is today's single-level model of
// the top level, package uwt's, to 1e-12 against the same chain (uwt's
// fast path: the rewards are checked, the chain is the same) and to
// 1e-9 against uwt's exact chain of segments (an independent algorithm:
// every up segment a state, dense rows; 1e-9 is uwt's own fast-versus-
// exact agreement, TestFastMatchesExact).
func TestMalleableTopSeverity(t *testing.T) {
	ctx := context.Background()
	for _, pol := range mallPolicies {
		for _, mttf := range []float64{3e4, 2e5} {
			sc := twoLevel(t, 8, mttf, 5000, []float64{0, 1}, pol)
			m, err := NewWith(ctx, sc, &Settings{Prune: -1})
			if err != nil {
				t.Fatal(err)
			}
			if !m.Malleable() {
				t.Fatalf("%v: not the malleable model", pol)
			}
			one := topOnly(t, sc)
			fast, err := uwt.New(ctx, one, &uwt.Settings{Prune: -1})
			if err != nil {
				t.Fatal(err)
			}
			exact, err := uwt.New(ctx, one, &uwt.Settings{Exact: true, Prune: -1})
			if err != nil {
				t.Fatal(err)
			}
			for _, I := range []float64{120, 900, 3600, 20000} {
				got, err := m.Evaluate([]int{0}, I)
				if err != nil {
					t.Fatal(err)
				}
				f, err := fast.Evaluate(ctx, I)
				if err != nil {
					t.Fatal(err)
				}
				e, err := exact.Evaluate(ctx, I)
				if err != nil {
					t.Fatal(err)
				}
				if d := math.Abs(got.UWT-f.UWT) / f.UWT; d > 1e-12 {
					t.Errorf("%v MTTF %g I=%g: UWT %.15g, uwt fast %.15g (relative %.2g)", pol, mttf, I, got.UWT, f.UWT, d)
				}
				if d := math.Abs(got.Availability - f.Availability); d > 1e-12 {
					t.Errorf("%v MTTF %g I=%g: availability %.15g, uwt fast %.15g", pol, mttf, I, got.Availability, f.Availability)
				}
				if d := math.Abs(got.UWT-e.UWT) / e.UWT; d > 1e-9 {
					t.Errorf("%v MTTF %g I=%g: UWT %.15g, uwt exact %.15g (relative %.2g)", pol, mttf, I, got.UWT, e.UWT, d)
				}
			}
		}
	}
}

// TestMalleableFixedCount: on a fixed count (moldable, with spares and
// down periods) the chain of up phases gives the UWT of the fixed-count
// model (the nested period with the down-time factor of the spare
// chain's stationary law: an independent derivation), to 1e-10 relative
// (the chain's solve and its window, Tol 1e-15), for several severity
// shares, patterns and intervals.
func TestMalleableFixedCount(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		n, a int
		mttf float64
		sev  []float64
	}{
		{6, 4, 2e4, []float64{0.7, 0.3}},
		{8, 5, 5e4, []float64{0.9, 0.1}},
		{5, 5, 1e4, []float64{0.5, 0.5}},
		{10, 3, 3e3, []float64{0.2, 0.8}},
	} {
		sc := twoLevel(t, tc.n, tc.mttf, 4000, tc.sev, scenario.Policy{Kind: scenario.Moldable, Processors: tc.a})
		fixed, mm := fixedAndMalleable(t, ctx, sc)
		for _, v := range []int{0, 1, 4, 30} {
			for _, I := range []float64{60, 600, 3000} {
				want, err := fixed.Evaluate([]int{v}, I)
				if err != nil {
					t.Fatal(err)
				}
				got, avail, eff, down, err := mm.evaluate([]int{v}, I)
				if err != nil {
					t.Fatal(err)
				}
				matchFixed(t, fmt.Sprintf("N=%d a=%d f=%v V=%d I=%g", tc.n, tc.a, tc.sev, v, I), got, avail, eff, down, want, 1e-10)
			}
		}
	}
}

// TestMalleableThreeLevelsFixedCount: with three levels and every
// processor failure of the top severity (f₂ = 0: level 2 serves only the
// crashes a failed level-1 recovery escalates), the chain of up phases
// gives the fixed-count model's UWT to 1e-10 on a moldable count, for
// several patterns.
func TestMalleableThreeLevelsFixedCount(t *testing.T) {
	ctx := context.Background()
	sc := twoLevel(t, 6, 1.5e4, 4000, []float64{0.7, 0.3}, scenario.Policy{Kind: scenario.Moldable, Processors: 4})
	lv := sc.Application.Levels
	mid := scenario.Level{Latency: constant(60, 6), Overhead: constant(40, 6), Recovery: scenario.RecoveryConstant(80, 6)}
	sc.Application.Levels = []scenario.Level{lv[0], mid, lv[1]}
	sc.System.FailureSeverity = &scenario.FailureSeverity{Shares: []float64{0.7, 0, 0.3}}
	if err := sc.Validate(); err != nil {
		t.Fatal(err)
	}
	fixed, mm := fixedAndMalleable(t, ctx, sc)
	for _, v := range [][]int{{0, 0}, {2, 1}, {5, 3}} {
		for _, I := range []float64{100, 900} {
			want, err := fixed.Evaluate(v, I)
			if err != nil {
				t.Fatal(err)
			}
			got, _, _, _, _ := mm.evaluate(v, I)
			if d := math.Abs(got-want.UWT) / want.UWT; d > 1e-10 {
				t.Errorf("V=%v I=%g: UWT %.15g, fixed-count model %.15g (relative %.2g)", v, I, got, want.UWT, d)
			}
		}
	}
}

// TestMalleableRefused: what the malleable model does not cover is
// refused with an error naming the field.
func TestMalleableRefused(t *testing.T) {
	greedy := scenario.Policy{}
	four := func() *scenario.Scenario {
		sc := twoLevel(t, 4, 1e5, 3600, []float64{0.5, 0.5}, greedy)
		lv := sc.Application.Levels
		sc.Application.Levels = append(lv, lv[1], lv[1])
		sc.System.FailureSeverity = &scenario.FailureSeverity{Shares: []float64{0.5, 0.2, 0.1, 0.2}}
		return sc
	}
	threeByOld := func() *scenario.Scenario {
		sc := twoLevel(t, 4, 1e5, 3600, []float64{0.5, 0.5}, greedy)
		lv := sc.Application.Levels
		mid := lv[1]
		mid.Recovery = scenario.RecoveryLinear(100, 1, 0, 4)
		sc.Application.Levels = []scenario.Level{lv[0], mid, lv[1]}
		sc.System.FailureSeverity = &scenario.FailureSeverity{Shares: []float64{0, 0.5, 0.5}}
		return sc
	}
	for _, tc := range []struct {
		name  string
		sc    func() *scenario.Scenario
		field string
	}{
		{"four levels, severity-2 processor failures", four, "application.checkpoint_levels"},
		{"three levels, severity-2 processor failures, a recovery by old count", threeByOld, "application.checkpoint_levels"},
		{"no checkpoint after recovery", func() *scenario.Scenario {
			sc := twoLevel(t, 4, 1e5, 3600, []float64{0.5, 0.5}, greedy)
			sc.Application.NoCheckpointAfterRecovery = true
			return sc
		}, "application.checkpoint_after_recovery"},
		{"recovery by old count with crashes", func() *scenario.Scenario {
			sc := twoLevel(t, 4, 1e5, 3600, []float64{0.5, 0.5}, greedy)
			sc.Application.Levels[1].Recovery = scenario.RecoveryLinear(100, 1, 0, 4)
			return sc
		}, "application.checkpoint_levels"},
		{"reconfigure at checkpoints, three levels, severity-2 processor failures, a level-2 recovery by old count", func() *scenario.Scenario {
			sc := threeByOld()
			sc.Reconfigure = scenario.AtCheckpoint
			return sc
		}, "reconfigure"},
		{"reconfigure at checkpoints, four levels", func() *scenario.Scenario {
			sc := twoLevel(t, 4, 1e5, 3600, []float64{0.5, 0.5}, greedy)
			lv := sc.Application.Levels
			sc.Application.Levels = append(lv, lv[1], lv[1])
			sc.System.FailureSeverity = &scenario.FailureSeverity{Shares: []float64{0.5, 0, 0, 0.5}}
			sc.Reconfigure = scenario.AtCheckpoint
			return sc
		}, "reconfigure"},
	} {
		_, err := New(tc.sc())
		if err == nil || !strings.Contains(err.Error(), tc.field) {
			t.Errorf("%s: %v, want an error naming %s", tc.name, err, tc.field)
		}
	}
	// Without process crashes a recovery by old count is exact (the
	// recovery has a fixed length): accepted.
	sc := twoLevel(t, 4, 1e5, 3600, []float64{0, 1}, greedy)
	sc.Application.Levels[1].Recovery = scenario.RecoveryLinear(100, 1, 0, 4)
	if _, err := New(sc); err != nil {
		t.Errorf("recovery by old count without crashes: %v", err)
	}
}

// TestMalleableOnlyCrashes: when every failure is a process crash no
// processor goes down and the count stays r(N): the fixed-count model of
// r(N) processors, whatever the policy.
func TestMalleableOnlyCrashes(t *testing.T) {
	sc := twoLevel(t, 6, 1e5, 3600, []float64{1, 0}, scenario.Policy{})
	m, err := New(sc)
	if err != nil {
		t.Fatal(err)
	}
	if m.Malleable() || m.Processors() != 6 {
		t.Fatalf("only crashes: malleable %v on %d", m.Malleable(), m.Processors())
	}
	r, err := m.Evaluate([]int{3}, 600)
	if err != nil {
		t.Fatal(err)
	}
	if r.Down != 0 || !(r.UWT > 0) {
		t.Errorf("only crashes: down %v, UWT %v", r.Down, r.UWT)
	}
}

// matchFixed checks UWT, availability and efficiency against the
// fixed-count model's to tol relative, and the down time per running
// second to tol·(1 + down).
func matchFixed(t *testing.T, label string, got, avail, eff, down float64, want Result, tol float64) {
	t.Helper()
	for _, c := range []struct {
		name      string
		got, want float64
	}{{"UWT", got, want.UWT}, {"availability", avail, want.Availability}, {"efficiency", eff, want.Efficiency}} {
		if d := math.Abs(c.got-c.want) / c.want; d > tol {
			t.Errorf("%s: %s %.15g, fixed-count model %.15g (relative %.2g)", label, c.name, c.got, c.want, d)
		}
	}
	if d := math.Abs(down - want.Down); d > tol*(1+want.Down) {
		t.Errorf("%s: down %.15g, fixed-count model %.15g", label, down, want.Down)
	}
}
