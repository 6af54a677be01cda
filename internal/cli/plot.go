package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/ckpt-markov/markov/internal/chart"
	"github.com/ckpt-markov/markov/internal/quote"
)

// timeUnit is a unit for the interval axis of a plot.
type timeUnit struct {
	name    string  // as in the axis label
	seconds float64 // length in seconds
}

// timeUnits are the units --unit accepts: those of every duration flag
// (scenario.ParseDuration), and "min" as before.
var timeUnits = map[string]timeUnit{
	"s":   {"seconds", 1},
	"m":   {"minutes", 60},
	"min": {"minutes", 60},
	"h":   {"hours", 3600},
	"d":   {"days", 86400},
	"w":   {"weeks", 7 * 86400},
	"y":   {"years", 365 * 86400},
}

// pickUnit returns the unit of the flag value; "auto" means hours when the
// largest interval is at least an hour, seconds otherwise.
func pickUnit(flag string, largest float64) (timeUnit, error) {
	if flag == "auto" {
		if largest >= timeUnits["h"].seconds {
			return timeUnits["h"], nil
		}
		return timeUnits["s"], nil
	}
	u, ok := timeUnits[flag]
	if !ok {
		return timeUnit{}, flagError("unit", "%s, want auto or a duration unit: s, m, h, d, w, y", quote.Value(flag))
	}
	return u, nil
}

// plotOptions are the flags of a command that can draw its answer.
type plotOptions struct {
	// Path is the figure's file (--plot), empty for none.
	Path string
	// Size is --plot-size as typed.
	Size string
	// Table prints the table too when a figure is written.
	Table bool
}

func (o *plotOptions) register(cmd *cobra.Command, what string) {
	f := cmd.Flags()
	f.StringVar(&o.Path, "plot", "", "draw "+what+" into `FILE` (.svg, .png or .pdf) instead of printing the table")
	f.StringVar(&o.Size, "plot-size", "", "size of the --plot figure in pixels, `WxH` (96 per inch in SVG and PDF; default 680x416, 260 pixels higher per extra panel)")
	f.BoolVar(&o.Table, "table", false, "with --plot, print the table too")
}

// check checks the flags before any computation.
func (o *plotOptions) check() error {
	if o.Path == "" {
		if o.Table {
			return flagError("table", "needs --plot (without --plot the table is printed anyway)")
		}
		if o.Size != "" {
			return flagError("plot-size", "needs --plot")
		}
		return nil
	}
	if err := chart.CheckPath(o.Path); err != nil {
		return flagError("plot", "%v", err)
	}
	if o.Size != "" {
		if _, err := chart.ParseSize(o.Size); err != nil {
			return flagError("plot-size", "%v", err)
		}
	}
	return nil
}

// figureSaved, when not nil, is given every figure save writes: the tests
// compare the figure's data with the command's table.
var figureSaved func(chart.Figure)

// save writes fig to --plot at --plot-size (both checked by check).
func (o *plotOptions) save(fig chart.Figure) error {
	if figureSaved != nil {
		figureSaved(fig)
	}
	size := chart.DefaultSizeFor(len(fig.Panels))
	if o.Size != "" {
		var err error
		if size, err = chart.ParseSize(o.Size); err != nil {
			return flagError("plot-size", "%v", err)
		}
	}
	return fig.Save(o.Path, size)
}

// draw writes the figure fig draws when --plot asks for one, and does
// nothing (fig is not called) otherwise, or when fig is nil (the caller
// drew it already).
func (o *plotOptions) draw(fig func() (chart.Figure, error)) error {
	if o.Path == "" || fig == nil {
		return nil
	}
	f, err := fig()
	if err != nil {
		return err
	}
	return o.save(f)
}

// renderPlotted writes the figure fig draws when --plot asks for one (one
// place for every command's --plot), then r as render does, except that
// in the text form a written figure replaces the table unless --table
// asks for both.
func (e *env) renderPlotted(o outputOptions, p plotOptions, r report, fig func() (chart.Figure, error)) error {
	if err := p.draw(fig); err != nil {
		return err
	}
	if p.Path == "" || o.JSON || o.CSV {
		return e.render(o, r)
	}
	if p.Table {
		if err := e.render(o, r); err != nil {
			return err
		}
		fmt.Fprintln(e.out)
	}
	_, err := fmt.Fprintf(e.out, "Plot written to %s\n", p.Path)
	return err
}

// curvePlot is what a UWT(I) plot shows.
type curvePlot struct {
	title string
	// intervals (seconds) and uwt are the curve.
	intervals, uwt []float64
	// optimum is I* (seconds) with its UWT; marked when hasOptimum.
	optimum, optimumUWT float64
	hasOptimum          bool
	unit                timeUnit
}

// figure is the curve on a log interval axis, I* marked.
func (c curvePlot) figure() chart.Figure {
	line := chart.Line{Name: "UWT(I)", Points: true, Y: c.uwt}
	for _, i := range c.intervals {
		line.X = append(line.X, i/c.unit.seconds)
	}
	panel := chart.Panel{
		X:     chart.Axis{Label: "checkpoint interval I (" + c.unit.name + ", log scale)", Log: true},
		Y:     chart.Axis{Label: "UWT (work/s)", Zero: true},
		Lines: []chart.Line{line},
	}
	if c.hasOptimum {
		panel.Marks = []chart.Mark{{X: c.optimum / c.unit.seconds, Y: c.optimumUWT,
			Label: fmt.Sprintf("I* = %s, UWT = %s", short(c.optimum), num(c.optimumUWT))}}
	}
	return chart.Figure{Title: c.title, Panels: []chart.Panel{panel}}
}
