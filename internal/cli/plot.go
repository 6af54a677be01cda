package cli

import (
	"fmt"
	"image/color"
	"path/filepath"
	"strings"

	"github.com/ckpt-markov/markov/internal/quote"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
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

// plotFormats are the file extensions --plot accepts.
var plotFormats = []string{".svg", ".png", ".pdf"}

// checkPlotPath checks that the plot file has a supported extension.
func checkPlotPath(path string) error {
	ext := strings.ToLower(filepath.Ext(path))
	for _, f := range plotFormats {
		if ext == f {
			return nil
		}
	}
	return flagError("plot", "%s: want a file name ending in %s", quote.Value(path), strings.Join(plotFormats, ", "))
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

// save draws the curve on a log interval axis and writes it to path, in the
// format of its extension.
func (c curvePlot) save(path string) error {
	p := plot.New()
	p.Title.Text = c.title
	p.X.Label.Text = "checkpoint interval I (" + c.unit.name + ", log scale)"
	p.Y.Label.Text = "UWT (work/s)"
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = plot.LogTicks{Prec: -1}
	p.Y.Min = 0
	p.Add(plotter.NewGrid())

	xys := make(plotter.XYs, len(c.intervals))
	for k := range xys {
		xys[k] = plotter.XY{X: c.intervals[k] / c.unit.seconds, Y: c.uwt[k]}
	}
	line, points, err := plotter.NewLinePoints(xys)
	if err != nil {
		return fmt.Errorf("plot: %v", err)
	}
	line.Color = color.RGBA{B: 180, A: 255}
	points.Color = line.Color
	points.Radius = vg.Points(1.5)
	p.Add(line, points)
	p.Legend.Add("UWT(I)", line, points)

	if c.hasOptimum {
		x := c.optimum / c.unit.seconds
		drop, err := plotter.NewLine(plotter.XYs{{X: x, Y: 0}, {X: x, Y: c.optimumUWT}})
		if err != nil {
			return fmt.Errorf("plot: %v", err)
		}
		drop.Color = color.RGBA{R: 200, A: 255}
		drop.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
		star, err := plotter.NewScatter(plotter.XYs{{X: x, Y: c.optimumUWT}})
		if err != nil {
			return fmt.Errorf("plot: %v", err)
		}
		star.Color = drop.Color
		star.Radius = vg.Points(3)
		p.Add(drop, star)
		p.Legend.Add(fmt.Sprintf("I* = %s, UWT = %s", short(c.optimum), num(c.optimumUWT)), drop, star)
	}
	// Bottom left of the data area: UWT falls towards zero only at the
	// ends of long ranges, so the corner is usually clear.
	p.Legend.Top = false
	p.Legend.Left = true
	p.Legend.XOffs = vg.Points(12)
	p.Legend.YOffs = vg.Points(8)
	if err := p.Save(18*vg.Centimeter, 11*vg.Centimeter, path); err != nil {
		return fmt.Errorf("plot: %v", err)
	}
	return nil
}
