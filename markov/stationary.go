package markov

import (
	"errors"
	"fmt"
	"math"
	"slices"

	krylov "github.com/ckpt-markov/markov/internal/gmres"
)

// Defaults of Settings.
const (
	// DefaultTol is the default bound on the residual ‖πᵀP − πᵀ‖₁.
	DefaultTol = 1e-12
	// DefaultMaxIter is the default limit on GMRES iterations.
	DefaultMaxIter = 2000
	// DefaultRestart is the default GMRES restart length.
	DefaultRestart = 30
	// DefaultDenseMax is the largest class that Auto solves densely.
	DefaultDenseMax = 150
	// AutoBandedWork and AutoBandedMemory bound the use of Banded by Auto:
	// a class of n states with bandwidths l, u and nnz transitions is solved
	// by Banded when n·l·u ≤ AutoBandedWork·nnz (the elimination costs at
	// most a few hundred GMRES iterations) and n·(l+u+1) ≤ AutoBandedMemory
	// (the band storage, in float64s).
	AutoBandedWork   = 500
	AutoBandedMemory = 1 << 24
)

// maxDirectEntries is the largest matrix (in float64s, 1 GiB) that Dense and
// Banded accept to allocate.
const maxDirectEntries = 1 << 27

// ErrNoConvergence is returned (wrapped) when a stationary solve ends with a
// residual above the tolerance.
var ErrNoConvergence = errors.New("markov: stationary solve did not reach the tolerance")

// Method is a stationary-distribution algorithm.
type Method int

const (
	// Auto picks Dense for classes of at most Settings.DenseMax states,
	// Banded for larger classes of small bandwidth (see AutoBandedWork),
	// and Iterative otherwise.
	Auto Method = iota
	// Dense is the Grassmann–Taksar–Heyman state reduction on a dense copy
	// of the class: O(n³) time, O(n²) memory, no subtractions.
	Dense
	// Banded is the same state reduction in band storage: with l and u the
	// lower and upper bandwidths of the class (in state order), O(n·l·u)
	// time and O(n·(l+u+1)) memory. It is exact and fast for chains whose
	// states are ordered so that transitions are short, however slowly
	// they mix.
	Banded
	// Iterative is restarted GMRES preconditioned by an incomplete LU
	// factorisation, on the sparse matrix.
	Iterative
)

// String returns the name of the method.
func (m Method) String() string {
	switch m {
	case Auto:
		return "Auto"
	case Dense:
		return "Dense"
	case Banded:
		return "Banded"
	case Iterative:
		return "Iterative"
	}
	return fmt.Sprintf("Method(%d)", int(m))
}

// Status describes how a stationary solve ended.
type Status int

const (
	// NotSolved is the zero Status: no solve was attempted.
	NotSolved Status = iota
	// Converged means the residual is at most the tolerance.
	Converged
	// IterationLimit means the iterative method used MaxIter iterations
	// without reaching the tolerance.
	IterationLimit
	// ResidualTooLarge means the method finished but the residual of its
	// result exceeds the tolerance (e.g. a dense solve of a chain too badly
	// conditioned for the requested tolerance).
	ResidualTooLarge
)

// String returns the name of the status.
func (s Status) String() string {
	switch s {
	case NotSolved:
		return "NotSolved"
	case Converged:
		return "Converged"
	case IterationLimit:
		return "IterationLimit"
	case ResidualTooLarge:
		return "ResidualTooLarge"
	}
	return fmt.Sprintf("Status(%d)", int(s))
}

// Settings controls Stationary. A nil *Settings means the zero value, and
// every zero field means its default.
type Settings struct {
	// Method selects the algorithm (default Auto).
	Method Method
	// Tol bounds the residual ‖πᵀP − πᵀ‖₁ of the result (default
	// DefaultTol). The iterative method stops when it is reached; both
	// methods report Converged only when it holds.
	Tol float64
	// MaxIter limits the total number of GMRES iterations (default
	// DefaultMaxIter). Each costs one product with P and one
	// preconditioner solve.
	MaxIter int
	// Restart is the GMRES restart length m (default DefaultRestart, at
	// most 4096, the MaxRestart of package internal/gmres); the solver
	// keeps min(m, n)+1 vectors of the class size n.
	Restart int
	// DenseMax is the largest class size that Auto solves with Dense
	// (default DefaultDenseMax; negative: never).
	DenseMax int
	// Start, if not nil, is the initial guess of the iterative method (a
	// warm start, typically the distribution of a nearby chain). It must
	// have length Len(), non-negative finite entries and positive mass on
	// the closed class; it is normalised there. The direct methods check it
	// and ignore it.
	Start []float64
	// Preconditioner, if not nil, carries the ILU(0) factors of the
	// Iterative method from one solve to the next (of the chains of a
	// parameter search, say): when the closed class has the same states
	// (by index) as in the solve that computed them, the factors are used
	// again without being recomputed, as long as GMRES converges with them
	// within twice the iterations it needed when they were fresh (plus
	// 20); otherwise they are recomputed and the solve continues from
	// where it stopped. Any nonsingular preconditioner leaves the result's
	// tolerance unchanged (convergence is judged on the true residual);
	// only the iterate at which GMRES stops differs, inside Tol. A
	// Preconditioner is not safe for concurrent use.
	Preconditioner *Preconditioner
}

// Preconditioner holds ILU(0) factors for reuse across stationary solves
// (Settings.Preconditioner). The zero value holds none.
type Preconditioner struct {
	states []int // the class the factors were computed for
	ilu    *ilu0
	iters  int // GMRES iterations of the solve that computed them
	// Reused and Factored count the solves that used the held factors and
	// those that computed new ones.
	Reused, Factored int
}

// solveIterative runs GMRES on a from x with pc's factors when they fit
// the class states, else (or when they no longer converge in budget) with
// fresh ones, which it stores in pc. pc may be nil.
func solveIterative(a *csrMat, x []float64, states []int, s Settings, pc *Preconditioner) (int, error) {
	iters := 0
	if pc != nil && pc.ilu != nil && slices.Equal(pc.states, states) {
		budget := min(s.MaxIter, 2*pc.iters+20)
		var err error
		if iters, err = gmres(a, pc.ilu, x, s.Tol, budget, s.Restart); err != nil || iters < budget {
			if err == nil {
				pc.Reused++
			}
			return iters, err
		}
	}
	ilu := newILU0(a)
	more, err := gmres(a, ilu, x, s.Tol, s.MaxIter-iters, s.Restart)
	if err != nil {
		return iters, err
	}
	if pc != nil {
		pc.states = append(pc.states[:0], states...)
		pc.ilu, pc.iters = ilu, more
		pc.Factored++
	}
	return iters + more, nil
}

// Result is the outcome of Stationary.
type Result struct {
	// Pi is the stationary distribution, indexed by state. It sums to 1
	// and is exactly zero on transient states.
	Pi []float64
	// Residual is ‖πᵀP − πᵀ‖₁.
	Residual float64
	// Iterations is the number of GMRES iterations (0 for Dense and Banded).
	Iterations int
	// Method is the algorithm actually used (never Auto).
	Method Method
	// Status tells whether Residual ≤ Tol.
	Status Status
	// Class is the closed class carrying π.
	Class Class
}

// Stationary computes the stationary distribution π of the chain, the
// unique probability vector with πᵀP = πᵀ. The chain must have exactly one
// closed communicating class (any period is allowed); its transient states
// get π = 0. Otherwise the error wraps ErrReducible.
//
// When the result does not meet the tolerance, Stationary returns it
// together with an error wrapping ErrNoConvergence; Result.Status says why.
func (c *Chain[L]) Stationary(settings *Settings) (Result, error) {
	s, err := c.withDefaults(settings)
	if err != nil {
		return Result{}, err
	}
	class, err := c.uniqueClass()
	if err != nil {
		return Result{}, err
	}
	states := class.States
	nc := len(states)
	// local[i] is the position of state i in the class, or -1.
	local := make([]int, len(c.labels))
	for i := range local {
		local[i] = -1
	}
	for k, i := range states {
		local[i] = k
	}
	lower, upper := c.bandwidths(states, local)
	method := s.Method
	if method == Auto {
		var nnz int
		for _, i := range states {
			nnz += c.indptr[i+1] - c.indptr[i]
		}
		method = autoMethod(nc, nnz, lower, upper, s.DenseMax)
	}
	switch width := float64(nc); {
	case method == Iterative && nc > math.MaxInt32:
		return Result{}, fmt.Errorf("markov: Iterative method on a class of %d states: more than 2³¹−1", nc)
	case method == Dense && width*width > maxDirectEntries,
		method == Banded && width*float64(lower+upper+1) > maxDirectEntries:
		return Result{}, fmt.Errorf("markov: %v method on a class of %d states (bandwidths %d, %d) needs more than %d float64s",
			method, nc, lower, upper, maxDirectEntries)
	}

	res := Result{Pi: make([]float64, len(c.labels)), Method: method, Class: class}
	x := make([]float64, nc)
	switch {
	case nc == 1:
		x[0] = 1
	case method == Dense:
		err = gth(c.denseClass(states, local), nc, x)
	case method == Banded:
		err = gthBanded(c.bandedClass(states, local, lower, upper), nc, lower, upper, x)
	default:
		if err = c.startVector(x, s.Start, states); err == nil {
			a := c.generatorTrans(states, local)
			res.Iterations, err = solveIterative(a, x, states, s, s.Preconditioner)
		}
	}
	if err != nil {
		return Result{}, err
	}

	ok := cleanDistribution(x)
	for k, i := range states {
		res.Pi[i] = x[k]
	}
	res.Residual = math.Inf(1)
	if ok {
		res.Residual = c.Residual(res.Pi)
	}
	switch {
	case res.Residual <= s.Tol:
		res.Status = Converged
	case method == Iterative && res.Iterations >= s.MaxIter:
		res.Status = IterationLimit
	default:
		res.Status = ResidualTooLarge
	}
	if res.Status != Converged {
		return res, fmt.Errorf("%w: %v after %d iterations of %v: residual %.3g > tolerance %.3g",
			ErrNoConvergence, res.Status, res.Iterations, method, res.Residual, s.Tol)
	}
	return res, nil
}

// withDefaults validates settings and fills in the defaults.
func (c *Chain[L]) withDefaults(settings *Settings) (Settings, error) {
	var s Settings
	if settings != nil {
		s = *settings
	}
	if s.Tol == 0 {
		s.Tol = DefaultTol
	}
	if s.MaxIter == 0 {
		s.MaxIter = DefaultMaxIter
	}
	if s.Restart == 0 {
		s.Restart = DefaultRestart
	}
	if s.DenseMax == 0 {
		s.DenseMax = DefaultDenseMax
	}
	switch {
	case !(s.Tol > 0):
		return s, fmt.Errorf("markov: Settings.Tol = %v, want positive", s.Tol)
	case s.MaxIter < 0:
		return s, fmt.Errorf("markov: Settings.MaxIter = %d, want positive", s.MaxIter)
	case s.Restart < 0 || s.Restart > krylov.MaxRestart:
		return s, fmt.Errorf("markov: Settings.Restart = %d, want 1 to %d", s.Restart, krylov.MaxRestart)
	case s.Method < Auto || s.Method > Iterative:
		return s, fmt.Errorf("markov: Settings.Method = %v, unknown", s.Method)
	case s.Start != nil && len(s.Start) != len(c.labels):
		return s, fmt.Errorf("markov: len(Settings.Start) = %d, want %d", len(s.Start), len(c.labels))
	}
	for i, v := range s.Start {
		if !(v >= 0) || math.IsInf(v, 1) {
			return s, fmt.Errorf("markov: Settings.Start[%d] (state %v) = %v, want finite and non-negative",
				i, c.labels[i], v)
		}
	}
	return s, nil
}

// autoMethod is the choice of Auto for a class of n states with nnz
// transitions and bandwidths lower, upper.
func autoMethod(n, nnz, lower, upper, denseMax int) Method {
	fn := float64(n)
	switch {
	case n <= denseMax:
		return Dense
	case fn*float64(lower)*float64(upper) <= AutoBandedWork*float64(nnz) &&
		fn*float64(lower+upper+1) <= AutoBandedMemory:
		return Banded
	}
	return Iterative
}

// startVector sets x to the initial iterate on the class: start restricted
// to it, or uniform when start is nil.
func (c *Chain[L]) startVector(x, start []float64, states []int) error {
	if start == nil {
		for k := range x {
			x[k] = 1
		}
		return nil
	}
	var mass float64
	for k, i := range states {
		x[k] = start[i]
		mass += x[k]
	}
	if !(mass > 0) {
		return fmt.Errorf("markov: Settings.Start has no mass on the closed class (containing state %v)",
			c.labels[states[0]])
	}
	return nil
}

// cleanDistribution sets negative entries (rounding noise of an iterative
// solve) to zero and scales x to sum 1 with a compensated sum. It reports
// false, leaving x unscaled, when x has no positive finite mass.
func cleanDistribution(x []float64) bool {
	for k, v := range x {
		if v < 0 {
			x[k] = 0
		}
	}
	sum := neumaierSum(x)
	if !(sum > 0) || math.IsInf(sum, 1) {
		return false
	}
	for k := range x {
		x[k] /= sum
	}
	return true
}

// denseClass returns the transition matrix restricted to a closed class as
// a dense row-major slice.
func (c *Chain[L]) denseClass(states, local []int) []float64 {
	nc := len(states)
	a := make([]float64, nc*nc)
	for k, i := range states {
		row := a[k*nc : (k+1)*nc]
		for p := c.indptr[i]; p < c.indptr[i+1]; p++ {
			row[local[c.ind[p]]] = c.data[p]
		}
	}
	return a
}
