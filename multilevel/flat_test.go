package multilevel

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// flatPeriod computes the expected time of one period by a different
// algorithm: one state per segment of the period and one per recovery to
// each checkpoint, and the dense linear system of expected times to the
// period's end, E_x = τ_x + Σ_y P(x→y)·E_y, built from the model's rules
// directly (docs/model.md section 12), without the nested blocks.
func flatPeriod(pr *Process, pattern []int, I float64) float64 {
	L := len(pr.Levels)
	// lev[k]: the level of the checkpoint ending segment k; boundary b is
	// the checkpoint before segment b (boundary 0: the level-L one).
	var lev []int
	var build func(l, k int)
	build = func(l, k int) { // a level-l body ending with level k
		if l == 1 {
			lev = append(lev, k)
			return
		}
		v := pattern[l-2]
		for i := 0; i < v; i++ {
			build(l-1, l-1)
		}
		build(l-1, k)
	}
	build(L, L)
	P := len(lev)
	level := func(b int) int {
		if b == 0 {
			return L
		}
		return lev[b-1]
	}
	newest := func(b, s int) int { // newest boundary ≤ b of level ≥ s
		for level(b) < s {
			b--
		}
		return b
	}
	// States: segment k (0..P−1), recovery at boundary b (P + b).
	n := 2 * P
	A := mat.NewDense(n, n, nil)
	rhs := mat.NewVecDense(n, nil)
	attempt := func(x int, t float64, success int, fail func(s int) int) {
		p := math.Exp(-pr.Rate * t)
		q := -math.Expm1(-pr.Rate * t)
		A.Set(x, x, A.At(x, x)+1)
		rhs.SetVec(x, q/pr.Rate)
		if success >= 0 {
			A.Set(x, success, A.At(x, success)-p)
		}
		for s := 1; s <= L; s++ {
			y := fail(s)
			A.Set(x, y, A.At(x, y)-q*pr.Severity[s-1])
		}
	}
	for k := 0; k < P; k++ {
		next := k + 1
		if next == P {
			next = -1 // done
		}
		attempt(k, I+pr.Levels[lev[k]-1].Latency, next, func(s int) int { return P + newest(k, s) })
	}
	for b := 0; b < P; b++ {
		l := level(b)
		t := pr.Levels[l-1].Recovery
		if pr.CheckpointAfterRecovery {
			t += pr.Levels[l-1].Latency
		}
		attempt(P+b, t, b, func(s int) int {
			switch {
			case s < l || l == L:
				return P + b
			case s == l:
				return P + newest(b, l+1)
			}
			return P + newest(b, s)
		})
	}
	var e mat.VecDense
	if err := e.SolveVec(A, rhs); err != nil {
		panic(err)
	}
	return e.AtVec(0)
}

// TestPeriodFlat: the nested composition equals the flat linear system
// on random small patterns of two to four levels (seeded), with and
// without the checkpoint after recovery, latency ≠ overhead.
func TestPeriodFlat(t *testing.T) {
	rng := rand.New(rand.NewPCG(22, 1))
	for trial := 0; trial < 60; trial++ {
		L := 2 + rng.IntN(3)
		pr := &Process{CheckpointAfterRecovery: trial%2 == 0}
		sum := 0.0
		for l := 0; l < L; l++ {
			lat := math.Pow(10, 1+float64(l)+rng.Float64())
			pr.Levels = append(pr.Levels, Level{Latency: lat, Overhead: lat * rng.Float64(), Recovery: lat * 2 * rng.Float64()})
			f := rng.Float64()
			pr.Severity = append(pr.Severity, f)
			sum += f
		}
		for l := range pr.Severity {
			pr.Severity[l] /= sum
		}
		pattern := make([]int, L-1)
		for i := range pattern {
			pattern[i] = rng.IntN(5)
		}
		I := math.Pow(10, 2+2*rng.Float64())
		// Between 0.01 and 1 failures per longest stretch (the period of
		// all segments, or the costliest recovery): a well-conditioned
		// system, whose solve is accurate to the tolerance.
		longest := pr.Levels[L-1].Recovery + pr.Levels[L-1].Latency
		span := I
		for _, v := range pattern {
			span *= float64(v + 1)
		}
		pr.Rate = math.Pow(10, -2+2*rng.Float64()) / math.Max(longest, span)
		got, err := pr.Period(pattern, I)
		if err != nil {
			t.Fatal(err)
		}
		want := flatPeriod(pr, pattern, I)
		if d := math.Abs(got.Time-want) / want; d > 1e-11 {
			t.Errorf("trial %d, L=%d, V=%v, rate %.3g: period %.15g, flat system %.15g (relative %.2g)", trial, L, pattern, pr.Rate, got.Time, want, d)
		}
	}
}
