package decision

import (
	"fmt"
	"sync"

	"github.com/ckpt-markov/markov/birthdeath"
)

// RowTol is the mass each spare-chain row may leave out of its column
// window: far below the window's tail mass, so that the window of
// functional counts, not the row tails, dominates the dropped mass.
const RowTol = 1e-16

// Chains is a cache of the spare chains of processors failing at rate λ
// and repaired at rate θ, by the number m of other processors: each chain
// holds its eigendecomposition and factorisations, computed once and
// shared by every segment and interval. It is safe for concurrent use,
// and so are the chains it returns (package birthdeath).
type Chains struct {
	lambda, theta float64
	mu            sync.Mutex
	chains        map[int]*birthdeath.Chain
	keep          int // KeepFactors' bound per chain
}

// NewChains returns an empty cache.
func NewChains(lambda, theta float64) *Chains {
	return &Chains{lambda: lambda, theta: theta, chains: map[int]*birthdeath.Chain{}}
}

// Chain returns the spare chain with m other processors, built on first
// use.
func (c *Chains) Chain(m int) (*birthdeath.Chain, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if ch, ok := c.chains[m]; ok {
		return ch, nil
	}
	ch, err := birthdeath.New(m, c.lambda, c.theta)
	if err != nil {
		return nil, err
	}
	if err := ch.KeepFactors(c.keep); err != nil {
		return nil, err
	}
	c.chains[m] = ch
	return ch, nil
}

// KeepFactors makes every chain of the cache, built before or after,
// keep up to perChain entries of its factorisations
// (birthdeath.Chain.KeepFactors): the rows are the same bit for bit, and
// a caller that asks for single rows of the same chains many times saves
// their factorisations. It returns an error if perChain is negative.
func (c *Chains) KeepFactors(perChain int) error {
	if perChain < 0 {
		return fmt.Errorf("decision: KeepFactors: maxEntries = %d is negative", perChain)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, ch := range c.chains {
		if err := ch.KeepFactors(perChain); err != nil {
			return err
		}
	}
	c.keep = perChain
	return nil
}
