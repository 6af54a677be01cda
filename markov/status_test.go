package markov

import "testing"

// TestStatusZero checks that a zero Result does not read as solved: the
// zero Status is NotSolved, distinct from every outcome of a solve.
func TestStatusZero(t *testing.T) {
	var res Result
	if res.Status != NotSolved || res.Status.String() == Converged.String() {
		t.Errorf("zero Status = %v, want NotSolved", res.Status)
	}
	for _, s := range []Status{Converged, IterationLimit, ResidualTooLarge} {
		if s == NotSolved {
			t.Errorf("%v equals the zero Status", s)
		}
	}
}
