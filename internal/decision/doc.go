// Package decision holds what packages uwt and optimal share about the
// decision states of the checkpoint model (docs/model.md section 4,
// docs/optimal-policy.md): the window of functional counts they keep, the
// cache of spare chains their rows come from, and the law of an up phase
// of one configuration. It is internal: neither package exports these
// pieces for the other.
//
// # Decision states and the window
//
// The application decides when it is not running: in X(p, n), n
// functional processors, the last checkpoint written on p (p is kept only
// when the recovery cost R(p, a) depends on it). Both packages keep the
// functional counts n of a window [lo, hi] outside which the stationary
// law of the functional count, Binomial(N, θ/(λ+θ)), has at most tol of
// its mass on each side, plus a margin of two processors per side
// (Window).
//
// # The up phase of a configuration
//
// Without failure events and without reconfiguration at checkpoints, a
// recovery on a processors and the up phase after it end at the first
// failure of one of the a used processors, an Exp(ρ) time, ρ = aλ,
// whatever the interval (package uwt, doc.go "Up phases"). A decision
// X(p, n) → a is then one step of a semi-Markov chain on the decision
// states, with
//
//	sojourn   τ = 1/ρ,
//	reward    w = e^{−ρ(R(p,a) + L(a))} · ω(a)(I + L(a) − C(a)) / (e^{ρT} − 1),   T = I + L(a),
//	exit      the spare count s' at the failure, row s = n − a of the
//	          resolvent ρ(ρI − G_m)⁻¹ of the spare chain (m = N − a),
//	          leading to X(·, a − 1 + s'),
//
// the failure carrying the old checkpoint p when it comes in the recovery
// (Q_T of the recovery, T = R(p, a) + L(a)) and the new one a when it
// comes in the up phase (the rest of the resolvent's row). The recovery
// survives with probability e^{−ρ(R+L)}, and the up phase then commits a
// geometric number of segments of mean 1/(e^{ρT} − 1), each of useful
// time I + L − C. Phase is that law for one configuration: its reward
// (Useful, Work, Survival), its sojourn (Sojourn) and its exit rows
// (Rows); the interval that maximises its reward (BestInterval) is
// Daly's exact optimum for the MTBF 1/ρ and the overhead C(a), shifted
// by C(a) − L(a) (package intervals, DalyOptimum). Several checkpoint
// levels change only the rewards of an up phase, not its exit law:
// package multilevel takes package uwt's chain of up phases on
// processors that go down at (1 − f₁)λ and its own rewards (the nested
// period, docs/model.md section 12); Phase stays the single level's.
//
// # Resolvent sums
//
// The bounds of package optimal's improvement need, for every
// configuration, the resolvent applied to a vector, Σ_{s'} Q_∞[s, s']·f(s')
// for every row s of the window at once. Band is the resolvent of the
// spare chain killed outside a band of spare counts, ρ(ρI − G_B)⁻¹, a
// tridiagonal M-matrix factorised without pivoting in subtraction-free
// form (each pivot is ρ plus non-negative terms, as in the GTH
// algorithm): Apply costs a few operations per state of the band, and
// Exit gives the probability of leaving the band before the clock rings,
// which bounds what the killing drops (TestBand holds Apply against the
// closed-form rows of package birthdeath and a dense LU). ApplyRows and
// ExitRows give the rows from r0 on only, with the same bits: the back
// substitution of a row reads only the rows after it, and the forward
// elimination starts at f's first non-zero entry (TestApplyRows).
//
// References:
//
//   - J. T. Daly, "A higher order estimate of the optimum checkpoint
//     interval for restart dumps", Future Generation Computer Systems
//     22(3), 2006 (the exact optimum through Lambert's W).
//   - W. K. Grassmann, M. I. Taksar, D. P. Heyman, "Regenerative analysis
//     and steady state distributions for Markov chains", Operations
//     Research 33(5), 1985 (the resolvent rows, package birthdeath).
package decision
