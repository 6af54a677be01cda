// Package gmres holds the core of the generalised minimal residual method
// (GMRES) shared by the toolkit's Krylov solvers: the Arnoldi process by
// modified Gram–Schmidt, the Givens rotations that keep the Hessenberg
// matrix upper triangular, the residual estimate they give for free, and
// the update of the iterate by the basis. The operator, the side of the
// preconditioner, the stopping rules and the restarts belong to the
// callers (package markov's stationary solver: right ILU(0)
// preconditioning, GMRES(m) with restarts; package optimal's reduced
// systems: left preconditioning by the factors of a nearby system, a few
// steps and no restart).
//
// # The method
//
// For a linear operator C on ℝⁿ (C = AM⁻¹ or M⁻¹A for a preconditioner M)
// and a start residual r₀ with β = ‖r₀‖₂, the Arnoldi process builds an
// orthonormal basis V_k = [v₀ … v_{k−1}], v₀ = r₀/β, of the Krylov space
// K_k(C, r₀) = span{r₀, Cr₀, …, C^{k−1}r₀} and the (k+1)×k upper
// Hessenberg matrix H̄_k with C V_k = V_{k+1} H̄_k (Saad 2003, §6.3,
// with modified Gram–Schmidt): step j forms w = C v_j and, for
// i = 0..j,
//
//	h_ij = ⟨w, v_i⟩,  w ← w − h_ij v_i,
//
// then h_{j+1,j} = ‖w‖₂ and v_{j+1} = w/h_{j+1,j}. GMRES takes the iterate
// x_k = x₀ + V_k y_k with y_k minimising ‖βe₁ − H̄_k y‖₂, which is
// ‖r₀ − C V_k y‖₂ (Saad & Schultz 1986; Saad 2003, §6.5.1).
//
// The least-squares problem is solved as the columns come (Saad 2003,
// §6.5.3): the Givens rotations G_0 … G_{j−1} of the earlier steps are
// applied to column j, and a new one,
//
//	c_j = h_jj/ρ,  s_j = h_{j+1,j}/ρ,  ρ = √(h_jj² + h_{j+1,j}²),
//
// replaces (h_jj, h_{j+1,j}) by (ρ, 0) and rotates the right-hand side g
// (g = βe₁ at the start): g_{j+1} = −s_j g_j, g_j ← c_j g_j. After k
// steps H̄_k is R_k (upper triangular, k×k) over a zero row, and
//
//	min_y ‖βe₁ − H̄_k y‖₂ = |g_k|,
//
// the 2-norm of the residual r₀ − C V_k y_k of the operator's system
// (preconditioned when C is), with no product by C.
// The update solves R_k y = g_{0..k−1} by back substitution and adds
// V_k y to the caller's vector (Work.Update); with right preconditioning
// the caller then applies M⁻¹ to it.
//
// A step whose w vanishes (h_{j+1,j} = 0, a "lucky breakdown") ends with
// an exact solution: K_{j+1} is invariant under C and |g_{j+1}| = 0. A
// step whose ρ is zero or not finite (C singular on the basis, or
// overflow) adds no column: Work.Step reports it and leaves the
// rotations and g as they were, so that the caller can update with the
// columns made before it.
//
// In exact arithmetic GMRES ends within n steps, and within r + 1 steps
// when C = I + E with E of rank r: K_k(C, r₀) lies in span{r₀} + range(E),
// of dimension at most r + 1, so the space is invariant by step r + 1,
// and GMRES, which breaks down only at the exact solution (Saad 2003,
// §6.5.4), has it by then. That is the case of package optimal's
// systems, preconditioned by the factors of a system that differs from
// theirs in a few rows.
//
// # Cost
//
// Step j costs one application of C and 4(j+1)n flops of
// orthogonalisation; the workspace holds up to restart + 1 basis vectors
// of length n (allocated as the steps need them) and (restart+1)·restart
// entries of H. New bounds both before allocating (MaxOrder, MaxRestart).
//
// # References
//
//   - Saad, Y. & Schultz, M. H. (1986). GMRES: a generalized minimal
//     residual algorithm for solving nonsymmetric linear systems. SIAM J.
//     Sci. Stat. Comput. 7(3), 856–869.
//   - Saad, Y. (2003). Iterative Methods for Sparse Linear Systems, 2nd
//     ed. SIAM. §6.3 (Arnoldi), §6.5 (GMRES), §9.3 (preconditioned GMRES:
//     §9.3.1 left, §9.3.2 right preconditioning).
package gmres
