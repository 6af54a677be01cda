package testmodel

import (
	"math"
	"testing"
)

// The example of docs/model.md §7, to its five printed digits.
func TestOneProcessorExample(t *testing.T) {
	if a := OneProcessorAvailability(1.0/3600, 1.0/600, 600, 60.6, 60.6, 30); math.Abs(a-0.69164) > 5e-6 {
		t.Errorf("A = %v, docs/model.md §7 gives 0.69164", a)
	}
}

// Table I's averages, the costs QRLike uses for every count.
func TestQRLike(t *testing.T) {
	app := QRLike(600)
	if err := app.Validate(600); err != nil {
		t.Fatal(err)
	}
	if app.Overhead[0] != 99.19 || app.Latency[599] != 99.19 || app.Recovery.Cost(3, 7) != 17.21 {
		t.Errorf("costs C %v, L %v, R %v", app.Overhead[0], app.Latency[599], app.Recovery.Cost(3, 7))
	}
	// ω(200) = 200/(1 + 200/2000) = 2000/11.
	if w := app.WorkRate[199]; math.Abs(w-2000.0/11) > 1e-13*w {
		t.Errorf("ω(200) = %v, want 2000/11", w)
	}
}

// Closure on graphs worked by hand: a path, a cycle with a tail, a mask
// that cuts the path, and an isolated vertex.
func TestClosure(t *testing.T) {
	for _, tc := range []struct {
		name       string
		n          int
		rows, cols []int
		keep       []bool
		want       []string // row i: the j reachable from i, as "1" or "0"
	}{
		{"path", 3, []int{0, 1}, []int{1, 2}, nil, []string{"111", "011", "001"}},
		{"cycle and tail", 4, []int{0, 1, 2, 3}, []int{1, 2, 0, 0}, nil, []string{"1110", "1110", "1110", "1111"}},
		{"mask cuts", 3, []int{0, 1}, []int{1, 2}, []bool{true, false}, []string{"110", "010", "001"}},
		{"isolated", 2, nil, nil, nil, []string{"10", "01"}},
	} {
		reach := Closure(tc.n, tc.rows, tc.cols, tc.keep)
		for i, row := range reach {
			got := ""
			for _, r := range row {
				got += map[bool]string{true: "1", false: "0"}[r]
			}
			if got != tc.want[i] {
				t.Errorf("%s: row %d = %s, want %s", tc.name, i, got, tc.want[i])
			}
		}
	}
}
