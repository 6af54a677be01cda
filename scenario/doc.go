// Package scenario holds the inputs of the checkpoint models: one system,
// one application and one rescheduling policy.
//
// The system is N interchangeable processors, each failing after an
// exponential time of rate λ = 1/MTTF and repaired after an exponential
// time of rate θ = 1/MTTR, independently. The application is described per
// processor count a = 1..N by its work rate ω(a), checkpoint latency L(a),
// checkpoint overhead C(a) ≤ L(a) and recovery cost R(p, a) (restoring a
// checkpoint written on p processors onto a). The policy is a rescheduling
// vector r(n), see package reschedule.
//
// One Scenario value feeds the exact Markov model (package uwt), the Monte
// Carlo simulator (package sim) and the trace-driven simulator, so the
// three always describe the same process.
//
// # File format
//
// Parse reads the JSON form below. All times are in seconds; where a time
// is a single number it may also be written as a string with a unit, such
// as "90m", "17.5h", "100d" or "25y" (see ParseDuration).
//
//	{
//	  "system": {"processors": 64, "mttf": 8640000, "mttr": 3600},
//	  "application": {
//	    "work_rate": [1.0, 1.9, ...],       // ω(1..N), N numbers ≥ 0
//	    "checkpoint_latency": 90,           // L: a number or N numbers
//	    "checkpoint_overhead": 90,          // C: optional, defaults to L, C ≤ L
//	    "recovery": 30,                     // R: number, N numbers (by new count a)
//	                                        //    or N×N: recovery[p-1][a-1]
//	    "replicas": 1                       // r: optional, 1 ≤ r ≤ min(16, N)
//	  },
//	  "policy": "greedy"                    // "greedy", "pb", {"moldable": a},
//	}                                       // or {"vector": [r(1), ..., r(N)]}
//
// The policy may also be any string ParsePolicy reads ("moldable:16").
// Policy names every policy of the toolkit, including the availability-based
// one (resolved from a failure history) and the optimal one (whose vector
// comes from a solver); Scenario.Validate checks that Scenario.Reschedule is
// the vector its Policy gives.
//
// "system" may also hold "failure_events": {"sizes": [p1, p2, ...]}, the
// probabilities that a failure event takes down 1, 2, ... processors (at
// most N entries, summing to 1): events then strike at λ/E[K] per
// functional processor and take down min(K, n) of the n functional ones,
// chosen uniformly, so that a processor still fails at rate λ on average
// (docs/model.md, section 11). Absent, null or [1] is the model of
// independent single failures, bit for bit.
//
// "application" may instead be a string naming a built-in application
// (resolved through ParseSettings.Applications, e.g. the benchmark vectors
// of package bench). Unknown fields are an error: they are usually typos.
// Keys are case-sensitive, and a key given twice, or one that differs from
// a documented key only by case ("MTTF"), is an error naming it. A leading
// UTF-8 byte order mark is skipped; strings must be valid UTF-8 (RFC 8259).
// Every error names the field and the problem.
//
// # Limits
//
// Sizes are bounded before anything is allocated: the input to
// ParseSettings.MaxBytes (DefaultMaxBytes, 256 MiB) and, under an
// address-space limit (ulimit -v, Linux), to a sixteenth of the address
// space left; the input is read in chunks and refused at the first byte
// that no JSON text holds there (a control character, or a first byte
// that begins no value), so that /dev/zero costs one chunk. N to MaxProcessors
// (2²⁴), and every list to N entries, read entry by entry so that a longer
// one is rejected without being built. Times (MTTF, MTTR in [MinSeconds,
// MaxSeconds]; L, C, R up to MaxSeconds) and work rates (up to MaxWorkRate)
// are bounded so that no rate, product or sum the models form overflows.
//
// # Reading
//
// Parse reads the input whole (checking each chunk as it arrives, see
// Limits), then walks it token by token with jsontext, the syntax layer of
// github.com/go-json-experiment/json (the basis of Go's coming
// encoding/json/v2), which checks the grammar, UTF-8 and the numbers'
// syntax and converts them with strconv.ParseFloat (decode.go). The
// schema is read here (parse.go, forms.go): each object's keys checked as
// they are read, each list counted against its bound before an entry is
// kept, each error naming the field's path ("application.recovery[3]").
// When the application or the policy comes before the system, whose N
// bounds their lists, its bytes are kept and read once N is known. When a
// field is at fault the rest of the input is still scanned, so that a
// file that is not JSON is reported as such wherever its fault lies. A
// number or a form is expanded to N entries only once the work rate's
// length is checked, and a recovery cost given as a number or a form is
// kept as its coefficients (RecoveryLinear). New and Scenario.Validate
// check everything, for scenarios built by hand.
//
// # Overrides and the built-in scenario
//
// A command line or a study changes parts of a base scenario through
// Overrides.Resolve, the one place that does it (docs/scenario.md,
// "Overrides"): the processor count, the rates, a named application,
// the policy, the reconfiguration, the checkpoint latency and overhead,
// the recovery cost and the work rate (WorkForm: linear, Amdahl's law or
// a power law). Resolve returns the scenario's Parts, whose policy may be
// the optimal policy not yet solved (Policy.Unsolved): no Scenario holds
// that policy, and nothing stands in for it. The caller solves it on the
// parts' system and application (optimal.Solve) and assembles the
// Scenario of the solved policy (Parts.Scenario); Overrides.Apply, for a
// caller that wants a Scenario at once, refuses it. A nil base is the built-in scenario: DefaultApplication
// (the paper's QR benchmark) on DefaultSystem, the LANL system-1 rates
// the paper estimated, greedy. Restricting a base to fewer processors
// keeps a recovery form or matrix as it is stored
// (Application.FirstCounts), never expanding it to N × N; a recovery
// override is one number (RecoveryLinear). An override that does not fit
// is an *OverrideError naming it.
package scenario
