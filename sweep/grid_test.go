package sweep

import (
	"math"
	"strings"
	"testing"
)

// TestGrid lays out hand-made records and checks the axes, the lines and
// the values against the records they came from.
func TestGrid(t *testing.T) {
	f := func(x float64) *float64 { return &x }
	// optimize over processors × mttf, in a shuffled task order, one task
	// failed; then uwt tasks, which the grid leaves out.
	var recs []Record
	uwtOf := func(n int, mttf float64) float64 { return float64(n) * mttf / 1e6 }
	for _, n := range []int{16, 4, 8} {
		for _, mttf := range []float64{5e6, 1e6} {
			r := Record{Compute: Optimize, Application: "cg", Policy: "greedy", Processors: n, MTTF: f(mttf), MTTR: f(3600),
				UWT: f(uwtOf(n, mttf)), Interval: f(mttf / 100)}
			if n == 8 && mttf == 5e6 {
				r.UWT, r.Interval, r.Error, r.Status = nil, nil, "boom", "failed"
			}
			recs = append(recs, r)
		}
	}
	recs = append(recs, Record{Compute: UWT, Processors: 99, MTTF: f(1), UWT: f(7)})
	tab := &Table{Study: "t", Records: recs}
	g, err := tab.Grid("uwt")
	if err != nil {
		t.Fatal(err)
	}
	if g.Compute != Optimize || g.X.Name != "processors" || g.Lines.Name != "mttf" {
		t.Fatalf("grid of %s over %s, lines %s", g.Compute, g.X.Name, g.Lines.Name)
	}
	if len(g.X.Values) != 3 || g.X.Values[0] != 4 || g.X.Values[2] != 16 || len(g.Lines.Values) != 2 || g.Lines.Values[0] != 1e6 {
		t.Fatalf("axes %v × %v", g.X.Values, g.Lines.Values)
	}
	for k, mttf := range g.Lines.Values {
		for i, n := range g.X.Values {
			want := uwtOf(int(n), mttf)
			if n == 8 && mttf == 5e6 {
				want = math.NaN()
			}
			if got := g.Y[k][i]; !(got == want || math.IsNaN(got) && math.IsNaN(want)) {
				t.Errorf("UWT(N = %v, MTTF = %v) = %v, want %v", n, mttf, got, want)
			}
		}
	}
	gi, err := tab.Grid("interval")
	if err != nil || gi.Y[0][0] != 1e6/100 {
		t.Errorf("interval grid: %v, %v", gi, err)
	}

	for _, c := range []struct {
		name  string
		recs  []Record
		value string
		want  string
	}{
		{"three axes", []Record{
			{Compute: UWT, Processors: 1, MTTF: f(1), Interval: f(1), UWT: f(1)},
			{Compute: UWT, Processors: 2, MTTF: f(2), Interval: f(2), UWT: f(1)},
		}, "uwt", "3 axes (processors, mttf, interval)"},
		{"interval of uwt", []Record{{Compute: UWT, Processors: 1, UWT: f(1)}, {Compute: UWT, Processors: 2, UWT: f(1)}}, "interval", "input"},
		{"no axis", []Record{{Compute: Optimize, Processors: 1, UWT: f(1)}}, "uwt", "no axis"},
		{"labels only", []Record{{Compute: Optimize, Policy: "a", Processors: 1}, {Compute: Optimize, Policy: "b", Processors: 1}}, "uwt", "no numeric axis"},
		{"traces", []Record{{Compute: Evaluate, System: "18"}}, "uwt", "no optimize, uwt or simulate"},
		{"value", nil, "availability", "want uwt or interval"},
	} {
		_, err := (&Table{Study: "t", Records: c.recs}).Grid(c.value)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error saying %q", c.name, err, c.want)
		}
	}

	// One varying axis: one line without a name.
	one := &Table{Records: []Record{{Compute: UWT, Processors: 4, Interval: f(60), UWT: f(2)}, {Compute: UWT, Processors: 4, Interval: f(600), UWT: f(3)}}}
	g, err = one.Grid("uwt")
	if err != nil || g.X.Name != "interval" || len(g.Y) != 1 || g.Y[0][1] != 3 || g.Lines.Labels[0] != "" {
		t.Errorf("one axis: %+v, %v", g, err)
	}
}
