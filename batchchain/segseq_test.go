package batchchain

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSegmentsSeqMatchesColumn: the kept sequence of SegmentsSeq, asked
// for segment lengths in the order of an interval search (a doubling
// grid down and up, then points close together, repeats, and a random
// order), equals the per-length SegmentsColumn window to 1e-12 relative
// (each within about 1e-14 of the exact value, plus the rounding of
// their different sums: SegmentsColumn applies exp(A·tr) last, the
// sequence first), on the window cases (bands and the whole range,
// recoveries of 0 and 0.3 of the mean time to an interruption). The
// results are the same bits whatever the budget: none (every call from
// n = 0, as SegmentsWindow), one that runs out during the first call,
// and one that stores everything. The power check: the sequence of
// another recovery length (exp(A·tr) left out, tr = 0) is rejected by
// the same comparison.
func TestSegmentsSeqMatchesColumn(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 7))
	for _, tc := range windowCases {
		ph, s0, s1 := windowOf(t, tc.n, tc.a, tc.sizes)
		rho := ph.hitMin
		var ts []float64
		for _, f := range []float64{1, 0.5, 2, 0.25, 4, 0.1, 20, 1.01, 0.99, 1, 0.3} {
			ts = append(ts, f/rho)
		}
		for range 4 {
			ts = append(ts, math.Exp(rng.Float64()*6-4)/rho)
		}
		for _, tr := range []float64{0, 0.3 / rho} {
			seqs := make([]*SegmentsSeq, 3)
			for i, b := range []*Budget{nil, NewBudget(int64(s1 - s0 + 2)), NewBudget(1 << 30)} {
				var err error
				if seqs[i], err = NewSegmentsSeq(tr, s0, s1, b); err != nil {
					t.Fatal(err)
				}
			}
			wrong, err := NewSegmentsSeq(0, s0, s1, nil)
			if err != nil {
				t.Fatal(err)
			}
			rejected := false
			for _, tt := range ts {
				want, err := ph.SegmentsColumn(tr, tt)
				if err != nil {
					t.Fatal(err)
				}
				var first []float64
				for i, sq := range seqs {
					got, err := sq.At(ph, tt)
					if err != nil {
						t.Fatal(err)
					}
					if i == 0 {
						first = got
						for k, v := range got {
							if w := want[s0+k]; !(math.Abs(v-w) <= 1e-12*w) {
								t.Errorf("n=%d a=%d t=%.3g tr=%.3g: y[%d] = %.17g, SegmentsColumn %.17g", tc.n, tc.a, tt, tr, s0+k, v, w)
							}
						}
						continue
					}
					for k, v := range got {
						if v != first[k] {
							t.Errorf("n=%d a=%d t=%.3g tr=%.3g budget %d: y[%d] = %.17g, without storing %.17g", tc.n, tc.a, tt, tr, i, s0+k, v, first[k])
							break
						}
					}
				}
				bad, err := wrong.At(ph, tt)
				if err != nil {
					t.Fatal(err)
				}
				for k, v := range bad {
					if w := want[s0+k]; !(math.Abs(v-w) <= 1e-12*w) {
						rejected = true
					}
				}
			}
			if tr > 0 && !rejected {
				t.Errorf("n=%d a=%d tr=%.3g: the sequence without the recovery passes: the power check fails", tc.n, tc.a, tr)
			}
			if b := seqs[1].budget.left.Load(); b < 0 {
				t.Errorf("n=%d a=%d: budget left %d", tc.n, tc.a, b)
			}
		}
	}
}

// TestSegmentsSeqErrors: a negative or infinite recovery, a window that
// is not a range or not within the spare counts, and the lengths
// SegmentsColumn refuses are errors.
func TestSegmentsSeqErrors(t *testing.T) {
	ph, _, _ := windowOf(t, 60, 2, []float64{1})
	for _, tc := range []struct {
		tr, t  float64
		s0, s1 int
	}{{-1, 1, 0, 3}, {math.Inf(1), 1, 0, 3}, {0, 1, -1, 3}, {0, 1, 4, 3}, {0, 1, 0, 59}, {0, 0, 0, 3}, {0, math.NaN(), 0, 3}} {
		sq, err := NewSegmentsSeq(tc.tr, tc.s0, tc.s1, NewBudget(100))
		if err == nil {
			_, err = sq.At(ph, tc.t)
		}
		if err == nil {
			t.Errorf("tr=%v t=%v window [%d, %d]: no error", tc.tr, tc.t, tc.s0, tc.s1)
		}
	}
}

// TestSegmentsSeqAtOrSkip: the upper bounds that AtOrSkip passes at
// each point of the ladder are at least the window of SegmentsColumn
// (the oracle, within its 1e-12 of the sequence: the bounds carry
// skipSlack = 1e-6), on the window cases, recoveries of 0 and 0.3 and
// segment lengths of 0.1, 1 and 20 mean times to an interruption; when
// skip never takes them the result is At's, the same bits; when it takes
// the first it returns nil and skipped. The power check, on the whole
// range of spare counts (the sums so far recomputed here: the same
// products with K in the same order): the sum so far alone, the bound
// without the bound on the rest, is below the oracle at the first points
// of the ladder (a skip on it would drop counts that can win), and the
// bounds at the last points are within 1e-5 of the oracle where the sum
// ends on the ladder (t ≥ 1/ρ_min; shorter segments end on the closed
// form of the rest, with a larger rest left at the last point): they
// are not loose enough to pass whatever the sum. In -short mode only the
// case with failure events runs.
func TestSegmentsSeqAtOrSkip(t *testing.T) {
	ctx := context.Background()
	cases := windowCases
	if testing.Short() {
		cases = cases[1:2] // the events' case only (CI's run under the race detector)
	}
	for _, tc := range cases {
		ph, s0, s1 := windowOf(t, tc.n, tc.a, tc.sizes)
		rho := ph.hitMin
		for _, whole := range []bool{false, true} {
			if whole {
				s0, s1 = 0, ph.c.m
			}
			for _, tr := range []float64{0, 0.3 / rho} {
				for _, tt := range []float64{0.1 / rho, 1 / rho, 20 / rho} {
					col, err := ph.SegmentsColumn(tr, tt)
					if err != nil {
						t.Fatal(err)
					}
					want := col[s0 : s1+1]
					sq, err := NewSegmentsSeq(tr, s0, s1, nil)
					if err != nil {
						t.Fatal(err)
					}
					at, err := sq.At(ph, tt)
					if err != nil {
						t.Fatal(err)
					}
					var ubs [][]float64
					got, skipped, err := sq.AtOrSkip(ctx, ph, tt, func(ub []float64) bool {
						ubs = append(ubs, slices.Clone(ub))
						return false
					})
					name := fmt.Sprintf("n=%d a=%d window [%d, %d] tr=%.3g t=%.3g", tc.n, tc.a, s0, s1, tr, tt)
					if err != nil || skipped || !slices.Equal(got, at) {
						t.Errorf("%s: AtOrSkip never skipping: skipped %v, error %v, same bits as At: %v", name, skipped, err, slices.Equal(got, at))
					}
					for i, ub := range ubs {
						for k, v := range ub {
							if !(v >= want[k]) {
								t.Errorf("%s: bound %d on y[%d] = %.17g below SegmentsColumn %.17g", name, i, s0+k, v, want[k])
								break
							}
						}
					}
					y, skipped, err := sq.AtOrSkip(ctx, ph, tt, func([]float64) bool { return true })
					if err != nil || skipped != (len(ubs) > 0) || skipped && y != nil {
						t.Errorf("%s: skip taking the first bounds (%d bounds without it): skipped %v, result %v, error %v", name, len(ubs), skipped, y != nil, err)
					}
					if whole && len(ubs) > 1 {
						skipPower(t, name, ph, tr, tt, want, ubs, tt >= 1/rho)
					}
				}
			}
		}
	}
}

// skipPower is the power check of TestSegmentsSeqAtOrSkip on the whole
// range: the sums so far at the ladder's points N = 16(i + 1) − 1,
// Σ_{n≤N} c_n(Λt)·Kⁿ·exp(A·tr)·1, are below want somewhere at the first
// point, and with tight the last bound is within 1e-5 of want.
func skipPower(t *testing.T, name string, ph *Phase, tr, tt float64, want []float64, ubs [][]float64, tight bool) {
	t.Helper()
	m := ph.c.m
	lam, _ := ph.bandRates(0, m)
	ck := ph.columnK(lam, 0, m)
	z, next := ones(m+1), make([]float64, m+1)
	if tr > 0 {
		var err error
		if z, err = ck.expTimes(context.Background(), lam, tr, z, next); err != nil {
			t.Fatal(err)
		}
	}
	w := NewWeights(lam * tt)
	y := make([]float64, m+1)
	for n := 0; n < ladderStep; n++ {
		w.ensure(n + 1)
		for j, v := range z {
			y[j] += w.at(n) * v
		}
		ck.apply(next, z)
		z, next = next, z
	}
	below := false
	for k, v := range y {
		if v*(1+skipSlack) < want[k] {
			below = true
		}
	}
	if !below {
		t.Errorf("%s: the sum of the first %d terms is a bound of every entry: the bounds' check cannot fail", name, ladderStep)
	}
	for k, v := range ubs[len(ubs)-1] {
		if tight && v > want[k]*(1+1e-5) {
			t.Errorf("%s: the last bound on y[%d] = %.17g is above SegmentsColumn %.17g by more than 1e-5", name, k, v, want[k])
			break
		}
	}
}

// TestSegmentsSeqSkipThenAt checks that a sum AtOrSkip stopped leaves
// the sequence's later results as they would be: on a sequence whose
// first call at one length skips at its k-th bounds (k = 1, 2, 4) and
// whose budget is nil, a few rows or ample, At at that length and at
// two others gives the bits of a fresh sequence without a budget (the
// oracle: the same products in the same order, however the terms were
// stored). Power: the skipping calls did stop (skipped true, nil
// result; at least those at bounds 1 and 2 under each budget), and the
// three lengths' results differ, so that a result read from the wrong
// length's state would be seen.
func TestSegmentsSeqSkipThenAt(t *testing.T) {
	ctx := context.Background()
	tc := windowCases[1]
	ph, s0, s1 := windowOf(t, tc.n, tc.a, tc.sizes)
	rho := ph.hitMin
	for _, whole := range []bool{false, true} {
		if whole {
			s0, s1 = 0, ph.c.m
		}
		tr, lengths := 0.3/rho, []float64{1 / rho, 0.1 / rho, 20 / rho}
		fresh := make([][]float64, len(lengths))
		for i, tt := range lengths {
			sq, err := NewSegmentsSeq(tr, s0, s1, nil)
			if err != nil {
				t.Fatal(err)
			}
			if fresh[i], err = sq.At(ph, tt); err != nil {
				t.Fatal(err)
			}
		}
		if slices.Equal(fresh[0], fresh[1]) || slices.Equal(fresh[0], fresh[2]) {
			t.Fatalf("whole %v: the lengths give the same sums: the check cannot tell them apart", whole)
		}
		skips := 0
		for _, budget := range []int64{-1, int64(3 * (s1 - s0 + 2)), 1 << 24} {
			for _, k := range []int{1, 2, 4} {
				var b *Budget
				if budget >= 0 {
					b = NewBudget(budget)
				}
				sq, err := NewSegmentsSeq(tr, s0, s1, b)
				if err != nil {
					t.Fatal(err)
				}
				calls := 0
				y, skipped, err := sq.AtOrSkip(ctx, ph, lengths[0], func([]float64) bool { calls++; return calls == k })
				name := fmt.Sprintf("whole %v, budget %d, skip at bound %d", whole, budget, k)
				if err != nil {
					t.Fatal(err)
				}
				if calls == k && (!skipped || y != nil) || calls < k && (skipped || !slices.Equal(y, fresh[0])) {
					t.Errorf("%s: %d bounds, skipped %v, result %v", name, calls, skipped, y != nil)
				}
				if skipped {
					skips++
				}
				for i, tt := range lengths {
					got, err := sq.At(ph, tt)
					if err != nil {
						t.Fatal(err)
					}
					if !slices.Equal(got, fresh[i]) {
						t.Errorf("%s: At(%.3g) after the skipped call differs from a fresh sequence's", name, tt)
					}
				}
			}
		}
		if skips < 6 {
			t.Errorf("whole %v: %d of 9 calls skipped, want the skips at bounds 1 and 2 at least", whole, skips)
		}
	}
}
