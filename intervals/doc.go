// Package intervals implements the closed-form and first-order checkpoint
// interval models of the related work, so that an interval chosen by the
// Markov model can be judged against the formulas users already know.
//
// Notation: M is the mean time between failures of the whole job (λ =
// 1/M), δ = C the checkpoint cost, R the restart cost, L the checkpoint
// latency. An interval is the computation time between two checkpoints.
// Every function validates its arguments and returns an error naming the
// offending one.
//
// # Young (1974), Gropp & Lusk (2004)
//
//	τ = sqrt(2·δ·M)                                            YoungInterval
//
// # Daly (2006)
//
//	low order:     τ = sqrt(2δM) − δ            (δ < 2M)       DalyLowOrder
//	higher order:  τ = sqrt(2δM)·[1 + (1/3)·sqrt(δ/(2M)) + (1/9)·δ/(2M)] − δ
//	               for δ < 2M,  τ = M for δ ≥ 2M               DalyHigherOrder
//	wall time:     T_w = M·e^{R/M}·(e^{(τ+δ)/M} − 1)·T_s/τ     DalyWallTime
//	exact optimum: τ* = M·(1 + W0(−e^{−1−δ/M}))                DalyOptimum
//
// τ* minimises T_w exactly; with x = δ/M it expands as τ*/M = sqrt(2x) −
// 2x/3 + sqrt(2x)·x/18 + (2/135)·x² + …, of which Daly's higher order keeps
// the first three terms (relative error ≈ (√2/135)·x^{3/2}), the low order
// two (≈ (√2/6)·sqrt(x)) and Young one (≈ (√2/3)·sqrt(x)).
//
// # Vaidya (1997)
//
// Expected time to complete T useful seconds with latency L, overhead C
// and recovery R under exponential failures, and its optimum:
//
//	Γ(T) = (1/λ)·e^{λ(R + L − C)}·(e^{λ(T + C)} − 1)      VaidyaExpectedTime
//	T*   = (1 + W0(−e^{−1−λC}))/λ                          VaidyaInterval
//
// T* minimises Γ(T)/T and depends on neither L nor R.
//
// # Volpex: replicated inter-dependent processes (Rahman et al.)
//
// n processes, r replicas each, nodes failing at rate λ, checkpoint time
// T_s; a failed interval is wasted (type Volpex):
//
//	P(T_c) = (1 − (1 − e^{−λT_c})^r)^n                      Survival
//	G(T_c) = T_c/P(T_c) + T_s,  minimise G/T_c = 1/P + T_s/T_c
//	r = 1:  T_c = 2·W0(sqrt(nλT_s)/2)/(nλ)                  Interval
//	r > 1:  T_s/T_c² = n·r·λ·e^{−λT_c}·(1 − e^{−λT_c})^{r−1}
//	                   / (1 − (1 − e^{−λT_c})^r)^{n+1}
//
// The first-order condition for r > 1 is solved in logarithms by Brent's
// method on a bracket grown from the first-order guess
// (T_s/(r·n·λ^r))^{1/(r+1)} (IntervalRoot, relative accuracy 1e−13);
// IntervalMinimize minimises 1/P − 1 + T_s/T_c directly by Brent's method
// (parabolic steps with a golden-section safeguard; about 1e−8). Table I of the paper is reproduced exactly: its
// intervals are the optima rounded to the nearest second.
//
// # Process replication without restart (Ferreira et al. 2011; Casanova et al. 2015)
//
// b logical processes, g replicas each, on g·b processors failing at rate
// λ; dead replicas are not replaced; the application is interrupted when
// the last replica of some process dies (type Replication). With X_ij the
// processors' lifetimes, u = 1 − e^{−λt} and v = u^g,
//
//	MTTI  = ∫₀^∞ (1 − (1 − e^{−λt})^g)^b dt = (1/(gλ))·Σ_{j=1}^{g} B(j/g, b)
//	MNFTI = g·b·λ·MTTI = b·Σ_{j=1}^{g} B(j/g, b)          (failures counted
//	        on all g·b processors, dead or alive: Casanova et al.'s MNFTI^ah)
//
// (the second line by Wald's identity: those failures form a Poisson
// process of rate gbλ). For g = 2, MNFTIPairs is Casanova et al.'s
// recursion over the number of pairs that have lost a replica, and
// BirthdayMNFTI the birthday-problem value 1 + Q(b) of the analogy they
// correct in Ferreira et al. A checkpointing period follows from Young's
// or Daly's formula with the MTTI in place of the platform MTBF
// (YoungInterval, DalyOptimum): the "no-restart" strategy with period
// √(2·MTTI·C) that Benoit, Hérault, Le Fèvre and Robert ("Replication is
// more efficient than you think", SC'19, abstract) describe as the
// published practice, and improve on by restarting dead replicas at
// checkpoints (package replication's model). The tests check the closed form against an
// exact recursion over the absorbing chain (g ≤ 5, b ≤ 12), against the
// pairs recursion for b = 2^0 … 2^20, and against direct sampling of
// min_i max_j X_ij. The papers' own tables could not be consulted for
// this package: no published number of theirs is among its oracles.
//
// # Bouguerra et al. (2008): any failure law
//
// Work W is cut into segments I_j, each followed by a checkpoint C(S_j)
// and preceded by a restart R(S_{j−1}) (charged every segment, as in the
// paper), S_j = I_1 + … + I_j; the failure process restarts after each
// checkpoint. With S the survival function of the inter-failure times:
//
//	g(η) = (1/S(η))·∫₀^η S(x) dx,   E[T] = Σ_j g(I_j + C(S_j) + R(S_{j−1}))
//
// (ExpectedCompletion). The law is any law.Law, the toolkit's one
// failure-law interface (survival and quantile functions; gonum's distuv
// distributions satisfy it): g is integrated from its survival function,
// unless the law has it in closed form (a method SegmentTime). Laws:
//
//	Exponential   g(η) = (e^{λη} − 1)/λ
//	Weibull       S(x) = exp(−(λx)^β),
//	              ∫₀^η S = Γ(1/β)·P(1/β, (λη)^β)/(λβ)  (gonum mathext.GammaIncReg)
//	SurvivalLaw   any S, integrated by adaptive Gauss–Legendre quadrature
//	              (nodes from gonum integrate/quad)
//	any law.Law   as SurvivalLaw, from its Survival method
//
// With constant costs equal segments are optimal and, for exponential
// failures (BouguerraExponential),
//
//	I* = (1 + W0(−e^{−1−λ(C+R)}))/λ,   k* = λW/(1 + W0(−e^{−1−λ(C+R)})),
//
// the integer k being the better of ⌊k*⌋ and ⌈k*⌉ (E(k) is convex in k).
// For other laws BouguerraSegments scans k exhaustively up to the bound
// E(k) ≥ W + k(C+R), and BouguerraInterval minimises g(I+C+R)/I. With
// costs C(S), R(S) that vary with the work done, BouguerraPlan solves the
// dynamic programme over a grid of the work; its error is O(k·h²) for
// smooth costs and is estimated from the grid of step 2h.
//
// # Fialho (2011): coordinated and uncoordinated checkpointing
//
// α mean time to interrupt, σ interval, t_c checkpoint, t_l load, t_d
// detection latency, Δ_lr log replay, Δ_lp logging delay, φ ∈ (0, 1]
// dependency factor.
//
//	coordinated (FialhoCoordinated):
//	  σ = sqrt(t_c² − 2t_c·t_d − 2t_c·t_l + 2α·t_c) − t_c
//	  O = (T_r·σ + α·t_c)/(σ + t_c),  T_r = t_d + t_l + σ/2,  run time T_s·(1 + O/α)
//	uncoordinated with pessimistic message logging (FialhoUncoordinated):
//	  σ = sqrt(φ·t_c·(t_c + 2α − 2t_d − 2t_l − 2Δ_lr))/φ − t_c
//	  O = φ·T_r + t_c·(α − T_r)/(σ + t_c) + Δ_lp,  T_r = t_d + t_l + σ/2 + Δ_lr,
//	  run time T_p·(1 + O/α)
//	dependency factor (CommGraph): P(n) = distinct peers of n plus one,
//	  φ_n = P(n)/N,  φ = Σ_n P(n)/N²
//
// MasterWorker, Grid2D and Ring build common communication patterns.
//
// # Multi-level: Benoit et al. (2017), Di et al. (2017)
//
// L checkpoint levels of cost C_ℓ (increasing), failures of severity ℓ
// at λ_ℓ (they need a checkpoint of level ≥ ℓ), a pattern V of V_ℓ
// level-ℓ checkpoints between level-(ℓ+1) ones, n_ℓ = ∏_{k≥ℓ}(V_k + 1)
// checkpoints of level ≥ ℓ per period of W seconds of computation. With
// ΔC_ℓ = C_ℓ − C_{ℓ−1} (a level-ℓ checkpoint stands for the lower ones
// at its position), the first-order waste and its optima are
//
//	H(W) = Σ_ℓ n_ℓΔC_ℓ/W + W·Σ_ℓ λ_ℓ/(2n_ℓ) (+ Σ_ℓ λ_ℓR_ℓ)      MultiLevelWaste
//	x_ℓ = sqrt(λ_ℓ/(2ΔC_ℓ)), I = 1/x₁, V_ℓ + 1 = x_ℓ/x_{ℓ+1}    BenoitMultiLevel
//	H* ≈ Σ_ℓ sqrt(2λ_ℓΔC_ℓ)
//	two levels: x* = sqrt(λ₁(C₂ − C₁)/(λ₂C₁)),
//	            W₁ = sqrt(2((x−1)C₁ + C₂)/(x(λ₁ + xλ₂)))          DiTwoLevel
//
// the ratios rounded to integers by least waste. They approach the exact
// optimum of package multilevel as the rates fall (its
// TestFirstOrderLimit).
//
// # Comparing models
//
// Params gathers a system and an application in common terms; Models
// lists the built-in Model values and Compare returns the interval each
// picks (with a note, or the reason it does not apply), so that a table
// can show them beside the Markov model's I*, which only needs to
// implement Model.
//
// # Published tables
//
// The tests reproduce Table I of Rahman et al. (to the second), Tables
// 3.3, 4.4, 4.5, 4.6, 4.8 and 4.10 of Fialho (to the last printed digit)
// and Daly's 117-minute example. Fialho's tables mix truncation (114.8958
// printed 114.89) and rounding (18.9792 printed 18.98); Table 4.10's φ is
// printed to four digits but the intervals use the exact 5/N. Table 4.10
// uses φ = 1 for its 4-process run although the rule above gives 3/4 on a
// 2×2 torus. Rahman et al. print λ = 0.0000348074 s⁻¹ (1/28729.5) for the
// MTTF of 28730 s; both values give the published intervals.
//
// # References
//
//   - J. W. Young, "A first order approximation to the optimum checkpoint
//     interval", Communications of the ACM 17(9), 1974.
//   - W. Gropp and E. Lusk, "Fault tolerance in message passing interface
//     programs", International Journal of High Performance Computing
//     Applications 18(3), 2004.
//   - J. T. Daly, "A higher order estimate of the optimum checkpoint
//     interval for restart dumps", Future Generation Computer Systems
//     22(3), 2006.
//   - N. H. Vaidya, "Impact of checkpoint latency on overhead ratio of a
//     checkpointing scheme", IEEE Transactions on Computers 46(8), 1997.
//   - M. T. Rahman, H. Nguyen, J. Subhlok and G. Pandurangan,
//     "Checkpointing to minimize completion time for inter-dependent
//     parallel processes on volunteer grids", University of Houston
//     (Volpex project; references up to 2012; published at IEEE/ACM
//     CCGrid 2013).
//   - M. S. Bouguerra, T. Gautier, D. Trystram and J.-M. Vincent, "A new
//     flexible checkpoint/restart model", INRIA research report RR-6751,
//     2008.
//   - L. Fialho, "Fault Tolerance Configuration for Uncoordinated
//     Checkpoints", PhD thesis, Universitat Autònoma de Barcelona, July
//     2011.
//   - R. M. Corless, G. H. Gonnet, D. E. G. Hare, D. J. Jeffrey and
//     D. E. Knuth, "On the Lambert W function", Advances in Computational
//     Mathematics 5, 1996.
//   - K. Ferreira, J. Stearley, J. H. Laros III, R. Oldfield, K. Pedretti,
//     R. Brightwell, R. Riesen, P. G. Bridges and D. Arnold, "Evaluating
//     the viability of process replication reliability for exascale
//     systems", SC'11, 2011.
//   - H. Casanova, Y. Robert, F. Vivien and D. Zaidouni, "On the impact of
//     process replication on executions of large-scale parallel
//     applications with coordinated checkpointing", Future Generation
//     Computer Systems 51, 2015 (INRIA RR-7951, 2012).
//   - D. E. Knuth, The Art of Computer Programming, vol. 1, §1.2.11.3
//     (the Q function).
//   - R. P. Brent, Algorithms for Minimization without Derivatives,
//     Prentice-Hall, 1973.
//   - A. Benoit, A. Cavelan, V. Le Fèvre, Y. Robert and H. Sun, "Towards
//     optimal multi-level checkpointing", IEEE Transactions on Computers
//     66(7), 2017.
//   - S. Di, Y. Robert, F. Vivien and F. Cappello, "Toward an optimal
//     online checkpoint solution under a two-level HPC checkpoint model",
//     IEEE Transactions on Parallel and Distributed Systems 28(1), 2017.
package intervals // import "github.com/ckpt-markov/markov/intervals"
