package evaluate

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/ckpt-markov/markov/internal/pool"
	"github.com/ckpt-markov/markov/internal/quote"
	"github.com/ckpt-markov/markov/scenario"
)

// LevelsRow is one row of the multi-level table: one system, application
// and policy, summarised over its segments; or one system that could not
// be evaluated (Status, Reason), as Row.
type LevelsRow struct {
	System      string
	Application string
	Policy      scenario.Policy
	Status      RowStatus
	Reason      string `json:",omitempty"`
	// Nodes is the system's node count, Processors the N of the model,
	// Levels the application's L, Segments the segments evaluated.
	Nodes, Processors, Levels, Segments int
	// MTTF and MTTR are the means over the segments of the model's, in
	// seconds; Severity the mean of the severity shares it was given.
	MTTF, MTTR float64
	Severity   []float64
	// ModelUWT and SingleModelUWT are the model's UWT of its multi-level
	// optimum and of its best single-level schedule; UWT and SingleUWT
	// their replayed work per second; Gain the replayed gain UWT /
	// SingleUWT − 1 (over the segments where the single-level schedule
	// commits work).
	ModelUWT, SingleModelUWT, UWT, SingleUWT, Gain Stat
	// Interval is the multi-level optimum's I, TopInterval its
	// computation between top-level checkpoints (LevelIntervals[L-1]),
	// SingleInterval the single-level schedule's interval.
	Interval, TopInterval, SingleInterval Stat
	// Results holds every segment's evaluation, in segment order.
	Results []LevelsResult
}

// LevelsTable is the outcome of RunLevels: rows by system, then
// application, then policy, in the order of the settings.
type LevelsTable struct {
	Rows []LevelsRow
}

// NotEvaluated returns the rows of the systems that could not be
// evaluated.
func (t *LevelsTable) NotEvaluated() []LevelsRow {
	return notEvaluated(t.Rows, func(r *LevelsRow) RowStatus { return r.Status })
}

// RunLevels is Run for multi-level applications (Settings.Resolve returns
// applications of L ≥ 2 checkpoint levels): on the same random segments
// as Run (same seed, same draws), it evaluates each with EvaluateLevels
// (lv: severities and shares; Settings.Sweep and Events.Model are not
// used) and summarises each system, application and policy in a row. The
// table depends on Settings.Seed and the traces, not on Workers. The
// optimal policy is refused.
func RunLevels(ctx context.Context, s *Settings, lv *Levels) (*LevelsTable, error) {
	if s == nil {
		return nil, errors.New("evaluate: settings are nil, want at least one system")
	}
	set, err := s.withDefaults()
	if err != nil {
		return nil, err
	}
	for _, pol := range set.Policies {
		if err := checkLevelsPolicy(pol); err != nil {
			return nil, err
		}
	}
	var l Levels
	if lv != nil {
		l = *lv
	}
	lcs := map[string]levelsConfig{} // by application, for the current system
	type levelsJob struct {
		row, seg int
		cfg      config
		lc       levelsConfig
		app      scenario.Application
		draw     draw
	}
	var jobs []levelsJob
	table := &LevelsTable{}
	err = set.plan(planner{
		short: func(sys System, procs int, reason string) {
			table.Rows = append(table.Rows, LevelsRow{System: sys.Name, Status: NotEvaluated, Reason: reason, Nodes: sys.Trace.NumNodes(), Processors: procs})
		},
		cell: func(c cell) {
			row := len(table.Rows)
			table.Rows = append(table.Rows, LevelsRow{
				System: c.sys.Name, Application: c.name, Policy: c.cfg.policy, Status: Evaluated,
				Nodes: c.sys.Trace.NumNodes(), Processors: c.procs, Levels: c.app.NumLevels(),
				Segments: set.Segments, Results: make([]LevelsResult, set.Segments),
			})
			for k, d := range c.draws {
				jobs = append(jobs, levelsJob{row: row, seg: k, cfg: c.cfg, lc: lcs[c.name], app: c.app, draw: d})
			}
		},
		application: func(name string, app scenario.Application) error {
			lc, err := l.config(app.NumLevels())
			lcs[name] = lc
			return err
		},
	})
	if err != nil {
		return nil, err
	}
	err = pool.Map(ctx, len(jobs), set.Workers, func(ctx context.Context, j int) (LevelsResult, error) {
		jb := jobs[j]
		res, err := jb.cfg.levels(ctx, jb.draw.tr, jb.app, jb.draw.seg, jb.draw.seed, jb.lc)
		if err != nil {
			return res, fmt.Errorf("evaluate: system %s, segment %d: %w", quote.Value(table.Rows[jb.row].System), jb.seg+1, err)
		}
		res.Nodes = jb.draw.nodes
		return res, nil
	}, func(j int, res LevelsResult) error {
		jb := jobs[j]
		table.Rows[jb.row].Results[jb.seg] = res
		if set.Progress != nil {
			set.Progress(j+1, len(jobs))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for i := range table.Rows {
		if table.Rows[i].Status == Evaluated {
			table.Rows[i].summarise()
		}
	}
	return table, nil
}

// summarise fills the statistics of a row from its results.
func (r *LevelsRow) summarise() {
	k := float64(len(r.Results))
	r.Severity = make([]float64, r.Levels)
	for _, res := range r.Results {
		r.MTTF += res.MTTF / k
		r.MTTR += res.MTTR / k
		for l, f := range res.Severity {
			r.Severity[l] += f / k
		}
	}
	of := func(f func(*LevelsResult) float64) Stat {
		return levelsSummary(r.Results, f)
	}
	r.ModelUWT = of(func(s *LevelsResult) float64 { return s.MultiLevel.UWT })
	r.SingleModelUWT = of(func(s *LevelsResult) float64 { return s.SingleLevel.UWT })
	r.UWT = of(func(s *LevelsResult) float64 { return s.UWT })
	r.SingleUWT = of(func(s *LevelsResult) float64 { return s.SingleUWT })
	r.Gain = of(func(s *LevelsResult) float64 { return s.Gain })
	r.Interval = of(func(s *LevelsResult) float64 { return s.MultiLevel.Interval })
	r.TopInterval = of(func(s *LevelsResult) float64 { return s.MultiLevel.LevelIntervals[r.Levels-1] })
	r.SingleInterval = of(func(s *LevelsResult) float64 { return s.SingleLevel.Interval })
}

// levelsSummary summarises f over the results where it is not NaN.
func levelsSummary(rs []LevelsResult, f func(*LevelsResult) float64) Stat {
	xs := make([]float64, 0, len(rs))
	for i := range rs {
		if x := f(&rs[i]); !math.IsNaN(x) {
			xs = append(xs, x)
		}
	}
	return statOf(xs)
}
