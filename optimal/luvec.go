package optimal

import (
	"gonum.org/v1/gonum/floats"
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
	return packLU(nil, lu)
}

// packLU returns the packed factors of lu, which holds a factorisation,
// in the storage of f when it is large enough (nil: new storage).
func packLU(f []float64, lu *mat.LU) luVec {
	n, _ := lu.Dims()
	if cap(f) < n*n {
		f = make([]float64, n*n)
	}
	out := luVec{n: n, f: f[:n*n], perm: lu.RowPivots(nil), cond: lu.Cond()}
	if n == 0 {
		return out
	}
	var l, u mat.TriDense
	lu.LTo(&l)
	lu.UTo(&u)
	lr, ur := l.RawTriangular(), u.RawTriangular()
	for i := range n {
		row := out.f[i*n : (i+1)*n]
		copy(row[:i], lr.Data[i*lr.Stride:i*lr.Stride+i])
		copy(row[i:], ur.Data[i*ur.Stride+i:i*ur.Stride+n])
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

// solveTo sets x to the solution of A·x = b, with the rows of L and U as
// dot products (floats.Dot) instead of Dgetrs' column updates: for one
// right-hand side of a dense system it is several times faster than
// solve and mat.LU.SolveVecTo, and rounds differently (the sums are
// taken in another order). x and b must not overlap. A must be
// nonsingular (the caller has checked cond).
func (lu *luVec) solveTo(x, b []float64) {
	n, f := lu.n, lu.f
	for i, p := range lu.perm {
		x[p] = b[i]
	}
	for i := 1; i < n; i++ { // L, unit diagonal
		x[i] -= floats.Dot(f[i*n:i*n+i], x[:i])
	}
	for i := n - 1; i >= 0; i-- { // U
		x[i] = (x[i] - floats.Dot(f[i*n+i+1:i*n+n], x[i+1:n])) / f[i*n+i]
	}
}

// solveUnitTo sets x to the solution of A·x = e_i (column i of A⁻¹), as
// solveTo with b = e_i, skipping the leading zeros of the forward
// solve: with P·e_i at position q, the entries of L⁻¹Pᵀe_i before q are 0.
func (lu *luVec) solveUnitTo(x []float64, i int) {
	n, f := lu.n, lu.f
	clear(x)
	q := lu.perm[i]
	x[q] = 1
	for r := q + 1; r < n; r++ { // L, unit diagonal, from q
		x[r] = -floats.Dot(f[r*n+q:r*n+r], x[q:r])
	}
	for r := n - 1; r >= 0; r-- { // U
		x[r] = (x[r] - floats.Dot(f[r*n+r+1:r*n+n], x[r+1:n])) / f[r*n+r]
	}
}
