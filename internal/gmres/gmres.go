package gmres

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"
)

const (
	// MaxOrder bounds the order n of a Work: 2³⁰ unknowns, 8 GiB a basis
	// vector.
	MaxOrder = 1 << 30
	// MaxRestart bounds the steps of a cycle, the restart length: H takes
	// (MaxRestart+1)·MaxRestart float64, 128 MiB.
	MaxRestart = 1 << 12
)

// mutation, when not zero, makes Step wrong on purpose, for the tests'
// power checks: mutSign flips the sign of each new rotation's s_j,
// mutSkipGS leaves out the orthogonalisation against v₀ from step 1 on.
var mutation int

const (
	mutSign = 1 + iota
	mutSkipGS
)

// Work is the workspace of GMRES cycles of up to restart steps on
// vectors of length n: the Arnoldi basis v (allocated as the steps need
// it), the Hessenberg matrix H, row i of which is h[i*restart:], turned
// upper triangular by the Givens rotations (c, s), the rotated right-hand
// side g and the coefficients y of the update. A Work may serve any
// number of cycles, one after the other; it is not safe for concurrent
// use.
type Work struct {
	n, restart int
	v          [][]float64
	h          []float64
	c, s       []float64
	g, y       []float64
}

// New returns a Work for vectors of length n and cycles of up to restart
// steps. It returns an error unless 1 ≤ n ≤ MaxOrder and
// 1 ≤ restart ≤ MaxRestart. (In exact arithmetic a cycle ends within n
// steps; callers that restart may cut restart to n.)
func New(n, restart int) (*Work, error) {
	switch {
	case n < 1 || n > MaxOrder:
		return nil, fmt.Errorf("gmres: order %d, want 1 to %d", n, MaxOrder)
	case restart < 1 || restart > MaxRestart:
		return nil, fmt.Errorf("gmres: restart %d, want 1 to %d", restart, MaxRestart)
	}
	m := restart
	return &Work{
		n: n, restart: m,
		v: make([][]float64, 0, m+1),
		h: make([]float64, (m+1)*m),
		c: make([]float64, m),
		s: make([]float64, m),
		g: make([]float64, m+1),
		y: make([]float64, m),
	}, nil
}

// Len returns the order n of the vectors.
func (w *Work) Len() int { return w.n }

// Restart returns the largest number of steps of a cycle.
func (w *Work) Restart() int { return w.restart }

// Basis returns v_j, the j-th vector of the Arnoldi basis, for
// 0 ≤ j ≤ Restart(). Basis(0) is where the caller puts the start residual
// r₀ before Start.
func (w *Work) Basis(j int) []float64 {
	for len(w.v) <= j {
		w.v = append(w.v, make([]float64, w.n))
	}
	return w.v[j]
}

// Start begins a cycle from the residual r₀ held in Basis(0), with
// beta = ‖r₀‖₂ > 0 as the caller computed it: it sets v₀ = r₀/β and
// g = βe₁.
func (w *Work) Start(beta float64) {
	floats.Scale(1/beta, w.Basis(0))
	clear(w.g)
	w.g[0] = beta
}

// Step makes Arnoldi step j (0 ≤ j < Restart(), after steps 0..j−1 of the
// cycle): op(dst, src) sets dst = C src (dst is Basis(j+1), src is v_j;
// op may not keep them), which it orthogonalises against v₀..v_j by
// modified Gram–Schmidt into column j of H; it applies the earlier
// rotations to that column and a new one that annihilates h_{j+1,j},
// rotating g, and sets v_{j+1} = w/h_{j+1,j} when h_{j+1,j} > 0. It
// returns h_{j+1,j} = ‖w‖₂ and ρ, the new diagonal entry r_jj. When ρ is
// zero or not finite, ok is false and the step made no column: the
// rotations and g are as before, and Update may use the j columns made
// before it.
func (w *Work) Step(j int, op func(dst, src []float64)) (hnext, rho float64, ok bool) {
	h, m := w.h, w.restart
	vj, next := w.Basis(j), w.Basis(j+1)
	op(next, vj)
	lo := 0
	if mutation == mutSkipGS && j > 0 {
		lo = 1
	}
	for i := lo; i <= j; i++ {
		vi := w.v[i]
		hij := floats.Dot(next, vi)
		h[i*m+j] = hij
		floats.AddScaled(next, -hij, vi)
	}
	hnext = floats.Norm(next, 2)
	for i := 0; i < j; i++ { // the earlier rotations
		a, b := h[i*m+j], h[(i+1)*m+j]
		h[i*m+j], h[(i+1)*m+j] = w.c[i]*a+w.s[i]*b, -w.s[i]*a+w.c[i]*b
	}
	hjj := h[j*m+j]
	rho = math.Hypot(hjj, hnext)
	if rho == 0 || math.IsNaN(rho) || math.IsInf(rho, 0) {
		return hnext, rho, false
	}
	w.c[j], w.s[j] = hjj/rho, hnext/rho
	if mutation == mutSign {
		w.s[j] = -w.s[j]
	}
	h[j*m+j] = rho
	h[(j+1)*m+j] = 0
	w.g[j+1] = -w.s[j] * w.g[j]
	w.g[j] *= w.c[j]
	if hnext > 0 {
		floats.Scale(1/hnext, next)
	}
	return hnext, rho, true
}

// Residual returns |g_k|, after k completed steps of the cycle the 2-norm
// of the residual r₀ − C V_k y_k of the GMRES iterate (in exact
// arithmetic).
func (w *Work) Residual(k int) float64 { return math.Abs(w.g[k]) }

// Update solves R_k y = g_{0..k−1}, the least-squares problem of the first
// k steps of the cycle, by back substitution and adds V_k y to x, column
// by column. k = 0 leaves x unchanged.
func (w *Work) Update(x []float64, k int) {
	h, m, y := w.h, w.restart, w.y[:k]
	for i := k - 1; i >= 0; i-- {
		s := w.g[i]
		for l := i + 1; l < k; l++ {
			s -= h[i*m+l] * y[l]
		}
		y[i] = s / h[i*m+i]
	}
	for i, yi := range y {
		floats.AddScaled(x, yi, w.v[i])
	}
}
