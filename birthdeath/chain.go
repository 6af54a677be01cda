package birthdeath

import (
	"errors"
	"fmt"
	"math"
	"sync"

	"gonum.org/v1/gonum/mat"
)

// Method selects how Chain.Transition computes P_T and Q_T(ρ).
type Method int

const (
	// Auto picks the method. It always picks ClosedForm, which is valid for
	// every m and every pair of rates and is also the fastest of the three
	// (see the package documentation for the measurements behind this).
	Auto Method = iota
	// VanLoan takes one matrix exponential of the 2(m+1)×2(m+1) Van Loan
	// block matrix with package expm (a second one, of G_m·T, for P_T when
	// ρT > 1).
	VanLoan
	// Eigen uses the spectral decomposition of the symmetrised generator,
	// computed once per Chain. It requires λ > 0 and θ > 0 and is accurate
	// to 1e-12 only in the range documented in the package documentation.
	Eigen
	// ClosedForm uses the binomial convolution for P_T and the resolvent
	// identity Q_T = ρ(ρI − G_m)⁻¹(I − e^{−ρT}P_T) for Q_T.
	ClosedForm
)

// String returns the name of the method.
func (m Method) String() string {
	switch m {
	case Auto:
		return "Auto"
	case VanLoan:
		return "VanLoan"
	case Eigen:
		return "Eigen"
	case ClosedForm:
		return "ClosedForm"
	}
	return fmt.Sprintf("Method(%d)", int(m))
}

// Settings configures Chain.Transition. A nil *Settings is the zero value:
// Method Auto.
type Settings struct {
	// Method selects the algorithm; the zero value is Auto.
	Method Method
}

// Chain is the spare-count birth–death chain on 0..m with generator G_m:
// j → j−1 at rate jλ and j → j+1 at rate (m−j)θ. A Chain is immutable and
// safe for concurrent use; the eigendecomposition used by the Eigen method
// is computed on first use and cached, and so are, when KeepFactors asks
// for it, the factorisations of Rows and Resolvent (neither changes a
// result).
type Chain struct {
	m             int
	lambda, theta float64

	eigOnce sync.Once
	eig     *eigenBasis
	eigErr  error

	factors factorCache // KeepFactors
}

// New returns the chain on 0..m with failure rate lambda (λ, per functional
// processor) and repair rate theta (θ, per failed processor).
//
// Both rates must be finite and non-negative. λ = 0 (no failures: the
// count only rises) and θ = 0 (no repairs: the count only falls) are
// allowed limits, and so is λ = θ = 0 (P_T = I); the Eigen method needs
// both rates positive. New returns an error naming the argument if m < 0
// or a rate is negative, NaN or infinite.
func New(m int, lambda, theta float64) (*Chain, error) {
	if m < 0 {
		return nil, fmt.Errorf("birthdeath: m = %d is negative", m)
	}
	if err := checkRate("lambda", lambda); err != nil {
		return nil, err
	}
	if err := checkRate("theta", theta); err != nil {
		return nil, err
	}
	return &Chain{m: m, lambda: lambda, theta: theta}, nil
}

func checkRate(name string, v float64) error {
	if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
		return fmt.Errorf("birthdeath: %s = %v is not a finite non-negative rate", name, v)
	}
	return nil
}

// M returns m, the largest state of the chain.
func (c *Chain) M() int { return c.m }

// Lambda returns the failure rate λ.
func (c *Chain) Lambda() float64 { return c.lambda }

// Theta returns the repair rate θ.
func (c *Chain) Theta() float64 { return c.theta }

// Generator returns a new (m+1)×(m+1) dense copy of the generator G_m.
func (c *Chain) Generator() *mat.Dense {
	n := c.m + 1
	g := mat.NewDense(n, n, nil)
	for j := 0; j < n; j++ {
		down := float64(j) * c.lambda
		up := float64(c.m-j) * c.theta
		if j > 0 {
			g.Set(j, j-1, down)
		}
		if j < c.m {
			g.Set(j, j+1, up)
		}
		g.Set(j, j, -(down + up))
	}
	return g
}

// Transition computes, for a segment of length t and a competing failure
// rate rho (ρ = aλ for a used processors),
//
//	P_t    = exp(G_m t)                       into p,
//	Q_t(ρ) = ∫₀ᵗ ρ e^{−ρu} exp(G_m u) du      into q,
//
// with the method selected by s (nil means Auto). Either destination may be
// nil to skip it. A non-nil destination must be empty (it is then resized)
// or (m+1)×(m+1); otherwise Transition panics with mat.ErrShape.
//
// Transition returns an error naming the argument if t or rho is negative,
// NaN or infinite, if s names an unknown method, or if the Eigen method is
// asked for a chain with λ = 0 or θ = 0 or produces a non-finite entry.
// On error the destinations are left unchanged.
func (c *Chain) Transition(p, q *mat.Dense, t, rho float64, s *Settings) error {
	n := c.m + 1
	for _, d := range []*mat.Dense{p, q} {
		if d != nil && !d.IsEmpty() {
			if r, cc := d.Dims(); r != n || cc != n {
				panic(mat.ErrShape)
			}
		}
	}
	if err := checkTime("t", t); err != nil {
		return err
	}
	if err := checkRate("rho", rho); err != nil {
		return err
	}
	method := Auto
	if s != nil {
		method = s.Method
	}
	var pp, qq *mat.Dense
	var err error
	switch method {
	case Auto, ClosedForm:
		pp, qq, err = c.closedDense(t, rho, p != nil, q != nil)
	case VanLoan:
		pp, qq, err = c.vanLoanDense(t, rho, p != nil, q != nil)
	case Eigen:
		pp, qq, err = c.eigenDense(t, rho, p != nil, q != nil)
	default:
		return fmt.Errorf("birthdeath: unknown Settings.Method %v", method)
	}
	if err != nil {
		return err
	}
	if p != nil {
		if p.IsEmpty() {
			p.ReuseAs(n, n)
		}
		p.Copy(pp)
	}
	if q != nil {
		if q.IsEmpty() {
			q.ReuseAs(n, n)
		}
		q.Copy(qq)
	}
	return nil
}

func checkTime(name string, v float64) error {
	if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
		return fmt.Errorf("birthdeath: %s = %v is not a finite non-negative time", name, v)
	}
	return nil
}

// errNonFinite is returned when a method produces a NaN or an infinite entry.
var errNonFinite = errors.New("birthdeath: result has a non-finite entry")
