package optimal

import (
	"gonum.org/v1/gonum/mat"
)

// luVec is an LU factorisation A = P·L·U kept in packed form for solves
// with one right-hand side (a block's up states solve one vector per
// decision and per evaluation). It does the arithmetic of gonum's
// mat.LU.SolveVecTo (lapack Dgetrs, blas Dtrsm with one column) in the
// same order, so its solutions are the same bits, without its per-call
// matrix views and allocations.
type luVec struct {
	n    int
	f    []float64 // row-major: L strictly below the diagonal (unit diagonal), U on and above
	perm []int     // the row permutation of P (mat.LU.RowPivots)
	cond float64   // mat.LU.Cond
}

// newLUVec returns the packed factors of lu, which holds a factorisation.
func newLUVec(lu *mat.LU) luVec {
	n, _ := lu.Dims()
	out := luVec{n: n, f: make([]float64, n*n), perm: lu.RowPivots(nil), cond: lu.Cond()}
	if n == 0 {
		return out
	}
	var l mat.TriDense
	var u mat.TriDense
	lu.LTo(&l)
	lu.UTo(&u)
	for i := range n {
		for j := range n {
			if j < i {
				out.f[i*n+j] = l.At(i, j)
			} else {
				out.f[i*n+j] = u.At(i, j)
			}
		}
	}
	return out
}

// solve returns x with A·x = b (Aᵀ·x = b when trans), in a new slice; the
// error is mat.LU.SolveVecTo's: mat.Condition when A is singular to
// working precision (x is then computed all the same).
func (lu *luVec) solve(b []float64, trans bool) ([]float64, error) {
	n, f := lu.n, lu.f
	x := make([]float64, n)
	if !trans {
		for i, p := range lu.perm {
			x[p] = b[i]
		}
		for i := range n { // L, unit diagonal
			for k, va := range f[i*n : i*n+i] {
				if va != 0 {
					x[i] += float64(-va * x[k]) // no fused multiply–add, as Dtrsm
				}
			}
		}
		for i := n - 1; i >= 0; i-- { // U
			for ka, va := range f[i*n+i+1 : i*n+n] {
				if va != 0 {
					x[i] += float64(-va * x[ka+i+1])
				}
			}
			x[i] *= 1 / f[i*n+i]
		}
	} else {
		copy(x, b)
		for k := range n { // Uᵀ
			x[k] *= 1 / f[k*n+k]
			for ia, va := range f[k*n+k+1 : k*n+n] {
				if va != 0 {
					x[ia+k+1] += float64(-va * x[k])
				}
			}
		}
		for k := n - 1; k >= 0; k-- { // Lᵀ, unit diagonal
			for i, va := range f[k*n : k*n+k] {
				if va != 0 {
					x[i] += float64(-va * x[k]) // no fused multiply–add, as Dtrsm
				}
			}
		}
		y := make([]float64, n)
		for i, p := range lu.perm {
			y[i] = x[p]
		}
		x = y
	}
	if lu.cond > mat.ConditionTolerance {
		return x, mat.Condition(lu.cond)
	}
	return x, nil
}
