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
	rate, theta float64
	cum         []float64 // cum[k-1] = P(K ≤ k)
	rng         *rand.Rand
	t           float64
	// ids[:nUp] are the functional processors, ids[nUp:] the failed ones.
	ids []int
	nUp int
	// pending[next:] are the failures of the current event not yet returned.
	pending []Event
	next    int
}

// NewBatch returns the batch-failure source of n processors drawing from
// rng, with size law sizes (sizes[k-1] = P(K = k), at most n entries,
// non-negative, divided by their sum). mttf and mttr must be finite and
// positive.
func NewBatch(n int, mttf, mttr float64, sizes []float64, rng *rand.Rand) (*Batch, error) {
	if n < 1 {
		return nil, fmt.Errorf("sim: processors = %d, want ≥ 1", n)
	}
	if !(mttf > 0) || math.IsInf(mttf, 0) {
		return nil, fmt.Errorf("sim: mttf = %v, want a finite positive number of seconds", mttf)
	}
	if !(mttr > 0) || math.IsInf(mttr, 0) {
		return nil, fmt.Errorf("sim: mttr = %v, want a finite positive number of seconds", mttr)
	}
	if len(sizes) == 0 || len(sizes) > n {
		return nil, fmt.Errorf("sim: sizes has %d entries, want 1 to %d", len(sizes), n)
	}
	if rng == nil {
		return nil, fmt.Errorf("sim: rng is nil")
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
	b := &Batch{rate: sum / (mttf * mean), theta: 1 / mttr, cum: cumulated(sizes, sum), rng: rng, ids: make([]int, n)}
	b.reset()
	return b, nil
}

func (b *Batch) reset() {
	for i := range b.ids {
		b.ids[i] = i
	}
	b.nUp = len(b.ids)
	b.t = 0
	b.pending, b.next = b.pending[:0], 0
}

// Processors returns N.
func (b *Batch) Processors() int { return len(b.ids) }

// Init marks every processor functional at time 0. It panics if len(up)
// is not N.
func (b *Batch) Init(up []bool) {
	if len(up) != len(b.ids) {
		panic("sim: Batch.Init: len(up) != N")
	}
	b.reset()
	for i := range up {
		up[i] = true
	}
}

// Next returns the next failure or repair; the processors of one failure
// event come as consecutive events of equal time.
func (b *Batch) Next() Event {
	if b.next < len(b.pending) {
		b.next++
		return b.pending[b.next-1]
	}
	n := len(b.ids)
	down := n - b.nUp
	failRate := float64(b.nUp) * b.rate
	total := failRate + float64(down)*b.theta
	b.t += b.rng.ExpFloat64() / total
	u := b.rng.Float64() * total
	if down == 0 || (b.nUp > 0 && u < failRate) {
		k := eventSize(b.cum, b.nUp, b.rng)
		b.pending, b.next = b.pending[:0], 1
		for range k {
			// A uniformly chosen functional processor, moved to the failed part.
			i := b.rng.IntN(b.nUp)
			p := b.ids[i]
			last := b.nUp - 1
			b.ids[i], b.ids[last] = b.ids[last], p
			b.nUp--
			b.pending = append(b.pending, Event{Time: b.t, Proc: p})
		}
		return b.pending[0]
	}
	k := b.nUp + min(int((u-failRate)/b.theta), down-1)
	k = max(k, b.nUp) // u−failRate may round below zero
	p := b.ids[k]
	b.ids[k], b.ids[b.nUp] = b.ids[b.nUp], p
	b.nUp++
	return Event{Time: b.t, Proc: p, Up: true}
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
