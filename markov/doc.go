// Package markov provides finite discrete-time Markov chains with typed
// state labels, their communicating structure, stationary distributions and
// the Markov renewal–reward ratio used by the checkpoint models.
//
// # Chains
//
// A Chain[L] holds a row-stochastic transition matrix P (p_ij ≥ 0,
// Σ_j p_ij = 1) in compressed sparse row form (github.com/james-bowman/sparse
// CSR) together with a label of type L for every state. It is built either
// with a Builder, one labelled transition at a time, or with FromCOO from
// integer triplets (i, j, p_ij) and a parallel label slice, which works in
// place when the triplets come row by row. Duplicate triplets accumulate.
// Validation rejects non-finite or negative probabilities, repeated labels
// and rows whose sum differs from 1 by more than RowTol·max(1, nnz_i); an
// option prunes small entries and renormalises the rows, reporting the
// probability mass removed from each.
//
// # Structure
//
// States i and j communicate when each is reachable from the other; the
// communicating classes are the strongly connected components of the
// transition graph, found with Tarjan's algorithm (Tarjan 1972), run with
// an explicit stack so that chains of 10⁵–10⁶ states do not exhaust the
// goroutine stack. A class is closed when no transition leaves it. Every
// finite chain has at least one closed class; the states outside closed
// classes are transient. The period of a closed class is the gcd of the
// lengths of its cycles, computed as gcd{d(u) + 1 − d(v) : u → v} with d
// the breadth-first levels from any state of the class. The states
// reachable from a start (Reachable, ClosedClass) are found by the
// toolkit's one reachability search, package internal/graph, which
// packages uwt and optimal use too.
//
// # Stationary distribution
//
// A stationary distribution is a probability vector with
//
//	πᵀP = πᵀ,  Σ_i π_i = 1.
//
// It is unique exactly when the chain has a single closed class C; then π
// vanishes off C and, on C, is the unique solution for the irreducible
// chain restricted to C, whatever its period (Kemeny & Snell 1960). With a
// period d > 1 the powers Pⁿ do not converge and power iteration fails, but
// the linear system above is unaffected; the methods below solve the linear
// system. Chain.Stationary finds C, solves on C, and reports the residual
// ‖πᵀP − πᵀ‖₁ of the result and whether it meets the tolerance.
//
// Dense and Banded use the Grassmann–Taksar–Heyman (GTH) state reduction
// (Grassmann, Taksar & Heyman 1985): for k = n−1, …, 1, state k is censored
// out of the chain on {0, …, k}, the chain watched only while it is in
// {0, …, k−1}:
//
//	s_k  = Σ_{j<k} p_kj                  (= 1 − p_kk, without subtraction)
//	p_ij ← p_ij + p_ik p_kj / s_k        for i, j < k,
//
// and back substitution gives π_0 = 1, π_k = Σ_{i<k} π_i p_ik / s_k before
// normalisation. Only additions, multiplications and divisions of positive
// numbers occur, so each component of π is obtained with a small relative
// error, however small the component and however slowly the chain mixes
// (O'Cinneide 1993); this is the algorithm of choice for Markov chains and
// Gaussian elimination on (Pᵀ − I)π = 0 with one equation replaced by
// Σπ = 1 (the cross-check of the tests) is less accurate on stiff chains.
// Dense costs about n³/3 multiply–adds on a dense copy. Eliminating in
// state order creates no fill outside the band of P, so Banded costs n·l·u
// operations with l and u the lower and upper bandwidths: chains whose
// states are ordered so that transitions are short are solved exactly in
// linear time, which matters because such chains (birth–death like, a
// random walk on a line) mix slowly and are the hard case for iterative
// methods.
//
// Iterative solves the singular system A x = 0, A = I − Pᵀ restricted to C,
// by restarted GMRES(m) (Saad & Schultz 1986) with right preconditioning by
// an incomplete LU factorisation without fill, ILU(0) (Meijerink & van der
// Vorst 1977; Saad 2003). No equation is replaced: 1ᵀA = 0, so the range of
// A is the hyperplane {y : Σ y = 0}, which does not contain π; A has index
// one and GMRES applied to the consistent system A x = 0 from x₀ converges
// to a null vector without breakdown (Brown & Walker 1997). With right
// preconditioning the iterates are x₀ + M⁻¹V y where V spans a Krylov space
// of AM⁻¹ inside range(A); the preconditioned system stays consistent with
// index one as long as 1ᵀMπ ≠ 0. For an M-matrix A = LU − R with R ≥ 0 (the
// dropped fill of ILU(0)), so 1ᵀMπ = 1ᵀRπ > 0 unless R = 0, and in that
// case the last pivot of the exact factorisation, which is zero, is
// replaced by a positive number (the diagonal of A), giving again 1ᵀMπ > 0.
// The diagonal of A is formed as Σ_{j≠k} p_kj so that the columns of A sum
// to zero to rounding. At every restart the iterate is normalised to sum 1
// and its true residual ‖A x‖₁ is compared with the tolerance; inside a
// cycle the GMRES estimate of ‖A x‖₂ is driven below tol/(2√n). The
// Arnoldi steps, Givens rotations, residual estimate and update are those
// of package internal/gmres, which package optimal's reduced systems use
// too; Settings.Restart is at most its MaxRestart, 4096. A warm start
// (Settings.Start), e.g. π of a chain for a nearby checkpoint interval,
// shortens the iteration. Slowly mixing chains of large bandwidth (a
// diffusion on a 2-D lattice, say) may need many iterations; the result
// then reports IterationLimit with the best iterate and an error.
//
// Auto uses Dense for classes of at most Settings.DenseMax states, Banded
// when the band is cheap compared with the number of transitions (see
// AutoBandedWork), and Iterative otherwise.
//
// The accuracy of π is limited by the conditioning of the chain, not only
// by the residual: ‖π̂ − π‖₁ ≤ ‖A^#‖·‖π̂ᵀ(P − I)‖₁ with A^# the group
// inverse of I − P (Meyer 1975), whose norm grows with the mixing time.
// The direct methods are not subject to this bound in the same way:
// entrywise relative perturbations of P of size δ change π entrywise by at
// most about 2nδ relatively (O'Cinneide 1993).
//
// # Renewal–reward
//
// In a Markov renewal (semi-Markov) process the successive states form a
// Markov chain with transition matrix P; a visit to state i lasts τ_i on
// average and earns w_i on average. If the jump chain has a single closed
// class and the mean cycle length is finite, the long-run reward per unit
// time is, almost surely,
//
//	lim_{t→∞} W(t)/t = Σ_i π_i w_i / Σ_i π_i τ_i
//
// (Markov renewal–reward theorem: Çinlar 1975, ch. 10 on Markov renewal
// theory; Ross 1996, ch. 3 on renewal–reward processes and ch. 4 on
// semi-Markov processes: cycles between visits to a fixed recurrent state
// are i.i.d., and a cycle has mean length Σπτ/π_0 and mean reward
// Σπw/π_0). Only the means per visit
// enter, so rewards earned on a transition i → j are accounted for by their
// row expectation w_i = Σ_j p_ij w_ij. RenewalReward computes this ratio
// with compensated sums (Neumaier 1974). The checkpoint models use it with
// w = committed work (useful work per time, UWT) or useful time
// (availability).
//
// # References
//
//   - Brown, P. N. & Walker, H. F. (1997). GMRES on (nearly) singular
//     systems. SIAM J. Matrix Anal. Appl. 18(1), 37–51.
//   - Çinlar, E. (1975). Introduction to Stochastic Processes. Prentice-Hall.
//   - Grassmann, W. K., Taksar, M. I. & Heyman, D. P. (1985). Regenerative
//     analysis and steady state distributions for Markov chains.
//     Operations Research 33(5), 1107–1116.
//   - Kemeny, J. G. & Snell, J. L. (1960). Finite Markov Chains. Van Nostrand.
//   - Meijerink, J. A. & van der Vorst, H. A. (1977). An iterative solution
//     method for linear systems of which the coefficient matrix is a
//     symmetric M-matrix. Math. Comp. 31(137), 148–162.
//   - Meyer, C. D. (1975). The role of the group generalized inverse in the
//     theory of finite Markov chains. SIAM Review 17(3), 443–464.
//   - Neumaier, A. (1974). Rundungsfehleranalyse einiger Verfahren zur
//     Summation endlicher Summen. ZAMM 54, 39–51.
//   - O'Cinneide, C. A. (1993). Entrywise perturbation theory and error
//     analysis for Markov chains. Numer. Math. 65, 109–120.
//   - Ross, S. M. (1996). Stochastic Processes, 2nd ed. Wiley.
//   - Saad, Y. (2003). Iterative Methods for Sparse Linear Systems, 2nd ed.
//     SIAM.
//   - Saad, Y. & Schultz, M. H. (1986). GMRES: a generalized minimal residual
//     algorithm for solving nonsymmetric linear systems. SIAM J. Sci. Stat.
//     Comput. 7(3), 856–869.
//   - Stewart, W. J. (1994). Introduction to the Numerical Solution of Markov
//     Chains. Princeton University Press.
//   - Tarjan, R. E. (1972). Depth-first search and linear graph algorithms.
//     SIAM J. Comput. 1(2), 146–160.
package markov
