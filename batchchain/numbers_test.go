package batchchain

import (
	"reflect"
	"testing"
)

// TestPhaseNumbers: Numbers is the number of float64s the phase's
// tables hold once Solve has been used, counted field by field (every
// []float64 field of Phase, by reflection, so that a table added
// without Numbers knowing fails here), on phases of several m and K_max,
// and (m + 1)·(3K_max + 3). Before Solve the censored rates are not
// built: the fields then hold fewer (a check that they are read, not
// assumed).
func TestPhaseNumbers(t *testing.T) {
	stored := func(ph *Phase) int {
		v, total := reflect.ValueOf(ph).Elem(), 0
		for i := range v.NumField() {
			if f := v.Field(i); f.Type() == reflect.TypeFor[[]float64]() {
				total += f.Len()
			}
		}
		return total
	}
	for _, c := range []struct {
		n, a  int
		sizes []float64
	}{{1, 1, []float64{1}}, {8, 3, []float64{1}}, {64, 48, []float64{0.5, 0, 0, 0.25, 0.25}}, {40, 1, []float64{0.2, 0.8}}} {
		_, ph := newPhase(t, c.n, c.a, 1/(8*hour), 1/hour, c.sizes)
		m, k := c.n-c.a, len(c.sizes)
		if got := stored(ph); got >= ph.Numbers() {
			t.Errorf("n=%d a=%d K=%d: %d numbers before Solve, not fewer than Numbers() = %d", c.n, c.a, k, got, ph.Numbers())
		}
		ph.Solve(make([]float64, m+1))
		if got := stored(ph); ph.Numbers() != got || got != (m+1)*(3*k+3) {
			t.Errorf("n=%d a=%d K=%d: Numbers() = %d, the fields hold %d, (m+1)(3K+3) = %d", c.n, c.a, k, ph.Numbers(), got, (m+1)*(3*k+3))
		}
	}
}
