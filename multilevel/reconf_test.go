package multilevel

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/ckpt-markov/markov/scenario"
	"github.com/ckpt-markov/markov/uwt"
	"gonum.org/v1/gonum/mat"
)

// TestReconfOneLevel: with one level the chain with reconfiguration at
// (top-level) checkpoints is package uwt's exact chain of segments with
// reconfiguration (an independent construction: per-segment states, the
// recovery rows split by the checkpoint's writer), to 1e-10 relative, on
// several policies, intervals, and recovery costs by new and by old
// count. The same scenario as two levels whose level 1 is never written
// (V = 0) and never needed (every failure of the top severity) gives
// the same figure through the three-level embedding.
func TestReconfOneLevel(t *testing.T) {
	ctx := context.Background()
	for _, pol := range mallPolicies {
		for _, byOld := range []bool{false, true} {
			sc := twoLevel(t, 8, 3e4, 5000, []float64{0, 1}, pol)
			if byOld {
				sc.Application.Levels[1].Recovery = scenario.RecoveryLinear(100, 20, 5, 8)
			}
			sc.Reconfigure = scenario.AtCheckpoint
			one := topOnly(t, sc)
			one.Reconfigure = scenario.AtCheckpoint
			exact, err := uwt.New(ctx, one, &uwt.Settings{Exact: true, Prune: -1})
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range []*scenario.Scenario{one, sc} {
				m, err := NewWith(ctx, s, &Settings{Tol: 1e-15, Prune: -1})
				if err != nil {
					t.Fatal(err)
				}
				if m.mall == nil || m.mall.rc == nil {
					t.Fatalf("%v: not the chain with reconfiguration", pol)
				}
				for _, I := range []float64{120, 900, 3600, 20000} {
					got, err := m.Evaluate(make([]int, m.Levels()-1), I)
					if err != nil {
						t.Fatal(err)
					}
					e, err := exact.Evaluate(ctx, I)
					if err != nil {
						t.Fatal(err)
					}
					name := fmt.Sprintf("%v old=%v L=%d I=%g", pol, byOld, m.Levels(), I)
					if d := math.Abs(got.UWT-e.UWT) / e.UWT; d > 1e-10 {
						t.Errorf("%s: UWT %.15g, uwt exact %.15g (relative %.2g)", name, got.UWT, e.UWT, d)
					}
					if d := math.Abs(got.Availability-e.Availability) / e.Availability; d > 1e-10 {
						t.Errorf("%s: availability %.15g, uwt exact %.15g (relative %.2g)", name, got.Availability, e.Availability, d)
					}
				}
			}
		}
	}
}

// TestReconfFixedCount: on a fixed count (moldable: r(n) = a for n ≥ a)
// reconfiguration never changes the count, so the chain with
// reconfiguration (periods, in-place recoveries from the top level after
// crashes, recoveries and down states, all jointly with the spare
// count) gives the fixed-count model's figures (the nested period with
// the down-time factor of the spare chain's stationary law, an
// independent derivation), to 1e-10 (the window's Tol is 1e-15), with
// two levels and with three (f₂ = 0), several severity shares, patterns
// and intervals.
func TestReconfFixedCount(t *testing.T) {
	ctx := context.Background()
	mid := scenario.Level{Latency: constant(60, 8), Overhead: constant(40, 8), Recovery: scenario.RecoveryConstant(80, 8)}
	for _, tc := range []struct {
		n, a     int
		mttf     float64
		sev      []float64
		three    bool
		patterns [][]int
	}{
		{6, 4, 2e4, []float64{0.7, 0.3}, false, [][]int{{0}, {1}, {4}, {30}}},
		{8, 5, 5e4, []float64{0.9, 0.1}, false, [][]int{{0}, {3}, {12}}},
		{5, 5, 1e4, []float64{0.5, 0.5}, false, [][]int{{2}}},
		{6, 4, 1.5e4, []float64{0.7, 0, 0.3}, true, [][]int{{0, 0}, {2, 1}, {5, 3}}},
		{8, 6, 3e4, []float64{0.4, 0, 0.6}, true, [][]int{{1, 0}, {0, 2}, {3, 3}}},
	} {
		sc := twoLevel(t, tc.n, tc.mttf, 4000, []float64{tc.sev[0], 1 - tc.sev[0]}, scenario.Policy{Kind: scenario.Moldable, Processors: tc.a})
		if tc.three {
			lv := sc.Application.Levels
			m := mid
			m.Latency, m.Overhead, m.Recovery = m.Latency[:tc.n], m.Overhead[:tc.n], scenario.RecoveryConstant(80, tc.n)
			sc.Application.Levels = []scenario.Level{lv[0], m, lv[1]}
			sc.System.FailureSeverity = &scenario.FailureSeverity{Shares: tc.sev}
		}
		sc.Reconfigure = scenario.AtCheckpoint
		if err := sc.Validate(); err != nil {
			t.Fatal(err)
		}
		fixed, mm := fixedAndMalleable(t, ctx, sc)
		if mm.rc == nil {
			t.Fatal("not the chain with reconfiguration")
		}
		for _, v := range tc.patterns {
			for _, I := range []float64{60, 600, 3000} {
				want, err := fixed.Evaluate(v, I)
				if err != nil {
					t.Fatal(err)
				}
				got, avail, eff, down, lost, err := mm.rc.evaluate(v, I)
				if err != nil {
					t.Fatal(err)
				}
				if lost > 1e-12 {
					t.Errorf("V=%v I=%g: the window drops %g", v, I, lost)
				}
				matchFixed(t, fmt.Sprintf("N=%d a=%d f=%v V=%v I=%g", tc.n, tc.a, tc.sev, v, I), got, avail, eff, down, want, 1e-10)
			}
		}
	}
}

// TestReconfBounds: a policy that leaves more than MaxPositionSpares
// processors outside the application is refused before any matrix is
// built, with an error naming reconfigure; the same scenario without
// reconfiguration is accepted.
func TestReconfBounds(t *testing.T) {
	const n = 600
	v := make([]int, n)
	for k := range v {
		v[k] = min(k+1, 100)
	}
	sc := twoLevel(t, n, 1e7, 3600, []float64{0.5, 0.5}, scenario.Policy{Kind: scenario.Explicit, Explicit: v})
	if _, err := New(sc); err != nil {
		t.Fatalf("without reconfiguration: %v", err)
	}
	sc.Reconfigure = scenario.AtCheckpoint
	_, err := New(sc)
	var se *scenario.Error
	if !errors.As(err, &se) || se.Field != "reconfigure" || !strings.Contains(err.Error(), "N − a = 500") {
		t.Errorf("N = %d on 100: %v, want a scenario.Error naming reconfigure and N − a = 500", n, err)
	}
}

// TestReconfPartsRowSums: every row of the joint matrices of a period's
// level-L body (the three-level matrix composition of position.go, on
// the embedding of one, two or three levels) sums to the scalar
// composition's probability (period.go, an independent code path) of
// the same end: completing, a crash the top level handles, a processor
// failure; to 1e-12. The spare law changes nothing of these.
func TestReconfPartsRowSums(t *testing.T) {
	ctx := context.Background()
	mid := scenario.Level{Latency: constant(60, 8), Overhead: constant(40, 8), Recovery: scenario.RecoveryConstant(80, 8)}
	for _, tc := range []struct {
		sev     []float64
		pattern []int
	}{
		{[]float64{1}, nil},
		{[]float64{0.7, 0.3}, []int{0}},
		{[]float64{0.7, 0.3}, []int{5}},
		{[]float64{0.6, 0, 0.4}, []int{3, 2}},
		{[]float64{0.6, 0, 0.4}, []int{0, 4}},
	} {
		sc := twoLevel(t, 8, 2e4, 4000, []float64{0.5, 0.5}, scenario.Policy{Kind: scenario.Greedy})
		lv := sc.Application.Levels
		switch len(tc.sev) {
		case 1:
			sc = topOnly(t, sc)
		case 3:
			sc.Application.Levels = []scenario.Level{lv[0], mid, lv[1]}
		}
		if len(tc.sev) > 1 {
			sc.System.FailureSeverity = &scenario.FailureSeverity{Shares: tc.sev}
		}
		sc.Reconfigure = scenario.AtCheckpoint
		mm, err := newMalleable(ctx, sc, nil)
		if err != nil {
			t.Fatal(err)
		}
		L := len(tc.sev)
		for _, a := range []int{1, 5, 8} {
			for _, I := range []float64{50, 700} {
				rp, err := mm.rc.partsOf(a, tc.pattern, I)
				if err != nil {
					t.Fatal(err)
				}
				pr := &Process{Rate: float64(a) * sc.System.Lambda(), Severity: mm.sev, CheckpointAfterRecovery: true, Levels: levelsAt(sc.Application.CheckpointLevels(), a)}
				c := composer{pr: pr, pattern: tc.pattern, interval: I, L: L, sev: L + 1}
				body := c.body(L, L)
				crash := 0.0
				for s := 0; s < L; s++ {
					crash += body.exit[s]
				}
				for s := 0; s <= 8-a; s++ {
					for _, x := range []struct {
						name      string
						got, want float64
					}{
						{"done", sum(rp.done.RawRowView(s)), body.done},
						{"crash", rowSum(rp.crash, s), crash},
						{"kill", sum(rp.kill.RawRowView(s)), body.exit[L]},
					} {
						if math.Abs(x.got-x.want) > 1e-12 {
							t.Errorf("f=%v V=%v a=%d I=%g row %d: %s %.15g, scalar %.15g", tc.sev, tc.pattern, a, I, s, x.name, x.got, x.want)
						}
					}
				}
			}
		}
	}
}

// rowSum is the sum of row i of m, nil being zero.
func rowSum(m *mat.Dense, i int) float64 {
	if m == nil {
		return 0
	}
	return sum(m.RawRowView(i))
}
