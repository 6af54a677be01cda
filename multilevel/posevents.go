package multilevel

import (
	"gonum.org/v1/gonum/mat"

	"github.com/ckpt-markov/markov/batchchain"
	"github.com/ckpt-markov/markov/expm"
	"github.com/ckpt-markov/markov/scenario"
	"github.com/ckpt-markov/markov/uwt"
)

// positionalOf returns the positional chain of sc (three levels, f₂ > 0,
// a malleable policy) on the window of the solved decision chain res,
// processors going down at mu each; with failure events (or forceEvents)
// its up phases are built on batchchain's spare chain.
func positionalOf(sc *scenario.Scenario, res uwt.Result, mu float64) (*positional, error) {
	n := sc.N()
	lo, hi := window(n, res)
	levels := sc.Application.CheckpointLevels()
	levelsOf := func(a int) []Level { return levelsAt(levels, a) }
	var evOf *posEventsOf
	if forceEvents || !sc.System.FailureEvents.Single() {
		evOf = &posEventsOf{sizes: sc.System.FailureEvents.Law(), rate: mu / sc.System.FailureEvents.MeanSize(),
			build: func(a int) (*posEvents, error) { return newPosEvents(sc, a, lo, hi, mu) }}
	}
	return newPositional(n, lo, hi, sc.Reschedule.At, sc.System.Lambda(), mu, sc.System.Theta(), sc.Severity(), sc.Application.WorkRate, levelsOf, evOf)
}

// posEvents is the spare chain of an up phase of the positional chain
// on a processors with failure events (docs/model.md section 12,
// "Processor failures inside the period", with failure events): the
// up phase's chain of events.go (Ã: events that miss the application,
// severity-1 ones changing nothing; b_j the rate of events that strike
// it from j spares up) and batchchain's landing of those events by the
// functional count after them, kept for the window's counts lo..hi only
// (a landing outside the window is the mass that leaves it). It is
// immutable once built.
type posEvents struct {
	m1, lo, w int
	gen       *mat.Dense // Ã, m1 × m1
	rhs       *mat.Dense // [diag(b) | landing on lo..hi], m1 × (m1 + w)
	kill      []float64  // the up phase's expected length by spare count
}

// newPosEvents returns the positional chain's spare chain on a of sc's
// N processors, the window of functional counts being [lo, hi] and
// processors going down at mu each; the bounds are newEventChain's.
func newPosEvents(sc *scenario.Scenario, a, lo, hi int, mu float64) (*posEvents, error) {
	ec, hits, err := newEventChainHits(sc, a, true)
	if err != nil {
		return nil, err
	}
	pe := &posEvents{m1: ec.m1, lo: lo, w: hi - lo + 1, gen: ec.gen}
	pe.rhs = mat.NewDense(pe.m1, pe.m1+pe.w, nil)
	for j := range pe.m1 {
		pe.rhs.Set(j, j, ec.rhs.At(j, j))
		for np := lo; np <= hi && np < sc.N(); np++ {
			pe.rhs.Set(j, pe.m1+np-lo, hits.At(j, np))
		}
	}
	if pe.kill, err = killSojourn(sc, a, mu); err != nil {
		return nil, err
	}
	return pe, nil
}

// attempt is mcomposer.newAttempt with failure events: a stretch of t
// seconds that any event striking the application ends.
// expm.ExpIntegral (Ã is a sub-generator: a Metzler matrix) gives
// done = e^{Ãt} and F = ∫₀ᵗe^{Ãu}du together, by n×n products without
// cancellation, as eventChain.stretch does; a crash (share f₁ of the events that strike) keeps the
// spares, f₁·F·diag(b); a processor-down event (1 − f₁) lands on the
// functional count after it, (1 − f₁)·F·landing, whose columns are the
// counts lo..hi (not spare counts as with single failures). The
// matrices have order N − a + 1, whatever the window.
func (pe *posEvents) attempt(t, crash float64) (mphase, error) {
	m1 := pe.m1
	var e, phi mat.Dense
	if err := expm.ExpIntegral(&e, &phi, pe.gen, t); err != nil {
		return mphase{}, err
	}
	ph := mphase{done: &e}
	var x mat.Dense
	x.Mul(&phi, pe.rhs)
	if crash > 0 {
		var c mat.Dense
		c.Scale(crash, x.Slice(0, m1, 0, m1))
		ph.exit[clCrash] = &c
	}
	var k mat.Dense
	k.Scale(1-crash, x.Slice(0, m1, m1, m1+pe.w))
	ph.exit[clKill] = &k
	return ph, nil
}

// downRows returns the jumps of a down state with n functional
// processors (none used) with failure events: events at rate per
// functional processor take min(K, n) down (batchchain.Loss), repairs
// at θ each bring one up. It returns the sojourn and the jump
// probabilities to n − k (k = 1..; loss[k−1]) and to n + 1 (up).
func downRows(n, total int, rate, theta float64, sizes []float64) (tau float64, loss []float64, up float64) {
	ev := float64(n) * rate
	rep := float64(total-n) * theta
	tau = 1 / (ev + rep)
	if n > 0 {
		loss = batchchain.Loss(sizes, n)
		for i := range loss {
			loss[i] *= ev * tau
		}
	}
	return tau, loss, rep * tau
}

// assembleDownEvents is assembleDown with failure events: the down state
// of count n (index idx) jumps at every position k to n − k' (an event
// that takes k' down) or n + 1 (a repair), the position kept; a jump
// below the window is the mass that leaves it.
func (p *positional) assembleDownEvents(c *posChain, idx, n int) {
	tau, loss, up := downRows(n, p.n, p.evOf.rate, p.theta, p.evOf.sizes)
	c.tau[idx] = tau
	for k := 0; k < c.K; k++ {
		set := func(to int, x float64) {
			if to < 0 || to >= c.w || x == 0 {
				return
			}
			m := c.get(c.blk, k, k)
			m.Set(idx, to, m.At(idx, to)+x)
			if k > 0 {
				g := c.get(c.g, k, k)
				g.Set(idx, to, g.At(idx, to)+x)
			}
		}
		for i, x := range loss {
			set(idx-i-1, x)
		}
		if n < p.hi {
			set(idx+1, up)
		}
	}
}
