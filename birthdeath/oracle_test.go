package birthdeath

import (
	"math"

	"gonum.org/v1/gonum/mat"
)

// This file holds test oracles that share no code with the package.

// maxAbsDiff returns max |a_ij − b_ij|.
func maxAbsDiff(a, b mat.Matrix) float64 {
	r, c := a.Dims()
	var d float64
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			d = math.Max(d, math.Abs(a.At(i, j)-b.At(i, j)))
		}
	}
	return d
}

// poissonPMF returns the Poisson(x) pmf on 0..n, built by the ratio
// recurrence p_{k+1}/p_k = x/(k+1) from weight 1 at the mode and
// normalised by the sum (n must be far enough into the upper tail that the
// neglected mass is below the precision of interest).
func poissonPMF(x float64, n int) []float64 {
	p := make([]float64, n+1)
	mode := int(x)
	if mode > n {
		mode = n
	}
	p[mode] = 1
	for k := mode; k < n; k++ {
		p[k+1] = p[k] * x / float64(k+1)
	}
	for k := mode; k > 0; k-- {
		p[k-1] = p[k] * float64(k) / x
	}
	var s float64
	for _, v := range p {
		s += v
	}
	for k := range p {
		p[k] /= s
	}
	return p
}

// uniformize returns row s of P_t and of Q_t(ρ) for the birth–death chain
// (m, λ, θ) by uniformization (Jensen's method), an algorithm independent
// of the binomial product form and of the resolvent:
//
//	K = I + G/Λ, Λ = max_j (jλ + (m−j)θ),
//	P_t = Σ_n Pois(n; Λt) K^n,
//	Q_t = Σ_n w_n K^n, w_n = ∫₀ᵗ ρe^{−ρu} Pois(n; Λu) du
//	    = (ρ/β)(Λ/β)^n · P(Pois(βt) ≥ n+1), β = ρ + Λ,
//
// (the last line from ∫₀ᵗ u^n e^{−βu} du = n!/β^{n+1} · P(Gamma(n+1, β) ≤ t)).
// K is non-negative, so every step is subtraction-free; the series is cut
// where the Poisson(βt) tail is far below 1e-20.
func uniformize(m int, lambda, theta float64, s int, t, rho float64) (p, q []float64) {
	n := m + 1
	big := 0.0
	for j := 0; j <= m; j++ {
		big = math.Max(big, float64(j)*lambda+float64(m-j)*theta)
	}
	p, q = make([]float64, n), make([]float64, n)
	if big == 0 || t == 0 {
		p[s] = 1
		q[s] = -math.Expm1(-rho * t)
		return p, q
	}
	beta := rho + big
	x := beta * t
	nmax := int(x + 15*math.Sqrt(x) + 40)
	poisP := poissonPMF(big*t, nmax+1)
	poisB := poissonPMF(x, nmax+1)
	// upper[k] = P(Pois(βt) ≥ k+1), summed from the top (no cancellation).
	upper := make([]float64, nmax+2)
	for k := nmax; k >= 0; k-- {
		upper[k] = upper[k+1] + poisB[k+1]
	}
	logRatio := math.Log1p(-rho / beta) // log(Λ/β)
	v := make([]float64, n)
	w := make([]float64, n)
	v[s] = 1
	for k := 0; k <= nmax; k++ {
		wq := rho / beta * math.Exp(float64(k)*logRatio) * upper[k]
		for j, vj := range v {
			p[j] += poisP[k] * vj
			q[j] += wq * vj
		}
		// w = v K.
		for j := 0; j <= m; j++ {
			out := float64(j)*lambda + float64(m-j)*theta
			acc := v[j] * (1 - out/big)
			if j > 0 {
				acc += v[j-1] * float64(m-j+1) * theta / big
			}
			if j < m {
				acc += v[j+1] * float64(j+1) * lambda / big
			}
			w[j] = acc
		}
		v, w = w, v
	}
	return p, q
}

// twoStateQ returns Q_t(ρ) for m = 1 in closed form. With state 1 = the
// single spare functional, P_u = [[1−π(1−e^{−νu}), π(1−e^{−νu})],
// [(1−π)(1−e^{−νu}), π+(1−π)e^{−νu}]] and integrating ρe^{−ρu}P_u:
// ∫₀ᵗ ρe^{−ρu} du = 1 − e^{−ρt} =: A and ∫₀ᵗ ρe^{−ρu}e^{−νu} du =
// ρ(1 − e^{−(ρ+ν)t})/(ρ+ν) =: B.
func twoStateQ(lambda, theta, t, rho float64) *mat.Dense {
	nu := lambda + theta
	pi := theta / nu
	a := -math.Expm1(-rho * t)
	b := rho * -math.Expm1(-(rho+nu)*t) / (rho + nu)
	return mat.NewDense(2, 2, []float64{
		a - pi*(a-b), pi * (a - b),
		(1 - pi) * (a - b), pi*a + (1-pi)*b,
	})
}
