// Package sweep runs studies: grids of scenarios or sets of failure traces
// with a computation at every point, split into numbered tasks that run
// in one process or in shards on many (a Slurm job array), and merged into
// one table that does not depend on the split.
//
// # Studies and tasks
//
// A study file (JSON, decoded strictly: unknown fields and trailing data
// are errors, sizes are bounded by MaxStudyBytes, MaxAxis, MaxTasks …)
// names what to compute (Optimize, UWT, Simulate on scenarios; Evaluate on
// traces) and the axes. Expand lists the tasks: for each computation in
// the order given, the Cartesian product of its axes with the first axis
// outermost. A task's number and ID depend only on the study, never on the
// sharding.
//
// Each task has a fixed seed: SplitMix64 (Steele, Lea & Flood 2014) of the
// study's seed XOR the FNV-1a hash of the task's ID. Trace tasks use the
// study's seed itself, which package evaluate mixes with the trace's
// content and the segment number, so that every application and policy of a
// system is replayed on the same segments (paired comparisons), as in
// markov evaluate. Every computation's result is independent of its
// worker count, so a task's result is a function of the study and the
// task alone.
//
// # Shards
//
// Shard assigns the tasks to N shards by the longest-processing-time rule
// on a rough cost estimate (Task.Cost, which counts the optimal policy's
// solve), whose largest shard is within 4/3 − 1/(3N) of the optimum
// (Graham 1969, "Bounds on multiprocessing timing anomalies"). The
// estimate affects only the balance. Study.Task computes a task from its
// number, so that a run or a merge of a million tasks never holds them
// all (it keeps a few dozen bytes a task).
//
// # Result files, resume, merge
//
// Run appends the results of shard K of N to DIR/results-K-of-N.jsonl, one
// JSON object per task, synced, at most once per FlushEvery, holding the
// file's lock (flock(2) on DIR/.results-K-of-N.jsonl.lock) while it reads
// what others appended and appends what they have not: two processes
// running one shard at once never lose nor duplicate a result. Before
// running, it reads every result file of DIR and skips the tasks that have
// a result there: running a shard again resumes it. The rerun of a shard
// also tidies its file: a last line cut short (a writer killed while
// writing), second copies of a result and failures a result supersedes
// are dropped. DIR/study.json keeps the study; a directory never mixes
// two studies, but one in which no task finished (a run that failed at
// once) takes a new study, its old files set aside.
//
// A task that fails does not stop the shard: its row holds the error
// (Record.Error, status "Failed") and a rerun tries it again. A scenario
// where nothing useful can be done is no failure: its optimize rows, and
// every row of the optimal policy (which has then no policy to evaluate
// or replay), say status "NoUsefulWork" with UWT 0, as markov optimize
// does.
//
// Merge checks that each task has a row (IncompleteError lists the missing
// ones, and those with two different results with the files a rerun
// would tidy); an identical second copy counts once. It returns the
// records in task order; WriteMerged writes them as CSV and indented
// JSON, streaming them. Numbers are written in Go's shortest round-trip
// form and the wall time of a task is left out, so the merged files are
// the same bytes whatever the sharding and the worker counts.
//
// # The optimal policy
//
// A study names the optimal policy (docs/optimal-policy.md) as "optimal"
// like any other. In a scenario task it is solved with package optimal on
// the task's scenario: optimize reports level 2 (the best vector r* with
// one interval I*, and g at I*), uwt reports g*(I) at each interval (the
// best vector at that interval), and simulate simulates the vector r* of
// I* (or of g*(I) at the study's interval) beside g. In a trace task
// package evaluate solves it for each segment from the estimated rates.
package sweep
