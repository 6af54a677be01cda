package batchchain

import (
	"math"
	"math/rand/v2"
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
