package sim

import (
	"container/heap"
	"fmt"
	"math"
	"math/rand/v2"
)

// Law is the law of a positive duration, an up time or a repair time, given
// by its quantile function: a draw is Quantile(u) for u uniform on (0, 1)
// (inversion), so that the draws come from the source's own seeded
// generator. The distributions of gonum's stat/distuv satisfy it, among
// them distuv.Exponential{Rate: 1/mean}, distuv.Weibull{K: shape,
// Lambda: scale} and distuv.LogNormal{Mu, Sigma}.
type Law interface {
	Quantile(p float64) float64
}

// draw returns a duration of law l.
func draw(l Law, rng *rand.Rand) float64 {
	u := rng.Float64()
	for u == 0 {
		u = rng.Float64()
	}
	return l.Quantile(u)
}

// checkLaw probes a law at a few quantiles: each must be a finite
// non-negative duration, and the median positive.
func checkLaw(name string, l Law) error {
	if l == nil {
		return fmt.Errorf("sim: %s law is nil", name)
	}
	for _, p := range []float64{1e-9, 0.5, 1 - 1e-9} {
		q := l.Quantile(p)
		if !(q >= 0) || math.IsInf(q, 0) || (p == 0.5 && q == 0) {
			return fmt.Errorf("sim: %s law has quantile %v at %v, want a finite positive duration", name, q, p)
		}
	}
	return nil
}

// Renewal is a Source of N processors that fail and are repaired
// independently, each an alternating renewal process: up times of law Up,
// repair times of law Repair (unlimited repair capacity), all processors
// new and functional at time 0. With exponential laws it is the
// Exponential source's process; with Weibull or log-normal laws the
// failure rate depends on the time since the last repair, which the
// model does not represent (its error under them is what this source
// measures).
//
// It keeps the next event of every processor in a heap: O(log N) per
// event. Events of equal time come by processor number.
type Renewal struct {
	up, repair Law
	rng        *rand.Rand
	q          eventHeap
	n          int
}

// NewRenewal returns the renewal source of n processors drawing from rng.
// The laws must give finite positive durations.
func NewRenewal(n int, up, repair Law, rng *rand.Rand) (*Renewal, error) {
	if n < 1 {
		return nil, fmt.Errorf("sim: processors = %d, want ≥ 1", n)
	}
	if err := checkLaw("up-time", up); err != nil {
		return nil, err
	}
	if err := checkLaw("repair-time", repair); err != nil {
		return nil, err
	}
	if rng == nil {
		return nil, fmt.Errorf("sim: rng is nil")
	}
	return &Renewal{up: up, repair: repair, rng: rng, n: n}, nil
}

// Processors returns N.
func (r *Renewal) Processors() int { return r.n }

// Init marks every processor functional and new at time 0 and draws its
// first failure. It panics if len(up) is not N.
func (r *Renewal) Init(up []bool) {
	if len(up) != r.n {
		panic("sim: Renewal.Init: len(up) != N")
	}
	r.q = r.q[:0]
	for p := range up {
		up[p] = true
		r.q = append(r.q, Event{Time: draw(r.up, r.rng), Proc: p})
	}
	heap.Init(&r.q)
}

// Next returns the earliest pending event and schedules the processor's
// next one.
func (r *Renewal) Next() Event {
	if len(r.q) == 0 {
		return Event{Time: math.Inf(1)}
	}
	ev := r.q[0]
	next := Event{Proc: ev.Proc, Up: !ev.Up}
	if ev.Up {
		next.Time = ev.Time + draw(r.up, r.rng)
	} else {
		next.Time = ev.Time + draw(r.repair, r.rng)
	}
	r.q[0] = next
	heap.Fix(&r.q, 0)
	return ev
}

// eventHeap orders events by time, then processor.
type eventHeap []Event

func (h eventHeap) Len() int { return len(h) }
func (h eventHeap) Less(i, j int) bool {
	if h[i].Time != h[j].Time {
		return h[i].Time < h[j].Time
	}
	return h[i].Proc < h[j].Proc
}
func (h eventHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *eventHeap) Push(x any)   { *h = append(*h, x.(Event)) }
func (h *eventHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
