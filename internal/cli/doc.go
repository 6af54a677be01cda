// Package cli is the command-line interface of the toolkit: the markov
// command and its subcommands.
//
// Each subcommand has one options struct (its flags and output streams) and
// one run function that reads a scenario, calls the library packages and
// prints the outcome; the package holds no numerics of its own. The
// subcommands are
//
//	markov uwt           UWT(I) at one checkpoint interval       (package uwt)
//	markov optimize      the interval I* that maximises UWT, and
//	                     with --policy optimal the best policy   (packages uwt, optimal)
//	markov curve         UWT over a range of intervals, plotted  (package uwt, internal/chart)
//	markov availability  moldable: best processor count and I*   (package availability)
//	markov simulate      Monte Carlo of the same process         (package sim)
//	markov policy        the rescheduling vector r(1..N)         (packages scenario, optimal)
//	markov intervals     closed-form intervals beside the model  (package intervals)
//	markov evaluate      the model's interval replayed on traces (package evaluate)
//	markov trace         failure traces: stats, synth            (packages trace, trace/synth)
//	markov sweep         studies: run, slurm, merge              (package sweep)
//
// (TestDocListsCommands keeps this list complete.)
//
// Every subcommand reads the scenario of --scenario FILE (the JSON form of
// package scenario), or the built-in scenario when the flag is absent, and
// lets flags override its parts (--processors, --mttf, --mttr, --app,
// --policy, --reconfigure, --checkpoint, --overhead, --recovery, --work),
// through scenario.Overrides: the flags hold no scenario logic. Human-readable tables are the default output; --json and --csv
// give the same numbers for scripts, with times in seconds.
//
// Run is the entry point: it executes one command line and returns the exit
// status (0 success, 1 runtime error, 2 usage error, 130 interrupted),
// printing errors as one line on stderr.
package cli
