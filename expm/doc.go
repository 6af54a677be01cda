// Package expm computes the matrix exponential exp(A), integrals
// ∫₀ᵀ e^{−ct} e^{At} B dt, and the action exp(tA)·v for large sparse A.
//
// # Matrix exponential
//
// Exp implements the scaling and squaring algorithm of Al-Mohy & Higham
// (2009). With the diagonal (m, m) Padé approximant
//
//	r_m(x) = p_m(x)/p_m(−x),  p_m(x) = Σ_{j=0..m} (2m−j)!/(j!(m−j)!) x^j,
//
// exp(A) ≈ r_m(2^{−s}A)^{2^s}, m ∈ {3, 5, 7, 9, 13}. The approximant is the
// exact exponential of a perturbed matrix, r_m(X) = exp(X + ΔX) with
// ΔX = h_{2m+1}(X), h_{2m+1}(x) = log(e^{−x} r_m(x)) = Σ_{k≥2m+1} c_k x^k,
// and the relative backward error is bounded by
//
//	‖ΔX‖/‖X‖ ≤ h̃_{2m+1}(α)/α,  h̃ = Σ_k |c_k| x^k,  α = max(d_p, d_{p+1}),
//
// with d_k = ‖X^k‖₁^{1/k} (Al-Mohy & Higham 2009). θ_m is the largest α
// for which the bound is at most u = 2⁻⁵³:
//
//	θ3 = 1.495585217958292e-2   θ5 = 2.539398330063230e-1
//	θ7 = 9.504178996162932e-1   θ9 = 2.097847961257068e0
//	θ13 = 5.371920351148152e0
//
// (the package's tests rederive them from the series in 512-bit
// arithmetic). Using d_k, which can be much smaller than ‖A‖ for a
// nonnormal A, instead of ‖A‖ avoids the overscaling of the 2005 algorithm
// (Higham 2005; gonum's mat.Dense.Exp), whose relative error on the badly
// scaled matrix B14 of the tests is about 5e18. The smallest degree whose
// θ_m exceeds the relevant max(d_p, d_{p+1}) is used without scaling;
// otherwise m = 13 with η = min(max(d6, d8), max(d8, d10)) and
// s = max(⌈log2(η/θ13)⌉, 0) + ℓ(2^{−s}A, 13), where
//
//	ℓ(A, m) = max(⌈log2(α/u)/(2m)⌉, 0),  α = |c_{2m+1}|·‖|A|^{2m+1}‖₁/‖A‖₁,
//
// which adds squarings only if the leading term of the backward error
// series alone would exceed u; ℓ = 0 is also required for the degrees 3–9.
// |c_{2m+1}| = (m!)²/((2m)!(2m+1)!).
//
// Norms: ‖|A|^{2m+1}‖₁ is computed exactly, as max(1ᵀ|A|^{2m+1}), by 2m+1
// vector–matrix products (|A| is nonnegative), accumulating logarithms to
// avoid overflow. The norms ‖A^k‖₁, k = 4, 6, 8, 10, are computed exactly
// for n ≤ 64 (forming A⁸ = (A⁴)² and A⁴A⁶ costs two extra products, which
// at these sizes is comparable to the estimator's overhead and makes the
// result deterministic) and, for larger n, estimated with the block 1-norm
// estimator of Higham & Tisseur (2000, Algorithm 2.4; two columns, at most
// five iterations, fixed random seed), which only multiplies the already
// formed powers by n×2 blocks. Settings.ExactNorms forces exact norms.
//
// Preprocessing (Higham 2005, 2008): a trace shift A − μI, μ = trace(A)/n,
// whose factor e^{μ/2^s} is applied before the squarings (so e^μ itself
// never over- or underflows), and balancing A = T·B·T⁻¹, T = P·D, by
// LAPACK's dgebal (a permutation isolating eigenvalues, then power-of-two
// scaling; gonum's lapack/gonum Dgebal and Dgebak). Each is used only if
// it reduces ‖A‖₁.
//
// Entries known in closed form are restored after every squaring (Al-Mohy &
// Higham 2009): for an upper triangular matrix the diagonal e^{λ_i} and
// superdiagonal t_{i,i+1}·(e^{λ_{i+1}} − e^{λ_i})/(λ_{i+1} − λ_i), evaluated with
// expm1 (no cancellation, and no overflow of Higham's sinh form);
// for a column (row) j with zero off-diagonal entries, column (row) j of
// the exponential, e^{a_jj}·e_j.
//
// Deflation (this package's addition for Markov generators): if all rows
// of A have the same sum λ (A·1 = λ1; λ = 0 for a generator) and
// ‖A‖₁ > θ13, Exp works with B = T⁻¹AT, T = I + (1 − e_k)e_kᵀ, whose column
// k is exactly λ·e_k, so that exp(B)·e_k = e^λ·e_k is restored exactly
// after each squaring. Without it, the rounding error along the eigenvector
// 1 doubles at every squaring, and the rows of exp(Gt) drift from 1 by about
// 2^s·u (3e-8 at ‖Gt‖₁ = 1e9 for gonum's Exp); with it they sum to 1 to
// within a few ulps up to ‖Gt‖₁ = 1e12 and approach the stationary
// distribution to ~1e-13. The pivot k is the row of smallest absolute sum;
// column k of the result is formed as e^λ minus the other entries of its
// row, so it has absolute (not relative) accuracy ~u. Column sums are
// treated the same way through the transpose. Settings.NoDeflation turns
// this off.
//
// # Van Loan integrals
//
// Integral uses the block identity of Van Loan (1978):
//
//	exp([[F, B], [0, 0]]·T) = [[e^{FT}, ∫₀ᵀ e^{Fτ} B dτ], [0, I]],
//
// with F = A − cI, so that e^{Fτ} = e^{−cτ}e^{Aτ}. For a Markov generator G
// this gives discounted occupation integrals; for instance the rows of
// ∫₀ᵀ r e^{−rt} e^{Gt} dt sum to 1 − e^{−rT}. A common row sum of A is
// deflated as above before the block is formed.
//
// ExpIntegral gives e^{tA} and ∫₀ᵗ e^{uA}du (the block with B = I, c = 0)
// for a Metzler matrix A (nonnegative off-diagonal: a generator or
// sub-generator) without forming the block: Taylor polynomials of degree
// 15 of 2^{−s}tA (‖·‖₁ ≤ 1/2; Paterson & Stockmeyer 1973), doubled s times
// by e^{2hA} = (e^{hA})², Φ(2h) = Φ(h) + e^{hA}Φ(h), products of
// nonnegative matrices (n×n products only, where Exp on the block
// multiplies 2n×2n ones).
//
// # Action on a vector
//
// ExpMulVec computes exp(tA)·v without forming exp(tA), by the truncated
// Taylor method of Al-Mohy & Higham (2011): with μ = trace(A)/n,
//
//	exp(tA)v = (e^{tμ/s} T_m(t(A−μI)/s))^s v,  T_m(x) = Σ_{k≤m} x^k/k!,
//
// where (m*, s) minimise s·m subject to α_p(t(A−μI))/s ≤ θ_m, the Taylor
// analogue of θ_m above for u = 2⁻⁵³ (m ≤ 55), with α_p = max(d_p, d_{p+1})
// estimated for p ≤ 8 by the block 1-norm estimator; each substep stops
// early once two consecutive terms are below u relative to the sum. Only
// products with A (and Aᵀ, for the estimator) are used, so a sparse CSR
// matrix (github.com/james-bowman/sparse, used in place) costs O(nnz) per
// product.
//
// Uniformize computes exp(tG)·v for a Markov (sub)generator G by
// uniformization (Jensen 1953; Grassmann 1977):
//
//	exp(tG)v = Σ_k e^{−Λt}(Λt)^k/k! · K^k v,  K = I + G/Λ,  Λ = max_i |g_ii|,
//
// truncated to k ∈ [L, R] where geometric bounds on the two Poisson tails
// are each below Settings.Tol/2. K is (sub)stochastic, so ‖K^k v‖_∞ ≤ ‖v‖_∞,
// nonnegativity is preserved, and after renormalising the kept weights the
// truncation error is at most 2·(neglected mass)·‖v‖_∞. It needs about
// Λt + O(√(Λt)) products, whereas ExpMulVec needs about
// (m*/θ_{m*})·α·t ≈ 5.6·α·t with α ≈ ‖G^p‖₁^{1/p}, which for Markov chains
// is typically close to 2Λ; on the 10⁴-state birth–death benchmark
// uniformization is an order of magnitude faster. ExpMulVec applies to any
// matrix.
//
// # References
//
//   - A. H. Al-Mohy and N. J. Higham (2009). A new scaling and squaring
//     algorithm for the matrix exponential. SIAM J. Matrix Anal. Appl.
//     31(3):970–989.
//   - A. H. Al-Mohy and N. J. Higham (2011). Computing the action of the
//     matrix exponential, with an application to exponential integrators.
//     SIAM J. Sci. Comput. 33(2):488–511.
//   - N. J. Higham (2005). The scaling and squaring method for the matrix
//     exponential revisited. SIAM J. Matrix Anal. Appl. 26(4):1179–1193.
//   - N. J. Higham (2008). Functions of Matrices: Theory and Computation.
//     SIAM.
//   - N. J. Higham and A. H. Al-Mohy (2010). Computing matrix functions.
//     Acta Numerica 19:159–208.
//   - N. J. Higham and F. Tisseur (2000). A block algorithm for matrix
//     1-norm estimation, with an application to 1-norm pseudospectra.
//     SIAM J. Matrix Anal. Appl. 21(4):1185–1201.
//   - M. S. Paterson and L. J. Stockmeyer (1973). On the number of
//     nonscalar multiplications necessary to evaluate polynomials. SIAM J.
//     Comput. 2(1):60–66.
//   - C. F. Van Loan (1978). Computing integrals involving the matrix
//     exponential. IEEE Trans. Automat. Control 23(3):395–404.
//   - C. Moler and C. Van Loan (1978). Nineteen dubious ways to compute the
//     exponential of a matrix. SIAM Review 20(4):801–836; twenty-five years
//     later: SIAM Review 45(1):3–49 (2003).
//   - R. C. Ward (1977). Numerical computation of the matrix exponential
//     with accuracy estimate. SIAM J. Numer. Anal. 14(4):600–610.
//   - A. Jensen (1953). Markoff chains as an aid in the study of Markoff
//     processes. Skand. Aktuarietidskr. 36:87–91.
//   - W. K. Grassmann (1977). Transient solutions in Markovian queueing
//     systems. Computers & Operations Research 4(1):47–53.
package expm
