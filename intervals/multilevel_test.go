package intervals

import (
	"math"
	"testing"
)

// TestBenoitMultiLevel: where the continuous ratios are integers, the
// rounded schedule is the continuous optimum, whose waste is the paper's
// Σ_ℓ sqrt(2λ_ℓΔC_ℓ) (Benoit et al., IEEE TC 2017, abstract) and whose
// interval is sqrt(2ΔC₁/λ₁).
func TestBenoitMultiLevel(t *testing.T) {
	// ΔC = 1, 8, 64 and λ = 8, 4, 0.5 (per unit time): x = 2, 0.5, 0.0625,
	// ratios exactly 4 and 8.
	costs, rates := []float64{1, 9, 73}, []float64{8, 4, 0.5}
	s, err := BenoitMultiLevel(costs, rates, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := math.Sqrt(2*8*1) + math.Sqrt(2*4*8) + math.Sqrt(2*0.5*64)
	if s.Pattern[0] != 3 || s.Pattern[1] != 7 || math.Abs(s.Waste-want) > 1e-12*want || math.Abs(s.Interval-0.5) > 1e-15 {
		t.Errorf("pattern %v, interval %v, waste %v; want [3 7], 0.5, %v", s.Pattern, s.Interval, s.Waste, want)
	}
	for _, bad := range [][3][]float64{
		{{1, 2}, {1}, nil}, {{0, 2}, {1, 1}, nil}, {{1, 2}, {1, -1}, nil}, {{1, 2}, {1, 1}, {1}}, {{1, 2}, {0, 0}, nil},
	} {
		if _, err := BenoitMultiLevel(bad[0], bad[1], bad[2]); err == nil {
			t.Errorf("costs %v, rates %v, recovery %v: no error", bad[0], bad[1], bad[2])
		}
	}
}

// TestDiTwoLevel: Di et al.'s two-level schedule is the first-order
// optimum of its pattern (MultiLevelWaste, the same waste written for
// any number of levels) and no neighbouring pattern has less waste.
func TestDiTwoLevel(t *testing.T) {
	c1, c2, l1, l2 := 9.0, 438.0, 7.78e-6, 5.19e-7
	d, err := DiTwoLevel(c1, c2, l1, l2)
	if err != nil {
		t.Fatal(err)
	}
	w, err := MultiLevelWaste([]float64{c1, c2}, []float64{l1, l2}, nil, d.Pattern)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(w.Interval-d.Interval) > 1e-12*d.Interval || math.Abs(w.Waste-d.Waste) > 1e-12*d.Waste {
		t.Errorf("Di %+v, MultiLevelWaste %+v", d, w)
	}
	for _, v := range []int{d.Pattern[0] - 1, d.Pattern[0] + 1} {
		n, _ := MultiLevelWaste([]float64{c1, c2}, []float64{l1, l2}, nil, []int{v})
		if n.Waste < d.Waste {
			t.Errorf("pattern %d wastes %v < Di's %v", v, n.Waste, d.Waste)
		}
	}
	if _, err := DiTwoLevel(438, 9, l1, l2); err == nil {
		t.Error("c2 < c1: no error")
	}
}
