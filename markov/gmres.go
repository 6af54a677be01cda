package markov

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"

	krylov "github.com/ckpt-markov/markov/internal/gmres"
)

// csrMat is a square CSR matrix with sorted columns and an explicit
// diagonal entry in every row (diag[i] is its position).
type csrMat struct {
	indptr []int
	ind    []int32 // 32-bit column indices halve the index traffic of the sweeps
	data   []float64
	diag   []int
}

// mulVec sets y = A x.
func (a *csrMat) mulVec(y, x []float64) {
	for i := range y {
		var v float64
		for p := a.indptr[i]; p < a.indptr[i+1]; p++ {
			v += a.data[p] * x[a.ind[p]]
		}
		y[i] = v
	}
}

// generatorTrans returns A = I − Pᵀ restricted to a closed class, in the
// local numbering of the class (local[i] is the position of state i in
// states). The diagonal a_kk = Σ_{j≠k} p_kj is computed without
// subtraction, so every column of A sums to zero up to rounding.
func (c *Chain[L]) generatorTrans(states, local []int) *csrMat {
	nc := len(states)
	indptr := make([]int, nc+1)
	for k, i := range states {
		indptr[k+1]++ // diagonal
		for _, j := range c.ind[c.indptr[i]:c.indptr[i+1]] {
			if l := local[j]; l != k {
				indptr[l+1]++
			}
		}
	}
	for k := 0; k < nc; k++ {
		indptr[k+1] += indptr[k]
	}
	nnz := indptr[nc]
	a := &csrMat{
		indptr: indptr,
		ind:    make([]int32, nnz),
		data:   make([]float64, nnz),
		diag:   make([]int, nc),
	}
	next := make([]int, nc)
	copy(next, indptr[:nc])
	// Row l of A receives column k while row k of P is scanned; scanning k
	// in increasing order leaves the columns of every row of A sorted.
	for k, i := range states {
		var off float64
		for p := c.indptr[i]; p < c.indptr[i+1]; p++ {
			l := local[c.ind[p]]
			if l == k {
				continue
			}
			off += c.data[p]
			q := next[l]
			next[l]++
			a.ind[q] = int32(k)
			a.data[q] = -c.data[p]
		}
		q := next[k]
		next[k]++
		a.ind[q] = int32(k)
		a.data[q] = off
		a.diag[k] = q
	}
	return a
}

// ilu0 is the incomplete LU factorisation with zero fill-in, ILU(0), of a
// csrMat: L (unit lower triangular) and U share the sparsity pattern of A
// (Meijerink & van der Vorst 1977; Saad 2003, §10.3).
type ilu0 struct {
	a  *csrMat
	lu []float64
}

// newILU0 factorises a. For the singular M-matrix I − Pᵀ of an irreducible
// chain all pivots are positive except possibly the last, which vanishes
// when no fill is dropped; a pivot that is not safely positive is replaced
// by the diagonal of A, which keeps the preconditioner nonsingular and the
// preconditioned system consistent (see doc.go).
func newILU0(a *csrMat) *ilu0 {
	n := len(a.diag)
	lu := make([]float64, len(a.data))
	copy(lu, a.data)
	pos := make([]int, n) // pos[j] is the position of column j in the current row, or -1
	for j := range pos {
		pos[j] = -1
	}
	for i := 0; i < n; i++ {
		lo, hi := a.indptr[i], a.indptr[i+1]
		for p := lo; p < hi; p++ {
			pos[a.ind[p]] = p
		}
		for p := lo; p < a.diag[i]; p++ {
			k := a.ind[p]
			f := lu[p] / lu[a.diag[k]]
			lu[p] = f
			if f == 0 {
				continue
			}
			for q := a.diag[k] + 1; q < a.indptr[k+1]; q++ {
				if w := pos[a.ind[q]]; w >= 0 {
					lu[w] -= f * lu[q]
				}
			}
		}
		d := a.diag[i]
		if !(lu[d] > 1e3*dlamchE*a.data[d]) {
			lu[d] = a.data[d]
		}
		for p := lo; p < hi; p++ {
			pos[a.ind[p]] = -1
		}
	}
	return &ilu0{a: a, lu: lu}
}

// dlamchE is the machine epsilon (unit roundoff 2⁻⁵³ times 2).
const dlamchE = 0x1p-52

// solve sets z = (LU)⁻¹ v. z and v may be the same slice.
func (m *ilu0) solve(z, v []float64) {
	a := m.a
	n := len(a.diag)
	for i := 0; i < n; i++ {
		s := v[i]
		for p := a.indptr[i]; p < a.diag[i]; p++ {
			s -= m.lu[p] * z[a.ind[p]]
		}
		z[i] = s
	}
	for i := n - 1; i >= 0; i-- {
		s := z[i]
		for p := a.diag[i] + 1; p < a.indptr[i+1]; p++ {
			s -= m.lu[p] * z[a.ind[p]]
		}
		z[i] = s / m.lu[a.diag[i]]
	}
}

// gmres solves the singular consistent system A x = 0, A = I − Pᵀ of an
// irreducible chain, by restarted GMRES(m) with right preconditioner M
// (Saad & Schultz 1986; Saad 2003, §9.3.2), starting from x (overwritten):
// each cycle runs the Arnoldi steps of package internal/gmres on the
// operator A M⁻¹ and adds M⁻¹ V y to x. At every restart x is normalised
// to sum 1 and its true residual ‖A x‖₁ is compared with tol. It returns
// the number of GMRES iterations, or an error when restart (cut to len(x))
// or len(x) is beyond the bounds of package internal/gmres.
func gmres(a *csrMat, m *ilu0, x []float64, tol float64, maxIter, restart int) (int, error) {
	n := len(x)
	ws, err := krylov.New(n, min(restart, n))
	if err != nil {
		return 0, fmt.Errorf("markov: Settings.Restart = %d: %w", restart, err)
	}
	zw := make([]float64, 2*n) // scratch: z = M⁻¹·, w = V y
	z, w := zw[:n], zw[n:]
	op := func(dst, src []float64) { // dst = A M⁻¹ src
		m.solve(z, src)
		a.mulVec(dst, z)
	}
	// The inner loop targets the ℓ2 residual that guarantees the ℓ1 one.
	target := 0.5 * tol / math.Sqrt(float64(n))
	iter := 0
	for {
		normaliseSum(x)
		r := ws.Basis(0)
		a.mulVec(r, x)
		floats.Scale(-1, r)
		if floats.Norm(r, 1) <= tol || iter >= maxIter {
			return iter, nil
		}
		ws.Start(floats.Norm(r, 2))
		k := 0 // number of completed Arnoldi steps in this cycle
		for k < ws.Restart() && iter < maxIter {
			hnext, rho, ok := ws.Step(k, op)
			if !ok {
				// The Krylov space is exhausted without a new direction:
				// solve with the columns found so far.
				break
			}
			k++
			iter++
			if ws.Residual(k) <= target || hnext <= 1e-14*rho {
				break
			}
		}
		if k == 0 {
			return iter, nil
		}
		clear(w)
		ws.Update(w, k)
		m.solve(z, w)
		floats.Add(x, z)
	}
}

// normaliseSum scales x to sum 1; a vector with no usable sum is replaced
// by the uniform distribution.
func normaliseSum(x []float64) {
	s := floats.Sum(x)
	if s == 0 || math.IsNaN(s) || math.IsInf(s, 0) {
		for i := range x {
			x[i] = 1 / float64(len(x))
		}
		return
	}
	floats.Scale(1/s, x)
}
