package cli

import (
	"context"
	"fmt"
	"io"
	"math"

	"gonum.org/v1/gonum/floats"

	"github.com/ckpt-markov/markov/internal/chart"
	"github.com/ckpt-markov/markov/multilevel"
)

// runCurveLevels is markov curve on the multi-level model: UWT against
// the interval for the given pattern or the best one.
func runCurveLevels(ctx context.Context, opts *curveOptions, info scenarioInfo, from, to float64) error {
	if opts.Model.OldCountBin > 1 {
		return flagError("old-count-bin", "the multi-level model is exact and keeps no old counts")
	}
	m, pattern, err := opts.Levels.levelModel(ctx, info, &opts.Model)
	if err != nil {
		return err
	}
	r := levelsCurveReport{info: info, m: m, plot: opts.Plot.Path, pattern: pattern}
	if opts.Optimum {
		bar := opts.env.startProgress("searching the pattern and I*", 0)
		opt, err := m.Optimize(ctx, &multilevel.OptimizeSettings{Pattern: pattern})
		bar.finish()
		if err != nil {
			return err
		}
		r.optimum, r.pattern = &opt, opt.Pattern
		// The default range: where UWT falls to half its best, within a
		// factor 1000 of I* where it never does.
		lo, hi, err := m.Band(opt.Result, 0.5)
		if err != nil {
			return err
		}
		if opts.From == "" {
			from = math.Max(lo, opt.Interval/1000)
		}
		if opts.To == "" {
			to = math.Min(hi, opt.Interval*1000)
		}
	}
	if !(from < to) || math.IsInf(to, 0) {
		return usageError{fmt.Errorf("--from %s, --to %s: want from < to", short(from), short(to))}
	}
	grid := floats.LogSpan(make([]float64, opts.Points), from, to)
	grid[0], grid[len(grid)-1] = from, to // exactly, not exp(log(x))
	bar := opts.env.startProgress("evaluating UWT(I)", len(grid))
	for _, I := range grid {
		res, err := m.Evaluate(r.pattern, I)
		if err != nil {
			bar.finish()
			return err
		}
		r.points = append(r.points, res)
		bar.add(1)
	}
	bar.finish()
	if r.pattern == nil && len(r.points) > 0 {
		r.pattern = r.points[0].Pattern
	}
	if r.unit, err = pickUnit(opts.Unit, to); err != nil {
		return err
	}
	return opts.env.renderPlotted(opts.Output, opts.Plot, r, func() (chart.Figure, error) { return r.curvePlot().figure(), nil })
}

// levelsCurveReport is the result of markov curve on a multi-level
// scenario.
type levelsCurveReport struct {
	info    scenarioInfo
	m       *multilevel.Model
	optimum *multilevel.Optimum // nil with --optimum=false
	pattern []int
	points  []multilevel.Result
	unit    timeUnit
	plot    string
}

// levelsCurveJSON is curveJSON's keys with the pattern and, per point,
// the multi-level ones.
type levelsCurveJSON struct {
	Scenario  scenarioJSON           `json:"scenario"`
	Exact     bool                   `json:"exact"`
	Pattern   []int                  `json:"pattern"`
	Malleable bool                   `json:"malleable"`
	Optimum   *sampleJSON            `json:"optimum,omitempty"`
	Points    []levelsCurvePointJSON `json:"points"`
	Plot      string                 `json:"plot,omitempty"`
}

type levelsCurvePointJSON struct {
	Interval       jsonFloat   `json:"interval"`
	UWT            jsonFloat   `json:"uwt"`
	Availability   jsonFloat   `json:"availability"`
	Efficiency     jsonFloat   `json:"efficiency"`
	LevelIntervals []jsonFloat `json:"level_intervals"`
	Dropped        jsonFloat   `json:"dropped"`
}

func (r levelsCurveReport) curvePlot() curvePlot {
	c := curvePlot{title: "UWT(I), pattern " + patternText(r.pattern) + ": " + r.info.describe(), unit: r.unit, hasOptimum: r.optimum != nil}
	if r.optimum != nil {
		c.optimum, c.optimumUWT = r.optimum.Interval, r.optimum.UWT
	}
	for _, p := range r.points {
		c.intervals = append(c.intervals, p.Interval)
		c.uwt = append(c.uwt, p.UWT)
	}
	return c
}

func (r levelsCurveReport) JSON() any {
	j := levelsCurveJSON{Scenario: r.info.json(), Exact: true, Pattern: r.pattern, Malleable: r.m.Malleable(), Plot: r.plot}
	if r.optimum != nil {
		j.Optimum = &sampleJSON{jsonFloat(r.optimum.Interval), jsonFloat(r.optimum.UWT)}
	}
	for _, p := range r.points {
		li := make([]jsonFloat, len(p.LevelIntervals))
		for i, x := range p.LevelIntervals {
			li[i] = jsonFloat(x)
		}
		j.Points = append(j.Points, levelsCurvePointJSON{Interval: jsonFloat(p.Interval), UWT: jsonFloat(p.UWT),
			Availability: jsonFloat(p.Availability), Efficiency: jsonFloat(p.Efficiency), LevelIntervals: li, Dropped: jsonFloat(p.Dropped)})
	}
	return j
}

func (r levelsCurveReport) CSV() ([]string, [][]string) {
	rows := make([][]string, len(r.points))
	for k, p := range r.points {
		rows[k] = []string{csvFloat(p.Interval), csvFloat(p.UWT), csvFloat(p.Availability), csvFloat(p.Efficiency), joinInts(p.Pattern, " "), joinFloats(p.LevelIntervals, " ")}
	}
	return []string{"interval", "uwt", "availability", "efficiency", "pattern", "level_intervals"}, rows
}

func (r levelsCurveReport) Text(w io.Writer) error {
	fmt.Fprintf(w, "Scenario  %s\n", r.info.describe())
	fmt.Fprintf(w, "Pattern   %s\n", patternText(r.pattern))
	if r.optimum != nil {
		fmt.Fprintf(w, "I*        %s, UWT %s work/s\n", dur(r.optimum.Interval), num(r.optimum.UWT))
	}
	fmt.Fprintln(w)
	t := newTable(w)
	t.row("Interval", "I ("+r.unit.name+")", "UWT (work/s)", "Availability", "Efficiency")
	for _, p := range r.points {
		t.row(short(p.Interval), num(p.Interval/r.unit.seconds), num(p.UWT), num(p.Availability), num(p.Efficiency))
	}
	return t.flush()
}
