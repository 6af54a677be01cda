// Package availability is the moldable checkpoint model of Plank and
// Thomason: an application that always runs on exactly a of the N
// processors of a system, waiting when fewer than a are functional.
//
// It is the malleable model of package uwt with the rescheduling vector
// r(n) = a for n ≥ a and r(n) = 0 below, so the two share one state space,
// one set of transition probabilities and one stationary solver. The
// availability of the application at checkpoint interval I is
//
//	A(a, I) = Σ πᵢ uᵢ / Σ πᵢ τᵢ,
//
// the long-run fraction of time spent on computation that is committed,
// where uᵢ is the expected committed computing time of a visit to state i
// (I + L(a) − C(a) for an up segment that survives) and τᵢ its expected
// length. A job that needs T_a seconds on a failure-free system takes
// T_a / A(a, I) seconds on average, and the useful work per second is
// UWT = ω(a)·A(a, I).
//
// Too few processors make the job slow (T_a is long); too many make
// failures frequent (A falls): on a failure-prone system the expected run
// time is smallest at an intermediate a. Best searches every a for the
// pair (a, I) that minimises the expected run time, that is, maximises
// ω(a)·A(a, I).
//
// References:
//
//   - J. S. Plank and M. G. Thomason, "Processor allocation and checkpoint
//     interval selection in cluster computing systems", Journal of Parallel
//     and Distributed Computing 61(11):1570–1590, 2001.
//   - J. S. Plank and M. G. Thomason, "The average availability of parallel
//     checkpointing systems and its importance in selecting runtime
//     parameters", FTCS-29, 1999.
package availability
