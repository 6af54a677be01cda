package cli

import (
	"context"
	"fmt"
	"strconv"

	"github.com/spf13/cobra"

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
	Plot     string
	Unit     string
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
sides of I*.`,
		Example: `  markov curve --plot uwt.svg
  markov curve --from 10m --to 100h --points 40 --csv > curve.csv
  markov curve --app md --processors 64 --unit h --plot md.png`,
		Args: cobra.NoArgs,
		RunE: e.runE(func(ctx context.Context, cmd *cobra.Command) error {
			return runCurve(ctx, cmd, opts)
		}),
	}
	opts.Scenario.register(cmd)
	opts.Model.register(cmd)
	opts.Output.register(cmd)
	f := cmd.Flags()
	f.StringVar(&opts.From, "from", "", "smallest interval (`DURATION`); default: the start of I*'s scan")
	f.StringVar(&opts.To, "to", "", "largest interval (`DURATION`); default: the end of I*'s scan")
	f.IntVar(&opts.Points, "points", 25, "number of intervals, spaced evenly in log I")
	f.BoolVar(&opts.Optimum, "optimum", true, "search I* and mark it")
	f.StringVar(&opts.Plot, "plot", "", "write a plot to `FILE` (.svg, .png or .pdf)")
	f.StringVar(&opts.Unit, "unit", "auto", "interval `UNIT` of the plot and table: auto, s, min, h or d")
	return cmd
}

func runCurve(ctx context.Context, cmd *cobra.Command, opts *curveOptions) error {
	var from, to float64
	var err error
	if opts.From != "" {
		if from, err = positiveDuration("from", opts.From); err != nil {
			return err
		}
	}
	if opts.To != "" {
		if to, err = positiveDuration("to", opts.To); err != nil {
			return err
		}
	}
	if !opts.Optimum && (opts.From == "" || opts.To == "") {
		return flagError("optimum", "false needs both --from and --to")
	}
	if opts.Points < 2 {
		return flagError("points", "%d, want at least 2", opts.Points)
	}
	if opts.Plot != "" {
		if err := checkPlotPath(opts.Plot); err != nil {
			return err
		}
	}
	if _, err := pickUnit(opts.Unit, 0); err != nil {
		return err
	}
	info, m, err := loadModel(cmd, &opts.Scenario, &opts.Model)
	if err != nil {
		return err
	}

	var opt uwt.Optimum
	if opts.Optimum {
		bar := opts.env.startProgress("searching I*", 0)
		opt, err = m.Optimize(ctx, nil)
		bar.finish()
		if err != nil {
			return err
		}
		if opts.From == "" {
			from = opt.Scan[0].Interval
		}
		if opts.To == "" {
			to = opt.Scan[len(opt.Scan)-1].Interval
		}
	}
	grid, err := uwt.LogGrid(from, to, opts.Points)
	if err != nil {
		return usageError{fmt.Errorf("--from %s, --to %s: want from < to", short(from), short(to))}
	}
	results := make([]uwt.Result, len(grid))
	bar := opts.env.startProgress("evaluating UWT(I)", len(grid))
	for k, i := range grid {
		r, err := m.Curve(ctx, []float64{i})
		if err != nil {
			bar.finish()
			return err
		}
		results[k] = r[0]
		bar.add(1)
	}
	bar.finish()

	unit, err := pickUnit(opts.Unit, to)
	if err != nil {
		return err
	}
	if opts.Plot != "" {
		c := curvePlot{
			title:      "UWT(I): " + info.describe(),
			unit:       unit,
			hasOptimum: opts.Optimum,
			optimum:    opt.Interval,
			optimumUWT: opt.UWT,
		}
		for _, r := range results {
			c.intervals = append(c.intervals, r.Interval)
			c.uwt = append(c.uwt, r.UWT)
		}
		if err := c.save(opts.Plot); err != nil {
			return err
		}
	}

	out := opts.env.out
	switch {
	case opts.Output.JSON:
		j := curveJSON{Scenario: info.json(), Exact: opts.Model.Exact, Plot: opts.Plot}
		if opts.Optimum {
			j.Optimum = &sampleJSON{jsonFloat(opt.Interval), jsonFloat(opt.UWT)}
		}
		for _, r := range results {
			j.Points = append(j.Points, curvePointJSON{
				Interval:     jsonFloat(r.Interval),
				UWT:          jsonFloat(r.UWT),
				Availability: jsonFloat(r.Availability),
				States:       r.States,
				Dropped:      jsonFloat(r.Dropped),
			})
		}
		return writeJSON(out, j)
	case opts.Output.CSV:
		rows := make([][]string, len(results))
		for k, r := range results {
			rows[k] = []string{csvFloat(r.Interval), csvFloat(r.UWT), csvFloat(r.Availability), strconv.Itoa(r.States), csvFloat(r.Dropped)}
		}
		return writeCSV(out, []string{"interval", "uwt", "availability", "states", "dropped"}, rows)
	}

	fmt.Fprintf(out, "Scenario  %s\n", info.describe())
	if opts.Optimum {
		fmt.Fprintf(out, "I*        %s, UWT %s work/s\n", dur(opt.Interval), num(opt.UWT))
	}
	fmt.Fprintln(out)
	t := newTable(out)
	t.row("Interval", "I ("+unit.name+")", "UWT (work/s)", "Availability")
	for _, r := range results {
		t.row(short(r.Interval), num(r.Interval/unit.seconds), num(r.UWT), num(r.Availability))
	}
	if err := t.flush(); err != nil {
		return err
	}
	if opts.Plot != "" {
		fmt.Fprintf(out, "\nPlot written to %s\n", opts.Plot)
	}
	return nil
}
