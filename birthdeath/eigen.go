package birthdeath

import (
	"errors"
	"math"

	"gonum.org/v1/gonum/mat"
)

// eigenBasis is the spectral decomposition S = V diag(μ) Vᵀ of the
// symmetrised generator S = D^{1/2} G_m D^{−1/2}, D = diag(π_j), where π is
// the stationary Binomial(m, θ/(λ+θ)) distribution, together with
// h_j = ½ log π_j, so that G_m = D^{−1/2} S D^{1/2} and
// f(G_m)[i,j] = e^{h_j−h_i} Σ_k V[i,k] f(μ_k) V[j,k].
type eigenBasis struct {
	mu []float64
	v  *mat.Dense
	h  []float64
}

// eigen returns the cached eigendecomposition, computing it on first use.
func (c *Chain) eigen() (*eigenBasis, error) {
	c.eigOnce.Do(func() { c.eig, c.eigErr = c.computeEigen() })
	return c.eig, c.eigErr
}

func (c *Chain) computeEigen() (*eigenBasis, error) {
	if c.lambda == 0 || c.theta == 0 {
		return nil, errors.New("birthdeath: the Eigen method needs lambda > 0 and theta > 0")
	}
	m := c.m
	n := m + 1
	s := mat.NewSymDense(n, nil)
	for j := 0; j <= m; j++ {
		s.SetSym(j, j, -(float64(j)*c.lambda + float64(m-j)*c.theta))
		if j < m {
			// √(G[j,j+1]·G[j+1,j]) by detailed balance.
			s.SetSym(j, j+1, math.Sqrt(float64(m-j)*c.theta*float64(j+1)*c.lambda))
		}
	}
	var es mat.EigenSym
	if !es.Factorize(s, true) {
		return nil, errors.New("birthdeath: eigendecomposition did not converge")
	}
	nu := c.lambda + c.theta
	// The spectrum is known exactly (−kν, k = 0..m, ascending here as in
	// EigenSym); use it rather than the computed values, after checking
	// that they agree to a backward-stable tolerance.
	b := &eigenBasis{mu: make([]float64, n), v: &mat.Dense{}, h: make([]float64, n)}
	scale := float64(m) * math.Max(c.lambda, c.theta)
	for k, mu := range es.Values(nil) {
		b.mu[k] = -float64(m-k) * nu
		if math.Abs(mu-b.mu[k]) > 1e-8*scale {
			return nil, errors.New("birthdeath: computed spectrum does not match −kν")
		}
	}
	es.VectorsTo(b.v)
	logPi, log1mPi := math.Log(c.theta/nu), math.Log(c.lambda/nu)
	lgm, _ := math.Lgamma(float64(m + 1))
	for j := 0; j <= m; j++ {
		lj, _ := math.Lgamma(float64(j + 1))
		lmj, _ := math.Lgamma(float64(m - j + 1))
		b.h[j] = 0.5 * (lgm - lj - lmj + float64(j)*logPi + float64(m-j)*log1mPi)
	}
	return b, nil
}

// apply returns the matrix D^{−1/2} V diag(f) Vᵀ D^{1/2}.
func (b *eigenBasis) apply(f []float64) *mat.Dense {
	n := len(f)
	w := mat.DenseCopyOf(b.v)
	for i := 0; i < n; i++ {
		row := w.RawRowView(i)
		for k := range row {
			row[k] *= f[k]
		}
	}
	out := mat.NewDense(n, n, nil)
	out.Mul(w, b.v.T())
	for i := 0; i < n; i++ {
		row := out.RawRowView(i)
		for j := range row {
			row[j] *= math.Exp(b.h[j] - b.h[i])
		}
	}
	return out
}

// eigenDense computes P_t from the factors e^{μ_k t} and Q_t(ρ) from
// ρ(1 − e^{(μ_k−ρ)t})/(ρ − μ_k) in the spectral basis, μ_k = −(m−k)ν.
func (c *Chain) eigenDense(t, rho float64, wantP, wantQ bool) (p, q *mat.Dense, err error) {
	b, err := c.eigen()
	if err != nil {
		return nil, nil, err
	}
	n := c.m + 1
	f := make([]float64, n)
	if wantP {
		for k, mu := range b.mu {
			f[k] = math.Exp(mu * t)
		}
		p = b.apply(f)
		if !allFinite(p) {
			return nil, nil, errNonFinite
		}
	}
	if wantQ {
		if rho == 0 {
			q = mat.NewDense(n, n, nil)
		} else {
			for k, mu := range b.mu {
				f[k] = -math.Expm1((mu-rho)*t) * rho / (rho - mu)
			}
			q = b.apply(f)
			if !allFinite(q) {
				return nil, nil, errNonFinite
			}
		}
	}
	return p, q, nil
}

func allFinite(a *mat.Dense) bool {
	r, _ := a.Dims()
	for i := 0; i < r; i++ {
		for _, v := range a.RawRowView(i) {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return false
			}
		}
	}
	return true
}
