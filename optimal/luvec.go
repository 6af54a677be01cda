package optimal

import (
	"math"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/lapack"
	gonumlapack "gonum.org/v1/gonum/lapack/gonum"
	"gonum.org/v1/gonum/lapack/lapack64"
	"gonum.org/v1/gonum/mat"
)

// luVec is an LU factorisation A = P·L·U kept in packed form for solves
// with one right-hand side (a block's up states solve one vector per
// decision and per evaluation), or, from factorSparse, P·A·Q = L·U with
// a column permutation Q too (solveTo and solveUnitTo apply it). solve does the arithmetic of gonum's
// mat.LU.SolveVecTo (lapack Dgetrs, blas Dtrsm with one column) in the
// same order, so its solutions are the same bits, without its per-call
// matrix views and allocations; solveTo and solveUnitTo take each row's
// dot product over the runs of its nonzero entries, so they round
// differently (TestLUVecSolveTo holds them to 1e-13·n of it).
type luVec struct {
	n    int
	f    []float64 // row-major: L strictly below the diagonal (unit diagonal), U on and above
	perm []int     // the row permutation of P (mat.LU.RowPivots: row i of A is row perm[i] of the factors)
	// q is the column permutation of factorSparse, P·A·Q = L·U (column
	// t of the factors is column q[t] of A; nil: none), and y scratch
	// of length n for the solves that apply it (solveTo, solveUnitTo;
	// not safe for concurrent use).
	q    []int
	y    []float64
	cond float64 // mat.LU.Cond
	// l and u are the runs of the nonzero entries of the rows of L
	// (below the diagonal) and U (above it), for solveTo and
	// solveUnitTo.
	l, u nzRuns
}

// newLUVec returns the packed factors of lu, which holds a
// factorisation, and the runs of their rows.
func newLUVec(lu *mat.LU) luVec {
	n, _ := lu.Dims()
	out := luVec{n: n, f: make([]float64, n*n), perm: lu.RowPivots(nil), cond: lu.Cond()}
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
	out.indexRuns()
	return out
}

// solve returns x with A·x = b (Aᵀ·x = b when trans), in a new slice; the
// error is mat.LU.SolveVecTo's: mat.Condition when A is singular to
// working precision (x is then computed all the same).
// It serves the factors of newLUVec (no column permutation q).
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

// indexRuns sets the runs of the nonzero entries of L's and U's rows
// that solveTo and solveUnitTo use.
func (lu *luVec) indexRuns() {
	n, f := lu.n, lu.f
	lu.l.reset(n)
	lu.u.reset(n)
	for i := range n {
		lu.l.add(f[i*n:i*n+i], 0)
		lu.u.add(f[i*n+i+1:i*n+n], i+1)
	}
}

// solveTo sets x to the solution of A·x = b, with the rows of L and U as
// dot products (floats.Dot) over the runs of their nonzero entries
// (nzRuns) instead of Dgetrs' column updates: for one right-hand side
// of a dense system it is several times faster than solve and
// mat.LU.SolveVecTo, and for sparse factors (the reduced system of the
// evaluation with reconfiguration: at QR N = 64, 7–48 % of L's and U's
// entries are nonzero, in about 10–45 runs a row) it reads only the
// runs; it rounds differently (the sums are taken in another order).
// x and b must not overlap. A must be nonsingular (the caller has
// checked cond).
func (lu *luVec) solveTo(x, b []float64) {
	if lu.q == nil {
		lu.solveFactors(x, b)
		return
	}
	lu.solveFactors(lu.y, b) // in the factors' column order
	lu.unpermute(x)
}

// solveFactors sets x to U⁻¹L⁻¹P·b (solveTo without Q).
func (lu *luVec) solveFactors(x, b []float64) {
	n, f := lu.n, lu.f
	for i, p := range lu.perm {
		x[p] = b[i]
	}
	for i := 1; i < n; i++ { // L, unit diagonal
		x[i] -= lu.l.dot(i, f[i*n:(i+1)*n], x)
	}
	for i := n - 1; i >= 0; i-- { // U
		x[i] = (x[i] - lu.u.dot(i, f[i*n:(i+1)*n], x)) / f[i*n+i]
	}
}

// solveUnitTo sets x to the solution of A·x = e_i (column i of A⁻¹), as
// solveTo with b = e_i, skipping the leading zeros of the forward
// solve: with P·e_i at position q, the entries of L⁻¹Pᵀe_i before q are 0
// (the runs of L's rows before column q meet those zeros).
func (lu *luVec) solveUnitTo(x []float64, i int) {
	if lu.q == nil {
		lu.solveUnitFactors(x, i)
		return
	}
	lu.solveUnitFactors(lu.y, i)
	lu.unpermute(x)
}

// unpermute sets x = Q·y: x[q[t]] = y[t] (the factors' column t is
// column q[t] of A).
func (lu *luVec) unpermute(x []float64) {
	for t, j := range lu.q {
		x[j] = lu.y[t]
	}
}

// solveUnitFactors sets x to U⁻¹L⁻¹P·e_i (solveUnitTo without Q).
func (lu *luVec) solveUnitFactors(x []float64, i int) {
	n, f := lu.n, lu.f
	clear(x)
	q := lu.perm[i]
	x[q] = 1
	for r := q + 1; r < n; r++ { // L, unit diagonal, from q
		x[r] = -lu.l.dot(r, f[r*n:(r+1)*n], x)
	}
	for r := n - 1; r >= 0; r-- { // U
		x[r] = (x[r] - lu.u.dot(r, f[r*n:(r+1)*n], x)) / f[r*n+r]
	}
}

// runGap is the shortest run of zeros that nzRuns leaves out: a shorter
// one costs less as part of the dot product around it than a call of
// floats.Dot more.
const runGap = 8

// nzRuns holds, for each row of a set of dense rows, the runs of its
// nonzero entries, as pairs [start, end) of column indices, runs of
// fewer than runGap zeros between them merged: a row's dot product with
// x is the sum of floats.Dot over its runs. The entries left out are
// zeros, whose products with a finite x are zeros: the dot product is
// the same sum in another order (another rounding), and a dense row is
// one run.
type nzRuns struct {
	off []int // row i's runs are b[off[i]:off[i+1]]
	b   []int
}

// reset empties r for n rows, keeping its storage.
func (r *nzRuns) reset(n int) {
	if cap(r.off) < n+1 {
		r.off = make([]int, 0, n+1)
	}
	r.off = append(r.off[:0], 0)
	r.b = r.b[:0]
}

// add appends the runs of the next row, whose entries are seg, from
// column from.
func (r *nzRuns) add(seg []float64, from int) {
	start, end := -1, -1
	for j, v := range seg {
		switch {
		case v == 0:
		case start >= 0 && j-end < runGap:
			end = j + 1
		default:
			if start >= 0 {
				r.b = append(r.b, from+start, from+end)
			}
			start, end = j, j+1
		}
	}
	if start >= 0 {
		r.b = append(r.b, from+start, from+end)
	}
	r.off = append(r.off, len(r.b))
}

// dot returns the dot product of row i, whose entries are row (indexed
// by column), with x over the row's runs.
func (r *nzRuns) dot(i int, row, x []float64) float64 {
	s := 0.0
	runs := r.b[r.off[i]:r.off[i+1]]
	for p := 0; p < len(runs); p += 2 {
		lo, hi := runs[p], runs[p+1]
		s += floats.Dot(row[lo:hi], x[lo:hi])
	}
	return s
}

// factorLU returns the packed LU factors of the n × n matrix a (lapack
// Dgetrf, as mat.LU.Factorize: the same factors and row permutation, bit
// for bit) and the runs of their rows, in the storage of old (the packed
// factors they replace; zero value: new storage). Its cond is the
// estimate of κ∞(A) = ‖A‖∞‖A⁻¹‖∞ of mat.LU.Cond (mat.CondNorm; lapack
// Dgecon: Higham's estimator of ‖A⁻¹‖∞ = ‖A⁻ᵀ‖₁, Dlacn2; Higham 1988,
// ACM TOMS 14(4), Algorithm 4.1)
// with the triangular solves on the runs of the factors' rows instead of
// Dlatrs, which scales against overflow and walks the row-major factors
// by columns: at order 2003 (QR, N = 64, with reconfiguration) Dgecon
// took a fifth of the factorisation's CPU. It is +Inf when a pivot is
// zero or a solve is not finite (where Dlatrs would have scaled).
func factorLU(old luVec, a *mat.Dense) luVec {
	n, _ := a.Dims()
	f := old.f
	if cap(f) < n*n {
		f = make([]float64, n*n)
	}
	f = f[:n*n]
	out := luVec{n: n, f: f, perm: make([]int, n), l: old.l, u: old.u, cond: math.Inf(1)}
	if n == 0 {
		out.cond = 1
		return out
	}
	ar := a.RawMatrix()
	for i := range n {
		copy(f[i*n:(i+1)*n], ar.Data[i*ar.Stride:i*ar.Stride+n])
	}
	g := blas64.General{Rows: n, Cols: n, Stride: n, Data: f}
	work := make([]float64, 4*n)
	anorm := lapack64.Lange(lapack.MaxRowSum, g, work)
	swaps := make([]int, n)
	ok := lapack64.Getrf(g, swaps)
	for i := range out.perm { // the swaps replayed, as mat.LU
		out.perm[i] = i
	}
	for i := n - 1; i >= 0; i-- {
		v := swaps[i]
		out.perm[i], out.perm[v] = out.perm[v], out.perm[i]
	}
	out.indexRuns()
	if ok {
		out.cond = 1 / out.rcond(anorm, work)
	}
	return out
}

// rcond returns Dgecon's estimate of 1/κ∞(A) from ‖A‖∞ = anorm, the
// estimate of ‖A⁻¹‖∞ = ‖(U⁻¹L⁻¹)ᵀ‖₁ by Dlacn2 with the solves of L·U
// and of its transpose (work holds 4n); 0 when a solve is not finite.
func (lu *luVec) rcond(anorm float64, work []float64) float64 {
	n := lu.n
	switch {
	case anorm == 0:
		return 0
	case math.IsNaN(anorm):
		return anorm
	case math.IsInf(anorm, 1):
		return 0
	}
	impl := gonumlapack.Implementation{}
	x, v := work[:n], work[n:2*n]
	isgn := make([]int, n)
	var isave [3]int
	est, kase := 0.0, 0
	for {
		est, kase = impl.Dlacn2(n, v, x, isgn, est, kase, &isave)
		if kase == 0 {
			if est == 0 {
				return 0
			}
			return (1 / est) / anorm
		}
		if kase == 2 { // as Dgecon with the ∞-norm
			lu.triSolve(x)
		} else {
			lu.triSolveTrans(x)
		}
		for _, xi := range x {
			if math.IsNaN(xi) || math.IsInf(xi, 0) {
				return 0
			}
		}
	}
}

// triSolve sets x to U⁻¹L⁻¹x (no permutation), in place, over the runs.
func (lu *luVec) triSolve(x []float64) {
	n, f := lu.n, lu.f
	for i := 1; i < n; i++ { // L, unit diagonal
		x[i] -= lu.l.dot(i, f[i*n:(i+1)*n], x)
	}
	for i := n - 1; i >= 0; i-- { // U
		x[i] = (x[i] - lu.u.dot(i, f[i*n:(i+1)*n], x)) / f[i*n+i]
	}
}

// triSolveTrans sets x to L⁻ᵀU⁻ᵀx, in place: the rows of U and L as
// column updates over their runs.
func (lu *luVec) triSolveTrans(x []float64) {
	n, f := lu.n, lu.f
	for k := range n { // Uᵀ
		x[k] /= f[k*n+k]
		lu.u.axpy(k, -x[k], f[k*n:(k+1)*n], x)
	}
	for k := n - 1; k > 0; k-- { // Lᵀ, unit diagonal
		lu.l.axpy(k, -x[k], f[k*n:(k+1)*n], x)
	}
}

// axpy adds alpha times row i, whose entries are row (indexed by column),
// to x over the row's runs.
func (r *nzRuns) axpy(i int, alpha float64, row, x []float64) {
	if alpha == 0 {
		return
	}
	runs := r.b[r.off[i]:r.off[i+1]]
	for p := 0; p < len(runs); p += 2 {
		lo, hi := runs[p], runs[p+1]
		floats.AddScaled(x[lo:hi], alpha, row[lo:hi])
	}
}
