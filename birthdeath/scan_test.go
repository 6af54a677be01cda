package birthdeath

import (
	"flag"
	"fmt"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

var scan = flag.Bool("scan", false, "run the validity scans of the Eigen and VanLoan methods (slow; prints tables)")

// methodError returns the largest absolute difference between meth and
// ClosedForm over P and Q, for λ = 1, θ = ratio, over a grid of
// νT ∈ {0, 1e-4, 1e-2, 1, 10, 100} and ρ/ν ∈ {1e-3, 1, 30}.
func methodError(m int, ratio float64, meth Method) float64 {
	c, _ := New(m, 1, ratio)
	nu := 1 + ratio
	var worst float64
	for _, nt := range []float64{0, 1e-4, 1e-2, 1, 10, 100} {
		for _, rr := range []float64{1e-3, 1, 30} {
			var pc, qc, p, q mat.Dense
			c.Transition(&pc, &qc, nt/nu, rr*nu, &Settings{Method: ClosedForm})
			if err := c.Transition(&p, &q, nt/nu, rr*nu, &Settings{Method: meth}); err != nil {
				return math.Inf(1)
			}
			worst = math.Max(worst, math.Max(maxAbsDiff(&p, &pc), maxAbsDiff(&q, &qc)))
		}
	}
	return worst
}

// TestEigenValidityScan measures, for each θ/λ, the largest m up to which
// the Eigen method stays within 1e-12 of ClosedForm (go test -run Scan -scan -v).
func TestEigenValidityScan(t *testing.T) {
	if !*scan {
		t.Skip("pass -scan to run")
	}
	for _, ratio := range []float64{1e-6, 1e-4, 1e-2, 0.1, 0.3, 1, 3, 10, 100, 1e4, 1e6} {
		last := 0
		line := ""
		for m := 1; m <= 60; m++ {
			e := methodError(m, ratio, Eigen)
			if m <= 40 && (m%5 == 0 || m < 5) {
				line += fmt.Sprintf(" %d:%.0e", m, e)
			}
			if e > 1e-12 {
				break
			}
			last = m
		}
		t.Logf("θ/λ=%-6g eigen ok up to m=%-3d |%s", ratio, last, line)
	}
}

// TestVanLoanValidityScan prints the error of VanLoan against ClosedForm
// as a function of θ/λ, m and the norm ‖G_m‖₁·T (go test -run Scan -scan -v).
func TestVanLoanValidityScan(t *testing.T) {
	if !*scan {
		t.Skip("pass -scan to run")
	}
	for _, ratio := range []float64{1e-6, 1e-2, 1, 1e2, 1e4, 1e6} {
		for _, m := range []int{2, 30, 60} {
			c, _ := New(m, 1, ratio)
			nu := 1 + ratio
			g := c.Generator()
			norm := mat.Norm(g, 1)
			line := ""
			for _, nt := range []float64{1e-2, 1, 100, 1e3, 1e4} {
				var worst float64
				for _, rr := range []float64{1e-3, 1, 30} {
					var pc, qc, p, q mat.Dense
					c.Transition(&pc, &qc, nt/nu, rr*nu, &Settings{Method: ClosedForm})
					if err := c.Transition(&p, &q, nt/nu, rr*nu, &Settings{Method: VanLoan}); err != nil {
						worst = math.Inf(1)
						continue
					}
					worst = math.Max(worst, math.Max(maxAbsDiff(&p, &pc), maxAbsDiff(&q, &qc)))
				}
				line += fmt.Sprintf("  ‖G‖T=%8.1e: %.0e", norm*nt/nu, worst)
			}
			t.Logf("θ/λ=%-6g m=%-3d%s", ratio, m, line)
		}
	}
}
