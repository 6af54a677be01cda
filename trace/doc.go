// Package trace holds real failure traces: which processor was down when,
// readers for the LANL failure logs and for a simple generic format, and
// the estimation of the failure rate λ and the repair rate θ of the model
// from the history before a given time.
//
// # Traces
//
// A Trace is a set of nodes, each treated as one processor of the model.
// Node i has a production window [Start, End) and a sorted list of outages
// [a, b); it is up inside its window and outside its outages. Times are
// float64 seconds since the Unix epoch, 1970-01-01T00:00:00Z (true UTC
// instants; the LANL reader converts local times). Outages of one node are
// clipped to its window, and overlapping or touching outages are merged
// into their union (New states the exact rules). The events of a node are
// the changes of its state strictly inside its window: a failure at the
// start of an outage, a repair at its end. A zero-length outage is a
// failure repaired within the resolution of the log: one failure event,
// after which the node is up.
//
// # The LANL failure log
//
// ReadLANL and ReadLANLSystems read the CSV release of Los Alamos National
// Laboratory (one row per node outage), the full public release of 22
// systems or any part of it, plain or gzip-compressed (both readers detect
// gzip by its magic number and decompress transparently). Columns are
// found by name in the header (case and surrounding spaces ignored); the
// reader uses System, nodes, nodenumz, node prod, node decom, Prob Started,
// Prob Fixed and, when present, Same Event, and ignores the others (in
// particular node install, and Down Time, which it recomputes from the two
// times). Rows need not be sorted. Errors are *ParseError values that name
// the line and the column. LANLSettings.Systems reads only the systems
// asked for: a row of another system is checked for its System column
// only, so that it cannot stop the file.
//
//   - Nodes. A system has the node count of its nodes column (which must be
//     the same on all its rows); its trace has that many nodes, indexed by
//     nodenumz (zero-based; nodenum is ignored: in the release it is
//     nodenumz plus a per-system offset, except on one row of system 18).
//     A node without rows exists and never fails. A row whose nodenumz is
//     not below nodes cannot be placed: it is skipped and listed in
//     LANLSystem.Skipped (system 11 of the release has one, node 578 of 256).
//   - No node data. A row whose nodes column is empty gives no node data;
//     its nodenumz, node prod and node decom must be empty too. System 17
//     of the full release has only such rows (126, every descriptor
//     column from machine type to purpose empty; only the times, the down
//     time and the cause filled): it is read as a system with
//     LANLSystem.NoNodeData set and no trace, its times count towards the
//     end of the observation, and ReadLANL refuses it (ErrNoNodeData). A
//     system mixing rows with and without node data is an error.
//   - Node types. A system may list more than one node type (procsinnode):
//     in the release these are nodes of different size or role that
//     entered or left production at different times (system 2: node 0 is
//     an 80-processor front end in production from June 2005, nodes 1–48
//     have 128 processors; system 23: node 0 has 32 processors). Each node
//     is one processor of the model whatever its type, with its own window.
//   - Production window. It opens at the first instant of the node prod
//     month and closes at the first instant of the month after the node
//     decom month (the node is in use during that month), or, for
//     "current", at the end of the observation. It is cut at the end of the
//     observation, which by default is the latest Prob Started or Prob Fixed
//     of the whole input (LANLSettings.End overrides it): the release's last
//     record is 2005-09-09, and a log in which systems with several failures
//     a day show none afterwards has ended there. All rows of a node must
//     give the same months. A node without rows takes the window of the
//     nearest node number with rows (the lower one on a tie): system 8 has
//     nodes 0–79 in production from April 2001 and 83–163 from December
//     2002, 45 nodes without rows among them.
//   - Months are written Mon-YY (Nov-96: November 1996; YY < 70 means 20YY)
//     or Y-Mon (1-Dec: December 2001, Y being the last digit of a 200x year).
//   - "before tracking" (any case, words separated by spaces) in node prod
//     means the node was in production before the log starts: its window
//     opens at the start of its system's log, the first instant of the
//     month of the system's earliest Prob Started (LANLSystem.LogStart;
//     LANLSystem.BeforeTracking counts such nodes). The full release writes
//     it for some systems in node install and node prod; node install is
//     not read, and node decom must be a month or "current". Any other
//     value of a date column is an error naming its line and column.
//   - Times are M/D/YYYY H:MM, US Mountain local time (Los Alamos), with
//     daylight saving time. The Down Time column of the release is the
//     elapsed minutes across daylight saving changes, which confirms this
//     reading; a wall-clock time that occurs twice or never is read as
//     standard time (UTC−7), which is what Down Time implies for the two
//     ambiguous times in the release.
//   - Outages. Each row is the outage [Prob Started, Prob Fixed). Prob Fixed
//     before Prob Started is an error. An empty Prob Fixed is an outage
//     still open: the node stays down to the end of its window (no repair
//     event). An outage reaching outside the window is clipped to it; one
//     entirely outside is skipped and listed in LANLSystem.Skipped.
//     Several rows of one node that overlap or touch, repeated rows
//     included, become one outage: in the toolkit's copy of the release
//     (21,568 rows), the 21,567 rows that can be placed give 21,299 outages
//     (26 rows repeat another row exactly).
//     The 90 rows with equal start and fix times are zero-length outages.
//   - Same Event ("Yes", "No" or empty) marks a row that repeats an event
//     already recorded. Such a row still describes a node that was down, so
//     it is kept like any other: a repeat on the same node merges away with
//     the row it repeats, and the same event on another node is an outage of
//     that node (each node is a processor of the model). The count is in
//     LANLSystem.SameEvent. The grouping is kept in Interval.Event: a Yes
//     row shares a label with the event it repeats, taken as the latest No
//     row of its system that started at or before it (the earliest line on
//     a tie); rows of groups without a Yes row have no label. Every row of
//     the toolkit's copy (systems 2, 8–11, 13, 16, 18–20, 23) says "No";
//     their grouping shows only in coincident Prob Started times.
//
// # The generic format
//
// A text format for other logs, read by ReadGeneric and written by
// WriteGeneric (exact round trip):
//
//	# nodes=3 start=0 end=864000
//	# node=2 start=86400 end=864000
//	node,down_start,down_end
//	0,1000,1600
//	2,90000,90000.5
//
// Times are decimal seconds (any float syntax of strconv.ParseFloat,
// finite), in whatever epoch the user chooses. A leading byte order mark,
// carriage returns, surrounding spaces and blank lines are ignored. Lines
// starting with # are comments, except two directives whose first word
// starts with "nodes=" or "node=":
//
//   - "# nodes=N start=S end=E" (keys in any order, each once) is required,
//     once, before any outage: N nodes numbered 0..N−1, all in production
//     on [S, E).
//   - "# node=I start=S end=E" (optional, at most once per node, after the
//     nodes line) gives node I its own window.
//
// Every other line is an outage "node,down_start,down_end" with
// down_start <= down_end, optionally followed by ",event": a non-negative
// integer label (Interval.Event; empty or 0 for none) shared by the
// outages of one grouped failure event. The line
// "node,down_start,down_end" (or with ",event") may appear once before the
// first outage. Outages may come in any order and are clipped and merged as
// in New. WriteGeneric writes the event column only for a trace with
// labels. Gzip input is decompressed transparently.
//
// # Estimating λ and θ
//
// EstimateRates looks at the history [From, To): To = t0 (cut at the end of
// the trace) and From = the start of the trace, or t0 − Lookback. Each node
// contributes the part of that history inside its window. Up and down
// times of a node are taken as exponential with rates λ and θ, the same for
// all nodes, as in the model. For such a two-state process watched on a
// fixed window, the likelihood is
//
//	L(λ, θ) = λ^n · exp(−λ·U) · θ^m · exp(−θ·D)
//
// where U and D are the total up and down time inside the history (all
// nodes), n the number of failures and m the number of repairs that occur
// strictly inside it. Its maximum is at
//
//	λ̂ = n / U,    θ̂ = m / D.
//
// An up or down period cut by the history window (for instance an outage
// still open at t0, or one that began before From) counts its time inside
// the window in U or D, and counts as an event only if its end (its start,
// for a failure) lies inside. By memorylessness this is the exact
// likelihood of the censored observation, not an approximation; dropping
// censored time would bias the rates upwards. A zero-length outage adds a
// failure and a repair and no down time. MTTF = 1/λ̂ and MTTR = 1/θ̂ per
// node.
//
// Confidence intervals. Taking the exposure as fixed and the count as
// random, each count is Poisson with mean λ·U (or θ·D); this is exact for a
// time-truncated test and an approximation here, where U and D are random
// too. The exact Poisson (Garwood) interval at level 1−α is
//
//	λ_low = χ²_{α/2}(2n) / (2U),    λ_high = χ²_{1−α/2}(2n+2) / (2U),
//
// with χ²_p(k) the p-quantile of the chi-square law with k degrees of
// freedom (gonum stat/distuv). It is the time-truncated form of the pivot
// 2nλ/λ̂ ~ χ²(2n) of failure-truncated exponential samples; for Poisson
// counts it never covers less than its nominal level (the tests measure its
// coverage on simulated traces). With fewer than MinFailures failures
// or MinRepairs repairs (default 1 each) EstimateRates fails with
// ErrTooFewEvents.
//
// # Failure events and the law of up times
//
// The model lets every node fail on its own, after exponential up times.
// EstimateEvents checks both assumptions on the same history as
// EstimateRates.
//
// Events. A failure of a node (an outage starting strictly inside its
// window and inside the history) belongs to one event with every failure
// that has the same Event label, and with the failures that start at most
// EventSettings.Tolerance after the first failure of its time cluster
// (clusters are anchored at their first failure, so a steady stream of
// failures does not chain into one event). The number of failures of an
// event is its size. With E events and U the total node up time of the
// history, the event rate per functional node is E/U (the rate of a batch
// failure model in which each functional node starts events), the system
// event rate E/(To − From); both get the Garwood interval above. Each
// size's share of the events, and the share of events of two nodes or
// more, get the exact binomial (Clopper–Pearson) interval,
//
//	[B_{α/2}(x, n−x+1), B_{1−α/2}(x+1, n−x)],
//
// B_p(a, b) the p-quantile of the beta law; the mean size a normal
// interval. Equal times can be chance: with r = failures/(To − From) and
// w = Tolerance + max(Resolution, the spacing of float64 values at the
// latest failure time), each failure joins the previous cluster by chance
// with probability at most p0 = 1 − e^{−r·w} under independent failures
// at a constant rate, so the number of coincidences is compared with
// Binomial(failures − 1, p0) (a one-sided, conservative test; bursts of
// failures at a varying rate also reject it, which is the model's concern
// too). Resolution is the log's clock tick (Trace.ClockTick finds it from
// the times: an hour, a minute, a second or 10⁻¹ … 10⁻⁶ s); the float64
// spacing is the finest tick any trace has, so that the p-value is never
// 0 merely because two times are stored equal. One coincidence among
// 46,527 independent failures logged to the millisecond over 830 days
// has p ≈ 0.03. SingleFailures is Contradicted when a labelled group
// exists or the test rejects at 1 − Level, and more than
// MaterialGroupedShare of the failures belong to grouped events.
//
// Up times. Each up period that starts inside the history at a known age
// zero (a repair, or the start of the node's window, taken as a new node)
// and ends with a failure inside the history is a complete observation x;
// one still running at the end of the history or of the node's window is
// right-censored there; periods that began before the history are left out
// (their age is unknown). With r complete periods, the Weibull
// log-likelihood with the scale at its maximum for each shape k is
//
//	ℓ(k) = r·log k + (k−1)·Σ_complete log x − r·log(Σ_all x^k / r) − r
//
// (Lawless, Statistical Models and Methods for Lifetime Data, 2nd ed.,
// section 5.2.2); its maximum is the unique root of the strictly
// decreasing dℓ/dk, found by Brent's method on log k in [1e-3, 1e3] to a
// relative 1e-12 (scalar.LogRootIn), and ℓ(1) is
// the exponential fit. The shape's interval is the profile likelihood
// interval ℓ(k̂) − ℓ(k) ≤ χ²_{1−α}(1)/2, and the likelihood-ratio statistic
// LR = 2(ℓ(k̂) − ℓ(1)) has the χ²(1) law under the exponential law (Wilks):
// the test rejects when its p-value is below 1 − Level, exactly when the
// interval excludes 1, and Exponential is Contradicted when it rejects
// and the shape k̂ lies outside [1 − MaterialShape, 1 + MaterialShape].
// All nodes are pooled: nodes with different exponential rates also give
// a shape below 1, so a rejection says "not identical exponential nodes",
// which is what the model assumes.
//
// # Significance and material effect
//
// On a history of tens of thousands of failures the tests reject effects
// far too small to change the model's answer (a shape of 0.992 [0.985,
// 0.999], one grouped pair among 46,527 failures), so a verdict needs
// both a rejection and an effect of material size:
//
//   - Weibull shape outside [0.9, 1.1] (MaterialShape = 0.1). At equal
//     mean, the up times' coefficient of variation
//     √(Γ(1+2/k)/Γ(1+1/k)² − 1) is 1.11 at k = 0.9 and 0.91 at k = 1.1:
//     within about 10 % of the exponential's 1. The shapes measured on
//     real systems lie well outside: 0.7–0.8 for LANL nodes (Schroeder and
//     Gibson 2006), 0.41–0.72 for the 11 systems of the toolkit's copy.
//   - More than 1 % of the failures in grouped events
//     (MaterialGroupedShare = 0.01). Grouping a share g of the failures
//     changes the number of interruptions the model counts by less than
//     g; at 1 % that is below the relative half-width 1.96/√n of the 95 %
//     interval of λ̂ itself for any history of fewer than 38,416 failures,
//     smaller than the uncertainty of the rate the model is given. The
//     LANL copy's systems group 1.7 %–30 % of their failures.
//
// The significance part bounds each verdict's false-alarm rate by
// 1 − Level (for the exponential test, in the χ² limit of Wilks), and the
// line's, either verdict, by twice that. Measured on 400 seeded
// exponential traces of trace/synth (16–64 nodes, 190 to 4,600 failures,
// times exact or logged to the millisecond, the second and the minute;
// TestHonestyFalseAlarms) at Level 0.95: exponential up times rejected on
// 8 (2.0 %), grouped failures reported on none, the line false on 8
// (2.0 %); the 8 are all on the smallest traces (about 190 failures, 8 of
// 100), where the shape estimate is too uncertain for the band to help.
// Wilks' limit is slightly optimistic for small histories: on 1,000 traces
// of 8 nodes (about 50 failures) the exponential test rejected 6.1 %,
// 5.1 % at 16 nodes (about 190 failures). Before the material thresholds
// and the tick finer than a second, the same 400 traces gave 6.5 % and
// 4.8 % and the line 11.2 %, 22 % on the millisecond traces.
//
// Summary gives both verdicts in one line, with the p-values and the
// thresholds, for the command line to print next to results computed
// under the model.
//
// # References
//
//   - Los Alamos National Laboratory, "Operational Data to Support and
//     Enable Computer Science Research", LA-UR-05-7318, 2005 (the failure
//     data; the release asks users to cite LANL).
//   - B. Schroeder and G. A. Gibson, "A large-scale study of failures in
//     high-performance computing systems", Proc. International Conference on
//     Dependable Systems and Networks (DSN), 2006.
//   - J. S. Plank and M. G. Thomason, "Processor allocation and
//     checkpoint interval selection in cluster computing systems", J.
//     Parallel and Distributed Computing 61(11), 2001 (λ, θ from traces).
//   - F. Garwood, "Fiducial limits for the Poisson distribution",
//     Biometrika 28, 1936 (the confidence interval).
//   - C. J. Clopper and E. S. Pearson, "The use of confidence or fiducial
//     limits illustrated in the case of the binomial", Biometrika 26, 1934.
//   - J. F. Lawless, Statistical Models and Methods for Lifetime Data, 2nd
//     ed., Wiley, 2003 (censored Weibull likelihood, profile intervals).
package trace
