package markov

import (
	"math"

	"gonum.org/v1/gonum/floats"
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
// (Saad & Schultz 1986; Saad 2003, §9.3.2), starting from x (overwritten).
// At every restart x is normalised to sum 1 and its true residual ‖A x‖₁
// is compared with tol. It returns the number of GMRES iterations.
func gmres(a *csrMat, m *ilu0, x []float64, tol float64, maxIter, restart int) int {
	n := len(x)
	ws := newGMRESWork(n, min(restart, n))
	// The inner loop targets the ℓ2 residual that guarantees the ℓ1 one.
	target := 0.5 * tol / math.Sqrt(float64(n))
	iter := 0
	for {
		normaliseSum(x)
		r := ws.basis(0)
		a.mulVec(r, x)
		floats.Scale(-1, r)
		if floats.Norm(r, 1) <= tol || iter >= maxIter {
			return iter
		}
		beta := floats.Norm(r, 2)
		floats.Scale(1/beta, r)
		clear(ws.g)
		ws.g[0] = beta
		k := 0 // number of completed Arnoldi steps in this cycle
		for k < ws.restart && iter < maxIter {
			j := k
			hnext, rho := ws.arnoldi(a, m, j)
			if rho == 0 {
				// The Krylov space is exhausted without a new direction:
				// solve with the columns found so far.
				break
			}
			k++
			iter++
			if math.Abs(ws.g[j+1]) <= target || hnext <= 1e-14*rho {
				break
			}
			floats.ScaleTo(ws.basis(j+1), 1/hnext, ws.w)
		}
		if k == 0 {
			return iter
		}
		ws.update(m, x, k)
	}
}

// gmresWork holds the work space of one GMRES(m) cycle: the Arnoldi
// basis (allocated as the cycles need it), the Hessenberg matrix
// h[i*restart+j], the Givens rotations and the right-hand side g.
type gmresWork struct {
	n, restart int
	v          [][]float64
	h          []float64
	cs, sn     []float64
	g, y       []float64
	z, w       []float64
}

func newGMRESWork(n, restart int) *gmresWork {
	return &gmresWork{
		n: n, restart: restart,
		v:  make([][]float64, 0, restart+1),
		h:  make([]float64, (restart+1)*restart),
		cs: make([]float64, restart), sn: make([]float64, restart),
		g: make([]float64, restart+1), y: make([]float64, restart),
		z: make([]float64, n), w: make([]float64, n),
	}
}

// basis returns the j-th vector of the Arnoldi basis.
func (ws *gmresWork) basis(j int) []float64 {
	for len(ws.v) <= j {
		ws.v = append(ws.v, make([]float64, ws.n))
	}
	return ws.v[j]
}

// arnoldi makes Arnoldi step j: w = A M⁻¹ v_j orthogonalised against
// the basis (modified Gram–Schmidt) into column j of H, the previous
// Givens rotations applied to that column and a new one that annihilates
// h[j+1][j], updating g. It returns ‖w‖₂ and the new diagonal entry
// (0 when the Krylov space is exhausted; then nothing else changes).
func (ws *gmresWork) arnoldi(a *csrMat, m *ilu0, j int) (hnext, rho float64) {
	h, restart := ws.h, ws.restart
	m.solve(ws.z, ws.basis(j))
	a.mulVec(ws.w, ws.z)
	for i := 0; i <= j; i++ {
		hij := floats.Dot(ws.w, ws.basis(i))
		h[i*restart+j] = hij
		floats.AddScaled(ws.w, -hij, ws.basis(i))
	}
	hnext = floats.Norm(ws.w, 2)
	h[(j+1)*restart+j] = hnext
	for i := 0; i < j; i++ {
		t := ws.cs[i]*h[i*restart+j] + ws.sn[i]*h[(i+1)*restart+j]
		h[(i+1)*restart+j] = -ws.sn[i]*h[i*restart+j] + ws.cs[i]*h[(i+1)*restart+j]
		h[i*restart+j] = t
	}
	hjj := h[j*restart+j]
	rho = math.Hypot(hjj, hnext)
	if rho == 0 {
		return hnext, 0
	}
	ws.cs[j], ws.sn[j] = hjj/rho, hnext/rho
	h[j*restart+j] = rho
	h[(j+1)*restart+j] = 0
	ws.g[j+1] = -ws.sn[j] * ws.g[j]
	ws.g[j] *= ws.cs[j]
	return hnext, rho
}

// update solves the triangular system H y = g of the cycle's k steps by
// back substitution and adds M⁻¹ V y to x.
func (ws *gmresWork) update(m *ilu0, x []float64, k int) {
	h, restart, y := ws.h, ws.restart, ws.y
	for i := k - 1; i >= 0; i-- {
		s := ws.g[i]
		for l := i + 1; l < k; l++ {
			s -= h[i*restart+l] * y[l]
		}
		y[i] = s / h[i*restart+i]
	}
	clear(ws.w)
	for i := 0; i < k; i++ {
		floats.AddScaled(ws.w, y[i], ws.basis(i))
	}
	m.solve(ws.z, ws.w)
	floats.Add(x, ws.z)
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
