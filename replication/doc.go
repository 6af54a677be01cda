// Package replication is the Markov model of a checkpointed application
// whose logical processes are replicated (Volpex; issue 25): a fixed count
// of a processes, each run as r replicas on distinct processors of a pool
// of N, and its useful work per second UWT(I) and optimal interval.
//
// # The process
//
// Processors fail at rate λ = 1/MTTF while functional (used or spare)
// and are repaired at rate θ = 1/MTTR (unlimited repair capacity), as in
// the toolkit's model (docs/model.md, section 3). The application needs
// a·r functional processors. An up segment of I + L seconds commits ω·(I +
// L − C) work, ω = ω(a), L = L(a), C = C(a); a recovery lasts R + L
// seconds, R = R(a, a), and restarts every process with r replicas. A
// failure of a used processor interrupts the application (everything
// since the last commit is lost) only when it kills the last live replica
// of its process. At the end of every segment (a commit or the end of a
// recovery) the dead replicas are replaced from the functional spares,
// one at a time to a process with the fewest live replicas, at no cost
// (Volpex's hot spares, seeds 000 and 002; Rahman et al., section IV,
// assumptions 1 and 2). After an interruption leaving n' functional, the
// recovery starts at once if n' ≥ a·r, else when the pool first holds
// a·r functional processors. This is package sim's process with
// application.replicas = r and the moldable policy on a·r processors.
//
// # The chain
//
// Within a segment the state is the profile c = (c_1, …, c_r), c_k the
// number of processes with k live replicas (Σ c_k = a), and the number s
// of functional spares; the failed count is N − Σ k·c_k − s. Its generator
// Q has the rates
//
//	c → c − e_k + e_{k−1}   k·c_k·λ   (k ≥ 2: a replica dies)
//	interruption            c_1·λ     (the last replica of a process dies)
//	s → s − 1               s·λ
//	s → s + 1               (N − Σ k·c_k − s)·θ
//
// For a segment of length t from state x: e^{Qt} gives where it ends
// uninterrupted, ∫₀ᵗ e^{Qu}·B du the probability of an interruption
// leaving n' functional (B the rates into interruptions, by n'), and
// ∫₀ᵗ e^{Qu}·1 du the expected time spent (package expm: Exp and
// Integral). The embedded chain at segment starts has the up epochs
// U(x), x after a refill, and the recovery epochs V(s), full profile with
// s spares; a down period, a birth–death passage from n' to a·r
// functional processors (mean Σ_{k=n'}^{a·r−1} t_k, t_k = 1/b_k +
// (d_k/b_k)·t_{k−1}, b_k = (N − k)θ, d_k = kλ), is added to the time of
// the epoch it follows. With π its stationary distribution (dense LU), w
// the committed work and τ the expected time of each epoch,
//
//	UWT(I) = Σ π w / Σ π τ.
//
// The model is exact: no state is truncated. Its size is Σ over profiles
// of (N − Σ k·c_k + 1) states, C(a + r − 1, r − 1) profiles; MaxStates
// bounds it, and with it the O(S³) cost of the exponentials. Optimize
// maximises UWT(I) over ln I by Brent's method (internal/scalar), from a
// Young-like start; UWT(I) is assumed unimodal, as in package uwt.
//
// # The joint search
//
// Best maximises jointly over (a, r, I) and reports the best pair with r
// = 1 beside (Choice.Single). Every pair obeys the bound (Model.Bound)
//
//	UWT(I) ≤ ω(a)·P(F ≥ a),   F ~ Binomial(N, MTTF/(MTTF + MTTR)),
//
// since the functional count F evolves independently of the application
// and an up segment, the only time work is committed (at most ω(a) per
// second), needs a live replica of each of the a processes. Best visits
// the pairs in decreasing order of the bound and prunes those below the
// best UWT found; it solves the pairs with r = 1 with package uwt (the
// same model on functional counts, whose cost grows about linearly in
// N) and those with r > 1 with this chain (skipped and counted above
// MaxStates). The answer is the exhaustive search's. Beyond MaxPairs
// pairs, or MaxWork of estimated work, Best returns a *WorkError. Optimize
// builds the state space, the generator, the recovery segment and the
// down times once; each evaluation then costs one exponential and one
// integral of the up segment and one stationary solve.
//
// # Checks
//
// With r = 1 the chain is the toolkit's model of a moldable application
// on a processors, and the tests reproduce package uwt's UWT to 1e−9 (a
// different chain, on functional counts). For r > 1 the tests compare
// with package sim's replicated runs within their 99.9 % interval on four
// scenarios with few spares and slow repairs, and check that the interval
// excludes the model with an MTTF 5 % off and with one replica fewer.
// Best with r = 1 finds the count and UWT that package uwt's optimiser
// finds count by count; Best with pruning chooses the pairs of the
// exhaustive search that solves every pair, r = 1 included, with this
// chain; the chain never exceeds Bound, on volatile pools where the
// wrong bound ω(a)·P(F ≥ a·r) would be exceeded.
//
// # References
//
//   - M. T. Rahman, H. Nguyen, J. Subhlok and G. Pandurangan,
//     "Checkpointing to minimize completion time for inter-dependent
//     parallel processes on volunteer grids" (seed 000).
//   - H. Nguyen, E. Pedamallu, J. Subhlok, E. Gabriel, Q. Wang, M. S.
//     Cheung and D. Anderson, "An execution environment for robust
//     parallel computing on volunteer PC grids" (seed 002).
//   - J. S. Plank and M. G. Thomason, "Processor allocation and
//     checkpoint interval selection in cluster computing systems",
//     Journal of Parallel and Distributed Computing 61(11), 2001 (the
//     embedded-chain method).
package replication // import "github.com/ckpt-markov/markov/replication"
