package batchchain

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/ckpt-markov/markov/expm"
)

// TestColumnsMatchDense: Solve equals a dense LU solve of −A
// (Chain.Generator) on a random signed right-hand side, and
// Solve(HitSum(h)) equals (−A)⁻¹·B·h, to 1e-12 of the largest entry
// (signed right-hand sides: entrywise accuracy holds for f ≥ 0 only);
// with f = 1, Solve equals Exit's τ from each unit start to 1e-13
// relative (both are sums of positive terms).
func TestColumnsMatchDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 2))
	for _, tc := range phaseCases {
		c, ph := newPhase(t, tc.n, tc.a, tc.lambda, tc.theta, tc.sizes)
		a, b := c.Generator()
		n1 := c.M() + 1
		var neg mat.Dense
		neg.Scale(-1, a)
		f := make([]float64, n1)
		for j := range f {
			f[j] = rng.Float64() - 0.3
		}
		h := make([]float64, tc.n)
		for i := range h {
			h[i] = rng.NormFloat64()
		}
		var bh mat.VecDense
		bh.MulVec(b, mat.NewVecDense(tc.n, h))
		for name, rhs := range map[string][2][]float64{
			"f":   {f, f},
			"B·h": {bh.RawVector().Data, ph.HitSum(h[1:], 1)},
		} {
			var want mat.VecDense
			if err := want.SolveVec(&neg, mat.NewVecDense(n1, append([]float64(nil), rhs[0]...))); err != nil {
				t.Fatal(err)
			}
			if name == "B·h" {
				// HitSum from lo = 1 leaves out n' = 0: put it back.
				extra := make([]float64, n1)
				for j := range extra {
					extra[j] = b.At(j, 0) * h[0]
				}
				sol := ph.Solve(extra)
				got := ph.Solve(rhs[1])
				scale := mat.Norm(&want, math.Inf(1))
				for j := range n1 {
					if d := math.Abs(got[j] + sol[j] - want.AtVec(j)); d > 1e-12*scale {
						t.Errorf("n=%d a=%d %s: x[%d] = %.16g, dense %.16g", tc.n, tc.a, name, j, got[j]+sol[j], want.AtVec(j))
					}
				}
				continue
			}
			got := ph.Solve(rhs[1])
			scale := mat.Norm(&want, math.Inf(1))
			for j := range n1 {
				if d := math.Abs(got[j] - want.AtVec(j)); d > 1e-12*scale {
					t.Errorf("n=%d a=%d %s: x[%d] = %.16g, dense %.16g", tc.n, tc.a, name, j, got[j], want.AtVec(j))
				}
			}
		}
		ones := make([]float64, n1)
		for j := range ones {
			ones[j] = 1
		}
		tau := ph.Solve(ones)
		for s := range n1 {
			_, _, want := ph.Exit([]float64{1}, s)
			if math.Abs(tau[s]-want) > 1e-13*want {
				t.Errorf("n=%d a=%d: τ[%d] = %.16g, Exit %.16g", tc.n, tc.a, s, tau[s], want)
			}
		}
	}
}

// TestSegmentsColumnMatchesDense: SegmentsColumn equals exp(A·tr)·u with
// (I − M)u = M·1, M = exp(A t), from package expm and a dense solve, to
// 1e-11 of each entry plus 1e-19 (Weights leaves out weights below
// 1e-30 of their mode's, as Expected's absolute floor does), for segments from 1/1000 to 100 times the mean
// interruption time and recoveries of 0, 0.3 and 5 of it; and entry s is
// Segments.Expected started from s after the recovery's survival law
// (exp(A·tr) row s) to 1e-11: the row and column forms agree; every
// entry is at most SegmentsBound (to rounding, 1e-12).
func TestSegmentsColumnMatchesDense(t *testing.T) {
	for _, tc := range phaseCases {
		c, ph := newPhase(t, tc.n, tc.a, tc.lambda, tc.theta, tc.sizes)
		a, _ := c.Generator()
		n1 := c.M() + 1
		rho := float64(tc.a) * tc.lambda
		for _, tt := range []float64{1e-3 / rho, 0.7 / rho, 20 / rho, 100 / rho} {
			for _, tr := range []float64{0, 0.3 / rho, 5 / rho} {
				got, err := ph.SegmentsColumn(tr, tt)
				if err != nil {
					t.Fatal(err)
				}
				want, pr := denseColumn(t, a, n1, tr, tt)
				for s := range n1 {
					if math.Abs(got[s]-want[s]) > 1e-11*want[s]+1e-19 {
						t.Errorf("n=%d a=%d t=%.3g tr=%.3g: y[%d] = %.16g, dense %.16g", tc.n, tc.a, tt, tr, s, got[s], want[s])
					}
				}
				bound := ph.SegmentsBound(tr, tt)
				for s := range n1 {
					if got[s] > bound*(1+1e-12) {
						t.Errorf("n=%d a=%d t=%.3g tr=%.3g: y[%d] = %.16g above SegmentsBound %.16g", tc.n, tc.a, tt, tr, s, got[s], bound)
					}
				}
				s := n1 / 2
				row := pr.RawRowView(s)
				e, err := ph.Segments(row, 0, 0).Expected(tt, nil)
				if err != nil {
					t.Fatal(err)
				}
				if math.Abs(got[s]-e) > 1e-11*e+1e-16 {
					t.Errorf("n=%d a=%d t=%.3g tr=%.3g: column %.16g, row form %.16g", tc.n, tc.a, tt, tr, got[s], e)
				}
			}
		}
	}
}

// TestSegmentsColumnErrors: a non-positive or infinite length, a negative
// recovery, and a phase needing too many products (ρ_min = 1e-9 against
// spare moves at rate 2, segments of 10⁴ s: the weights flat only after
// about 1.9·(2·10⁴)² terms) are errors.
func TestSegmentsColumnErrors(t *testing.T) {
	_, ph := newPhase(t, 3, 1, 1e-9, 1, []float64{1})
	for _, tc := range []struct{ tr, t float64 }{{0, 0}, {0, math.Inf(1)}, {-1, 1}, {0, math.NaN()}, {0, 1e4}} {
		if _, err := ph.SegmentsColumn(tc.tr, tc.t); err == nil {
			t.Errorf("tr=%v t=%v: no error", tc.tr, tc.t)
		}
	}
}

// denseColumn returns exp(A·tr)·u with (I − M)u = M·1, M = exp(A t), and
// exp(A·tr).
func denseColumn(t *testing.T, a *mat.Dense, n1 int, tr, tt float64) ([]float64, *mat.Dense) {
	exp := func(s float64) *mat.Dense {
		var as, ms mat.Dense
		as.Scale(s, a)
		if err := expm.Exp(&ms, &as, nil); err != nil {
			t.Fatal(err)
		}
		return &ms
	}
	mt, pr := exp(tt), exp(tr)
	var im mat.Dense
	im.Scale(-1, mt)
	for j := range n1 {
		im.Set(j, j, 1+im.At(j, j))
	}
	ones := mat.NewVecDense(n1, nil)
	for j := range n1 {
		ones.SetVec(j, 1)
	}
	var m1, u, y mat.VecDense
	m1.MulVec(mt, ones)
	if err := u.SolveVec(&im, &m1); err != nil {
		t.Fatal(err)
	}
	y.MulVec(pr, &u)
	return y.RawVector().Data, pr
}

// windowCases are phases whose spare count lives in a narrow range
// against its span (desktop grids: MTTF 8 h, MTTR 4 h, few processors
// used among many), with the window of spare counts SegmentsWindow is
// asked for: ±4 standard deviations of the functional count around its
// mean 2n/3, as optimal's window of decision states.
var windowCases = []struct {
	n, a  int
	sizes []float64
}{
	{600, 3, []float64{1}},
	{600, 40, []float64{0.5, 0, 0, 0.1, 0.1, 0.1, 0.1, 0.1}},
	{1000, 10, []float64{0.6, 0.3, 0.1}},
}

// windowOf returns the phase of a window case and its window of spare
// counts.
func windowOf(t *testing.T, n, a int, sizes []float64) (ph *Phase, s0, s1 int) {
	t.Helper()
	_, ph = newPhase(t, n, a, 1/(8*hour), 1/(4*hour), sizes)
	mean, sd := 2*float64(n)/3, math.Sqrt(2*float64(n)/9)
	return ph, int(mean-4*sd) - a, int(mean+4*sd) - a
}

// TestSegmentsWindowMatchesColumn: SegmentsWindow equals the window of
// SegmentsColumn (itself checked against dense exponentials above) to
// 3e-14 of each entry (each is within 1e-14 of the exact value) plus
// the rounding of their different sums, about ln(10¹⁴)·Λ/ρ_min products
// of at most 1e-16 each (Λ/ρ_min up to about 1500 here), for segments from 1/100 to 20 times the mean time to an
// interruption, recoveries of 0 and 0.3 of it; the segments of the mean
// time take a band narrower than the range (band), so
// that the killed sums are what is compared (the others take the whole
// range, whose closed form of the rest, restClosed, is cheaper).
func TestSegmentsWindowMatchesColumn(t *testing.T) {
	for _, tc := range windowCases {
		ph, s0, s1 := windowOf(t, tc.n, tc.a, tc.sizes)
		rho := ph.hitMin
		for _, tt := range []float64{1e-2 / rho, 0.3 / rho, 1 / rho, 20 / rho} {
			for _, tr := range []float64{0, 0.3 / rho} {
				_, _, _, banded := ph.band(tr, tt, s0, s1)
				if !banded && tt == 1/rho {
					t.Errorf("n=%d a=%d t=%.3g tr=%.3g: no band", tc.n, tc.a, tt, tr)
				}
				got, err := ph.SegmentsWindow(tr, tt, s0, s1)
				if err != nil {
					t.Fatal(err)
				}
				want, err := ph.SegmentsColumn(tr, tt)
				if err != nil {
					t.Fatal(err)
				}
				if len(got) != s1-s0+1 {
					t.Fatalf("n=%d a=%d: %d entries, want %d", tc.n, tc.a, len(got), s1-s0+1)
				}
				tol := 3e-14 + ladderProducts*ph.Rate()/ph.hitMin*1e-16
				for i, v := range got {
					if w := want[s0+i]; !(math.Abs(v-w) <= tol*w) {
						t.Errorf("n=%d a=%d t=%.3g tr=%.3g banded=%v: y[%d] = %.17g, SegmentsColumn %.17g", tc.n, tc.a, tt, tr, banded, s0+i, v, w)
					}
				}
			}
		}
	}
}

// TestSegmentsWindowEscapeBound: on bands from 1 to 256 spare counts
// beyond the window, the killed sums are below SegmentsColumn's and
// within the escape bound of them (0 ≤ y − y_b ≤ escape, to 1e-13 of y
// for rounding); the power check: the narrowest bands lose more than
// the tolerance (y − y_b > 1e-10·y somewhere), and checkBand rejects
// them, so a band too narrow is not taken silently.
func TestSegmentsWindowEscapeBound(t *testing.T) {
	for _, tc := range windowCases {
		ph, s0, s1 := windowOf(t, tc.n, tc.a, tc.sizes)
		tt, tr := 0.5/ph.hitMin, 0.1/ph.hitMin
		full, err := ph.SegmentsColumn(tr, tt)
		if err != nil {
			t.Fatal(err)
		}
		for _, margin := range []int{1, 4, 16, 64, 256} {
			b0, b1 := max(s0-margin, 0), min(s1+margin, ph.c.m)
			yb, err := ph.segmentsOn(context.Background(), tr, tt, b0, b1)
			if err != nil {
				t.Fatal(err)
			}
			// The window's escape bound as SegmentsWindow computes it, here
			// over every spare count.
			esc := (&bandsKept{s0: 0, s1: ph.c.m}).get(ph, b0, b1).escape(ph, tt)
			worst := 0.0
			for s := s0; s <= s1; s++ {
				y, d := full[s], full[s]-yb[s-b0]
				if d < -1e-13*y || d > esc[s]+1e-13*y {
					t.Errorf("n=%d a=%d margin=%d: y[%d] = %.17g, band %.17g, escape bound %.3g", tc.n, tc.a, margin, s, y, yb[s-b0], esc[s])
				}
				worst = max(worst, d/y)
			}
			_, ok := checkBand(yb, esc[s0:s1+1], b0, s0, s1)
			if margin == 1 && (worst <= 1e-10 || ok) {
				t.Errorf("n=%d a=%d margin=1: band loses %.3g of y, checkBand %v: the power check fails", tc.n, tc.a, worst, ok)
			}
		}
	}
}

// TestSegmentsWindowErrors: windows out of the spare counts and the
// times SegmentsColumn refuses are errors.
func TestSegmentsWindowErrors(t *testing.T) {
	ph, _, _ := windowOf(t, 60, 2, []float64{1})
	for _, tc := range []struct {
		tr, t  float64
		s0, s1 int
	}{{0, 1, -1, 3}, {0, 1, 4, 3}, {0, 1, 0, 59}, {0, 0, 0, 3}, {-1, 1, 0, 3}, {0, math.Inf(1), 0, 3}} {
		if _, err := ph.SegmentsWindow(tc.tr, tc.t, tc.s0, tc.s1); err == nil {
			t.Errorf("tr=%v t=%v window [%d, %d]: no error", tc.tr, tc.t, tc.s0, tc.s1)
		}
	}
}

// TestSegmentsBoundWindow: the window's bound is at least SegmentsColumn
// (the exact sums, checked against dense exponentials above) in every
// entry, to the rounding of SegmentsColumn's sum (the tolerance of
// TestSegmentsWindowMatchesColumn: with sizes [1] the bound is the exact
// value), and at most SegmentsBound, for
// segments from 1/100 to 20 times the mean time to an interruption and
// recoveries of 0 and 0.3 of it; with events whose interruption rate
// grows with the spare count it is below SegmentsBound by more than a
// tenth somewhere (else it would be pointless). The power check: the
// same comparison rejects the bound of the band's rate alone taken for
// the whole range, SegmentsBoundAt(ρ_max, ·), which is a lower bound.
func TestSegmentsBoundWindow(t *testing.T) {
	for _, tc := range windowCases {
		ph, s0, s1 := windowOf(t, tc.n, tc.a, tc.sizes)
		rho := ph.hitMin
		tol := 3e-14 + ladderProducts*ph.Rate()/ph.hitMin*1e-16
		tighter, rejected := false, false
		for _, tt := range []float64{1e-2 / rho, 0.3 / rho, 1 / rho, 20 / rho} {
			for _, tr := range []float64{0, 0.3 / rho} {
				ub, err := ph.SegmentsBoundWindow(tr, tt, s0, s1)
				if err != nil {
					t.Fatal(err)
				}
				y, err := ph.SegmentsColumn(tr, tt)
				if err != nil {
					t.Fatal(err)
				}
				all := ph.SegmentsBound(tr, tt)
				wrong := SegmentsBoundAt(ph.hitMax, tr, tt)
				for i, b := range ub {
					v := y[s0+i]
					if !(v <= b*(1+tol)) || b > all {
						t.Errorf("n=%d a=%d t=%.3g tr=%.3g: y[%d] = %.17g, bound %.17g, SegmentsBound %.17g", tc.n, tc.a, tt, tr, s0+i, v, b, all)
					}
					tighter = tighter || b < 0.9*all
					rejected = rejected || v > wrong*(1+tol)
				}
			}
		}
		if len(tc.sizes) > 1 && !tighter {
			t.Errorf("n=%d a=%d: the window's bound is nowhere below 0.9 SegmentsBound", tc.n, tc.a)
		}
		if len(tc.sizes) > 1 && !rejected {
			t.Errorf("n=%d a=%d: the bound at ρ_max passes: the power check fails", tc.n, tc.a)
		}
	}
	ph, _, _ := windowOf(t, 60, 2, []float64{1})
	for _, w := range [][2]int{{-1, 3}, {4, 3}, {0, 59}} {
		if _, err := ph.SegmentsBoundWindow(0, 1, w[0], w[1]); err == nil {
			t.Errorf("window %v: no error", w)
		}
	}
	if _, err := ph.SegmentsBoundWindow(0, 0, 0, 3); err == nil {
		t.Error("t = 0: no error")
	}
}
