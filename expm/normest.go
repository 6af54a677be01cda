package expm

import (
	"math"
	"math/rand/v2"
	"sort"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// operator is a linear map on ℝⁿ applied to n×t blocks of vectors.
type operator interface {
	// size returns n.
	size() int
	// apply sets y = Op·x, or y = Opᵀ·x if trans is true. x and y are
	// distinct n×t matrices.
	apply(y, x *mat.Dense, trans bool)
}

// denseProduct is the operator F₀·F₁·…·F_{k−1} of dense n×n factors.
type denseProduct struct {
	factors []*mat.Dense
}

func (p *denseProduct) size() int {
	n, _ := p.factors[0].Dims()
	return n
}

// apply multiplies column by column with BLAS gemv, which for the n×2
// blocks of the estimator is much cheaper than a general matrix product.
func (p *denseProduct) apply(y, x *mat.Dense, trans bool) {
	n, t := x.Dims()
	k := len(p.factors)
	col := make([]float64, n)
	tmp := make([]float64, n)
	tr := blas.NoTrans
	if trans {
		tr = blas.Trans
	}
	for j := 0; j < t; j++ {
		mat.Col(col, j, x)
		for i := 0; i < k; i++ {
			// Op·x applies the last factor first; Opᵀ·x applies F₀ᵀ first.
			f := p.factors[k-1-i]
			if trans {
				f = p.factors[i]
			}
			blas64.Gemv(tr, 1, f.RawMatrix(), blas64.Vector{N: n, Inc: 1, Data: col}, 0, blas64.Vector{N: n, Inc: 1, Data: tmp})
			col, tmp = tmp, col
		}
		y.SetCol(j, col)
	}
}

// exactNormMaxN is the order up to which normEst1 computes the norm
// exactly, by applying the operator to the n unit vectors: for n ≤ 8 that
// costs no more than the estimator's typical 4–5 iterations with t = 2
// columns, and the result is exact and deterministic.
const exactNormMaxN = 8

// exactPowerNormMaxN is the order up to which Exp computes ‖A^k‖₁ exactly
// by forming the powers. Forming A⁴ and A⁶ early and A⁸ = (A⁴)² and
// A⁴·A⁶ costs two matrix products beyond the six of the degree-13
// approximant. For small n that is comparable to the estimator's
// bookkeeping and gives exact, deterministic norms; for large n the O(n²)
// estimator saves about 25% of the flops.
const exactPowerNormMaxN = 64

// powers holds the even powers of A formed so far and computes or
// estimates ‖A^k‖₁ for k = 4, 6, 8, 10 (Al-Mohy & Higham 2009, Alg. 3.1).
type powers struct {
	a, a2, a4, a6, a8 *mat.Dense
	exact             bool
	rnd               *rand.Rand
}

func newPowers(a *mat.Dense, exact bool) *powers {
	n, _ := a.Dims()
	p := &powers{
		a:     a,
		a2:    &mat.Dense{},
		exact: exact || n <= exactPowerNormMaxN,
		// A fixed seed makes Exp deterministic.
		rnd: rand.New(rand.NewPCG(0x6578706d, 0x31)),
	}
	p.a2.Mul(a, a)
	return p
}

func (p *powers) get4() *mat.Dense {
	if p.a4 == nil {
		p.a4 = &mat.Dense{}
		p.a4.Mul(p.a2, p.a2)
	}
	return p.a4
}

func (p *powers) get6() *mat.Dense {
	if p.a6 == nil {
		p.a6 = &mat.Dense{}
		p.a6.Mul(p.a2, p.get4())
	}
	return p.a6
}

func (p *powers) get8() *mat.Dense {
	if p.a8 == nil {
		p.a8 = &mat.Dense{}
		p.a8.Mul(p.get4(), p.get4())
	}
	return p.a8
}

// norm returns ‖A^k‖₁ for k ∈ {4, 6, 8, 10}: exactly if the power is
// already formed or exact norms are requested, otherwise a lower-bound
// estimate by normEst1 applied to a product of formed powers.
func (p *powers) norm(k int) float64 {
	est := func(f ...*mat.Dense) float64 { return normEst1(&denseProduct{factors: f}, p.rnd) }
	switch k {
	case 4:
		if p.a4 != nil || p.exact {
			return mat.Norm(p.get4(), 1)
		}
		return est(p.a2, p.a2)
	case 6:
		if p.a6 != nil || p.exact {
			return mat.Norm(p.get6(), 1)
		}
		if p.a4 != nil {
			return est(p.a2, p.a4)
		}
		return est(p.a2, p.a2, p.a2)
	case 8:
		if p.a8 != nil || p.exact {
			return mat.Norm(p.get8(), 1)
		}
		return est(p.get4(), p.a4)
	case 10:
		if p.exact {
			var a10 mat.Dense
			a10.Mul(p.get4(), p.get6())
			return mat.Norm(&a10, 1)
		}
		return est(p.get4(), p.get6())
	}
	panic("expm: unsupported power")
}

// normEst1 estimates ‖Op‖₁ from below by the block 1-norm estimator of
// Higham & Tisseur (2000), Algorithm 2.4, with t = 2 columns and at most
// itmax = 5 iterations. The estimate is exact for n ≤ exactNormMaxN, where
// the operator is applied to the identity instead. Each iteration costs one
// application of Op and one of Opᵀ to an n×2 block.
func normEst1(op operator, rnd *rand.Rand) float64 {
	n := op.size()
	if n <= exactNormMaxN {
		return exactNorm1(op)
	}
	const (
		t     = 2
		itmax = 5
	)
	x := mat.NewDense(n, t, nil)
	y := mat.NewDense(n, t, nil)
	z := mat.NewDense(n, t, nil)
	sgn := mat.NewDense(n, t, nil)
	sgnOld := mat.NewDense(n, t, nil)
	startBlock(x, rnd)

	var (
		est, estOld float64
		indBest     = -1
		chosen      = make([]int, t) // unit vectors used as x in this iteration
		used        = make(map[int]bool)
		h           = make([]float64, n)
		ind         = make([]int, n)
	)
	for k := 1; ; k++ {
		op.apply(y, x, false)
		var jBest int
		est, jBest = maxColumnNorm(y)
		if k == 2 || (k > 2 && est > estOld) {
			indBest = chosen[jBest]
		}
		if k >= 2 && est <= estOld {
			est = estOld
			break
		}
		estOld = est
		if k > itmax {
			break
		}
		sgnOld.Copy(sgn)
		signsOf(sgn, y)
		if k >= 2 && allParallel(sgn, sgnOld) {
			break
		}
		resampleParallel(sgn, sgnOld, k == 1, rnd)
		op.apply(z, sgn, true)
		if !nextUnitVectors(z, h, ind, chosen, used, k >= 2, indBest) {
			break
		}
		x.Zero()
		for j, i := range chosen {
			x.Set(i, j, 1)
			used[i] = true
		}
	}
	return est
}

// startBlock sets x to the estimator's starting matrix: first column all
// ones, the others random ±1 not parallel to earlier columns; all scaled
// by 1/n.
func startBlock(x *mat.Dense, rnd *rand.Rand) {
	n, t := x.Dims()
	for i := 0; i < n; i++ {
		x.Set(i, 0, 1)
	}
	for j := 1; j < t; j++ {
		for tries := 0; ; tries++ {
			randomSigns(x, j, rnd)
			if !parallelToAny(x, j, x, j) || tries > 100 {
				break
			}
		}
	}
	x.Scale(1/float64(n), x)
}

// signsOf sets sgn to the signs of y (+1 for 0).
func signsOf(sgn, y *mat.Dense) {
	n, t := y.Dims()
	for i := 0; i < n; i++ {
		for j := 0; j < t; j++ {
			if y.At(i, j) >= 0 {
				sgn.Set(i, j, 1)
			} else {
				sgn.Set(i, j, -1)
			}
		}
	}
}

// resampleParallel replaces the columns of sgn parallel to an earlier
// column of sgn or (after the first iteration) to a column of sgnOld by
// random ±1 vectors.
func resampleParallel(sgn, sgnOld *mat.Dense, first bool, rnd *rand.Rand) {
	_, t := sgn.Dims()
	for j := 0; j < t; j++ {
		for tries := 0; tries < 100; tries++ {
			if !parallelToAny(sgn, j, sgn, j) && (first || !parallelToAny(sgn, j, sgnOld, t)) {
				break
			}
			randomSigns(sgn, j, rnd)
		}
	}
}

// nextUnitVectors computes h_i = max_j |z_ij| and chooses in chosen the
// unit vectors of the largest h not used before (steps 4–5 of the
// algorithm). It reports false when the iteration must stop: after the
// first iteration the best index already has the largest h, the t
// largest were all used, or fewer than t unused remain.
func nextUnitVectors(z *mat.Dense, h []float64, ind, chosen []int, used map[int]bool, later bool, indBest int) bool {
	t := len(chosen)
	hMax := 0.0
	for i := range h {
		h[i] = math.Max(math.Abs(z.At(i, 0)), math.Abs(z.At(i, 1)))
		hMax = math.Max(hMax, h[i])
		ind[i] = i
	}
	if later && indBest >= 0 && hMax == h[indBest] {
		return false
	}
	sort.SliceStable(ind, func(a, b int) bool { return h[ind[a]] > h[ind[b]] })
	allUsed := true
	for _, i := range ind[:t] {
		if !used[i] {
			allUsed = false
		}
	}
	if allUsed {
		return false
	}
	c := 0
	for _, i := range ind {
		if c == t {
			break
		}
		if !used[i] {
			chosen[c] = i
			c++
		}
	}
	return c == t
}

// exactNorm1 returns ‖Op‖₁ by applying Op to the identity.
func exactNorm1(op operator) float64 {
	n := op.size()
	id := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		id.Set(i, i, 1)
	}
	y := mat.NewDense(n, n, nil)
	op.apply(y, id, false)
	return mat.Norm(y, 1)
}

// maxColumnNorm returns the largest column 1-norm of y and its column.
func maxColumnNorm(y *mat.Dense) (float64, int) {
	n, t := y.Dims()
	best, jBest := -1.0, 0
	for j := 0; j < t; j++ {
		var s float64
		for i := 0; i < n; i++ {
			s += math.Abs(y.At(i, j))
		}
		if s > best {
			best, jBest = s, j
		}
	}
	return best, jBest
}

// randomSigns fills column j of x with random ±1.
func randomSigns(x *mat.Dense, j int, rnd *rand.Rand) {
	n, _ := x.Dims()
	for i := 0; i < n; i++ {
		if rnd.IntN(2) == 0 {
			x.Set(i, j, -1)
		} else {
			x.Set(i, j, 1)
		}
	}
}

// parallelToAny reports whether column j of a (a ±1 vector) is parallel to
// any of the first k columns of b.
func parallelToAny(a *mat.Dense, j int, b *mat.Dense, k int) bool {
	n, _ := a.Dims()
	for c := 0; c < k; c++ {
		var dot float64
		for i := 0; i < n; i++ {
			dot += a.At(i, j) * b.At(i, c)
		}
		if math.Abs(dot) == float64(n) {
			return true
		}
	}
	return false
}

// allParallel reports whether every column of s is parallel to some column
// of sOld.
func allParallel(s, sOld *mat.Dense) bool {
	_, t := s.Dims()
	for j := 0; j < t; j++ {
		if !parallelToAny(s, j, sOld, t) {
			return false
		}
	}
	return true
}
