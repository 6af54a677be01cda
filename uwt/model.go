package uwt

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"

	"github.com/ckpt-markov/markov/internal/decision"
	"github.com/ckpt-markov/markov/markov"
	"github.com/ckpt-markov/markov/reschedule"
	"github.com/ckpt-markov/markov/scenario"
	"gonum.org/v1/gonum/stat/distuv"
)

// Settings configures a Model. A nil *Settings means the fast path with the
// defaults documented on each field.
type Settings struct {
	// Exact builds the full state space (every functional count 0..N) with
	// full spare-chain rows: the validation path. The default fast
	// path builds only a window of functional counts around the likely ones
	// and widens it until the probability mass it drops is below Tol.
	Exact bool
	// Tol bounds the mass the fast path's window drops: the stationary
	// probability per jump of a transition that leaves the window, Σ πᵢdᵢ.
	// Zero means DefaultTol. Ignored by the exact path.
	Tol float64
	// Prune drops single transitions that carry less than this fraction
	// of the probability of leaving their state, p_ij < Prune·(1 − p_ii),
	// and renormalises their rows (the paper's pruning, made relative so
	// that it never cuts the last exit of a state); the states that only
	// pruned transitions reach are never visited. Zero means DefaultPrune;
	// a negative value disables pruning.
	Prune float64
	// Workers is the number of goroutines that compute spare-chain rows.
	// Zero means runtime.GOMAXPROCS(0). Results do not depend on it.
	Workers int
	// MaxStates caps the number of states built, so that an exact solve
	// that cannot fit in memory fails early with an error. Zero means
	// DefaultMaxStates.
	MaxStates int
	// MaxTransitions caps the transitions the model may need, estimated
	// from above before anything is built (at most two per column of each
	// state's spare-chain row that leads into the window; about 65 bytes
	// each while an interval is evaluated). Zero means
	// DefaultMaxTransitions. The exact path needs O(N³) of them.
	MaxTransitions int
	// OldCountBin, when above 1, makes the fast path keep the old count p
	// of the recovery and down states R(p, n), D(p, n) only up to bins of
	// that many consecutive used counts, each labelled by its middle count
	// and with the mean recovery cost of its counts (doc.go, "Old-count
	// bins"): an approximation with
	// an a-posteriori estimate of its error (Result.BinError), for
	// recovery costs that depend on p beyond the exact frontier. 0 or 1
	// keeps p exactly (the default); a recovery cost that does not depend
	// on p ignores it, and so does a scenario whose policy is a decision
	// table that depends on p (scenario.Scenario.Table: its actions need p
	// itself). It cannot be combined with Exact.
	OldCountBin int
}

// Defaults of Settings.
const (
	// DefaultTol is the default bound on the window's dropped mass.
	DefaultTol = 1e-12
	// DefaultPrune is the default single-transition pruning threshold,
	// chosen by experiment (TestPruneExperiment, over seven scenarios and
	// three intervals each): the largest relative change of UWT was
	// 6.2e-5 at ε = 1e-4, 5.2e-7 at 1e-6, 1.1e-8 at 1e-8, 6.4e-11 at 1e-10
	// and 3.3e-13 at 1e-12, so 1e-12 keeps the change far below the 1e-9
	// that TestPruneDefault requires. Pruning removed no state below
	// ε = 1e-6: chains of individually likely steps reach deep states, so
	// it is the fast path's window, not pruning, that bounds the state space.
	DefaultPrune = 1e-12
	// DefaultMaxStates is the default cap on the states built.
	DefaultMaxStates = 4_000_000
	// DefaultMaxTransitions is the default cap on the transitions: an
	// estimate (SizeError.Bytes) of at most 6.5 GB, 64 MB and 110 bytes
	// each.
	DefaultMaxTransitions = 58_500_000
)

func (s *Settings) withDefaults() Settings {
	var d Settings
	if s != nil {
		d = *s
	}
	if d.Tol == 0 {
		d.Tol = DefaultTol
	}
	if d.Prune == 0 {
		d.Prune = DefaultPrune
	}
	if d.Prune < 0 {
		d.Prune = 0
	}
	if d.Workers <= 0 {
		d.Workers = runtime.GOMAXPROCS(0)
	}
	if d.MaxStates <= 0 {
		d.MaxStates = DefaultMaxStates
	}
	if d.MaxTransitions <= 0 {
		d.MaxTransitions = DefaultMaxTransitions
	}
	return d
}

func (s Settings) validate() error {
	switch {
	case math.IsNaN(s.Tol) || s.Tol <= 0 || s.Tol >= 1:
		return fmt.Errorf("uwt: Settings.Tol = %v, want in (0, 1)", s.Tol)
	case math.IsNaN(s.Prune) || s.Prune >= 1:
		return fmt.Errorf("uwt: Settings.Prune = %v, want below 1", s.Prune)
	case s.OldCountBin < 0:
		return fmt.Errorf("uwt: Settings.OldCountBin = %d, want 0 or more", s.OldCountBin)
	case s.Exact && s.OldCountBin > 1:
		return fmt.Errorf("uwt: Settings.Exact and Settings.OldCountBin = %d both set: the exact path keeps every old count (it is the validation path)", s.OldCountBin)
	}
	return nil
}

// Model is the Markov model of one scenario: the state skeleton and
// everything that does not depend on the checkpoint interval I, built
// once and reused for every evaluation. A Model is not safe for concurrent
// use; build one per goroutine.
type Model struct {
	sc     *scenario.Scenario
	set    Settings
	given  Settings // the settings as given (zero for nil), for the comparison model
	lambda float64
	theta  float64
	rule   reschedule.Rule // the policy: sc.Rule()
	byOld  bool            // recovery cost or policy depends on the old processor count
	// bin is the number of consecutive used counts that share one old
	// count (Settings.OldCountBin; 1 keeps p exactly, and always when
	// byOld is false); compare holds the two models of other bins that
	// estimate the error (Model.binError), built on first use.
	bin      int
	binShift int // the first bin's width when not bin (the shifted comparison model), 0 otherwise
	compare  [2]*Model
	events   *events // failure events; nil for single failures
	rows     *spareChains
	sk       *skeleton
	warm     []float64             // last stationary distribution, for a warm start
	asm      *assembly             // the buffers of the last evaluation's chain, reused
	pc       markov.Preconditioner // ILU(0) factors reused across intervals
	mode     int                   // most likely functional count
	// phase: an up state stands for a whole up phase (doc.go, "Up
	// phases"), so that the chain does not depend on I and is solved once
	// per window; solved holds that solution.
	phase  bool
	solved *phaseSolution
}

// New builds the model of sc: the states and the recovery rows, which for
// a large exact model take long enough to be worth cancelling through ctx.
// It returns an error if the scenario does not validate, the settings are
// out of range or ctx is done.
func New(ctx context.Context, sc *scenario.Scenario, s *Settings) (*Model, error) {
	return newModel(ctx, sc, s, 0)
}

// newModel is New with the first old-count bin shift counts wide (the
// shifted comparison model of Result.BinError; 0: as wide as the others).
func newModel(ctx context.Context, sc *scenario.Scenario, s *Settings, shift int) (*Model, error) {
	if sc == nil {
		return nil, errors.New("uwt: nil scenario")
	}
	if err := sc.Validate(); err != nil {
		return nil, err
	}
	if err := sc.SingleLevel("package uwt"); err != nil {
		return nil, err
	}
	if r := sc.Application.ReplicaCount(); r > 1 {
		return nil, fmt.Errorf("uwt: application.replicas = %d: this model has one replica per process; package replication models replicas", r)
	}
	var given Settings
	if s != nil {
		given = *s
	}
	set := s.withDefaults()
	if err := set.validate(); err != nil {
		return nil, err
	}
	m := &Model{
		sc:     sc,
		set:    set,
		given:  given,
		lambda: sc.System.Lambda(),
		theta:  sc.System.Theta(),
		rule:   sc.Rule(),
		byOld:  sc.Application.Recovery.DependsOnOld() || sc.Table != nil,
		events: newEvents(sc.System),
		bin:    1,
	}
	if m.byOld && set.OldCountBin > 1 && sc.Table == nil {
		m.bin, m.binShift = set.OldCountBin, shift
	}
	m.phase = !set.Exact && (m.events == nil || eventPhases) && sc.Reconfigure != scenario.AtCheckpoint
	m.rows = newSpareChains(m.lambda, m.theta, set.Exact)
	m.mode = sc.N() - decision.Mode(sc.N(), m.lambda/(m.lambda+m.theta))
	lo, hi := m.window()
	if m.events != nil {
		m.rows.batch = &batchChains{n: sc.N(), lambda: m.lambda, theta: m.theta, sizes: m.events.sizes}
		blo, bhi, mode, err := decision.EventsWindow(sc.N(), m.lambda, m.theta, m.events.sizes, set.Tol)
		if err != nil {
			return nil, fmt.Errorf("uwt: %w", err)
		}
		m.mode = mode
		if !set.Exact {
			lo, hi = blo, bhi
		}
	}
	if err := m.build(ctx, lo, hi); err != nil {
		return nil, err
	}
	return m, nil
}

// Scenario returns the scenario the model was built from.
func (m *Model) Scenario() *scenario.Scenario { return m.sc }

// States returns the number of states built (the window of the fast path,
// every state of the exact path), before restriction to the states the
// chain actually visits.
func (m *Model) States() int { return len(m.sk.states) }

// build makes the skeleton for functional counts [lo, hi].
func (m *Model) build(ctx context.Context, lo, hi int) error {
	sk, err := newSkeleton(m, lo, hi)
	if err != nil {
		return err
	}
	m.solved = nil
	if a, ok := m.oneClass(lo, hi); ok {
		// No chain to build or solve (doc.go, "One recovery class").
		m.sk = sk
		m.solved = m.oneClassSolution(a)
		return nil
	}
	if err := m.fillAll(ctx, sk.fixed); err != nil {
		return err
	}
	m.sk = sk
	m.warm = nil
	m.pc = markov.Preconditioner{}
	return nil
}

// window returns the functional counts [lo, hi] the model starts from:
// every count on the exact path; on the fast path, those where the
// stationary law of the functional count, Binomial(N, θ/(λ+θ)), has all
// but Settings.Tol of its mass on each side, plus a margin.
func (m *Model) window() (lo, hi int) {
	if m.set.Exact {
		return 0, m.sc.N()
	}
	return decision.Window(m.sc.N(), m.lambda/(m.lambda+m.theta), m.set.Tol)
}

// widen returns the window [lo, hi] widened by its width (at least 4) on
// each side, within [0, N]: the fast path's next window when the mass
// leaving the current one exceeds Settings.Tol.
func (m *Model) widen(lo, hi int) (int, int) {
	w := max(hi-lo, 4)
	return max(lo-w, 0), min(hi+w, m.sc.N())
}

// eventPhases makes the fast path with failure events solve the chain of
// up phases (doc.go, "Up phases"); tests turn it off to solve the
// per-segment chain instead, its oracle.
var eventPhases = true

// lumpOneClass enables the closed form of a window with one recovery
// class; tests turn it off to solve the same chain instead.
var lumpOneClass = true

// oneClass reports whether the chain of up phases over the window [lo, hi]
// has one recovery class: every functional count in it recovers on the
// same a = r(k) > 0 (doc.go, "One recovery class"), which it returns.
func (m *Model) oneClass(lo, hi int) (int, bool) {
	if !m.phase || !lumpOneClass || m.events != nil {
		// With failure events the interruptions of the used processors
		// are not a Poisson process: no closed form.
		return 0, false
	}
	if m.sc.Table != nil {
		return 0, false // the class may depend on p
	}
	a := m.rOf(0, lo)
	for k := lo + 1; k <= hi && a > 0; k++ {
		if m.rOf(0, k) != a {
			return 0, false
		}
	}
	return a, a > 0
}

// oneClassSolution returns the solution of a window with one recovery
// class a: by PASTA the functional count just before a failure of the
// used processors (a Poisson process of rate aλ, whatever the other
// processors do) has the time-stationary law Binomial(N, θ/(λ+θ)), so
// the decision state after it, R(p, k) with p = a, has the probability of
// k + 1 under that law, normalised over the window; the mass outside is
// what the window drops. Every state has the same rewards, so no chain is
// built or solved.
func (m *Model) oneClassSolution(a int) *phaseSolution {
	sk, n := m.sk, m.sc.N()
	up := distuv.Binomial{N: float64(n), P: m.theta / (m.lambda + m.theta)}
	down := distuv.Binomial{N: float64(n), P: m.lambda / (m.lambda + m.theta)}
	// The law of the count just before a failure outside [lo+1, hi+1],
	// each tail from its own side (no cancellation near 1).
	outside := up.CDF(float64(sk.lo))
	if sk.hi+2 <= n {
		outside += down.CDF(float64(n - sk.hi - 2))
	}
	res := Result{Built: len(sk.states), Dropped: outside, Outside: outside, OneClass: true}
	p := 0
	if m.byOld {
		p = a
	}
	var mass float64
	pi := make([]float64, len(sk.states))
	for k := sk.lo; k <= sk.hi; k++ {
		i := sk.index[sk.decision(m, p, k)]
		pi[i] = up.Prob(float64(k + 1))
		mass += pi[i]
	}
	for i := range pi {
		switch {
		case mass > 0:
			pi[i] /= mass
		case sk.segOf[i] != nil:
			// A window without mass (one count, where no failure can
			// leave it): any law serves, the rewards are all the same,
			// and Outside makes the window widen.
			pi[i] = 1
		}
	}
	res.pi, res.sk = pi, sk
	tau := make([]float64, len(sk.states))
	for i := range tau {
		if g := sk.segOf[i]; g != nil {
			tau[i] = 1 / g.rho
		}
	}
	ps := newPhaseSolution(res, sk, tau)
	ps.res.States, ps.res.Recurrent = len(ps.rec), len(ps.rec)
	return ps
}
