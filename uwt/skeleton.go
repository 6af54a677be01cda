package uwt

import (
	"context"
	"fmt"
	"math"
)

// skeleton is the I-independent part of the model over a window [lo, hi]
// of functional counts: the states, where each transition lands, and the
// rows of the recovery and down states (whose lengths do not involve I).
type skeleton struct {
	n, lo, hi int
	states    []State
	index     map[State]int
	start     int // where reachability starts (see newSkeleton)

	// upJobs has one job per used count a: the rows of the up states U(a, ·).
	upJobs []*job
	// fixedJobs has one job per (p, a) of the recovery states.
	fixedJobs []*job
	// rowOf[i] locates the spare-chain row of up or recovery state i.
	rowOf []rowRef
	// down[i] holds the transitions of down state i (−1: out of the window).
	down map[int][]transition
}

// job is a block of rows [s0, s1) of P_T and Q_T(ρ) of the spare chain
// with m = N − a other processors, for up states (T = I + L(a)) or for
// the recovery states R(p, ·) on a processors (T = R(p, a) + L(a)).
type job struct {
	a, p   int // used count; checkpoint count carried by a failure
	m      int
	s0, s1 int
	up     bool
	t      float64 // segment length (recovery jobs; up jobs set it per I)
	rho    float64 // aλ
	blk    *block
	// upTo[s'] and failTo[s'] are the states reached at spare count s'
	// (−1 when outside the window).
	upTo, failTo []int32
}

type rowRef struct {
	j *job
	s int
}

type transition struct {
	to int
	p  float64
}

func newSkeleton(m *Model, lo, hi int) (*skeleton, error) {
	sc := m.sc
	n := sc.N()
	r := sc.Reschedule
	rOf := func(k int) int {
		if k <= 0 {
			return 0
		}
		return r.At(k)
	}
	sk := &skeleton{n: n, lo: lo, hi: hi, index: make(map[State]int), down: make(map[int][]transition)}
	add := func(s State) {
		if _, ok := sk.index[s]; !ok {
			sk.index[s] = len(sk.states)
			sk.states = append(sk.states, s)
		}
	}
	// Used counts that can occur: r(n) for functional counts in the window,
	// and the start's r(N).
	start := State{Kind: Up, A: r.At(n), S: n - r.At(n)}
	used := map[int]bool{}
	if start.A > 0 {
		used[start.A] = true
	}
	for k := lo; k <= hi; k++ {
		if a := rOf(k); a > 0 {
			used[a] = true
		}
	}
	var as []int
	for a := 1; a <= n; a++ {
		if used[a] {
			as = append(as, a)
		}
	}
	// Estimate the size first, so a hopeless exact solve fails early.
	est := 0
	for _, a := range as {
		est += min(n-a, hi-a) - max(0, lo-a) + 1
	}
	olds := []int{0}
	if m.byOld {
		olds = as
	}
	est += (hi - lo + 1) * len(olds)
	if est > m.set.MaxStates {
		return nil, fmt.Errorf("uwt: the model needs about %d states, more than Settings.MaxStates = %d", est, m.set.MaxStates)
	}
	// The start state U(r(N), N − r(N)) is transient unless the window
	// reaches N; outside the window its mass would all leave it, so the
	// chain is then entered at the window state nearest the most likely
	// functional count instead (the recurrent class is the same).
	if hi == n && start.A > 0 {
		add(start)
	}
	for _, a := range as {
		for s := max(0, lo-a); s <= min(n-a, hi-a); s++ {
			add(State{Kind: Up, A: a, S: s})
		}
	}
	for _, p := range olds {
		for k := lo; k <= hi; k++ {
			if rOf(k) > 0 {
				add(State{Kind: Recovery, P: p, N: k})
			} else {
				add(State{Kind: Down, P: p, N: k})
			}
		}
	}
	switch {
	case hi == n && start.A == 0:
		// r(N) = 0: the application starts down, waiting for a count it
		// can run on; p is a placeholder, there being nothing to restore.
		p := 0
		if m.byOld {
			p = as[len(as)-1]
		}
		sk.start = sk.index[State{Kind: Down, P: p, N: n}]
	case hi < n:
		dist := func(i int) int { return abs(sk.states[i].Functional() - m.mode) }
		best := -1
		for i, st := range sk.states {
			if best < 0 || dist(i) < dist(best) ||
				(dist(i) == dist(best) && st.Kind == Up && sk.states[best].Kind != Up) {
				best = i
			}
		}
		if best < 0 {
			return nil, fmt.Errorf("uwt: empty window of functional counts [%d, %d]", lo, hi)
		}
		sk.start = best
	}
	sk.rowOf = make([]rowRef, len(sk.states))

	// failTarget is the state entered when a failure leaves k functional,
	// carrying a checkpoint written on p.
	failTarget := func(p, k int) int32 {
		if !m.byOld {
			p = 0
		}
		kind := Recovery
		if rOf(k) == 0 {
			kind = Down
		}
		if i, ok := sk.index[State{Kind: kind, P: p, N: k}]; ok {
			return int32(i)
		}
		return -1
	}
	newJob := func(a, p int, up bool) *job {
		mm := n - a
		j := &job{a: a, p: p, m: mm, up: up, rho: float64(a) * m.lambda,
			s0: mm + 1, s1: 0, upTo: make([]int32, mm+1), failTo: make([]int32, mm+1)}
		for s := 0; s <= mm; s++ {
			j.upTo[s] = -1
			if i, ok := sk.index[State{Kind: Up, A: a, S: s}]; ok {
				j.upTo[s] = int32(i)
			}
			j.failTo[s] = failTarget(p, a-1+s)
		}
		return j
	}
	upJob := map[int]*job{}
	fixedJob := map[[2]int]*job{}
	for i, st := range sk.states {
		var j *job
		var s int
		switch st.Kind {
		case Up:
			j = upJob[st.A]
			if j == nil {
				j = newJob(st.A, st.A, true)
				upJob[st.A] = j
				sk.upJobs = append(sk.upJobs, j)
			}
			s = st.S
		case Recovery:
			a := r.At(st.N)
			key := [2]int{st.P, a}
			j = fixedJob[key]
			if j == nil {
				j = newJob(a, st.P, false)
				pOld := st.P
				if pOld == 0 {
					pOld = a // any p: the cost does not depend on it
				}
				j.t = sc.Application.Recovery.Cost(pOld, a) + sc.Application.Latency[a-1]
				fixedJob[key] = j
				sk.fixedJobs = append(sk.fixedJobs, j)
			}
			s = st.N - a
		case Down:
			sk.down[i] = sk.downRow(m, st, rOf)
			continue
		}
		j.s0, j.s1 = min(j.s0, s), max(j.s1, s+1)
		sk.rowOf[i] = rowRef{j: j, s: s}
	}
	return sk, nil
}

// downRow returns the transitions of D(p, k): one more failure or one more
// repair, whichever comes first.
func (sk *skeleton) downRow(m *Model, st State, rOf func(int) int) []transition {
	k, n := st.N, sk.n
	fail, repair := float64(k)*m.lambda, float64(n-k)*m.theta
	var out []transition
	for _, step := range []struct {
		to int
		p  float64
	}{{k - 1, fail / (fail + repair)}, {k + 1, repair / (fail + repair)}} {
		if step.p == 0 {
			continue
		}
		kind := Recovery
		if rOf(step.to) == 0 {
			kind = Down
		}
		to, ok := sk.index[State{Kind: kind, P: st.P, N: step.to}]
		if !ok {
			to = -1
		}
		out = append(out, transition{to: to, p: step.p})
	}
	return out
}

// computeFixedRows computes the rows of the recovery states, which do not
// depend on the interval.
func (sk *skeleton) computeFixedRows(ctx context.Context, m *Model) error {
	return m.runJobs(ctx, sk.fixedJobs)
}

// upLength returns T_U(a) = I + L(a).
func (m *Model) upLength(a int, interval float64) float64 {
	return interval + m.sc.Application.Latency[a-1]
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// sojourn returns the expected time in a segment of length t on a used
// processors that ends at the first failure: (1 − e^{−ρt})/ρ, ρ = aλ.
func sojourn(rho, t float64) float64 {
	if rho == 0 {
		return t
	}
	return -math.Expm1(-rho*t) / rho
}
