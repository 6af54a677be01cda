// Package evaluate measures how good the model's checkpoint interval is on
// real failure traces: a trace-driven simulator of the application, and
// the model efficiency of section VI-C of the malleable checkpointing
// paper, summarised in tables like its Tables II–IV.
//
// # The trace-driven simulator
//
// Simulate replays a segment [t₀, t₀ + d) of a trace.Trace with the
// timeline of the model (docs/model.md, section 3; package sim): each node
// of the trace is one processor, up or down as the trace says, instead of
// failing and being repaired at random. The trace's outages in the segment
// become processor events for sim.Timeline through a sim.ListSource, with
// times relative to t₀:
//
//   - a node down at t₀ (in an outage, or outside its production window)
//     starts failed;
//   - an outage [a, b) is a failure at a and a repair at b; a zero-length
//     outage is a failure and its repair at the same instant, so it
//     interrupts the application if the node was in use;
//   - a node entering production inside the segment is a repair, one
//     leaving it a failure (the application loses it either way).
//
// At t₀ the application starts an up segment on r(n₀) of the n₀
// functional nodes (there is no checkpoint to restore yet). It then runs
// up segments of I + L(a) seconds that commit ω(a)(I + L(a) − C(a)) work,
// recovers after each failure of a node it uses (R(p, a) + L(a) seconds)
// on r(n) of the n functional nodes, or waits while r(n) = 0, exactly as
// sim describes. Work committed by t₀ + d counts; the segment in progress
// at t₀ + d is lost. The result holds the committed work, the time spent
// up, in recovery and down, and the number of interruptions.
//
// When r(n) < n, a rule of package sim (sim.Rule) picks the nodes:
// sim.MostReliable (the default, as in sim) takes those with the fewest
// failures in the history before t₀ plus in the segment so far,
// sim.Random draws them uniformly from a seeded stream, sim.LowestIndex
// takes the lowest indices. With exchangeable exponential
// processors the rules give the same process in law; on a real trace,
// where a few nodes fail far more often than the rest, they do not.
//
// # Model efficiency (paper, section VI-C)
//
// EvaluateSegment evaluates one segment:
//
//  1. λ̂ and θ̂ are estimated from the history before t₀
//     (trace.EstimateRates: maximum likelihood for exponential up and
//     down times pooled over the N nodes, MTTR = 1/θ̂). The MTTF given
//     to the model is 1/λ̂, or that of the nodes the rule will use (see
//     "Rates of the used nodes" below).
//  2. The scenario is N = the trace's nodes with those rates, the
//     application and the policy (a scenario.Policy). The
//     availability-based policy (AB) is resolved by scenario.Policy.Vector
//     (reschedule.AvailabilityBased) from the failure instants of
//     each node in the same history (50 random picks per count, from the
//     segment's seeded stream).
//  3. The model (package uwt, fast path) gives I*, the maximiser of UWT,
//     and the paper's I_model, the mean of the doubling-scan intervals
//     whose UWT is within 8 % of the best.
//  4. Young's interval sqrt(2δM) and Daly's higher-order interval
//     (package intervals) use the job MTBF M = 1/(a·λ̂) and the checkpoint
//     cost δ = C(a), a = r(N) being the processors the application uses
//     when all are functional.
//  5. The segment is replayed with each of these intervals and with a
//     sweep of intervals; W_best is the most work of all replays, and the
//     efficiency of an interval is W(I)/W_best.
//
// The sweep follows the paper's doubling scan, from I₀ = I*/8 by default
// (Sweep.StartFraction; Sweep.Start sets I₀ in seconds instead) up to the
// segment's duration (or Sweep.End), and refines around the best scan
// point: Levels (2) refinements of Points (16) intervals spaced evenly in
// log I between the best so far divided and multiplied by the previous
// step ratio (2 for the scan). The final step ratio is
// (4^(1/15))^(2/15) ≈ 1.0124, so the best interval is located to about
// 1.2 %.
//
// # The optimal policy
//
// A policy of kind scenario.Optimal without a vector is solved for each
// segment from the estimated rates (package optimal,
// docs/optimal-policy.md): level 2 (the best vector r* with one interval
// I*), then level 3 started from it (one interval per processor count,
// I(a), by coordinate ascent; starting from level 4, as the specification
// suggests, would cost a per-state policy iteration per segment). The
// segment runs level 3's vector, and the result differs from the other
// policies' in three places:
//
//   - Model is the replay with I(a): each up segment on a processors gets
//     the interval I(a) (sim.NewTimelineDecisions; ReplaySettings.Intervals
//     for Simulate), and Model.Interval is the stationary-weighted mean of
//     the I(a) (the Row's Interval averages it);
//   - ModelUWT is level 3's UWT;
//   - W_best is the most work of a single interval (the sweep, I* of the
//     vector, I_model, Young's and Daly's), which the I(a) replay does not
//     enter: its efficiency W(I(a))/W_best is measured against the best
//     single interval in hindsight and exceeds 1 when the per-configuration
//     intervals beat every single one.
//
// With Settings.Reconfigure = scenario.AtCheckpoint the model, the solver
// and every replay reconfigure at checkpoints; the optimal policy's up
// states then make their own choices (sim.Decisions.Reconfigure), which
// its vector need not express, in every replay of its segments.
//
// With Rates = UsedNodes the policy is solved first from the pooled
// rates; when its r(N) leaves spares, the rate of the r(N) nodes the rule
// prefers is estimated and the policy is solved again with it (its vector
// may then use another r(N); the rate is not iterated further).
//
// # Replicated applications (Volpex)
//
// An application with application.replicas = r > 1 (docs/model.md section
// 13) runs only with the policies that are moldable on a multiple of r
// processors; Run pairs it with those and skips the others (the
// unreplicated twin of the CLI replays them), and refuses it if none is
// given. Its model is package replication's exact chain for a = A/r
// logical processes, optimised on the segment's rates; its I* is also
// the paper's I_model (the chain gives no near-optimal band), and the
// model with failure events is not written for replicas (an error with
// Events.Model). The replay keeps the replicas, refills the dead ones
// from the hot spares at every checkpoint and picks hosts by the rule
// (sim.Lastval for Volpex's). Oracle: TestReplayReplicatedAgainstModel,
// the replay of synthetic exponential traces against the chain within
// the replay's 99 % interval, which excludes the chain with one replica
// and with an MTTF 5 % off.
//
// # Rates of the used nodes
//
// The model's processors are exchangeable: one λ for all N. On a trace
// whose nodes differ (a few fail far more often than the rest, as on the
// LANL systems), a rule that prefers some nodes runs the application on
// nodes whose rate is not the pooled λ̂: sim.MostReliable picks those with
// the fewest failures so far, which on synthetic traces with a
// coefficient of variation of 1–2 across nodes fail 2 to 45 times less
// often than the pool. Fed the pooled λ̂, the model (and Young's and
// Daly's formulas) then choose intervals several times too short.
//
// So when the rule prefers some nodes (sim.MostReliable, sim.LowestIndex)
// and the policy leaves spares (0 < a = r(N) < N), the MTTF given to the
// model is 1/λ_S, λ_S being the mean rate of the a nodes S the rule
// prefers when all N are functional (Settings.Rates = UsedNodes, the
// default; the result's Rates field says which estimate a segment and a
// row used):
//
//	λ_S = (1/a) Σ_{i∈S} λ̃_i,
//
// λ̃_i being node i's empirical Bayes rate from the same history
// (Marshall 1991): with k_i failures in T_i seconds up and the pooled
// μ = λ̂ = Σk/ΣT, the spread of the true rates across nodes is estimated
// by moments as v = Σ T_i (k_i/T_i − μ)²/ΣT − μ/T̄ (T̄ the mean T_i),
// and λ̃_i = μ + w_i (k_i/T_i − μ) with w_i = v/(v + μ/T_i) (λ̃_i = μ
// when v ≤ 0). The raw rate Σ_S k/Σ_S T of nodes chosen for their few
// failures would be biased low (by 19–43 % on the synthetic traces of
// the tests); the shrunk rates are the posterior means under a gamma
// prior fitted to the nodes, which selection does not bias. The model's
// spares then fail at λ_S too (their failures matter only through the
// count n), and θ̂ stays pooled. The sim.Random rule uses nodes
// uniformly, so its rate is the pooled one; so is the greedy policy's,
// which uses every node.
// Settings.Rates = AllNodes restores the paper's pooled estimate.
//
// Run draws segments for every system, evaluates every (system,
// application, policy, segment) in a worker pool and summarises each
// combination in a Row: the processors, the mean estimated MTTF and MTTR,
// the efficiency of I* (mean, standard deviation, minimum, maximum), of
// I_model and of Young's and Daly's intervals, the mean I* and best
// interval, the UWT the model predicts and the UWT replayed (work /
// duration) with I* and with the best interval, and the segment count.
//
// # Failure events and the model's assumptions
//
// The model assumes exponential up times and failures of one node at a
// time. For every segment, trace.EstimateEvents checks both on the same
// history (Settings.Events sets its coincidence tolerance and the clock
// tick of the log, by default the trace's own trace.Trace.ClockTick); the
// result's Assumptions holds the estimate and its verdicts, a Row counts
// the segments whose history contradicts each assumption (Rejected), and
// carries the estimate of the whole trace of its system (Assumptions,
// whose Summary is the one-line verdict that markov trace stats prints).
//
// With Settings.Events.Model, each segment is also evaluated with the
// model with failure events (docs/model.md, section 11): when its history
// shows grouped failures (SingleFailures Contradicted: failures sharing an
// Event label, as the LANL "Same Event" column records, or more equal
// start times than chance gives), the scenario gets the size law of the
// history's events, P(K = k) = the fraction of the events that took down
// k nodes, at the same failure rate per node as the single-failure model
// (so the rates of the used nodes carry over, and the two models differ by
// the grouping only). The model (uwt, fast path with window bound
// Events.Tol, DefaultEventsTol) gives its maximiser, which is replayed as
// a fifth interval; W_best takes it into account. A history without
// grouped failures leaves the model as it is: the same I*, replayed again.
// Young's and Daly's intervals keep the failure MTBF M = 1/(a·λ̂): they
// count every node failure as an interruption, as the single-failure
// model does.
//
// The events model costs one more solve per segment with grouped
// failures, a few seconds of CPU at 128 nodes (see DefaultEventsTol), so
// it is off by default.
//
// # Choices where the paper is silent
//
//   - Segments. The paper draws "a random start time and random duration"
//     without saying how. Here the duration is uniform in [MinDuration,
//     MaxDuration] (default 7 to 60 days; the paper's Figure 5 replays 80
//     days, and its Figure 6(b) shows efficiency growing with the
//     duration) and the start uniform in [begin + MinHistory, end − d]
//     (default 30 days of history), [begin, end) being the trace's window.
//     A segment whose history holds too few events to estimate the rates
//     is drawn again.
//   - Common segments. All applications and policies of a system use the
//     same segments (and node subsets), so that their rows differ by the
//     application and policy only.
//   - History. All of the trace before t₀ by default (the paper: "the
//     history of failures that occurred on the processors before t₀");
//     Settings.Estimate.Lookback limits it.
//   - Processor count. The benchmark applications of package bench are
//     described for at most 512 processors, and LANL systems 18 and 19
//     have 1024 nodes. The paper evaluates 64 and 128 processors on its
//     128-node system-1 and 256 and 512 on its 512-node system-2 without
//     saying which nodes; here each system runs on its own
//     N = min(nodes, 512) by default (Settings.Processors sets one N for
//     all), and on a larger system each segment runs on its own N nodes
//     drawn uniformly at random (RandomSubset; FirstNodes takes nodes
//     0 … N−1). The other nodes are ignored: they are neither used nor
//     spares, and neither their failures nor their history enter the
//     estimate.
//   - Systems that cannot be evaluated. A system whose trace is shorter
//     than MinHistory plus MaxDuration, or whose history holds too few
//     events for the estimate in every one of 1000 draws, gets one row
//     with Status NotEvaluated and the reason; Run evaluates the others
//     and returns no error (the CLI prints the table and exits with
//     status 1).
//   - The model's interval. The paper replays I_model; the toolkit's model
//     also gives the exact maximiser I*, which is the primary interval
//     here. Both are reported.
//   - The sweep. The paper doubles the interval until the work falls and
//     then binary-searches among the three best. The work of one segment
//     is not unimodal in I (it jumps whenever a failure moves from one up
//     segment to the next), so the whole doubling scan up to I = d is
//     replayed before refining. W_best also takes the four chosen
//     intervals into account, so efficiencies never exceed 1: when the
//     model's interval beats every swept interval, it is the best found.
//   - No work at all. When no interval commits any work in a segment
//     (W_best = 0: failures far more frequent than a checkpoint can
//     complete), efficiency means nothing: it is NaN
//     (SegmentResult.NoWork), such segments are left out of a row's
//     efficiency statistics and counted in Row.NoWork, and a row with no
//     useful work in any segment has NaN efficiencies. (Counting 0/0 as
//     1 reported 100 % efficiency on a trace with an MTTF of 1 s.)
//   - Rule. MostReliable by default: deterministic, so that the work as a
//     function of I carries no noise from random choices, and what a
//     scheduler that keeps failure counts would do. Random restarts its
//     stream from the same seed for every interval of a segment (common
//     random numbers).
//   - AB's normalisation. reschedule.AvailabilityBased minimises failures
//     per unit of work, F(a)/ω(a) (docs/model.md, section 9). Since F(a)
//     grows about linearly with a on the LANL traces while ω(a) grows
//     sub-linearly, this policy runs the benchmarks on very few
//     processors; see the package reschedule for the choice.
//
// # Multi-level checkpointing
//
// EvaluateLevels and RunLevels evaluate a multi-level application
// (application.checkpoint_levels, docs/model.md section 12) on the same
// segments: for each, the rates of its history, the severity shares of its
// history's events (trace.EstimateSeverity with Levels.Map) unless
// Levels.Shares gives them, package multilevel's joint optimum of pattern
// and interval and its best single-level schedule (the top level alone);
// both are replayed with each failure's severity from the trace
// (trace.FailureSeverities, the same mapping and grouping), and the
// result is the replayed work per second of each and the gain
// UWT / SingleUWT − 1. The optimal policy is refused.
//
// # Reproducibility
//
// Segment k of system s takes its stream from SplitMix64 of Settings.Seed
// xor the FNV-1a hash of the trace's content (every node's window and
// outages, as trace.New normalises them), plus k; its start, duration and
// subset, the Random rule and AB's picks use separate PCG streams of that
// seed. Every evaluation is a function of its inputs alone, so a table
// depends on Settings.Seed and the traces, and not on Settings.Workers or
// the systems' names: the same trace under another name (another file
// name in the CLI) gives the same rows.
//
// # References
//
//   - "Determination of Checkpointing Intervals for Malleable
//     Applications", section VI (the malleable extension of Plank &
//     Thomason; its references end in 2007): the trace-driven simulator,
//     the model efficiency and Tables II–IV.
//   - J. S. Plank and M. G. Thomason, "Processor allocation and checkpoint
//     interval selection in cluster computing systems", Journal of
//     Parallel and Distributed Computing 61(11), 2001.
//   - R. J. Marshall, "Mapping disease and mortality rates using
//     empirical Bayes estimators", Journal of the Royal Statistical
//     Society C (Applied Statistics) 40(2), 1991 (the per-node rates).
//   - J. W. Young, "A first order approximation to the optimum checkpoint
//     interval", Communications of the ACM 17(9), 1974.
//   - J. T. Daly, "A higher order estimate of the optimum checkpoint
//     interval for restart dumps", Future Generation Computer Systems
//     22(3), 2006.
//   - Los Alamos National Laboratory, "Operational Data to Support and
//     Enable Computer Science Research", LA-UR-05-7318, 2005 (the failure
//     data).
//   - G. L. Steele, D. Lea and C. H. Flood, "Fast splittable pseudorandom
//     number generators", OOPSLA 2014 (SplitMix64).
package evaluate
