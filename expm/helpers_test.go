package expm

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// u is the unit roundoff 2⁻⁵³, the unit of every tolerance below.
const u = 0x1p-53

// relErr returns the normwise relative error ‖got − want‖₁/‖want‖₁.
func relErr(got, want mat.Matrix) float64 {
	var d mat.Dense
	d.Sub(got, want)
	return mat.Norm(&d, 1) / mat.Norm(want, 1)
}

// gonumExp returns gonum's exp(a) (Higham 2005), kept as a comparison.
func gonumExp(a mat.Matrix) *mat.Dense {
	var x mat.Dense
	x.Exp(a)
	return &x
}

// mustExp returns exp(a) with settings s, failing the test on error.
func mustExp(t *testing.T, a mat.Matrix, s *Settings) *mat.Dense {
	t.Helper()
	var x mat.Dense
	if err := Exp(&x, a, s); err != nil {
		t.Fatalf("Exp: %v", err)
	}
	return &x
}

// randomGenerator returns an n×n Markov generator whose off-diagonal
// entries are, with probability density, uniform on [0, 1) times
// 10^(uniform in [−spread, spread]); diagonal = −row sum. Each row gets at
// least one positive rate so that the chain has no absorbing state.
func randomGenerator(rnd *rand.Rand, n int, density, spread float64) *mat.Dense {
	g := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		var sum float64
		for j := 0; j < n; j++ {
			if j == i || (rnd.Float64() >= density && j != (i+1)%n) {
				continue
			}
			v := rnd.Float64() * math.Pow(10, spread*(2*rnd.Float64()-1))
			g.Set(i, j, v)
			sum += v
		}
		g.Set(i, i, -sum)
	}
	return g
}

// randomNormal returns an n×n matrix with standard normal entries times scale.
func randomNormal(rnd *rand.Rand, n int, scale float64) *mat.Dense {
	a := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			a.Set(i, j, scale*rnd.NormFloat64())
		}
	}
	return a
}

// unimodular returns an integer matrix V = L·U with unit triangular integer
// factors (entries in [−2, 2]) and its exact integer inverse, so that
// V·D·V⁻¹ is exactly representable for small integer D.
func unimodular(rnd *rand.Rand, n int) (v, vinv *mat.Dense) {
	l := mat.NewDense(n, n, nil)
	up := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		l.Set(i, i, 1)
		up.Set(i, i, 1)
		for j := 0; j < i; j++ {
			l.Set(i, j, float64(rnd.IntN(5)-2))
			up.Set(j, i, float64(rnd.IntN(3)-1))
		}
	}
	v = mat.NewDense(n, n, nil)
	v.Mul(l, up)
	vinv = mat.NewDense(n, n, nil)
	if err := vinv.Inverse(v); err != nil {
		panic(err)
	}
	// The inverse is an integer matrix (det V = 1); remove the rounding.
	vinv.Apply(func(_, _ int, x float64) float64 { return math.Round(x) }, vinv)
	return v, vinv
}

// similar returns V·D·V⁻¹.
func similar(v, d, vinv mat.Matrix) *mat.Dense {
	var x mat.Dense
	x.Product(v, d, vinv)
	return &x
}

// mustPanic fails the test unless f panics.
func mustPanic(t *testing.T, name string, f func()) {
	t.Helper()
	defer func() {
		if recover() == nil {
			t.Errorf("%s: no panic", name)
		}
	}()
	f()
}

// condExp returns the relative condition number of the matrix exponential
// in the Frobenius norm (Higham 2008, chapters 3 and 10):
//
//	κ_exp(A) = ‖L(A)‖_F·‖A‖_F/‖exp(A)‖_F,
//
// where L(A) is the Fréchet derivative, formed column by column in
// Kronecker form from exp([[A, E_ij], [0, A]]) = [[e^A, L(A, E_ij)], [0, e^A]]
// (Van Loan 1978 / Mathias 1996). gonum's mat.Dense.Exp is used, so the
// tolerance scale does not depend on the code under test; only its order of
// magnitude matters. The operator 2-norm of the n²×n² Kronecker matrix is
// the Frobenius-induced norm ‖L(A)‖_F (largest singular value).
func condExp(a *mat.Dense) float64 {
	n, _ := a.Dims()
	k := mat.NewDense(n*n, n*n, nil)
	blk := mat.NewDense(2*n, 2*n, nil)
	blk.Slice(0, n, 0, n).(*mat.Dense).Copy(a)
	blk.Slice(n, 2*n, n, 2*n).(*mat.Dense).Copy(a)
	var e mat.Dense
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			blk.Set(i, n+j, 1)
			e.Exp(blk)
			blk.Set(i, n+j, 0)
			col := i*n + j
			for p := 0; p < n; p++ {
				for q := 0; q < n; q++ {
					k.Set(p*n+q, col, e.At(p, n+q))
				}
			}
		}
	}
	var svd mat.SVD
	if !svd.Factorize(k, mat.SVDNone) {
		panic("condExp: SVD failed")
	}
	// mat.Norm(·, 2) of a matrix is the Frobenius norm.
	return svd.Values(nil)[0] * mat.Norm(a, 2) / mat.Norm(gonumExp(a), 2)
}
