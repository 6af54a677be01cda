package cli

import (
	"errors"
	"math"

	"github.com/ckpt-markov/markov/evaluate"
	"github.com/ckpt-markov/markov/internal/chart"
)

// evaluatePlotWhat is what evaluate --plot draws (its help).
const evaluatePlotWhat = "the work lost (100% - mean efficiency) with the model's I*, Young's and Daly's intervals and the work per second with I* and the best interval, per system, application and policy"

// showEvaluate writes the figure of --plot, if asked, and the report.
func (o *evaluateOptions) showEvaluate(r evaluateReport) error {
	return o.env.renderPlotted(o.Output, o.Plot, r, r.figure)
}

// figure draws, for each evaluated row with useful work, the mean
// efficiencies of the table as the work lost against the best interval of
// the sweep, 100 % − efficiency (model, Young, Daly; the model with
// failure events too with --events: efficiencies near 100 % differ in
// their complement), and the work per second with I* and with the best
// interval, as grouped bars.
func (r evaluateReport) figure() (chart.Figure, error) {
	events := r.withEvents()
	eff := &chart.Bars{Series: []chart.BarSeries{{Name: "model I*"}, {Name: "Young"}, {Name: "Daly"}}}
	if events {
		eff.Series = append(eff.Series, chart.BarSeries{Name: "model with events"})
	}
	work := &chart.Bars{Series: []chart.BarSeries{{Name: "with the model's I*"}, {Name: "with the best interval"}}}
	lost := func(s evaluate.Stat) float64 {
		if math.IsNaN(s.Mean) {
			return 0 // an interval that does not apply: no bar
		}
		return 100 * (1 - s.Mean)
	}
	for _, row := range r.tab.Rows {
		if row.Status != evaluate.Evaluated || row.NoWork == row.Segments {
			continue
		}
		g := row.System + " " + row.Application + " " + row.Policy.String()
		eff.Groups = append(eff.Groups, g)
		work.Groups = append(work.Groups, g)
		eff.Series[0].Values = append(eff.Series[0].Values, lost(row.Efficiency))
		eff.Series[1].Values = append(eff.Series[1].Values, lost(row.YoungEfficiency))
		eff.Series[2].Values = append(eff.Series[2].Values, lost(row.DalyEfficiency))
		if events {
			eff.Series[3].Values = append(eff.Series[3].Values, lost(row.EventsEfficiency))
		}
		work.Series[0].Values = append(work.Series[0].Values, row.UWT.Mean)
		work.Series[1].Values = append(work.Series[1].Values, row.BestUWT.Mean)
	}
	if len(eff.Groups) == 0 {
		return chart.Figure{}, errors.New("--plot: no system was evaluated with useful work: nothing to draw")
	}
	return chart.Figure{
		Title: "Replayed failure traces: efficiency and work per system, application and policy",
		Panels: []chart.Panel{
			{
				Title:  "work lost against the best interval of the sweep: 100% - mean efficiency",
				X:      chart.Axis{Label: "system, application, policy"},
				Y:      chart.Axis{Label: "work lost (%)", Zero: true},
				Bars:   eff,
				Legend: chart.TopLeft,
			},
			{
				Title:  "mean work per second",
				X:      chart.Axis{Label: "system, application, policy"},
				Y:      chart.Axis{Label: "work per second", Zero: true},
				Bars:   work,
				Legend: chart.TopLeft,
			},
		},
	}, nil
}
