package optimal

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/ckpt-markov/markov/batchchain"
	"github.com/ckpt-markov/markov/internal/decision"
	"github.com/ckpt-markov/markov/internal/scalar"
	"github.com/ckpt-markov/markov/reschedule"
	"github.com/ckpt-markov/markov/scenario"
	"github.com/ckpt-markov/markov/uwt"
)

// MaxEventsProcessors bounds N for the dense solver with failure events
// (the recovery cost depending on the old count), whose rows are dense
// (one Van Loan exponential of order N − a + N + 2 per configuration and
// checkpoint count, package batchchain).
const MaxEventsProcessors = 64

// EventsResult is the optimal policy of a system with failure events
// (system.failure_events, docs/model.md section 11) at one interval.
type EventsResult struct {
	// Status tells whether policy iteration converged.
	Status Status
	// Interval is the checkpoint interval, in seconds.
	Interval float64
	// UWT is g*, the long-run useful work per second of the policy.
	UWT float64
	// Table is the action in each decision state X(p, n) (a vector, as
	// Table.Vector, unless the recovery cost depends on p and the action
	// does too); nil when Status is NoUsefulWork (eventsMaxUWT).
	Table *reschedule.Table
	// Iterations is the number of policy improvements made.
	Iterations int
	// IntervalStatus tells, for SingleIntervalEvents, whether I* lies at
	// a bound of its search, Settings.MinInterval or MaxInterval, g*
	// falling from it (uwt.AtMin, uwt.AtMax); uwt.Converged otherwise,
	// and for FixedIntervalEvents.
	IntervalStatus uwt.Status
}

// eventsProcess is the decision process of a system with failure events
// on the decision states X(p, n), n = 0..N (p = 0 only, unless the
// recovery cost depends on p: then p = 1..N). A decision X(p, n) → a ≥ 1
// stands for the recovery on a (R(p, a) + L(a) seconds) and the up phase
// after it, segments of I + L(a) until the first interrupting event; its
// rows come from the batch chain's P_T, Q_T and τ (package batchchain):
// with M = (I − P_U)⁻¹ over the up segments' spare counts,
//
//	τ = τ_R + P_R·M·τ_U,   w = ω(a)(I + L(a) − C(a))·P_R·M·P_U·1,
//	→ X(p, n') w.p. Q_R[·, n'],   → X(a, n') w.p. (P_R·M·Q_U)[·, n'],
//
// each row at the spare count n − a. Waiting (a = 0) is the down state of
// docs/model.md section 11.
type eventsProcess struct {
	n         int
	sc        *scenario.Scenario
	lambda    float64
	theta     float64
	sizes     []float64
	byOld     bool
	ps        []int // checkpoint counts of the states
	interval  float64
	ctx       context.Context
	rows      map[[2]int]*eventsBlock // (p, a) → rows for n = a..N
	up        map[int]*mat.Dense      // a → the up phase's quantities (upPhase)
	eventRate float64
}

// eventsBlock holds the rows of the decisions X(p, a + j) → a, j = 0..m.
type eventsBlock struct {
	w, tau []float64
	// stay[j][n'] → X(p, n'), move[j][n'] → X(a, n').
	stay, move [][]float64
}

// FixedIntervalEvents returns the optimal policy of the system with failure
// events at the interval I (seconds): g*(I), by policy iteration on the
// decision states (the batch model of docs/model.md section 11, which
// package uwt evaluates for one policy): on X(n) by the column forms of
// the up phases (N ≤ MaxEventsChainProcessors), or, when the recovery
// cost depends on the old count, on X(p, n) by dense rows
// (N ≤ MaxEventsProcessors). The application must have one checkpoint
// level and one replica. A system without failure events is solved too (the batch
// chain with sizes [1]). The result's Status is IterationLimit if the
// policy still changed after Settings.MaxIter improvements.
func FixedIntervalEvents(ctx context.Context, sys scenario.System, app scenario.Application, interval float64, s *Settings) (EventsResult, error) {
	m, set, err := eventsModelOf(ctx, sys, app, s)
	if err != nil {
		return EventsResult{}, err
	}
	if eventsNoWork(sys, &app, set) {
		return EventsResult{Status: NoUsefulWork, Interval: interval, IntervalStatus: uwt.Converged}, nil
	}
	if ec, ok := m.(*eventsChain); ok {
		// One interval: nothing to share across intervals.
		ec.budget = nil
	}
	if !(interval > 0) || math.IsInf(interval, 0) {
		return EventsResult{}, fmt.Errorf("optimal: interval = %v, want a finite positive number of seconds", interval)
	}
	r, err := solveEventsAt(m, set, interval)
	return r, nameRates(err, sys)
}

// SingleIntervalEvents maximises g*(I) of FixedIntervalEvents over I:
// Brent's method on log I from the largest of a coarse scan (I from
// Settings.MinInterval to MaxInterval, 1 s to 100 years by default, 8
// points per decade: eventsGrid), to a relative tolerance of 1e-6 in I.
// When the scan's largest is an end of the range, g*(I) 1e-6 inside it
// tells whether I* is that bound (uwt.AtMin, uwt.AtMax) or lies between
// it and its neighbour, where Brent's method finds it (endBracket).
// On the chain of up phases the scan leaves out the intervals whose
// upper bound on g*(I) is below the best g* found (scanIntervals): the
// result is that of the whole scan.
func SingleIntervalEvents(ctx context.Context, sys scenario.System, app scenario.Application, s *Settings) (EventsResult, error) {
	m, set, err := eventsModelOf(ctx, sys, app, s)
	if err != nil {
		return EventsResult{}, err
	}
	if eventsNoWork(sys, &app, set) {
		return EventsResult{Status: NoUsefulWork, Interval: set.MinInterval, IntervalStatus: uwt.NotTerminated}, nil
	}
	r, err := searchEvents(m, set)
	return r, nameRates(err, sys)
}

// nameRates adds to an error of the solve with failure events (a
// singular evaluation system, an up phase that never ends in floating
// point, a uniformization beyond batchchain.MaxColumnProducts: every
// numerical failure once the model is built) the inputs that set the
// spread of its rates: system.mttf, system.mttr and the events' mean
// size. A cancelled context is returned as it is.
func nameRates(err error, sys scenario.System) error {
	if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return fmt.Errorf("%w (the rates that make it so: system.mttf = %s and system.mttr = %s, failure events of mean size %.3g (system.failure_events), on %d processors)",
		err, scenario.FormatDuration(sys.MTTF), scenario.FormatDuration(sys.MTTR), sys.FailureEvents.MeanSize(), sys.Processors)
}

// eventsMaxUWT bounds the UWT of every policy of the system with failure
// events, as Solver.MaxUWT does with single failures: with a used and j
// functional spares an event strikes at (a + j)·λ_e, λ_e = λ/E[K]
// (scenario.System.EventRate), and takes down one of the a used with
// probability at least a/(a + j), so the application is interrupted at a
// rate of at least ρ_a = a·λ_e whatever the spares. A segment of length
// u = I + L(a) that commits with probability S(u) then lasts at least
// ∫₀ᵘ S ≥ S(u)·(e^{ρ_a u} − 1)/ρ_a on average (S(u)/S(t) ≤ e^{−ρ_a(u−t)}),
// so its work per second is at most ω(a)·ρ_a·(u − C(a))/(e^{ρ_a u} − 1):
// decision.Phase's bound at the rate λ_e, maximised over I in
// [MinInterval, MaxInterval]. Recoveries and waits do no work. When the
// bound is within Settings.Tol of zero (relative to the largest ω(a)), the
// solvers report NoUsefulWork and solve nothing (no decision table).
func eventsMaxUWT(sys scenario.System, app *scenario.Application, set Settings) float64 {
	bound := 0.0
	for a := 1; a <= app.N(); a++ {
		if app.WorkRate[a-1] > 0 {
			ph := decision.NewPhase(app, a, sys.EventRate())
			bound = max(bound, ph.WorkRate*ph.Rho*ph.Useful(ph.BestInterval(set.MinInterval, set.MaxInterval)))
		}
	}
	return bound
}

// eventsNoWork reports whether eventsMaxUWT is within Settings.Tol of
// zero, relative to the largest ω(a): the solvers then report
// NoUsefulWork.
func eventsNoWork(sys scenario.System, app *scenario.Application, set Settings) bool {
	return eventsMaxUWT(sys, app, set) <= set.Tol*slices.Max(app.WorkRate)
}

// eventsModelOf is newEventsModel with s's defaults filled in.
func eventsModelOf(ctx context.Context, sys scenario.System, app scenario.Application, s *Settings) (eventsModel, Settings, error) {
	set, err := s.withDefaults()
	if err != nil {
		return nil, Settings{}, err
	}
	m, err := newEventsModel(ctx, sys, app, set)
	return m, set, err
}

// searchEvents is SingleIntervalEvents on the model m.
func searchEvents(m eventsModel, set Settings) (EventsResult, error) {
	var best EventsResult
	g := func(u float64) (float64, error) {
		r, err := solveEventsAt(m, set, set.intervalOf(u))
		if err != nil {
			return 0, err
		}
		if r.UWT > best.UWT || best.Table == nil {
			best = r
		}
		return r.UWT, nil
	}
	us := eventsGrid(set)
	fs, k, err := scanIntervals(m, g, us, &set)
	if err != nil {
		return EventsResult{}, err
	}
	best.IntervalStatus = uwt.Converged
	a, x, b, fa, fx, fb := 0.0, us[k], 0.0, 0.0, fs[k], 0.0
	switch {
	case len(us) == 1:
		best.IntervalStatus = uwt.AtMin
		return best, nil
	case k == 0 || k == len(us)-1:
		var ok bool
		if a, x, b, fa, fx, fb, ok, err = endBracket(g, us, fs, k); err != nil {
			return EventsResult{}, err
		}
		if !ok {
			best.IntervalStatus = uwt.AtMin
			if k > 0 {
				best.IntervalStatus = uwt.AtMax
			}
			return best, nil
		}
	default:
		a, b, fa, fb = us[k-1], us[k+1], fs[k-1], fs[k+1]
	}
	if _, _, err := scalar.Maximize(g, a, b, eventsIntervalTol, x, fx, fa, fb); err != nil {
		return EventsResult{}, err
	}
	return best, nil
}

// eventsIntervalTol is searchEvents' tolerance on log I.
const eventsIntervalTol = 1e-6

// endBracket is searchEvents' step when the scan's largest point us[k]
// is an end of the grid (k = 0 or len(us) − 1, len(us) ≥ 2): g being
// unimodal, the maximiser lies between that end and its neighbour, at
// the end only if g falls from it. It evaluates g eventsIntervalTol
// inside the end: if g is no larger there, I* is the bound (ok false,
// one evaluation more); otherwise that point, larger than both ends (the
// end is the scan's largest, the neighbour evaluated by scanIntervals),
// brackets the maximum with the end and its neighbour: a < x < b, the
// values fa, fx, fb, for Brent's method. A range narrower than twice
// the tolerance is its end.
func endBracket(g func(float64) (float64, error), us, fs []float64, k int) (a, x, b, fa, fx, fb float64, ok bool, err error) {
	nb, step := 1, eventsIntervalTol
	if k > 0 {
		nb, step = k-1, -eventsIntervalTol
	}
	if math.Abs(us[nb]-us[k]) <= 2*eventsIntervalTol {
		return 0, 0, 0, 0, 0, 0, false, nil
	}
	x = us[k] + step
	if fx, err = g(x); err != nil || !(fx > fs[k]) {
		return 0, 0, 0, 0, 0, 0, false, err
	}
	if k == 0 {
		return us[0], x, us[1], fs[0], fx, fs[1], true, nil
	}
	return us[nb], x, us[k], fs[nb], fx, fs[k], true, nil
}

// eventsPerDecade is the density of searchEvents' scan on log I.
const eventsPerDecade = 8

// eventsGrid returns the log intervals of searchEvents' scan: from
// log MinInterval up by a factor 10^(1/8), and log MaxInterval last
// (closer to the point before it when the range is not a whole number
// of steps).
func eventsGrid(set Settings) []float64 {
	lo, hi := math.Log(set.MinInterval), math.Log(set.MaxInterval)
	step := math.Ln10 / eventsPerDecade
	k := int(math.Ceil((hi-lo)/step - 1e-9))
	us := make([]float64, k+1)
	for i := range us {
		us[i] = lo + float64(i)*step
	}
	us[k] = hi
	return us
}

// intervalBounder is an eventsModel with an upper bound on g*(I) at
// every interval (eventsChain.intervalBound).
type intervalBounder interface {
	intervalBound(interval float64) (float64, error)
}

// scanIntervals evaluates g on the grid us of log intervals and returns
// the values and the index k of the largest (the first on ties), as a
// scan of every point would. With an upper bound on g*(I)
// (intervalBounder) it takes the points by decreasing bound and stops at
// the first whose bound is below the largest value so far: those left
// cannot be the largest, and are not evaluated (their value is −∞ in
// fs) but for the neighbours of k, which Brent's method starts from.
// set bounds the intervals (Settings.intervalOf).
func scanIntervals(m eventsModel, g func(float64) (float64, error), us []float64, set *Settings) ([]float64, int, error) {
	fs := make([]float64, len(us))
	ub := make([]float64, len(us))
	for i := range fs {
		fs[i], ub[i] = math.Inf(-1), math.Inf(1)
	}
	if b, ok := m.(intervalBounder); ok {
		for i, u := range us {
			var err error
			if ub[i], err = b.intervalBound(set.intervalOf(u)); err != nil {
				return nil, 0, err
			}
		}
	}
	order := make([]int, len(us))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(i, j int) int { return cmp.Compare(ub[j], ub[i]) })
	top := math.Inf(-1)
	for _, i := range order {
		if ub[i] < top {
			break
		}
		f, err := g(us[i])
		if err != nil {
			return nil, 0, err
		}
		fs[i], top = f, math.Max(top, f)
	}
	k := 0
	for i, f := range fs {
		if f > fs[k] {
			k = i
		}
	}
	for _, j := range []int{k - 1, k + 1} {
		if j >= 0 && j < len(us) && math.IsInf(fs[j], -1) {
			f, err := g(us[j])
			if err != nil {
				return nil, 0, err
			}
			fs[j] = f
		}
	}
	return fs, k, nil
}

// eventsScenario is the scenario of sys and app for the solvers with
// failure events (the policy is theirs to choose; greedy stands in for
// validation): at most limit processors (the solver, in the error, "is
// dense," or "takes" at most limit), one checkpoint level, one replica.
func eventsScenario(sys scenario.System, app scenario.Application, limit int, solver string) (*scenario.Scenario, error) {
	if sys.Processors > limit {
		return nil, fmt.Errorf("optimal: system.processors = %d: the solver with failure events %s at most %d processors", sys.Processors, solver, limit)
	}
	sc, err := scenario.New(sys, app, scenario.Policy{Kind: scenario.Greedy})
	if err != nil {
		return nil, err
	}
	if err := sc.SingleLevel("the optimal policy with failure events"); err != nil {
		return nil, err
	}
	if r := app.ReplicaCount(); r > 1 {
		return nil, fmt.Errorf("optimal: application.replicas = %d: this model has one replica per process", r)
	}
	return sc, nil
}

func newEventsProcess(ctx context.Context, sys scenario.System, app scenario.Application) (*eventsProcess, error) {
	sc, err := eventsScenario(sys, app, MaxEventsProcessors, "is dense,")
	if err != nil {
		return nil, err
	}
	n := sys.Processors
	sizes := []float64{1}
	if !sys.FailureEvents.Single() {
		sizes = sys.FailureEvents.Sizes
	}
	pr := &eventsProcess{n: n, sc: sc, lambda: sys.Lambda(), theta: sys.Theta(), sizes: sizes,
		byOld: app.Recovery.DependsOnOld(), ctx: ctx, rows: map[[2]int]*eventsBlock{}, up: map[int]*mat.Dense{}}
	pr.ps = []int{0}
	if pr.byOld {
		pr.ps = make([]int, n)
		for i := range pr.ps {
			pr.ps[i] = i + 1
		}
	}
	var mean float64
	for k, p := range sizes {
		mean += float64(k+1) * p
	}
	var sum float64
	for _, p := range sizes {
		sum += p
	}
	pr.eventRate = pr.lambda / (mean / sum)
	return pr, nil
}

// key returns the checkpoint count the states keep for p.
func (pr *eventsProcess) key(p int) int {
	if pr.byOld {
		return p
	}
	return 0
}

// index returns the position of X(p, n).
func (pr *eventsProcess) index(p, n int) int {
	pi := 0
	if pr.byOld {
		pi = p - 1
	}
	return pi*(pr.n+1) + n
}

// block returns the rows of the decisions → a from checkpoint count p.
func (pr *eventsProcess) block(p, a int) (*eventsBlock, error) {
	if b, ok := pr.rows[[2]int{p, a}]; ok {
		return b, nil
	}
	if err := pr.ctx.Err(); err != nil {
		return nil, err
	}
	app := pr.sc.Application
	ch, err := batchchain.New(pr.n, a, pr.lambda, pr.theta, pr.sizes)
	if err != nil {
		return nil, fmt.Errorf("optimal: %w", err)
	}
	m := pr.n - a
	pOld := p
	if pOld == 0 {
		pOld = a // any p: the cost does not depend on it
	}
	var pR, qR mat.Dense
	tauR := make([]float64, m+1)
	if err := ch.Transition(&pR, &qR, tauR, app.Recovery.Cost(pOld, a)+app.Latency[a-1]); err != nil {
		return nil, fmt.Errorf("optimal: %w", err)
	}
	up, err := pr.upPhase(ch)
	if err != nil {
		return nil, err
	}
	var phase mat.Dense
	phase.Mul(&pR, up)
	gain := app.WorkRate[a-1] * (pr.interval + app.Latency[a-1] - app.Overhead[a-1])
	b := &eventsBlock{w: make([]float64, m+1), tau: make([]float64, m+1), stay: make([][]float64, m+1), move: make([][]float64, m+1)}
	for j := 0; j <= m; j++ {
		b.tau[j] = tauR[j] + phase.At(j, 0)
		b.w[j] = gain * phase.At(j, 1)
		b.stay[j] = make([]float64, pr.n+1)
		b.move[j] = make([]float64, pr.n+1)
		for k := 0; k < pr.n; k++ {
			b.stay[j][k] = qR.At(j, k)
			b.move[j][k] = phase.At(j, 2+k)
		}
	}
	pr.rows[[2]int{p, a}] = b
	return b, nil
}

// upPhase returns, for the up phase on ch.A() processors (segments of
// I + L(a) until the first interrupting event), by spare count at its
// start: column 0 the expected time, column 1 the expected number of
// commits, column 2 + n' the probability that it ends with n'
// functional; M = (I − P_U)⁻¹ applied to τ_U, P_U·1 and Q_U. It depends
// on a only, not on p, and is computed once per count.
func (pr *eventsProcess) upPhase(ch *batchchain.Chain) (*mat.Dense, error) {
	a, m := ch.A(), ch.M()
	if up, ok := pr.up[a]; ok {
		return up, nil
	}
	var pU, qU mat.Dense
	tauU := make([]float64, m+1)
	if err := ch.Transition(&pU, &qU, tauU, pr.interval+pr.sc.Application.Latency[a-1]); err != nil {
		return nil, fmt.Errorf("optimal: %w", err)
	}
	var ip mat.Dense
	ip.Sub(eye(m+1), &pU)
	var lu mat.LU
	lu.Factorize(&ip)
	if lu.Det() == 0 {
		return nil, fmt.Errorf("optimal: the up segments on %d processors never end (I − P_T is singular)", a)
	}
	rhs := mat.NewDense(m+1, pr.n+2, nil)
	for j := 0; j <= m; j++ {
		rhs.Set(j, 0, tauU[j])
		var commit float64
		for k := 0; k <= m; k++ {
			commit += pU.At(j, k)
		}
		rhs.Set(j, 1, commit)
		for k := 0; k < pr.n; k++ {
			rhs.Set(j, 2+k, qU.At(j, k))
		}
	}
	up := new(mat.Dense)
	if err := lu.SolveTo(up, false, rhs); err != nil {
		return nil, fmt.Errorf("optimal: the up phase on %d processors: %w", a, err)
	}
	pr.up[a] = up
	return up, nil
}

func eye(n int) *mat.Dense {
	d := mat.NewDense(n, n, nil)
	for i := range n {
		d.Set(i, i, 1)
	}
	return d
}

// sparseRow is a row of transition probabilities: val over a dense
// scratch of every state, idx the states touched in increasing order (so
// that sums over the row have a fixed order: results do not depend on
// anything but the inputs).
type sparseRow struct {
	val []float64
	idx []int
}

// add adds q to entry y.
func (r *sparseRow) add(y int, q float64) {
	if r.val[y] == 0 {
		r.idx = append(r.idx, y)
	}
	r.val[y] += q
}

// reset empties the row.
func (r *sparseRow) reset() {
	for _, y := range r.idx {
		r.val[y] = 0
	}
	r.idx = r.idx[:0]
}

// rowPN returns the reward, sojourn and transitions (into dst, reset
// first; its indices sorted) of X(p, n) under action a.
func (pr *eventsProcess) rowPN(p, n, a int, dst *sparseRow) (w, tau float64, err error) {
	dst.reset()
	defer func() { slices.Sort(dst.idx) }()
	if a == 0 {
		tau := batchchain.Wait(pr.normSizes(), n, pr.n, pr.eventRate, pr.theta, func(next int, q float64) {
			dst.add(pr.index(p, next), q)
		})
		return 0, tau, nil
	}
	b, err := pr.block(pr.key(p), a)
	if err != nil {
		return 0, 0, err
	}
	j := n - a
	for k, q := range b.stay[j] {
		if q != 0 {
			dst.add(pr.index(p, k), q)
		}
	}
	for k, q := range b.move[j] {
		if q != 0 {
			dst.add(pr.index(pr.keyAfter(a), k), q)
		}
	}
	return b.w[j], b.tau[j], nil
}

// keyAfter is the checkpoint count of the states after a checkpoint on a.
func (pr *eventsProcess) keyAfter(a int) int {
	if pr.byOld {
		return a
	}
	return 0
}

func (pr *eventsProcess) normSizes() []float64 {
	var sum float64
	for _, p := range pr.sizes {
		sum += p
	}
	out := make([]float64, len(pr.sizes))
	for k, p := range pr.sizes {
		out[k] = p / sum
	}
	return out
}

// setInterval sets the interval of the rows (forgetting those of
// another).
func (pr *eventsProcess) setInterval(interval float64) {
	if interval != pr.interval {
		pr.interval = interval
		pr.rows, pr.up = map[[2]int]*eventsBlock{}, map[int]*mat.Dense{}
	}
}

func (pr *eventsProcess) states() int { return len(pr.ps) * (pr.n + 1) }

// ref is X(p, N) of the last checkpoint count.
func (pr *eventsProcess) ref() int { return pr.index(pr.ps[len(pr.ps)-1], pr.n) }

// row is rowPN of the state x.
func (pr *eventsProcess) row(x, a int, dst *sparseRow) (w, tau float64, err error) {
	return pr.rowPN(pr.ps[x/(pr.n+1)], x%(pr.n+1), a, dst)
}

// start returns the greedy actions.
func (pr *eventsProcess) start() ([]int, error) {
	act := make([]int, pr.states())
	for _, p := range pr.ps {
		for k := 0; k <= pr.n; k++ {
			act[pr.index(p, k)] = pr.allowed(k)
		}
	}
	if act[pr.index(pr.ps[0], pr.n)] == 0 {
		return nil, errors.New("optimal: the work rate is zero on every processor count")
	}
	return act, nil
}

// improve replaces act[x] by the action of largest value
// w − g·τ + Σ P·h, every action in every state, row by row.
func (pr *eventsProcess) improve(act []int, g float64, h []float64, set Settings) (bool, error) {
	tr := &sparseRow{val: make([]float64, len(act))}
	changed := false
	for x := range act {
		k := x % (pr.n + 1)
		q := func(a int) (float64, error) {
			w, tau, err := pr.row(x, a, tr)
			if err != nil {
				return 0, err
			}
			return rowValue(w, tau, g, h, tr), nil
		}
		cur, err := q(act[x])
		if err != nil {
			return false, err
		}
		arg, err := bestAction(act[x], cur, k, pr.sc.Application.WorkRate, set.TieTol*math.Max(math.Abs(cur), g), func(a int) (float64, bool, error) {
			v, err := q(a)
			return v, true, err
		})
		if err != nil {
			return false, err
		}
		if arg != act[x] {
			act[x], changed = arg, true
		}
	}
	return changed, nil
}

// allowed returns the largest count a ≤ k with ω(a) > 0 (greedy), or 0.
func (pr *eventsProcess) allowed(k int) int {
	return allowedCount(pr.sc.Application.WorkRate, k)
}

// table returns the policy act as a decision table on 1..N.
func (pr *eventsProcess) table(act []int) (*reschedule.Table, error) {
	rows := make([]reschedule.Vector, len(pr.ps))
	for i, p := range pr.ps {
		r := make(reschedule.Vector, pr.n)
		for k := 1; k <= pr.n; k++ {
			r[k-1] = act[pr.index(p, k)]
		}
		rows[i] = r
	}
	if !pr.byOld {
		return reschedule.NewTableRows(rows[0], nil, nil)
	}
	return reschedule.NewTableRows(rows[len(rows)-1], pr.ps[:len(pr.ps)-1], rows[:len(rows)-1])
}
