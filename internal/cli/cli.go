package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"

	"github.com/ckpt-markov/markov/internal/quote"
	"github.com/spf13/cobra"
	"golang.org/x/term"
)

// Exit statuses returned by Run.
const (
	// ExitOK means the command succeeded.
	ExitOK = 0
	// ExitError means the command failed while running (bad scenario file,
	// model error, unwritable output).
	ExitError = 1
	// ExitUsage means the command line itself was wrong (unknown command or
	// flag, bad flag value, missing required flag).
	ExitUsage = 2
	// ExitInterrupted means the context was cancelled, as by Ctrl-C.
	ExitInterrupted = 130
)

// Run executes the markov command line args (without the program name),
// writing results to stdout and errors, one line each, to stderr. It returns
// the process exit status. A progress indicator is drawn on stderr for long
// work only when stderr is a terminal.
func Run(args []string, stdout, stderr io.Writer) int {
	return RunContext(context.Background(), args, stdout, stderr)
}

// RunContext is Run with a context whose cancellation stops the running
// computation (ExitInterrupted).
func RunContext(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	e := &env{out: stdout, errOut: stderr, tty: isTerminal(stderr)}
	root := newRootCmd(e)
	root.SetArgs(args)
	root.SetOut(stdout)
	root.SetErr(stderr)
	cmd, err := root.ExecuteContextC(ctx)
	if err == nil {
		return ExitOK
	}
	if errors.Is(err, context.Canceled) {
		fmt.Fprintln(stderr, "markov: interrupted")
		return ExitInterrupted
	}
	printError(stderr, err)
	if !e.ran {
		// cobra rejected the command line before any command ran.
		fmt.Fprintf(stderr, "Run '%s --help' for usage.\n", cmd.CommandPath())
		return ExitUsage
	}
	var u usageError
	if errors.As(err, &u) {
		fmt.Fprintf(stderr, "Run '%s --help' for usage.\n", cmd.CommandPath())
		return ExitUsage
	}
	return ExitError
}

// env holds what every command shares: the output streams and whether a
// progress indicator may be drawn.
type env struct {
	out, errOut io.Writer
	// tty is true when errOut is a terminal.
	tty bool
	// ran is set when a command's run function starts, so that errors cobra
	// reports before it are told apart as usage errors.
	ran bool
}

// usageError is an error in the command line found by a run function, such
// as a missing required flag or a malformed flag value.
type usageError struct{ error }

func (u usageError) Unwrap() error { return u.error }

// flagError returns a usage error naming the flag.
func flagError(flag string, format string, args ...any) error {
	return usageError{fmt.Errorf("--%s: %s", flag, fmt.Sprintf(format, args...))}
}

// runE adapts a run function to cobra, marking that the command ran.
func (e *env) runE(run func(ctx context.Context, cmd *cobra.Command) error) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, _ []string) error {
		e.ran = true
		return run(cmd.Context(), cmd)
	}
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// printError writes err on stderr on one line, except cobra's "Did you
// mean this?" suggestions, which go on their own lines below it.
func printError(w io.Writer, err error) {
	msg, suggest, ok := strings.Cut(err.Error(), "Did you mean this?")
	if !ok {
		fmt.Fprintf(w, "markov: %s\n", oneLine(err))
		return
	}
	fmt.Fprintf(w, "markov: %s\n\nDid you mean this?\n", oneLine(errors.New(strings.TrimSpace(msg))))
	for _, s := range strings.Fields(suggest) {
		fmt.Fprintf(w, "\t%s\n", s)
	}
	fmt.Fprintln(w)
}

// version returns the module version the binary was built from, with its
// VCS revision and state when known (versionOf).
func version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "(unknown: built without module information)"
	}
	return versionOf(info)
}

// versionOf formats a build's version: the module version of a release
// or a pseudo-version (which carries the revision and its time), else the
// VCS revision of the checkout it was built from with its commit time, and
// "modified" for a build from a changed tree. It never prints Go's
// placeholder "(devel)", nor the revision twice.
func versionOf(info *debug.BuildInfo) string {
	v := info.Main.Version
	if v == "(devel)" {
		v = ""
	}
	var rev, when string
	modified := false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			when = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	var extra []string
	switch {
	case v == "" && rev == "":
		return "unknown (built without module or version-control information)"
	case v == "":
		v = "commit " + rev
		if when != "" {
			extra = append(extra, when)
		}
	case rev != "" && !strings.Contains(v, rev):
		extra = append(extra, rev)
		if when != "" {
			extra = append(extra, when)
		}
	}
	if modified && !strings.Contains(v, "dirty") {
		extra = append(extra, "modified")
	}
	if len(extra) > 0 {
		v += " (" + strings.Join(extra, ", ") + ")"
	}
	return v
}

// newHelpCmd is "markov help [COMMAND]", which fails (as a usage error) on
// a topic that is not a command, where cobra's own help prints the usage
// and succeeds.
func newHelpCmd(e *env, root *cobra.Command) *cobra.Command {
	return &cobra.Command{
		Use:   "help [command]",
		Short: "Help about any command",
		RunE: func(cmd *cobra.Command, args []string) error {
			e.ran = true
			c, rest, err := root.Find(args)
			if err != nil || c == nil || len(rest) > 0 {
				return usageError{fmt.Errorf("unknown help topic %s", quote.Value(strings.Join(args, " ")))}
			}
			c.InitDefaultHelpFlag()
			return c.Help()
		},
	}
}

// oneLine joins the lines of an error message.
func oneLine(err error) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(err.Error(), "\n", "; ")), " ")
}

func newRootCmd(e *env) *cobra.Command {
	root := &cobra.Command{
		Use:   "markov",
		Short: "Choose checkpoint intervals for malleable parallel applications",
		Long: `markov computes how often a parallel application should checkpoint on a pool
of processors that fail and get repaired, with the Markov model of Plank &
Thomason extended to malleable applications (which shrink and grow with the
number of working processors).

Its main figure is UWT(I), the long-run useful work per second at checkpoint
interval I, and I*, the interval that maximises it.

The scenario: --scenario FILE reads one system, one application and one
rescheduling policy from a JSON file (all times in seconds, or strings such as
"90m", "17.5h", "100d"):

  {
    "system": {"processors": 64, "mttf": "100d", "mttr": "1h"},
    "application": {
      "work_rate": [1.0, 1.9, ...],     ω(a), one per processor count a = 1..N
      "checkpoint_latency": 90,         L(a): one number or N numbers
      "checkpoint_overhead": 90,        C(a) ≤ L(a), optional (default L)
      "recovery": 30                    R: number, N numbers or N×N matrix
    },
    "policy": "greedy"                  "greedy", "pb", {"moldable": a},
  }                                     or {"vector": [r(1), ..., r(N)]}

"application" may also name a built-in benchmark: "qr", "cg" or "md".

Without --scenario, the built-in scenario is the QR benchmark on a
128-processor system with the per-processor failure and repair times the
paper estimated for LANL system-1 (MTTF 104.61 days, MTTR 56.03 minutes) and
the greedy policy. Flags override parts of either: --processors, --mttf,
--mttr, --app, --policy.

Durations are typed as seconds ("3600") or with units, the same in every
flag: s, m, h, d, w, y, alone or combined ("90m", "17.5h", "100d", "1d12h").
Results are tables by default; --json and --csv print the same numbers for
scripts, with every time in seconds (--json: snake_case keys and the same
"scenario" object in every command). Command-line errors exit with status 2,
data errors with 1.`,
		Example: `  # Optimal interval of the built-in scenario
  markov optimize

  # UWT of your scenario at a 12-hour interval, as JSON
  markov uwt --scenario app.json --interval 12h --json

  # Plot UWT(I) for the CG benchmark on 64 processors
  markov curve --app cg --processors 64 --plot cg.svg`,
		SilenceUsage:      true,
		SilenceErrors:     true,
		CompletionOptions: cobra.CompletionOptions{DisableDefaultCmd: true},
	}
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error {
		return usageError{err}
	})
	root.Version = version()
	root.SetVersionTemplate("markov {{.Version}}\n")
	root.SetHelpCommand(newHelpCmd(e, root))
	root.AddCommand(
		newUWTCmd(e),
		newOptimizeCmd(e),
		newCurveCmd(e),
		newAvailabilityCmd(e),
		newSimulateCmd(e),
		newPolicyCmd(e),
		newIntervalsCmd(e),
		newEvaluateCmd(e),
		newTraceCmd(e),
		newSweepCmd(e),
	)
	return root
}
