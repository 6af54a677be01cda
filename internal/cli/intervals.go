package cli

import (
	"context"
	"fmt"
	"math"

	"github.com/spf13/cobra"

	"github.com/ckpt-markov/markov/intervals"
)

// intervalsOptions are the flags of markov intervals.
type intervalsOptions struct {
	env      *env
	Scenario scenarioOptions
	Model    modelOptions
	Output   outputOptions
	Work     string
}

// intervalsJSON is the --json output of markov intervals.
type intervalsJSON struct {
	Scenario scenarioJSON `json:"scenario"`
	Exact    bool         `json:"exact"`
	// Optimum is the Markov model's I* with its UWT.
	Optimum sampleJSON `json:"optimum"`
	// Params are the inputs given to the closed-form models.
	Params paramsJSON   `json:"params"`
	Models []choiceJSON `json:"models"`
}

// paramsJSON are the closed-form models' inputs, in seconds.
type paramsJSON struct {
	Processors int       `json:"processors"`
	MTBF       jsonFloat `json:"mtbf"`
	Checkpoint jsonFloat `json:"checkpoint"`
	Latency    jsonFloat `json:"latency"`
	Restart    jsonFloat `json:"restart"`
	Work       jsonFloat `json:"work"`
}

// choiceJSON is one model's interval and how the Markov model rates it.
type choiceJSON struct {
	Name     string    `json:"name"`
	Interval jsonFloat `json:"interval"`
	// UWT is the Markov model's UWT at Interval, Efficiency its ratio to
	// the UWT at I*.
	UWT        jsonFloat `json:"uwt"`
	Efficiency jsonFloat `json:"efficiency"`
	Note       string    `json:"note,omitempty"`
	// Error says why the model does not apply, if so; Interval, UWT and
	// Efficiency are then null.
	Error string `json:"error,omitempty"`
}

// markovRule is the Markov model's I* as an intervals.Model, so that it
// appears in the comparison.
type markovRule struct {
	name     string
	interval float64
}

func (r markovRule) Name() string                               { return r.name }
func (r markovRule) Interval(intervals.Params) (float64, error) { return r.interval, nil }

func newIntervalsCmd(e *env) *cobra.Command {
	opts := &intervalsOptions{env: e}
	cmd := &cobra.Command{
		Use:   "intervals",
		Short: "Closed-form interval models side by side with the Markov optimum",
		Long: `Compare the checkpoint interval of the classic closed-form models (Young,
Daly low and higher order, Vaidya, Bouguerra, Volpex, Fialho) with the Markov
model's I*, and rate each one by the Markov model: the table gives each
interval, UWT(I) at it, and its efficiency UWT(I)/UWT(I*).

The closed-form models know one processor count only; they are given the
configuration the application starts on, a = r(N) processors:
job MTBF M = MTTF/a (a failures per processor MTTF, repairs ignored),
checkpoint cost C(a), latency L(a) and restart cost R(a, a). --work gives
Bouguerra's model the job's failure-free compute time, so that it picks an
integer number of checkpoints.`,
		Example: `  markov intervals
  markov intervals --app cg --processors 64 --json
  markov intervals --scenario app.json --work 30d`,
		Args: cobra.NoArgs,
		RunE: e.runE(func(ctx context.Context, cmd *cobra.Command) error {
			return runIntervals(ctx, cmd, opts)
		}),
	}
	opts.Scenario.register(cmd)
	opts.Model.register(cmd)
	opts.Output.register(cmd)
	cmd.Flags().StringVar(&opts.Work, "work", "", "failure-free compute time of the job (`DURATION`), for Bouguerra's model")
	return cmd
}

func runIntervals(ctx context.Context, cmd *cobra.Command, opts *intervalsOptions) error {
	var work float64
	if opts.Work != "" {
		w, err := positiveDuration("work", opts.Work)
		if err != nil {
			return err
		}
		work = w
	}
	info, m, err := loadModel(cmd, &opts.Scenario, &opts.Model)
	if err != nil {
		return err
	}
	sc := info.sc
	params, a, err := intervals.ForScenario(sc)
	if err != nil {
		return err
	}
	params.Work = work

	bar := opts.env.startProgress("searching I*", 0)
	opt, err := m.Optimize(ctx, nil)
	bar.finish()
	if err != nil {
		return err
	}
	models := append(intervals.Models(),
		markovRule{"Markov I*", opt.Interval},
		markovRule{"Markov I_model (paper)", opt.ModelInterval})
	choices, err := intervals.Compare(params, models...)
	if err != nil {
		return err
	}

	rows := make([]choiceJSON, len(choices))
	bar = opts.env.startProgress("rating intervals", len(choices))
	for k, c := range choices {
		rows[k] = choiceJSON{Name: c.Name, Interval: jsonFloat(c.Interval), Note: c.Note,
			UWT: jsonFloat(math.NaN()), Efficiency: jsonFloat(math.NaN())}
		if c.Err != nil {
			rows[k].Error = oneLine(c.Err)
			rows[k].Interval = jsonFloat(math.NaN())
		} else if c.Interval > 0 && !math.IsInf(c.Interval, 0) {
			r, err := m.Evaluate(ctx, c.Interval)
			if err != nil {
				bar.finish()
				return fmt.Errorf("%s interval %s: %w", c.Name, short(c.Interval), err)
			}
			rows[k].UWT = jsonFloat(r.UWT)
			rows[k].Efficiency = jsonFloat(r.UWT / opt.UWT)
		}
		bar.add(1)
	}
	bar.finish()

	out := opts.env.out
	switch {
	case opts.Output.JSON:
		return writeJSON(out, intervalsJSON{
			Scenario: info.json(),
			Exact:    opts.Model.Exact,
			Optimum:  sampleJSON{jsonFloat(opt.Interval), jsonFloat(opt.UWT)},
			Params: paramsJSON{
				Processors: a,
				MTBF:       jsonFloat(params.MTBF),
				Checkpoint: jsonFloat(params.Checkpoint),
				Latency:    jsonFloat(params.Latency),
				Restart:    jsonFloat(params.Restart),
				Work:       jsonFloat(params.Work),
			},
			Models: rows,
		})
	case opts.Output.CSV:
		var cells [][]string
		for _, r := range rows {
			cells = append(cells, []string{r.Name, csvFloat(float64(r.Interval)), csvFloat(float64(r.UWT)), csvFloat(float64(r.Efficiency)), r.Error})
		}
		return writeCSV(out, []string{"model", "interval", "uwt", "efficiency", "error"}, cells)
	}

	fmt.Fprintf(out, "Scenario  %s\n", info.describe())
	fmt.Fprintf(out, "Inputs    a = %d, job MTBF %s, C = %s, L = %s, R = %s\n\n",
		a, short(params.MTBF), short(params.Checkpoint), short(params.Latency), short(params.Restart))
	t := newTable(out)
	t.row("Model", "Interval", "UWT (work/s)", "Efficiency", "")
	for _, r := range rows {
		if r.Error != "" {
			t.row(r.Name, "-", "-", "-", "does not apply: "+r.Error)
			continue
		}
		t.row(r.Name, short(float64(r.Interval)), num(float64(r.UWT)), percent(float64(r.Efficiency)), "")
	}
	return t.flush()
}
