package uwt

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"
	"sync/atomic"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/ckpt-markov/markov/batchchain"
	"github.com/ckpt-markov/markov/scenario"
)

// events is the failure-event law of a scenario with batch failures
// (docs/model.md, section 11); a Model holds nil for single failures, and
// then every computation is the single-failure one, bit for bit.
type events struct {
	rate  float64   // λ/E[K], per functional processor
	sizes []float64 // normalised law of K
}

// forceBatch makes single-failure scenarios take the batch code path
// (sizes [1]), so that tests can hold it against the closed form.
var forceBatch = false

// nameMTTF returns err, an error of the up phases' sequences
// (batchchain.MaxSegmentsProducts, batchchain.MaxRowProducts), as a
// *scenario.Error naming system.mttf: the failures are then too rare
// (or too frequent) against the repairs for the model's uniformization.
// A cancelled context is returned as it is.
func nameMTTF(err error) error {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return &scenario.Error{Field: "system.mttf", Problem: fmt.Sprintf("the model with failure events cannot be computed: %v (system.mttr and system.failure_events set the other rates; the sequences' budget is Settings.MaxTransitions numbers, --max-memory)", err)}
}

func newEvents(sys scenario.System) *events {
	if sys.FailureEvents.Single() {
		if forceBatch {
			return &events{rate: sys.Lambda(), sizes: []float64{1}}
		}
		return nil
	}
	return &events{rate: sys.EventRate(), sizes: sys.FailureEvents.Law()}
}

// batchChains is the cache of the batch spare chains, by used count a
// (package batchchain), beside spareChains' birth–death chains. It is
// safe for concurrent use.
type batchChains struct {
	n             int
	lambda, theta float64
	sizes         []float64
	chains        sync.Map // a → *batchchain.Chain
	phases        sync.Map // a → *batchchain.Phase
	// bases holds the part of each up phase's sequence that does not
	// depend on its start (batchchain.SegmentsBase), and pending the
	// number of segments of each used count that fillAll has still to
	// fill: once a count's last segment is filled, its base is kept and
	// its chain and phase, whose rate tables are the bulk of the model's
	// memory, are released (built again if needed later).
	bases   sync.Map // a → *batchchain.SegmentsBase
	pending sync.Map // a → *atomic.Int32
}

// expect records the segments of the chain of up phases that fillAll is
// about to fill (see pending), forgetting the counts of an earlier fill
// that stopped on an error.
func (b *batchChains) expect(segs []*segment) {
	b.pending.Clear()
	for _, g := range segs {
		if g.phase {
			n, _ := b.pending.LoadOrStore(g.a, new(atomic.Int32))
			n.(*atomic.Int32).Add(1)
		}
	}
}

// filled counts a filled segment of the chain of up phases on a, its
// phase ph; after the last one it keeps the base of the up phase's
// sequence, forgets the chain and the phase and releases the phase's
// tables for the next phase built.
func (b *batchChains) filled(a int, ph *batchchain.Phase) {
	n, ok := b.pending.Load(a)
	if !ok || n.(*atomic.Int32).Add(-1) > 0 {
		return
	}
	b.pending.Delete(a)
	b.keepBase(a, ph)
	b.phases.Delete(a)
	b.chains.Delete(a)
	// Every segment of a is filled (every segment of a model of up
	// phases is one of them) and the base holds none of the phase's
	// tables: the next count's phase takes them (batchchain.Phase.Release).
	ph.Release()
}

// segmentsBase returns the base of the sequence of the up phase on a
// (batchchain.SegmentsBase at the rate rateGrid(Phase.Rate)): the one
// kept by filled, or one built from the phase.
func (b *batchChains) segmentsBase(a int) (*batchchain.SegmentsBase, error) {
	if sb, ok := b.bases.Load(a); ok {
		return sb.(*batchchain.SegmentsBase), nil
	}
	ph, err := b.phase(a)
	if err != nil {
		return nil, err
	}
	return b.keepBase(a, ph), nil
}

// keepBase builds the base of the sequence of ph, the up phase on a, at
// the rate rateGrid(Phase.Rate), and returns the one kept for a (this
// one unless another was kept first).
func (b *batchChains) keepBase(a int, ph *batchchain.Phase) *batchchain.SegmentsBase {
	sb, _ := b.bases.LoadOrStore(a, ph.SegmentsBase(rateGrid(ph.Rate())))
	return sb.(*batchchain.SegmentsBase)
}

// phase returns the up phase of the chain of a (batchchain.Phase), built
// once.
func (b *batchChains) phase(a int) (*batchchain.Phase, error) {
	if ph, ok := b.phases.Load(a); ok {
		return ph.(*batchchain.Phase), nil
	}
	c, err := b.chain(a)
	if err != nil {
		return nil, err
	}
	ph, err := c.Phase()
	if err != nil {
		return nil, err
	}
	got, _ := b.phases.LoadOrStore(a, ph)
	return got.(*batchchain.Phase), nil
}

func (b *batchChains) chain(a int) (*batchchain.Chain, error) {
	if c, ok := b.chains.Load(a); ok {
		return c.(*batchchain.Chain), nil
	}
	c, err := batchchain.New(b.n, a, b.lambda, b.theta, b.sizes)
	if err != nil {
		return nil, err
	}
	got, _ := b.chains.LoadOrStore(a, c)
	return got.(*batchchain.Chain), nil
}

// fill computes the rows of g with failure events: P_T holds the survival
// (g.surv is its row sum), Q_T is indexed by the functional count just
// after the interruption (from g.qlo), g.tau is the expected sojourn of
// each row. The exact path takes them from the dense Van Loan exponential
// (package expm), the fast path from windowed uniformization: two
// independent algorithms.
func (b *batchChains) fill(ctx context.Context, g *segment, exact bool) error {
	c, err := b.chain(g.a)
	if err != nil {
		return err
	}
	k := g.s1 - g.s0
	g.lo, g.pt, g.qt = make([]int, k), make([][]float64, k), make([][]float64, k)
	g.qlo, g.surv, g.tau = make([]int, k), make([]float64, k), make([]float64, k)
	if exact {
		var p, q mat.Dense
		tau := make([]float64, g.m+1)
		if err := c.Transition(&p, &q, tau, g.t); err != nil {
			return err
		}
		for i := range k {
			s := g.s0 + i
			g.pt[i], g.qt[i], g.tau[i] = p.RawRowView(s), q.RawRowView(s), tau[s]
			g.surv[i] = floats.Sum(g.pt[i])
		}
		return nil
	}
	var ph *batchchain.Phase
	if g.phase {
		// Built first: Rows then reads its rates (the same values).
		if ph, err = b.phase(g.a); err != nil {
			return err
		}
	}
	rows, err := c.RowsContext(ctx, g.s0, g.s1, g.t, rowTol)
	if err != nil {
		return nameMTTF(err)
	}
	for i, r := range rows {
		g.lo[i], g.pt[i], g.qlo[i], g.qt[i] = r.Lo, r.P, r.QLo, r.Q
		g.surv[i], g.tau[i] = r.Survival, r.Sojourn
	}
	if !g.phase {
		return nil
	}
	// The up phase after the recovery, to its interruption: its exit law
	// and sojourn from the spare counts the recovery leaves (doc.go, "Up
	// phases").
	g.upQlo, g.upQ = make([]int, k), make([][]float64, k)
	for i, r := range rows {
		q, qlo, tau := ph.Exit(r.P, r.Lo)
		g.upQ[i], g.upQlo[i] = q, qlo
		g.tau[i] += tau
	}
	b.filled(g.a, ph)
	return nil
}

// assembleBatchPhase adds the row of a recovery state that stands for the
// recovery and the up phase after it with failure events: the
// interruptions of the recovery to the decision states of the old count
// (failN), those of the up phase to the decision states of the new one
// (failUpN, or failN when the old count does not matter, the two laws
// then summed), in increasing order of state. The rewards are the
// solution's (eventRewards), not the assembly's.
func (m *Model) assembleBatchPhase(asm *assembly, i int, g *segment, s int) {
	k := s - g.s0
	asm.tau[i] = g.tau[k]
	rec, recLo, up, upLo := g.qt[k], g.qlo[k], g.upQ[k], g.upQlo[k]
	if g.failUpN == nil {
		lo := min(recLo, upLo)
		hi := max(recLo+len(rec), upLo+len(up))
		sum := resize(asm.sum, hi-lo)
		asm.sum = sum
		for c, v := range rec {
			sum[recLo-lo+c] += v
		}
		for c, v := range up {
			sum[upLo-lo+c] += v
		}
		for c, v := range sum {
			if v > 0 {
				asm.add(i, g.failN[lo+c], v)
			}
		}
		return
	}
	type part struct {
		v  []float64
		lo int
		to []int32
	}
	parts := [2]part{{rec, recLo, g.failN}, {up, upLo, g.failUpN}}
	if g.p > g.a { // the decision states of the larger count come later
		parts[0], parts[1] = parts[1], parts[0]
	}
	for _, pt := range parts {
		for c, v := range pt.v {
			if v > 0 {
				asm.add(i, pt.to[pt.lo+c], v)
			}
		}
	}
}

// eventRewards are the rewards of the chain of up phases with failure
// events: with V_a = Σ πᵢ vᵢ over the recurrent recovery states i on a
// processors, vᵢ the law of the spare count at the end of the recovery
// (its mass the recovery's survival), the stationary useful time per jump
// is Σ_a (I + L(a) − C(a))·V_a·Σ_{k≥1} exp(A_a k T_a)·1, T_a = I + L(a)
// (batchchain.Segments): V_a is computed once per solve, the segments'
// sequences once and extended as longer intervals need them.
type eventRewards struct {
	as    []int
	segs  []*batchchain.Segments
	piTau float64 // Σ πᵢ τᵢ
	// mass is Σ_a V_a·1, the probability per jump that an up phase
	// starts: the scale of every up phase's absolute tolerance
	// (batchchain.Segments.ExpectedWithin), so that the work of the
	// phases of negligible probability is not summed to their own
	// relative precision.
	mass float64
}

// newEventPhaseSolution returns the solution of the chain of up phases
// with failure events from its solve res.
func (m *Model) newEventPhaseSolution(res Result) (*phaseSolution, error) {
	sk := m.sk
	ps := &phaseSolution{res: res}
	ev := &eventRewards{}
	start := map[int][]float64{}
	for i, p := range res.pi {
		if p == 0 {
			continue
		}
		ev.piTau += p * m.asm.tau[i]
		g := sk.segOf[i]
		if g == nil {
			continue
		}
		v := start[g.a]
		if v == nil {
			v = make([]float64, g.m+1)
			start[g.a] = v
			ev.as = append(ev.as, g.a)
		}
		s := sk.states[i].N - g.a
		lo, pt, _ := g.row(s)
		for c, x := range pt {
			v[lo+c] += p * x
		}
	}
	slices.Sort(ev.as)
	// The sequences' terms (8 bytes each) share one budget of
	// Settings.MaxTransitions numbers, about a fourteenth of the memory
	// that bound allows the model (bytesPerTransition).
	budget := batchchain.NewBudget(int64(m.set.MaxTransitions))
	for _, a := range ev.as {
		base, err := m.rows.batch.segmentsBase(a)
		if err != nil {
			return nil, fmt.Errorf("uwt: %w", err)
		}
		v := start[a]
		for _, x := range v {
			ev.mass += x
		}
		lo, hi := 0, len(v)
		for lo < hi && v[lo] == 0 {
			lo++
		}
		for hi > lo && v[hi-1] == 0 {
			hi--
		}
		sg := base.Segments(v[lo:hi], lo)
		sg.SetBudget(budget)
		ev.segs = append(ev.segs, sg)
	}
	ps.events = ev
	return ps, nil
}

// rateGrid returns the uniformization rate of an up phase whose largest
// exit rate is lam: lam rounded up to the grid 2^(k/8), so that the up
// phases of a window share a few rates, and with them the weights of
// batchchain.Segments at each interval (any rate at least lam is exact;
// a larger one lengthens the sequence by at most 9 %).
func rateGrid(lam float64) float64 {
	if !(lam > 0) {
		return lam
	}
	g := math.Exp2(math.Ceil(8*math.Log2(lam)) / 8)
	return max(g, lam)
}

// at returns res with UWT and the availability at interval.
func (ev *eventRewards) at(ctx context.Context, m *Model, res Result, interval float64) (Result, error) {
	app := m.sc.Application
	var work, use float64
	// Up phases of the same rate and segment length share their weights.
	type key struct{ lam, t float64 }
	weights := map[key]*batchchain.Weights{}
	// The used counts share the relative tolerance of a lower bound on
	// their total (batchchain.Segments.ExpectedFloor): a count whose
	// expected segments are far below the average stops early.
	var lower float64
	for k, a := range ev.as {
		lower += ev.segs[k].Lower(m.upLength(a, interval))
	}
	floor := lower / float64(len(ev.as))
	for k, a := range ev.as {
		sg, t := ev.segs[k], m.upLength(a, interval)
		kw := key{sg.Rate(), t}
		w := weights[kw]
		if w == nil && t > 0 {
			w = batchchain.NewWeights(sg.Rate() * t)
			weights[kw] = w
		}
		e, err := sg.ExpectedFloorContext(ctx, t, w, ev.mass, floor)
		if err != nil {
			return Result{}, nameMTTF(err)
		}
		u := (interval + app.Latency[a-1] - app.Overhead[a-1]) * e
		use += u
		work += u * app.WorkRate[a-1]
	}
	if !(ev.piTau > 0) {
		return Result{}, fmt.Errorf("uwt: the chain of up phases has no expected sojourn (Σπτ = %v)", ev.piTau)
	}
	res.UWT, res.Availability = work/ev.piTau, use/ev.piTau
	return res, nil
}

// assembleBatchDown adds the row of D(p, k) with failure events: an event
// takes down min(K, k) processors (to k − min(K, k)) or one repair
// completes (to k + 1), whichever comes first (docs/model.md, section 11).
func (m *Model) assembleBatchDown(asm *assembly, i int, st State) {
	asm.tau[i] = batchchain.Wait(m.events.sizes, st.N, m.sk.n, m.events.rate, m.theta, func(next int, p float64) {
		if p > 0 {
			asm.add(i, m.sk.target(m.sk.decision(m, st.P, next)), p)
		}
	})
}

// assembleBatchSegment adds the row of an up or recovery state from row s
// of its batch segment: P_T (survival included) to U(a, s'), Q_T to the
// decision state of the functional count n' the interruption leaves.
func (m *Model) assembleBatchSegment(asm *assembly, i int, st State, s int, interval float64) {
	g := m.sk.segOf[i]
	k := s - g.s0
	surv := g.surv[k]
	asm.tau[i] = g.tau[k]
	if st.Kind == Up {
		app := m.sc.Application
		seg := interval + app.Latency[g.a-1] - app.Overhead[g.a-1]
		asm.useful[i] = surv * seg
		asm.work[i] = surv * seg * app.WorkRate[g.a-1]
	}
	lo, p, q := g.row(s)
	for c, v := range p {
		if v > 0 {
			asm.add(i, g.upTo.at(lo+c), v)
		}
	}
	for c, v := range q {
		if v > 0 {
			asm.add(i, g.failN[g.qlo[k]+c], v)
		}
	}
}
