package decision

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
)

// TestBestInterval holds the closed-form interval against a scan of
// Useful on a fine logarithmic grid (an independent maximiser), for
// overheads from 1 s to a day and MTBFs from an hour to a year.
func TestBestInterval(t *testing.T) {
	for _, c := range []struct{ rho, lat, ovh float64 }{
		{1 / 3600.0, 60, 30}, {1 / 86400.0, 99.19, 99.19}, {1 / (365 * 86400.0), 600, 1}, {1 / 7200.0, 10, 86400 / 24},
	} {
		ph := Phase{A: 1, Rho: c.rho, WorkRate: 1, Latency: c.lat, Overhead: c.ovh}
		got := ph.BestInterval(1, 1e10)
		best, bestU := 0.0, math.Inf(-1)
		for x := 0.0; x <= math.Log(1e10); x += 1e-4 {
			if u := ph.Useful(math.Exp(x)); u > bestU {
				best, bestU = math.Exp(x), u
			}
		}
		// The grid step 1e-4 in log I bounds the scan's error.
		if math.Abs(math.Log(got/best)) > 2e-4 {
			t.Errorf("ρ = %g, L = %g, C = %g: closed form %g, scan %g", c.rho, c.lat, c.ovh, got, best)
		}
		if ph.Useful(got) < bestU*(1-1e-12) {
			t.Errorf("ρ = %g: Useful(closed form) = %.15g below the scan's %.15g", c.rho, ph.Useful(got), bestU)
		}
	}
}

// TestUseful holds the up phase's useful time against the sum of its
// geometric series of committed segments, Σ_{k≥1} e^{−kρT}(I + L − C).
func TestUseful(t *testing.T) {
	ph := Phase{A: 4, Rho: 4 / 86400.0, WorkRate: 2, Latency: 60, Overhead: 30}
	for _, iv := range []float64{60, 3600, 86400} {
		T := iv + ph.Latency
		sum := 0.0
		for k := 1; k < 100000; k++ {
			sum += math.Exp(-float64(k)*ph.Rho*T) * (iv + ph.Latency - ph.Overhead)
		}
		if d := math.Abs(sum-ph.Useful(iv)) / sum; d > 1e-10 {
			t.Errorf("I = %g: Useful %.15g, series %.15g", iv, ph.Useful(iv), sum)
		}
		if w := ph.Work(100, iv); math.Abs(w-math.Exp(-ph.Rho*100)*2*ph.Useful(iv)) > 1e-12*w {
			t.Errorf("Work = %g", w)
		}
	}
}

// TestWindow checks that each tail of Binomial(n, q) beyond the window
// (less its margin of two) holds at most tol, by gonum's CDF.
func TestWindow(t *testing.T) {
	for _, c := range []struct {
		n      int
		q, tol float64
	}{{128, 1.0 / 3, 1e-12}, {4096, 1.0 / 3, 1e-12}, {512, 3.7e-4, 1e-12}, {10, 0.5, 1e-6}} {
		lo, hi := Window(c.n, c.q, c.tol)
		b := distuv.Binomial{N: float64(c.n), P: 1 - c.q}
		// Functional counts below lo+2 and above hi−2.
		if lo > 0 {
			if p := b.CDF(float64(lo + 1)); p > c.tol {
				t.Errorf("n = %d: P(functional ≤ %d) = %g > %g", c.n, lo+1, p, c.tol)
			}
		}
		if hi < c.n {
			if p := 1 - b.CDF(float64(hi-2)); p > c.tol*(1+1e-6)+1e-15 {
				t.Errorf("n = %d: P(functional > %d) = %g > %g", c.n, hi-2, p, c.tol)
			}
		}
	}
}
