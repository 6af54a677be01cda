package uwt

import (
	"fmt"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/ckpt-markov/markov/expm"
	"github.com/ckpt-markov/markov/scenario"
)

// handState is a state of the hand-built oracle chain. It always carries
// the checkpoint's processor count p, even when R does not depend on it:
// the chain is then a refinement of the model's (lumpable onto it), so the
// metrics agree while the state spaces differ.
type handState struct {
	kind byte // 'U', 'R' or 'D'
	a, s int  // U(a, s)
	p, n int  // R(p, n), D(p, n)
}

// hand is the chain of docs/model.md, sections 4–6, for a small N, built
// literally: every state reachable from the start, with P_T = exp(G_m T)
// and Q_T = ∫₀ᵀ aλ e^{−aλt} exp(G_m t) dt from expm (matrix exponential
// and Van Loan's block integral), dense and without any of the model's
// windows, caches or closed forms.
type hand struct {
	t        *testing.T
	sc       *scenario.Scenario
	n        int
	lam, th  float64
	interval float64
}

// handArc is a transition of the hand-built chain.
type handArc struct {
	to handState
	pr float64
}

// r is the rescheduling vector, with r(0) = 0: nothing runs on no processor.
func (h *hand) r(k int) int {
	if k <= 0 {
		return 0
	}
	return h.sc.Reschedule.At(k)
}

// spare returns P_T and Q_T for a used and m = N − a others (section 5).
func (h *hand) spare(a int, tt float64) (p, q *mat.Dense) {
	m := h.n - a
	g := mat.NewDense(m+1, m+1, nil)
	for j := 0; j <= m; j++ {
		if j > 0 {
			g.Set(j, j-1, float64(j)*h.lam)
		}
		if j < m {
			g.Set(j, j+1, float64(m-j)*h.th)
		}
		g.Set(j, j, -float64(j)*h.lam-float64(m-j)*h.th)
	}
	rho := float64(a) * h.lam
	b := mat.NewDense(m+1, m+1, nil)
	for j := 0; j <= m; j++ {
		b.Set(j, j, rho)
	}
	gt := mat.NewDense(m+1, m+1, nil)
	gt.Scale(tt, g)
	p, q = &mat.Dense{}, &mat.Dense{}
	if err := expm.Exp(p, gt, nil); err != nil {
		h.t.Fatal(err)
	}
	if err := expm.Integral(q, g, b, tt, rho, nil); err != nil {
		h.t.Fatal(err)
	}
	return p, q
}

// afterFail is R(p, n') or D(p, n') (sections 3 and 5).
func (h *hand) afterFail(p, k int) handState {
	if h.r(k) > 0 {
		return handState{kind: 'R', p: p, n: k}
	}
	return handState{kind: 'D', p: p, n: k}
}

// out gives the transitions and the rewards τ, w of a state (sections 5, 6).
func (h *hand) out(st handState) (arcs []handArc, tau, work float64) {
	app := h.sc.Application
	if st.kind == 'D' {
		fail, rep := float64(st.n)*h.lam, float64(h.n-st.n)*h.th
		if fail > 0 {
			arcs = append(arcs, handArc{h.afterFail(st.p, st.n-1), fail / (fail + rep)})
		}
		if rep > 0 {
			arcs = append(arcs, handArc{h.afterFail(st.p, st.n+1), rep / (fail + rep)})
		}
		return arcs, 1 / (fail + rep), 0
	}
	// U(a, s): T = I + L(a), a failure carries p = a. R(p, n): a = r(n),
	// s = n − a, T = R(p, a) + L(a), a failure keeps p.
	a, s, p, tt := st.a, st.s, st.a, h.interval+app.Latency[max(st.a, 1)-1]
	if st.kind == 'R' {
		a, p = h.r(st.n), st.p
		s, tt = st.n-a, app.Recovery.Cost(p, a)+app.Latency[a-1]
	}
	pt, qt := h.spare(a, tt)
	surv := math.Exp(-float64(a) * h.lam * tt)
	for s2 := 0; s2 <= h.n-a; s2++ {
		// At the checkpoint, with reconfiguration at checkpoints
		// (docs/optimal-policy.md section 1): r(a + s') ∉ {0, a} recovers
		// onto r(a + s') from the checkpoint written on a.
		next := handState{kind: 'U', a: a, s: s2}
		if r2 := h.r(a + s2); h.sc.Reconfigure == scenario.AtCheckpoint && r2 != 0 && r2 != a {
			next = handState{kind: 'R', p: a, n: a + s2}
		}
		arcs = append(arcs, handArc{next, surv * pt.At(s, s2)})
		arcs = append(arcs, handArc{h.afterFail(p, a-1+s2), qt.At(s, s2)})
	}
	tau = (1 - surv) / (float64(a) * h.lam)
	if st.kind == 'U' {
		work = surv * app.WorkRate[a-1] * (h.interval + app.Latency[a-1] - app.Overhead[a-1])
	}
	return arcs, tau, work
}

// handChain builds the hand chain from its start (section 4), solves
// πᵀP = πᵀ, Σπ = 1 by a dense LU and returns UWT = Σπw / Σπτ.
func handChain(t *testing.T, sc *scenario.Scenario, interval float64) float64 {
	t.Helper()
	h := &hand{t: t, sc: sc, n: sc.N(), lam: sc.System.Lambda(), th: sc.System.Theta(), interval: interval}
	start := handState{kind: 'U', a: h.r(h.n), s: h.n - h.r(h.n)}
	if h.r(h.n) == 0 {
		start = handState{kind: 'D', p: h.n, n: h.n}
	}
	return handUWT(t, start, h.out)
}

// handUWT explores the chain from start with out (a state's arcs, sojourn
// and reward), solves πᵀP = πᵀ, Σπ = 1 by a dense LU and returns UWT =
// Σπw / Σπτ.
func handUWT(t *testing.T, start handState, out func(handState) ([]handArc, float64, float64)) float64 {
	t.Helper()
	index := map[handState]int{start: 0}
	states := []handState{start}
	var rows [][]handArc
	var tau, work []float64
	for k := 0; k < len(states); k++ {
		arcs, tk, wk := out(states[k])
		rows, tau, work = append(rows, arcs), append(tau, tk), append(work, wk)
		for _, e := range arcs {
			if _, ok := index[e.to]; !ok {
				index[e.to] = len(states)
				states = append(states, e.to)
			}
		}
	}
	// πᵀ(P − I) = 0 with the last equation replaced by Σπ = 1.
	ns := len(states)
	a := mat.NewDense(ns, ns, nil)
	for i, arcs := range rows {
		a.Set(i, i, a.At(i, i)-1)
		for _, e := range arcs {
			j := index[e.to]
			a.Set(j, i, a.At(j, i)+e.pr)
		}
	}
	rhs := mat.NewVecDense(ns, nil)
	for i := range ns {
		a.Set(ns-1, i, 1)
	}
	rhs.SetVec(ns-1, 1)
	var pi mat.VecDense
	if err := pi.SolveVec(a, rhs); err != nil {
		t.Fatal(err)
	}
	var sw, st float64
	for i := range ns {
		sw += pi.AtVec(i) * work[i]
		st += pi.AtVec(i) * tau[i]
	}
	return sw / st
}

// TestRowOracle compares UWT with the hand-built chain of docs/model.md
// for N = 2 and 3: greedy, moldable, waiting vectors (r(n) = 0 for some n,
// including r(N) = 0, where the chain starts down), a recovery cost
// that depends on the old count, and reconfiguration at checkpoints. The tolerance 1e-12 covers the default
// pruning (relative change below 3.3e-13, DefaultPrune) and the rounding
// of two different dense solves.
func TestRowOracle(t *testing.T) {
	// Rates of the order of the interval, so that failures, repairs and
	// waiting all carry weight.
	app := func(n int, byOld bool) scenario.Application {
		w := []float64{1, 1.8, 2.4}[:n]
		l := []float64{100, 80, 70}[:n]
		c := []float64{50, 80, 30}[:n]
		rec := scenario.RecoveryByNew([]float64{40, 60, 90}[:n])
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
		name   string
		n      int
		pol    scenario.Policy
		byOld  bool
		reconf scenario.Reconfigure
	}{
		{"N=2 greedy", 2, scenario.Policy{Kind: scenario.Greedy}, false, scenario.Never},
		{"N=2 moldable(2)", 2, scenario.Policy{Kind: scenario.Moldable, Processors: 2}, false, scenario.Never},
		{"N=2 wait at N", 2, scenario.Policy{Kind: scenario.Explicit, Explicit: []int{1, 0}}, false, scenario.Never},
		{"N=3 greedy", 3, scenario.Policy{Kind: scenario.Greedy}, false, scenario.Never},
		{"N=3 greedy R(p,a)", 3, scenario.Policy{Kind: scenario.Greedy}, true, scenario.Never},
		{"N=3 moldable(2)", 3, scenario.Policy{Kind: scenario.Moldable, Processors: 2}, false, scenario.Never},
		{"N=3 moldable(3) R(p,a)", 3, scenario.Policy{Kind: scenario.Moldable, Processors: 3}, true, scenario.Never},
		{"N=3 wait at 2", 3, scenario.Policy{Kind: scenario.Explicit, Explicit: []int{1, 0, 3}}, true, scenario.Never},
		{"N=3 wait at N", 3, scenario.Policy{Kind: scenario.Explicit, Explicit: []int{1, 2, 0}}, true, scenario.Never},
		// Reconfiguration at checkpoints: greedy grows after every repair;
		// {1, 1, 3} jumps from 1 to 3 but stays on 1 at n = 2; {1, 2, 1}
		// shrinks from 2 to 1 when the third processor is back; {1, 0, 2}
		// keeps running on 1 at n = 2 (r(n') = 0 never stops a run).
		{"N=2 greedy reconfigure", 2, scenario.Policy{Kind: scenario.Greedy}, false, scenario.AtCheckpoint},
		{"N=3 greedy reconfigure R(p,a)", 3, scenario.Policy{Kind: scenario.Greedy}, true, scenario.AtCheckpoint},
		{"N=3 {1,1,3} reconfigure", 3, scenario.Policy{Kind: scenario.Explicit, Explicit: []int{1, 1, 3}}, false, scenario.AtCheckpoint},
		{"N=3 {1,2,1} reconfigure R(p,a)", 3, scenario.Policy{Kind: scenario.Explicit, Explicit: []int{1, 2, 1}}, true, scenario.AtCheckpoint},
		{"N=3 {1,0,2} reconfigure", 3, scenario.Policy{Kind: scenario.Explicit, Explicit: []int{1, 0, 2}}, false, scenario.AtCheckpoint},
	} {
		sys := scenario.System{Processors: tc.n, MTTF: 5000, MTTR: 1500}
		sc := mustScenario(t, sys, app(tc.n, tc.byOld), tc.pol)
		sc.Reconfigure = tc.reconf
		if sc.Application.Recovery.DependsOnOld() != tc.byOld {
			t.Fatalf("%s: recovery depends on old = %v", tc.name, !tc.byOld)
		}
		for _, interval := range []float64{300, 2000, 20000} {
			want := handChain(t, sc, interval)
			if tc.reconf != scenario.Never {
				// The option must change the chain, or the case tests nothing.
				paper := *sc
				paper.Reconfigure = scenario.Never
				if u := handChain(t, &paper, interval); math.Abs(u-want) < 1e-6*want {
					t.Errorf("%s, I = %v: the hand-built chain gives %.10g with and without reconfiguration", tc.name, interval, want)
				}
			}
			for _, set := range []*Settings{{Exact: true}, nil, {Exact: true, Prune: -1}, {Prune: -1}} {
				got := evaluate(t, sc, set, interval).UWT
				if d := math.Abs(got-want) / want; d > 1e-12 {
					t.Errorf("%s, I = %v, %s: UWT %.16g, hand-built chain %.16g (rel %.2g)", tc.name, interval, settingsName(set), got, want, d)
				}
			}
		}
	}
}

func settingsName(s *Settings) string {
	if s == nil {
		return "defaults"
	}
	return fmt.Sprintf("exact=%v prune=%v", s.Exact, s.Prune)
}
