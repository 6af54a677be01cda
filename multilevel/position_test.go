package multilevel

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/ckpt-markov/markov/scenario"
	"gonum.org/v1/gonum/mat"
)

// threeLevel returns twoLevel's scenario with a middle level (L = 60,
// C = 40, R = 80) and the severity shares sev.
func threeLevel(t testing.TB, n int, mttf, mttr float64, sev []float64, pol scenario.Policy) *scenario.Scenario {
	t.Helper()
	sc := twoLevel(t, n, mttf, mttr, []float64{0.5, 0.5}, pol)
	lv := sc.Application.Levels
	mid := scenario.Level{Latency: constant(60, n), Overhead: constant(40, n), Recovery: scenario.RecoveryConstant(80, n)}
	sc.Application.Levels = []scenario.Level{lv[0], mid, lv[1]}
	sc.System.FailureSeverity = &scenario.FailureSeverity{Shares: sev}
	if err := sc.Validate(); err != nil {
		t.Fatal(err)
	}
	return sc
}

// fixedCountCases are the moldable scenarios (N, a, MTTF, shares) on
// which TestPositionFixedCount and TestReconfPosFixedCount hold their
// chains against the fixed-count model, at fixedCountPatterns and
// fixedCountIntervals.
var fixedCountCases = []struct {
	n, a int
	mttf float64
	sev  []float64
}{
	{6, 4, 1.5e4, []float64{0.5, 0.3, 0.2}},
	{8, 5, 5e4, []float64{0.2, 0.7, 0.1}},
	{5, 5, 1e4, []float64{0, 0.5, 0.5}},
	{7, 2, 3e3, []float64{0.6, 0.4, 0}},
}

var (
	fixedCountPatterns  = [][]int{{0, 0}, {2, 1}, {5, 3}, {0, 4}, {1, 12}}
	fixedCountIntervals = []float64{60, 600, 3000}
)

// TestPositionFixedCount: on a fixed count (moldable, with spares and
// down periods) the positional chain (position.go: decision states with
// the position in the period, spare laws composed as matrices, the
// survival h of the work at risk) gives the fixed-count model (the nested
// period with the down-time factor: an independent derivation that
// handles every severity inside one period) to 1e-9 relative, for
// several shares with f₂ > 0, patterns and intervals. (The agreement
// observed is 1e-14; 1e-9 leaves room for the two dense solves.) Cases
// whose efficiency is below 1e-3 are skipped: there a superblock almost
// never completes, the loop matrices I − Z are singular to within the
// probability of leaving them, and the positional chain's relative error
// grows as ε over that probability (2.5e-6 at an efficiency of 3e-14),
// where the scalar composition has no subtraction.
func TestPositionFixedCount(t *testing.T) {
	ctx := context.Background()
	for _, tc := range fixedCountCases {
		sc := threeLevel(t, tc.n, tc.mttf, 4000, tc.sev, scenario.Policy{Kind: scenario.Moldable, Processors: tc.a})
		fixed, mm := fixedAndMalleable(t, ctx, sc)
		if mm.pos == nil {
			t.Fatalf("f = %v: no positional chain", tc.sev)
		}
		for _, v := range fixedCountPatterns {
			for _, I := range fixedCountIntervals {
				want, err := fixed.Evaluate(v, I)
				if err != nil {
					t.Fatal(err)
				}
				if want.Efficiency < 1e-3 {
					continue
				}
				got, avail, eff, down, lost, err := mm.pos.evaluate(v, I)
				if err != nil {
					t.Fatal(err)
				}
				if lost > 1e-12 {
					t.Errorf("N=%d a=%d: the window loses %g", tc.n, tc.a, lost)
				}
				matchFixed(t, fmt.Sprintf("N=%d a=%d f=%v V=%v I=%g", tc.n, tc.a, tc.sev, v, I), got, avail, eff, down, want, 1e-9)
			}
		}
	}
}

// TestPositionContinuity: at f₂ = 0 the positional chain (forced) gives
// the malleable model without positions (malleable.go: whole periods per
// up phase, scalar composition; an independent algorithm) to 1e-9
// relative under greedy, pb and a vector; and New at f₂ = 10⁻¹⁰ (the
// positional chain) is within 1e-8 of New at f₂ = 0 (the model without
// positions): no jump where the two paths meet.
func TestPositionContinuity(t *testing.T) {
	ctx := context.Background()
	set := &Settings{Tol: 1e-15, Prune: -1}
	for _, pol := range mallPolicies {
		sc := threeLevel(t, 8, 2e4, 4000, []float64{0.6, 0, 0.4}, pol)
		old, err := newMalleable(ctx, sc, set)
		if err != nil {
			t.Fatal(err)
		}
		if old.pos != nil {
			t.Fatalf("%v: f₂ = 0 built the positional chain", pol)
		}
		forced, err := buildMalleable(ctx, sc, set, true)
		if err != nil {
			t.Fatal(err)
		}
		near := threeLevel(t, 8, 2e4, 4000, []float64{0.6, 1e-10, 0.4 - 1e-10}, pol)
		nm, err := NewWith(ctx, near, set)
		if err != nil {
			t.Fatal(err)
		}
		if nm.mall == nil || nm.mall.pos == nil {
			t.Fatalf("%v: f₂ = 1e-10 did not build the positional chain", pol)
		}
		for _, v := range [][]int{{0, 0}, {2, 1}, {5, 3}, {1, 9}} {
			for _, I := range []float64{120, 1500} {
				want, _, _, _, _ := old.evaluate(v, I)
				got, _, _, _, _, err := forced.pos.evaluate(v, I)
				if err != nil {
					t.Fatal(err)
				}
				if d := math.Abs(got-want) / want; d > 1e-9 {
					t.Errorf("%v V=%v I=%g: positional %.15g, without positions %.15g (relative %.2g)", pol, v, I, got, want, d)
				}
				r, err := nm.Evaluate(v, I)
				if err != nil {
					t.Fatal(err)
				}
				if d := math.Abs(r.UWT-want) / want; d > 1e-8 {
					t.Errorf("%v V=%v I=%g: f₂ = 1e-10 %.15g, f₂ = 0 %.15g (relative %.2g)", pol, v, I, r.UWT, want, d)
				}
			}
		}
	}
}

// TestPositionLaw: the up phase's laws are probabilities: from every
// start, the spare laws at its end (every position, first and later
// periods, and the failures that restore the level-3 checkpoint) sum to
// the resolvent row aμ(aμI − G)⁻¹ (the spare count at the first failure
// of a used processor, whatever the application does: computed here by
// birthdeath's Resolvent, an independent routine) to 1e-12.
func TestPositionLaw(t *testing.T) {
	ctx := context.Background()
	sc := threeLevel(t, 8, 1e4, 3000, []float64{0.3, 0.4, 0.3}, scenario.Policy{Kind: scenario.PerformanceBased})
	m, err := NewWith(ctx, sc, &Settings{Tol: 1e-15, Prune: -1})
	if err != nil {
		t.Fatal(err)
	}
	p := m.mall.pos
	for _, pattern := range [][]int{{0, 0}, {3, 2}, {1, 7}} {
		for a, pr := range p.procs {
			c := &mcomposer{pr: pr, chain: p.chains[a], size: p.n - a + 1, pattern: pattern, interval: 500}
			u, err := c.parts()
			if err != nil {
				t.Fatal(err)
			}
			rb, err := p.chains[a].Resolvent(0, p.n-a+1, float64(a)*p.mu, 0)
			if err != nil {
				t.Fatal(err)
			}
			for s := 0; s <= p.n-a; s++ {
				for k := 0; k <= pattern[1]; k++ {
					law := combinedLaw(u, s, k, pattern[1], p.n-a+1)
					tot := law.total()
					row := rb.Rows[s]
					for j := range tot {
						want := 0.0
						if j >= row.Lo && j-row.Lo < len(row.Q) {
							want = row.Q[j-row.Lo]
						}
						if math.Abs(tot[j]-want) > 1e-12 {
							t.Errorf("V=%v a=%d s=%d k=%d: spares %d at the end %.15g, resolvent %.15g", pattern, a, s, k, j, tot[j], want)
						}
					}
				}
			}
		}
	}
}

// denseLaw is an up phase's law with the later periods folded in
// (Σ_j end(j)·later(j)), for evaluateDense.
type denseLaw struct {
	kill, later [][]float64
	zero        []float64
	done        float64
	periods     float64
}

// total returns the law's mass by column, whatever the position: zero,
// kill and later summed.
func (law denseLaw) total() []float64 {
	tot := append([]float64(nil), law.zero...)
	for _, rows := range [][][]float64{law.kill, law.later} {
		for _, r := range rows {
			for j, x := range r {
				tot[j] += x
			}
		}
	}
	return tot
}

func combinedLaw(u *upParts, s, k, v2, size int) denseLaw {
	b := u.begin(s, k, v2, size)
	out := denseLaw{kill: b.kill, later: make([][]float64, v2+1), zero: append([]float64(nil), b.zero...), done: b.periods, periods: b.periods}
	for j, x := range b.end {
		if x == 0 {
			continue
		}
		l := u.later(j, v2, size)
		out.periods += x * l.periods
		for i, y := range l.zero {
			out.zero[i] += x * y
		}
		for bb, row := range l.kill {
			if row == nil {
				continue
			}
			if out.later[bb] == nil {
				out.later[bb] = make([]float64, u.kw)
			}
			for i, y := range row {
				out.later[bb][i] += x * y
			}
		}
	}
	return out
}

// evaluateDense is the positional chain without the lifting of
// evaluate: every jump of a decision state (current and later periods)
// in one dense S×S matrix, π by one dense solve, h by another. The
// reference that evaluate's structured solve must reproduce.
func (p *positional) evaluateDense(pattern []int, interval float64) (uwtv, avail, eff, down, lost float64, err error) {
	v1, v2 := pattern[0], pattern[1]
	K := v2 + 1
	w := p.hi - p.lo + 1
	S := w * K
	if S > MaxPositionStates {
		return 0, 0, 0, 0, 0, fmt.Errorf("multilevel: pattern %v: the positional chain has %d functional counts × %d positions = %d states, more than %d", pattern, w, K, S, MaxPositionStates)
	}
	idx := func(n, k int) int { return (n-p.lo)*K + k }
	trans := mat.NewDense(S, S, nil) // the jump chain
	gmat := mat.NewDense(S, S, nil)  // the severity-2 continuations, for h
	gc := make([]float64, S)         // completion of the current period
	tau := make([]float64, S)
	type credit struct {
		safe  float64 // committed computation, safe
		risky [][3]float64
	}
	cred := make([]credit, S)
	laws := map[int]*upParts{}
	for n := p.lo; n <= p.hi; n++ {
		a := p.act[n-p.lo]
		if a == 0 {
			// A down state: n functional, waiting for r(n) > 0.
			rate := float64(n)*p.mu + float64(p.n-n)*p.theta
			for k := 0; k < K; k++ {
				i := idx(n, k)
				tau[i] = 1 / rate
				if n > 0 && n-1 >= p.lo {
					trans.Set(i, idx(n-1, k), float64(n)*p.mu/rate)
				}
				if n+1 <= p.hi {
					trans.Set(i, idx(n+1, k), float64(p.n-n)*p.theta/rate)
				}
			}
			continue
		}
		u, ok := laws[a]
		if !ok {
			c := &mcomposer{pr: p.procs[a], chain: p.chains[a], size: p.n - a + 1, pattern: pattern, interval: interval}
			if u, err = c.parts(); err != nil {
				return 0, 0, 0, 0, 0, err
			}
			laws[a] = u
		}
		lv := p.procs[a].Levels
		u1 := interval + lv[0].Latency - lv[0].Overhead
		u2 := interval + lv[1].Latency - lv[1].Overhead
		u3 := interval + lv[2].Latency - lv[2].Overhead
		sbw := float64(v1)*u1 + u2
		W := func(b int) float64 { return float64(b) * sbw }
		U := float64(v2)*sbw + float64(v1)*u1 + u3
		for k := 0; k < K; k++ {
			i := idx(n, k)
			tau[i] = 1 / (float64(a) * p.mu)
			law := combinedLaw(u, n-a, k, v2, p.n-a+1)
			cr := credit{safe: (U-W(k))*law.done + U*(law.periods-law.done)}
			to := func(j int) (int, bool) { // the next state's count for j spares up
				nn := a - 1 + j
				return nn, nn >= p.lo && nn <= p.hi
			}
			for j, x := range law.zero {
				if nn, ok := to(j); ok {
					trans.Set(i, idx(nn, 0), trans.At(i, idx(nn, 0))+x)
				}
			}
			for b := 1; b <= v2; b++ {
				for pass, rows := range [2][][]float64{law.kill, law.later} {
					if rows[b] == nil {
						continue
					}
					gain := W(b)
					if pass == 0 {
						gain -= W(k)
					}
					for j, x := range rows[b] {
						nn, ok := to(j)
						if !ok || x == 0 {
							continue
						}
						trans.Set(i, idx(nn, b), trans.At(i, idx(nn, b))+p.phi*x)
						trans.Set(i, idx(nn, 0), trans.At(i, idx(nn, 0))+(1-p.phi)*x)
						if gain != 0 {
							cr.risky = append(cr.risky, [3]float64{float64(idx(nn, b)), p.phi * x, gain})
						}
						if pass == 0 {
							gmat.Set(i, idx(nn, b), gmat.At(i, idx(nn, b))+p.phi*x)
						}
					}
				}
			}
			gc[i] = law.done
			cred[i] = cr
		}
	}
	// Down states carry h along (the position does not move).
	for n := p.lo; n <= p.hi; n++ {
		if p.act[n-p.lo] != 0 {
			continue
		}
		for k := 0; k < K; k++ {
			i := idx(n, k)
			for j := 0; j < S; j++ {
				gmat.Set(i, j, trans.At(i, j))
			}
		}
	}
	// Rows that leave the window: renormalised, the stationary mass of
	// their leaving reported.
	leave := make([]float64, S)
	for i := 0; i < S; i++ {
		row := trans.RawRowView(i)
		s := sum(row)
		if s <= 0 {
			return 0, 0, 0, 0, 0, fmt.Errorf("multilevel: positional chain: state %d leaves the window", i)
		}
		leave[i] = math.Max(1-s, 0)
		for j := range row {
			row[j] /= s
		}
	}
	// h = gc + G·h: the probability that the current period completes
	// before a processor failure restores its level-3 checkpoint.
	var ig mat.Dense
	ig.Sub(eye(S), gmat)
	var h mat.VecDense
	if err := h.SolveVec(&ig, mat.NewVecDense(S, gc)); err != nil {
		return 0, 0, 0, 0, 0, fmt.Errorf("multilevel: positional chain: %w", err)
	}
	pi, err := stationary(trans)
	if err != nil {
		return 0, 0, 0, 0, 0, err
	}
	for i, x := range pi {
		lost += x * leave[i]
	}
	var wk, use, run, idle float64
	for n := p.lo; n <= p.hi; n++ {
		a := p.act[n-p.lo]
		for k := 0; k < K; k++ {
			i := idx(n, k)
			if a == 0 {
				idle += pi[i] * tau[i]
				continue
			}
			run += pi[i] * tau[i]
			c := cred[i].safe
			for _, r := range cred[i].risky {
				c += r[1] * r[2] * h.AtVec(int(r[0]))
			}
			use += pi[i] * c
			wk += pi[i] * c * p.work[a-1]
		}
	}
	total := run + idle
	if total == 0 || run == 0 {
		return 0, 0, 0, 0, lost, nil
	}
	return wk / total, use / total, use / run, idle / run, lost, nil
}

// stationary returns the stationary law of the stochastic matrix t: the
// solution of π(I − t) = 0, Σπ = 1, the last equation replaced by the
// normalisation.
func stationary(t *mat.Dense) ([]float64, error) {
	S, _ := t.Dims()
	var a mat.Dense
	a.Sub(eye(S), t)
	var at mat.Dense
	at.CloneFrom(a.T())
	for j := 0; j < S; j++ {
		at.Set(S-1, j, 1)
	}
	b := mat.NewVecDense(S, nil)
	b.SetVec(S-1, 1)
	var x mat.VecDense
	if err := x.SolveVec(&at, b); err != nil {
		return nil, fmt.Errorf("multilevel: positional chain: %w", err)
	}
	out := make([]float64, S)
	for i := range out {
		out[i] = math.Max(x.AtVec(i), 0)
	}
	return out, nil
}

// TestPositionStructured: evaluate's lifted chain and structured solves
// (forward substitution over the positions, back substitution for h)
// give the dense solve of the same chain (evaluateDense: every jump in
// one matrix) to 1e-11 relative (the down time to 1e-15 absolute), under greedy, pb and a vector, for
// several patterns, intervals and shares.
func TestPositionStructured(t *testing.T) {
	ctx := context.Background()
	for _, pol := range mallPolicies {
		for _, sev := range [][]float64{{0.5, 0.3, 0.2}, {0.1, 0.85, 0.05}, {0.3, 0.7, 0}} {
			sc := threeLevel(t, 8, 1.5e4, 4000, sev, pol)
			m, err := NewWith(ctx, sc, &Settings{Tol: 1e-15, Prune: -1})
			if err != nil {
				t.Fatal(err)
			}
			p := m.mall.pos
			for _, v := range [][]int{{0, 0}, {2, 1}, {5, 3}, {1, 9}} {
				for _, I := range []float64{120, 1500} {
					got, av, ef, dn, _, err := p.evaluate(v, I)
					if err != nil {
						t.Fatal(err)
					}
					want, wav, wef, wdn, _, err := p.evaluateDense(v, I)
					if err != nil {
						t.Fatal(err)
					}
					for _, c := range [][2]float64{{got, want}, {av, wav}, {ef, wef}} {
						if d := math.Abs(c[0]-c[1]) / c[1]; d > 1e-11 {
							t.Errorf("%v f=%v V=%v I=%g: structured %.15g, dense %.15g (relative %.2g)", pol, sev, v, I, c[0], c[1], d)
						}
					}
					// The down time per running second (here 4e-8) is a
					// sum over the down states' small probabilities:
					// absolute 1e-15.
					if d := math.Abs(dn - wdn); d > 1e-15 {
						t.Errorf("%v f=%v V=%v I=%g: down %.15g, dense %.15g", pol, sev, v, I, dn, wdn)
					}
				}
			}
		}
	}
}

// TestPositionBeginAll: beginAll's shared sequence gives begin's laws
// (each superblock run from its start, an independent sequencing) to
// 1e-15 absolute, for every start.
func TestPositionBeginAll(t *testing.T) {
	ctx := context.Background()
	sc := threeLevel(t, 8, 1e4, 3000, []float64{0.3, 0.4, 0.3}, scenario.Policy{Kind: scenario.PerformanceBased})
	m, err := NewWith(ctx, sc, &Settings{Tol: 1e-15, Prune: -1})
	if err != nil {
		t.Fatal(err)
	}
	p := m.mall.pos
	for _, pattern := range [][]int{{0, 0}, {3, 1}, {2, 2}, {1, 7}} {
		for a, pr := range p.procs {
			c := &mcomposer{pr: pr, chain: p.chains[a], size: p.n - a + 1, pattern: pattern, interval: 500}
			u, err := c.parts()
			if err != nil {
				t.Fatal(err)
			}
			for s := 0; s <= p.n-a; s++ {
				all := u.beginAll(s, pattern[1], p.n-a+1)
				for k := 0; k <= pattern[1]; k++ {
					want := u.begin(s, k, pattern[1], p.n-a+1)
					got := all[k]
					rows := [][2][]float64{{got.zero, want.zero}, {got.end, want.end}}
					for b := range want.kill {
						rows = append(rows, [2][]float64{got.kill[b], want.kill[b]})
					}
					for r, pair := range rows {
						if len(pair[0]) != len(pair[1]) {
							t.Fatalf("V=%v a=%d s=%d k=%d: row %d has %d entries, want %d", pattern, a, s, k, r, len(pair[0]), len(pair[1]))
						}
						for j := range pair[0] {
							if math.Abs(pair[0][j]-pair[1][j]) > 1e-15 {
								t.Errorf("V=%v a=%d s=%d k=%d: row %d entry %d: %.17g, begin %.17g", pattern, a, s, k, r, j, pair[0][j], pair[1][j])
							}
						}
					}
				}
			}
		}
	}
}

// TestPositionBounds: a window whose used counts leave more than
// MaxPositionSpares processors outside is refused before any matrix is
// allocated, with an error naming system.failure_severity.
func TestPositionBounds(t *testing.T) {
	n := MaxPositionSpares + 10
	vec := make([]int, n)
	for i := range vec {
		vec[i] = min(i+1, 5)
	}
	sc := threeLevel(t, n, 1e6, 3600, []float64{0.5, 0.3, 0.2}, scenario.Policy{Kind: scenario.Explicit, Explicit: vec})
	_, err := New(sc)
	if err == nil || !strings.Contains(err.Error(), "system.failure_severity") {
		t.Errorf("a = 5 of %d with f₂ > 0: %v, want an error naming system.failure_severity", n, err)
	}
}
