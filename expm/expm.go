package expm

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/lapack"
	"gonum.org/v1/gonum/lapack/gonum"
	"gonum.org/v1/gonum/mat"
)

// Settings configures Exp, Integral, ExpMulVec and Uniformize.
// A nil *Settings means the zero value: balancing, trace shift and
// deflation on; ‖A^k‖₁ computed exactly for n ≤ 64 and estimated by the
// block 1-norm estimator above; Uniformize truncation tolerance 2⁻⁵³.
type Settings struct {
	// NoBalance disables balancing (LAPACK dgebal permutation and
	// power-of-two diagonal scaling) in Exp and Integral. Even when enabled,
	// the balanced matrix is used only if it has a smaller 1-norm.
	NoBalance bool

	// NoShift disables the trace shift A − μI, μ = trace(A)/n. Even when
	// enabled, the shift is applied only if it reduces the 1-norm.
	NoShift bool

	// NoDeflation disables the deflation of a common row sum (or column
	// sum): if every row of A has the same sum λ up to rounding (λ = 0 for
	// a Markov generator) and ‖A‖₁ > θ13, Exp computes exp(A) through a
	// similarity that makes A·1 = λ1 exact, so the rows of exp(A) sum to
	// e^λ to rounding however many squarings are needed (see the package
	// documentation). Integral does the same for A.
	NoDeflation bool

	// ExactNorms makes Exp compute the norms ‖A^k‖₁ (k = 4, 6, 8, 10) it
	// needs exactly, at the cost of two extra n×n products, instead of
	// estimating them with the Higham–Tisseur block 1-norm estimator; and
	// makes ExpMulVec compute ‖A^p‖₁ (p ≤ 9) exactly by applying A^p to
	// the n unit vectors (O(p·n·nnz), for testing only). For n ≤ 64 Exp
	// always uses exact norms.
	ExactNorms bool

	// Tol is the truncation tolerance of Uniformize (a bound on the
	// neglected Poisson probability mass). Zero means 2⁻⁵³. ExpMulVec always
	// targets the double-precision unit roundoff 2⁻⁵³ because its θ_m table
	// is computed for it.
	Tol float64
}

// unitRoundoff is u = 2⁻⁵³, the unit roundoff of IEEE double precision.
const unitRoundoff = 0x1p-53

// theta holds θ_m for m = 3, 5, 7, 9, 13: the largest ‖A‖ for which the
// (m, m) Padé approximant r_m(A) has relative backward error at most u = 2⁻⁵³.
// Values to 16 digits from Al-Mohy & Higham (2009) (the same θ_m as in
// Higham 2005, where θ13 was printed as 5.4); TestThetaDerivation
// recomputes them from the backward-error series in 512-bit arithmetic.
var theta = map[int]float64{
	3:  1.495585217958292e-2,
	5:  2.539398330063230e-1,
	7:  9.504178996162932e-1,
	9:  2.097847961257068e0,
	13: 5.371920351148152e0,
}

// padeCoef[m][j] is the coefficient b_j of x^j in the numerator p_m(x) of the
// (m, m) Padé approximant to e^x, normalised so that b_m = 1:
// b_j = (2m−j)!/(j!(m−j)!). The denominator is q_m(x) = p_m(−x).
// TestPadeCoefficients checks them against the factorial formula exactly.
var padeCoef = map[int][]float64{
	3: {120, 60, 12, 1},
	5: {30240, 15120, 3360, 420, 30, 1},
	7: {17297280, 8648640, 1995840, 277200, 25200, 1512, 56, 1},
	9: {17643225600, 8821612800, 2075673600, 302702400, 30270240, 2162160,
		110880, 3960, 90, 1},
	13: {64764752532480000, 32382376266240000, 7771770303897600,
		1187353796428800, 129060195264000, 10559470521600, 670442572800,
		33522128640, 1323241920, 40840800, 960960, 16380, 182, 1},
}

// backErrCoefRecip[m] is 1/|c_{2m+1}| = (2m)!(2m+1)!/(m!)², where c_{2m+1} is
// the leading coefficient of the backward error series
// h_{2m+1}(x) = log(e^{−x} r_m(x)) = Σ_{k≥2m+1} c_k x^k
// (Al-Mohy & Higham 2009, definition of ℓ).
var backErrCoefRecip = map[int]float64{
	3:  100800,
	5:  10059033600,
	7:  4487938430976000,
	9:  5914384781877411840000,
	13: 113250775606021113483283660800000000,
}

// Exp sets dst = exp(a), the matrix exponential of the square matrix a,
// using the scaling and squaring algorithm of Al-Mohy & Higham (2009) with
// balancing, trace shift and deflation of a common row sum (see Settings
// and the package documentation).
//
// If dst is empty it is resized to n×n; otherwise it must be n×n. Exp panics
// with mat.ErrSquare if a is not square and mat.ErrShape if dst has the wrong
// size. It returns an error, leaving dst unchanged, if a has a NaN or an
// infinite entry, or if the computation produces a NaN (intermediate
// overflow). Entries of exp(a) that overflow are returned as ±Inf.
func Exp(dst *mat.Dense, a mat.Matrix, s *Settings) error {
	n, c := a.Dims()
	if n != c {
		panic(mat.ErrSquare)
	}
	if !dst.IsEmpty() {
		if r, c := dst.Dims(); r != n || c != n {
			panic(mat.ErrShape)
		}
	}
	if err := checkFinite("a", a); err != nil {
		return err
	}
	if s == nil {
		s = &Settings{}
	}
	x := expDense(mat.DenseCopyOf(a), s)
	if r, c, ok := firstNaN(x); ok {
		return fmt.Errorf("expm: exp(a)[%d,%d] is NaN: an intermediate result overflowed", r, c)
	}
	if dst.IsEmpty() {
		dst.ReuseAs(n, n)
	}
	dst.Copy(x)
	return nil
}

// firstNaN returns the position of the first NaN entry of x.
func firstNaN(x *mat.Dense) (int, int, bool) {
	r, c := x.Dims()
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			if math.IsNaN(x.At(i, j)) {
				return i, j, true
			}
		}
	}
	return 0, 0, false
}

// Integral sets dst = ∫₀ᵀ e^{−c·t} e^{A·t} B dt, with T = t, for an n×n matrix
// a and an n×p matrix b, by the block method of Van Loan (1978):
//
//	exp([[A − cI, B], [0, 0]]·T) = [[e^{(A−cI)T}, ∫₀ᵀ e^{(A−cI)τ} B dτ], [0, I]].
//
// c may be zero; t may be any finite number (a negative t integrates
// backwards). If dst is empty it is resized to n×p; otherwise it must be n×p.
// Integral panics with mat.ErrSquare if a is not square and mat.ErrShape if
// the row counts of a and b differ or dst has the wrong size. It returns an
// error naming the argument if a, b, t or c is not finite.
func Integral(dst *mat.Dense, a, b mat.Matrix, t, c float64, s *Settings) error {
	n, nc := a.Dims()
	if n != nc {
		panic(mat.ErrSquare)
	}
	br, p := b.Dims()
	if br != n {
		panic(mat.ErrShape)
	}
	if !dst.IsEmpty() {
		if r, cc := dst.Dims(); r != n || cc != p {
			panic(mat.ErrShape)
		}
	}
	switch {
	case math.IsNaN(t) || math.IsInf(t, 0):
		return fmt.Errorf("expm: integration limit t = %v is not finite", t)
	case math.IsNaN(c) || math.IsInf(c, 0):
		return fmt.Errorf("expm: discount rate c = %v is not finite", c)
	}
	if err := checkFinite("a", a); err != nil {
		return err
	}
	if err := checkFinite("b", b); err != nil {
		return err
	}
	if s == nil {
		s = &Settings{}
	}
	ad, bd := mat.DenseCopyOf(a), mat.DenseCopyOf(b)
	m := vanLoanBlock(ad, bd, t, c)
	k := -1
	if !s.NoDeflation && mat.Norm(m, 1) > theta[13] {
		// If A·1 = λ1, deflate that eigenvector of A (see expDeflated):
		// with Â = T⁻¹AT and B̂ = T⁻¹B the block for (Â, B̂) has an
		// isolated column whose entry e^{(λ−c)t} stays exact through the
		// squarings, and the integral is T·(its top-right block).
		var lambda float64
		var ok bool
		if k, lambda, ok = rowSumPivot(ad); ok {
			m = vanLoanBlock(deflate(ad, k, lambda), deflateRows(bd, k), t, c)
		} else {
			k = -1
		}
	}
	var x *mat.Dense
	if k >= 0 {
		x = expPreprocessed(m, s)
	} else {
		x = expDense(m, s)
	}
	y := mat.DenseCopyOf(x.Slice(0, n, n, n+p))
	if k >= 0 {
		inflateRows(y, k)
	}
	if dst.IsEmpty() {
		dst.ReuseAs(n, p)
	}
	dst.Copy(y)
	return nil
}

// vanLoanBlock returns [[A − cI, B], [0, 0]]·t.
func vanLoanBlock(a, b *mat.Dense, t, c float64) *mat.Dense {
	n, _ := a.Dims()
	_, p := b.Dims()
	m := mat.NewDense(n+p, n+p, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			v := a.At(i, j)
			if i == j {
				v -= c
			}
			m.Set(i, j, v*t)
		}
		for j := 0; j < p; j++ {
			m.Set(i, n+j, b.At(i, j)*t)
		}
	}
	return m
}

// checkFinite returns an error naming the argument and the first entry that
// is NaN or infinite.
func checkFinite(name string, a mat.Matrix) error {
	r, c := a.Dims()
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			if v := a.At(i, j); math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("expm: %s[%d,%d] = %v is not finite", name, i, j, v)
			}
		}
	}
	return nil
}

// expDense returns exp(a), overwriting a. If the rows (or columns) of a
// have a common sum and squarings are expected, the corresponding
// eigenvector is deflated first (expDeflated).
func expDense(a *mat.Dense, s *Settings) *mat.Dense {
	if !s.NoDeflation && mat.Norm(a, 1) > theta[13] {
		if k, lambda, ok := rowSumPivot(a); ok {
			return expDeflated(a, k, lambda, s)
		}
		at := mat.DenseCopyOf(a.T())
		if k, lambda, ok := rowSumPivot(at); ok {
			return mat.DenseCopyOf(expDeflated(at, k, lambda, s).T())
		}
	}
	return expPreprocessed(a, s)
}

// expPreprocessed returns exp(a), overwriting a, applying the trace shift
// and balancing around expCore.
func expPreprocessed(a *mat.Dense, s *Settings) *mat.Dense {
	n, _ := a.Dims()
	norm := mat.Norm(a, 1)

	// Trace shift: exp(A) = e^μ exp(A − μI), used if it reduces ‖A‖₁.
	var mu float64
	if !s.NoShift {
		mu = mat.Trace(a) / float64(n)
		if mu != 0 {
			for i := 0; i < n; i++ {
				a.Set(i, i, a.At(i, i)-mu)
			}
			if shifted := mat.Norm(a, 1); shifted < norm {
				norm = shifted
			} else {
				for i := 0; i < n; i++ {
					a.Set(i, i, a.At(i, i)+mu)
				}
				mu = 0
			}
		}
	}

	// Balancing: A = T B T⁻¹ with T = P·D (permutation times power-of-two
	// diagonal), used if it reduces ‖A‖₁.
	var (
		balanced bool
		scale    []float64
		ilo, ihi int
		impl     gonum.Implementation
	)
	if !s.NoBalance && n > 1 {
		b := mat.DenseCopyOf(a)
		raw := b.RawMatrix()
		scale = make([]float64, n)
		ilo, ihi = impl.Dgebal(lapack.PermuteScale, n, raw.Data, raw.Stride, scale)
		if mat.Norm(b, 1) <= norm {
			a = b
			balanced = true
		}
	}

	x := expCore(a, mu, s.ExactNorms)

	if balanced {
		// exp(A) = T exp(B) T⁻¹. Dgebak(EVRight) forms T·X; applying
		// Dgebak(EVLeft) to (T·X)ᵀ forms T⁻ᵀ(T·X)ᵀ = (T·X·T⁻¹)ᵀ.
		raw := x.RawMatrix()
		impl.Dgebak(lapack.PermuteScale, lapack.EVRight, n, ilo, ihi, scale, n, raw.Data, raw.Stride)
		y := mat.DenseCopyOf(x.T())
		raw = y.RawMatrix()
		impl.Dgebak(lapack.PermuteScale, lapack.EVLeft, n, ilo, ihi, scale, n, raw.Data, raw.Stride)
		x.CloneFrom(y.T())
	}
	return x
}

// expCore returns e^μ·exp(a) by the algorithm of Al-Mohy & Higham (2009).
// a is overwritten. Entries known in closed form (structure) are restored
// after each squaring, using the unshifted eigenvalues a_ii + μ.
func expCore(a *mat.Dense, mu float64, exactNorms bool) *mat.Dense {
	n, _ := a.Dims()
	x := mat.NewDense(n, n, nil)
	if mat.Norm(a, 1) == 0 {
		// exp(0) = I.
		em := math.Exp(mu)
		for i := 0; i < n; i++ {
			x.Set(i, i, em)
		}
		return x
	}
	st := findStructure(a)
	pw := newPowers(a, exactNorms)

	d6 := math.Pow(pw.norm(6), 1.0/6)
	eta1 := math.Max(math.Pow(pw.norm(4), 0.25), d6)
	if eta1 <= theta[3] && ell(a, 3) == 0 {
		padeSolve(x, a, 3, []*mat.Dense{pw.a2})
		return finishSquaring(x, a, 0, mu, st)
	}
	a4 := pw.get4()
	d4 := math.Pow(mat.Norm(a4, 1), 0.25)
	eta2 := math.Max(d4, d6)
	if eta2 <= theta[5] && ell(a, 5) == 0 {
		padeSolve(x, a, 5, []*mat.Dense{pw.a2, a4})
		return finishSquaring(x, a, 0, mu, st)
	}
	a6 := pw.get6()
	d6 = math.Pow(mat.Norm(a6, 1), 1.0/6)
	d8 := math.Pow(pw.norm(8), 1.0/8)
	eta3 := math.Max(d6, d8)
	for _, m := range []int{7, 9} {
		if eta3 <= theta[m] && ell(a, m) == 0 {
			even := []*mat.Dense{pw.a2, a4, a6}
			if m == 9 {
				even = append(even, pw.get8())
			}
			padeSolve(x, a, m, even)
			return finishSquaring(x, a, 0, mu, st)
		}
	}
	eta4 := math.Max(d8, math.Pow(pw.norm(10), 0.1))
	eta5 := math.Min(eta3, eta4)
	sq := 0
	if eta5 > theta[13] {
		sq = int(math.Ceil(math.Log2(eta5 / theta[13])))
	}
	sq += ell2(a, 13, sq)
	a2 := pw.a2
	if sq > 0 {
		a.Scale(math.Ldexp(1, -sq), a)
		a2.Scale(math.Ldexp(1, -2*sq), a2)
		a4.Scale(math.Ldexp(1, -4*sq), a4)
		a6.Scale(math.Ldexp(1, -6*sq), a6)
	}
	padeSolve(x, a, 13, []*mat.Dense{a2, a4, a6})
	return finishSquaring(x, a, sq, mu, st)
}

// ell returns ℓ(A, m) = max(⌈log2(α/u)/(2m)⌉, 0) with
// α = |c_{2m+1}|·‖|A|^{2m+1}‖₁/‖A‖₁ (Al-Mohy & Higham 2009): the
// number of extra squarings needed so that the backward error bound is not
// dominated by the leading term of the series when A is nonnormal.
func ell(a *mat.Dense, m int) int {
	return ell2(a, m, 0)
}

// ell2 returns ℓ(2^{−s}A, m) without forming 2^{−s}A.
// ‖|A|^p‖₁ is computed exactly as max(1ᵀ|A|^p) by p vector–matrix products
// (|A|^p is nonnegative), accumulating log2 of the norms to avoid overflow.
func ell2(a *mat.Dense, m, s int) int {
	n, _ := a.Dims()
	p := 2*m + 1
	normA := mat.Norm(a, 1)
	if normA == 0 {
		return 0
	}
	abs := mat.NewDense(n, n, nil)
	abs.Apply(func(_, _ int, v float64) float64 { return math.Abs(v) }, a)
	x := make([]float64, n)
	y := make([]float64, n)
	for i := range x {
		x[i] = 1
	}
	var log2Norm float64
	for k := 0; k < p; k++ {
		// y = xᵀ|A|, then normalise to keep the entries in range.
		ydv := mat.NewVecDense(n, y)
		ydv.MulVec(abs.T(), mat.NewVecDense(n, x))
		var mx float64
		for _, v := range y {
			mx = math.Max(mx, v)
		}
		if mx == 0 {
			return 0
		}
		log2Norm += math.Log2(mx)
		for i := range y {
			x[i] = y[i] / mx
		}
	}
	// log2(α) for 2^{−s}A: the power scales by 2^{−s p}, the norm by 2^{−s}.
	log2Alpha := log2Norm - float64(s*p) - math.Log2(backErrCoefRecip[m]) - (math.Log2(normA) - float64(s))
	v := math.Ceil((log2Alpha - math.Log2(unitRoundoff)) / float64(2*m))
	if v <= 0 {
		return 0
	}
	return int(v)
}

// padeSolve sets x = r_m(a) = q_m(a)⁻¹ p_m(a), given the even powers
// pw = [A², A⁴, A⁶, (A⁸)] as needed for m.
func padeSolve(x, a *mat.Dense, m int, pw []*mat.Dense) {
	n, _ := a.Dims()
	b := padeCoef[m]
	u := mat.NewDense(n, n, nil)
	v := mat.NewDense(n, n, nil)
	if m < 13 {
		// U = A Σ_k b_{2k+1} A^{2k}, V = Σ_k b_{2k} A^{2k}.
		odd := mat.NewDense(n, n, nil)
		for i := 0; i < n; i++ {
			odd.Set(i, i, b[1])
			v.Set(i, i, b[0])
		}
		for k := 1; 2*k <= m; k++ {
			addScaled(odd, b[2*k+1], pw[k-1])
			addScaled(v, b[2*k], pw[k-1])
		}
		u.Mul(a, odd)
	} else {
		a2, a4, a6 := pw[0], pw[1], pw[2]
		// U = A[A6(b13 A6 + b11 A4 + b9 A2) + b7 A6 + b5 A4 + b3 A2 + b1 I]
		var w1, w2 mat.Dense
		w1.Scale(b[13], a6)
		addScaled(&w1, b[11], a4)
		addScaled(&w1, b[9], a2)
		w2.Mul(a6, &w1)
		addScaled(&w2, b[7], a6)
		addScaled(&w2, b[5], a4)
		addScaled(&w2, b[3], a2)
		for i := 0; i < n; i++ {
			w2.Set(i, i, w2.At(i, i)+b[1])
		}
		u.Mul(a, &w2)
		// V = A6(b12 A6 + b10 A4 + b8 A2) + b6 A6 + b4 A4 + b2 A2 + b0 I
		w1.Scale(b[12], a6)
		addScaled(&w1, b[10], a4)
		addScaled(&w1, b[8], a2)
		v.Mul(a6, &w1)
		addScaled(v, b[6], a6)
		addScaled(v, b[4], a4)
		addScaled(v, b[2], a2)
		for i := 0; i < n; i++ {
			v.Set(i, i, v.At(i, i)+b[0])
		}
	}
	// (V − U) X = V + U.
	var p, q mat.Dense
	p.Add(v, u)
	q.Sub(v, u)
	var lu mat.LU
	lu.Factorize(&q)
	// A Condition error only warns of ill-conditioning; q_m(A) is well
	// conditioned for ‖A‖ ≤ θ_m (Higham 2005), so the solution is used.
	// A genuinely singular q (only from overflow) yields Inf/NaN entries.
	if err := lu.SolveTo(x, false, &p); err != nil {
		if _, ok := err.(mat.Condition); !ok {
			panic(err)
		}
	}
}

// addScaled sets dst += c·m for n×n matrices, without a temporary.
func addScaled(dst *mat.Dense, c float64, m *mat.Dense) {
	n, _ := m.Dims()
	d, x := dst.RawMatrix(), m.RawMatrix()
	for i := 0; i < n; i++ {
		floats.AddScaled(d.Data[i*d.Stride:i*d.Stride+n], c, x.Data[i*x.Stride:i*x.Stride+n])
	}
}

// finishSquaring applies the trace-shift factor e^{μ/2^s} to the Padé
// approximant x ≈ exp(2^{−s}(A−μI)) and squares it s times, restoring the
// entries that st knows exactly before and after each squaring. a holds
// 2^{−s}(A − μI).
func finishSquaring(x, a *mat.Dense, s int, mu float64, st structure) *mat.Dense {
	if mu != 0 {
		x.Scale(math.Exp(math.Ldexp(mu, -s)), x)
	}
	st.fix(x, a, math.Ldexp(mu, -s), 1)
	n, _ := a.Dims()
	y := mat.NewDense(n, n, nil)
	for k := 1; k <= s; k++ {
		y.Mul(x, x)
		x, y = y, x
		// x ≈ exp(2^k·a + 2^{k−s}μI).
		st.fix(x, a, math.Ldexp(mu, k-s), math.Ldexp(1, k))
	}
	return x
}

// structure records entries of exp(h·a + shift·I) known in closed form.
type structure struct {
	// upper: a is upper triangular; the diagonal and superdiagonal are
	// known (triangularFix).
	upper bool
	// isoCols and isoRows list the j with a_ij = 0 for all i ≠ j (a·e_j =
	// a_jj·e_j), respectively a_ji = 0 for all i ≠ j. Then
	// exp(h·a + shift·I)·e_j = e^{h·a_jj + shift}·e_j, and likewise for
	// rows. This keeps, for example, the column of a deflated Markov
	// generator that carries the row sums exactly equal to e_j; otherwise
	// its rounding error would double at every squaring.
	isoCols, isoRows []int
}

// findStructure inspects the zero pattern of a.
func findStructure(a *mat.Dense) structure {
	n, _ := a.Dims()
	st := structure{upper: isUpperTriangular(a)}
	for j := 0; j < n; j++ {
		col, row := true, true
		for i := 0; i < n; i++ {
			if i == j {
				continue
			}
			if a.At(i, j) != 0 {
				col = false
			}
			if a.At(j, i) != 0 {
				row = false
			}
		}
		if col {
			st.isoCols = append(st.isoCols, j)
		}
		if row {
			st.isoRows = append(st.isoRows, j)
		}
	}
	return st
}

// fix overwrites the known entries of x ≈ exp(h·a + shift·I).
func (st structure) fix(x, a *mat.Dense, shift, h float64) {
	n, _ := a.Dims()
	if st.upper {
		triangularFix(x, a, shift, h)
	}
	for _, j := range st.isoCols {
		for i := 0; i < n; i++ {
			x.Set(i, j, 0)
		}
		x.Set(j, j, math.Exp(h*a.At(j, j)+shift))
	}
	for _, j := range st.isoRows {
		for i := 0; i < n; i++ {
			x.Set(j, i, 0)
		}
		x.Set(j, j, math.Exp(h*a.At(j, j)+shift))
	}
}

// triangularFix overwrites the diagonal and first superdiagonal of
// x ≈ exp(h·a + shift·I) by their exact values, for upper triangular a
// (Al-Mohy & Higham 2009; Higham 2008, ch. 10):
//
//	x_ii = e^{λ_i},  x_{i,i+1} = t_{i,i+1}·(e^{λ_{i+1}} − e^{λ_i})/(λ_{i+1} − λ_i),
//
// where λ_i = h·a_ii + shift and t_{i,i+1} = h·a_{i,i+1}. The divided
// difference is evaluated as e^{hi}·(1 − e^{lo−hi})/(hi − lo) with expm1,
// which has no cancellation when the λ are close (the reason Higham writes
// it as e^{(λ_i+λ_{i+1})/2}·sinh(δ)/δ) and, unlike that form, no overflow
// when they are far apart: for |δ| > 710, sinh(δ) overflows while
// e^{(λ_i+λ_{i+1})/2} may underflow, giving 0·∞ = NaN.
func triangularFix(x, a *mat.Dense, shift, h float64) {
	n, _ := a.Dims()
	for i := 0; i < n; i++ {
		l1 := h*a.At(i, i) + shift
		x.Set(i, i, math.Exp(l1))
		if i+1 < n {
			l2 := h*a.At(i+1, i+1) + shift
			t12 := h * a.At(i, i+1)
			x.Set(i, i+1, t12*expDividedDifference(l1, l2))
		}
	}
}

// expDividedDifference returns (e^b − e^a)/(b − a), or e^a when a = b.
func expDividedDifference(a, b float64) float64 {
	hi, lo := max(a, b), min(a, b)
	if hi == lo {
		return math.Exp(hi)
	}
	return math.Exp(hi) * -math.Expm1(lo-hi) / (hi - lo)
}

// isUpperTriangular reports whether a has only zeros below the diagonal.
func isUpperTriangular(a *mat.Dense) bool {
	n, _ := a.Dims()
	for i := 1; i < n; i++ {
		for j := 0; j < i; j++ {
			if a.At(i, j) != 0 {
				return false
			}
		}
	}
	return true
}
