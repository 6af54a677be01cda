package expm

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// bigMatrix is a dense matrix of arbitrary-precision floats.
type bigMatrix [][]*big.Float

func newBigMatrix(n int, prec uint) bigMatrix {
	m := make(bigMatrix, n)
	for i := range m {
		m[i] = make([]*big.Float, n)
		for j := range m[i] {
			m[i][j] = new(big.Float).SetPrec(prec)
		}
	}
	return m
}

func (m bigMatrix) mul(a, b bigMatrix, prec uint) {
	n := len(m)
	tmp := new(big.Float).SetPrec(prec)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			s := new(big.Float).SetPrec(prec)
			for k := 0; k < n; k++ {
				tmp.Mul(a[i][k], b[k][j])
				s.Add(s, tmp)
			}
			m[i][j] = s
		}
	}
}

// bigExp returns exp(a) computed in prec-bit arithmetic by scaling and
// squaring with a truncated Taylor series:
//
//	B = 2^{−j}A with ‖B‖₁ ≤ 1/2,  T_K(B) = Σ_{k≤K} B^k/k!,  exp(A) ≈ T_K(B)^{2^j}.
//
// K is chosen so that the truncation error, bounded by
// ‖B‖^{K+1}/(K+1)!·Σ_{i≥0}(‖B‖/(K+2))^i ≤ 2‖B‖^{K+1}/(K+1)!, is below
// 2^{−(prec+10)}. Each squaring at most doubles the relative error and
// multiplies it by e^{2‖B_k‖}/‖e^{B_k}‖²-like factors bounded overall by
// e^{2‖A‖}; with prec = 200, ‖A‖₁ ≤ 40 and j ≤ 7 the final relative error
// is below 2^{−200+7+2·58+10} ≈ 2^{−67}, far below the 2⁻⁵³ resolution of
// the float64 comparison. Entries of a are converted exactly.
func bigExp(a *mat.Dense, prec uint) *mat.Dense {
	n, _ := a.Dims()
	norm := mat.Norm(a, 1)
	j := 0
	if norm > 0.5 {
		j = int(math.Ceil(math.Log2(norm / 0.5)))
	}
	b := newBigMatrix(n, prec)
	for r := 0; r < n; r++ {
		for c := 0; c < n; c++ {
			b[r][c].SetFloat64(math.Ldexp(a.At(r, c), -j)) // exact
		}
	}
	bNorm := math.Ldexp(norm, -j)
	sum := newBigMatrix(n, prec)
	term := newBigMatrix(n, prec)
	for i := 0; i < n; i++ {
		sum[i][i].SetInt64(1)
		term[i][i].SetInt64(1)
	}
	bound := 1.0 // ‖B‖^k/k!
	next := newBigMatrix(n, prec)
	for k := 1; ; k++ {
		next.mul(term, b, prec)
		kf := new(big.Float).SetPrec(prec).SetInt64(int64(k))
		for r := 0; r < n; r++ {
			for c := 0; c < n; c++ {
				next[r][c].Quo(next[r][c], kf)
				sum[r][c].Add(sum[r][c], next[r][c])
			}
		}
		term, next = next, term
		bound *= bNorm / float64(k+1)
		if 2*bound < math.Ldexp(1, -int(prec)-10) {
			break
		}
	}
	for s := 0; s < j; s++ {
		next.mul(sum, sum, prec)
		sum, next = next, sum
	}
	x := mat.NewDense(n, n, nil)
	for r := 0; r < n; r++ {
		for c := 0; c < n; c++ {
			f, _ := sum[r][c].Float64()
			x.Set(r, c, f)
		}
	}
	return x
}

// TestExpBigFloat compares Exp with the 200-bit Taylor reference on seeded
// random matrices with n ≤ 6: normal-distributed, strongly nonnormal
// (upper triangular plus small lower part), and Markov generators. The
// accepted error is the backward-stable level tolerance(a, 0) =
// 20·n·u·max(κ_exp(A), 1).
func TestExpBigFloat(t *testing.T) {
	rnd := rand.New(rand.NewPCG(5, 5))
	var worst float64
	for trial := 0; trial < 30; trial++ {
		n := 1 + trial%6
		var a *mat.Dense
		switch trial % 3 {
		case 0:
			a = randomNormal(rnd, n, []float64{0.01, 0.5, 3}[rnd.IntN(3)])
		case 1:
			a = randomNormal(rnd, n, 0.1)
			for i := 0; i < n; i++ {
				for j := i; j < n; j++ {
					a.Set(i, j, 5*rnd.NormFloat64())
				}
			}
		default:
			a = randomGenerator(rnd, n, 0.6, 1)
			a.Scale(math.Min(20/mat.Norm(a, 1), 1e300), a)
		}
		if mat.Norm(a, 1) > 40 {
			a.Scale(40/mat.Norm(a, 1), a)
		}
		ref := bigExp(a, 200)
		got := mustExp(t, a, nil)
		err := relErr(got, ref)
		tol := tolerance(a, 0)
		worst = math.Max(worst, err/tol)
		if !(err <= tol) {
			t.Errorf("trial %d n=%d ‖A‖₁=%.3g: relative error %.3g > %.3g (gonum %.3g)",
				trial, n, mat.Norm(a, 1), err, tol, relErr(gonumExp(a), ref))
		}
	}
	t.Logf("worst error/tolerance ratio %.3g", worst)
}

// TestBigExpSelfCheck validates the reference itself on closed forms:
// exp(diag(1, −2)) and the rotation by 3 radians.
func TestBigExpSelfCheck(t *testing.T) {
	d := bigExp(mat.NewDense(2, 2, []float64{1, 0, 0, -2}), 200)
	if d.At(0, 0) != math.E || math.Abs(d.At(1, 1)/math.Exp(-2)-1) > u || d.At(0, 1) != 0 {
		t.Errorf("bigExp(diag(1,-2)) = %v", mat.Formatted(d))
	}
	r := bigExp(mat.NewDense(2, 2, []float64{0, 3, -3, 0}), 200)
	want := mat.NewDense(2, 2, []float64{math.Cos(3), math.Sin(3), -math.Sin(3), math.Cos(3)})
	if e := relErr(r, want); e > 2*u {
		t.Errorf("bigExp(rotation) relative error %g", e)
	}
}
