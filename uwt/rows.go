package uwt

import (
	"sync"

	"gonum.org/v1/gonum/mat"

	"github.com/ckpt-markov/markov/birthdeath"
)

// block holds rows [s0, s0+len(lo)) of P_T and Q_T(ρ) of one spare chain;
// row s covers the columns lo[s−s0] .. lo[s−s0]+len(p[s−s0])−1 and is zero
// (below the source's tolerance) elsewhere.
type block struct {
	s0   int
	lo   []int
	p, q [][]float64
}

func (b *block) row(s int) (lo int, p, q []float64) {
	k := s - b.s0
	return b.lo[k], b.p[k], b.q[k]
}

// rowSource computes blocks of spare-chain rows. Implementations must be
// safe for concurrent use.
type rowSource interface {
	rows(m int, t, rho float64, s0, s1 int) (*block, error)
}

// exactSource computes full dense rows with birthdeath's Auto method.
type exactSource struct {
	lambda, theta float64
	mu            sync.Mutex
	chains        map[int]*birthdeath.Chain
}

func newExactSource(lambda, theta float64) *exactSource {
	return &exactSource{lambda: lambda, theta: theta, chains: map[int]*birthdeath.Chain{}}
}

// chain returns the cached spare chain with m other processors, so that
// its eigendecomposition is computed once per model.
func (e *exactSource) chain(m int) (*birthdeath.Chain, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if c, ok := e.chains[m]; ok {
		return c, nil
	}
	c, err := birthdeath.New(m, e.lambda, e.theta)
	if err != nil {
		return nil, err
	}
	e.chains[m] = c
	return c, nil
}

func (e *exactSource) rows(m int, t, rho float64, s0, s1 int) (*block, error) {
	c, err := e.chain(m)
	if err != nil {
		return nil, err
	}
	var p, q mat.Dense
	if err := c.Transition(&p, &q, t, rho, nil); err != nil {
		return nil, err
	}
	b := &block{s0: s0, lo: make([]int, s1-s0), p: make([][]float64, s1-s0), q: make([][]float64, s1-s0)}
	for s := s0; s < s1; s++ {
		b.p[s-s0] = p.RawRowView(s)
		b.q[s-s0] = q.RawRowView(s)
	}
	return b, nil
}
