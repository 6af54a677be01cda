package uwt

import (
	"errors"
	"math"
	"testing"
)

// TestCheckAccuracy: a result that dropped more than MaxDropped (as the
// fast path did, 2.5e-2 per jump, for an MTTR of 1e-308 s before the
// scenario bounds rejected it) is an error, not a result; a NaN too.
func TestCheckAccuracy(t *testing.T) {
	s := (*Settings)(nil).withDefaults()
	for _, tc := range []struct {
		dropped float64
		ok      bool
	}{{0, true}, {1e-12, true}, {MaxDropped, true}, {2.5e-2, false}, {math.NaN(), false}} {
		err := s.checkAccuracy(Result{Interval: 3600, Dropped: tc.dropped})
		var acc *AccuracyError
		if tc.ok != (err == nil) || (!tc.ok && !errors.As(err, &acc)) {
			t.Errorf("dropped %v: error %v, want ok = %v", tc.dropped, err, tc.ok)
		}
	}
}
