package sim

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"

	"github.com/ckpt-markov/markov/scenario"
)

// Batch is a Source of N processors whose failures come in events
// (docs/model.md, section 11): with n functional processors, failure
// events come at rate n·λ/E[K] (λ = 1/MTTF) and take down min(K, n)
// distinct functional processors chosen uniformly, K drawn from the size
// law; every failed processor is repaired at rate θ = 1/MTTR. All
// processors start functional. The processors of one event fail at the
// same instant (consecutive Events of equal Time), so the application sees
// one interruption. With sizes [1] it is the process of Exponential.
//
// Like Exponential it draws the events of the whole pool: the next event
// comes after an exponential time of rate n·λ/E[K] + (N−n)θ and is a
// failure event with probability n·λ/E[K] over that total.
type Batch struct {
	fleet
	rate float64
	cum  []float64 // cum[k-1] = P(K ≤ k)
	// pending[next:] are the failures of the current event not yet returned.
	pending []Event
	next    int
}

// NewBatch returns the batch-failure source of n processors drawing from
// rng, with size law sizes (sizes[k-1] = P(K = k), at most n entries,
// non-negative, divided by their sum). mttf and mttr must be finite and
// positive.
func NewBatch(n int, mttf, mttr float64, sizes []float64, rng *rand.Rand) (*Batch, error) {
	if err := checkFleet(n, mttf, mttr); err != nil {
		return nil, err
	}
	if len(sizes) == 0 || len(sizes) > n {
		return nil, fmt.Errorf("sim: sizes has %d entries, want 1 to %d", len(sizes), n)
	}
	f, err := newFleet(n, mttr, rng)
	if err != nil {
		return nil, err
	}
	var sum, mean float64
	for k, p := range sizes {
		if !(p >= 0) || math.IsInf(p, 0) {
			return nil, fmt.Errorf("sim: sizes[%d] = %v, want a finite number ≥ 0", k, p)
		}
		sum += p
		mean += float64(k+1) * p
	}
	if sum == 0 {
		return nil, fmt.Errorf("sim: sizes sum to zero")
	}
	return &Batch{fleet: f, rate: sum / (mttf * mean), cum: cumulated(sizes, sum)}, nil
}

// Init marks every processor functional at time 0. It panics if len(up)
// is not N.
func (b *Batch) Init(up []bool) {
	b.init(up, "Batch")
	b.pending, b.next = b.pending[:0], 0
}

// Next returns the next failure or repair; the processors of one failure
// event come as consecutive events of equal time.
func (b *Batch) Next() Event {
	if b.next < len(b.pending) {
		b.next++
		return b.pending[b.next-1]
	}
	failRate := float64(b.nUp) * b.rate
	u, failure := b.advance(failRate)
	if !failure {
		return b.repair(u, failRate)
	}
	k := eventSize(b.cum, b.nUp, b.rng)
	b.pending, b.next = b.pending[:0], 1
	for range k {
		// A uniformly chosen functional processor, moved to the failed part.
		p := b.fail(b.rng.IntN(b.nUp))
		b.pending = append(b.pending, Event{Time: b.t, Proc: p})
	}
	return b.pending[0]
}

// newSource returns the source of the scenario's process: Exponential for
// independent single failures (the stream of draws of earlier versions),
// Batch when the scenario has failure events.
func newSource(sc *scenario.Scenario, rng *rand.Rand) (Source, error) {
	sys := sc.System
	if sys.FailureEvents.Single() {
		return NewExponential(sc.N(), downMTTF(sc), sys.MTTR, rng)
	}
	// With several levels the source's events are those that take
	// processors down, at (1 − f₁) of the rate; crashes are the
	// timeline's (levels.go).
	return NewBatch(sc.N(), downMTTF(sc), sys.MTTR, sys.FailureEvents.Sizes, rng)
}

// cumulated returns the cumulative sums of law divided by sum, the last
// set to 1: cum[k-1] = P(K ≤ k).
func cumulated(law []float64, sum float64) []float64 {
	cum := make([]float64, len(law))
	acc := 0.0
	for k, p := range law {
		acc += p
		cum[k] = acc / sum
	}
	cum[len(cum)-1] = 1
	return cum
}

// eventSize draws the size K of a failure event from cum (cumulated),
// capped at the nUp functional processors: min(K, nUp).
func eventSize(cum []float64, nUp int, rng *rand.Rand) int {
	return min(sort.SearchFloat64s(cum, rng.Float64())+1, nUp, len(cum))
}
