package intervals

import (
	"fmt"
	"math"
)

// MaxReplicationDegree bounds Replication.Replicas (the closed forms cost
// O(g) operations).
const MaxReplicationDegree = 1 << 16

// Replication is process replication without restart (Ferreira et al.,
// SC'11; Casanova, Robert, Vivien and Zaidouni, FGCS 2015): an application
// of b logical processes runs each process as g replicas on g·b processors
// whose failures are independent and exponential with rate λ; a dead
// replica is not replaced, and the application is interrupted when the
// last replica of some process dies. After the interruption every
// processor restarts from the last checkpoint.
type Replication struct {
	// Processes is the number b ≥ 1 of logical processes (replica groups).
	Processes int
	// Replicas is the replication degree g, 1 ≤ g ≤ MaxReplicationDegree.
	Replicas int
	// Rate is the failure rate λ > 0 of one processor, per second.
	Rate float64
}

// Validate reports whether p describes a valid model.
func (p Replication) Validate() error {
	const fn = "Replication"
	if p.Processes < 1 {
		return fmt.Errorf("intervals: %s: Processes = %d, want ≥ 1", fn, p.Processes)
	}
	if p.Replicas < 1 || p.Replicas > MaxReplicationDegree {
		return fmt.Errorf("intervals: %s: Replicas = %d, want 1 … %d", fn, p.Replicas, MaxReplicationDegree)
	}
	return checkPositive(fn, "Rate", p.Rate)
}

// replicationSum returns S = Σ_{j=1}^{g} B(j/g, b), so that MTTI = S/(gλ)
// and MNFTI = b·S. B(1, b) = 1/b exactly; the other terms are
// Γ(x)·exp(−lnΓ-ratio(b, x)).
func (p Replication) replicationSum() float64 {
	b := float64(p.Processes)
	g := float64(p.Replicas)
	s := 1 / b
	for j := 1; j < p.Replicas; j++ {
		x := float64(j) / g
		s += math.Gamma(x) * math.Exp(-lgammaRatio(b, x))
	}
	return s
}

// lgammaRatio returns ln Γ(b + x) − ln Γ(b) for b ≥ 1, 0 < x < 1. For
// b ≥ 30 it takes the difference of Stirling's series term by term,
// (b − 1/2)·log1p(x/b) + x·ln(b + x) − x + Σ_k B_2k/(2k(2k−1))·(z^{1−2k})
// differences (truncation below 1e−16 at b ≥ 30), instead of subtracting
// two values near b·ln b, whose rounding error grows like ε·b·ln b.
func lgammaRatio(b, x float64) float64 {
	if b < 30 {
		l1, _ := math.Lgamma(b + x)
		l0, _ := math.Lgamma(b)
		return l1 - l0
	}
	z := b + x
	r := (b-0.5)*math.Log1p(x/b) + x*math.Log(z) - x
	// Stirling corrections 1/(12z) − 1/(360z³) + 1/(1260z⁵) − 1/(1680z⁷).
	c := func(z float64) float64 {
		z2 := z * z
		return (1.0/12 - (1.0/360-(1.0/1260-1.0/(1680*z2))/z2)/z2) / z
	}
	return r + c(z) - c(b)
}

// MTTI returns the mean time to interruption
//
//	MTTI = E[min_i max_j X_ij] = (1/(gλ))·Σ_{j=1}^{g} B(j/g, b),
//
// X_ij the exponential lifetimes of the g·b processors and B Euler's beta
// function; for g = 1 it is the platform MTBF 1/(bλ).
func (p Replication) MTTI() (float64, error) {
	if err := p.Validate(); err != nil {
		return 0, err
	}
	return p.replicationSum() / (float64(p.Replicas) * p.Rate), nil
}

// MNFTI returns the mean number of failures to interruption counting every
// failure of the g·b processors, including those that strike a processor
// whose replica is already dead (Casanova et al.'s MNFTI^ah):
//
//	MNFTI = g·b·λ·MTTI = b·Σ_{j=1}^{g} B(j/g, b).
//
// It does not depend on λ. For g = 2 it equals Casanova et al.'s
// recursion (MNFTIPairs); for g = 1 it is 1.
func (p Replication) MNFTI() (float64, error) {
	if err := p.Validate(); err != nil {
		return 0, err
	}
	return float64(p.Processes) * p.replicationSum(), nil
}

// MNFTIPairs returns MNFTI^ah for b pairs (g = 2) by the recursion of
// Casanova et al. over n_f, the number of pairs that have lost one
// replica (a failure strikes the live replica of such a pair with
// probability n_f/2b, its dead one with n_f/2b, a whole pair otherwise):
//
//	E(b) = 2,  E(n_f) = 2b/(2b − n_f) + (2b − 2n_f)/(2b − n_f)·E(n_f + 1),
//
// MNFTI^ah = E(0). It costs O(b); b is bounded by maxPairs = 1<<26.
func MNFTIPairs(b int) (float64, error) {
	const maxPairs = 1 << 26
	if b < 1 || b > maxPairs {
		return 0, fmt.Errorf("intervals: MNFTIPairs: b = %d, want 1 … %d", b, maxPairs)
	}
	n := float64(2 * b)
	e := 2.0
	for nf := b - 1; nf >= 0; nf-- {
		f := float64(nf)
		e = n/(n-f) + (n-2*f)/(n-f)*e
	}
	return e, nil
}

// BirthdayMNFTI returns the birthday-problem value that Casanova et al.
// show Ferreira et al. used for the MNFTI of b pairs: the expected number
// of draws, with replacement, from b equally likely categories until one
// repeats,
//
//	1 + Q(b),  Q(b) = Σ_{k=1}^{b} b!/((b − k)!·b^k)
//
// (Knuth's Q function; Q(b) ≈ sqrt(πb/2) − 1/3). It undercounts MNFTI^ah
// because a failure that strikes the dead replica of a pair does not
// interrupt. The sum stops when its terms fall below 1e−17 of it; b is
// bounded by 1<<40.
func BirthdayMNFTI(b int) (float64, error) {
	const maxB = 1 << 40
	if b < 1 || b > maxB {
		return 0, fmt.Errorf("intervals: BirthdayMNFTI: b = %d, want 1 … %d", b, maxB)
	}
	n := float64(b)
	q, t := 0.0, 1.0
	for k := 1; k <= b; k++ {
		t *= (n - float64(k-1)) / n
		q += t
		if t < 1e-17*q {
			break
		}
	}
	return 1 + q, nil
}
