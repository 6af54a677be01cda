package optimal

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestLUVecSameBits holds luVec.solve against its oracle, gonum's
// mat.LU.SolveVecTo, bit for bit (the same operations in the same order),
// on seeded random matrices with and without pivoting and zeros, both
// transposes, and the condition error of a singular matrix.
func TestLUVecSameBits(t *testing.T) {
	rnd := rand.New(rand.NewPCG(20, 3))
	for _, c := range []struct {
		n     int
		zeros float64 // fraction of zero entries
		diag  float64 // added to the diagonal (large: no pivoting)
	}{
		{1, 0, 0}, {2, 0, 0}, {7, 0, 0}, {7, 0.5, 0}, {30, 0.3, 0}, {30, 0.8, 10}, {64, 0.9, 1},
	} {
		a := mat.NewDense(c.n, c.n, nil)
		for i := range c.n {
			for j := range c.n {
				if rnd.Float64() >= c.zeros {
					a.Set(i, j, rnd.NormFloat64())
				}
			}
			a.Set(i, i, a.At(i, i)+c.diag)
		}
		var lu mat.LU
		lu.Factorize(a)
		lv := newLUVec(&lu)
		for _, trans := range []bool{false, true} {
			b := make([]float64, c.n)
			for i := range b {
				b[i] = rnd.NormFloat64()
			}
			var want mat.VecDense
			werr := lu.SolveVecTo(&want, trans, mat.NewVecDense(c.n, b))
			got, gerr := lv.solve(b, trans)
			if (werr == nil) != (gerr == nil) {
				t.Fatalf("n = %d, trans = %v: error %v, want %v", c.n, trans, gerr, werr)
			}
			for i, w := range want.RawVector().Data {
				if math.Float64bits(got[i]) != math.Float64bits(w) {
					t.Fatalf("n = %d, trans = %v: x[%d] = %v, want %v (bits)", c.n, trans, i, got[i], w)
				}
			}
		}
	}
	// Singular: the condition error of SolveVecTo.
	a := mat.NewDense(3, 3, []float64{1, 2, 3, 2, 4, 6, 1, 0, 1})
	var lu mat.LU
	lu.Factorize(a)
	lv := newLUVec(&lu)
	var want mat.VecDense
	werr := lu.SolveVecTo(&want, false, mat.NewVecDense(3, []float64{1, 1, 1}))
	_, gerr := lv.solve([]float64{1, 1, 1}, false)
	if werr == nil || gerr == nil {
		t.Fatalf("singular: errors %v and %v, want both", gerr, werr)
	}
}
