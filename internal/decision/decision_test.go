package decision

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/ckpt-markov/markov/birthdeath"
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

// TestBand holds the killed resolvent against two independent
// computations: on the whole chain, birthdeath's closed-form resolvent
// rows (tol 0: every column); on a band, gonum's dense LU of ρI − G_B.
// Mass is conserved: Apply(1) + Exit = 1. Tolerances: 1e-12 absolute on
// laws whose entries sum to one (the closed form's accuracy is O(mε)).
func TestBand(t *testing.T) {
	for _, c := range []struct {
		m             int
		lambda, theta float64
		rho           float64
		b0, b1        int
	}{
		{40, 1 / 8.0, 1 / 4.0, 3 / 8.0, 0, 40},
		{200, 1 / 8.0, 1 / 4.0, 0.01, 0, 200},
		{200, 1 / 8.0, 1 / 4.0, 0.01, 100, 160},
		{511, 1 / (104.61 * 24), 1 / 0.934, 512 / (104.61 * 24), 480, 511},
	} {
		bd := NewBand(c.m, c.lambda, c.theta, c.rho, c.b0, c.b1)
		k := c.b1 - c.b0 + 1
		// Dense ρI − G_B, killed outside the band.
		a := mat.NewDense(k, k, nil)
		for i := range k {
			j := c.b0 + i
			down, up := float64(j)*c.lambda, float64(c.m-j)*c.theta
			a.Set(i, i, c.rho+down+up)
			if i > 0 {
				a.Set(i, i-1, -down)
			}
			if i < k-1 {
				a.Set(i, i+1, -up)
			}
		}
		var inv mat.Dense
		if err := inv.Inverse(a); err != nil {
			t.Fatal(err)
		}
		inv.Scale(c.rho, &inv)
		var ch *birthdeath.Chain
		var rows *birthdeath.RowBlock
		if c.b0 == 0 && c.b1 == c.m {
			var err error
			if ch, err = birthdeath.New(c.m, c.lambda, c.theta); err != nil {
				t.Fatal(err)
			}
			if rows, err = ch.Resolvent(0, c.m+1, c.rho, 0); err != nil {
				t.Fatal(err)
			}
		}
		ones := make([]float64, k)
		for i := range ones {
			ones[i] = 1
		}
		mass := bd.Apply(ones, nil)
		exit := bd.Exit(nil)
		for col := 0; col < k; col += max(k/7, 1) {
			f := make([]float64, k)
			f[col] = 1
			x := bd.Apply(f, nil)
			for i := range k {
				if d := math.Abs(x[i] - inv.At(i, col)); d > 1e-12 {
					t.Errorf("m = %d, band [%d, %d]: entry (%d, %d) = %g, dense LU %g", c.m, c.b0, c.b1, c.b0+i, c.b0+col, x[i], inv.At(i, col))
				}
				if rows != nil {
					r := rows.Rows[i]
					want := 0.0
					if j := c.b0 + col; j >= r.Lo && j < r.Hi {
						want = r.Q[j-r.Lo]
					}
					if d := math.Abs(x[i] - want); d > 1e-12 {
						t.Errorf("m = %d: entry (%d, %d) = %g, birthdeath.Resolvent %g", c.m, i, col, x[i], want)
					}
				}
			}
		}
		for i := range k {
			if d := math.Abs(mass[i] + exit[i] - 1); d > 1e-12 {
				t.Errorf("m = %d, band [%d, %d], state %d: mass %g + exit %g ≠ 1", c.m, c.b0, c.b1, c.b0+i, mass[i], exit[i])
			}
			if c.b0 == 0 && c.b1 == c.m && exit[i] != 0 {
				t.Errorf("whole chain: exit %g ≠ 0", exit[i])
			}
		}
	}
}

// fullSweep is the killed resolvent's two sweeps over every state of the
// band with no skipping: the reference ApplyRows must match bit for bit.
func fullSweep(bd *Band, f []float64) []float64 {
	k := len(f)
	x := make([]float64, k)
	z := bd.rho * f[0]
	x[0] = z
	for i := 1; i < k; i++ {
		z = bd.rho*f[i] + bd.mul[i]*z
		x[i] = z
	}
	x[k-1] /= bd.piv[k-1]
	for i := k - 2; i >= 0; i-- {
		x[i] = (x[i] + bd.up[i]*x[i+1]) / bd.piv[i]
	}
	return x
}

// TestApplyRows holds ApplyRows and ExitRows to the full sweeps bit for
// bit (tolerance 0, signed zeros included) on the rows they return, for
// vectors with leading zeros of either sign, with the first non-zero
// entry before, at and after r0, and all zeros; in place and not.
func TestApplyRows(t *testing.T) {
	negZero := math.Copysign(0, -1)
	rnd := rand.New(rand.NewPCG(20, 5))
	for _, c := range []struct {
		m      int
		b0, b1 int
	}{
		{40, 0, 40},
		{200, 100, 160},
		{511, 480, 511},
	} {
		bd := NewBand(c.m, 1/8.0, 1/4.0, 0.01, c.b0, c.b1)
		k := c.b1 - c.b0 + 1
		for _, first := range []int{0, 1, k / 3, k / 2, k - 1, k} {
			for _, zero := range []float64{0, negZero} {
				f := make([]float64, k)
				for i := range f {
					f[i] = zero
					if i >= first {
						f[i] = rnd.NormFloat64()
					}
				}
				want := fullSweep(bd, f)
				kill := make([]float64, k) // the killing rates over ρ
				if c.b0 > 0 {
					kill[0] = bd.down[0] / bd.rho
				}
				kill[k-1] += bd.up[k-1] / bd.rho
				wantExit := fullSweep(bd, kill)
				for _, r0 := range []int{0, 1, k / 3, k / 2, k - 1} {
					got := bd.ApplyRows(f, nil, r0)
					in := slices.Clone(f)
					in = bd.ApplyRows(in, in, r0)
					exit := bd.ExitRows(nil, r0)
					for i := r0; i < k; i++ {
						w := math.Float64bits(want[i])
						if math.Float64bits(got[i]) != w || math.Float64bits(in[i]) != w {
							t.Fatalf("m = %d, band [%d, %d], first %d, zero %v, r0 %d: row %d = %v (in place %v), full sweep %v",
								c.m, c.b0, c.b1, first, zero, r0, i, got[i], in[i], want[i])
						}
						if math.Float64bits(exit[i]) != math.Float64bits(wantExit[i]) {
							t.Fatalf("m = %d, r0 %d: exit row %d = %v, full %v", c.m, r0, i, exit[i], wantExit[i])
						}
					}
				}
			}
		}
	}
}
