package uwt

import (
	"fmt"
	"math"
)

// MaxDropped is the largest dropped mass per jump (Result.Dropped) the
// model answers for with the default settings: 10⁻⁶, a million times the
// default Tol and Prune. Beyond it (or beyond Settings.Tol or Prune, if
// larger) Evaluate returns an *AccuracyError rather than a result outside
// its stated accuracy.
const MaxDropped = 1e-6

// AccuracyError is returned by Evaluate when the solved chain dropped more
// probability mass than the model answers for.
type AccuracyError struct {
	// Interval is the interval evaluated, Dropped the mass dropped per
	// jump and Limit the bound.
	Interval, Dropped, Limit float64
}

func (e *AccuracyError) Error() string {
	return fmt.Sprintf("uwt: at I = %g s the model dropped %.2g of the probability per jump, more than the %.2g it answers for (rates too extreme for the spare-chain rows; try the exact path)", e.Interval, e.Dropped, e.Limit)
}

// checkAccuracy returns an *AccuracyError if res dropped more than the
// bound.
func (s Settings) checkAccuracy(res Result) error {
	if limit := max(MaxDropped, s.Tol, s.Prune); !(res.Dropped <= limit) {
		return &AccuracyError{Interval: res.Interval, Dropped: res.Dropped, Limit: limit}
	}
	return nil
}

// TransitionsWithin returns the Settings.MaxTransitions whose estimated
// memory (at the model's bytes per transition, see SizeError.Bytes) is at
// most bytes, so that callers can state the bound in bytes.
func TransitionsWithin(bytes float64) int {
	return int(min(max(bytes-baseBytes, 0)/bytesPerTransition, math.MaxInt32))
}
