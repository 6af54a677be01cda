package cli

import (
	"context"
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/spf13/cobra"
	"gonum.org/v1/gonum/floats"

	"github.com/ckpt-markov/markov/internal/chart"
	"github.com/ckpt-markov/markov/uwt"
)

// curveOptions are the flags of markov curve.
type curveOptions struct {
	env      *env
	Scenario scenarioOptions
	Model    modelOptions
	Output   outputOptions
	From, To string
	Points   int
	Optimum  bool
	Plot     plotOptions
	Unit     string
	Levels   levelOptions
}

// curveJSON is the --json output of markov curve.
type curveJSON struct {
	Scenario scenarioJSON `json:"scenario"`
	Exact    bool         `json:"exact"`
	// Optimum is I* and its UWT, absent with --optimum=false.
	Optimum *sampleJSON      `json:"optimum,omitempty"`
	Points  []curvePointJSON `json:"points"`
	// Plot is the plot file written, if any.
	Plot string `json:"plot,omitempty"`
}

// curvePointJSON is one point of the curve.
type curvePointJSON struct {
	Interval     jsonFloat `json:"interval"`
	UWT          jsonFloat `json:"uwt"`
	Availability jsonFloat `json:"availability"`
	States       int       `json:"states"`
	Dropped      jsonFloat `json:"dropped"`
}

func newCurveCmd(e *env) *cobra.Command {
	opts := &curveOptions{env: e}
	cmd := &cobra.Command{
		Use:   "curve",
		Short: "UWT over a range of checkpoint intervals, as a table or a plot",
		Long: `Evaluate UWT(I) at --points intervals spaced evenly in log I from --from to
--to, and print them (table, --csv or --json) or draw them (--plot FILE.svg,
.png or .pdf: interval on a log axis, UWT in work per second, I* marked).

Unless --optimum=false, I* is searched first and marked; the default range is
then the one the search scanned, where UWT falls to half its best on both
sides of I*.

On a multi-level scenario (docs/model.md section 12) the curve is UWT against
the interval for one pattern: --pattern (or the scenario's checkpoint_pattern)
or, without one, the best pattern of the joint optimum; the default range is
where UWT falls to half its best on both sides of I*.`,
		Example: `  markov curve --plot uwt.svg
  markov curve --from 10m --to 100h --points 40 --csv > curve.csv
  markov curve --app md --processors 64 --unit h --plot md.png`,
		Args: cobra.NoArgs,
		RunE: e.runE(func(ctx context.Context, cmd *cobra.Command) error {
			return runCurve(ctx, cmd, opts)
		}),
	}
	opts.Scenario.register(cmd)
	handMadePolicies(cmd)
	opts.Model.register(cmd)
	opts.Output.register(cmd)
	opts.Plot.register(cmd, "the curve")
	opts.Levels.register(cmd, false)
	f := cmd.Flags()
	f.StringVar(&opts.From, "from", "", "smallest interval (`DURATION`); default: the start of I*'s scan")
	f.StringVar(&opts.To, "to", "", "largest interval (`DURATION`); default: the end of I*'s scan")
	f.IntVar(&opts.Points, "points", 25, "number of intervals, spaced evenly in log I")
	f.BoolVar(&opts.Optimum, "optimum", true, "search I* and mark it")
	f.StringVar(&opts.Unit, "unit", "auto", "interval `UNIT` of the plot and table: auto, s, m, h, d, w or y (as in durations)")
	return cmd
}

func runCurve(ctx context.Context, cmd *cobra.Command, opts *curveOptions) error {
	from, to, err := opts.bounds()
	if err != nil {
		return err
	}
	info, err := opts.Scenario.load(cmd)
	if err != nil {
		return err
	}
	if opts.Levels.wanted(info.sc) {
		return runCurveLevels(ctx, opts, info, from, to)
	}
	info, m, err := buildModel(cmd, info, &opts.Model)
	if err != nil {
		return err
	}
	r := curveReport{info: info, model: opts.Model, plot: opts.Plot.Path}
	if opts.Optimum {
		bar := opts.env.startProgress("searching I*", 0)
		opt, err := m.Optimize(ctx, nil)
		bar.finish()
		if err != nil {
			return err
		}
		r.optimum = &opt
		if opts.From == "" {
			from = opt.Scan[0].Interval
		}
		if opts.To == "" {
			to = opt.Scan[len(opt.Scan)-1].Interval
		}
	}
	if !(from < to) || math.IsInf(to, 0) {
		return usageError{fmt.Errorf("--from %s, --to %s: want from < to", short(from), short(to))}
	}
	grid := floats.LogSpan(make([]float64, opts.Points), from, to)
	grid[len(grid)-1] = to // exactly, not exp(log(to))
	if r.points, err = evaluateGrid(ctx, opts.env, m, grid); err != nil {
		return err
	}
	if r.unit, err = pickUnit(opts.Unit, to); err != nil {
		return err
	}
	return opts.env.renderPlotted(opts.Output, opts.Plot, r, func() (chart.Figure, error) { return r.curvePlot().figure(), nil })
}

// bounds checks the flags and returns --from and --to in seconds (0 when
// not given).
func (o *curveOptions) bounds() (from, to float64, err error) {
	if o.From != "" {
		if from, err = positiveDuration("from", o.From); err != nil {
			return 0, 0, err
		}
	}
	if o.To != "" {
		if to, err = positiveDuration("to", o.To); err != nil {
			return 0, 0, err
		}
	}
	if !o.Optimum && (o.From == "" || o.To == "") {
		return 0, 0, flagError("optimum", "false needs both --from and --to")
	}
	if o.Points < 2 || o.Points > maxPoints {
		return 0, 0, flagError("points", "%d, want at least 2 and at most %d", o.Points, maxPoints)
	}
	if err := o.Plot.check(); err != nil {
		return 0, 0, err
	}
	if _, err := pickUnit(o.Unit, 0); err != nil {
		return 0, 0, err
	}
	return from, to, nil
}

// evaluateGrid evaluates UWT at each interval of grid, with progress.
func evaluateGrid(ctx context.Context, e *env, m *uwt.Model, grid []float64) ([]uwt.Result, error) {
	results := make([]uwt.Result, len(grid))
	bar := e.startProgress("evaluating UWT(I)", len(grid))
	defer bar.finish()
	for k, i := range grid {
		r, err := m.Curve(ctx, []float64{i})
		if err != nil {
			return nil, err
		}
		results[k] = r[0]
		bar.add(1)
	}
	return results, nil
}

// curveReport is the result of markov curve.
type curveReport struct {
	info  scenarioInfo
	model modelOptions
	// optimum is I*'s search, nil with --optimum=false.
	optimum *uwt.Optimum
	points  []uwt.Result
	unit    timeUnit
	// plot is the plot file written, if any.
	plot string
}

func (r curveReport) curvePlot() curvePlot {
	c := curvePlot{title: "UWT(I): " + r.info.describe(), unit: r.unit, hasOptimum: r.optimum != nil}
	if r.optimum != nil {
		c.optimum, c.optimumUWT = r.optimum.Result.Interval, r.optimum.Result.UWT
	}
	for _, p := range r.points {
		c.intervals = append(c.intervals, p.Interval)
		c.uwt = append(c.uwt, p.UWT)
	}
	return c
}

func (r curveReport) JSON() any {
	j := curveJSON{Scenario: r.info.json(), Exact: r.model.Exact, Plot: r.plot}
	if r.optimum != nil {
		j.Optimum = &sampleJSON{jsonFloat(r.optimum.Result.Interval), jsonFloat(r.optimum.Result.UWT)}
	}
	for _, p := range r.points {
		j.Points = append(j.Points, curvePointJSON{
			Interval:     jsonFloat(p.Interval),
			UWT:          jsonFloat(p.UWT),
			Availability: jsonFloat(p.Availability),
			States:       p.States,
			Dropped:      jsonFloat(p.Dropped),
		})
	}
	return j
}

func (r curveReport) CSV() ([]string, [][]string) {
	rows := make([][]string, len(r.points))
	for k, p := range r.points {
		rows[k] = []string{csvFloat(p.Interval), csvFloat(p.UWT), csvFloat(p.Availability), strconv.Itoa(p.States), csvFloat(p.Dropped)}
	}
	return []string{"interval", "uwt", "availability", "states", "dropped"}, rows
}

func (r curveReport) Text(w io.Writer) error {
	fmt.Fprintf(w, "Scenario  %s\n", r.info.describe())
	if r.optimum != nil {
		fmt.Fprintf(w, "I*        %s, UWT %s work/s\n", dur(r.optimum.Result.Interval), num(r.optimum.Result.UWT))
	}
	fmt.Fprintln(w)
	t := newTable(w)
	t.row("Interval", "I ("+r.unit.name+")", "UWT (work/s)", "Availability")
	for _, p := range r.points {
		t.row(short(p.Interval), num(p.Interval/r.unit.seconds), num(p.UWT), num(p.Availability))
	}
	return t.flush()
}

// maxPoints bounds --points: each point is a model solve, and 10⁴ of them
// are hours for a large model and far more than a plot resolves.
const maxPoints = 10_000
