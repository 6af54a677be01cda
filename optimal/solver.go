package optimal

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/ckpt-markov/markov/birthdeath"
	"github.com/ckpt-markov/markov/internal/decision"
	"github.com/ckpt-markov/markov/reschedule"
	"github.com/ckpt-markov/markov/scenario"
	"gonum.org/v1/gonum/mat"
)

// DefaultMinInterval and DefaultMaxInterval are the default bounds on
// every interval, in seconds: 1 s and 100 years, as uwt.OptimizeSettings.
const (
	DefaultMinInterval = 1
	DefaultMaxInterval = 100 * 365 * 86400
)

// Settings configures a Solver. A nil *Settings means the defaults
// documented on each field; so does every zero field.
type Settings struct {
	// Full builds every functional count 0..N. The default is the window
	// of functional counts outside which the stationary law of the
	// functional count, Binomial(N, θ/(λ+θ)), has at most Tol of its mass
	// on each side (package uwt's fast-path rule).
	Full bool
	// Tol is the window's tail mass (default DefaultTol).
	Tol float64
	// TieTol is the relative margin by which another action must beat
	// the current one before improvement switches to it (default
	// DefaultTieTol): it prevents cycling between actions whose values
	// differ by rounding.
	TieTol float64
	// RelTol stops policy iteration with per-state intervals, and the
	// searches over intervals, when g improves by less than RelTol·g
	// (default DefaultRelTol).
	RelTol float64
	// IntervalTol is the absolute tolerance on log I of every interval
	// search (default DefaultIntervalTol).
	IntervalTol float64
	// MinInterval and MaxInterval bound every interval, in seconds
	// (defaults DefaultMinInterval and DefaultMaxInterval).
	MinInterval, MaxInterval float64
	// MaxIter bounds the iterations of one policy iteration (default 200),
	// and also the passes of PerConfiguration (Status IterationLimit when
	// reached) and the gradient steps of levels 2 and 3 (singleSearch.climb,
	// gradientAscend). Level 2's climb stops after MaxIter steps with the
	// best point so far and Status IterationLimit (with MaxIter = 2 on QR
	// at N = 16 with reconfiguration, g* 7e-12 and I* 8e-6 relative from
	// the default's).
	MaxIter int
	// Candidates restricts the processor counts a running application may
	// use (the restriction for large N); nil means every count with
	// ω(a) > 0.
	Candidates []int
	// Workers is the number of goroutines of the solver's worker pools
	// (internal/pool: the improvement's steps by checkpoint count or by
	// state, the band solves of its bounds, the per-state interval
	// improvement); zero means runtime.GOMAXPROCS(0). Results do not
	// depend on it.
	Workers int
	// MaxStates caps the decision states (default DefaultMaxStates).
	MaxStates int
}

// Defaults of Settings.
const (
	DefaultTol         = 1e-12
	DefaultTieTol      = 1e-12
	DefaultRelTol      = 1e-10
	DefaultIntervalTol = 1e-6
	DefaultMaxStates   = 2_000_000
)

func (s *Settings) withDefaults() (Settings, error) {
	var d Settings
	if s != nil {
		d = *s
	}
	def := func(v *float64, x float64) {
		if *v == 0 {
			*v = x
		}
	}
	def(&d.Tol, DefaultTol)
	def(&d.TieTol, DefaultTieTol)
	def(&d.RelTol, DefaultRelTol)
	def(&d.IntervalTol, DefaultIntervalTol)
	def(&d.MinInterval, DefaultMinInterval)
	def(&d.MaxInterval, DefaultMaxInterval)
	if d.MaxIter == 0 {
		d.MaxIter = 200
	}
	if d.Workers <= 0 {
		d.Workers = runtime.GOMAXPROCS(0)
	}
	if d.MaxStates == 0 {
		d.MaxStates = DefaultMaxStates
	}
	bad := func(v float64) bool { return math.IsNaN(v) || math.IsInf(v, 0) || v <= 0 }
	switch {
	case bad(d.Tol) || d.Tol >= 1:
		return d, fmt.Errorf("optimal: Settings.Tol = %v, want in (0, 1)", d.Tol)
	case bad(d.TieTol) || d.TieTol >= 1:
		return d, fmt.Errorf("optimal: Settings.TieTol = %v, want in (0, 1)", d.TieTol)
	case bad(d.RelTol) || d.RelTol >= 1:
		return d, fmt.Errorf("optimal: Settings.RelTol = %v, want in (0, 1)", d.RelTol)
	case bad(d.IntervalTol) || d.IntervalTol >= 1:
		return d, fmt.Errorf("optimal: Settings.IntervalTol = %v, want in (0, 1)", d.IntervalTol)
	case bad(d.MinInterval) || bad(d.MaxInterval) || d.MinInterval >= d.MaxInterval:
		return d, fmt.Errorf("optimal: Settings.MinInterval, MaxInterval = %v, %v, want 0 < Min < Max", d.MinInterval, d.MaxInterval)
	case d.MaxIter < 0:
		return d, fmt.Errorf("optimal: Settings.MaxIter = %d, want ≥ 0", d.MaxIter)
	case d.MaxStates < 0:
		return d, fmt.Errorf("optimal: Settings.MaxStates = %d, want ≥ 0", d.MaxStates)
	}
	return d, nil
}

// Solver holds the decision process of one scenario: the decision states
// over the window of functional counts and the recovery rows, which do
// not depend on the policy. A Solver is not safe for concurrent use.
type Solver struct {
	sc            *scenario.Scenario
	set           Settings
	lambda, theta float64
	n, lo, hi, w  int
	byOld         bool
	ps            []int // checkpoint counts p of the states X(p, n): {0} unless R depends on p
	pIdx          []int // p → index into ps (−1 if absent)
	acts          []int // processor counts a run may use
	aIdx          []int // a → index into acts (−1 if absent)
	nX            int   // decision states X
	uOff          []int // offset of configuration b's up states after the X states
	nU            int
	reconf        bool // scenario.AtCheckpoint: up states may reconfigure

	// maxUWT bounds the UWT of every policy (MaxUWT); noWork: it is
	// negligible (Status NoUsefulWork).
	maxUWT float64
	noWork bool

	chains *decision.Chains // spare chains, shared by every row
	phases []decision.Phase // per configuration index: the up phase's law

	// phase: without reconfiguration at checkpoints the solver keeps the
	// decision states X only (doc.go, "Decision states only"), with the
	// row of each state under the policy's action kept between
	// evaluations (srows), with the row of the action it took before
	// (prows: the search over the interval moves many states back and
	// forth between two actions; cached holds the entries of both) and, per
	// configuration, what the bounds of the improvement need (fast).
	// Otherwise it keeps the up states U too.
	phase bool
	// waitRows and waitEqs hold the row of waiting in each count of the
	// window and its equation in every decision state, built once
	// (initWaits).
	waitOnce sync.Once
	waitRows []row
	waitEqs  []equation
	// pieces holds runPieces of every configuration, which depend on the
	// scenario and Settings alone, built once (runPieceTable).
	piecesOnce sync.Once
	pieces     [][]runPiece
	srows      []stateRow
	prows      []stateRow
	cached     int64
	fast       []*fastConfig
	local      []int32           // solveSet's scratch: state → index in its set, −1 outside
	tscr       *transientScratch // solveTransient's scratch
	clu        *closedLU         // solveClosed's factors of the last closed set
	plan       *phasePlan        // evaluatePhase's work on the last actions evaluated
	// resCache holds resolvent rows of one decision state by
	// configuration and window offset (resolvent); resKept counts their
	// entries.
	resCache []atomic.Pointer[birthdeath.RowBlock]
	resKept  atomic.Int64
	rtab     [][3]float64 // per block (p index·len(acts) + b): t, e^{−ρt}, 1 − e^{−ρt}

	rec       [][][]row     // [p index][configuration index] rows by n (up states only)
	recSum    []recSummary  // the summary of each row of rec, by (p index, n, configuration index): recSumIndex
	cache     []*block      // per configuration: rows and elimination at some intervals (up states only)
	memo      []eqMemo      // per state of the evaluation: its last equation (up states only, memoEquation)
	entry     *entryBase    // the last reduced system solveByEntries factorised
	groups    []*entryGroup // solveByEntries' groups, per checkpoint count index
	entryRows []entryRow    // solveByEntries' rows, per up state
	entryGen  uint64        // generations of entryRows
	// groupL and groupD are group's scratch for L_p and D_p.
	groupL, groupD *mat.Dense
	classes        *classMemo // the last evaluation's graph and recurrent classes
	// never is the solver of the same scenario without reconfiguration
	// at checkpoints (neverSolver), with up states only.
	never *Solver
}

// upStates makes New keep the up states U also without reconfiguration
// at checkpoints: the solver as it was before the chain of up phases,
// which the tests use as a second oracle.
var upStates = false

// New builds the decision process of sc. The scenario's rescheduling
// vector is only the user's policy; the solver considers every action.
func New(sc *scenario.Scenario, s *Settings) (*Solver, error) {
	if err := checkScenario(sc); err != nil {
		return nil, err
	}
	set, err := s.withDefaults()
	if err != nil {
		return nil, err
	}
	n := sc.N()
	acts, err := candidates(n, sc.Application.WorkRate, set.Candidates)
	if err != nil {
		return nil, err
	}
	sv := &Solver{sc: sc, set: set, lambda: sc.System.Lambda(), theta: sc.System.Theta(), n: n,
		byOld: sc.Application.Recovery.DependsOnOld(), acts: acts, reconf: sc.Reconfigure == scenario.AtCheckpoint}
	sv.chains = decision.NewChains(sv.lambda, sv.theta)
	sv.phase = !sv.reconf && !upStates
	sv.lo, sv.hi = 0, n
	if !set.Full {
		sv.lo, sv.hi = decision.Window(n, sv.lambda/(sv.lambda+sv.theta), set.Tol)
	}
	sv.w = sv.hi - sv.lo + 1
	// The size first: initPhases and initWindow allocate per count.
	if err := sv.checkSize(); err != nil {
		return nil, err
	}
	sv.initPhases()
	sv.initWindow()
	size := sv.initUpStates
	if sv.phase {
		size = sv.initDecisionStates
	}
	if err := size(); err != nil {
		return nil, err
	}
	return sv, nil
}

// checkScenario returns New's error for a scenario the solver does not
// model (or an invalid one).
func checkScenario(sc *scenario.Scenario) error {
	if sc == nil {
		return errors.New("optimal: nil scenario")
	}
	if err := sc.Validate(); err != nil {
		return err
	}
	if err := sc.SingleLevel("package optimal"); err != nil {
		return err
	}
	if r := sc.Application.ReplicaCount(); r > 1 {
		return fmt.Errorf("optimal: application.replicas = %d: the solver has one replica per process; package replication models replicas", r)
	}
	if !sc.System.FailureEvents.Single() {
		return errors.New("optimal: system.failure_events: the solver models single processor failures only (docs/optimal-policy.md); failure events that take down several processors are solved by FixedIntervalEvents and SingleIntervalEvents")
	}
	return nil
}

// initPhases sets the up phase's law of every configuration, the bound
// MaxUWT and whether it is negligible.
func (sv *Solver) initPhases() {
	sv.phases = make([]decision.Phase, len(sv.acts))
	for b, a := range sv.acts {
		sv.phases[b] = decision.NewPhase(&sv.sc.Application, a, sv.lambda)
	}
	maxW := 0.0
	for _, ph := range sv.phases {
		sv.maxUWT = max(sv.maxUWT, ph.WorkRate*ph.Rho*ph.Useful(ph.BestInterval(sv.set.MinInterval, sv.set.MaxInterval)))
		maxW = max(maxW, ph.WorkRate)
	}
	sv.noWork = !(sv.maxUWT > sv.set.Tol*maxW)
}

// initWindow sets the checkpoint counts p of the decision states and the
// indexes of p and a (New has set the window of functional counts).
func (sv *Solver) initWindow() {
	n := sv.n
	sv.ps = []int{0}
	if sv.byOld {
		sv.ps = sv.acts
	}
	sv.pIdx = make([]int, n+1)
	sv.aIdx = make([]int, n+1)
	for i := range sv.pIdx {
		sv.pIdx[i], sv.aIdx[i] = -1, -1
	}
	for i, p := range sv.ps {
		sv.pIdx[p] = i
	}
	for i, a := range sv.acts {
		sv.aIdx[a] = i
	}
}

// checkSize returns the SizeError of a decision process larger than
// Settings.MaxStates allows (states, or recovery rows beyond 4 per state)
// from the window and the counts alone, before anything of the process's
// size is allocated. The rows bound those an improvement step may
// compute: one per (p, a) block and spare count of the window, the same
// bound as the solver with up states keeps eagerly. The products are compared in floating point, where
// they cannot overflow (N³ exceeds an int at N = 2²¹ with Settings.Full).
func (sv *Solver) checkSize() error {
	ps := 1
	if sv.byOld {
		ps = len(sv.acts)
	}
	nX, rec := float64(ps)*float64(sv.w), float64(ps)*float64(len(sv.acts))*float64(sv.w)
	nU := 0.0
	if !sv.phase {
		for _, a := range sv.acts {
			lo, hi := sv.spares(a)
			nU += float64(max(hi-lo, 0))
		}
	}
	limit := float64(sv.set.MaxStates)
	if nX+nU > limit || rec > rowsPerState*limit {
		return &SizeError{N: sv.n, States: saturated(nX + nU), Rows: saturated(rec), MaxStates: sv.set.MaxStates,
			MaxRows: saturated(rowsPerState * limit)}
	}
	return nil
}

// saturated returns x as an int, math.MaxInt64 when it does not fit.
func saturated(x float64) int {
	if x >= math.MaxInt64 {
		return math.MaxInt64
	}
	return int(x)
}

// initDecisionStates sizes the solver on the decision states X only
// (doc.go, "Decision states only"); New has checked its size (checkSize).
func (sv *Solver) initDecisionStates() error {
	nX := len(sv.ps) * sv.w
	sv.nX = nX
	sv.srows, sv.prows = make([]stateRow, nX), make([]stateRow, nX)
	sv.initRecovery() // first: initFast reads it
	if err := sv.initFast(); err != nil {
		return err
	}
	return nil
}

// initUpStates sizes the solver with the up states U and computes the
// recovery rows; New has checked its size (checkSize).
func (sv *Solver) initUpStates() error {
	sv.uOff = make([]int, len(sv.acts))
	off := 0
	for b, a := range sv.acts {
		sv.uOff[b] = off
		lo, hi := sv.spares(a)
		off += max(hi-lo, 0)
	}
	sv.nX, sv.nU = len(sv.ps)*sv.w, off
	sv.cache = make([]*block, len(sv.acts))
	return sv.recoveryRows()
}

// MaxUWT returns an upper bound on the UWT of every policy of the
// decision process: the largest reward rate of an up segment,
// max_a ω(a)·aλ·(I + L − C)/(e^{aλ(I+L)} − 1) at the best interval of each
// a (internal/decision, Phase.BestInterval). UWT is a renewal–reward ratio
// Σπw/Σπτ, at most the largest w/τ of a state, and every up segment's
// w/τ is that rate; recoveries and waits do no work.
func (sv *Solver) MaxUWT() float64 { return sv.maxUWT }

// noUsefulWork returns the result of a solve when no policy does useful
// work (Status NoUsefulWork): greedy at the interval, unsolved.
func (sv *Solver) noUsefulWork(interval float64) Result {
	return Result{Status: NoUsefulWork, Policy: sv.Greedy(interval), Mass: map[int]float64{}, MeanInterval: map[int]float64{}, States: sv.States()}
}

// Scenario returns the scenario the solver was built from.
func (sv *Solver) Scenario() *scenario.Scenario { return sv.sc }

// Window returns the functional counts [lo, hi] of the decision states.
func (sv *Solver) Window() (lo, hi int) { return sv.lo, sv.hi }

// States returns the number of states of the decision process: the
// decision states X, and with reconfiguration at checkpoints the up states U.
func (sv *Solver) States() int { return sv.nX + sv.nU }

// Policy is a stationary policy of the decision process: an action in
// every decision state of the window, reached or not.
type Policy struct {
	sv       *Solver
	action   []int       // per X state (p index·w + n − lo): a, or 0 to wait
	interval [][]float64 // per configuration index, per spare count from spares(a) (one in the chain of up phases)
	// reconf, with reconfiguration at checkpoints only (nil otherwise):
	// per configuration index and spare count as interval, 0 to start
	// the up segment, or the count a' ≠ a to reconfigure onto.
	reconf [][]int
}

// Reconfigure returns the action of U(a, s) besides its interval: 0 to
// start the up segment, or the processor count a' it reconfigures onto
// (only with reconfiguration at checkpoints, scenario.AtCheckpoint; else
// always 0). It returns 0 if U(a, s) is not a state of the process.
func (pol *Policy) Reconfigure(a, s int) int {
	sv := pol.sv
	if pol.reconf == nil || a < 1 || a > sv.n || sv.aIdx[a] < 0 {
		return 0
	}
	lo, hi := sv.spares(a)
	if s < lo || s >= hi {
		return 0
	}
	return pol.reconf[sv.aIdx[a]][s-lo]
}

// Action returns the action in X(p, n): the processor count to recover
// on, or 0 to wait. p is ignored unless the recovery cost depends on it.
// It panics if n is outside the window.
func (pol *Policy) Action(p, n int) int {
	sv := pol.sv
	if n < sv.lo || n > sv.hi {
		panic(fmt.Sprintf("optimal: functional count %d outside the window [%d, %d]", n, sv.lo, sv.hi))
	}
	pi := 0
	if sv.byOld {
		pi = sv.pIdx[p]
		if pi < 0 {
			panic(fmt.Sprintf("optimal: no decision state with checkpoint count %d", p))
		}
	}
	return pol.action[pi*sv.w+n-sv.lo]
}

// Interval returns the checkpoint interval in U(a, s), in seconds; 0 if
// the state is not one of the process.
func (pol *Policy) Interval(a, s int) float64 {
	sv := pol.sv
	if a < 1 || a > sv.n || sv.aIdx[a] < 0 {
		return 0
	}
	lo, hi := sv.spares(a)
	if s < lo || s >= hi {
		return 0
	}
	return pol.iv(sv.aIdx[a], s-lo)
}

// iv returns the interval of the up state of configuration b at spare
// offset k (the configuration's one interval in the chain of up phases).
func (pol *Policy) iv(b, k int) float64 {
	if pol.sv.phase {
		return pol.interval[b][0]
	}
	return pol.interval[b][k]
}

// DependsOnOld reports whether the action in X(p, n) depends on p.
func (pol *Policy) DependsOnOld() bool {
	sv := pol.sv
	for pi := 1; pi < len(sv.ps); pi++ {
		for k := range sv.w {
			if pol.action[pi*sv.w+k] != pol.action[k] {
				return true
			}
		}
	}
	return false
}

// Vector returns the rescheduling vector r(1..N) of the policy. Outside
// the window, r(n) is the action of the nearest count inside it, capped
// at n (those counts carry less than Settings.Tol of the mass). It
// returns an error if the policy depends on p or never runs, and, with
// reconfiguration at checkpoints, if an up state U(a, s) of a count a that
// some X(·, n) recovers on does not do what the vector says
// (scenario.Reconfigure.Target: reconfigure onto r(a + s) ∉ {0, a}, else
// start the segment); the up states of other counts are never reached.
func (pol *Policy) Vector() (reschedule.Vector, error) {
	sv := pol.sv
	v, err := pol.Recovery()
	if err != nil {
		return nil, err
	}
	used := make([]bool, sv.n+1)
	for _, a := range pol.action {
		used[a] = true
	}
	for b, a := range sv.acts {
		if pol.reconf == nil {
			break
		}
		if !used[a] {
			// No recovery runs on a, so no up state U(a, ·) is reached
			// (a reconfiguration onto a is a recovery on a too).
			continue
		}
		lo, _ := sv.spares(a)
		for k, c := range pol.reconf[b] {
			if want := sv.vectorReconf(v, a, lo+k); c != want {
				do := func(x int) string {
					if x == 0 {
						return "runs on"
					}
					return fmt.Sprintf("reconfigures onto %d", x)
				}
				return nil, fmt.Errorf("optimal: with reconfiguration at checkpoints the policy %s in U(%d, %d) where its vector (r(%d) = %d) %s: it is not a vector", do(c), a, lo+k, a+lo+k, v.At(a+lo+k), do(want))
			}
		}
	}
	return v, nil
}

// Recovery returns the actions in the decision states X as a vector
// r(1..N), as Vector does, but without checking the up states'
// reconfigurations at checkpoints: with Reconfigure (SegmentReconfigure
// for a simulator) it describes every policy whose actions do not depend
// on p. It returns an error if the policy depends on p or never runs.
func (pol *Policy) Recovery() (reschedule.Vector, error) {
	sv := pol.sv
	if pol.DependsOnOld() {
		return nil, errors.New("optimal: the policy depends on the checkpoint count p: it is not a vector")
	}
	v := make(reschedule.Vector, sv.n)
	for n := 1; n <= sv.n; n++ {
		k := min(max(n, sv.lo), sv.hi)
		v[n-1] = min(pol.action[k-sv.lo], n)
	}
	if err := v.Validate(); err != nil {
		return nil, fmt.Errorf("optimal: %w", err)
	}
	return v, nil
}

// SegmentReconfigure returns the action of an up state on a processors
// with s functional spares at a checkpoint, for a simulator
// (sim.Decisions.Reconfigure): 0 to run on, or the count to reconfigure
// onto; for U(a, s) outside the window, the action of the nearest spare
// count inside it when that count fits (at most a + s), else 0. It returns
// 0 without reconfiguration at checkpoints.
func (pol *Policy) SegmentReconfigure(a, s int) int {
	sv := pol.sv
	if pol.reconf == nil || a < 1 || a > sv.n || sv.aIdx[a] < 0 {
		return 0
	}
	lo, hi := sv.spares(a)
	if hi <= lo {
		return 0
	}
	if c := pol.reconf[sv.aIdx[a]][min(max(s, lo), hi-1)-lo]; c <= a+s {
		return c
	}
	return 0
}

// vectorReconf is the action of U(a, s) under vector v with
// reconfiguration at checkpoints: 0 to start the segment, or the count to
// reconfigure onto.
func (sv *Solver) vectorReconf(v []int, a, s int) int {
	if b := scenario.AtCheckpoint.Target(v, a, a+s); b != a {
		return b
	}
	return 0
}

func (sv *Solver) clone(pol *Policy) *Policy {
	c := &Policy{sv: sv, action: append([]int(nil), pol.action...), interval: make([][]float64, len(pol.interval))}
	for b := range pol.interval {
		c.interval[b] = append([]float64(nil), pol.interval[b]...)
	}
	if pol.reconf != nil {
		c.reconf = make([][]int, len(pol.reconf))
		for b := range pol.reconf {
			c.reconf[b] = append([]int(nil), pol.reconf[b]...)
		}
	}
	return c
}

// uniform returns the policy with action act(n) in every X(·, n) and the
// interval I in every up state.
func (sv *Solver) uniform(act func(n int) int, interval float64) *Policy {
	pol := &Policy{sv: sv, action: make([]int, sv.nX), interval: make([][]float64, len(sv.acts))}
	for pi := range sv.ps {
		for n := sv.lo; n <= sv.hi; n++ {
			pol.action[pi*sv.w+n-sv.lo] = act(n)
		}
	}
	for b, a := range sv.acts {
		lo, hi := sv.spares(a)
		if sv.phase {
			pol.interval[b] = []float64{interval}
			continue
		}
		pol.interval[b] = make([]float64, max(hi-lo, 0))
		for k := range pol.interval[b] {
			pol.interval[b][k] = interval
		}
	}
	if sv.reconf {
		// The vector's reconfigurations (the actions of X(·, n) as r(n)).
		v := make([]int, sv.n)
		for n := sv.lo; n <= sv.hi; n++ {
			if n > 0 {
				v[n-1] = act(n)
			}
		}
		pol.reconf = make([][]int, len(sv.acts))
		for b, a := range sv.acts {
			lo, _ := sv.spares(a)
			pol.reconf[b] = make([]int, len(pol.interval[b]))
			for k := range pol.reconf[b] {
				pol.reconf[b][k] = sv.vectorReconf(v, a, lo+k)
			}
		}
	}
	return pol
}

// Greedy returns the policy that recovers on the largest allowed count
// not above n (greedy when every count is allowed), with interval I in
// every up state.
func (sv *Solver) Greedy(interval float64) *Policy {
	return sv.uniform(func(n int) int {
		best := 0
		for _, a := range sv.acts {
			if a <= n {
				best = a
			}
		}
		return best
	}, interval)
}

// FromVector returns the policy of the rescheduling vector r with interval
// I in every up state. It returns an error if r has the wrong length or
// uses a count the solver does not allow.
func (sv *Solver) FromVector(r reschedule.Vector, interval float64) (*Policy, error) {
	if len(r) != sv.n {
		return nil, fmt.Errorf("optimal: vector has %d entries, want %d", len(r), sv.n)
	}
	if err := r.Validate(); err != nil {
		return nil, err
	}
	for n := sv.lo; n <= sv.hi; n++ {
		if n > 0 && r.At(n) > 0 && sv.aIdx[r.At(n)] < 0 {
			return nil, fmt.Errorf("optimal: r(%d) = %d is not an allowed processor count", n, r.At(n))
		}
	}
	return sv.uniform(func(n int) int {
		if n == 0 {
			return 0
		}
		return r.At(n)
	}, interval), nil
}

// SegmentInterval returns the interval of an up segment on a processors
// with s functional spares at its start, for a simulator: the interval of
// U(a, s), or of the nearest spare count inside the window when U(a, s)
// is outside it. It returns 0 if a is not an allowed processor count.
func (pol *Policy) SegmentInterval(a, s int) float64 {
	sv := pol.sv
	if a < 1 || a > sv.n || sv.aIdx[a] < 0 {
		return 0
	}
	lo, hi := sv.spares(a)
	if hi <= lo {
		return 0
	}
	return pol.iv(sv.aIdx[a], min(max(s, lo), hi-1)-lo)
}

// Candidates returns the processor counts a run may use.
func (sv *Solver) Candidates() []int { return slices.Clone(sv.acts) }

// SizeError is New's error for a decision process larger than
// Settings.MaxStates allows: more states than MaxStates, or more recovery
// rows than MaxRows (rowsPerState per state allowed).
type SizeError struct {
	N                       int // processors
	States, Rows, MaxStates int
	MaxRows                 int // rowsPerState·MaxStates
}

// rowsPerState is the number of recovery rows (p, a, n) per allowed state
// that New accepts before its SizeError.
const rowsPerState = 4

func (e *SizeError) Error() string {
	return fmt.Sprintf("optimal: the decision process needs %d states and %d recovery rows, more than Settings.MaxStates = %d allows (restrict Settings.Candidates)", e.States, e.Rows, e.MaxStates)
}

// intervalOf returns the interval e^x of a search on log I, x within
// [log MinInterval, log MaxInterval]: the bound itself at either end,
// and e^x kept within [MinInterval, MaxInterval] between them, which
// rounding can leave by an ulp or so (e^(log 3.1536e9) is
// 3.1536000000000014e9), so that an interval found at a bound is the
// bound and reads back through FixedInterval.
func (sv *Solver) intervalOf(x float64) float64 { return sv.set.intervalOf(x) }

// intervalOf is Solver.intervalOf with the bounds of s.
func (s *Settings) intervalOf(x float64) float64 {
	lo, hi := s.MinInterval, s.MaxInterval
	switch {
	case x <= math.Log(lo):
		return lo
	case x >= math.Log(hi):
		return hi
	}
	return min(max(math.Exp(x), lo), hi)
}
