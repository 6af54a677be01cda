package uwt

import (
	"sync"

	"github.com/ckpt-markov/markov/birthdeath"
)

// rowTol is the mass each spare-chain row may leave out of its column
// window on the fast path: far below DefaultTol, so that the window of
// functional counts, not the row tails, dominates the dropped mass.
const rowTol = 1e-16

// fastSource computes only the requested rows, each on the columns that
// carry its mass, by birthdeath's closed form (binomial convolution for
// P_T, a tridiagonal resolvent solve for Q_T): cost O(√m) per entry kept
// rather than an O(m³) dense matrix per chain.
type fastSource struct {
	lambda, theta float64
	chains        sync.Map // m → *birthdeath.Chain
}

func newFastSource(lambda, theta float64) *fastSource {
	return &fastSource{lambda: lambda, theta: theta}
}

func (f *fastSource) rows(m int, t, rho float64, s0, s1 int) (*block, error) {
	c, ok := f.chains.Load(m)
	if !ok {
		bc, err := birthdeath.New(m, f.lambda, f.theta)
		if err != nil {
			return nil, err
		}
		c, _ = f.chains.LoadOrStore(m, bc)
	}
	rb, err := c.(*birthdeath.Chain).Rows(s0, s1, t, rho, rowTol)
	if err != nil {
		return nil, err
	}
	b := &block{s0: s0, lo: make([]int, s1-s0), p: make([][]float64, s1-s0), q: make([][]float64, s1-s0)}
	for k, r := range rb.Rows {
		b.lo[k], b.p[k], b.q[k] = r.Lo, r.P, r.Q
	}
	return b, nil
}
