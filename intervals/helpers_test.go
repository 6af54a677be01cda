package intervals

import (
	"math"
	"strings"
	"testing"
)

// bruteMin minimises f on [lo, hi] (0 < lo < hi) by brute force,
// independently of the package's optimisers: it scans 4001 points evenly
// spaced in ln x, then narrows the cell around the best point by ternary
// search (200 rounds, shrinking by 2/3 each). For a unimodal f whose
// minimum lies inside the scanned range this returns the minimiser to the
// resolution allowed by the flatness of f (about sqrt(2ε·f/f″) in ln x).
func bruteMin(f func(float64) float64, lo, hi float64) float64 {
	const n = 4000
	a, b := math.Log(lo), math.Log(hi)
	g := func(u float64) float64 { return f(math.Exp(u)) }
	best, bestU := math.Inf(1), a
	for i := 0; i <= n; i++ {
		u := a + (b-a)*float64(i)/n
		if v := g(u); v < best {
			best, bestU = v, u
		}
	}
	step := (b - a) / n
	l, r := bestU-step, bestU+step
	for range 200 {
		m1 := l + (r-l)/3
		m2 := r - (r-l)/3
		if g(m1) < g(m2) {
			r = m2
		} else {
			l = m1
		}
	}
	return math.Exp((l + r) / 2)
}

// relDiff returns |a − b|/|b|.
func relDiff(a, b float64) float64 { return math.Abs(a-b) / math.Abs(b) }

// wantErr fails unless err is non-nil and mentions every word in words.
func wantErr(t *testing.T, what string, err error, words ...string) {
	t.Helper()
	if err == nil {
		t.Errorf("%s: no error", what)
		return
	}
	for _, w := range words {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("%s: error %q does not mention %q", what, err, w)
		}
	}
}

// TestBruteMin checks the test oracle itself on functions with known
// minimisers: x + a²/x is minimal at a, (ln x − c)² at e^c.
func TestBruteMin(t *testing.T) {
	for _, a := range []float64{1e-3, 0.7, 42, 1e5} {
		got := bruteMin(func(x float64) float64 { return x + a*a/x }, a/1000, a*1000)
		if relDiff(got, a) > 1e-6 {
			t.Errorf("x + a²/x, a=%g: got %g", a, got)
		}
	}
	for _, c := range []float64{-3, 0, 2.5} {
		got := bruteMin(func(x float64) float64 { return (math.Log(x) - c) * (math.Log(x) - c) }, 1e-3, 1e3)
		if relDiff(got, math.Exp(c)) > 1e-6 {
			t.Errorf("(ln x − %g)²: got %g", c, got)
		}
	}
}
