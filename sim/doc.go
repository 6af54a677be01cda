// Package sim is a Monte Carlo simulator of the checkpointed malleable
// application of the toolkit's model (docs/model.md, section 3), used to
// validate the exact Markov model of package uwt and, with a trace as
// event source, to replay real failure logs.
//
// # The process
//
// N processors fail and are repaired independently: each functional one
// (used or idle spare) fails at rate λ = 1/MTTF, each failed one is
// repaired at rate θ = 1/MTTR (unlimited repair capacity). With the
// checkpoint interval I, the work rate ω(a), checkpoint latency L(a),
// overhead C(a) ≤ L(a), recovery cost R(p, a) and rescheduling vector r(n)
// of a scenario.Scenario, the application goes through
//
//	up segment on a:   T_U(a) = I + L(a) seconds; if none of the a
//	                   processors fails in it, it commits
//	                   ω(a)·(I + L(a) − C(a)) work and the next up segment
//	                   starts on the same a processors
//	failure of a used  everything since the last commit is lost; with n
//	processor:         functional processors left, recover on r(n) of them,
//	                   or go down if r(n) = 0
//	recovery on a:     T_R = R(p, a) + L(a) seconds, p the count the
//	                   checkpoint was written on (unchanged if the recovery
//	                   itself is interrupted); no work is committed; then up
//	                   segments on the same a processors (p becomes a)
//	down:              wait until the functional count reaches n' with
//	                   r(n') > 0, then recover on r(n')
//
// With failure events (scenario field system.failure_events,
// docs/model.md section 11) Run draws the processors from a Batch source
// instead: events at rate λ/E[K] per functional processor take down
// min(K, n) distinct functional processors at one instant (one
// interruption if any of them is used).
//
// A failure of an idle spare only changes the spare count; repaired
// processors wait as spares until the next failure of a used one. Events at
// the very end of a segment happen after it (the segment commits first);
// events at one instant are all applied before the application reacts, and
// count as one interruption. The run starts at time 0 with an up segment
// on r(n₀) of the n₀ functional processors (n₀ = N for Exponential); if
// r(n₀) = 0 it waits and then starts an up segment, there being nothing to
// restore.
//
// # Replication (Volpex)
//
// With application.replicas = r > 1 (seeds 000 and 002: Volpex) the
// vector value r(n) is read as a number of processors: the application
// runs a = ⌊r(n)/r⌋ logical processes (down if a = 0), each as r replicas
// on distinct processors, and ω, L, C and R are taken at the logical count
// a. A failure of a used processor interrupts the application only when it
// kills the last live replica of its process; otherwise the process runs
// on. At every checkpoint (a commit or the end of a recovery) the dead
// replicas are replaced from the hot spares, the functional unused
// processors (the Rule picks them), starting from the checkpoint just
// written, at no cost (Rahman et al., section IV, assumptions 1 and 2);
// while spares are lacking they go one at a time to a process with the
// fewest live replicas, and the others run on with fewer. A recovery
// restarts every process with r replicas. Totals.Failures counts
// interruptions only. Replication supports neither Settings.Intervals /
// Decisions nor scenario.AtCheckpoint (an error). With spares always at
// hand the run is a renewal process whose segments survive with
// probability (1 − (1 − e^{−λT})^r)^a, the Volpex model of package
// intervals; the tests compare with that closed form, and, with segments
// far longer than the mean time to interruption, with the MTTI of
// intervals.Replication (no replacement before the interruption).
//
// With scenario.AtCheckpoint (Scenario.Reconfigure) the application also
// changes its processor count at checkpoints: when a commit, or the end of
// a recovery, leaves n functional with r(n) ∉ {0, a}, a recovery onto r(n)
// from the checkpoint just written on a starts (R(a, r(n)) + L(r(n))
// seconds) instead of the next up segment (docs/optimal-policy.md
// section 1).
//
// Which r(n) of the n functional processors are used is decided by a Rule:
// MostReliable (fewest failures so far; the default, here and in the trace
// replays of package evaluate), Random (uniform, from the run's seeded
// stream), LowestIndex, or Lastval (Volpex's host selection: the
// processors most available over the last hour, a RecentRule for which the
// timeline keeps each processor's recent down periods; Nguyen et al.,
// seed 002). With exponential processors they are exchangeable and
// memoryless, so every rule gives the same process in law; for a trace
// the rule matters.
//
// # Engine
//
// A Timeline is the application state machine; it consumes processor
// failures and repairs from a Source, in time order. Exponential draws them
// for a pool of identical exponential processors (one exponential draw for
// the next event of the pool, rate nλ + (N − n)θ with n functional, then
// which processor: the same law as one clock per processor, at a cost
// independent of N); Renewal draws up and repair times of any law.Law
// by inversion (gonum's distuv Weibull, LogNormal, Exponential…),
// one renewal process per processor, so that the model's error under
// non-exponential times can be measured; ListSource replays a fixed list,
// such as a failure trace. A Timeline can be advanced in steps, and the steps do not change
// the trajectory or the sums.
//
// # Estimator
//
// Run simulates R independent replications (default 32) of equal horizon
// H, each from the start state, with its own PCG streams derived from
// Settings.Seed and the replication index by SplitMix64, so that results
// are bit-identical for any number of workers. Replication k yields
// UWT_k = W_k/H, W_k the work committed by time H (segments that commit at
// or before H; the part of a segment in progress at H is not counted), and
// likewise the availability A_k = Σ(I + L − C)/H over its commits and the
// mean functional fraction of the processors. The estimate is the mean of
// the R values with the Student-t interval
//
//	mean ± t_{R−1, (1+γ)/2} · s/√R
//
// at confidence γ (Settings.Confidence, default 0.99), s the sample
// standard deviation. Since every replication has the same horizon, the
// mean of UWT_k is also Σ W_k / Σ H.
//
// Run works in stages: it runs every replication to the first horizon,
// and while the half-width exceeds Settings.RelTol times the mean it
// extends every replication (continuing its trajectory) to a longer
// horizon, chosen from the 1/√H shrinkage of the half-width. The estimate
// is biased by O(1/H) through the start state and the uncommitted segment
// at H (at most about one segment length over H, relative), far below the
// interval width once H holds thousands of segments.
//
// The interval is honest only if the run holds enough of the rare episodes
// that move a replication's UWT far from the mean (a failure while a spare
// is in repair can leave a greedy application on fewer processors for
// weeks): a Student-t interval over replications that mostly miss them is
// too narrow and lies above the model. The default first horizon therefore
// makes the replications expect MinInterruptions = 3·10⁵ interruptions
// together (within 10⁶ segments a replication); both the first horizon
// and the default MaxHorizon are bounded by the time in which a
// replication expects MaxSteps events, so that an absurd interval (10³⁰⁰ s)
// ends in seconds, and a given Horizon by MaxHorizonSeconds (a thousand
// years). The replications look at the context every few thousand
// events, so a cancelled run stops within milliseconds whatever the
// horizon. A run in which nothing commits ends with status NoCommits,
// never Converged.
//
// # Several checkpoint levels
//
// With application.checkpoint_levels (or without the checkpoint after
// recovery) the timeline follows docs/model.md section 12: the position
// in the period is kept as mixed-radix digits, the work committed since
// the newest checkpoint of each level or higher is taken back when a
// failure rolls back before it, a failure that takes a used processor
// down draws its severity s ≥ 2 in proportion to the shares, used
// processors also crash (severity 1, nothing taken down) at f₁λ each,
// and the exponential source takes processors down at (1 − f₁)λ. The
// recovery from a level-ℓ checkpoint restarts on a lower severity,
// escalates on severity ℓ. With scenario.AtCheckpoint the application
// reconfigures at top-level checkpoints only (a period's start: the end
// of a period, or of a recovery from the top level), at the top level's
// costs (docs/model.md section 12). A recovery from the top level is
// priced from the count that wrote the newest top-level checkpoint (a
// severity-2 failure with three levels can move the application onto
// another count inside the period). With failure events (system.failure_events)
// the batch source takes processors down in events at (1 − f₁) of the
// event rate, each interrupting with severity s ≥ 2 drawn once per
// event, and crash events (severity 1) strike the pool at f₁ of it: a
// crash event draws its size K and interrupts the application, in place,
// when one of the min(K, n) functional processors it strikes is used
// (drawn by thinning a clock of rate f₁·N·λ/E[K]). Per-state decisions
// are refused with several levels. On a SeveritySource (NewSeverityListSource, a
// trace replay) each failure's severity comes with its event instead:
// nothing is drawn and no crash clock runs; a severity-1 failure whose
// processors are all functional again at its instant (a zero-length
// outage) is a crash, recovered in place, and one whose processor stays
// down is a failure like the others (docs/model.md section 12, "On a
// failure log").
//
// # References
//
//   - J. S. Plank, M. G. Thomason, "Processor allocation and checkpoint
//     interval selection in cluster computing systems", Journal of
//     Parallel and Distributed Computing 61(11), 2001.
//   - "Determination of Checkpointing Intervals for Malleable
//     Applications", the malleable extension of Plank & Thomason and the
//     toolkit's source paper (its references end in 2007; text in
//     shared/seeds/001_f07d2e037eb83f24.txt). Its section VI describes the
//     trace-driven simulator this package generalises.
//   - A. M. Law, "Simulation Modeling and Analysis", McGraw-Hill, 5th ed.
//     2015, output data analysis: independent replications and Student-t
//     intervals for steady-state means.
package sim
