// Package birthdeath computes the spare-count transition matrices of the
// checkpoint model (docs/model.md, section 5): for a segment of length T on a
// used processors, with m = N − a other processors, the matrices
//
//	P_T    = exp(G_m T),
//	Q_T(ρ) = ∫₀ᵀ ρ e^{−ρt} exp(G_m t) dt,   ρ = aλ,
//
// densely by three interchangeable methods (Chain.Transition) and row by
// row, windowed, for large m (Chain.Rows, the model's fast path), and rows of
// the resolvent ρ(ρI − G)⁻¹ = lim Q_t, the spare count at an Exp(ρ) time
// (Chain.Resolvent, the fast path's chain of up phases).
//
// # The chain
//
// Each of the m processors alternates independently between functional
// (fails at rate λ) and failed (repaired at rate θ). The number j of
// functional ones is a birth–death chain on 0..m with generator G_m:
// j → j−1 at rate jλ, j → j+1 at rate (m−j)θ. P_T[s,s'] is the probability
// of s' functional at T given s at 0; Q_T[s,s'] is the density-weighted
// probability that a used processor (rate ρ in total) fails first, at some
// t < T, with the count at s' then. Row sums: 1 for P_T, 1 − e^{−ρT} for
// Q_T. λ = 0 (no failures), θ = 0 (no repairs) and ρ = 0 are allowed.
//
// # Product structure
//
// With ν = λ + θ, π = θ/ν and a single processor's transition
// probabilities
//
//	p₁₁(t) = π + (1−π)e^{−νt},  p₀₁(t) = π(1 − e^{−νt}),
//
// the s functional processors stay functional independently and the m−s
// failed ones come back independently, so row s of P_t is the convolution
//
//	P_t[s,·] = Binomial(s, p₁₁(t)) * Binomial(m−s, p₀₁(t)).
//
// The stationary law is Binomial(m, π). G_m is the lumping of the Kronecker
// sum of m two-state generators (eigenvalues 0 and −ν), so its spectrum is
// exactly −kν, k = 0..m; the eigenvectors are Krawtchouk polynomials
// orthogonal with respect to Binomial(m, π) (Karlin & McGregor 1965).
//
// # Method ClosedForm (and Rows)
//
// P: both binomial pmfs are built outward from the mode by the ratio
// recurrence w_{k+1}/w_k = (n−k)p/((k+1)q), with p and q = 1 − p each
// computed without cancellation (q₁₁ = (λ/ν)(1 − e^{−νt}) via expm1,
// q₀₁ = (λ + θe^{−νt})/ν), normalised by their sum (no lgamma, no overflow:
// the mode weight is the largest), and cut where the geometric bound
// w_k r/(1−r) on the rest of a tail falls below min(tol, 2⁻⁶⁰)/4 of the
// kept mass; the pmfs are then convolved. All terms are positive: relative
// error O(mε) per entry, ε = 2⁻⁵³.
//
// Q: instead of a quadrature in t (the integrand varies on the time scale
// 1/(sλ + (m−s)θ) near t = 0, ~20 s for m = 1008, against segments of
// hours) Q uses the exact resolvent identity, from
// d/dt(e^{−ρt}P_t) = e^{−ρt}P_t(G_m − ρI) and the commutation of P_t with G_m:
//
//	Q_T(ρ) = ρ(ρI − G_m)⁻¹ (I − e^{−ρT}P_T),  ρ > 0.
//
// A = ρI − G_m is a tridiagonal, row diagonally dominant M-matrix (row sums
// ρ). Its LU factorisation without pivoting is done in the subtraction-free
// form of Grassmann, Taksar & Heyman (1985) and Alfa, Xue & Ye (2002):
// σ₀ = ρ, σ_i = ρ + iλσ_{i−1}/d_{i−1} (row sums of the reduced matrix),
// pivots d_i = σ_i + (m−i)θ. Row s of Q is ρ(x⁺ − e^{−ρT}x⁻) with
// Aᵀx⁺ = e_s and Aᵀx⁻ = P_T[s,·]ᵀ; both right-hand sides are non-negative,
// so both O(m) solves are subtraction-free and accurate entrywise, and the
// one subtraction leaves an absolute error O(ε) — a relative error
// O(ε/(1 − e^{−ρT})) with respect to the row sum of Q (measured against
// uniformization: 1.7e-16 absolute at ρT = 1.2e-5, m = 100). The factorisation is shared by all
// rows of a block. With tol > 0, Rows solves each row of Q on a window of
// columns only: the range the spare count's mean sweeps during the
// segment, widened by ten standard deviations. That is the resolvent of
// the chain killed outside the window, A_W = principal submatrix of A
// (the factorisation starts from σ = ρ + lo·λ, the first row's sum); since
// A_W⁻¹ ≤ A⁻¹ and the killed P_T is at most P_T, the windowed row is a
// lower bound of the true one entrywise, and its deficit against the row
// sum 1 − e^{−ρT} bounds what it misses (the window widens if that
// exceeds tol/2). A row then costs O(w_a w_b + w_q) flops, w_a, w_b = O(√m)
// the binomial widths and w_q the window's, instead of O(m): at m = 500,000
// (a moldable(N/2) run on 10⁶ processors, MTTF 25 years) a row went from
// milliseconds to microseconds. The dense ClosedForm is Rows over all rows
// with tol = 0 (every column).
//
// The factorisation's entry at column i is a function of ρ, the window's
// first column lo and i alone (the recurrence runs upward from lo), so a
// factorisation of [lo, hi) serves every later window [lo, hi') with
// hi' ≤ hi bit for bit. Chain.KeepFactors keeps them by (ρ, lo), within a
// bound on their columns, for a caller that asks for single rows of a
// few rates many times (package optimal asks for the recovery's row of
// each decision X(p, n) → a, new for every p, about 10⁵ rows of the
// built-in system on 512 processors from under 10³ distinct
// factorisations); the rows are those without it, bit for bit
// (TestKeepFactorsSameRows). Chain.RowsInto is Rows into a RowBlock of
// the caller's, whose storage it reuses: for a caller that reads each
// block once before asking for the next (package optimal's searches over
// an interval), the same rows without their allocation
// (TestRowsIntoMatchesRows).
//
// # Method Eigen
//
// Detailed balance with the stationary π_j makes S = D^{1/2} G_m D^{−1/2},
// D = diag(π_j), symmetric tridiagonal: S[j,j+1] = √((m−j)θ·(j+1)λ). It is
// factorised once per Chain (lazily, sync.Once) by mat.EigenSym, S = VΛVᵀ
// (the computed eigenvalues are checked against, then replaced by, the
// exact −kν), and for every T
//
//	P_T = D^{−1/2} V e^{ΛT} Vᵀ D^{1/2},
//	Q_T = D^{−1/2} V diag(ρ(1 − e^{−(ρ+kν)T})/(ρ+kν)) Vᵀ D^{1/2}.
//
// The similarity D^{±1/2} spans √(max π/min π), which grows exponentially
// in m and in |log(θ/λ)|, and the small components of V carry absolute
// (not relative) errors: the basis is ill-conditioned. Measured against
// ClosedForm (TestEigenValidityScan: λ = 1, νT ∈ {0, 1e-4, 1e-2, 1, 10,
// 100}, ρ/ν ∈ {1e-3, 1, 30}), the largest m with max error ≤ 1e-12 is
//
//	θ/λ:   1e-6  1e-4  1e-2  0.1  0.3   1   3   10  100  1e4  1e6
//	m ≤     9     9     9    10   13   25  13   10   9    9    9
//
// (error ~1e-14 at m = 5 for every ratio; 6e-13 at m = 25, θ = λ; 1e-7 to
// O(1) at m = 60). Q degrades first: its coefficients decay only like
// 1/k, so the worst-conditioned high modes are not damped. Eigen needs
// λ > 0 and θ > 0.
//
// # Method VanLoan
//
// One exponential (package expm) of the 2(m+1)×2(m+1) block matrix
// (Van Loan 1978)
//
//	exp([[G_m − ρI, ρI], [0, 0]]·T) = [[e^{−ρT}P_T, Q_T], [0, I]].
//
// P_T is read from the top-left block when ρT ≤ 1 (the rescaling by e^{ρT}
// amplifies its error at most e-fold) and from a second exponential,
// exp(G_m T), otherwise. Measured against ClosedForm
// (TestVanLoanValidityScan, m ≤ 60, θ/λ from 1e-6 to 1e6), the error grows
// roughly like 1e-16·‖G_m‖₁T: ≤ 1e-14 at ‖G_m‖₁T ≈ 10², ≤ 9e-13 up to
// ≈ 1e4, and 1e-12 to 8e-11 at 1e5–1e6 (two versions of package expm).
// So VanLoan meets 1e-12 for ‖G_m‖₁T ≲ 1e4. The cost is O(m³) with a large
// constant.
//
// # Auto
//
// ClosedForm is valid for every m and every rate pair, is the most
// accurate, and is also the fastest dense method (measured below, Eigen
// with its factorisation cached), so Auto always selects it; there is no
// range where a fallback from Eigen would be needed.
//
// # Performance
//
// go test -bench . -benchmem on a 2-core Intel Xeon, lightly loaded (with
// a load average of ~10 from other jobs the figures were up to 5× higher):
//
//	Rows, m = 1008, 60 rows, tol 1e-15, T = 60 s / 1 h / 4 h:  0.37 / 0.65 / 0.8–1.0 ms, 4–7 allocs
//	Rows, m = 80, all 81 rows, T = 1 h:                        0.07–0.13 ms, 15–17 allocs
//	Transition m = 10:  ClosedForm 4 µs,   Eigen 5 µs,   VanLoan 0.19 ms
//	Transition m = 60:  ClosedForm 0.10 ms, Eigen 0.19 ms, VanLoan 4.1 ms
//	Transition m = 200: ClosedForm 1.2 ms, Eigen 4.0 ms
//
// # References
//
//   - C. F. Van Loan, Computing integrals involving the matrix exponential,
//     IEEE Trans. Automatic Control 23(3):395–404, 1978.
//   - S. Karlin and J. McGregor, The differential equations of birth-and-death
//     processes, and the Stieltjes moment problem, Trans. AMS 85:489–546,
//     1957; and Ehrenfest urn models, J. Appl. Probab. 2(2):352–376, 1965.
//   - J. S. Plank and M. G. Thomason, Processor allocation and checkpoint
//     interval selection in cluster computing systems, J. Parallel Distrib.
//     Comput. 61(11):1570–1590, 2001.
//   - W. K. Grassmann, M. I. Taksar and D. P. Heyman, Regenerative analysis
//     and steady state distributions for Markov chains, Oper. Res.
//     33(5):1107–1116, 1985.
//   - A. S. Alfa, J. Xue and Q. Ye, Accurate computation of the smallest
//     eigenvalue of a diagonally dominant M-matrix, Math. Comp.
//     71(237):217–236, 2002.
//   - A. Jensen, Markoff chains as an aid in the study of Markoff processes,
//     Skand. Aktuarietidskr. 36:87–91, 1953 (uniformization, the tests'
//     large-m oracle).
package birthdeath
