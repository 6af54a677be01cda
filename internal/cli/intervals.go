package cli

import (
	"context"
	"fmt"
	"io"
	"math"

	"github.com/spf13/cobra"

	"github.com/ckpt-markov/markov/intervals"
	"github.com/ckpt-markov/markov/uwt"
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
integer number of checkpoints.

On a multi-level scenario (docs/model.md section 12) the table holds the
model's joint optimum (pattern and interval), its best single-level schedule,
the first-order multi-level schedules of Benoit et al. (IEEE TC 2017) and, for
two levels, Di et al. (IEEE TPDS 2017), and the closed forms above for the
highest level alone (pattern 0), each rated by the multi-level model.`,
		Example: `  markov intervals
  markov intervals --app cg --processors 64 --json
  markov intervals --scenario app.json --work 30d`,
		Args: cobra.NoArgs,
		RunE: e.runE(func(ctx context.Context, cmd *cobra.Command) error {
			return runIntervals(ctx, cmd, opts)
		}),
	}
	opts.Scenario.jobWork = true // --work is the job's failure-free time
	opts.Scenario.register(cmd)
	handMadePolicies(cmd)
	opts.Model.register(cmd)
	opts.Output.register(cmd)
	cmd.Flags().StringVar(&opts.Work, "work", "", "failure-free compute time of the job (`DURATION`), for Bouguerra's model; or the work rate's FORM, as on the other model commands: linear, amdahl:F or power:E")
	return cmd
}

func runIntervals(ctx context.Context, cmd *cobra.Command, opts *intervalsOptions) error {
	opts.Scenario.takeWorkForm(&opts.Work)
	var work float64
	if opts.Work != "" {
		w, err := positiveDuration("work", opts.Work)
		if err != nil {
			return err
		}
		work = w
	}
	info, err := opts.Scenario.load(cmd)
	if err != nil {
		return err
	}
	if (&levelOptions{}).wanted(info.sc) {
		return runIntervalsLevels(ctx, opts, info, work)
	}
	info, m, err := buildModel(cmd, info, &opts.Model)
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
		markovRule{"Markov I*", opt.Result.Interval},
		markovRule{"Markov I_model (paper)", opt.ModelInterval})
	choices, err := intervals.Compare(params, models...)
	if err != nil {
		return err
	}

	rows, err := rateChoices(ctx, opts.env, m, choices, opt.Result.UWT)
	if err != nil {
		return err
	}
	return opts.env.render(opts.Output, intervalsReport{info: info, model: opts.Model, opt: opt, params: params, a: a, rows: rows})
}

// rateChoices evaluates UWT at each model's interval and its efficiency
// against the best UWT, with progress.
func rateChoices(ctx context.Context, e *env, m *uwt.Model, choices []intervals.Choice, best float64) ([]choiceJSON, error) {
	rows := make([]choiceJSON, len(choices))
	bar := e.startProgress("rating intervals", len(choices))
	defer bar.finish()
	for k, c := range choices {
		rows[k] = choiceJSON{Name: c.Name, Interval: jsonFloat(c.Interval), Note: c.Note,
			UWT: jsonFloat(math.NaN()), Efficiency: jsonFloat(math.NaN())}
		if c.Err != nil {
			rows[k].Error = oneLine(c.Err)
			rows[k].Interval = jsonFloat(math.NaN())
		} else if c.Interval > 0 && !math.IsInf(c.Interval, 0) {
			r, err := m.Evaluate(ctx, c.Interval)
			if err != nil {
				return nil, fmt.Errorf("%s interval %s: %w", c.Name, short(c.Interval), err)
			}
			rows[k].UWT = jsonFloat(r.UWT)
			rows[k].Efficiency = jsonFloat(r.UWT / best)
		}
		bar.add(1)
	}
	return rows, nil
}

// intervalsReport is the result of markov intervals.
type intervalsReport struct {
	info   scenarioInfo
	model  modelOptions
	opt    uwt.Optimum
	params intervals.Params
	// a is the processor count the closed forms are given.
	a    int
	rows []choiceJSON
}

func (r intervalsReport) JSON() any {
	p := r.params
	return intervalsJSON{
		Scenario: r.info.json(),
		Exact:    r.model.Exact,
		Optimum:  sampleJSON{jsonFloat(r.opt.Result.Interval), jsonFloat(r.opt.Result.UWT)},
		Params: paramsJSON{
			Processors: r.a,
			MTBF:       jsonFloat(p.MTBF),
			Checkpoint: jsonFloat(p.Checkpoint),
			Latency:    jsonFloat(p.Latency),
			Restart:    jsonFloat(p.Restart),
			Work:       jsonFloat(p.Work),
		},
		Models: r.rows,
	}
}

func (r intervalsReport) CSV() ([]string, [][]string) {
	var cells [][]string
	for _, c := range r.rows {
		cells = append(cells, []string{c.Name, csvFloat(float64(c.Interval)), csvFloat(float64(c.UWT)), csvFloat(float64(c.Efficiency)), c.Error})
	}
	return []string{"model", "interval", "uwt", "efficiency", "error"}, cells
}

func (r intervalsReport) Text(w io.Writer) error {
	p := r.params
	fmt.Fprintf(w, "Scenario  %s\n", r.info.describe())
	fmt.Fprintf(w, "Inputs    a = %d, job MTBF %s, C = %s, L = %s, R = %s\n\n",
		r.a, short(p.MTBF), short(p.Checkpoint), short(p.Latency), short(p.Restart))
	t := newTable(w)
	t.row("Model", "Interval", "UWT (work/s)", "Efficiency", "")
	for _, c := range r.rows {
		if c.Error != "" {
			t.row(c.Name, "-", "-", "-", "does not apply: "+c.Error)
			continue
		}
		t.row(c.Name, short(float64(c.Interval)), num(float64(c.UWT)), percent(float64(c.Efficiency)), "")
	}
	return t.flush()
}
