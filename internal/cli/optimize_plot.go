package cli

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/ckpt-markov/markov/internal/chart"
	"github.com/ckpt-markov/markov/multilevel"
	"github.com/ckpt-markov/markov/optimal"
)

// The figures of markov optimize --plot: the doubling scan of the search
// (one policy), r*(n) and I(a) (--policy optimal), UWT over pattern and
// interval (multi-level). Each draws the numbers the table prints.

// scanFigure is the doubling scan of the search, I* marked.
func (r optimizeReport) scanFigure() (chart.Figure, error) {
	if r.noWork() {
		return chart.Figure{}, errNothingToPlot
	}
	c := curvePlot{
		title:      "UWT(I) of the search: " + r.info.describe(),
		optimum:    r.opt.Result.Interval,
		optimumUWT: r.opt.Result.UWT,
		hasOptimum: true,
	}
	largest := 0.0
	for _, s := range r.opt.Scan {
		c.intervals = append(c.intervals, s.Interval)
		c.uwt = append(c.uwt, s.UWT)
		largest = math.Max(largest, s.Interval)
	}
	c.unit, _ = pickUnit("auto", largest)
	return c.figure(), nil
}

// errNothingToPlot is the error of --plot where no policy or interval
// does useful work.
var errNothingToPlot = errors.New("--plot: nothing to draw, no interval gives useful work (the table says so without --plot)")

// optimalFigure draws r*(n) of level 2 (and of level 4 where it differs)
// against n, and I(a) of level 3 against a with I* of level 2, from the
// report the table prints. A policy without a vector (it depends on the
// checkpoint count) draws I(a) only.
func (r optimalLevelsReport) optimalFigure() (chart.Figure, error) {
	rep := r.rep
	if rep.Single.Status == optimal.NoUsefulWork {
		return chart.Figure{}, errNothingToPlot
	}
	fig := chart.Figure{Title: "Optimal policy: " + r.info.describe()}
	v2, _ := optimalVector(rep.Single.Policy)
	if v2 != nil {
		var lines []chart.Line
		n := make([]float64, v2.N())
		diag := make([]float64, v2.N())
		for k := range n {
			n[k], diag[k] = float64(k+1), float64(k+1)
		}
		lines = append(lines, vectorLine("r*(n), one interval (level 2)", v2, false))
		if v4, _ := optimalVector(rep.PerState.Policy); v4 != nil && !slices.Equal(v4, v2) {
			lines = append(lines, vectorLine("r*(n), per-state intervals (level 4)", v4, true))
		}
		lines = append(lines, chart.Line{Name: "r(n) = n (greedy)", X: n, Y: diag, Dashed: true})
		fig.Panels = append(fig.Panels, chart.Panel{
			Title:  "processors the policy restarts on",
			X:      chart.Axis{Label: "functional processors n"},
			Y:      chart.Axis{Label: "processors used r(n)", Zero: true},
			Lines:  lines,
			Legend: chart.TopLeft,
		})
	}
	as := make([]int, 0, len(rep.PerConfiguration.Intervals))
	largest := rep.Single.Interval
	for a, x := range rep.PerConfiguration.Intervals {
		as = append(as, a)
		largest = math.Max(largest, x)
	}
	slices.Sort(as)
	unit := durationUnit(largest)
	per := chart.Line{Name: "I(a), one interval per count (level 3)", Points: true}
	for _, a := range as {
		per.X = append(per.X, float64(a))
		per.Y = append(per.Y, rep.PerConfiguration.Intervals[a]/unit.seconds)
	}
	panel := chart.Panel{
		Title:  "checkpoint intervals",
		X:      chart.Axis{Label: "processors used a"},
		Y:      chart.Axis{Label: "interval (" + unit.name + ")", Zero: true},
		Legend: chart.BottomLeft,
	}
	if len(as) > 0 {
		lo, hi := float64(as[0]), float64(as[len(as)-1])
		if lo == hi {
			lo, hi = lo-0.5, hi+0.5
		}
		single := rep.Single.Interval / unit.seconds
		panel.Lines = append(panel.Lines, per, chart.Line{
			Name: fmt.Sprintf("I* = %s, one interval (level 2)", short(rep.Single.Interval)),
			X:    []float64{lo, hi}, Y: []float64{single, single}, Dashed: true,
		})
	} else {
		// No configuration with stationary mass: I* alone.
		panel.Marks = []chart.Mark{{X: 1, Y: rep.Single.Interval / unit.seconds, Label: "I* = " + short(rep.Single.Interval)}}
	}
	fig.Panels = append(fig.Panels, panel)
	return fig, nil
}

// vectorLine is a rescheduling vector as a staircase over n = 1..N.
func vectorLine(name string, v []int, dashed bool) chart.Line {
	l := chart.Line{Name: name, Step: true, Dashed: dashed}
	for k, r := range v {
		l.X = append(l.X, float64(k+1))
		l.Y = append(l.Y, float64(r))
	}
	return l
}

// levelsPlotPoints is the number of intervals of each UWT(I) line of the
// multi-level figure, and levelsPlotSpan the factor either side of I*
// they span.
const (
	levelsPlotPoints = 41
	levelsPlotSpan   = 16.0
	// levelsPlotPatterns bounds the first entries of the pattern panel.
	levelsPlotPatterns = 41
)

// levelsFigure draws the multi-level optimum: UWT(I) for the best pattern
// and for patterns that change its first entry, and the best UWT over I
// for each first entry V1 with the others fixed (V1 = 0 of a two-level
// scenario is the single level).
func (r levelsOptimizeReport) levelsFigure(ctx context.Context) (chart.Figure, error) {
	o := r.opt
	if !(o.UWT > 0) {
		return chart.Figure{}, errNothingToPlot
	}
	// The best pattern and those with half and twice its first entry (the
	// single level, far below near small intervals, would run through the
	// legend: the second panel shows it at V1 = 0).
	patterns := [][]int{o.Pattern}
	if len(o.Pattern) > 0 {
		for _, v1 := range []int{o.Pattern[0] / 2, 2*o.Pattern[0] + 1} {
			p := slices.Clone(o.Pattern)
			p[0] = v1
			if !slices.ContainsFunc(patterns, func(q []int) bool { return slices.Equal(p, q) }) {
				patterns = append(patterns, p)
			}
		}
	}
	unit, _ := pickUnit("auto", o.Interval*levelsPlotSpan)
	curves := chart.Panel{
		Title:  "UWT against the interval, by pattern",
		X:      chart.Axis{Label: "checkpoint interval I (" + unit.name + ", log scale)", Log: true},
		Y:      chart.Axis{Label: "UWT (work/s)", Zero: true},
		Legend: chart.BottomLeft,
	}
	for k, p := range patterns {
		l := chart.Line{Name: "pattern " + patternText(p), Dashed: k > 0}
		for i := range levelsPlotPoints {
			x := o.Interval * math.Pow(levelsPlotSpan, 2*float64(i)/(levelsPlotPoints-1)-1)
			res, err := r.m.Evaluate(p, x)
			if err != nil {
				return chart.Figure{}, err
			}
			l.X, l.Y = append(l.X, x/unit.seconds), append(l.Y, res.UWT)
		}
		if k == 0 {
			l.Name += " (best)"
		}
		curves.Lines = append(curves.Lines, l)
	}
	curves.Marks = []chart.Mark{{X: o.Interval / unit.seconds, Y: o.UWT,
		Label: fmt.Sprintf("optimum: pattern %s, I = %s, UWT = %s", patternText(o.Pattern), short(o.Interval), num(o.UWT))}}
	fig := chart.Figure{Title: "Multi-level checkpointing: " + r.info.describe(), Panels: []chart.Panel{curves}}
	if len(o.Pattern) == 0 {
		return fig, nil
	}
	// UWT at each pattern's own best interval, over the first entry.
	hi := max(4, 2*o.Pattern[0])
	step := max(1, (hi+levelsPlotPatterns-2)/(levelsPlotPatterns-1))
	best := chart.Line{Name: "UWT at the best I of the pattern (V1 = 0: no level-1 checkpoints)", Points: true}
	for v1 := 0; v1 <= hi; v1 += step {
		p := slices.Clone(o.Pattern)
		p[0] = v1
		opt, err := r.m.Optimize(ctx, &multilevel.OptimizeSettings{Pattern: p})
		if err != nil {
			return chart.Figure{}, err
		}
		best.X, best.Y = append(best.X, float64(v1)), append(best.Y, opt.UWT)
	}
	fig.Panels = append(fig.Panels, chart.Panel{
		Title:  "UWT against the first pattern entry (the others as in the optimum)",
		X:      chart.Axis{Label: "level-1 checkpoints between level-2 ones, V1"},
		Y:      chart.Axis{Label: "UWT (work/s)", Zero: true},
		Lines:  []chart.Line{best},
		Legend: chart.BottomLeft,
		Marks: []chart.Mark{{X: float64(o.Pattern[0]), Y: o.UWT,
			Label: fmt.Sprintf("optimum V1 = %d", o.Pattern[0])}},
	})
	return fig, nil
}
