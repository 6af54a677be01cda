package cli

import (
	"context"
	"fmt"
	"io"
	"math"

	"github.com/ckpt-markov/markov/intervals"
	"github.com/ckpt-markov/markov/multilevel"
)

// runIntervalsLevels is markov intervals on the multi-level model: the
// joint optimum, the best single level and the first-order schedules,
// and the single-level closed forms for the highest level alone, each
// rated by the model.
func runIntervalsLevels(ctx context.Context, opts *intervalsOptions, info scenarioInfo, work float64) error {
	if opts.Model.OldCountBin > 1 {
		return flagError("old-count-bin", "the multi-level model is exact and keeps no old counts")
	}
	var none levelOptions
	m, _, err := none.levelModel(ctx, info, &opts.Model)
	if err != nil {
		return err
	}
	bar := opts.env.startProgress("searching the pattern and I*", 0)
	opt, err := m.Optimize(ctx, nil)
	bar.finish()
	if err != nil {
		return err
	}
	L := m.Levels()
	zero := make([]int, L-1)
	rep := levelsIntervalsReport{info: info, m: m, opt: opt}
	add := func(name, note string, pattern []int, I float64, cerr error) error {
		row := levelsChoiceJSON{choiceJSON: choiceJSON{Name: name, Note: note, Interval: jsonFloat(math.NaN()),
			UWT: jsonFloat(math.NaN()), Efficiency: jsonFloat(math.NaN())}, Pattern: pattern}
		switch {
		case cerr != nil:
			row.Error = oneLine(cerr)
		case I > 0 && !math.IsInf(I, 0):
			r, err := m.Evaluate(pattern, I)
			if err != nil {
				return fmt.Errorf("%s interval %s: %w", name, short(I), err)
			}
			row.Interval, row.UWT, row.Efficiency = jsonFloat(I), jsonFloat(r.UWT), jsonFloat(r.UWT/opt.UWT)
		}
		rep.rows = append(rep.rows, row)
		return nil
	}
	if err := add("Markov optimum", "pattern and I jointly", opt.Pattern, opt.Interval, nil); err != nil {
		return err
	}
	if err := add("Markov single level", "highest level only", opt.SingleLevel.Pattern, opt.SingleLevel.Interval, nil); err != nil {
		return err
	}
	if L > 1 {
		fo := opt.FirstOrder
		if err := add("Benoit et al. 2017", "first order", fo.Pattern, fo.Interval, nil); err != nil {
			return err
		}
	}
	if di := diTwoLevel(m); di != nil {
		if err := add("Di et al. 2017", "first order, two levels", di.Pattern, di.Interval, nil); err != nil {
			return err
		}
	}
	// The single-level closed forms for the highest level alone: every
	// failure restores it, at the job's failure rate aλ.
	p := m.Process()
	top := p.Levels[L-1]
	rep.params = intervals.Params{MTBF: 1 / p.Rate, Checkpoint: top.Overhead, Latency: top.Latency, Restart: top.Recovery, Work: work}
	choices, err := intervals.Compare(rep.params, intervals.Models()...)
	if err != nil {
		return err
	}
	for _, c := range choices {
		if err := add(c.Name, joinNote(c.Note, "highest level only"), zero, c.Interval, c.Err); err != nil {
			return err
		}
	}
	return opts.env.render(opts.Output, rep)
}

func joinNote(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

// levelsChoiceJSON is a schedule of markov intervals on a multi-level
// scenario: choiceJSON's keys with the pattern.
type levelsChoiceJSON struct {
	choiceJSON
	Pattern []int `json:"pattern"`
}

// levelsIntervalsJSON is intervalsJSON's keys with the optimum's pattern.
type levelsIntervalsJSON struct {
	Scenario  scenarioJSON       `json:"scenario"`
	Exact     bool               `json:"exact"`
	Optimum   sampleJSON         `json:"optimum"`
	Pattern   []int              `json:"pattern"`
	Malleable bool               `json:"malleable"`
	Params    paramsJSON         `json:"params"`
	Models    []levelsChoiceJSON `json:"models"`
}

type levelsIntervalsReport struct {
	info   scenarioInfo
	m      *multilevel.Model
	opt    multilevel.Optimum
	params intervals.Params
	rows   []levelsChoiceJSON
}

func (r levelsIntervalsReport) JSON() any {
	p := r.params
	return levelsIntervalsJSON{
		Scenario: r.info.json(), Exact: true, Pattern: r.opt.Pattern, Malleable: r.m.Malleable(),
		Optimum: sampleJSON{jsonFloat(r.opt.Interval), jsonFloat(r.opt.UWT)},
		Params: paramsJSON{Processors: r.m.Processors(), MTBF: jsonFloat(p.MTBF), Checkpoint: jsonFloat(p.Checkpoint),
			Latency: jsonFloat(p.Latency), Restart: jsonFloat(p.Restart), Work: jsonFloat(p.Work)},
		Models: r.rows,
	}
}

func (r levelsIntervalsReport) CSV() ([]string, [][]string) {
	var cells [][]string
	for _, c := range r.rows {
		cells = append(cells, []string{c.Name, joinInts(c.Pattern, " "), csvFloat(float64(c.Interval)), csvFloat(float64(c.UWT)), csvFloat(float64(c.Efficiency)), c.Error})
	}
	return []string{"model", "pattern", "interval", "uwt", "efficiency", "error"}, cells
}

func (r levelsIntervalsReport) Text(w io.Writer) error {
	p := r.params
	fmt.Fprintf(w, "Scenario  %s\n", r.info.describe())
	fmt.Fprintf(w, "Inputs    %d levels, a = %d, job MTBF %s; highest level C = %s, L = %s, R = %s\n\n",
		r.m.Levels(), r.m.Processors(), short(p.MTBF), short(p.Checkpoint), short(p.Latency), short(p.Restart))
	t := newTable(w)
	t.row("Model", "Pattern", "Interval", "UWT (work/s)", "Efficiency", "")
	for _, c := range r.rows {
		if c.Error != "" {
			t.row(c.Name, "-", "-", "-", "-", "does not apply: "+c.Error)
			continue
		}
		t.row(c.Name, patternText(c.Pattern), short(float64(c.Interval)), num(float64(c.UWT)), percent(float64(c.Efficiency)), c.Note)
	}
	return t.flush()
}
