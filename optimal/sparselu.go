package optimal

import (
	"math"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/lapack/lapack64"
	"gonum.org/v1/gonum/mat"
)

// The sparse factorisation of the reduced system of the evaluation with
// reconfiguration (doc.go, "Reconfiguration at checkpoints").
//
// The reduced system over the up states U(a, s) and g is stored dense
// but is sparse: the row of U(a, s) has entries on the up states of its
// own configuration (the up segment) and on those of the configurations
// its checkpoint count's recoveries lead into (H_p = L_p⁻¹D_p), and g's
// column is dense. A configuration no recovery leads into has its
// columns in its own rows only: eliminated first, its block fills
// nothing outside its rows. Dense LU with partial pivoting in the natural
// order (lapack Dgetrf) fills its factors to 7–48 % where A is 7–27 %;
// a Markowitz order (Markowitz 1957; Duff, Erisman & Reid, Direct
// Methods for Sparse Matrices, 2nd ed. 2017, §9.2 and §10.2) chosen from
// the pattern as the elimination goes keeps the fill down until the
// active submatrix is dense, which Dgetrf then factorises (the switch
// to dense of MA48, Duff & Reid 1996, ACM TOMS 22(2)).

// Settings of factorSparse.
const (
	// sparseThreshold is u of threshold pivoting: a pivot is at least u
	// times the largest active entry of its column, so each step's
	// multipliers are at most 1/u, and the growth is checked afterwards
	// (Duff, Erisman & Reid §9.3; u = 0.1, a common choice).
	sparseThreshold = 0.1
	// sparseDense is the density of the active submatrix above which its
	// elimination goes on densely (Dgetrf). Chosen among 0.1, 0.2, 0.3,
	// 0.5, 0.7 and 0.9 on the reduced systems of QR at N = 64 (order
	// 2003): at 0.3 a factorisation took 0.05–0.21 s of CPU, its dense
	// tail of order 476–1762; at 0.9 0.05–0.09 s, order 141–586.
	sparseDense = 0.9
	// sparseBackward bounds the normwise backward error
	// ‖b − A·x‖∞ / (‖A‖∞‖x‖∞ + ‖b‖∞) of the check solve (b = A·z, z a
	// fixed vector of full mantissas: backwardError) per order (Higham,
	// Accuracy and Stability of Numerical Algorithms, 2nd ed., Theorem
	// 7.1 (Rigal–Gaches); by §9.3 it is at most about
	// γ₃ₙ‖|L||U|‖∞/‖A‖∞, which the growth of the elimination bounds). On
	// the reduced systems of QR at N = 64 it was 0.9e-15–3.6e-15 with
	// b = A·1, and 1.5e-15 with b = A·z on the last of level 2's; the
	// bound, 2e-12 there, rejects a factorisation about 10³ times less
	// accurate, and factorSparse then factorises densely with partial
	// pivoting (factorLU).
	sparseBackward = 1e-15
)

// factorSparse returns the LU factors of the n × n matrix a with rows and
// columns permuted, P·A·Q = L·U, in the storage of old: the pivot of each
// step is chosen, among the active columns of fewest nonzero entries, as
// the entry of fewest row entries (a Markowitz count, Duff, Erisman &
// Reid §10.2) at least sparseThreshold times the largest of its column;
// once the active submatrix is sparseDense full it is factorised by
// lapack Dgetrf with partial pivoting. The factors are stored in pivot
// order, as factorLU's (perm gives P, q gives Q), with their runs and
// the condition estimate of factorLU (κ∞ does not depend on the
// permutations). The factorisation is checked by the backward error of a
// solve (sparseBackward); when that fails, or when a is structurally
// singular, it returns factorLU(old, a), the dense factorisation with
// partial pivoting.
func factorSparse(old luVec, a *mat.Dense) luVec {
	n, _ := a.Dims()
	if n < 2 {
		return factorLU(old, a)
	}
	f := old.f
	if cap(f) < n*n {
		f = make([]float64, n*n)
	}
	f = f[:n*n]
	mk := newMarkowitz(a, f)
	anorm := mk.anorm // before the elimination overwrites f
	if !mk.factorise() {
		return factorLU(luVec{f: f, l: old.l, u: old.u}, a)
	}
	permuteSquare(f, n, mk.p, mk.q)
	out := luVec{n: n, f: f, perm: make([]int, n), q: mk.q, y: make([]float64, n), l: old.l, u: old.u}
	for t, r := range mk.p {
		out.perm[r] = t
	}
	out.indexRuns()
	if eta := mk.backwardError(a, &out); !(eta <= sparseBackward*float64(n)) {
		return factorLU(out, a)
	}
	out.cond = math.Inf(1)
	if rc := out.rcond(anorm, make([]float64, 2*n)); rc > 0 {
		out.cond = 1 / rc
	}
	return out
}

// markowitz is the state of factorSparse's elimination on the dense
// row-major f: the pattern of the active entries as each row's columns
// (A's own first, nnzA[i] of them, then the fill) and each column's
// rows (an entry that cancels to zero stays in them), a bitset of that
// pattern, the active counts, the active columns in lists by count
// (head, next, prev: the pivot's column in O(1)), and the pivot rows p
// and columns q so far.
type markowitz struct {
	n                int
	f                []float64
	pat              []uint64
	rowCols, colRows [][]int32
	nnzA             []int
	rowCnt, colCnt   []int
	rowDone, colDone []bool
	head, next, prev []int // −1 ends a list
	low              int   // no list below it is non-empty
	nnz              int   // active entries of the pattern
	anorm            float64
	p, q             []int
}

// newMarkowitz copies a into f (n × n, row-major) and returns the
// elimination state of it, with ‖A‖∞ (anorm): one pass over a.
func newMarkowitz(a *mat.Dense, f []float64) *markowitz {
	n, _ := a.Dims()
	mk := &markowitz{n: n, f: f, pat: make([]uint64, (n*n+63)/64),
		rowCols: make([][]int32, n), colRows: make([][]int32, n), nnzA: make([]int, n),
		rowCnt: make([]int, n), colCnt: make([]int, n),
		rowDone: make([]bool, n), colDone: make([]bool, n),
		head: make([]int, n+1), next: make([]int, n), prev: make([]int, n),
		p: make([]int, 0, n), q: make([]int, 0, n)}
	var cols []int32
	for i := range n {
		row := f[i*n : (i+1)*n]
		copy(row, a.RawRowView(i))
		cols = cols[:0]
		sum := 0.0
		for j, v := range row {
			if v != 0 {
				cols = append(cols, int32(j))
				b := i*n + j
				mk.pat[b>>6] |= 1 << (b & 63)
				mk.colCnt[j]++
				sum += math.Abs(v)
			}
		}
		mk.anorm = max(mk.anorm, sum)
		if math.IsNaN(sum) {
			mk.anorm = sum
		}
		mk.rowCols[i] = append(make([]int32, 0, len(cols)+len(cols)/4+4), cols...)
		mk.nnzA[i], mk.rowCnt[i] = len(cols), len(cols)
		mk.nnz += len(cols)
	}
	for j := range n {
		mk.colRows[j] = make([]int32, 0, mk.colCnt[j]+mk.colCnt[j]/4+4)
	}
	for i, cols := range mk.rowCols {
		for _, j := range cols {
			mk.colRows[j] = append(mk.colRows[j], int32(i))
		}
	}
	for c := range mk.head {
		mk.head[c] = -1
	}
	for j := n - 1; j >= 0; j-- { // each list in increasing column order
		mk.link(j)
	}
	return mk
}

// link puts active column j at the head of the list of its count.
func (mk *markowitz) link(j int) {
	c := mk.colCnt[j]
	mk.prev[j], mk.next[j] = -1, mk.head[c]
	if h := mk.head[c]; h >= 0 {
		mk.prev[h] = j
	}
	mk.head[c] = j
	mk.low = min(mk.low, c)
}

// unlink takes column j out of the list of its count.
func (mk *markowitz) unlink(j int) {
	if p := mk.prev[j]; p >= 0 {
		mk.next[p] = mk.next[j]
	} else {
		mk.head[mk.colCnt[j]] = mk.next[j]
	}
	if nx := mk.next[j]; nx >= 0 {
		mk.prev[nx] = mk.prev[j]
	}
}

// recount sets the count of active column j to c, moving it between
// lists.
func (mk *markowitz) recount(j, c int) {
	mk.unlink(j)
	mk.colCnt[j] = c
	mk.link(j)
}

// set adds entry (i, j), fill in active row i and column j, to the
// pattern.
func (mk *markowitz) set(i, j int) {
	b := i*mk.n + j
	mk.pat[b>>6] |= 1 << (b & 63)
	mk.rowCols[i] = append(mk.rowCols[i], int32(j))
	mk.colRows[j] = append(mk.colRows[j], int32(i))
	mk.rowCnt[i]++
	mk.recount(j, mk.colCnt[j]+1)
	mk.nnz++
}

// factorise eliminates sparsely until the active submatrix is dense, then
// densely; false when a column has no nonzero active entry.
func (mk *markowitz) factorise() bool {
	for m := mk.n; m > 0; m-- {
		if float64(mk.nnz) > sparseDense*float64(m)*float64(m) {
			return mk.denseTail()
		}
		r, c := mk.pivot()
		if r < 0 {
			return false
		}
		mk.eliminate(r, c)
	}
	return true
}

// pivot returns the pivot of the next step: an active column of fewest
// active entries (the head of its list), and in it the active row of fewest
// entries among those within sparseThreshold of the column's largest
// (the larger entry, then the first row, on ties); −1 when that column
// has no nonzero entry.
func (mk *markowitz) pivot() (int, int) {
	for mk.head[mk.low] < 0 {
		mk.low++
	}
	c := mk.head[mk.low]
	n, f := mk.n, mk.f
	big := 0.0
	for _, i := range mk.colRows[c] {
		if !mk.rowDone[i] {
			big = max(big, math.Abs(f[int(i)*n+c]))
		}
	}
	if !(big > 0) || math.IsInf(big, 0) {
		return -1, c
	}
	r := -1
	for _, i32 := range mk.colRows[c] {
		i := int(i32)
		v := math.Abs(f[i*n+c])
		if mk.rowDone[i] || v < sparseThreshold*big {
			continue
		}
		if r < 0 || mk.rowCnt[i] < mk.rowCnt[r] ||
			mk.rowCnt[i] == mk.rowCnt[r] && (v > math.Abs(f[r*n+c]) || v == math.Abs(f[r*n+c]) && i < r) {
			r = i
		}
	}
	return r, c
}

// eliminate makes (r, c) the next pivot: each active row i of column c
// gets its multiplier l = f[i, c]/f[r, c] in place of f[i, c] and row r's
// active entries times l subtracted, the fill added to the pattern.
func (mk *markowitz) eliminate(r, c int) {
	n, f := mk.n, mk.f
	mk.unlink(c)
	mk.rowDone[r], mk.colDone[c] = true, true
	mk.p, mk.q = append(mk.p, r), append(mk.q, c)
	prow := make([]int32, 0, len(mk.rowCols[r]))
	for _, j := range mk.rowCols[r] {
		if !mk.colDone[j] {
			prow = append(prow, j)
			mk.recount(int(j), mk.colCnt[j]-1)
		}
	}
	mk.nnz -= len(prow) + mk.colCnt[c]
	rr := f[r*n : (r+1)*n]
	piv := rr[c]
	for _, i32 := range mk.colRows[c] {
		i := int(i32)
		if mk.rowDone[i] {
			continue
		}
		mk.rowCnt[i]--
		ri := f[i*n : (i+1)*n]
		l := ri[c] / piv
		ri[c] = l
		if l == 0 {
			continue
		}
		for _, j32 := range prow {
			j := int(j32)
			if b := i*n + j; mk.pat[b>>6]&(1<<(b&63)) == 0 {
				mk.set(i, j)
			}
			ri[j] -= l * rr[j]
		}
	}
	mk.colCnt[c] = 0
}

// denseTail factorises the active submatrix by lapack Dgetrf (partial
// pivoting) and appends its rows, in Dgetrf's order, and its columns to
// the pivot order; false when Dgetrf meets a zero pivot.
func (mk *markowitz) denseTail() bool {
	n, f := mk.n, mk.f
	var rows, cols []int
	for i := range n {
		if !mk.rowDone[i] {
			rows = append(rows, i)
		}
		if !mk.colDone[i] {
			cols = append(cols, i)
		}
	}
	m := len(rows)
	t := make([]float64, m*m)
	for a, i := range rows {
		for b, j := range cols {
			t[a*m+b] = f[i*n+j]
		}
	}
	swaps := make([]int, m)
	if !lapack64.Getrf(blas64.General{Rows: m, Cols: m, Stride: m, Data: t}, swaps) {
		return false
	}
	for a, s := range swaps {
		rows[a], rows[s] = rows[s], rows[a]
	}
	for a, i := range rows {
		for b, j := range cols {
			f[i*n+j] = t[a*m+b]
		}
	}
	mk.p, mk.q = append(mk.p, rows...), append(mk.q, cols...)
	return true
}

// permuteSquare permutes the n × n row-major f in place to
// f'[t][s] = f[p[t]][q[s]], in one pass: along each cycle of p, row
// p[t] is gathered by q into row t, whose own entries went to the row
// before it in the cycle (the first row's are kept aside).
func permuteSquare(f []float64, n int, p, q []int) {
	tmp, first := make([]float64, n), make([]float64, n)
	done := make([]bool, n)
	gather := func(dst, src []float64) {
		for s, j := range q {
			dst[s] = src[j]
		}
	}
	for t0 := range n {
		if done[t0] {
			continue
		}
		row := f[t0*n : (t0+1)*n]
		if p[t0] == t0 {
			gather(tmp, row)
			copy(row, tmp)
			done[t0] = true
			continue
		}
		copy(first, row)
		for t := t0; ; t = p[t] {
			done[t] = true
			dst := f[t*n : (t+1)*n]
			if p[t] == t0 {
				gather(dst, first)
				break
			}
			gather(dst, f[p[t]*n:(p[t]+1)*n])
		}
	}
}

// backwardError returns the normwise backward error
// ‖b − A·x‖∞ / (‖A‖∞‖x‖∞ + ‖b‖∞) of the solve of A·x = b on lu's factors
// for b = A·z, z_i = 1 + frac((i + 1)/φ) (φ the golden ratio: entries in
// [1, 2) with full mantissas), over A's pattern; NaN when it is not
// finite. Not b = A·1: on entries that are short binary fractions the
// solve of A·x = A·1 can round nothing whatever the growth
// (TestFactorSparse, "exact arithmetic").
func (mk *markowitz) backwardError(a *mat.Dense, lu *luVec) float64 {
	n := mk.n
	z, b := make([]float64, n), make([]float64, n)
	for j := range z {
		z[j] = 1 + math.Mod(float64(j+1)*0.6180339887498949, 1)
	}
	for i := range n {
		row := a.RawRowView(i)
		for _, j := range mk.rowCols[i][:mk.nnzA[i]] {
			b[i] += row[j] * z[j]
		}
	}
	x := make([]float64, n)
	lu.solveTo(x, b)
	rn := 0.0
	for i := range n {
		row, s := a.RawRowView(i), b[i]
		for _, j := range mk.rowCols[i][:mk.nnzA[i]] {
			s -= row[j] * x[j]
		}
		rn = max(rn, math.Abs(s))
	}
	eta := rn / (mk.anorm*floats.Norm(x, math.Inf(1)) + floats.Norm(b, math.Inf(1)))
	if math.IsInf(eta, 0) {
		return math.NaN()
	}
	return eta
}

// solveNonzeroColumns returns X = A⁻¹D from the factors of A, solving
// for D's nonzero columns only: the others of X are zero. Each column is
// solved by the same operations as in lu.SolveTo(X, false, D) (Dgetrs
// treats the columns alike), so X has the same values; only the zeros of
// a zero column may differ in sign (SolveTo's are −0 where a zero meets
// a negative pivot): solveByEntries only adds their multiples (entryRow,
// h_X), where the sign of a zero term changes at most the sign of a zero
// sum. solveByEntries' D_p (the recovery successes of group p) is
// nonzero only on the up states of the configurations the group's
// actions lead into: at QR N = 64, the copy and the solves of its zero
// columns in SolveTo took about 0.5 cpu-s of the four levels.
// X is written into dst, zeroed first, when dst has D's dimensions (the
// storage of the group it replaces: at QR N = 64 with reconfiguration a
// run of the four levels allocates 770 MB instead of 878), else into a
// new matrix.
func solveNonzeroColumns(lu *mat.LU, d, dst *mat.Dense) (*mat.Dense, error) {
	r, c := d.Dims()
	var x *mat.Dense
	if dst != nil {
		if dr, dc := dst.Dims(); dr == r && dc == c {
			x = dst
			x.Zero()
		}
	}
	if x == nil {
		x = mat.NewDense(r, c, nil)
	}
	nz := make([]bool, c)
	for i := range r {
		for j, v := range d.RawRowView(i) {
			if v != 0 {
				nz[j] = true
			}
		}
	}
	var runs []int // [start, end) of each run of nonzero columns
	m := 0
	for j, ok := range nz {
		switch {
		case !ok:
		case len(runs) > 0 && runs[len(runs)-1] == j:
			runs[len(runs)-1]++
		default:
			runs = append(runs, j, j+1)
		}
		if ok {
			m++
		}
	}
	if m == 0 {
		return x, nil
	}
	dc := mat.NewDense(r, m, nil)
	gatherRuns(dc, d, runs, false)
	var xc mat.Dense
	if err := lu.SolveTo(&xc, false, dc); err != nil {
		return nil, err
	}
	gatherRuns(&xc, x, runs, true)
	return x, nil
}

// gatherRuns copies the columns runs (pairs [start, end)) of wide into
// the consecutive columns of narrow, row by row, or back when scatter.
func gatherRuns(narrow, wide *mat.Dense, runs []int, scatter bool) {
	r, _ := narrow.Dims()
	for i := range r {
		nr, wr := narrow.RawRowView(i), wide.RawRowView(i)
		k := 0
		for p := 0; p < len(runs); p += 2 {
			lo, hi := runs[p], runs[p+1]
			if scatter {
				copy(wr[lo:hi], nr[k:k+hi-lo])
			} else {
				copy(nr[k:k+hi-lo], wr[lo:hi])
			}
			k += hi - lo
		}
	}
}
