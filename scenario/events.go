package scenario

import (
	"fmt"
	"math"
	"slices"
)

// FailureEvents is the law of the number of processors one failure event
// takes down (docs/model.md, section 11). Failure events strike at rate
// λ/E[K] per functional processor, λ = 1/MTTF, so that a functional
// processor still fails at rate λ on average; an event of size K takes
// down min(K, n) of the n functional processors, chosen uniformly without
// replacement. A nil *FailureEvents, or Sizes = [1], is the model with
// independent single failures.
type FailureEvents struct {
	// Sizes[k-1] is the probability that an event has size k, k = 1..K_max,
	// K_max ≤ N. The entries are finite, non-negative and sum to 1 (within
	// maxSizesSumError; the models divide by the sum).
	Sizes []float64
}

// maxSizesSumError is how far the sum of FailureEvents.Sizes may be from 1:
// room for the rounding of frequencies printed in decimal, no more.
const maxSizesSumError = 1e-9

// Validate checks the size law for a pool of n processors.
func (f *FailureEvents) Validate(n int) error {
	if f == nil {
		return nil
	}
	const field = "system.failure_events.sizes"
	if len(f.Sizes) == 0 {
		return fieldErr(field, "empty, want the probabilities of sizes 1, 2, …")
	}
	if len(f.Sizes) > n {
		return fieldErr(field, "has %d entries, but an event cannot take down more than the %d processors", len(f.Sizes), n)
	}
	var sum float64
	for i, p := range f.Sizes {
		if math.IsNaN(p) || math.IsInf(p, 0) || p < 0 || p > 1 {
			return fieldErr(fmt.Sprintf("%s[%d]", field, i), "%v, want a probability in [0, 1]", p)
		}
		sum += p
	}
	if math.Abs(sum-1) > maxSizesSumError {
		return fieldErr(field, "sums to %v, want 1", sum)
	}
	return nil
}

// Law returns the probabilities of sizes 1..K_max, normalised to sum to 1
// (a fresh slice). A nil receiver gives [1].
func (f *FailureEvents) Law() []float64 {
	if f == nil {
		return []float64{1}
	}
	out := slices.Clone(f.Sizes)
	var sum float64
	for _, p := range out {
		sum += p
	}
	for i := range out {
		out[i] /= sum
	}
	return out
}

// Single reports whether every event takes down exactly one processor:
// the receiver is nil or Sizes is 1 followed only by zeros. The models then
// use their single-failure code paths, bit for bit.
func (f *FailureEvents) Single() bool {
	if f == nil {
		return true
	}
	return len(f.Sizes) > 0 && f.Sizes[0] == 1 && !slices.ContainsFunc(f.Sizes[1:], func(p float64) bool { return p != 0 })
}

// MeanSize returns E[K] = Σ k·p_k / Σ p_k (1 for a nil receiver).
func (f *FailureEvents) MeanSize() float64 {
	var m float64
	for k, p := range f.Law() {
		m += float64(k+1) * p
	}
	return m
}

// EventRate returns the rate of failure events per functional processor,
// λ/E[K] (λ for single failures).
func (s System) EventRate() float64 {
	if s.FailureEvents.Single() {
		return s.Lambda()
	}
	return s.Lambda() / s.FailureEvents.MeanSize()
}

// EventSystem returns the system of n processors whose failure events
// strike at eventRate per functional processor (per second) with the size
// law sizes (sizes[k-1] = P(K = k)), and whose processors are repaired
// after mttr seconds on average: MTTF = 1/(eventRate·E[K]). This is the
// form a trace estimate takes: eventRate is events per second of node up
// time (trace.EventStats.Rate.Value), sizes[k-1] the fraction of events
// that took down k nodes (trace.EventStats.Sizes, zero for sizes that did
// not occur). The error names the field at fault.
func EventSystem(n int, eventRate, mttr float64, sizes []float64) (System, error) {
	if !positive(eventRate) {
		return System{}, fieldErr("system.failure_events.rate", "%v, want a positive finite rate per processor per second", eventRate)
	}
	fe := &FailureEvents{Sizes: slices.Clone(sizes)}
	if err := fe.Validate(max(n, len(sizes))); err != nil {
		return System{}, err
	}
	sys := System{Processors: n, MTTF: 1 / (eventRate * fe.MeanSize()), MTTR: mttr, FailureEvents: fe}
	return sys, sys.Validate()
}
