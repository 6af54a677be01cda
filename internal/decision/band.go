package decision

import "math"

// Band is the resolvent ρ(ρI − G_B)⁻¹ of the spare chain on 0..m (j → j−1
// at rate jλ, j → j+1 at rate (m−j)θ) killed when it leaves the band
// B = [B0, B1] of spare counts: Apply gives, for a vector f over B, the
// expectation of f at the spare count when an Exp(ρ) clock rings, over
// the paths that stay in B until then (doc.go, "Resolvent sums"). The
// killed resolvent is a lower bound entrywise on the chain's own; Exit
// gives, for each start, the probability of leaving B first, which bounds
// the difference for a bounded f.
//
// The tridiagonal M-matrix ρI − G_B is factorised without pivoting in
// the subtraction-free form of Grassmann, Taksar and Heyman: each pivot
// is ρ plus non-negative terms, so the factors, and Apply on a
// non-negative f, carry relative errors of a few ulps per state.
type Band struct {
	B0, B1 int
	rho    float64
	down   []float64 // jλ, by offset j − B0
	up     []float64 // (m − j)θ
	piv    []float64 // the pivots d'_i
	mul    []float64 // the multipliers down_i/d'_{i−1}
}

// NewBand factorises the killed resolvent of the chain with m other
// processors, rates lambda and theta, clock rate rho > 0, on the band
// [b0, b1] ⊆ [0, m]. It panics if the band is empty or outside [0, m], or
// rho is not positive (programmer errors: the callers derive these from
// a validated scenario).
func NewBand(m int, lambda, theta, rho float64, b0, b1 int) *Band {
	bd := new(Band)
	bd.Reset(m, lambda, theta, rho, b0, b1)
	return bd
}

// Reset makes bd the killed resolvent NewBand returns for these
// arguments, reusing its storage. It panics as NewBand does.
func (bd *Band) Reset(m int, lambda, theta, rho float64, b0, b1 int) {
	if b0 < 0 || b1 > m || b0 > b1 || !(rho > 0) {
		panic("decision: bad band")
	}
	k := b1 - b0 + 1
	grow := func(s []float64) []float64 {
		if cap(s) < k {
			return make([]float64, k)
		}
		return s[:k]
	}
	bd.B0, bd.B1, bd.rho = b0, b1, rho
	bd.down, bd.up, bd.piv, bd.mul = grow(bd.down), grow(bd.up), grow(bd.piv), grow(bd.mul)
	for i := range k {
		j := b0 + i
		bd.down[i] = float64(j) * lambda
		bd.up[i] = float64(m-j) * theta
	}
	// Forward elimination of the sub-diagonal: with σ_i = d'_i − up_i
	// (the row's excess over its super-diagonal after elimination),
	// σ_0 = ρ + down_0 and σ_i = ρ + down_i·σ_{i−1}/d'_{i−1}; every term is
	// non-negative (down_0 and up_{k−1} are the killing rates).
	sigma := rho + bd.down[0]
	bd.piv[0] = sigma + bd.up[0]
	bd.mul[0] = 0
	for i := 1; i < k; i++ {
		r := bd.down[i] / bd.piv[i-1]
		bd.mul[i] = r
		sigma = rho + r*sigma
		bd.piv[i] = sigma + bd.up[i]
	}
}

// Apply sets dst[i] = Σ_j ρ(ρI − G_B)⁻¹[B0+i, B0+j]·f[j] for the band's
// states, and returns dst (allocated when nil or too short). f and dst
// have one entry per state of the band and may be the same slice.
func (bd *Band) Apply(f, dst []float64) []float64 {
	return bd.ApplyRows(f, dst, 0)
}

// ApplyRows is Apply for the rows r0, …, len(f)−1 only: it sets those
// entries of dst to the bits Apply gives them and leaves dst[:r0]
// unspecified. The back substitution of a row reads only the rows after
// it, so it stops at r0; the forward elimination starts at the first
// non-zero entry of f (at r0 at the latest), with the sign of zero the
// skipped entries would have carried. It panics if r0 is outside
// [0, len(f)).
func (bd *Band) ApplyRows(f, dst []float64, r0 int) []float64 {
	k := len(bd.piv)
	if len(f) != k {
		panic("decision: Band.Apply: vector of the wrong length")
	}
	if r0 < 0 || r0 >= k {
		panic("decision: Band.ApplyRows: row out of the band")
	}
	if cap(dst) < k {
		dst = make([]float64, k)
	}
	dst = dst[:k]
	// z_i = ρf_i + mul_i·z_{i−1} is a zero while f is, negative only if
	// every f_j so far is −0 (ρ > 0, mul ≥ 0).
	s, neg := 0, true
	for s < r0 && f[s] == 0 {
		neg = neg && math.Signbit(f[s])
		s++
	}
	var z float64
	if s == 0 {
		z = bd.rho * f[0]
	} else {
		zprev := 0.0
		if neg {
			zprev = math.Copysign(0, -1)
		}
		z = bd.rho*f[s] + bd.mul[s]*zprev
	}
	dst[s] = z
	for i := s + 1; i < k; i++ {
		z = bd.rho*f[i] + bd.mul[i]*z
		dst[i] = z
	}
	dst[k-1] /= bd.piv[k-1]
	for i := k - 2; i >= r0; i-- {
		dst[i] = (dst[i] + bd.up[i]*dst[i+1]) / bd.piv[i]
	}
	return dst
}

// Exit returns, for each state of the band, the probability that the
// chain leaves the band before the Exp(ρ) clock rings: the killed
// resolvent applied to the killing rates over ρ.
func (bd *Band) Exit(dst []float64) []float64 {
	return bd.ExitRows(dst, 0)
}

// ExitRows is Exit for the rows r0, …, B1 − B0 only, as ApplyRows.
func (bd *Band) ExitRows(dst []float64, r0 int) []float64 {
	k := len(bd.piv)
	if cap(dst) < k {
		dst = make([]float64, k)
	}
	f := dst[:k] // the killing rates over ρ, solved in place
	clear(f)
	if bd.B0 > 0 {
		f[0] += bd.down[0] / bd.rho
	}
	if bd.up[k-1] > 0 {
		f[k-1] += bd.up[k-1] / bd.rho
	}
	return bd.ApplyRows(f, f, r0)
}
