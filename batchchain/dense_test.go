package batchchain

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// denseCases are phaseCases and two of rare interruptions (Λ/ρ_min of
// about 10³ and 10⁵), where the sequence still runs.
var denseCases = append(append([]struct {
	n, a          int
	lambda, theta float64
	sizes         []float64
}{}, phaseCases...),
	struct {
		n, a          int
		lambda, theta float64
		sizes         []float64
	}{16, 12, 1 / (400 * 24 * hour), 1 / hour, []float64{0.5, 0.25, 0, 0.25}},
	struct {
		n, a          int
		lambda, theta float64
		sizes         []float64
	}{24, 20, 1 / (1e5 * 24 * hour), 1 / hour, []float64{0.5, 0, 0.5}},
)

// seqOnly returns the SegmentsBase of ph without the dense path: the
// tests of the sequence's own limits.
func seqOnly(ph *Phase) *SegmentsBase {
	b := ph.SegmentsBase(0)
	b.dense = nil
	return b
}

// withPaths returns the SegmentsBase of ph with the sequence only and
// with the dense path, whatever useDense says.
func withPaths(ph *Phase) (seq, dense *SegmentsBase) {
	seq = seqOnly(ph)
	d := *seq
	d.dense = newDenseUp(ph)
	return seq, &d
}

// TestSegmentsDenseMatchesSequence: the dense path, Φ(t)⁻¹·(−A)⁻¹·M·1,
// against the uniformized sequence and against the expm-and-solve
// oracle of TestSegmentsMatchesDense ((I − M)u = M·1), for lengths from
// ρt = 10⁻⁶ (Λt from 10⁻⁶ to 1) to ρt = 20 (Λt up to 2·10⁷): every
// case's Φ is within maxDenseCond. Against the sequence: 1e-11 relative
// plus the dense path's 10⁻¹³·κ, κ = min(Λt, Λ/ρ_min) ≥ 1 the condition
// of Φ(t) (docs), plus 1e-16 of Σv; against the oracle, plus the
// oracle's own 2⁻⁵³·10·max(1, Λt)/min(1, ρt) (I − M of size ρt).
func TestSegmentsDenseMatchesSequence(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for _, tc := range denseCases {
		c, ph := newPhase(t, tc.n, tc.a, tc.lambda, tc.theta, tc.sizes)
		a, _ := c.Generator()
		v, lo := randomStart(rng, c.M())
		var s0 float64
		for _, x := range v {
			s0 += x
		}
		seq, dense := withPaths(ph)
		ss, sd := seq.Segments(v, lo), dense.Segments(v, lo)
		rho := ph.hitMin
		for _, rt := range []float64{1e-6, 1e-3, 0.05, 0.7, 3, 20} {
			tt := rt / rho
			got, err := sd.Expected(tt, nil)
			if err != nil {
				t.Fatalf("n=%d a=%d ρt=%g: %v", tc.n, tc.a, rt, err)
			}
			// The sequence runs where it needs at most
			// MaxSegmentsProducts terms (not at the last case's longer
			// lengths); the oracle then stands alone.
			want, err := ss.Expected(tt, nil)
			if err != nil {
				if seq.lam/rho < 1e5 {
					t.Fatal(err)
				}
				want = math.NaN()
			}
			oracle := denseExpected(t, a, c.M()+1, v, lo, tt)
			kappa := math.Max(1, math.Min(seq.lam*tt, seq.lam/rho))
			tol := 1e-11 + 1e-13*kappa
			own := 0x1p-53 * 10 * math.Max(1, seq.lam*tt) / math.Min(1, rt)
			for _, ref := range []struct {
				name string
				x    float64
				tol  float64
			}{{"sequence", want, tol}, {"expm and solve", oracle, tol + own}} {
				if !math.IsNaN(ref.x) && math.Abs(got-ref.x) > ref.tol*ref.x+1e-16*s0 {
					t.Errorf("n=%d a=%d ρt=%g Λt=%.3g: dense %.16g, %s %.16g (rel %.2g)", tc.n, tc.a, rt, seq.lam*tt, got, ref.name, ref.x, math.Abs(got-ref.x)/ref.x)
				}
			}
		}
	}
}

// TestSegmentsDensePower: the dense path with Φ(t) replaced by t·I, or
// M·1 by 1, is rejected by the oracle at ρt = 0.7 (each is off by more
// than 1e-3 relative, against the test's 1e-11).
func TestSegmentsDensePower(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 13))
	for _, tc := range denseCases {
		c, ph := newPhase(t, tc.n, tc.a, tc.lambda, tc.theta, tc.sizes)
		a, _ := c.Generator()
		n1 := c.M() + 1
		v, lo := randomStart(rng, c.M())
		_, dense := withPaths(ph)
		tt := 0.7 / ph.hitMin
		oracle := denseExpected(t, a, n1, v, lo, tt)
		m1, _, err := dense.dense.parts(tt)
		if err != nil {
			t.Fatal(err)
		}
		tI := mat.NewDense(n1, n1, nil)
		ones := make([]float64, n1)
		for j := range n1 {
			tI.Set(j, j, tt)
			ones[j] = 1
		}
		_, phi, _ := dense.dense.parts(tt)
		for _, w := range []struct {
			name string
			m1   []float64
			phi  *mat.Dense
		}{{"Φ = t·I", m1, tI}, {"M·1 = 1", ones, phi}} {
			got, err := dense.dense.solve(v, lo, tt, w.m1, w.phi)
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(got-oracle) <= 1e-3*oracle {
				t.Errorf("n=%d a=%d: %s gives %.16g, within 1e-3 of the oracle %.16g", tc.n, tc.a, w.name, got, oracle)
			}
		}
	}
}

// TestSegmentsDenseRule: useDense keeps the sequence where it is cheap
// (interruptions as frequent as the spare count's moves, or many spare
// counts) and takes the dense path for a few spare counts with rare
// interruptions; a Φ(t) beyond maxDenseCond (Λt ≈ 10¹², the case of
// Λ/ρ ≈ 10¹³) is refused with errDenseCond, and Expected then takes the
// sequence (here: beyond MaxSegmentsProducts, an error).
func TestSegmentsDenseRule(t *testing.T) {
	for _, tc := range []struct {
		lamOverRho float64
		m, kmax    int
		want       bool
	}{
		{1, 0, 1, false}, {30, 4, 16, false}, {1e4, 4, 16, true},
		{1e4, 60, 16, false}, {1e12, 300, 16, false}, {1e12, 200, 16, true},
	} {
		if got := useDense(tc.lamOverRho, 1, tc.m, tc.kmax); got != tc.want {
			t.Errorf("Λ/ρ=%g m=%d K=%d: useDense %v, want %v", tc.lamOverRho, tc.m, tc.kmax, got, tc.want)
		}
	}
	_, ph := newPhase(t, 24, 20, 1e-16, 1/hour, []float64{0.5, 0, 0.5})
	_, dense := withPaths(ph)
	tt := 1e12 / dense.lam
	if _, err := dense.dense.expected([]float64{1}, 0, tt); !errors.Is(err, errDenseCond) {
		t.Errorf("Λt = 1e12: error %v, want errDenseCond", err)
	}
	if _, err := dense.Segments([]float64{1}, 0).Expected(tt, nil); err == nil {
		t.Errorf("Λt = 1e12: no error from the sequence beyond MaxSegmentsProducts")
	}
}
