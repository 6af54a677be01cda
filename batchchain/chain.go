package batchchain

import (
	"fmt"
	"math"
	"slices"
	"sync/atomic"

	"github.com/ckpt-markov/markov/expm"
	"gonum.org/v1/gonum/mat"
)

// MaxDense bounds the order m + n + 2 of the dense Van Loan block of
// Chain.Transition (its memory grows with the square, its cost with the
// cube): 4096 is about 1 GB of workspace.
const MaxDense = 4096

// MaxSizes bounds the length of a size law (the largest event size):
// every size-like input is bounded before anything is allocated.
const MaxSizes = 1 << 16

// Chain is the spare-count chain of a segment on a used processors out of
// n, with batch failure events (see the package documentation). A Chain is
// immutable and safe for concurrent use.
type Chain struct {
	n, a, m int
	lambda  float64 // per-processor failure rate λ
	rate    float64 // event rate per functional processor, λ/E[K]
	theta   float64
	sizes   []float64 // normalised law of K, sizes[k-1] = P(K = k)
	// phase is the first Phase built, whose rates of every spare count
	// Rows then reads instead of recomputing them (the same values).
	phase atomic.Pointer[Phase]
}

// New returns the chain of a segment on a of n processors (m = n − a
// spare slots), with per-processor failure rate lambda (λ = 1/MTTF; events
// strike at λ/E[K] per functional processor), repair rate theta and the
// event size law sizes (sizes[k-1] = P(K = k); they are divided by their
// sum). It returns an error naming the argument if 1 ≤ a ≤ n does not hold,
// a rate is negative, NaN or infinite, or sizes is empty, longer than n or
// MaxSizes, has an entry that is not a finite non-negative number, or sums
// to zero.
func New(n, a int, lambda, theta float64, sizes []float64) (*Chain, error) {
	if n < 1 {
		return nil, fmt.Errorf("batchchain: n = %d, want ≥ 1", n)
	}
	if a < 1 || a > n {
		return nil, fmt.Errorf("batchchain: a = %d outside [1, n = %d]", a, n)
	}
	if err := checkRate("lambda", lambda); err != nil {
		return nil, err
	}
	if err := checkRate("theta", theta); err != nil {
		return nil, err
	}
	law, err := normalise(sizes, n)
	if err != nil {
		return nil, err
	}
	return &Chain{n: n, a: a, m: n - a, lambda: lambda, rate: lambda / mean(law), theta: theta, sizes: law}, nil
}

func checkRate(name string, v float64) error {
	if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
		return fmt.Errorf("batchchain: %s = %v is not a finite non-negative rate", name, v)
	}
	return nil
}

func checkTime(name string, v float64) error {
	if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
		return fmt.Errorf("batchchain: %s = %v is not a finite non-negative time", name, v)
	}
	return nil
}

// normalise validates a size law for a pool of n and divides it by its sum.
func normalise(sizes []float64, n int) ([]float64, error) {
	switch {
	case len(sizes) == 0:
		return nil, fmt.Errorf("batchchain: sizes is empty, want P(K = 1), P(K = 2), …")
	case len(sizes) > n || len(sizes) > MaxSizes:
		return nil, fmt.Errorf("batchchain: sizes has %d entries, more than n = %d (or %d)", len(sizes), n, MaxSizes)
	}
	var sum float64
	for k, p := range sizes {
		if math.IsNaN(p) || math.IsInf(p, 0) || p < 0 {
			return nil, fmt.Errorf("batchchain: sizes[%d] = %v is not a finite non-negative number", k, p)
		}
		sum += p
	}
	if sum == 0 {
		return nil, fmt.Errorf("batchchain: sizes sum to zero")
	}
	law := make([]float64, len(sizes))
	for k, p := range sizes {
		law[k] = p / sum
	}
	return law, nil
}

func mean(law []float64) float64 {
	var s float64
	for k, p := range law {
		s += float64(k+1) * p
	}
	return s
}

// Loss returns the law of the number of processors one event takes down
// when n ≥ 1 are functional, min(K, n): out[k-1] = P(min(K, n) = k),
// k = 1..min(n, K_max). sizes must be a normalised law (as Chain.Sizes).
func Loss(sizes []float64, n int) []float64 {
	out := make([]float64, min(n, len(sizes)))
	for k, p := range sizes {
		out[min(k, len(out)-1)] += p
	}
	return out
}

// N, A and M return the pool size n, the used count a and m = n − a.
func (c *Chain) N() int { return c.n }

// A returns the used count a.
func (c *Chain) A() int { return c.a }

// M returns m = n − a, the largest spare count.
func (c *Chain) M() int { return c.m }

// EventRate returns λ/E[K], the event rate per functional processor.
func (c *Chain) EventRate() float64 { return c.rate }

// Sizes returns the normalised size law (a fresh copy).
func (c *Chain) Sizes() []float64 { return append([]float64(nil), c.sizes...) }

// rates holds the generator entries of one state j (f = a + j functional):
// spare-only jumps j → j−k at down[k-1], interruptions leaving f − k
// functional at hit[k-1], a repair j → j+1 at up, total exit rate out.
type rates struct {
	down, hit []float64
	up, out   float64
}

// ratesAt fills r for spare count j. The probability that none of the a
// used processors is among k' = min(K, f) drawn uniformly from the f
// functional ones is h = Π_{i<k'} (j−i)/(f−i); its complement is
// accumulated as Σ_{i<k'} (Π_{l<i} (j−l)/(f−l))·a/(f−i) (the first used
// processor is the i-th drawn), a sum of positive terms, so both are
// accurate even when one is close to 1.
func (c *Chain) ratesAt(j int, r *rates) {
	f := c.a + j
	kmax := min(len(c.sizes), f)
	r.down = slices.Grow(r.down[:0], kmax)[:kmax]
	r.hit = slices.Grow(r.hit[:0], kmax)[:kmax]
	clear(r.down)
	clear(r.hit)
	ev := float64(f) * c.rate
	h, miss := 1.0, 0.0
	for k := 1; k <= kmax; k++ {
		// After this step: h = P(no used among k draws), miss = 1 − h.
		i := k - 1
		miss += h * float64(c.a) / float64(f-i)
		h *= float64(max(j-i, 0)) / float64(f-i)
		p := c.sizes[k-1]
		if k == kmax {
			// min(K, f) = f... or K_max: every larger size truncates here.
			p = 0
			for _, q := range c.sizes[k-1:] {
				p += q
			}
		}
		if p == 0 {
			continue
		}
		if h > 0 {
			r.down[k-1] = ev * p * h
		}
		r.hit[k-1] = ev * p * miss
	}
	r.up = float64(c.m-j) * c.theta
	r.out = ev + r.up
}

// HitRate returns the rate at which failure events strike at least one
// of a used processors among n functional (docs/model.md section 11),
// without building a Chain: events at n·rate (rate = λ/E[K] per
// processor), each of size k' = min(K, n), K of the normalised law
// sizes (sizes[k−1] = P(K = k)), missing the a used with the
// hypergeometric probability Π_{i<k'} (s − i)/(n − i), s = n − a, the hit
// probability summed as Σ_{i<k'} (Π_{l<i} (s − l)/(n − l))·a/(n − i), with
// no subtraction, as ratesAt does per size. It equals, to rounding, the
// row sum of B (Chain.Generator) at spare count s of the Chain with a
// used processors (package optimal's TestEventsChainHitRate, 1e-13):
// a·λ with sizes [1], a·rate with no spare (s = 0).
func HitRate(sizes []float64, rate float64, a, n int) float64 {
	s := n - a
	var hit, h float64
	miss := 1.0
	for i, p := range sizes {
		// h is the hit probability of an event of size min(i + 1, n).
		if i < n {
			h += miss * float64(a) / float64(n-i)
			miss *= float64(s-i) / float64(n-i)
		}
		hit += p * h
	}
	return float64(n) * rate * hit
}

// Generator returns the two parts of the generator of a segment: A, the
// (m+1)×(m+1) sub-generator of the spare count while the application runs
// (repairs j → j+1 at (m−j)θ, events that hit spares only j → j−k, and on
// the diagonal minus the total exit rate (a+j)λ/E[K] + (m−j)θ), and B, the
// (m+1)×n rates of the interrupting events from spare count j to n'
// functional processors just after the event, n' = a + j − k.
func (c *Chain) Generator() (a, b *mat.Dense) {
	n1 := c.m + 1
	a = mat.NewDense(n1, n1, nil)
	b = mat.NewDense(n1, c.n, nil)
	var r rates
	for j := 0; j <= c.m; j++ {
		c.ratesAt(j, &r)
		a.Set(j, j, -r.out)
		if j < c.m {
			a.Set(j, j+1, r.up)
		}
		for k, v := range r.down {
			if v > 0 {
				a.Set(j, j-k-1, v)
			}
		}
		for k, v := range r.hit {
			if v > 0 {
				b.Set(j, c.a+j-k-1, v)
			}
		}
	}
	return a, b
}

// Transition computes, for a segment of length t, with A and B the parts
// of the generator (see Generator),
//
//	P_t = exp(A t)                      into p ((m+1)×(m+1)),
//	Q_t = ∫₀ᵗ exp(A u) du · B           into q ((m+1)×n),
//	τ   = ∫₀ᵗ exp(A u) du · 1           into tau (length m+1),
//
// by one matrix exponential (package expm) of the Van Loan block
// [[A, B, 1], [0, 0, 0]]·t (Van Loan 1978). P_t[s, s'] is the probability
// that the segment is not interrupted and ends with s' spares; Q_t[s, n'] that
// the first interruption comes before t and leaves n' functional; τ[s] is the
// expected time to the end of the segment or the interruption. The cost is
// that of a dense exponential of order m + n + 2: use it for small n (tests,
// the model's exact path). Any destination may be nil; a non-empty one of the
// wrong size makes Transition panic with mat.ErrShape. It returns an error if
// t is negative, NaN or infinite, or if m + n + 2 exceeds MaxDense.
func (c *Chain) Transition(p, q *mat.Dense, tau []float64, t float64) error {
	n1 := c.m + 1
	for _, d := range []struct {
		m    *mat.Dense
		r, c int
	}{{p, n1, n1}, {q, n1, c.n}} {
		if d.m != nil && !d.m.IsEmpty() {
			if r, cc := d.m.Dims(); r != d.r || cc != d.c {
				panic(mat.ErrShape)
			}
		}
	}
	if tau != nil && len(tau) != n1 {
		panic(mat.ErrShape)
	}
	if err := checkTime("t", t); err != nil {
		return err
	}
	if c.m+c.n+2 > MaxDense {
		return fmt.Errorf("batchchain: the Van Loan block has order m + n + 2 = %d, more than MaxDense = %d: use Rows", c.m+c.n+2, MaxDense)
	}
	a, b := c.Generator()
	size := n1 + c.n + 1
	blk := mat.NewDense(size, size, nil)
	blk.Slice(0, n1, 0, n1).(*mat.Dense).Scale(t, a)
	blk.Slice(0, n1, n1, n1+c.n).(*mat.Dense).Scale(t, b)
	for j := 0; j < n1; j++ {
		blk.Set(j, size-1, t)
	}
	var e mat.Dense
	if err := expm.Exp(&e, blk, nil); err != nil {
		return err
	}
	if p != nil {
		if p.IsEmpty() {
			p.ReuseAs(n1, n1)
		}
		p.Copy(e.Slice(0, n1, 0, n1))
	}
	if q != nil {
		if q.IsEmpty() {
			q.ReuseAs(n1, c.n)
		}
		q.Copy(e.Slice(0, n1, n1, n1+c.n))
	}
	for j := range tau {
		tau[j] = e.At(j, size-1)
	}
	return nil
}
