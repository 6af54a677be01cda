package cli

import (
	"fmt"
	"math"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/ckpt-markov/markov/internal/chart"
	"github.com/ckpt-markov/markov/internal/quote"
	"github.com/ckpt-markov/markov/sweep"
)

// sweepPlotOptions are the --plot flags of markov sweep merge, which
// prints no table (the merged files are the table).
type sweepPlotOptions struct {
	Path, Size, Value string
}

func (o *sweepPlotOptions) register(cmd *cobra.Command) {
	f := cmd.Flags()
	f.StringVar(&o.Path, "plot", "", "draw a grid study (UWT or I* over the two axes that vary, one line per value of the other) into `FILE` (.svg, .png or .pdf)")
	f.StringVar(&o.Size, "plot-size", "", "size of the --plot figure in pixels, `WxH` (96 per inch in SVG and PDF; default 680x416)")
	f.StringVar(&o.Value, "plot-value", "uwt", "`VALUE` --plot draws: uwt, or interval (I* of optimize tasks)")
}

// plot checks the flags (before any work) and returns the plot options.
func (o *sweepPlotOptions) plot(changed func(string) bool) (plotOptions, error) {
	p := plotOptions{Path: o.Path, Size: o.Size}
	if err := p.check(); err != nil {
		return p, err
	}
	if o.Value != "uwt" && o.Value != "interval" {
		return p, flagError("plot-value", "%s, want uwt or interval", quote.Value(o.Value))
	}
	if changed("plot-value") && o.Path == "" {
		return p, flagError("plot-value", "needs --plot")
	}
	return p, nil
}

// sweepFigure draws a grid of a merged study.
func sweepFigure(study string, g *sweep.Grid) (chart.Figure, error) {
	xu := axisUnit(g.X, g.X.Values)
	x := chart.Axis{Label: axisLabel(g.X.Name, xu)}
	if lo, hi := g.X.Values[0], g.X.Values[len(g.X.Values)-1]; lo > 0 && hi >= 100*lo {
		x.Log, x.Label = true, logLabel(g.X.Name, xu)
	}
	y := chart.Axis{Label: "UWT (work/s)", Zero: true}
	yu := timeUnit{"seconds", 1}
	if g.Value == "interval" {
		largest := 0.0
		for _, l := range g.Y {
			for _, v := range l {
				if !math.IsNaN(v) {
					largest = math.Max(largest, v)
				}
			}
		}
		yu = durationUnit(largest)
		y.Label = "I* (" + yu.name + ")"
	}
	panel := chart.Panel{X: x, Y: y, Legend: chart.BottomLeft}
	for k, ys := range g.Y {
		l := chart.Line{Points: true, Name: lineName(g.Lines, k)}
		for i, v := range ys {
			if !math.IsNaN(v) {
				l.X = append(l.X, g.X.Values[i]/xu.seconds)
				l.Y = append(l.Y, v/yu.seconds)
			}
		}
		if len(l.X) > 0 {
			panel.Lines = append(panel.Lines, l)
		}
	}
	if len(panel.Lines) == 0 {
		return chart.Figure{}, fmt.Errorf("--plot: no %s task has a %s to draw", g.Compute, g.Value)
	}
	what := "UWT"
	if g.Value == "interval" {
		what = "I*"
	}
	title := fmt.Sprintf("Study %s: %s of %s over %s", study, what, g.Compute, g.X.Name)
	if g.Lines.Name != "" {
		title += " and " + g.Lines.Name
	}
	return chart.Figure{Title: title, Panels: []chart.Panel{panel}}, nil
}

// axisUnit is the unit of a numeric axis: a duration unit for durations,
// 1 otherwise.
func axisUnit(a sweep.GridAxis, values []float64) timeUnit {
	if !a.Duration {
		return timeUnit{"", 1}
	}
	return durationUnit(values[len(values)-1])
}

// durationUnit is the largest of seconds, minutes, hours and days in which
// largest is at least 2.
func durationUnit(largest float64) timeUnit {
	for _, u := range []string{"d", "h", "m"} {
		if largest >= 2*timeUnits[u].seconds {
			return timeUnits[u]
		}
	}
	return timeUnits["s"]
}

func axisLabel(name string, u timeUnit) string {
	if u.name == "" {
		return name
	}
	return name + " (" + u.name + ")"
}

func logLabel(name string, u timeUnit) string {
	if u.name == "" {
		return name + " (log scale)"
	}
	return name + " (" + u.name + ", log scale)"
}

// lineName names the k-th line: "mttf = 20d", "policy greedy".
func lineName(a sweep.GridAxis, k int) string {
	switch {
	case a.Name == "":
		return ""
	case a.Duration:
		return a.Name + " = " + short(a.Values[k])
	case a.Numeric:
		return a.Name + " = " + strconv.FormatFloat(a.Values[k], 'g', -1, 64)
	}
	return a.Name + " " + a.Labels[k]
}

// maxPlotTasks bounds the tasks of a study --plot draws: the merged table
// is read into memory (a few hundred bytes a task), and no figure shows
// more points legibly.
const maxPlotTasks = 100_000

// drawSweep draws the grid of the merged study in dir, of tasks tasks.
func drawSweep(dir string, tasks int, p plotOptions, value string) error {
	if tasks > maxPlotTasks {
		return fmt.Errorf("--plot: the study has %d tasks, a figure draws at most %d (plot a smaller study, or from %s)", tasks, maxPlotTasks, sweep.MergedCSV)
	}
	tab, err := sweep.Merge(dir)
	if err != nil {
		return err
	}
	g, err := tab.Grid(value)
	if err != nil {
		return err
	}
	fig, err := sweepFigure(tab.Study, g)
	if err != nil {
		return err
	}
	return p.save(fig)
}
