// Package uwt computes the useful work per unit time (UWT) of a malleable
// parallel application that checkpoints every I seconds on a pool of
// processors that fail and get repaired, and finds the interval I* that
// maximises it.
//
// # The model
//
// N processors fail at rate λ each and are repaired at rate θ each. The
// application runs up segments of I + L(a) seconds on a processors; a
// failure of a used processor loses the segment, and the application
// recovers on r(n) of the n functional processors (R(p, a) + L(a)
// seconds), or waits while r(n) = 0. The states are
//
//	U(a, s)  up on a processors with s functional spares,
//	R(p, n)  recovery with n functional, restoring a checkpoint of p,
//	D(p, n)  down with n functional,
//
// with p kept only when the recovery cost depends on it. For a used and
// m = N − a other processors, the spare count is a birth–death chain with
// generator G_m; over a segment of length T (package birthdeath)
//
//	P_T = exp(G_m T),     Q_T = ∫₀ᵀ aλ e^{−aλt} exp(G_m t) dt,
//
// and from U(a, s) the chain moves to U(a, s') with probability
// e^{−aλT} P_T[s, s'] and, on a failure, to R(a, n') or D(a, n') with
// n' = a − 1 + s' and probability Q_T[s, s']; recovery states move alike
// with T = R(p, a) + L(a), down states by one failure or one repair. With
// π the stationary distribution of this jump chain, τᵢ the expected
// sojourn and wᵢ the expected committed work of state i (package markov,
// Markov renewal–reward theorem),
//
//	UWT(I) = Σ πᵢ wᵢ / Σ πᵢ τᵢ,    τ_U = (1 − e^{−aλT})/(aλ),
//	w_U = e^{−aλT} ω(a)(I + L(a) − C(a)),    τ_D = 1/(nλ + (N − n)θ).
//
// # Reconfiguration at checkpoints
//
// With scenario.AtCheckpoint (docs/optimal-policy.md section 1) a
// checkpoint on a processors (the end of a committed up segment, or of a
// recovery) that leaves n' = a + s' functional with r(n') ∉ {0, a} leads
// to the recovery R(a, n') onto r(n') instead of U(a, s'): the column s'
// of P_T points there (skeleton.entry). Nothing else changes; without the
// option every state and row is the paper's.
//
// # Failure events
//
// With scenario.System.FailureEvents (docs/model.md, section 11) events
// at λ/E[K] per functional processor take down several processors at
// once. The up and recovery rows then come from package batchchain: P_T
// already holds the survival (which depends on the spare count), Q_T is
// indexed by the functional count just after the interruption, and τ is
// the row's own expected sojourn; dense Van Loan exponentials on the exact
// path, windowed uniformization on the fast path, whose window of
// functional counts comes from the stationary law batchchain.Functional.
// Down states move by one event (to n − min(K, n)) or one repair. Sizes
// [1] take the single-failure code, bit for bit. Without reconfiguration
// the fast path solves the chain of up phases ("Up phases", "With failure
// events" below), the exact path and reconfiguration the per-segment
// chain of this section.
//
// Without the binomial closed form the rows cost far more, and the
// stationary law of the functional count has a heavier lower tail, so the
// window holds more states. CPU time (BENCHMARKS.md, "Failure events on
// the chain of up phases"; MTTF 1 d, MTTR 1 h, QR-like costs, half the
// events of size 1 and half of size 4–16, greedy; go test ./uwt -run X
// -bench 'Batch(Evaluate|Optimize)' -benchtime 3x, cpu-ns/op; two
// workers, a shared 2-core machine): a whole interval search (New and
// Optimize, 18 evaluations) takes 0.21 s at N = 512 (166 decision
// states; one evaluation of the per-segment chain, about 14 000 states,
// took 1.9 s) and 0.55 s at N = 4096 (433 decision states; the
// per-segment chain needs 94 394 states and is refused by the default
// MaxTransitions); once built, a further interval costs 2 ms and under
// 1 ms.
//
// Only the up states' rows depend on I: the state skeleton, the recovery
// and down rows, and the spare chains' eigendecompositions are computed
// once per Model and reused for every interval. (This per-segment chain
// is the exact path's, and the fast path's with reconfiguration;
// otherwise the fast path solves the chain of up phases below, whose
// transitions do not depend on I at all.)
//
// # Exact path and fast path
//
// The exact path (Settings.Exact) builds every state of functional counts
// 0..N from full spare-chain rows (every column, the closed form of
// package birthdeath, computed for the rows the states need only, never
// as dense matrices): O(N²) states and O(N³) transitions, estimated
// before anything is built and refused beyond Settings.MaxTransitions
// (with a recovery matrix R(p, a), N = 256 needs 2.6 GB; N = 400 is
// refused by default). The default fast path uses that processor failures do not
// depend on the application: at any time the number of failed processors
// is Binomial(N, λ/(λ+θ)), so only a window of functional counts carries
// probability. It builds the states whose functional counts lie in the
// window where that law has all but Settings.Tol of its mass (plus a
// margin), computes only the spare-chain rows and columns the window
// needs, solves, and measures the stationary mass of the transitions that
// leave the window, Σ πᵢ dᵢ; while it exceeds Tol the window is widened.
// Result reports that dropped mass and the stationary residual.
//
// # Up phases
//
// Without reconfiguration, the fast path solves an equivalent, smaller
// chain (with failure events too: "With failure events" below). The used processors fail at rate
// ρ = aλ whatever the application does, so the time from the start of a
// recovery on a processors to the next failure of one of them is Exp(ρ),
// across the recovery and every committed segment after it; meanwhile
// the spare count moves as the birth–death chain G_m alone. The spare
// count at that failure, started from s, is therefore row s of the
// resolvent
//
//	Q_∞ = ∫₀^∞ ρ e^{−ρt} exp(G_m t) dt = ρ(ρI − G_m)⁻¹
//
// (birthdeath.Chain.Resolvent; it is Q_T + e^{−ρT}P_T·Q_∞ for the recovery
// of length T, the paper's rows composed), and the chain keeps the
// decision states only: R(p, n) stands for the recovery on a = r(n)
// processors and the up phase after it, to the next failure, with
//
//	τ_R = 1/ρ,    w_R = e^{−ρ(R(p,a) + L(a))} ω(a) (I + L(a) − C(a)) / (e^{ρT} − 1),
//
// T = I + L(a): the recovery survives with probability e^{−ρ(R+L)}, and
// the up phase then commits a geometric number of segments, of mean
// e^{−ρT}/(1 − e^{−ρT}). A failure in the recovery carries the old
// checkpoint p, one in the up phase the new one a; when the recovery cost
// depends on p the row is split accordingly (Q_T to R(p, ·), the rest to
// R(a, ·)). Down states are as before. Neither the transitions nor the
// sojourns depend on I, only the rewards: the chain is assembled and
// solved once per window, and each further interval costs one pass over
// the recurrent states (Result.Phases). The states drop from O(w²) up
// states to the w decision states of a window w wide, and the rows of a
// greedy policy, whose ρ is large, are a few columns wide. Its oracles:
// the exact path's chain of segments (TestFastMatchesExact, 1e-9), the
// chain built by hand from dense exponentials (TestRowOracle, 1e-12), and
// the renewal–reward sum over Inspect (TestCurveAndInspect).
//
// # With failure events
//
// Events and repairs do not depend on the checkpoints either, so the
// same chain of decision states holds with failure events, but the up
// phase no longer ends at an Exp(aλ) time independent of the spares: the
// spare count j moves by the sub-generator A of package batchchain while
// the application runs, and the interruption rate depends on j. With v
// row s of P_T of the recovery (the spare counts at its end, of mass its
// survival), the row of R(p, n) sends the recovery's Q_T to the decision
// states of p and the up phase's interruption law v·(−A)⁻¹·B to those of
// a (one law when p is not kept), with
//
//	τ_R = τ_T[s] + v·(−A)⁻¹·1,
//	w_R = ω(a)(I + L(a) − C(a))·v·Σ_{k≥1} exp(A k T)·1,  T = I + L(a):
//
// batchchain.Phase.Exit solves x·(−A) = v by censoring (sums of positive
// terms), once per window. Once the last recovery segment of a used
// count is filled, only the part of its sequence that does not depend on
// the start is kept (batchchain.SegmentsBase) and its chain and phase,
// whose rate tables of (m + 1)·K_max entries are most of the model's
// memory, are released (built again if a widened window needs them:
// TestEventPhasesReleased, bit for bit either way); the next used
// count's phase is built into the released tables (batchchain.Phase.
// Release), so that they are written into memory already touched rather
// than into fresh pages. The rewards are
// summed per used count, with
// V_a = Σ πᵢvᵢ over the recurrent states on a, by batchchain.Segments,
// whose uniformized sequence s_n = V_a·Kⁿ·1 does not depend on I (the
// interval enters through Poisson weights that the up phases of one
// uniformization rate, rounded up to the grid 2^(k/8), share). Each
// interval costs the weights and one dot product per used count, plus
// the sequence's extension when a longer segment needs more of it; the
// sum stops on a fixed ladder, so the result depends on I only
// (TestEventPhasesOrderIndependent), to 1e-14 relative or 1e-19 of
// Σ_a V_a·1, the probability per jump that an up phase starts (one
// absolute tolerance for all used counts, batchchain.Segments.
// ExpectedWithin: a phase of negligible probability stops early; the
// error of UWT is then below about 1e-19·ω_max per used count, since
// Σπτ ≥ mass/ρ_max), or to 1e-14 of 1/|used counts| of the lower bound
// Σ_a batchchain.Segments.Lower on their total (ExpectedFloor: the sum
// over the used counts is then within 2e-14 of itself, and a count whose
// segments are far below the average stops early). Once the weights are
// flat the sum closes exactly by one solve (batchchain.Segments), so
// that failures rare against the repairs (MTTF 10²⁰ s) cost a few
// products, and with few spare counts the dense path of
// batchchain.Segments (Φ(t)⁻¹·(−A)⁻¹·exp(At)·1, chosen by its cost
// rule) replaces the sequence, so that the 512-processor events scenario
// answers at MTTF 10 y to 10²⁰ s; a sum beyond
// batchchain.MaxSegmentsProducts that the dense path does not take, or a row
// beyond batchchain.MaxRowProducts, is a *scenario.Error naming
// system.mttf, and the sums and rows check the context of Evaluate
// (TestEventsExtremeMTTF: NoUsefulWork at MTTF 1 µs, the failure-free
// limit of the counts after an event at 10²⁰ s to 1e-12 plus the dense
// path's 1e-15·Λt, at I up to 10⁹ s; I = 10¹⁴ s refused). Oracles: the
// per-segment chain on the fast path (TestEventPhasesMatchSegmentChain,
// 1e-9), the chain built by hand (TestBatchRowOracle, 1e-12), the exact
// path (TestBatchFastMatchesExact, 1e-9), sizes [1] against single
// failures (TestEventPhasesSingleSize, TestBatchPathSingleSize, 1e-12)
// and the simulator (TestBatchMatchesSimulation). The one recovery
// class below does not apply: the interruptions are not a Poisson
// process.
//
// # One recovery class
//
// When every functional count of the window recovers on the same a =
// r(n) > 0 (a moldable policy on a pool much larger than its count, say),
// no chain is needed: the failures of the used processors are then a
// Poisson process of rate aλ, independent of the other processors'
// history, so by PASTA (Wolff 1982) the functional count just before a
// failure has the time-stationary law Binomial(N, θ/(λ+θ)), and the
// decision state after it the law of that count less one. Every state has
// the same rewards, so UWT = w_R/τ_R, the closed form; the probabilities
// (Inspect) and the mass outside the window (Outside) come from the
// binomial law, and Result.OneClass is set, with no transitions and no
// solve. TestOneClassMatchesChain holds it against the solved chain of up
// phases (every probability) and the exact path.
//
// # Old-count bins
//
// When the recovery cost depends on the old count p, the decision states
// are |used counts| × |window| ≈ w², the remaining exact frontier (desktop
// grid, greedy: 184k states at N = 4096, 730k and a refusal at 16384).
// Settings.OldCountBin = k > 1 (fast path only; an error with Exact)
// keeps p only up to bins of k consecutive used counts of the window
// (the start's r(N), when the window does not use it, alone): every p is
// labelled by its bin's middle count, and the bin's recovery costs
// R̄(a) = mean of R(q, a) over its counts q. (The middle count's own cost
// biases every bin of an even width by half a count, the same for bins of
// 2k, which the estimate below then cannot see: it underestimated up to
// 10⁵-fold.) The states drop about k-fold.
//
// The error is estimated a posteriori (Result.BinError, in UWT's units):
// the largest |UWT_k − UWT'| over the two models whose bins merge those of
// k in pairs (bins of 2k from the first count, and from the k-th), or,
// when the window holds fewer than 4 bins, over two models of bins of
// k/2. Each comparison model has about half the states (twice, in the
// fallback), so the estimate costs about as much as the binned model
// itself; Evaluate computes it at every interval, Optimize at I* only.
// It is absolute (relative to UWT it is BinError/UWT, which the CLI
// prints). Measured against the unbinned fast path (TestOldCountBinEstimate:
// N = 32 … 256, MTTF 8 h / 100 d / 2 d, greedy and moldable(N/4),
// R(p, a) = 17 + kp·p + 0.01·a with kp = 1 and 0.01, bins of 2, 4, 8, three
// intervals), the true error was at most 1.10 times the estimate and
// usually far below it; relative errors stayed below 4e-4 with kp = 1.
// The estimate is an empirical one, not a bound: the error comes from
// the convexity of the recovery's survival in R and the tilt of the law
// of p inside a bin, neither smooth in k when bins are as wide as the
// law of p, which is why both pairings are compared. BENCHMARKS.md
// ("Scale II: old-count bins") has the large-N figures.
//
// # Accuracy
//
// The dropped mass bounds the error of UWT relative to the stationary
// mass, and so relative to UWT while the rewards of the states left out
// are not vastly larger than those kept. That holds near I* and over the
// range users search. It fails at intervals many times the job's mean
// time between failures, where an up segment survives with probability
// like e^{−400}: UWT is then of order 1e-20 of ω or less and decided by
// astronomically rare excursions to few functional processors (whose
// segments survive far more often). The window leaves those out, and the
// exact path's stationary solve, accurate to its residual in absolute
// terms, does not resolve such tail probabilities either; both report a
// UWT that is negligible but not correct to relative precision. Example
// (package tests' QR-like costs, N = 128, MTTF 2 h, MTTR 1 h, I = 10 h):
// exact unpruned 8.0e-23, exact pruned 1.3e-18, fast 2.3e-105; at
// I* = 75 s, exact and fast, pruned or not, agree to 6e-12.
//
// Model.DroppedBound states the bound, Dropped × ω_max / UWT, for one
// result. Between these regimes, where UWT is 1e-10 to 1e-12 of ω, the
// two paths differ by up to about 1e-4 relative with the default Tol and
// Prune, within that bound, and agree once both are tightened
// (TestDroppedBoundCovers).
//
// Pruning single transitions below a threshold (the paper's way,
// Settings.Prune) is applied on both paths; it bounds the per-step loss,
// not the state space (see DefaultPrune for the experiment).
//
// Results of the per-segment chain depend slightly on the order of
// evaluations (the chain of up phases is solved once per window, so
// only a widening of its window can make them differ): each stationary
// solve of a Model starts from the previous one's distribution (a warm
// start) and is preconditioned with the ILU(0) factors of an earlier
// interval while they keep GMRES fast (markov.Settings.Preconditioner),
// so an iterative solver stops at a different point inside its
// tolerance, and a fast-path window once widened stays wide. The UWT of
// the same interval evaluated after other intervals and by a fresh Model
// differ by a few 1e-15 relative (measured over seven intervals from
// 5 min to 80 min with the tests' QR-like costs, MTTF 2 days, MTTR 4 h:
// at most 5.6e-15 for N = 64, 1.3e-14 for N = 128), far inside
// Settings.Tol; a fresh Model per evaluation gives results independent of
// order.
//
// # The interval
//
// Model.Optimize scans I on the doubling grid of the paper (from 5
// minutes), verifies the bracket around the best grid point and counts
// the local maxima of the scan, then locates the maximum on log I to a
// relative tolerance by parabolic steps through the best evaluation and
// its nearest neighbours (golden-section steps when two in a row fail to
// halve the bracket, as in Brent's method; the last steps placed so that
// both neighbours close in at once, where Brent's method closes the far
// side by golden sections), and reports the near-optimal band and the
// paper's I_model (mean of the scanned intervals within 8 % of the best
// UWT). The band's edges start from the evaluations already made: the
// nearest on either side of the level bracket each edge, and each step
// goes to the crossing of the cubic through four of them, checked by an
// evaluation. The README's search (QR, 128 processors) takes 22
// evaluations instead of 43 (12 of them the scan); the maximiser moved
// by 6e-6 relative (3571.24 s → 3571.22 s, nearer the vertex of a
// parabola fitted at ±1 % and ±2 %, 3571.20 s), inside the 1e-4
// tolerance.
//
// References:
//
//   - J. S. Plank and M. G. Thomason, "Processor allocation and checkpoint
//     interval selection in cluster computing systems", JPDC 61(11), 2001.
//   - "Determination of Checkpointing Intervals for Malleable
//     Applications" (the malleable extension of Plank & Thomason).
//   - S. M. Ross, Stochastic Processes, 2nd ed., Wiley, 1996 (renewal–reward).
//   - R. W. Wolff, "Poisson arrivals see time averages", Operations
//     Research 30(2), 1982 (PASTA).
//   - C. F. Van Loan, "Computing integrals involving the matrix
//     exponential", IEEE TAC 23(3), 1978.
package uwt
