package expm

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/james-bowman/sparse"
	"gonum.org/v1/gonum/mat"
)

// Result reports how ExpMulVec or Uniformize computed exp(tA)·v.
type Result struct {
	// Terms is the number of series terms per step: the Taylor degree m*
	// for ExpMulVec, the right Poisson truncation point R for Uniformize.
	Terms int
	// Steps is the number s of substeps e^{tA/s} for ExpMulVec; 1 for
	// Uniformize.
	Steps int
	// MatVecs is the number of matrix–vector products spent on the series
	// (the 1-norm estimation in ExpMulVec is not counted).
	MatVecs int
	// ErrorBound is, for ExpMulVec, the bound on the relative backward
	// error ‖ΔA‖₁/‖A‖₁ that the parameters m*, s guarantee in exact
	// arithmetic (the computed result is exp(t(A+ΔA))·v), namely 2⁻⁵³, or 0
	// when tA = 0. For Uniformize it is an absolute bound on the truncation
	// error in the ∞-norm: 2·(neglected Poisson mass)·‖v‖_∞ (rounding
	// errors are not included).
	ErrorBound float64
}

// Parameters of Al-Mohy & Higham (2011): the largest Taylor degree and
// the largest power p for which ‖A^p‖^{1/p} is estimated.
const (
	mMax = 55
	pMax = 8
)

// thetaTaylor lists (m, θ_m) for the truncated Taylor series T_m with
// tol = 2⁻⁵³: the largest ‖2^{−s}tA‖ for which the relative backward error of
// T_m is at most tol. Published values (Higham & Al-Mohy 2010, "Computing
// matrix functions", Acta Numerica, appendix table for m ≤ 30; Al-Mohy &
// Higham 2011 for m = 35, …, 55), three significant digits (two for
// m ≥ 35); TestThetaTaylor recomputes them from the backward-error series
// and documents the small differences.
var thetaTaylor = []struct {
	m     int
	theta float64
}{
	{1, 2.29e-16}, {2, 2.58e-8}, {3, 1.39e-5}, {4, 3.40e-4}, {5, 2.40e-3},
	{6, 9.07e-3}, {7, 2.38e-2}, {8, 5.00e-2}, {9, 8.96e-2}, {10, 1.44e-1},
	{11, 2.14e-1}, {12, 3.00e-1}, {13, 4.00e-1}, {14, 5.14e-1}, {15, 6.41e-1},
	{16, 7.81e-1}, {17, 9.31e-1}, {18, 1.09}, {19, 1.26}, {20, 1.44},
	{21, 1.62}, {22, 1.82}, {23, 2.01}, {24, 2.22}, {25, 2.43},
	{26, 2.64}, {27, 2.86}, {28, 3.08}, {29, 3.31}, {30, 3.54},
	{35, 4.7}, {40, 6.0}, {45, 7.2}, {50, 8.5}, {55, 9.9},
}

// ExpMulVec sets dst = exp(t·a)·v by the truncated Taylor method of
// Al-Mohy & Higham (2011) with trace shift: the degree m* and
// number of steps s minimise the number of products s·m* subject to a
// relative backward error of at most 2⁻⁵³, from estimates of ‖(tA)^p‖₁^{1/p},
// p ≤ 9; each step ends early once two successive terms are negligible.
// Only products a·x (and aᵀ·x for the norm estimates) are used.
//
// a may be any square mat.Matrix. A *sparse.CSR (github.com/james-bowman/sparse)
// is used in place; other types with a DoNonZero method (sparse.CSC, COO,
// DOK, …, and mat.Transpose of them) are converted to CSR once; anything
// else is copied to a dense matrix. dst may alias v. Settings.Tol is ignored.
//
// ExpMulVec panics with mat.ErrSquare if a is not square and mat.ErrShape if
// len(dst) differs from the order of a. It returns an error naming the
// argument if len(v) is wrong or if a, v or t has a NaN or infinite value.
func ExpMulVec(dst []float64, a mat.Matrix, t float64, v []float64, s *Settings) (Result, error) {
	op, err := newActionMatrix("a", a, dst, v, t)
	if err != nil {
		return Result{}, err
	}
	n := op.n
	if s == nil {
		s = &Settings{}
	}
	var mu float64
	if !s.NoShift {
		mu = op.trace() / float64(n)
		if op.norm1(mu) >= op.norm1(0) {
			mu = 0
		}
	}
	tNorm := math.Abs(t) * op.norm1(mu)

	b := make([]float64, n)
	copy(b, v)
	f := make([]float64, n)
	copy(f, v)
	if tNorm == 0 {
		scale := math.Exp(t * mu)
		for i := range dst {
			dst[i] = scale * f[i]
		}
		return Result{Steps: 1}, nil
	}
	mStar, steps := taylorParameters(op, t, mu, tNorm, s.ExactNorms)

	res := Result{Terms: mStar, Steps: steps, ErrorBound: unitRoundoff}
	eta := math.Exp(t * mu / float64(steps))
	tmp := make([]float64, n)
	for i := 0; i < steps; i++ {
		c1 := normInf(b)
		for j := 1; j <= mStar; j++ {
			// b = (t/(s·j))·(A − μI)·b.
			op.mulVec(tmp, b)
			res.MatVecs++
			coef := t / float64(steps*j)
			for k := range b {
				b[k] = coef * (tmp[k] - mu*b[k])
			}
			c2 := normInf(b)
			for k := range f {
				f[k] += b[k]
			}
			if c1+c2 <= unitRoundoff*normInf(f) {
				break
			}
			c1 = c2
		}
		for k := range f {
			f[k] *= eta
		}
		copy(b, f)
	}
	copy(dst, f)
	return res, nil
}

// taylorParameters selects (m*, s) as in Al-Mohy & Higham (2011) for the
// matrix t(A − μI) of 1-norm tNorm: minimise m·⌈α_p/θ_m⌉ over
// 2 ≤ p ≤ pMax, p(p−1) − 1 ≤ m ≤ mMax, with α_p = max(d_p, d_{p+1}),
// d_p = ‖(tA)^p‖₁^{1/p} estimated, unless ‖tA‖₁ is so small that
// α_p = ‖tA‖₁ is used directly.
func taylorParameters(op *actionMatrix, t, mu, tNorm float64, exact bool) (mStar, steps int) {
	const n0 = 1 // number of vectors
	last := thetaTaylor[len(thetaTaylor)-1]
	// Costs are compared in floating point: for tiny θ_m the step count
	// ⌈α/θ_m⌉ may exceed the int range.
	bestCost := math.Inf(1)
	try := func(alpha float64, minM int) {
		for _, e := range thetaTaylor {
			if e.m < minM {
				continue
			}
			sc := math.Max(math.Ceil(alpha/e.theta), 1)
			if cost := float64(e.m) * sc; cost < bestCost {
				bestCost, mStar, steps = cost, e.m, int(sc)
			}
		}
	}
	// If ‖tA‖₁ is small enough the norm estimates cannot
	// pay for themselves and ‖tA‖₁ is used in place of α_p.
	if tNorm <= 4*last.theta*pMax*(pMax+3)/(mMax*n0) {
		try(tNorm, 1)
		return mStar, steps
	}
	rnd := rand.New(rand.NewPCG(0x6578706d, 0x32))
	d := make([]float64, pMax+2)
	for p := 2; p <= pMax+1; p++ {
		var np float64
		pw := &shiftedPower{a: op, mu: mu, p: p}
		if exact {
			np = exactNorm1(pw)
		} else {
			np = normEst1(pw, rnd)
		}
		d[p] = math.Abs(t) * math.Pow(np, 1/float64(p))
	}
	for p := 2; p <= pMax; p++ {
		alpha := math.Max(d[p], d[p+1])
		try(alpha, p*(p-1)-1)
	}
	return mStar, steps
}

// Uniformize sets dst = exp(t·g)·v for a generator g of a continuous-time
// Markov chain (off-diagonal entries ≥ 0, row sums 0; row sums < 0 are also
// accepted, for sub-generators of chains with killing), t ≥ 0, by
// uniformization (Jensen 1953; Grassmann 1977):
//
//	exp(tG)·v = Σ_{k≥0} e^{−Λt}(Λt)^k/k! · K^k v,  K = I + G/Λ,  Λ = max_i |g_ii|.
//
// K is (sub)stochastic, so ‖K^k v‖_∞ ≤ ‖v‖_∞ and all terms have the sign
// pattern of v: a nonnegative v gives a nonnegative result. The Poisson
// weights are computed from the mode outwards and the sum is truncated to
// k ∈ [L, R] where geometric bounds on both Poisson tails are each below
// Settings.Tol/2 (default 2⁻⁵³); the kept weights are renormalised to sum
// to one, so exp(tG)·1 = 1 holds to rounding for a generator.
// Result.ErrorBound bounds the truncation error. The cost is R ≈ Λt +
// O(√(Λt)) products with g; the package documentation compares it with
// ExpMulVec.
//
// g is handled as in ExpMulVec. Uniformize panics with mat.ErrSquare if g is
// not square and mat.ErrShape if len(dst) is wrong; it returns an error
// naming the offending argument or entry if len(v) is wrong, t < 0, an entry
// is not finite, an off-diagonal entry of g is negative or a row sum of g is
// positive (beyond 1e-10 relative to the row's absolute sum).
func Uniformize(dst []float64, g mat.Matrix, t float64, v []float64, s *Settings) (Result, error) {
	op, err := newActionMatrix("g", g, dst, v, t)
	if err != nil {
		return Result{}, err
	}
	if t < 0 {
		return Result{}, fmt.Errorf("expm: uniformization needs t ≥ 0, got t = %v", t)
	}
	if err := op.checkGenerator(); err != nil {
		return Result{}, err
	}
	tol := unitRoundoff
	if s != nil && s.Tol != 0 {
		if !(s.Tol > 0 && s.Tol < 1) {
			return Result{}, fmt.Errorf("expm: Settings.Tol = %v is not in (0, 1)", s.Tol)
		}
		tol = s.Tol
	}
	n := op.n
	var rate float64
	for i := 0; i < n; i++ {
		rate = math.Max(rate, -op.diag[i])
	}
	lambda := rate * t
	if lambda == 0 {
		copy(dst, v)
		return Result{Steps: 1}, nil
	}
	w, left, right, tail := poissonWeights(lambda, tol/2)
	res := Result{Terms: right, Steps: 1, MatVecs: right, ErrorBound: 2 * tail * normInf(v)}

	x := make([]float64, n)
	copy(x, v)
	acc := make([]float64, n)
	tmp := make([]float64, n)
	for k := 0; ; k++ {
		if k >= left {
			wk := w[k-left]
			for i := range acc {
				acc[i] += wk * x[i]
			}
		}
		if k == right {
			break
		}
		// x = K·x = x + G·x/Λ.
		op.mulVec(tmp, x)
		for i := range x {
			x[i] += tmp[i] / rate
		}
	}
	copy(dst, acc)
	return res, nil
}

// poissonWeights returns the Poisson(λ) probabilities w[k−left] for
// k ∈ [left, right], renormalised to sum to 1, where the truncation points
// make each neglected tail, relative to the kept mass, at most tailTol. It
// also returns the bound on the neglected mass relative to the kept mass.
//
// Starting from u_mode = 1 at mode = ⌊λ⌋, u_{k−1} = u_k·k/λ and
// u_{k+1} = u_k·λ/(k+1). For k ≤ mode the ratios k/λ decrease as k
// decreases, so Σ_{j<L} u_j ≤ u_L·r/(1−r) with r = L/λ < 1; for k ≥ R > λ−1,
// Σ_{j>R} u_j ≤ u_R·r/(1−r) with r = λ/(R+1) < 1 (geometric series bounds).
func poissonWeights(lambda, tailTol float64) (w []float64, left, right int, tail float64) {
	mode := int(math.Floor(lambda))
	var down []float64 // u_{mode−1}, u_{mode−2}, …
	var leftTail float64
	left = mode
	u := 1.0
	for k := mode; k > 0; k-- {
		if r := float64(k) / lambda; r < 1 {
			if b := u * r / (1 - r); b <= tailTol {
				leftTail = b
				break
			}
		}
		u *= float64(k) / lambda
		down = append(down, u)
		left = k - 1
	}
	up := []float64{1} // u_mode, u_{mode+1}, …
	var rightTail float64
	u = 1
	for k := mode; ; k++ {
		if r := lambda / float64(k+1); r < 1 {
			if b := u * r / (1 - r); b <= tailTol {
				rightTail = b
				right = k
				break
			}
		}
		u *= lambda / float64(k+1)
		up = append(up, u)
	}
	w = make([]float64, 0, len(down)+len(up))
	for i := len(down) - 1; i >= 0; i-- {
		w = append(w, down[i])
	}
	w = append(w, up...)
	var sum float64
	for _, x := range w {
		sum += x
	}
	for i := range w {
		w[i] /= sum
	}
	return w, left, right, (leftTail + rightTail) / sum
}

// normInf returns max_i |x_i|.
func normInf(x []float64) float64 {
	var m float64
	for _, v := range x {
		m = math.Max(m, math.Abs(v))
	}
	return m
}

// actionMatrix is a square matrix prepared for repeated products: CSR
// arrays when the input is sparse, a dense copy otherwise.
type actionMatrix struct {
	n      int
	indptr []int
	ind    []int
	data   []float64
	dense  *mat.Dense
	diag   []float64
	// colAbsOff[j] = Σ_{i≠j} |a_ij| and rowAbsOff[i] = Σ_{j≠i} |a_ij|.
	colAbsOff, rowAbsOff []float64
}

// nonZeroDoer is implemented by the sparse matrix types of
// github.com/james-bowman/sparse.
type nonZeroDoer interface {
	DoNonZero(fn func(i, j int, v float64))
}

// newActionMatrix prepares a (called name in error messages) and validates
// the shared arguments of ExpMulVec and Uniformize.
func newActionMatrix(name string, a mat.Matrix, dst, v []float64, t float64) (*actionMatrix, error) {
	n, c := a.Dims()
	if n != c {
		panic(mat.ErrSquare)
	}
	if len(dst) != n {
		panic(mat.ErrShape)
	}
	if len(v) != n {
		return nil, fmt.Errorf("expm: len(v) = %d, want %d", len(v), n)
	}
	if math.IsNaN(t) || math.IsInf(t, 0) {
		return nil, fmt.Errorf("expm: t = %v is not finite", t)
	}
	for i, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, fmt.Errorf("expm: v[%d] = %v is not finite", i, x)
		}
	}
	op := &actionMatrix{n: n}
	switch m := a.(type) {
	case *sparse.CSR:
		raw := m.RawMatrix()
		op.indptr, op.ind, op.data = raw.Indptr, raw.Ind, raw.Data
	default:
		if d, transposed := sparseSource(a); d != nil {
			op.fromTriplets(d, transposed)
		} else {
			op.dense = mat.DenseCopyOf(a)
		}
	}
	if err := op.summarise(name); err != nil {
		return nil, err
	}
	return op, nil
}

// sparseSource returns the DoNonZero iterator behind a, possibly through a
// mat.Transpose, and whether it is transposed.
func sparseSource(a mat.Matrix) (nonZeroDoer, bool) {
	if d, ok := a.(nonZeroDoer); ok {
		return d, false
	}
	if u, ok := a.(mat.Untransposer); ok {
		if d, ok := u.Untranspose().(nonZeroDoer); ok {
			return d, true
		}
	}
	return nil, false
}

// fromTriplets builds CSR arrays from the nonzeros of d (counting sort by
// row; duplicates are kept and summed by the products).
func (op *actionMatrix) fromTriplets(d nonZeroDoer, transposed bool) {
	n := op.n
	count := make([]int, n+1)
	d.DoNonZero(func(i, j int, _ float64) {
		if transposed {
			i = j
		}
		count[i+1]++
	})
	for i := 0; i < n; i++ {
		count[i+1] += count[i]
	}
	op.indptr = append([]int(nil), count...)
	op.ind = make([]int, count[n])
	op.data = make([]float64, count[n])
	d.DoNonZero(func(i, j int, v float64) {
		if transposed {
			i, j = j, i
		}
		k := count[i]
		op.ind[k], op.data[k] = j, v
		count[i]++
	})
}

// each calls fn for every stored entry.
func (op *actionMatrix) each(fn func(i, j int, v float64)) {
	if op.dense != nil {
		raw := op.dense.RawMatrix()
		for i := 0; i < op.n; i++ {
			for j, v := range raw.Data[i*raw.Stride : i*raw.Stride+op.n] {
				fn(i, j, v)
			}
		}
		return
	}
	for i := 0; i < op.n; i++ {
		for k := op.indptr[i]; k < op.indptr[i+1]; k++ {
			fn(i, op.ind[k], op.data[k])
		}
	}
}

// summarise checks that all entries are finite and records the diagonal
// and the off-diagonal absolute row and column sums.
func (op *actionMatrix) summarise(name string) error {
	n := op.n
	op.diag = make([]float64, n)
	op.colAbsOff = make([]float64, n)
	op.rowAbsOff = make([]float64, n)
	var err error
	op.each(func(i, j int, v float64) {
		if err == nil && (math.IsNaN(v) || math.IsInf(v, 0)) {
			err = fmt.Errorf("expm: %s[%d,%d] = %v is not finite", name, i, j, v)
		}
		if i == j {
			op.diag[i] += v
		} else {
			op.colAbsOff[j] += math.Abs(v)
			op.rowAbsOff[i] += math.Abs(v)
		}
	})
	return err
}

// checkGenerator verifies the (sub)generator conditions for Uniformize.
func (op *actionMatrix) checkGenerator() error {
	var err error
	rowSum := make([]float64, op.n)
	op.each(func(i, j int, v float64) {
		if err == nil && i != j && v < 0 {
			err = fmt.Errorf("expm: generator entry g[%d,%d] = %v is negative", i, j, v)
		}
		rowSum[i] += v
	})
	if err != nil {
		return err
	}
	for i, r := range rowSum {
		if r > 1e-10*(op.rowAbsOff[i]+math.Abs(op.diag[i])) {
			return fmt.Errorf("expm: generator row %d sums to %v > 0", i, r)
		}
	}
	return nil
}

// trace returns the trace.
func (op *actionMatrix) trace() float64 {
	var s float64
	for _, d := range op.diag {
		s += d
	}
	return s
}

// norm1 returns ‖A − μI‖₁.
func (op *actionMatrix) norm1(mu float64) float64 {
	var m float64
	for j := 0; j < op.n; j++ {
		m = math.Max(m, op.colAbsOff[j]+math.Abs(op.diag[j]-mu))
	}
	return m
}

// mulVec sets y = A·x.
func (op *actionMatrix) mulVec(y, x []float64) {
	if op.dense != nil {
		mat.NewVecDense(op.n, y).MulVec(op.dense, mat.NewVecDense(op.n, x))
		return
	}
	for i := 0; i < op.n; i++ {
		var s float64
		for k := op.indptr[i]; k < op.indptr[i+1]; k++ {
			s += op.data[k] * x[op.ind[k]]
		}
		y[i] = s
	}
}

// mulVecTrans sets y = Aᵀ·x.
func (op *actionMatrix) mulVecTrans(y, x []float64) {
	if op.dense != nil {
		mat.NewVecDense(op.n, y).MulVec(op.dense.T(), mat.NewVecDense(op.n, x))
		return
	}
	for i := range y {
		y[i] = 0
	}
	for i := 0; i < op.n; i++ {
		xi := x[i]
		for k := op.indptr[i]; k < op.indptr[i+1]; k++ {
			y[op.ind[k]] += op.data[k] * xi
		}
	}
}

// shiftedPower is the operator (A − μI)^p for the norm estimator.
type shiftedPower struct {
	a  *actionMatrix
	mu float64
	p  int
}

func (s *shiftedPower) size() int { return s.a.n }

func (s *shiftedPower) apply(y, x *mat.Dense, trans bool) {
	n, t := x.Dims()
	col := make([]float64, n)
	tmp := make([]float64, n)
	for j := 0; j < t; j++ {
		mat.Col(col, j, x)
		for k := 0; k < s.p; k++ {
			if trans {
				s.a.mulVecTrans(tmp, col)
			} else {
				s.a.mulVec(tmp, col)
			}
			for i := range col {
				col[i] = tmp[i] - s.mu*col[i]
			}
		}
		y.SetCol(j, col)
	}
}
