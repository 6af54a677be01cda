package batchchain

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/ckpt-markov/markov/expm"
)

// phaseCases are chains whose up phase the tests below solve densely:
// few and many spares, single failures and batches, slow and fast
// repairs, a used count of 1 (interruptions rare against the spares'
// moves) and of n (no spare slot).
var phaseCases = []struct {
	n, a          int
	lambda, theta float64
	sizes         []float64
}{
	{1, 1, 1, 2, []float64{1}},
	{6, 2, 0.3, 1.1, []float64{0.5, 0.5}},
	{12, 4, 1, 4, []float64{0.2, 0.3, 0, 0.5}},
	{20, 20, 0.2, 0.1, []float64{0, 1}},
	{33, 9, 1.0 / 8, 1.0 / 4, []float64{0.5, 0, 0, 0.125, 0.125, 0.125, 0.125}},
	{40, 1, 1e-2, 1, []float64{0.3, 0.3, 0.4}},
	{64, 48, 1 / (8 * hour), 1 / hour, []float64{0.5, 0, 0, 0.1, 0.1, 0.1, 0.1, 0.1}},
}

// newPhase returns the chain of New(n, a, lambda, theta, sizes) and its
// up phase, failing the test on an error.
func newPhase(t *testing.T, n, a int, lambda, theta float64, sizes []float64) (*Chain, *Phase) {
	t.Helper()
	c, err := New(n, a, lambda, theta, sizes)
	if err != nil {
		t.Fatal(err)
	}
	ph, err := c.Phase()
	if err != nil {
		t.Fatal(err)
	}
	return c, ph
}

// randomStart returns a random sub-probability vector on spare counts
// [lo, lo+w) of 0..m, from a seeded source.
func randomStart(rng *rand.Rand, m int) (v []float64, lo int) {
	lo = rng.IntN(m + 1)
	w := 1 + rng.IntN(m+1-lo)
	v = make([]float64, w)
	var sum float64
	for i := range v {
		v[i] = rng.Float64()
		sum += v[i]
	}
	scale := 0.2 + 0.8*rng.Float64()
	for i := range v {
		v[i] *= scale / sum
	}
	return v, lo
}

// TestPhaseExitMatchesDense: Exit's censoring equals x = v·(−A)⁻¹ from a
// dense LU solve of the generator (Chain.Generator), Q = x·B and τ = x·1,
// to 1e-12 relative to Σv (and τ relative to itself); Σ Q = Σ v.
func TestPhaseExitMatchesDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for _, tc := range phaseCases {
		c, ph := newPhase(t, tc.n, tc.a, tc.lambda, tc.theta, tc.sizes)
		a, b := c.Generator()
		var negA mat.Dense
		negA.Scale(-1, a)
		for range 3 {
			v, lo := randomStart(rng, c.M())
			name := fmt.Sprintf("n=%d a=%d lo=%d w=%d", tc.n, tc.a, lo, len(v))
			full := mat.NewVecDense(c.M()+1, nil)
			for i, x := range v {
				full.SetVec(lo+i, x)
			}
			var x mat.VecDense
			if err := x.SolveVec(negA.T(), full); err != nil {
				t.Fatal(err)
			}
			var mass, wantTau float64
			for _, x := range v {
				mass += x
			}
			for j := range x.Len() {
				wantTau += x.AtVec(j)
			}
			var wantQ mat.VecDense
			wantQ.MulVec(b.T(), &x)
			q, qlo, tau := ph.Exit(v, lo)
			if math.Abs(tau-wantTau) > 1e-12*wantTau {
				t.Errorf("%s: τ %.16g, dense %.16g", name, tau, wantTau)
			}
			var sumQ float64
			for np := range tc.n {
				got := 0.0
				if i := np - qlo; i >= 0 && i < len(q) {
					got = q[i]
				}
				sumQ += got
				if math.Abs(got-wantQ.AtVec(np)) > 1e-12*mass {
					t.Errorf("%s: Q[%d] %.16g, dense %.16g", name, np, got, wantQ.AtVec(np))
				}
			}
			for i := range q {
				if np := qlo + i; np < 0 || np >= tc.n {
					t.Errorf("%s: Q has a column n' = %d outside 0..n−1", name, np)
				}
			}
			if math.Abs(sumQ-mass) > 1e-13*mass {
				t.Errorf("%s: Σ Q = %.16g, Σ v = %.16g", name, sumQ, mass)
			}
		}
	}
}

// TestSegmentsMatchesDense: Expected equals v·Σ_{k≥1} M^k·1 with M =
// exp(A t) from package expm and the sum solved densely, (I − M)u = M·1,
// to 1e-11 relative plus 1e-16 of Σv (Expected's absolute floor, 1e-19),
// for segments from 1/1000 to 100 times the mean
// interruption time (the weights take every branch of Weights), and
// in any order of the lengths (the result depends on t only).
func TestSegmentsMatchesDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	for _, tc := range phaseCases {
		c, ph := newPhase(t, tc.n, tc.a, tc.lambda, tc.theta, tc.sizes)
		a, _ := c.Generator()
		n1 := c.M() + 1
		v, lo := randomStart(rng, c.M())
		rho := float64(tc.a) * tc.lambda
		lengths := []float64{1e-3 / rho, 0.05 / rho, 0.7 / rho, 3 / rho, 20 / rho, 100 / rho}
		first := map[float64]float64{}
		sg := ph.Segments(v, lo, 0)
		for pass, order := range [][]int{{0, 1, 2, 3, 4, 5}, {5, 3, 1, 0, 4, 2}} {
			if pass == 1 {
				sg = ph.Segments(v, lo, 0)
			}
			for _, i := range order {
				tt := lengths[i]
				want := denseExpected(t, a, n1, v, lo, tt)
				got, err := sg.Expected(tt, nil)
				if err != nil {
					t.Fatal(err)
				}
				var s0 float64
				for _, x := range v {
					s0 += x
				}
				if math.Abs(got-want) > 1e-11*want+1e-16*s0 {
					t.Errorf("n=%d a=%d t=%.4g (ρt=%.3g): Expected %.16g, dense %.16g (rel %.2g)", tc.n, tc.a, tt, rho*tt, got, want, math.Abs(got-want)/want)
				}
				if pass == 0 {
					first[tt] = got
				} else if got != first[tt] {
					t.Errorf("n=%d a=%d t=%.4g: %v after other lengths, %v in the first order", tc.n, tc.a, tt, got, first[tt])
				}
			}
		}
	}
}

// TestWeights: the weights c_n(x) of Weights against the direct sum Σ_k e^{−kx}(kx)ⁿ/n! in log space
// (compensated), to 1e-13 plus the oracle's own rounding plus 1e-28
// (weightFloor: the weights below 1e-30 of their Poisson window's mode are
// left out), on both sides of x = 2 and of flatFrom.
func TestWeights(t *testing.T) {
	for _, x := range []float64{0.01, 0.3, 1, 2, 2.5, 7, 40, 300} {
		for _, n := range []int{0, 1, 2, 5, 17, 30, 31, 60, 200, 900} {
			w := NewWeights(x)
			w.ensure(n + 1)
			got := w.at(n)
			want := directWeight(x, n)
			// The oracle's exponent, of size n·ln n, rounds to about
			// n·ln(n)·ε relative.
			if tol := 1e-13 + 2e-16*float64(n)*math.Log(float64(n+1)); math.Abs(got-want) > tol*want+1e-28 {
				t.Errorf("x=%g n=%d: c_n %.16g, direct %.16g (rel %.2g)", x, n, got, want, math.Abs(got-want)/want)
			}
		}
	}
}

// directWeight returns c_n(x) = Σ_{k≥1} e^{−kx}(kx)ⁿ/n! by the direct
// sum (Neumaier's compensated summation), the oracle of the weights.
func directWeight(x float64, n int) float64 {
	var want, comp float64
	lg, _ := math.Lgamma(float64(n + 1))
	for k := 1; k < 20_000_000; k++ {
		mu := float64(k) * x
		term := math.Exp(-mu + float64(n)*math.Log(mu) - lg)
		sum := want + term
		if math.Abs(want) >= term {
			comp += (want - sum) + term
		} else {
			comp += (term - sum) + want
		}
		want = sum
		if mu > float64(n)+60*math.Sqrt(float64(n)+1)+100 {
			break
		}
	}
	return want + comp
}

// TestWeightBound holds weightBound, the bound on c_n for n ≥ n0 that
// stops Expected, against the direct sum: no c_n exceeds it (1e-12
// relative slack for the oracle's rounding), and it is within a factor
// 1.5 of the largest c_n at n ≈ x for large x (the max f term is
// attained), so that a wrong bound would be caught on either side.
func TestWeightBound(t *testing.T) {
	for _, x := range []float64{0.05, 0.7, 3, 13.2, 41, 82, 400} {
		worst := 0.0 // the largest c_n/bound seen
		for n := 1; n <= 600; n++ {
			c, b := directWeight(x, n), weightBound(x, n)
			if c > b*(1+1e-12) {
				t.Errorf("x=%g n=%d: c_n = %.16g above the bound %.16g", x, n, c, b)
			}
			worst = max(worst, c/b)
		}
		if x >= 41 && worst < 1/1.5 {
			t.Errorf("x=%g: the bound is loose: max c_n/bound = %.3g", x, worst)
		}
	}
}

// TestPhaseBounded: a phase whose rates would exceed MaxPhaseEntries is
// refused with an error before anything is allocated, and λ = 0 (never
// interrupted) is an error.
func TestPhaseBounded(t *testing.T) {
	sizes := make([]float64, 1<<12)
	sizes[len(sizes)-1] = 1
	c, err := New(1<<14, 1, 1e-5, 1e-3, sizes)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Phase(); err == nil {
		t.Errorf("(m+1)·K_max = %d: no error", (c.M()+1)*len(sizes))
	}
	c, err = New(8, 2, 0, 1, []float64{1})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Phase(); err == nil {
		t.Errorf("λ = 0: no error")
	}
}

// TestExpectedLongSegments: segments far longer than the up phase
// (x = Λt up to 1e12) cost little and give a non-negative sum bounded by
// the first segment's survival bound, v·1·e^{−ρ_min t}/(1 − e^{−ρ_min t}).
func TestExpectedLongSegments(t *testing.T) {
	_, ph := newPhase(t, 64, 48, 1/(8*hour), 1/hour, []float64{0.5, 0, 0, 0.25, 0.25})
	sg := ph.Segments([]float64{0.5, 0.3}, 2, 0)
	for _, tt := range []float64{1e6, 1e9, 1e12 / sg.Rate()} {
		e, err := sg.Expected(tt, nil)
		if err != nil {
			t.Fatal(err)
		}
		if bound := 0.8 * math.Exp(-ph.hitMin*tt) / -math.Expm1(-ph.hitMin*tt); !(e >= 0 && e <= bound+1e-300) {
			t.Errorf("t = %g: Expected %g outside [0, %g]", tt, e, bound)
		}
	}
}

// TestExpectedWithin: with mass = s_0 it is Expected, bit for bit; with a
// larger mass it agrees with the dense sum to 1e-11 relative plus 1e-16
// of mass (its absolute tolerance is 1e-19·mass), and mass below s_0
// counts as s_0.
func TestExpectedWithin(t *testing.T) {
	tc := phaseCases[4]
	c, ph := newPhase(t, tc.n, tc.a, tc.lambda, tc.theta, tc.sizes)
	v, lo := []float64{1e-6, 2e-6}, 3
	a, _ := c.Generator()
	n1 := c.M() + 1
	for _, tt := range []float64{0.5, 8, 40} {
		want := denseExpected(t, a, n1, v, lo, tt)
		e1, _ := ph.Segments(v, lo, 0).Expected(tt, nil)
		e2, _ := ph.Segments(v, lo, 0).ExpectedWithin(tt, nil, 3e-6)
		e3, _ := ph.Segments(v, lo, 0).ExpectedWithin(tt, nil, 1e-9)
		if e1 != e2 || e1 != e3 {
			t.Errorf("t=%v: Expected %v, within s_0 %v, within less %v", tt, e1, e2, e3)
		}
		e4, err := ph.Segments(v, lo, 0).ExpectedWithin(tt, nil, 1)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(e4-want) > 1e-11*want+1e-16 {
			t.Errorf("t=%v: within mass 1: %.16g, dense %.16g", tt, e4, want)
		}
	}
}

// denseExpected is v·Σ_{k≥1} M^k·1 with M = exp(A t) from expm and the
// sum solved densely, (I − M)u = M·1.
func denseExpected(t *testing.T, a *mat.Dense, n1 int, v []float64, lo int, tt float64) float64 {
	var at, mt mat.Dense
	at.Scale(tt, a)
	if err := expm.Exp(&mt, &at, nil); err != nil {
		t.Fatal(err)
	}
	var im mat.Dense
	im.Scale(-1, &mt)
	for j := range n1 {
		im.Set(j, j, 1+im.At(j, j))
	}
	ones := mat.NewVecDense(n1, nil)
	for j := range n1 {
		ones.SetVec(j, 1)
	}
	var m1, u mat.VecDense
	m1.MulVec(&mt, ones)
	if err := u.SolveVec(&im, &m1); err != nil {
		t.Fatal(err)
	}
	var want float64
	for k, x := range v {
		want += x * u.AtVec(lo+k)
	}
	return want
}

// TestRowsWithPhaseRates: once a Phase is built, Rows reads its rates
// instead of recomputing them; the rows must be bit for bit those of a
// chain without a Phase (the same rates, the same operations), including
// used counts below the largest event size (f < K_max truncates the law).
func TestRowsWithPhaseRates(t *testing.T) {
	for _, tc := range []struct {
		n, a   int
		lambda float64
	}{{64, 40, 1 / (8 * hour)}, {300, 250, 1 / (24 * hour)}, {40, 3, 1 / hour}} {
		plain, err := New(tc.n, tc.a, tc.lambda, 1/hour, issueSizes())
		if err != nil {
			t.Fatal(err)
		}
		cached, err := New(tc.n, tc.a, tc.lambda, 1/hour, issueSizes())
		if err != nil {
			t.Fatal(err)
		}
		if _, err := cached.Phase(); err != nil {
			t.Fatal(err)
		}
		m := tc.n - tc.a
		want, err := plain.Rows(0, m+1, hour, 1e-16)
		if err != nil {
			t.Fatal(err)
		}
		got, err := cached.Rows(0, m+1, hour, 1e-16)
		if err != nil {
			t.Fatal(err)
		}
		for s := range want {
			w, g := want[s], got[s]
			if w.Lo != g.Lo || w.QLo != g.QLo || !slices.Equal(w.P, g.P) || !slices.Equal(w.Q, g.Q) ||
				w.Survival != g.Survival || w.Sojourn != g.Sojourn || w.Dropped != g.Dropped {
				t.Errorf("n=%d a=%d s=%d: the rows differ with the Phase's rates", tc.n, tc.a, s)
			}
		}
	}
}

// TestLowerAndFloor: Lower is below the dense sum for every case and
// equal to it (1e-12) for sizes [1], whose interruption rate aλ does not
// depend on the spare count (the closed form e^{−aλt}/(1 − e^{−aλt})·s_0);
// ExpectedFloor with floor 0 is ExpectedWithin bit for bit, and with a
// floor F agrees with the dense sum to 1e-11 relative plus 2e-14·F
// (its documented share) while stopping no later than without it, and
// earlier for a floor far above the count (the floor is used).
func TestLowerAndFloor(t *testing.T) {
	rng := rand.New(rand.NewPCG(20, 2))
	earlier := false
	for _, tc := range phaseCases {
		c, ph := newPhase(t, tc.n, tc.a, tc.lambda, tc.theta, tc.sizes)
		a, _ := c.Generator()
		n1 := c.M() + 1
		v, lo := randomStart(rng, c.M())
		rho := float64(tc.a) * c.rate
		for _, tt := range []float64{0.05 / rho, 1 / rho, 20 / rho} {
			want := denseExpected(t, a, n1, v, lo, tt)
			sg := ph.Segments(v, lo, 0)
			low := sg.Lower(tt)
			if low > want*(1+1e-12) {
				t.Errorf("n=%d a=%d t=%g: Lower %.16g above the dense sum %.16g", tc.n, tc.a, tt, low, want)
			}
			if len(tc.sizes) == 1 && math.Abs(low-want) > 1e-12*want {
				t.Errorf("n=%d a=%d t=%g: sizes [1]: Lower %.16g, dense %.16g", tc.n, tc.a, tt, low, want)
			}
			e0, _ := ph.Segments(v, lo, 0).ExpectedWithin(tt, nil, 1)
			sg0 := ph.Segments(v, lo, 0)
			z, _ := sg0.ExpectedFloor(tt, nil, 1, 0)
			if z != e0 {
				t.Errorf("n=%d a=%d t=%g: floor 0 %v, ExpectedWithin %v", tc.n, tc.a, tt, z, e0)
			}
			for _, f := range []float64{want, 1e6 * want} {
				sgf := ph.Segments(v, lo, 0)
				e, err := sgf.ExpectedFloor(tt, nil, 1, f)
				if err != nil {
					t.Fatal(err)
				}
				if math.Abs(e-want) > 1e-11*want+2e-14*f+1e-16 {
					t.Errorf("n=%d a=%d t=%g floor %g: %.16g, dense %.16g", tc.n, tc.a, tt, f, e, want)
				}
				if sgf.Len() > sg0.Len() {
					t.Errorf("n=%d a=%d t=%g floor %g: %d terms, %d without the floor", tc.n, tc.a, tt, f, sgf.Len(), sg0.Len())
				}
				earlier = earlier || sgf.Len() < sg0.Len()
			}
		}
	}
	if !earlier {
		t.Error("no floor stopped a sequence earlier")
	}
	if _, err := ph0(t).Segments([]float64{1}, 0, 0).ExpectedFloor(1, nil, 1, math.NaN()); err == nil {
		t.Error("floor NaN: no error")
	}
}

// ph0 returns the Phase of the first case.
func ph0(t *testing.T) *Phase {
	tc := phaseCases[0]
	_, ph := newPhase(t, tc.n, tc.a, tc.lambda, tc.theta, tc.sizes)
	return ph
}

// TestSegmentsKilledRates: the sequence s_n = v·Kⁿ·1 of Segments, whose
// negligible spare-only rates are left out (killRates), against the
// dense product with the whole K = I + A/Λ from Chain.Generator. Left
// out, a rate can only lower s_n, and by at most what Dropped reports so
// far (the ends of the band and kill·s_n per product), plus 1e-13 of s_n
// for rounding. With the default budget (2⁻⁶⁰·Λ per spare count) the
// chains below leave out most of their large sizes; with a budget of
// 1e-3·Λ (power check) the sequence moves by more than the rounding
// allowance, so the comparison can reject a wrong sequence, and by more
// than the band's ends alone account for, so that the kill term of
// Dropped is needed.
func TestSegmentsKilledRates(t *testing.T) {
	cases := []struct {
		n, a          int
		lambda, theta float64
		sizes         []float64
	}{
		{400, 380, 1 / (24 * hour), 1 / hour, issueSizes()},
		{2000, 1990, 1 / (8 * hour), 1 / hour, []float64{0.5, 0, 0, 0, 0, 0, 0, 0.5}},
	}
	for _, tc := range cases {
		c, ph := newPhase(t, tc.n, tc.a, tc.lambda, tc.theta, tc.sizes)
		a, _ := c.Generator()
		n1 := c.M() + 1
		v, lo := []float64{0.25, 0.5, 0.25}, n1/4
		for _, budget := range []float64{0, 1e-3} {
			sg := ph.Segments(v, lo, 0)
			if budget > 0 {
				sg.killRates(ph, budget*sg.Rate())
			}
			spare := 0
			for k := 1; k <= len(tc.sizes); k++ {
				for j := k; j < n1; j++ {
					if ph.dn[j*ph.kmax+k-1] > 0 {
						spare++
						break
					}
				}
			}
			if budget == 0 && len(sg.ks) >= spare {
				t.Errorf("n=%d a=%d: %d of %d sizes kept: the test needs rates left out", tc.n, tc.a, len(sg.ks), spare)
			}
			moved, beyondCut := checkKilled(t, a, sg, v, lo, n1)
			if budget > 0 && (!moved || !beyondCut) {
				t.Errorf("n=%d a=%d budget %g·Λ: sequence moved beyond rounding %v, beyond the band's ends %v: the check has no power", tc.n, tc.a, budget, moved, beyondCut)
			}
		}
	}
}

// checkKilled compares the first 200 terms of sg with v·Kⁿ·1 from the
// dense sub-generator a (see TestSegmentsKilledRates). It reports whether
// some term fell short by more than the rounding allowance, and whether
// by more than the mass dropped at the band's ends alone.
func checkKilled(t *testing.T, a *mat.Dense, sg *Segments, v []float64, lo, n1 int) (moved, beyondCut bool) {
	t.Helper()
	lam := sg.Rate()
	y := make([]float64, n1)
	copy(y[lo:], v)
	next := make([]float64, n1)
	var cut float64
	for n := 1; n <= 200; n++ {
		for j := range next {
			var s float64
			for i := range n1 {
				kij := a.At(i, j) / lam
				if i == j {
					kij++
				}
				s += y[i] * kij
			}
			next[j] = s
		}
		y, next = next, y
		var want float64
		for _, x := range y {
			want += x
		}
		before := sg.dropped
		sg.extend(n)
		cut += (sg.dropped - before) - sg.kill*sg.s[n-1]
		short := want - sg.s[n]
		if short < -1e-13*want || short > sg.dropped+1e-13*want {
			t.Fatalf("s_%d = %.17g, dense %.17g: short by %.3g, Dropped %.3g", n, sg.s[n], want, short, sg.dropped)
		}
		moved = moved || short > 1e-13*want
		beyondCut = beyondCut || short > cut+1e-13*want
	}
	return moved, beyondCut
}

// TestPoissonAddWindow holds every weight poissonAdd adds against the
// Poisson law in closed form, e^{−μ}μⁿ/n! by lgamma (its exponent's
// terms, of size μ + n·|ln μ| + ln n!, round to about that times ε
// relative: the tolerance is 1e-13 plus twice that), for windows cut at various lengths and one ratio buffer reused
// across the calls, so that a ratio read from the wrong slot or left
// over from an earlier call would show. The same check on the law of
// μ·(1 + 1e-11) must fail at some n of each window (power check).
func TestPoissonAddWindow(t *testing.T) {
	for _, mu := range []float64{0.3, 5, 40.5, 1000.2, 7.75} {
		n0 := int(mu)
		for _, length := range []int{1, n0 / 2, n0 + 3, n0 + 20*int(math.Sqrt(mu)) + 40} {
			if length < 1 {
				continue
			}
			c := make([]float64, length)
			added := poissonAdd(c, mu)
			fails := false
			var kept int
			for n, got := range c {
				lg, _ := math.Lgamma(float64(n + 1))
				want := math.Exp(-mu + float64(n)*math.Log(mu) - lg)
				far := math.Exp(-mu*(1+1e-11) + float64(n)*math.Log(mu*(1+1e-11)) - lg)
				tol := 1e-13 + 4.5e-16*(mu+float64(n)*math.Abs(math.Log(mu))+lg)
				if got == 0 {
					// Left out: below weightFloor of the mode's, or outside c.
					continue
				}
				kept++
				if math.Abs(got-want) > tol*want {
					t.Errorf("mu=%g len=%d n=%d: %.16g, closed form %.16g (rel %.2g)", mu, length, n, got, want, math.Abs(got-want)/want)
				}
				if math.Abs(got-far) > tol*far {
					fails = true
				}
			}
			if added != (kept > 0) {
				t.Errorf("mu=%g len=%d: reported %v with %d weights added", mu, length, added, kept)
			}
			if kept > 0 && mu > 1 && !fails {
				t.Errorf("mu=%g len=%d: the law of mu·(1 + 1e-11) passes too: no power", mu, length)
			}
		}
	}
}

// hugeSize is the law of a single event size k: every event takes down
// k processors (or all the functional ones, when fewer).
func hugeSize(k int) []float64 {
	sizes := make([]float64, k)
	sizes[k-1] = 1
	return sizes
}

// TestPhaseRatesMatchChain: Phase builds its tables from the factors
// (j−i)/(f−i) divided once per j − i (fillRates); they must be Chain's
// ratesAt bit for bit, spare count by spare count, including used counts
// below the largest event size (min(K, f) truncates the law), a law with
// zero sizes and a single size, and laws of one huge size (40 and 64 of
// 64 processors, 12 of 12: every count below it truncates).
func TestPhaseRatesMatchChain(t *testing.T) {
	for _, tc := range []struct {
		n, a  int
		sizes []float64
	}{
		{64, 40, issueSizes()}, {40, 3, issueSizes()}, {40, 1, issueSizes()},
		{300, 250, []float64{0.2, 0, 0.3, 0, 0, 0.5}}, {50, 20, []float64{1}},
		{64, 10, hugeSize(40)}, {64, 60, hugeSize(64)}, {12, 1, hugeSize(12)},
	} {
		c, ph := newPhase(t, tc.n, tc.a, 1/(8*hour), 1/hour, tc.sizes)
		var r rates
		for j := 0; j <= c.M(); j++ {
			c.ratesAt(j, &r)
			var tot float64
			for _, h := range r.hit {
				tot += h
			}
			row := j * ph.kmax
			for k := range ph.kmax {
				var down, hit float64
				if k < len(r.down) {
					down, hit = r.down[k], r.hit[k]
				}
				if ph.dn[row+k] != down || ph.hit[row+k] != hit {
					t.Errorf("n=%d a=%d j=%d k=%d: Phase (%v, %v), ratesAt (%v, %v)", tc.n, tc.a, j, k+1, ph.dn[row+k], ph.hit[row+k], down, hit)
				}
			}
			if ph.up[j] != r.up || ph.hitTot[j] != tot {
				t.Errorf("n=%d a=%d j=%d: up %v, hit rate %v; ratesAt %v, %v", tc.n, tc.a, j, ph.up[j], ph.hitTot[j], r.up, tot)
			}
		}
	}
}

// TestPoissonAddSumsToOne: over a window that c holds whole, the weights
// of poissonAdd are a probability law, which holds its normalisation
// (Stirling's series from stirlingFrom on, the window's sum below it) to
// rounding: each weight is the mode's times at most s = 12√μ + 1 ratios,
// whose roundings add up like a random walk, so the tolerance is
// 8ε·(1 + √s) (1e-15 to 1e-13 here, μ up to 1e6; observed: a few ε). Stirling's series
// without its last term (1/(1680n₀⁷), 1.5e-14 at n₀ = 30) must fail there
// (power check), and the law must agree with the window sum's at the
// boundary.
func TestPoissonAddSumsToOne(t *testing.T) {
	sum := func(mu float64) float64 {
		c := make([]float64, int(mu+13*math.Sqrt(mu))+20)
		if !poissonAdd(c, mu) {
			t.Fatalf("mu=%g: nothing added", mu)
		}
		var s float64
		for _, w := range c {
			s += w
		}
		return s
	}
	for _, mu := range []float64{29.9, 30, 30.5, 31, 47.3, 200.7, 1000.2, 12345.6, 1e5 + 0.25, 1e6 + 0.5} {
		tol := 8 * 0x1p-53 * (1 + math.Sqrt(12*math.Sqrt(mu)+1))
		if got := sum(mu); math.Abs(got-1) > tol {
			t.Errorf("mu=%g: the weights sum to 1 %+.3g, tolerance %.2g", mu, got-1, tol)
		}
	}
	n0 := float64(stirlingFrom)
	short := logPoissonNorm(n0, stirlingFrom) + 1/(1680*math.Pow(n0, 7))
	if full := logPoissonNorm(n0, stirlingFrom); math.Abs(math.Exp(full-short)-1) <= 8*0x1p-53*(1+math.Sqrt(12*math.Sqrt(n0)+1)) {
		t.Errorf("dropping 1/(1680n₀⁷) moves the normalisation by %.3g only: no power", math.Exp(full-short)-1)
	}
	c1, c2 := make([]float64, 80), make([]float64, 80)
	poissonAdd(c1, n0)
	poissonAddSummed(c2, n0)
	for n := range c1 {
		if math.Abs(c1[n]-c2[n]) > 1e-14*c2[n] {
			t.Errorf("mu=%g n=%d: Stirling's normalisation %.16g, the window's sum %.16g", n0, n, c1[n], c2[n])
		}
	}
}

// TestStayUpMatchesOutRate: stayUp sums the exit rates four spare counts
// at a time (outRates4); each entry must be 1 − outRate(j)/Λ bit for
// bit, on bands whose lengths are and are not multiples of four. Power
// check: the four sums with the interruption rates added before the
// spare-only ones (another order) differ in 66 entries (16 bands).
func TestStayUpMatchesOutRate(t *testing.T) {
	for _, tc := range releaseCases {
		_, ph := newPhase(t, tc.n, tc.a, tc.lambda, tc.theta, tc.sizes)
		m := len(ph.up) - 1
		lam := ph.Rate() * 1.0625
		for _, band := range [][2]int{{0, m}, {1, m}, {0, m - 1}, {min(2, m), m}, {m / 2, m / 2}, {m / 3, m - 1}} {
			if band[0] > band[1] || band[1] < 0 {
				continue
			}
			stay, upS := ph.stayUp(lam, band[0], band[1])
			for i := range stay {
				j := band[0] + i
				if want := 1 - ph.outRate(j)/lam; math.Float64bits(stay[i]) != math.Float64bits(want) {
					t.Errorf("n=%d a=%d band %v j=%d: stay %v, 1 − outRate/Λ %v", tc.n, tc.a, band, j, stay[i], want)
				}
				if upS[i] != ph.up[j]/lam {
					t.Errorf("n=%d a=%d band %v j=%d: upS %v, up/Λ %v", tc.n, tc.a, band, j, upS[i], ph.up[j]/lam)
				}
			}
		}
	}
}
