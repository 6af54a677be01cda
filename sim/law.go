package sim

import (
	"container/heap"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/ckpt-markov/markov/law"
)

// checkLaw checks a law of the renewal source (law.Check).
func checkLaw(name string, l law.Law) error {
	if err := law.Check(l); err != nil {
		return fmt.Errorf("sim: %s law %w", name, err)
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
	up, repair law.Law
	rng        *rand.Rand
	q          eventHeap
	n          int
}

// NewRenewal returns the renewal source of n processors drawing from rng
// by inversion (law.Draw). The laws must give finite positive durations
// (law.Check); gonum's distuv.Exponential{Rate: 1/mean},
// distuv.Weibull{K: shape, Lambda: scale} and distuv.LogNormal{Mu, Sigma}
// are laws.
func NewRenewal(n int, up, repair law.Law, rng *rand.Rand) (*Renewal, error) {
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
		r.q = append(r.q, Event{Time: law.Draw(r.up, r.rng), Proc: p})
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
		next.Time = ev.Time + law.Draw(r.up, r.rng)
	} else {
		next.Time = ev.Time + law.Draw(r.repair, r.rng)
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
