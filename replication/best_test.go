package replication

import (
	"context"
	"errors"
	"math"
	"testing"

	"gonum.org/v1/gonum/mathext"

	"github.com/ckpt-markov/markov/scenario"
)

// TestBoundAboveModel: Bound is an upper bound on UWT(I) at every
// interval; the chain (an independent computation of UWT) must never
// exceed it. The cases include volatile pools where the bound is far
// from 1 (P(F ≥ a) small), so that a wrong bound (such as P(F ≥ a·r),
// which the r = 2 case with a·r > mean F violates) would be caught.
func TestBoundAboveModel(t *testing.T) {
	beatsWrong := false
	for _, m := range []Model{
		{Processors: 12, Processes: 4, Replicas: 2, MTTF: 28800, MTTR: 14400, WorkRate: 4, Latency: 600, Overhead: 600, Recovery: 600},
		{Processors: 12, Processes: 6, Replicas: 2, MTTF: 28800, MTTR: 14400, WorkRate: 6, Latency: 600, Overhead: 600, Recovery: 600},
		{Processors: 9, Processes: 3, Replicas: 3, MTTF: 3600, MTTR: 7200, WorkRate: 3, Latency: 30, Overhead: 30, Recovery: 60},
		{Processors: 10, Processes: 8, Replicas: 1, MTTF: 7200, MTTR: 7200, WorkRate: 8, Latency: 1, Overhead: 1, Recovery: 0},
		{Processors: 10, Processes: 2, Replicas: 5, MTTF: 7200, MTTR: 720, WorkRate: 2, Latency: 10, Overhead: 5, Recovery: 10},
	} {
		b := m.Bound()
		k := m.Processes * m.Replicas
		wrong := m.WorkRate * mathext.RegIncBeta(float64(k), float64(m.Processors-k+1), m.MTTF/(m.MTTF+m.MTTR))
		for _, iv := range []float64{10, 300, 3600, 36000} {
			r, err := m.UWT(iv)
			if err != nil {
				t.Fatal(err)
			}
			if r.UWT > b*(1+1e-12) {
				t.Errorf("a=%d r=%d N=%d I=%v: UWT %.12g above the bound %.12g", m.Processes, m.Replicas, m.Processors, iv, r.UWT, b)
			}
			beatsWrong = beatsWrong || r.UWT > wrong*1.01
		}
	}
	if !beatsWrong {
		t.Error("no case exceeds ω(a)·P(F ≥ a·r): the test cannot tell the bound from that wrong one")
	}
	// The bound itself: P(F ≥ a) by the binomial sum.
	m := Model{Processors: 12, Processes: 5, Replicas: 2, MTTF: 2, MTTR: 1, WorkRate: 3}
	q, p := 2.0/3, 0.0
	for k := 5; k <= 12; k++ {
		lc, _ := math.Lgamma(13)
		l1, _ := math.Lgamma(float64(k + 1))
		l2, _ := math.Lgamma(float64(13 - k))
		p += math.Exp(lc - l1 - l2 + float64(k)*math.Log(q) + float64(12-k)*math.Log(1-q))
	}
	if got := m.Bound(); math.Abs(got-3*p) > 1e-12 {
		t.Errorf("Bound %.15g, want 3·P(F ≥ 5) = %.15g", got, 3*p)
	}
}

// TestBestPrunedIsExhaustive: Best (pairs in the order of the bound,
// pruned, r = 1 by package uwt) must choose the same pairs as the
// exhaustive search that solves every pair, r = 1 included, with the
// replica-profile chain (an independent model of r = 1), to the
// agreement of the two chains (1e−9 relative in UWT; I* to the search's
// tolerance).
func TestBestPrunedIsExhaustive(t *testing.T) {
	for _, c := range []struct {
		n                   int
		mttf, mttr, lat, rc float64
		sqrt                bool
	}{
		{12, 28800, 14400, 600, 600, false}, // replication pays
		{6, 7200, 7200, 600, 600, false},
		{10, 86400, 3600, 60, 120, true}, // sublinear work, reliable
		{8, 3600, 3600, 30, 30, true},
	} {
		sc := replicatedScenario(t, c.n, 1, 1, c.mttf, c.mttr, c.lat, c.rc)
		if c.sqrt {
			for i := range sc.Application.WorkRate {
				sc.Application.WorkRate[i] = math.Sqrt(float64(i + 1))
			}
		}
		const tol = 1e-8
		got, err := Best(context.Background(), sc, 4, tol, nil)
		if err != nil {
			t.Fatal(err)
		}
		want, err := best(context.Background(), sc, 4, tol, nil, searchOptions{dense: true, maxWork: math.Inf(1)})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("N=%d: best a=%d r=%d UWT %.10g, single a=%d; %d evaluated, %d pruned (exhaustive %d)", c.n, got.Processes, got.Replicas, got.UWT, got.Single.Processes, got.Evaluated, got.Pruned, want.Evaluated)
		for _, p := range [][2]Pair{{got.Pair, want.Pair}, {got.Single, want.Single}} {
			g, w := p[0], p[1]
			if g.Processes != w.Processes || g.Replicas != w.Replicas || math.Abs(g.UWT-w.UWT) > 1e-9*w.UWT || math.Abs(g.Interval-w.Interval) > 1e-3*w.Interval {
				t.Errorf("N=%d: Best %d×%d I=%.8g UWT %.12g; exhaustive %d×%d I=%.8g UWT %.12g", c.n, g.Processes, g.Replicas, g.Interval, g.UWT, w.Processes, w.Replicas, w.Interval, w.UWT)
			}
		}
		if got.Evaluated+got.Pruned+got.Skipped != want.Evaluated+want.Skipped {
			t.Errorf("N=%d: %d + %d + %d pairs, exhaustive %d + %d", c.n, got.Evaluated, got.Pruned, got.Skipped, want.Evaluated, want.Skipped)
		}
	}
}

// TestBestWorkError: a pool with more pairs than MaxPairs is refused
// before anything is solved, and a search that would exceed its budget
// stops with a *WorkError naming the pool, never a silently shorter
// search.
func TestBestWorkError(t *testing.T) {
	const n = MaxPairs // Σ n/r over r ≤ 16 is about 3.4·n > MaxPairs
	app := scenario.Application{
		WorkRate: fill(n, func(a int) float64 { return float64(a) }),
		Latency:  fill(n, func(int) float64 { return 60 }),
		Recovery: scenario.RecoveryConstant(60, n),
	}
	app.Overhead = app.Latency
	big, err := scenario.New(scenario.System{Processors: n, MTTF: 86400, MTTR: 3600}, app, scenario.Policy{Kind: scenario.Moldable, Processors: 1})
	if err != nil {
		t.Fatal(err)
	}
	var we *WorkError
	if _, err := Best(context.Background(), big, scenario.MaxReplicas, 0, nil); !errors.As(err, &we) || we.Processors != n || we.Pairs <= MaxPairs {
		t.Errorf("N = %d: %v, want a *WorkError on the pair count", n, err)
	}
	sc := replicatedScenario(t, 12, 1, 1, 28800, 14400, 600, 600)
	_, err = best(context.Background(), sc, 4, 0, nil, searchOptions{prune: true, maxWork: 1000})
	if !errors.As(err, &we) || we.Processors != 12 || we.Work <= 1000 || we.Limit != 1000 {
		t.Errorf("budget 1000: %v, want a *WorkError", err)
	}
}
