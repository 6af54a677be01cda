package multilevel

import (
	"math"
	"testing"
)

// TestExtremePatterns: the largest patterns and intervals give a finite
// UWT ≥ 0 (zero where no period completes in float64), never NaN.
func TestExtremePatterns(t *testing.T) {
	pr := &Process{Rate: 1e-5, Severity: []float64{0.5, 0.2, 0.1, 0.1, 0.05, 0.03, 0.01, 0.01},
		Levels: []Level{{1, 1, 1}, {2, 2, 2}, {4, 4, 4}, {8, 8, 8}, {16, 16, 16}, {32, 32, 32}, {64, 64, 64}, {128, 128, 128}}}
	big := []int{MaxPatternEntry, MaxPatternEntry, MaxPatternEntry, MaxPatternEntry, MaxPatternEntry, MaxPatternEntry, MaxPatternEntry}
	for _, tc := range []struct {
		pattern []int
		I       float64
	}{{big, 1}, {big, 1e6}, {make([]int, 7), 1e12}, {make([]int, 7), 1e-300}, {[]int{1, 0, 0, 0, 0, 0, 0}, 0}} {
		p, err := pr.Period(tc.pattern, tc.I)
		if err != nil {
			t.Fatal(err)
		}
		e := p.Efficiency()
		if math.IsNaN(e) || e < 0 || e > 1 || math.IsNaN(p.Time) {
			t.Errorf("V = %v, I = %v: time %v, efficiency %v", tc.pattern[:1], tc.I, p.Time, e)
		}
	}
	if err := CheckPattern([]int{MaxPatternEntry + 1}, 2); err == nil {
		t.Error("pattern entry above the limit accepted")
	}
	if err := CheckPattern([]int{1}, 3); err == nil {
		t.Error("pattern of the wrong length accepted")
	}
}
