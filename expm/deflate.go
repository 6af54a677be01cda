package expm

import (
	"math"

	"gonum.org/v1/gonum/mat"
)

// Deflation of a known eigenvector.
//
// If every row of A has the same sum λ, then A·1 = λ·1. With
// T = I + (1 − e_k)e_kᵀ (T·e_k = 1, T⁻¹ = I − (1 − e_k)e_kᵀ) the similar
// matrix B = T⁻¹·A·T has column k equal to λ·e_k:
//
//	B_kj = a_kj,  B_ij = a_ij − a_kj (i ≠ k, j ≠ k),  B_ik = λ·δ_ik.
//
// Column k of B is then isolated, so exp(hB)·e_k = e^{hλ}·e_k is known in
// closed form and is restored exactly after every squaring
// (structure.fix). Without this, the relative rounding error along the
// eigenvector 1 doubles at every squaring: a Markov generator (λ = 0)
// scaled to ‖Gt‖ = 1e9 needs about 28 squarings and its exponential's rows
// drift from 1 by about 2²⁸·u ≈ 3e-8.

// rowSumPivot reports whether all row sums of a agree up to rounding,
//
//	|Σ_j a_ij − λ| ≤ 2n·u·(Σ_j |a_ij| + Σ_j |a_kj|),
//
// returning the common sum λ and the pivot k, the row with the smallest
// absolute sum (its rounding error is the smallest and subtracting it
// perturbs the other rows least). If every row sum is zero up to
// 2n·u·Σ_j |a_ij| (a Markov generator whose diagonal was formed as minus
// the off-diagonal sum), λ is exactly 0. Taking the sums as exact is a
// backward perturbation of relative size O(n·u).
func rowSumPivot(a *mat.Dense) (k int, lambda float64, ok bool) {
	n, _ := a.Dims()
	if n < 2 {
		return 0, 0, false
	}
	sums := make([]float64, n)
	abs := make([]float64, n)
	zero := true
	tol := 2 * float64(n) * unitRoundoff
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			v := a.At(i, j)
			sums[i] += v
			abs[i] += math.Abs(v)
		}
		if abs[i] < abs[k] {
			k = i
		}
		if math.Abs(sums[i]) > tol*abs[i] {
			zero = false
		}
	}
	if zero {
		return k, 0, true
	}
	lambda = sums[k]
	for i := 0; i < n; i++ {
		if math.Abs(sums[i]-lambda) > tol*(abs[i]+abs[k]) {
			return 0, 0, false
		}
	}
	return k, lambda, true
}

// deflate returns T⁻¹·a·T with column k set to exactly λ·e_k.
func deflate(a *mat.Dense, k int, lambda float64) *mat.Dense {
	n, _ := a.Dims()
	b := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			switch {
			case j == k:
			case i == k:
				b.Set(i, j, a.At(k, j))
			default:
				b.Set(i, j, a.At(i, j)-a.At(k, j))
			}
		}
	}
	b.Set(k, k, lambda)
	return b
}

// deflateRows returns T⁻¹·b: row k unchanged, row k subtracted from the
// others.
func deflateRows(b *mat.Dense, k int) *mat.Dense {
	r, c := b.Dims()
	d := mat.NewDense(r, c, nil)
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			v := b.At(i, j)
			if i != k {
				v -= b.At(k, j)
			}
			d.Set(i, j, v)
		}
	}
	return d
}

// inflateRows overwrites y by T·y: row k is added to the other rows.
func inflateRows(y *mat.Dense, k int) {
	r, c := y.Dims()
	for i := 0; i < r; i++ {
		if i == k {
			continue
		}
		for j := 0; j < c; j++ {
			y.Set(i, j, y.At(i, j)+y.At(k, j))
		}
	}
}

// expDeflated returns exp(a) for a with common row sum λ at pivot k (see
// rowSumPivot). With X = exp(T⁻¹·a·T), whose column k is e^λ·e_k,
// exp(a) = T·X·T⁻¹ is
//
//	E_kj = X_kj,  E_ij = X_ij + X_kj (i ≠ k, j ≠ k),  E_ik = e^λ − Σ_{j≠k} E_ij,
//
// so every row of E sums to e^λ (1 for a generator) up to one rounding,
// however many squarings were needed. Column k is formed by subtraction and
// so has absolute, not relative, accuracy; this is why Exp deflates only
// when ‖A‖₁ > θ13 (for smaller norms there are no squarings to amplify
// errors).
func expDeflated(a *mat.Dense, k int, lambda float64, s *Settings) *mat.Dense {
	n, _ := a.Dims()
	x := expPreprocessed(deflate(a, k, lambda), s)
	e := mat.NewDense(n, n, nil)
	el := math.Exp(lambda)
	for i := 0; i < n; i++ {
		var sum float64
		for j := 0; j < n; j++ {
			if j == k {
				continue
			}
			v := x.At(i, j)
			if i != k {
				v += x.At(k, j)
			}
			e.Set(i, j, v)
			sum += v
		}
		e.Set(i, k, el-sum)
	}
	return e
}
