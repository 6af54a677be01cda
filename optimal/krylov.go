package optimal

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/ckpt-markov/markov/internal/gmres"
)

// krylovIter bounds the GMRES steps of entryBase.krylov: each costs a
// product with A and a solve on B's factors, O(k²) at most, as dot
// products over the runs of their rows' nonzero entries (nzRuns), against
// a factorisation. With the dense factorisation (lapack Dgetrf, O(k³))
// that was about 90 steps at k = 529 (QR, N = 32) and about 70 at
// k = 2003 (N = 64), and the bound was 32; the sparse factorisation
// (factorSparse) costs about 50 ms of CPU at k = 2003, about 12 steps, so
// a run that has not converged within a few steps is better refactorised
// (most runs refused at N = 64 were still far from the tolerance after 32
// steps). Measured on QR with reconfiguration (MTTF 8 h, MTTR 4 h), the
// four levels with factorSparse, at N = 64: a bound of 32 took 473 steps
// and 8 runs refused, 4.9 cpu-s; 16 took 261 and 13, 4.5; 8 took 138 and
// 15, 4.2; 4 took 72 and 17, 4.3 (one run each at a load of 6–9); at
// N = 32 and N = 16 the bounds 32 and 8 cost the same within the noise
// (0.47–0.53 and 0.064–0.076 cpu-s).
const krylovIter = 8

// krylovHope is the step from which entryBase.krylov gives up a run that
// cannot reach the tolerance within krylovIter steps at the best
// contraction of a step so far: at QR N = 64 (MTTF 8 h, MTTR 4 h, the
// four levels) 15 of the 18 runs are refused, most still 10⁸–10¹² times
// the tolerance after 8 steps; from step 3 the test stops 14 of them,
// 68 steps in all instead of 138, the same 3 runs accepted; N = 32: 74
// steps instead of 132, 6 runs accepted instead of 7; N = 16: 81 instead
// of 111, the same 8.
const krylovHope = 3

// krylov solves arows·x = rhs (A·x = b) by GMRES (the steps of package
// internal/gmres, one cycle of at most krylovIter steps) on the system
// preconditioned on the left by the kept factors of B, B⁻¹A·x = B⁻¹b
// (Saad & Schultz 1986; Saad 2003, Iterative Methods for Sparse Linear
// Systems, 2nd ed., §9.3.1, Algorithm 9.4), from x₀ = B⁻¹b: the iterate
// x_m ∈ x₀ + K_m(B⁻¹A, d₀), d₀ = B⁻¹(b − A·x₀), minimises
// ‖B⁻¹(b − A·x)‖₂ there. Iterative refinement on B's factors
// (Golub & Van Loan, §3.5.3) takes its iterates in the same Krylov
// spaces, so GMRES needs no more steps than refinement for the same
// 2-norm of the preconditioned residual, and converges when refinement does not: when
// A − B has rank r, B⁻¹A = I + (rank r) and GMRES ends within r + 1
// steps in exact arithmetic (a change of the actions of a few groups, or
// of a few configurations' rows); when every row moves a little (level
// 2's one interval), the eigenvalues of B⁻¹A cluster around 1.
//
// The steps stop once the estimate of ‖B⁻¹(b − A·x_m)‖₂ (the last entry
// of the rotated right-hand side) is at most refineTol·‖x₀‖∞, or after
// krylovIter steps; from step krylovHope on, a run whose estimate times
// the best ratio of one step's estimate to the last's so far, raised to
// the steps left, is still above the tolerance is refused at once (an
// extrapolation: after a change of rank r the residual may hardly fall
// until step r + 1, so it refuses some runs that would converge; with
// krylovIter = 8 those are changes of rank 3 to 7, which the searches
// hardly make: a group's actions change the rows failing into it by a
// rank of up to W). The 2-norm
// estimate against an ∞-norm scale only decides when to stop stepping
// (‖·‖∞ ≤ ‖·‖₂, so it stops no earlier than an ∞-norm test would); what
// is accepted is decided by the ∞-norm test that follows. Then the
// result is accepted by the test of iterative refinement on one more
// correction, computed from the true residual: x = x_m + d, d = B⁻¹(b − A·x_m), with ‖d‖∞ ≤ refineTol·‖x‖∞
// and |d| ≤ refineTol·|x| in g's entry (the last). As d = B⁻¹A(x* − x_m),
// x − x* = (I − B⁻¹A)(x_m − x*) and
//
//	‖x − x*‖ ≤ ‖I − B⁻¹A‖·‖(B⁻¹A)⁻¹‖·‖d‖,
//
// refineTol of the solution times a factor near 1 for the systems GMRES
// converges on within the bound (B⁻¹A close to I). It reports false, for
// the caller to factorise A, when that test fails.
//
// Each step costs a product with A and a solve on B's packed factors,
// at most 4k² flops as dot products (over the runs of the nonzero entries
// of their rows, nzRuns), and the orthogonalisation, 4jk at step j;
// at k = 529 (QR, N = 32) a step takes about 0.2 ms of CPU, at k = 2003
// about 4 ms, and the sparse factorisation about 50 ms: whence
// krylovIter.
func (base *entryBase) krylov(arows [][]float64, rhs *mat.VecDense) (*mat.VecDense, bool) {
	k := len(arows)
	x := base.solve(rhs)
	xs, b := x.RawVector().Data, rhs.RawVector().Data
	ws := base.krylovWork(k)
	if ws == nil {
		return nil, false
	}
	ws.a.reset(k)
	for _, ai := range arows {
		ws.a.add(ai, 0)
	}
	v0 := ws.gm.Basis(0)
	beta := base.precResidual(v0, arows, &ws.a, b, xs, ws.r)
	target := refineTol * floats.Norm(xs, math.Inf(1))
	m := 0
	if beta > target {
		op := func(dst, src []float64) { // dst = B⁻¹A·src
			for i, ai := range arows {
				ws.t[i] = ws.a.dot(i, ai, src)
			}
			base.f.solveTo(dst, ws.t)
		}
		ws.gm.Start(beta)
		prev, rate := beta, 1.0
		for m < krylovIter {
			hn, _, ok := ws.gm.Step(m, op)
			if !ok {
				break // no column: B⁻¹A·v_m is not finite, or B⁻¹A is singular on the basis
			}
			m++
			res := ws.gm.Residual(m)
			if hn == 0 || res <= target {
				break // exact (the Krylov space is invariant), or converged
			}
			rate = min(rate, res/prev)
			prev = res
			if m >= krylovHope && m < krylovIter && res*math.Pow(rate, float64(krylovIter-m)) > target {
				return nil, false // hopeless within the bound
			}
		}
		ws.gm.Update(xs, m)
	}
	d := v0 // the basis is not needed any more
	base.precResidual(d, arows, &ws.a, b, xs, ws.r)
	floats.Add(xs, d)
	dn, xn := floats.Norm(d, math.Inf(1)), floats.Norm(xs, math.Inf(1))
	if dn <= refineTol*xn && math.Abs(d[k-1]) <= refineTol*math.Abs(xs[k-1]) {
		return x, true
	}
	return nil, false
}

// precResidual sets d = B⁻¹(b − A·x), A's rows as dot products over
// their runs ar (r is scratch of length k), and returns ‖d‖₂.
func (base *entryBase) precResidual(d []float64, arows [][]float64, ar *nzRuns, b, x, r []float64) float64 {
	for i, ai := range arows {
		r[i] = b[i] - ar.dot(i, ai, x)
	}
	base.f.solveTo(d, r)
	return floats.Norm(d, 2)
}

// krylovWork is the state of entryBase.krylov's GMRES: the Arnoldi
// basis, Hessenberg matrix and rotations of package internal/gmres (gm,
// cycles of krylovIter steps), scratch r, t, and the runs of the nonzero
// entries of A's rows (the reduced system is sparse: at QR N = 64 about
// 7–27 % of its entries are nonzero, in about 8–46 runs a row). It is
// kept with the factors (entryBase.kw) for the next system of the same
// order, as entrySolve, its only user, is not run concurrently on one
// Solver.
type krylovWork struct {
	a    nzRuns
	gm   *gmres.Work
	r, t []float64
}

// krylovWork returns base's workspace for systems of order k, made on the
// first call and kept (nil when k is beyond the bounds of internal/gmres:
// then krylov refuses, for the caller to factorise).
func (base *entryBase) krylovWork(k int) *krylovWork {
	if ws := base.kw; ws != nil && len(ws.r) == k {
		return ws
	}
	gm, err := gmres.New(k, krylovIter)
	if err != nil {
		return nil
	}
	base.kw = &krylovWork{gm: gm, r: make([]float64, k), t: make([]float64, k)}
	return base.kw
}

// entrySolution is a system that entryBase.krylov solved, as entrySolve
// identifies it (changedRows): the entryRow generation of each row, the
// rows' last entries (g's column, set after the rows are made), the
// rows of generation 0 themselves (h(x₀) = 0's row), the right-hand side,
// and the solution. Policy iteration evaluates the policy it ends with
// once more when the search goes on from it (SingleInterval's climb and
// its end, levels 3 and 4 from their start): the same system, whose
// solve it returns again instead of iterating again.
type entrySolution struct {
	gens   []uint64
	gk     []float64
	zero   map[int][]float64
	rhs, x []float64
}

// lookup returns a copy of the kept solution when arows, gens and rhs
// are the system kept, else nil.
func (es *entrySolution) lookup(arows [][]float64, gens []uint64, rhs *mat.VecDense) *mat.VecDense {
	k := len(arows)
	if len(es.gens) != k || !slices.Equal(es.rhs, rhs.RawVector().Data) || !slices.Equal(es.gens, gens) {
		return nil
	}
	for i, ri := range arows {
		if ri[k-1] != es.gk[i] {
			return nil
		}
		if gens[i] == 0 && !slices.Equal(ri, es.zero[i]) {
			return nil
		}
	}
	return mat.NewVecDense(k, slices.Clone(es.x))
}

// keep makes arows·x = rhs (with the rows' generations gens) the kept
// system.
func (es *entrySolution) keep(arows [][]float64, gens []uint64, rhs, x *mat.VecDense) {
	k := len(arows)
	es.gens = append(es.gens[:0], gens...)
	es.gk = es.gk[:0]
	es.zero = map[int][]float64{}
	for i, ri := range arows {
		es.gk = append(es.gk, ri[k-1])
		if gens[i] == 0 {
			es.zero[i] = slices.Clone(ri)
		}
	}
	es.rhs = append(es.rhs[:0], rhs.RawVector().Data...)
	es.x = append(es.x[:0], x.RawVector().Data...)
}
