package cli

import (
	"context"
	"fmt"
	"io"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/ckpt-markov/markov/uwt"
)

// uwtOptions are the flags of markov uwt.
type uwtOptions struct {
	modelFlags
	Interval string
	Levels   levelOptions
}

// modelPointJSON is the head of the --json output of markov uwt and
// optimize: the scenario, whether the full state space was built, and
// the model's UWT and availability at the interval (given, or I*).
type modelPointJSON struct {
	Scenario     scenarioJSON `json:"scenario"`
	Exact        bool         `json:"exact"`
	Interval     jsonFloat    `json:"interval"`
	UWT          jsonFloat    `json:"uwt"`
	Availability jsonFloat    `json:"availability"`
}

// newModelPointJSON returns the modelPointJSON of info, exact and a result at
// interval.
func newModelPointJSON(info scenarioInfo, exact bool, interval, uwt, availability float64) modelPointJSON {
	return modelPointJSON{Scenario: info.json(), Exact: exact, Interval: jsonFloat(interval), UWT: jsonFloat(uwt), Availability: jsonFloat(availability)}
}

// uwtJSON is the --json output of markov uwt.
type uwtJSON struct {
	modelPointJSON
	States      int       `json:"states"`
	Recurrent   int       `json:"recurrent"`
	Built       int       `json:"built"`
	Pruned      int       `json:"pruned"`
	Transitions int       `json:"transitions"`
	Dropped     jsonFloat `json:"dropped"`
	Residual    jsonFloat `json:"residual"`
	Solver      string    `json:"solver"`
	OldCountBin int       `json:"old_count_bin"`
	BinError    jsonFloat `json:"bin_error"`
	// ErrorBound is the dropped mass's bound on UWT's relative error
	// (uwt.Model.DroppedBound).
	ErrorBound jsonFloat `json:"error_bound"`
}

func newUWTCmd(e *env) *cobra.Command {
	opts := &uwtOptions{modelFlags: modelFlags{env: e}}
	cmd := &cobra.Command{
		Use:   "uwt --interval DURATION",
		Short: "Useful work per second at one checkpoint interval",
		Long: `Compute UWT(I), the long-run useful work per second of the scenario's
application when it checkpoints every I seconds of computation, with the
long-run availability (fraction of time spent on committed computation) and
the size of the Markov chain solved.

The default fast path builds only the states whose functional processor
counts carry probability (the dropped mass is reported); --exact builds every
state with full spare-chain rows, for validation on small systems.

On a scenario with application.checkpoint_levels it evaluates the
multi-level model (docs/model.md section 12) for the pattern of
--pattern V1,V2,... (or the scenario's checkpoint_pattern).`,
		Example: `  markov uwt --interval 12h
  markov uwt --scenario app.json --interval 90m --json
  markov uwt --app md --processors 16 --mttf 30d --interval 2h --exact
  markov uwt --scenario docs/examples/atlas-two-level.json --interval 25m --pattern 26`,
		Args: cobra.NoArgs,
		RunE: e.runE(func(ctx context.Context, cmd *cobra.Command) error {
			return runUWT(ctx, cmd, opts)
		}),
	}
	opts.modelFlags.register(cmd)
	opts.Levels.register(cmd, false)
	cmd.Flags().StringVarP(&opts.Interval, "interval", "i", "", "checkpoint interval I (`DURATION`, required), e.g. 12h")
	return cmd
}

func runUWT(ctx context.Context, cmd *cobra.Command, opts *uwtOptions) error {
	if opts.Interval == "" {
		return flagError("interval", "required, e.g. --interval 12h")
	}
	interval, err := positiveDuration("interval", opts.Interval)
	if err != nil {
		return err
	}
	if wantsOptimal(opts.Scenario.Policy) {
		return runUWTOptimal(ctx, cmd, opts, interval)
	}
	if err := opts.Optimal.unused(); err != nil {
		return err
	}
	info, err := opts.Scenario.load(cmd)
	if err != nil {
		return err
	}
	if opts.Levels.wanted(info.sc) {
		return runUWTLevels(ctx, opts, info, interval)
	}
	info, m, err := buildModel(cmd, info, &opts.Model)
	if err != nil {
		return err
	}
	bar := opts.env.startProgress("evaluating UWT", 0)
	res, err := m.Evaluate(ctx, interval)
	bar.finish()
	if err != nil {
		return err
	}
	return opts.env.render(opts.Output, uwtReport{info, opts.Model, res, m.DroppedBound(res)})
}

// uwtReport is the result of markov uwt.
type uwtReport struct {
	info  scenarioInfo
	model modelOptions
	res   uwt.Result
	// bound is the dropped mass's bound on UWT's relative error
	// (uwt.Model.DroppedBound).
	bound float64
}

func (r uwtReport) JSON() any {
	res := r.res
	return uwtJSON{
		modelPointJSON: newModelPointJSON(r.info, r.model.Exact, res.Interval, res.UWT, res.Availability),
		States:         res.States,
		Recurrent:      res.Recurrent,
		Built:          res.Built,
		Pruned:         res.Pruned,
		Transitions:    res.Transitions,
		Dropped:        jsonFloat(res.Dropped),
		Residual:       jsonFloat(res.Residual),
		Solver:         solverName(res),
		OldCountBin:    res.OldCountBin,
		BinError:       jsonFloat(res.BinError),
		ErrorBound:     jsonFloat(r.bound),
	}
}

func (r uwtReport) CSV() ([]string, [][]string) {
	res := r.res
	return []string{"interval", "uwt", "availability", "states", "recurrent", "transitions", "dropped", "residual"},
		[][]string{{csvFloat(res.Interval), csvFloat(res.UWT), csvFloat(res.Availability),
			strconv.Itoa(res.States), strconv.Itoa(res.Recurrent), strconv.Itoa(res.Transitions),
			csvFloat(res.Dropped), csvFloat(res.Residual)}}
}

func (r uwtReport) Text(w io.Writer) error {
	t := newTable(w)
	t.row("Scenario", r.info.describe())
	t.row("Interval I", dur(r.res.Interval))
	t.row("UWT", num(r.res.UWT)+" work/s")
	t.row("Availability", num(r.res.Availability))
	writeChainRows(t, r.res, r.model.path())
	if r.bound > accuracyNote {
		t.row("Accuracy", fmt.Sprintf("UWT is %s of the largest work rate: the dropped mass bounds its error only to ≈%s relative (--exact differs within it)", sci(r.res.Dropped/r.bound), sci(r.bound)))
	}
	return t.flush()
}

// accuracyNote is the dropped mass's bound on UWT's relative error above
// which markov uwt says so: 1e-6, far above the bound near I* (≈ 1e-13 in
// the README's example) and far below the 5e-4 seen at UWT ≈ 1e-10 (issue
// 23).
const accuracyNote = 1e-6

// writeChainRows writes the size and accuracy of a solved chain.
func writeChainRows(t *table, res uwt.Result, path string) {
	t.row("States", fmt.Sprintf("%d reachable, %d recurrent (%d built, %d pruned)", res.States, res.Recurrent, res.Built, res.Pruned))
	if res.OneClass {
		// No chain was built: the law at failures is binomial (uwt doc.go,
		// "One recovery class").
		t.row("Transitions", "none: one recovery class, solved in closed form")
	} else {
		t.row("Transitions", strconv.Itoa(res.Transitions))
	}
	t.row("Dropped mass", sci(res.Dropped)+" per jump")
	if res.OneClass {
		t.row("Residual", "none (closed form)")
	} else {
		t.row("Residual", sci(res.Residual)+" (stationary, 1-norm)")
	}
	t.row("Solver", solverName(res))
	if res.Phases {
		path += ", chain of up phases"
	}
	t.row("Path", path)
	if res.OldCountBin > 1 {
		t.row("Approximation", fmt.Sprintf("old counts in bins of %d; UWT differs by ≈%s (%s relative) from bins of %d",
			res.OldCountBin, sci(res.BinError), sci(res.BinError/res.UWT), res.BinCompared))
	}
}

// solverName names how the stationary law was found: a markov.Method, or
// ClosedForm for a window of one recovery class (uwt.Result.OneClass).
func solverName(res uwt.Result) string {
	if res.OneClass {
		return "ClosedForm"
	}
	return res.Solver.String()
}
