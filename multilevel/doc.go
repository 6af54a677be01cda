// Package multilevel is the exact model of an application that
// checkpoints at several levels (node-local storage, a partner or XOR
// copy, the parallel file system: SCR, FTI, VeloC) on a fixed processor
// count a: the Plank–Thomason moldable case (N ≥ a processors that fail
// and get repaired) and the one-processor case of the SCR model; and on
// policies that change the count (greedy, pb, ab, a vector) with two
// levels, three with processor failures of any severity, or more when
// every processor failure has the top severity ("Malleable policies"
// and "Processor failures inside the period" below), and with
// reconfiguration at top-level checkpoints on one to three levels
// ("Reconfiguration at top-level checkpoints"). The specification is
// docs/model.md, section 12.
//
// # Levels, severities, patterns
//
// L levels (1 ≤ L ≤ 8), level 1 the cheapest: a level-ℓ checkpoint takes
// L_ℓ wall seconds, of which C_ℓ are overhead, and restoring one takes
// R_ℓ. A failure event has a severity s ∈ 1..L, the lowest level whose
// checkpoints survive it (a share f_s of the events); it destroys every
// checkpoint of a level below s. The pattern V = (V₁, …, V_{L−1}) puts
// V_ℓ level-ℓ checkpoints between consecutive level-(ℓ+1) ones (SCR's
// convention), so a period holds P = ∏(V_ℓ + 1) segments of I seconds of
// computation, each followed by one checkpoint, the last of level L.
//
// # The running process
//
// While the application runs, its processors fail at Λ = aλ in all. A
// segment ending with a level-c checkpoint lasts I + L_c; a failure in
// it loses the segment. After a failure of severity s the application
// recovers from the newest checkpoint of level ≥ s, paying the recovery
// cost of that checkpoint's level (R_ℓ, plus L_ℓ when it writes a
// checkpoint of the same level after the recovery). During a recovery
// from level ℓ a failure of severity below ℓ, or any failure when ℓ = L,
// restarts the recovery; one of severity exactly ℓ < L destroys the
// checkpoint being read and counts as severity ℓ + 1; a higher one is
// handled as in a segment. These are the choices of the SCR model
// (Moody et al. 2010), found by reproducing its regression results
// (TestSCRRegression).
//
// The position in the period is a sufficient state: the lower-level
// checkpoints a failure destroys are never needed again. And the period
// nests: a level-ℓ block is its body, started right after a level-ℓ
// checkpoint, wrapped in the recovery from that checkpoint; the body of
// a level-ℓ block is one level-(ℓ−1) body (protected by the block's own
// start) followed by V_{ℓ−1} level-(ℓ−1) blocks (one segment for ℓ = 1),
// and the period is the level-L block. So each part is summarised by
// (p, e_s, τ): the probability of completing, those of handing over a
// failure of severity s it does not handle, and its expected duration
// until either. In sequence,
//
//	p = p_A p_B,   e_s = e_{A,s} + p_A e_{B,s},   τ = τ_A + p_A τ_B,
//
// n copies by repeated squaring; a stretch of t seconds has p = e^{−Λt},
// e_s = (1 − e^{−Λt}) f_s, τ = (1 − e^{−Λt})/Λ. A level-ℓ block around a
// body (p, e, τ), with h = Σ_{s≤ℓ} e_s handled, and the recovery loop
// (probability ρ of returning, x_s of handing over, expected time θ,
// from one recovery attempt by the geometric series of its retries):
//
//	d = p + Σ_{s>ℓ} e_s + h(1 − ρ),
//	block = (p/d, (e_s + h x_s)/d, (τ + hθ)/d),
//
// where d, one minus the probability of starting the body again, is
// written as a sum of non-negative terms (no cancellation). The period
// costs O(L² log max V) operations, whatever the P = ∏(V_ℓ + 1) segments
// (SCR's regression has 10⁶). For the matrices over the spare count
// below (events.go, position.go) the nesting is written once (nest.go):
// each gives its segment, its block around a body, its sequence and its
// identity, and nest.go composes the bodies, blocks and powers. These
// scalars (period.go) keep the same recursion written out: they are
// composed once per count in every evaluation of a malleable policy,
// where going through nest's interface took twice the time.
//
// # Repairs and the down time
//
// The UWT is ω(a)·A with A = U/(E[T](1 + δ)): U the committed
// computation of a period, E[T] its expected running time, δ the
// expected down time per running second. Processor failures run at the
// same rates whatever the application does, so the two factors separate:
// with m = N − a spares, the spare count while the application runs is
// the birth–death chain j → j+1 at (m−j)θ, j → j−1 at (j+a)μ, with μ the
// rate at which a processor goes down (λ with one level, (1 − f₁)λ with
// several: a severity-1 failure, a process crash, takes no processor
// down), and a used processor's failure at j = 0 (rate aμ) starts a down
// period, a−1 functional processors waiting for a. So δ = aμπ₀E[D], π the
// stationary law of the spare count and E[D] the mean first passage of
// the down chain from a−1 to a. With one level this is today's moldable
// model exactly (TestOneLevelIsUWT: package uwt's exact chain to 1e-12).
//
// # Malleable policies
//
// With a policy that changes the count, a processor failure (severity
// ≥ 2, at μ per processor) is a decision, a crash is not: the
// application recovers from a crash in place. The decision chain is then
// package uwt's chain of up phases on a pool whose processors fail at μ
// (from a decision the time to the next processor failure of the a used
// processors is Exp(aμ) whatever the application does), solved once:
// its transitions and sojourns depend on neither the pattern nor I. With
// two levels a processor failure always restores the level-2 checkpoint
// that began the period, and the recovery writes a level-2 checkpoint on
// the new count, so an up phase commits whole periods: the reward of a
// decision on a processors is S·ω(a)·U·q/(1 − q), S the probability that
// its recovery (restarted by crashes) completes before a processor
// failure, U a period's useful computation and q the probability that a
// period completes before one (the nested composition with processor
// failures as a severity class no block handles). Each evaluation is a
// pass over the chain's recurrent states with one period per count they
// recover on. With three levels or more the same holds when every
// processor failure has severity L (f_s = 0 for 1 < s < L).
//
// # Processor failures inside the period
//
// With three levels and f₂ > 0 a processor failure of severity 2
// restores the newest level-2 checkpoint, inside the period, and the
// application continues the period from there on the new count. The
// decision state is then (n, k), k ∈ 0..V₂ the level-2 checkpoints
// written since the period began (position.go). The up phase's parts
// are composed jointly with the spare count: each scalar of the
// composition above becomes a matrix over the up count of the m = N − a
// processors outside the application, e^{−Λt}e^{Gt} for a stretch's
// completion and f_s∫₀ᵗΛe^{−Λu}e^{Gu}du for its exits (G the birth–death
// generator of those processors), all functions of G, so commuting, and
// the composition's formulas hold with matrix products and inverses.
// The superblocks from k to the period's end, then (I − D_P)⁻¹ for the
// later periods, give the spare law at the failure in each superblock,
// hence the next state. Work committed to a level-2 checkpoint is
// credited with the probability h that its period completes before a
// failure restores the level-3 checkpoint, h solving a linear system on
// the same chain. Processor failures below the top severity with four
// levels or more, a recovery cost by old count with f₂ > 0, no
// checkpoint after recovery, and (without reconfiguration) a top-level
// recovery cost that depends on the old count together with crashes are
// refused (docs/model.md section 12 says why).
//
// # Reconfiguration at top-level checkpoints
//
// With scenario.AtCheckpoint (one to three levels) the application
// reconfigures onto r(n')
// whenever it writes a level-L checkpoint on a (a period's end, or the
// end of a recovery from level L, after a processor failure or a crash)
// with n' functional and r(n') ∉ {0, a}, at R_L(a, r(n')) + L_L(r(n'))
// (reconf.go). The chain's states are period starts S(a, n), in-place
// recoveries from level L after a crash C(a, n), recoveries R(p, n) onto
// r(n) and down states D(p, n); each ends at a level-L checkpoint, a
// crash the top level handles, or a processor failure, and the spare
// count then decides the next state. The level-L body and the
// recoveries are summarised jointly with the spare count by the matrix
// composition above (position.go, on a three-level embedding of one or
// two levels), the sojourns and rewards by the scalar one. Each
// evaluation builds the chain on the window of functional counts and
// solves it (package markov).
//
// With three levels and f₂ > 0 (reconfpos.go) a processor failure of
// severity 2 in superblock b ≥ 1 restores the b-th level-2 checkpoint
// onto r(n') inside the period, as in the positional chain, and the
// application reconfigures at the period's next level-3 checkpoint: the
// chain gains the states Q(k, p, n) (the recovery from the k-th level-2
// checkpoint, then superblocks k..V₂; p the writer of the period's
// level-3 checkpoint when R₃ depends on it) and down states at position
// k, and the work committed to a level-2 checkpoint is credited with
// the survival h of the state after the interrupting failure (back
// substitution over the positions). Four levels or more, failure
// events of several processors, and with f₂ > 0 a level-2 recovery cost
// by old count are refused naming reconfigure.
//
// # Failure events
//
// With system.failure_events (docs/model.md sections 11 and 12) an event
// draws its severity independently of its size: severity ≥ 2 takes its
// min(K, n) processors down as package uwt's batch model does, severity
// 1 takes none and interrupts the application, recovered in place, when
// it strikes a used processor. The interruption rate then depends on the
// spare count, so on a fixed count every part of the period is composed
// as matrices over the spare count (events.go: ordered products, loops
// (I − K)⁻¹, e^{Ãt} and ∫₀ᵗe^{Ãu}du by expm.ExpIntegral once per
// evaluation and count, the segments I + L_ℓ by the semigroup property,
// from batchchain's generator; recoveries and latencies computed once in
// New), with the down periods' first passage folded into the exits, and
// weighed by the stationary spare count at a period's start.
// Under a malleable policy (two levels, or every processor failure of the
// top severity) the decision chain is uwt's batch chain of up phases
// (uwt.Model.Solve) and each up phase's reward comes from the same
// matrices, started from the spare law at the end of its recovery. With
// three levels and f₂ > 0 under a malleable policy the positional chain
// takes events (posevents.go): each stretch of an up phase is
// e^{Ãt} with the exits F·diag(b) (crashes, in place) and F·landing
// (processor-down events, by the functional count they leave),
// F = ∫₀ᵗe^{Ãu}du, from batchchain's spare chain Ã as events.go builds
// it; these matrices do not commute, and the composition keeps every
// product in its order. The down states jump by events of min(K, n)
// processors. N is bounded by MaxEventProcessors, N − a by
// MaxPositionSpares.
//
// # The joint optimum
//
// Model.Optimize maximises UWT over the interval (in ln I: a bracket from
// the optimum predicted by the first-order interval of the pattern and
// the nearest pattern searched, then scalar.MaximizeSeen through every
// evaluation of the pattern) and the integer pattern (a coordinate
// search: each entry in turn by doubling steps while UWT rises, then
// golden-section steps on the integers, scalar.MaximizeInt, from the
// first-order pattern of Benoit et al. and from V = 0, until no entry
// moves). Patterns are compared with their intervals to 1e-3 in ln I;
// the best, and every pattern whose bound could reach it, is then
// searched to OptimizeSettings.Tol. Every (V, I) is evaluated once. It
// assumes UWT unimodal in I and in each entry; an exhaustive scan agrees
// on the tested cases (TestAtlas, TestOptimizeMatchesScan). The best
// single-level schedule (V = 0, the highest level only) is reported
// beside it.
//
// References:
//
//   - A. Moody, G. Bronevetsky, K. Mohror, B. R. de Supinski, "Design,
//     Modeling, and Evaluation of a Scalable Multi-level Checkpointing
//     System", SC'10, 2010.
//   - K. Mohror, A. Moody, G. Bronevetsky, B. R. de Supinski, "Detailed
//     Modeling and Evaluation of a Scalable Multilevel Checkpointing
//     System", IEEE TPDS 25(9), 2014.
//   - A. Benoit, A. Cavelan, V. Le Fèvre, Y. Robert, H. Sun, "Towards
//     Optimal Multi-Level Checkpointing", IEEE TC 66(7), 2017.
//   - S. Di, Y. Robert, F. Vivien, F. Cappello, "Toward an Optimal Online
//     Checkpoint Solution under a Two-Level HPC Checkpoint Model", IEEE
//     TPDS 28(1), 2017.
//   - J. S. Plank, M. G. Thomason, "Processor allocation and checkpoint
//     interval selection in cluster computing systems", JPDC 61(11), 2001.
package multilevel
