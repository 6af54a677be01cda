package sweep

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// Grid is one value of a scenario study's merged records laid out over
// the axes that vary: Y[k][i] is the value at X.Values[i] on the line
// Lines.Labels[k] (NaN where the task failed or has no such value).
type Grid struct {
	// Compute is the computation whose records the grid holds.
	Compute string
	// Value is the value drawn: "uwt" or "interval".
	Value string
	// X is the numeric axis with the most values; Lines is the other
	// varying axis (one line per value), or an axis with one unnamed
	// value when only one axis varies.
	X, Lines GridAxis
	Y        [][]float64
}

// GridAxis is a coordinate of the records: Name is its column of the
// merged table (processors, mttf, mttr, checkpoint_latency, recovery,
// interval, or scenario, application, policy); Numeric axes have Values
// (seconds for the durations), the others only Labels.
type GridAxis struct {
	Name     string
	Numeric  bool
	Duration bool
	Values   []float64
	Labels   []string
}

// gridCoord is a coordinate a grid can vary over.
type gridCoord struct {
	name     string
	duration bool
	num      func(*Record) (float64, bool)
	label    func(*Record) string
}

func gridValue(x *float64) (float64, bool) {
	if x == nil {
		return 0, false
	}
	return *x, true
}

// gridCoords are the study's scenario axes, in the order of the study
// file. The interval is an axis of uwt and simulate only (optimize finds it).
var gridCoords = []gridCoord{
	{name: "scenario", label: func(r *Record) string { return r.Scenario }},
	{name: "application", label: func(r *Record) string { return r.Application }},
	{name: "processors", num: func(r *Record) (float64, bool) { return float64(r.Processors), r.Processors > 0 }},
	{name: "mttf", duration: true, num: func(r *Record) (float64, bool) { return gridValue(r.MTTF) }},
	{name: "mttr", duration: true, num: func(r *Record) (float64, bool) { return gridValue(r.MTTR) }},
	{name: "checkpoint_latency", duration: true, num: func(r *Record) (float64, bool) { return gridValue(r.Latency) }},
	{name: "recovery", duration: true, num: func(r *Record) (float64, bool) { return gridValue(r.Recovery) }},
	{name: "policy", label: func(r *Record) string { return r.Policy }},
	{name: "interval", duration: true, num: func(r *Record) (float64, bool) { return gridValue(r.Interval) }},
}

// GridValues are the values Grid draws.
var GridValues = []string{"uwt", "interval"}

// Grid lays out value ("uwt", or "interval": I* of optimize) of the
// records of the table's first scenario computation (optimize, uwt or
// simulate) over the axes that vary among them. It fails when the table
// holds no such records, when value does not apply to the computation,
// or when more than two axes vary (a figure of lines shows two).
func (t *Table) Grid(value string) (*Grid, error) {
	if !slices.Contains(GridValues, value) {
		return nil, fmt.Errorf("sweep: value %q, want uwt or interval", value)
	}
	g := &Grid{Value: value}
	for _, r := range t.Records {
		if r.Compute == Optimize || r.Compute == UWT || r.Compute == Simulate {
			g.Compute = r.Compute
			break
		}
	}
	if g.Compute == "" {
		return nil, fmt.Errorf("sweep: study %s has no optimize, uwt or simulate task: nothing to draw over a grid", t.Study)
	}
	if value == "interval" && g.Compute != Optimize {
		return nil, fmt.Errorf("sweep: the interval is the %s tasks' input, not a result; draw uwt", g.Compute)
	}
	var recs []*Record
	for k := range t.Records {
		if t.Records[k].Compute == g.Compute {
			recs = append(recs, &t.Records[k])
		}
	}
	varying, coords := g.varyingAxes(recs)
	names := make([]string, len(varying))
	for k, a := range varying {
		names[k] = a.Name
	}
	switch {
	case len(varying) == 0:
		return nil, fmt.Errorf("sweep: no axis of the %s tasks varies: nothing to draw over a grid", g.Compute)
	case len(varying) > 2:
		return nil, fmt.Errorf("sweep: the %s tasks vary over %d axes (%s); a figure of lines shows two", g.Compute, len(varying), strings.Join(names, ", "))
	}
	// X: a numeric axis, the one with more values.
	xi := -1
	for k, a := range varying {
		if a.Numeric && (xi < 0 || len(a.Values) > len(varying[xi].Values)) {
			xi = k
		}
	}
	if xi < 0 {
		return nil, fmt.Errorf("sweep: the %s tasks vary over %s, no numeric axis to draw along", g.Compute, strings.Join(names, " and "))
	}
	g.X = varying[xi]
	xc := coords[xi]
	var lc *gridCoord
	if len(varying) == 2 {
		g.Lines, lc = varying[1-xi], &coords[1-xi]
	} else {
		g.Lines = GridAxis{Labels: []string{""}}
	}
	g.fill(recs, xc, lc)
	return g, nil
}

// varyingAxes returns the axes of gridCoords (not the interval of
// optimize, its result) that take more than one value over recs, with
// their coordinates.
func (g *Grid) varyingAxes(recs []*Record) ([]GridAxis, []gridCoord) {
	var varying []GridAxis
	var coords []gridCoord
	for _, c := range gridCoords {
		if c.name == "interval" && g.Compute == Optimize {
			continue
		}
		ax := GridAxis{Name: c.name, Numeric: c.num != nil, Duration: c.duration}
		for _, r := range recs {
			if c.num != nil {
				if x, ok := c.num(r); ok && !slices.Contains(ax.Values, x) {
					ax.Values = append(ax.Values, x)
				}
			} else if l := c.label(r); !slices.Contains(ax.Labels, l) {
				ax.Labels = append(ax.Labels, l)
			}
		}
		if len(ax.Values)+len(ax.Labels) > 1 {
			slices.Sort(ax.Values)
			varying = append(varying, ax)
			coords = append(coords, c)
		}
	}
	return varying, coords
}

// fill lays out the records' values over X (coordinate xc) and Lines
// (lc, nil for one line); NaN where no record, or a failed one, lies.
func (g *Grid) fill(recs []*Record, xc gridCoord, lc *gridCoord) {
	nl := max(len(g.Lines.Values), len(g.Lines.Labels))
	g.Y = make([][]float64, nl)
	for k := range g.Y {
		g.Y[k] = make([]float64, len(g.X.Values))
		for i := range g.Y[k] {
			g.Y[k][i] = math.NaN()
		}
	}
	for _, r := range recs {
		x, _ := xc.num(r)
		i := slices.Index(g.X.Values, x)
		k := 0
		if lc != nil {
			if lc.num != nil {
				v, _ := lc.num(r)
				k = slices.Index(g.Lines.Values, v)
			} else {
				k = slices.Index(g.Lines.Labels, lc.label(r))
			}
		}
		y := r.UWT
		if g.Value == "interval" {
			y = r.Interval
		}
		if i >= 0 && k >= 0 && y != nil && r.Error == "" {
			g.Y[k][i] = *y
		}
	}
}
