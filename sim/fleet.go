package sim

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// fleet is the state of the N processors that the whole-pool sources
// (Exponential, Batch) draw the events of: the clock, and the processors
// ordered functional first, so that a uniformly chosen processor of
// either state is one uniform index. With n functional processors
// failing at failRate in all and the N − n others repaired at θ = 1/MTTR
// each, the next event comes after an exponential time of rate
// failRate + (N − n)θ and is a failure with probability failRate over
// that total.
type fleet struct {
	theta float64
	rng   *rand.Rand
	t     float64
	// ids[:nUp] are the functional processors, ids[nUp:] the failed ones.
	ids []int
	nUp int
}

// checkFleet checks a source's pool: n ≥ 1 processors, mttf and mttr
// finite and positive.
func checkFleet(n int, mttf, mttr float64) error {
	if n < 1 {
		return fmt.Errorf("sim: processors = %d, want ≥ 1", n)
	}
	if !(mttf > 0) || math.IsInf(mttf, 0) {
		return fmt.Errorf("sim: mttf = %v, want a finite positive number of seconds", mttf)
	}
	if !(mttr > 0) || math.IsInf(mttr, 0) {
		return fmt.Errorf("sim: mttr = %v, want a finite positive number of seconds", mttr)
	}
	return nil
}

// newFleet returns n functional processors (checked by checkFleet)
// repaired at 1/mttr, drawing from rng.
func newFleet(n int, mttr float64, rng *rand.Rand) (fleet, error) {
	if rng == nil {
		return fleet{}, fmt.Errorf("sim: rng is nil")
	}
	f := fleet{theta: 1 / mttr, rng: rng, ids: make([]int, n)}
	f.reset()
	return f, nil
}

// reset makes every processor functional at time 0.
func (f *fleet) reset() {
	for i := range f.ids {
		f.ids[i] = i
	}
	f.nUp = len(f.ids)
	f.t = 0
}

// Processors returns N.
func (f *fleet) Processors() int { return len(f.ids) }

// init is a source's Init: every processor functional at time 0. It
// panics, naming who, if len(up) is not N.
func (f *fleet) init(up []bool, who string) {
	if len(up) != len(f.ids) {
		panic("sim: " + who + ".Init: len(up) != N")
	}
	f.reset()
	for i := range up {
		up[i] = true
	}
}

// advance draws the time of the next event, the functional processors
// failing at failRate in all, and returns u, uniform on [0, total), and
// whether the event is a failure (u < failRate, or no processor down).
func (f *fleet) advance(failRate float64) (u float64, failure bool) {
	down := len(f.ids) - f.nUp
	total := failRate + float64(down)*f.theta
	f.t += f.rng.ExpFloat64() / total
	u = f.rng.Float64() * total
	return u, down == 0 || (f.nUp > 0 && u < failRate)
}

// fail moves the k-th functional processor to the failed ones and
// returns it.
func (f *fleet) fail(k int) int {
	p := f.ids[k]
	last := f.nUp - 1
	f.ids[k], f.ids[last] = f.ids[last], p
	f.nUp--
	return p
}

// repair returns the repair that u ≥ failRate (advance's, not a failure)
// chooses, uniform over the failed processors, and makes it functional.
func (f *fleet) repair(u, failRate float64) Event {
	down := len(f.ids) - f.nUp
	k := f.nUp + min(int((u-failRate)/f.theta), down-1)
	k = max(k, f.nUp) // u−failRate may round below zero
	p := f.ids[k]
	f.ids[k], f.ids[f.nUp] = f.ids[f.nUp], p
	f.nUp++
	return Event{Time: f.t, Proc: p, Up: true}
}
