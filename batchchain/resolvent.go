package batchchain

import (
	"math"
	"math/cmplx"
)

// resolvent returns (σI − A)⁻¹·f over the spare counts 0..m (len(f) =
// m + 1) for Re σ ≥ 0: Solve's censoring from the top with the complex
// diagonal σ + out_j. Row j of σI − A is (σ + out_j)·y_j − up_j·y_{j+1} −
// Σ_k dn_{j,k}·y_{j−k}; eliminating y_{j+1} from the top keeps the lower
// band (the only way up is j → j+1), and a substitution from the bottom
// gives y. The matrix is strictly diagonally dominant by rows
// (|σ + out_j| ≥ out_j = up_j + Σ_k dn_{j,k} + ρ_j, ρ_j > 0), and so is
// each Schur complement, so that the elimination without pivoting is
// stable (the entries grow by at most 2).
func (ph *Phase) resolvent(sigma complex128, f []float64) []complex128 {
	kmax, m := ph.kmax, len(ph.up)-1
	d := make([]complex128, m+1)
	l := make([]complex128, (m+1)*kmax)
	y := make([]complex128, m+1)
	for j := m; j >= 0; j-- {
		d[j] = sigma + complex(ph.outRate(j), 0)
		y[j] = complex(f[j], 0)
		row := l[j*kmax : (j+1)*kmax]
		for k := range row {
			row[k] = complex(ph.dn[j*kmax+k], 0)
		}
		if j < m {
			// y_{j+1} = (F_{j+1} + Σ_k L_{j+1,k}·y_{j+1−k})/D_{j+1}.
			u := complex(ph.up[j], 0) / d[j+1]
			y[j] += u * y[j+1]
			up := l[(j+1)*kmax : (j+2)*kmax]
			d[j] -= u * up[0]
			for k := 1; k < kmax; k++ { // j+1 → j+1−(k+1) is j → j−k
				row[k-1] += u * up[k]
			}
		}
	}
	substitute(l, d, kmax, y)
	return y
}

// restTerms is the number J of terms of Poisson summation that the
// closed form of the rest of a sum keeps (restClosed).
const restTerms = 4

// flatTerms returns the first n ≥ 1 from which c_n(x) equals its first
// restTerms terms of Poisson summation to rounding,
// (1/x)·(1 + 2 Re Σ_{j≤J} β_jⁿ⁺¹), β_j = 1/(1 + 2πij/x): the rest,
// (2/x)·Σ_{j>J} |β_j|ⁿ⁺¹, is at most (2/x)·(1 + (2π(J+1)/x)²)^{−(n−1)/2}·
// x²/(4π²J) (|β_j|² ≤ x²/(2πj)², Σ_{j>J} 1/j² ≤ 1/J), below 2⁻⁵³/x.
// It is never above Weights' flat (J = 0), about (J + 1)² times below it
// for large x.
func flatTerms(x float64) int {
	l := math.Log(2*x*x/(4*math.Pi*math.Pi*restTerms)) + 53*math.Ln2
	if l <= 0 {
		return 1
	}
	w := 2 * math.Pi * (restTerms + 1) / x
	f := math.Ceil(2 * l / math.Log1p(w*w))
	if !(f < 1<<40) {
		return 1 << 40
	}
	return 1 + int(f)
}

// restClosed returns Σ_{k≥n} c_k(x)·Kᵏ⁻ⁿ·z on the whole range for
// n ≥ flatTerms(x), x = Λt, z = z_n: with c_k = (1/x)·Σ_{|j|≤J} β_jᵏ⁺¹
// (β_0 = 1, β_{−j} the conjugate of β_j) and
// Σ_{k≥n} β^{k+1}Kᵏ⁻ⁿ = β·(I − βK)⁻¹ = Λ·(σI − A)⁻¹, σ = Λ(1/β − 1)
// = 2πij/t,
//
//	rest = (1/t)·((−A)⁻¹·z + 2 Re Σ_{j=1..J} β_jⁿ·(2πij/t·I − A)⁻¹·z),
//
// the first term Solve, the others resolvent.
func restClosed(ph *Phase, z []float64, n int, x, t float64) []float64 {
	rest := ph.Solve(z)
	for j := 1; j <= restTerms; j++ {
		beta := 1 / complex(1, 2*math.Pi*float64(j)/x)
		bn := cmplx.Pow(beta, complex(float64(n), 0))
		for i, v := range ph.resolvent(complex(0, 2*math.Pi*float64(j)/t), z) {
			rest[i] += 2 * real(bn*v)
		}
	}
	for i := range rest {
		rest[i] /= t
	}
	return rest
}
