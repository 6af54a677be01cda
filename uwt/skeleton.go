package uwt

import (
	"fmt"
	"math"
)

// How the package is organised (for those who extend it).
//
// The states of a window (skeleton.go) are enumerated once; every up or
// recovery state takes its row from a segment, the package's one row
// type: rows of P_T and Q_T of the spare chain for a used, m = N − a
// spare processors and a segment length T, with the state each column
// leads to. The decision states R(p, n) and D(p, n), where the
// rescheduling vector acts, are built by skeleton.decision. Spare chains
// (and their eigendecompositions) are cached once per Model (rows.go).
// Each evaluation (evaluate.go) fills the up segments' rows for T = I +
// L(a), assembles the transitions and rewards, prunes, restricts to the
// states reachable from the start, solves for π and computes the rewards;
// the chain of up phases (doc.go) has no up segments, its recovery
// segments hold rows of the resolvent (with failure events: the
// recovery's rows and the up phase's exit law, batchchain.Phase.Exit),
// and it is solved once per window (Model.solved), each interval
// recomputing the rewards only (with failure events by
// batchchain.Segments, eventRewards);
// Model.window and Model.widen give the fast path's window of functional
// counts. The buffers of an evaluation persist in the Model and are
// reused by the next: the assembly (its COO arrays hold the solved chain
// in place), the segments' row slices, birthdeath's pooled workspaces,
// and the solver's ILU(0) factors (Model.pc). A segment's row s covers
// the columns lo[k] .. lo[k]+len(pt[k])−1 only (its window), which
// depends on T: the chain's pattern is rebuilt at every interval, in
// column order so that no sort is needed. Sizes are estimated and capped
// before a skeleton is built (checkSize, estimateSize).

// skeleton is the I-independent part of the model over a window [lo, hi]
// of functional counts: the states, the segments their rows come from,
// and the targets of the down states.
type skeleton struct {
	n, lo, hi int
	states    []State
	index     map[State]int
	// The decision states are states[decBase:], by position of p (oldPos[p],
	// nil when p is not kept) and then functional count lo..hi.
	decBase int
	oldPos  []int32
	// olds are the old counts the states keep, by position: the used
	// counts, or with old-count bins (Settings.OldCountBin) the bins'
	// representatives; oldPos maps every used count to its bin's position.
	olds  []int
	bins  [][]int // the used counts of each bin, by position
	start int     // where reachability starts (see startState)

	// up has one segment per used count a (the states U(a, ·)); their rows
	// are recomputed for every interval. fixed has one segment per (p, a)
	// of the recovery states, computed once.
	up, fixed []*segment
	// segOf[i] is the segment that holds the row of up or recovery state
	// i, nil for a down state.
	segOf []*segment
	// down[i] holds the targets of down state i after one failure and one
	// repair (−1: outside the window).
	down map[int][2]int32
	// failNs are the segments' failN by the old count the decision
	// states keep (failTargets; failure events only).
	failNs map[int][]int32
}

// segment is the row type of the model: rows s0..s1−1 of P_T and Q_T of
// the spare chain with m = N − a other processors, for a used processors
// over a segment of length T, together with the state each column leads
// to. It serves the up states U(a, s) (T = I + L(a), set per interval) or
// the recovery states R(p, a + s) (T = R(p, a) + L(a)); the row of such a
// state is row s.
type segment struct {
	a, p, m int  // used count; checkpoint count a failure carries; N − a
	up      bool // up states (T depends on I) or recovery states
	// phase: the recovery and the up phase after it (doc.go, "Up
	// phases"). Row s of qt is then that of the resolvent ρ(ρI − G_m)⁻¹,
	// the spare count at the next failure, wherever it comes; when that
	// failure's checkpoint count depends on where (recovery costs R(p, a)
	// with p ≠ a), qt holds Q_T of the recovery (failures to failTo) and
	// pt the rest (failures in the up phase, to failUp).
	phase  bool
	failUp targets
	t, rho float64 // segment length T and the used processors' failure rate aλ
	s0, s1 int     // the rows the states need
	// upTo[s'] and failTo[s'] are the states reached at spare count s'
	// without and with a failure (−1 when outside the window).
	upTo, failTo targets
	// With failure events only (nil otherwise): failN[n'] is the state
	// reached when an interruption leaves n' functional; row s0+k of Q_T
	// starts at the functional count qlo[k]; P_T holds the survival, whose
	// row sum is surv[k]; tau[k] is the row's expected sojourn.
	failN     []int32
	qlo       []int
	surv, tau []float64
	// With failure events on the chain of up phases: upQ[k] is the law of
	// the functional count the interruption of the up phase leaves (from
	// upQlo[k]), whose decision states are failUpN's (nil: failN's, the
	// old count not mattering); tau[k] includes the up phase's sojourn.
	failUpN []int32
	upQlo   []int
	upQ     [][]float64
	// lo[k], pt[k], qt[k]: row s0+k of P_T and Q_T on the columns
	// lo[k] .. lo[k]+len(pt[k])−1 (zero, below the row tolerance, elsewhere).
	lo     []int
	pt, qt [][]float64
}

// row returns row s of P_T and Q_T and the column of their first entry.
func (g *segment) row(s int) (lo int, p, q []float64) {
	k := s - g.s0
	return g.lo[k], g.pt[k], g.qt[k]
}

// rOf is the policy's action in X(p, k) (scenario.Scenario.Rule: r(k)
// for a vector; p = 0, the default row, where the states do not keep
// p), with 0 for k ≤ 0 (nothing runs on no processor) and for k > N (no
// such state).
func (m *Model) rOf(p, k int) int {
	if k <= 0 || k > m.sc.N() {
		return 0
	}
	return m.rule.Action(p, k)
}

// usedCounts returns the used counts that can occur in the window, in
// increasing order: r(k) for k in [lo, hi], and the start's r(N).
func (m *Model) usedCounts(lo, hi int) []int {
	n := m.sc.N()
	used := make([]bool, n+1)
	used[m.rOf(0, n)] = true
	// A decision table's rows: every count some row runs on in the window.
	ps := []int{0}
	if m.sc.Table != nil {
		ps = append(ps, m.sc.Table.Olds()...)
	}
	for _, p := range ps {
		for k := lo; k <= hi; k++ {
			used[m.rOf(p, k)] = true
		}
	}
	var as []int
	for a := 1; a <= n; a++ {
		if used[a] {
			as = append(as, a)
		}
	}
	return as
}

// oldBins returns the values p of the recovery and down states, in bins:
// each used count alone when the recovery cost depends on p, else the
// placeholder 0. With old-count bins (m.bin > 1) the used counts of the
// window [lo, hi] are grouped into runs of m.bin consecutive ones (doc.go,
// "Old-count bins"); the start's r(N), when no count of the window uses
// it and it is the largest, keeps a bin of its own, so that a count the
// window never reaches does not move the bins' costs.
func (m *Model) oldBins(as []int, lo, hi int) [][]int {
	if !m.byOld {
		return [][]int{{0}}
	}
	bins := make([][]int, 0, len(as))
	if m.bin <= 1 {
		for j := range as {
			bins = append(bins, as[j:j+1])
		}
		return bins
	}
	win, extra := as, []int(nil)
	if last := as[len(as)-1]; last == m.rOf(0, m.sc.N()) && !m.windowUses(last, lo, hi) {
		win, extra = as[:len(as)-1], as[len(as)-1:]
	}
	// With a shift (the comparison model of Result.BinError) the first
	// bin holds binShift counts, so that the boundaries fall between the
	// unshifted ones.
	for j := 0; j < len(win); {
		w := m.bin
		if j == 0 && m.binShift > 0 {
			w = m.binShift
		}
		bins = append(bins, win[j:min(j+w, len(win))])
		j += w
	}
	if extra != nil {
		bins = append(bins, extra)
	}
	return bins
}

// windowUses reports whether r(k) = a for some k in [lo, hi].
func (m *Model) windowUses(a, lo, hi int) bool {
	for k := lo; k <= hi; k++ {
		if m.rOf(0, k) == a {
			return true
		}
	}
	return false
}

// oldCounts returns the old counts the states keep, one per bin of
// oldBins: the bin's middle count (its representative).
func (m *Model) oldCounts(as []int, lo, hi int) []int {
	bins := m.oldBins(as, lo, hi)
	reps := make([]int, len(bins))
	for j, b := range bins {
		reps[j] = b[len(b)/2]
	}
	return reps
}

// rep returns the old count the states keep for the checkpoint count p:
// p itself, or with old-count bins the representative of p's bin (p
// itself when p is no used count of the window, which then has no
// decision state).
func (sk *skeleton) rep(p int) int {
	if sk.oldPos == nil || p < 0 || p >= len(sk.oldPos) || sk.oldPos[p] < 0 {
		return p
	}
	return sk.olds[sk.oldPos[p]]
}

func newSkeleton(m *Model, lo, hi int) (*skeleton, error) {
	as := m.usedCounts(lo, hi)
	if err := m.checkSize(as, lo, hi); err != nil {
		return nil, err
	}
	sk := &skeleton{n: m.sc.N(), lo: lo, hi: hi, index: make(map[State]int), down: make(map[int][2]int32)}
	sk.enumerate(m, as)
	start, err := sk.startState(m, as)
	if err != nil {
		return nil, err
	}
	sk.start = start
	sk.assignSegments(m)
	return sk, nil
}

// bytesPerTransition and baseBytes make the memory estimate of checkSize
// an upper bound: baseBytes + bytesPerTransition × the bound on the
// transitions bounds the memory a process evaluating one interval
// obtains from the system, with the default GOGC (the garbage of one
// assembly is collected while the next grows). A transition holds its
// value in the segment's rows (8 bytes for P or Q), the assembly (row,
// column, value, kept: 25), the chain's generator and its ILU(0) factors
// (12 + 8) and the restricted copy the solver may make (12): 65 bytes;
// the collector's headroom and the rows' slack take the rest. Measured
// peak resident sizes of markov uwt --exact -i 1h (/usr/bin/time -v;
// BENCHMARKS.md): 204 MB at N = 96 (bound 1.49e6 transitions), 1.20 GB at
// N = 192 (1.19e7), 2.27 GB at N = 256 (2.81e7), 6.6–6.8 GB at N = 340–390
// (6.6e7–1e8): at most 64 MB + 110 bytes per transition, which is the
// estimate (TestSizeEstimateBoundsMemory). It was 65 bytes and no base,
// 16–50 % low.
const (
	bytesPerTransition = 110
	baseBytes          = 64 << 20
)

// checkSize estimates the number of states and transitions before
// building any, so that a model that cannot fit in memory fails early
// with an error instead of running out of it. The transitions are bounded
// above: every row of an up or recovery state has at most two transitions
// per column of its spare chain that leads into the window.
func (m *Model) checkSize(as []int, lo, hi int) error {
	n := m.sc.N()
	// The states first, in closed form, so that the transitions are
	// estimated state by state only for a model of bounded size.
	states := (hi - lo + 1) * len(m.oldBins(as, lo, hi))
	for _, a := range as {
		if !m.phase {
			states += max(min(n-a, hi-a)-max(0, lo-a)+1, 0)
		}
	}
	var trans float64
	if _, ok := m.oneClass(lo, hi); ok {
		return nil // the decision states only, and no rows (doc.go)
	}
	if states <= m.set.MaxStates {
		states, trans = m.estimateSize(as, lo, hi)
	}
	if states > m.set.MaxStates || trans > float64(m.set.MaxTransitions) {
		return &SizeError{N: n, Exact: m.set.Exact, States: states, Transitions: trans,
			MaxStates: m.set.MaxStates, MaxTransitions: m.set.MaxTransitions}
	}
	return nil
}

// SizeError is the error New (or a widening of the fast path's window)
// returns when the model would exceed Settings.MaxStates or
// Settings.MaxTransitions: it carries the estimates, so that a front end
// can phrase the advice in its own terms.
type SizeError struct {
	// N is the number of processors; Exact tells which path was asked.
	N     int
	Exact bool
	// States is the estimated number of states; Transitions an upper
	// bound on the transitions (0 when the states alone were too many
	// for the transitions to be estimated).
	States      int
	Transitions float64
	// MaxStates and MaxTransitions are the caps in force.
	MaxStates, MaxTransitions int
}

// Bytes estimates the memory the model would take while an interval is
// evaluated.
func (e *SizeError) Bytes() float64 { return baseBytes + e.Transitions*bytesPerTransition }

func (e *SizeError) Error() string {
	path := "fast path"
	if e.Exact {
		path = "exact path (Settings.Exact, every functional count 0..N)"
	}
	if e.States > e.MaxStates {
		return fmt.Sprintf("uwt: the %s for N = %d processors needs about %d states, more than Settings.MaxStates = %d",
			path, e.N, e.States, e.MaxStates)
	}
	return fmt.Sprintf("uwt: the %s for N = %d processors needs up to %.3g transitions (about %.3g GB), more than Settings.MaxTransitions = %d",
		path, e.N, e.Transitions, e.Bytes()/1e9, e.MaxTransitions)
}

// estimateSize returns the number of states of the window [lo, hi] with
// used counts as (the start state aside) and an upper bound on its
// transitions: two per column a state's row keeps. On the exact path a
// row keeps every column that leads into the window. On the fast path it
// also keeps at most the columns within h = √(m/2 · ln(4/rowTol)) of the
// range its mean sweeps, from s towards the stationary mean mπ: the spare
// count is a sum of m independent indicators, so by Hoeffding's
// inequality each tail beyond h carries less than rowTol/4, and the row
// is trimmed to all but rowTol of its mass. With failure events (batch
// failures, not independent) only the window bounds a row.
func (m *Model) estimateSize(as []int, lo, hi int) (states int, trans float64) {
	n := m.sc.N()
	pi := m.theta / (m.lambda + m.theta)
	// cols(a, s) bounds the columns kept by row s of the spare chain of a:
	// spare counts s' whose states U(a, s') or decision states of
	// a − 1 + s' functional lie in the window.
	cols := func(a, s int) float64 {
		c := float64(max(min(n-a, hi-a+1)-max(0, lo-a)+1, 0))
		if m.set.Exact || m.events != nil {
			// Failure events make the spare counts dependent: no
			// Hoeffding bound, the window bounds the row.
			return c
		}
		mm := float64(n - a)
		h := math.Sqrt(mm / 2 * math.Log(4/rowTol))
		return math.Min(c, math.Abs(float64(s)-mm*pi)+2*h+2)
	}
	// row(a, s) bounds the transitions of row s: P's columns and Q's;
	// with failure events an interruption may leave any functional count
	// of the window, so Q is bounded by the window.
	row := func(a, s int) float64 {
		if m.events != nil && m.phase {
			// The recovery's interruptions and the up phase's.
			return 2 * float64(hi-lo+1)
		}
		if m.events != nil {
			return cols(a, s) + float64(hi-lo+1)
		}
		return 2 * cols(a, s)
	}
	olds := len(m.oldBins(as, lo, hi))
	for _, a := range as {
		if m.phase {
			break // no up states
		}
		for s := max(0, lo-a); s <= min(n-a, hi-a); s++ {
			states++
			trans += row(a, s)
		}
	}
	states += (hi - lo + 1) * olds
	for k := lo; k <= hi; k++ {
		if a := m.rOf(0, k); a > 0 {
			trans += float64(olds) * row(a, k-a)
		} else if m.events != nil {
			trans += float64(olds) * float64(len(m.events.sizes)+1) // one per event size, one repair
		} else {
			trans += 2 * float64(olds)
		}
	}
	return states, trans
}

func (sk *skeleton) add(s State) {
	if _, ok := sk.index[s]; !ok {
		sk.index[s] = len(sk.states)
		sk.states = append(sk.states, s)
	}
}

// enumerate adds the states of the window: the start state U(r(N),
// N − r(N)) when the window reaches N, then U(a, s) for every used count,
// then R(p, k) or D(p, k) for every functional count (docs/model.md §4).
// The start state is transient unless the window reaches N; outside the
// window its mass would all leave it, so it is then left out.
func (sk *skeleton) enumerate(m *Model, as []int) {
	n := sk.n
	// Up phases: a recovery state stands for the recovery and the up
	// phase after it (doc.go), so there are no up states.
	if !m.phase {
		if a := m.rOf(0, n); sk.hi == n && a > 0 {
			sk.add(State{Kind: Up, A: a, S: n - a})
		}
		for _, a := range as {
			for s := max(0, sk.lo-a); s <= min(n-a, sk.hi-a); s++ {
				sk.add(State{Kind: Up, A: a, S: s})
			}
		}
	}
	// The decision states come last, in one block ordered by p and then
	// k, so that target finds them by arithmetic.
	sk.decBase = len(sk.states)
	bins := m.oldBins(as, sk.lo, sk.hi)
	olds := m.oldCounts(as, sk.lo, sk.hi)
	if m.byOld {
		sk.oldPos = make([]int32, n+1)
		for i := range sk.oldPos {
			sk.oldPos[i] = -1
		}
		for j, b := range bins {
			for _, a := range b {
				sk.oldPos[a] = int32(j)
			}
		}
	}
	sk.olds, sk.bins = olds, bins
	for _, p := range olds {
		for k := sk.lo; k <= sk.hi; k++ {
			sk.add(sk.decision(m, p, k))
		}
	}
}

// decision returns the decision state entered when k processors are
// functional after a failure, with the last checkpoint written on p
// (p = 0 when the recovery cost does not depend on it): R(p, k), which
// recovers on r(k) processors, or D(p, k) when r(k) = 0. It is where the
// rescheduling vector acts. With old-count bins p becomes its bin's
// representative.
func (sk *skeleton) decision(m *Model, p, k int) State {
	if !m.byOld {
		p = 0
	} else {
		p = sk.rep(p)
	}
	if m.rOf(p, k) == 0 {
		return State{Kind: Down, P: p, N: k}
	}
	return State{Kind: Recovery, P: p, N: k}
}

// entry returns the state entered at a checkpoint (a committed up segment
// or the end of a recovery) on a processors with s functional spares:
// U(a, s), or, when the application reconfigures at checkpoints
// (scenario.AtCheckpoint) and r(a + s) ∉ {0, a}, the recovery R(a, a + s)
// onto r(a + s) from the checkpoint just written on a.
func (sk *skeleton) entry(m *Model, a, s int) State {
	if m.sc.Reconfigure.TargetOf(m.rule, a, a+s) != a {
		return sk.decision(m, a, a+s)
	}
	return State{Kind: Up, A: a, S: s}
}

// target returns the index of state s, or −1 when it is outside the window.
func (sk *skeleton) target(s State) int32 {
	if s.Kind != Up {
		return sk.decisionIndex(s.P, s.N)
	}
	if i, ok := sk.index[s]; ok {
		return int32(i)
	}
	return -1
}

// decisionIndex returns the index of the decision state with old count p
// (ignored unless the states keep it) and functional count k, or −1 when
// it is outside the window: the block of decision states (enumerate) is
// ordered by the position of p, then by k.
func (sk *skeleton) decisionIndex(p, k int) int32 {
	if k < sk.lo || k > sk.hi {
		return -1
	}
	pos := int32(0)
	if sk.oldPos != nil {
		if p < 0 || p >= len(sk.oldPos) || sk.oldPos[p] < 0 {
			return -1
		}
		pos = sk.oldPos[p]
	}
	return int32(sk.decBase) + pos*int32(sk.hi-sk.lo+1) + int32(k-sk.lo)
}

// startState returns where reachability starts: the start state of
// docs/model.md §4 when the window reaches N (D(N) when r(N) = 0, with p
// a placeholder, there being nothing to restore), else the window state
// nearest the most likely functional count, preferring an up state (the
// recurrent class is the same).
func (sk *skeleton) startState(m *Model, as []int) (int, error) {
	n := sk.n
	switch {
	case m.phase:
		// No up state: start from the decision state nearest the mode
		// (the recurrent class is the same).
	case sk.hi == n && m.rOf(0, n) > 0:
		return sk.index[State{Kind: Up, A: m.rOf(0, n), S: n - m.rOf(0, n)}], nil
	case sk.hi == n:
		p := 0
		if m.byOld {
			p = as[len(as)-1]
		}
		return sk.index[sk.decision(m, p, n)], nil
	}
	dist := func(i int) int { return abs(sk.states[i].Functional() - m.mode) }
	best := -1
	for i, st := range sk.states {
		if best < 0 || dist(i) < dist(best) ||
			(dist(i) == dist(best) && st.Kind == Up && sk.states[best].Kind != Up) {
			best = i
		}
	}
	if best < 0 {
		return 0, fmt.Errorf("uwt: empty window of functional counts [%d, %d]", sk.lo, sk.hi)
	}
	return best, nil
}

// assignSegments gives every up and recovery state the segment that holds
// its row, and every down state its two targets.
func (sk *skeleton) assignSegments(m *Model) {
	sk.segOf = make([]*segment, len(sk.states))
	upSeg := map[int]*segment{}
	fixedSeg := map[[2]int]*segment{}
	for i, st := range sk.states {
		var g *segment
		var s int
		switch st.Kind {
		case Up:
			if g = upSeg[st.A]; g == nil {
				g = sk.newSegment(m, st.A, st.A, true)
				upSeg[st.A] = g
				sk.up = append(sk.up, g)
			}
			s = st.S
		case Recovery:
			a := m.rOf(st.P, st.N)
			if g = fixedSeg[[2]int{st.P, a}]; g == nil {
				g = sk.newSegment(m, a, st.P, false)
				fixedSeg[[2]int{st.P, a}] = g
				sk.fixed = append(sk.fixed, g)
			}
			s = st.N - a
		case Down:
			sk.down[i] = [2]int32{sk.target(sk.decision(m, st.P, st.N-1)), sk.target(sk.decision(m, st.P, st.N+1))}
			continue
		}
		g.s0, g.s1 = min(g.s0, s), max(g.s1, s+1)
		sk.segOf[i] = g
	}
}

// newSegment returns the segment of a used processors whose failures carry
// a checkpoint on p, with its targets and no rows yet. Recovery segments
// get their length R(p, a) + L(a) here; up segments get I + L(a) per
// evaluation.
func (sk *skeleton) newSegment(m *Model, a, p int, up bool) *segment {
	mm := sk.n - a
	g := &segment{a: a, p: p, m: mm, up: up, rho: float64(a) * m.lambda, s0: mm + 1, s1: 0}
	// Only the spare counts whose states lie in the window have targets:
	// a + s (a checkpoint) or a − 1 + s (a failure) in [lo, hi].
	// A failure leads to a decision state, found by arithmetic; the
	// chain of up phases has no checkpoint transitions.
	if !m.phase {
		lo, hi := max(0, sk.lo-a), min(mm, sk.hi-a)
		g.upTo = sk.targets(lo, hi, func(s int) State { return sk.entry(m, a, s) })
	}
	g.failTo = targets{sk: sk, p: p, shift: a - 1}
	g.phase = m.phase
	if m.phase && m.byOld && sk.rep(p) != sk.rep(a) {
		g.failUp = targets{sk: sk, p: a, shift: a - 1}
	}
	if m.events != nil {
		g.failN = sk.failTargets(m, p)
		if g.failUp.sk != nil {
			g.failUpN = sk.failTargets(m, a)
		}
	}
	if !up {
		pOld := p
		if pOld == 0 {
			pOld = a // any p: the cost does not depend on it
		}
		app := m.sc.Application
		g.t = sk.recoveryCost(m, pOld, a) + app.Latency[a-1]
	}
	return g
}

// failTargets returns, with failure events, the index of the decision
// state that a failure carrying a checkpoint on p leads to, by the
// functional count k it leaves (−1 outside the window): one slice per
// old count that the decision states keep (decision), shared read-only
// by the segments.
func (sk *skeleton) failTargets(m *Model, p int) []int32 {
	key := 0
	if m.byOld {
		key = sk.rep(p)
	}
	if to, ok := sk.failNs[key]; ok {
		return to
	}
	to := make([]int32, sk.n)
	for k := range sk.n {
		to[k] = sk.target(sk.decision(m, p, k))
	}
	if sk.failNs == nil {
		sk.failNs = map[int][]int32{}
	}
	sk.failNs[key] = to
	return to
}

// recoveryCost returns R(p, a), or with old-count bins the mean of R(q, a)
// over the used counts q of p's bin (doc.go, "Old-count bins": the middle
// count's cost would bias every bin of an even number of counts by half a
// count, which the comparison with wider bins cannot see).
func (sk *skeleton) recoveryCost(m *Model, p, a int) float64 {
	rec := m.sc.Application.Recovery
	if m.bin <= 1 || !m.byOld || p < 0 || p >= len(sk.oldPos) || sk.oldPos[p] < 0 {
		return rec.Cost(p, a)
	}
	b := sk.bins[sk.oldPos[p]]
	var sum float64
	for _, q := range b {
		sum += rec.Cost(q, a)
	}
	return sum / float64(len(b))
}

// targets maps the spare counts s of a segment's columns to the states
// they lead to: either listed, to[s − off] (−1, outside the window,
// beyond them), or, when sk is set, the decision state of old count p and
// functional count shift + s.
type targets struct {
	off int
	to  []int32

	sk       *skeleton
	p, shift int
}

// at returns the state that spare count s leads to, or −1.
func (t targets) at(s int) int32 {
	if t.sk != nil {
		return t.sk.decisionIndex(t.p, t.shift+s)
	}
	if k := s - t.off; k >= 0 && k < len(t.to) {
		return t.to[k]
	}
	return -1
}

// targets returns the targets of the spare counts [lo, hi] (empty when
// hi < lo), the state of s being state(s).
func (sk *skeleton) targets(lo, hi int, state func(s int) State) targets {
	t := targets{off: lo, to: make([]int32, max(hi-lo+1, 0))}
	for k := range t.to {
		t.to[k] = sk.target(state(lo + k))
	}
	return t
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
