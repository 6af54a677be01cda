// Package reschedule holds rescheduling vectors and the policies that
// produce them.
//
// A malleable application running on a pool of N processors restarts, after
// a failure that leaves n processors functional, on r(n) of them. The vector
// r(1..N) with 0 ≤ r(n) ≤ n is the rescheduling vector; r(n) = 0 means the
// application cannot run on n processors and waits for repairs.
//
// The policies of Vadhiyar & co-authors (section V of the malleable
// checkpointing paper) are provided:
//
//	Greedy:               r(n) = n
//	Performance based:    r(n) = argmax_{a ≤ n} ω(a)       (ties: smaller a)
//	Moldable(a):          r(n) = a for n ≥ a, 0 otherwise  (Plank & Thomason)
//	Availability based:   r(n) = argmin_{a ≤ n} F(a)/ω(a)  (ties: larger a)
//
// where ω(a) is the work rate on a processors and F(a) is the mean number of
// distinct failure instants of a randomly chosen set of a processors in a
// failure trace (averaged over random picks). The paper's normalisation of
// F(a) was lost in extraction; this package uses failures per unit of work,
// F(a)/ω(a), as the toolkit's model specification states (docs/model.md,
// section 9).
//
// This package computes vectors from numbers only. The policy as a named
// choice (its kinds, its textual forms, and the inputs it needs) is
// scenario.Policy, whose Vector method calls the functions here.
//
// References:
//
//   - J. S. Plank, M. G. Thomason, "Processor allocation and checkpoint
//     interval selection in cluster computing systems", JPDC 61(11), 2001.
//   - "Determination of Checkpointing Intervals for Malleable Applications"
//     (the malleable extension of Plank & Thomason), section V.
package reschedule
