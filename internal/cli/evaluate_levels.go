package cli

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/ckpt-markov/markov/evaluate"
	"github.com/ckpt-markov/markov/internal/quote"
	"github.com/ckpt-markov/markov/multilevel"
	"github.com/ckpt-markov/markov/scenario"
	"github.com/ckpt-markov/markov/trace"
)

// levelsOptions are the flags of markov evaluate --levels, read by
// scenarioFile from the scenario file.
type levelsOptions struct {
	// On is --levels: replay the multi-level schedule of the scenario's
	// checkpoint_levels.
	On bool
	// Severity is --severity, the mapping's overrides.
	Severity string
	// Shares is --severity-shares: history or scenario.
	Shares string
	// set is what evaluate.RunLevels is given (filled by scenarioFile).
	set evaluate.Levels
}

// levelsFlagsUnused are the flags of markov evaluate that --levels does
// not use: the sweep and the model with failure events.
var levelsFlagsUnused = []string{"sweep-from", "sweep-to", "sweep-points", "events", "plot"}

// checkLevels checks --levels, --severity and --severity-shares against
// the other flags, before the scenario file is read.
func (o *evaluateOptions) checkLevels() error {
	lv := &o.Levels
	if !lv.On {
		for _, f := range []string{"severity", "severity-shares"} {
			if o.changed(f) {
				return flagError(f, "goes with --levels")
			}
		}
		return nil
	}
	if o.Scenario == "" {
		return flagError("levels", "goes with --scenario FILE, whose application.checkpoint_levels are replayed")
	}
	for _, f := range levelsFlagsUnused {
		if o.changed(f) {
			return flagError(f, "does not go with --levels (it replays the model's schedules only)")
		}
	}
	if lv.Shares != "history" && lv.Shares != "scenario" {
		return flagError("severity-shares", "%s, want history or scenario", quote.Value(lv.Shares))
	}
	return nil
}

// levelsScenario fills o.Levels.set from the multi-level scenario sc
// (--levels): the mapping for its L with --severity, its shares with
// --severity-shares scenario, its checkpoint_pattern.
func (o *evaluateOptions) levelsScenario(sc *scenario.Scenario) error {
	L := sc.Application.NumLevels()
	if L < 2 {
		return flagError("levels", "the application of %s has one checkpoint level, want application.checkpoint_levels of 2 or more", o.Scenario)
	}
	m, err := trace.DefaultSeverityMap(L).Override(o.Levels.Severity)
	if err != nil {
		return flagError("severity", "%s", strings.TrimPrefix(err.Error(), "trace: "))
	}
	o.Levels.set = evaluate.Levels{Map: m, Pattern: sc.CheckpointPattern}
	if o.Levels.Shares == "scenario" {
		o.Levels.set.Shares = sc.Severity()
	}
	return nil
}

// runEvaluateLevels is markov evaluate --levels.
func runEvaluateLevels(ctx context.Context, opts *evaluateOptions, set *evaluate.Settings) error {
	var finish func()
	set.Progress, finish = opts.env.stepProgress("evaluating segments", "evaluate", "segments")
	lv := opts.Levels.set
	tab, err := evaluate.RunLevels(ctx, set, &lv)
	finish()
	if err != nil {
		return evaluateFlagError(err)
	}
	if err := opts.env.render(opts.Output, levelsReport{tab: tab, segments: opts.ShowSegments}); err != nil {
		return err
	}
	if bad := tab.NotEvaluated(); len(bad) > 0 {
		return fmt.Errorf("%d of %d systems could not be evaluated (see the table)", len(bad), len(set.Systems))
	}
	return nil
}

// levelsReport is the result of markov evaluate --levels.
type levelsReport struct {
	tab      *evaluate.LevelsTable
	segments bool
}

// evalLevelsJSON is the --json output of markov evaluate --levels.
type evalLevelsJSON struct {
	Rows []evalLevelsRowJSON `json:"rows"`
}

// evalLevelsRowJSON is one row: a system, an application and a policy. The
// scenario's MTTF and MTTR and failure_severity are the means over the
// segments of those given to the model; multi_level is the model's joint
// optimum of pattern and interval, single_level its best single-level
// schedule (the top level alone), each with the model's UWT and the
// replayed one; gain is the replayed UWT of multi_level over
// single_level's, minus 1.
type evalLevelsRowJSON struct {
	System          string              `json:"system"`
	Status          string              `json:"status"`
	Reason          string              `json:"reason,omitempty"`
	Scenario        scenarioJSON        `json:"scenario"`
	Nodes           int                 `json:"nodes"`
	Levels          int                 `json:"levels,omitempty"`
	Segments        int                 `json:"segments"`
	FailureSeverity []jsonFloat         `json:"failure_severity,omitempty"`
	MultiLevel      *evalScheduleJSON   `json:"multi_level,omitempty"`
	SingleLevel     *evalScheduleJSON   `json:"single_level,omitempty"`
	Gain            *statJSON           `json:"gain,omitempty"`
	Results         []evalLevelsSegJSON `json:"results,omitempty"`
}

// evalScheduleJSON summarises one schedule over the segments of a row.
type evalScheduleJSON struct {
	ModelUWT    statJSON  `json:"model_uwt"`
	UWT         statJSON  `json:"uwt"`
	Interval    statJSON  `json:"interval"`
	TopInterval *statJSON `json:"top_interval,omitempty"`
}

// evalLevelsSegJSON is one segment (--segments-detail).
type evalLevelsSegJSON struct {
	Start           jsonFloat           `json:"start"`
	Duration        jsonFloat           `json:"duration"`
	Nodes           []int               `json:"nodes,omitempty"`
	Used            int                 `json:"used"`
	MTTF            jsonFloat           `json:"mttf"`
	MTTR            jsonFloat           `json:"mttr"`
	FailureSeverity []jsonFloat         `json:"failure_severity"`
	Estimated       bool                `json:"failure_severity_estimated"`
	Failures        []int               `json:"failures_by_severity"`
	MultiLevel      evalSegScheduleJSON `json:"multi_level"`
	SingleLevel     evalSegScheduleJSON `json:"single_level"`
	Gain            jsonFloat           `json:"gain"`
}

// evalSegScheduleJSON is one schedule of one segment and its replay.
type evalSegScheduleJSON struct {
	Pattern        []int       `json:"pattern"`
	Interval       jsonFloat   `json:"interval"`
	LevelIntervals []jsonFloat `json:"level_intervals"`
	ModelUWT       jsonFloat   `json:"model_uwt"`
	UWT            jsonFloat   `json:"uwt"`
	Work           jsonFloat   `json:"work"`
	Failures       int64       `json:"failures"`
	Commits        int64       `json:"commits"`
}

func floatsJSON(xs []float64) []jsonFloat {
	out := make([]jsonFloat, len(xs))
	for i, x := range xs {
		out[i] = jsonFloat(x)
	}
	return out
}

func (r levelsReport) JSON() any {
	j := evalLevelsJSON{Rows: []evalLevelsRowJSON{}}
	for _, row := range r.tab.Rows {
		rj := evalLevelsRowJSON{System: row.System, Status: row.Status.String(), Reason: row.Reason,
			Scenario: scenarioJSON{Processors: row.Processors}, Nodes: row.Nodes}
		if row.Status == evaluate.Evaluated {
			rj.Scenario = scenarioJSON{Application: row.Application, Processors: row.Processors,
				MTTF: jsonFloat(row.MTTF), MTTR: jsonFloat(row.MTTR), Policy: row.Policy.String()}
			rj.Levels, rj.Segments = row.Levels, row.Segments
			rj.FailureSeverity = floatsJSON(row.Severity)
			top := stat(row.TopInterval)
			rj.MultiLevel = &evalScheduleJSON{ModelUWT: stat(row.ModelUWT), UWT: stat(row.UWT), Interval: stat(row.Interval), TopInterval: &top}
			rj.SingleLevel = &evalScheduleJSON{ModelUWT: stat(row.SingleModelUWT), UWT: stat(row.SingleUWT), Interval: stat(row.SingleInterval)}
			g := stat(row.Gain)
			rj.Gain = &g
		}
		if r.segments {
			for _, res := range row.Results {
				sched := func(m multilevel.Result, rp evaluate.Replay, uwt float64) evalSegScheduleJSON {
					return evalSegScheduleJSON{Pattern: m.Pattern, Interval: jsonFloat(m.Interval), LevelIntervals: floatsJSON(m.LevelIntervals),
						ModelUWT: jsonFloat(m.UWT), UWT: jsonFloat(uwt), Work: jsonFloat(rp.Work), Failures: rp.Failures, Commits: rp.Commits}
				}
				rj.Results = append(rj.Results, evalLevelsSegJSON{
					Start: jsonFloat(res.Start), Duration: jsonFloat(res.Duration), Nodes: res.Nodes, Used: res.Used,
					MTTF: jsonFloat(res.MTTF), MTTR: jsonFloat(res.MTTR), FailureSeverity: floatsJSON(res.Severity), Estimated: res.Estimated,
					Failures:    res.Failures,
					MultiLevel:  sched(res.MultiLevel, res.MultiReplay, res.UWT),
					SingleLevel: sched(res.SingleLevel, res.SingleReplay, res.SingleUWT),
					Gain:        jsonFloat(res.Gain),
				})
			}
		}
		j.Rows = append(j.Rows, rj)
	}
	return j
}

func (r levelsReport) CSV() ([]string, [][]string) {
	header := []string{"system", "application", "policy", "processors", "levels", "segments", "mttf", "mttr", "failure_severity",
		"interval", "top_interval", "model_uwt", "uwt", "single_interval", "single_model_uwt", "single_uwt", "gain", "gain_min", "status"}
	var rows [][]string
	g := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	for _, row := range r.tab.Rows {
		if row.Status != evaluate.Evaluated {
			rows = append(rows, []string{row.System, "", "", strconv.Itoa(row.Processors), "", "", "", "", "", "", "", "", "", "", "", "", "", "", row.Status.String()})
			continue
		}
		sev := make([]string, len(row.Severity))
		for i, f := range row.Severity {
			sev[i] = g(f)
		}
		rows = append(rows, []string{row.System, row.Application, row.Policy.String(), strconv.Itoa(row.Processors), strconv.Itoa(row.Levels),
			strconv.Itoa(row.Segments), g(row.MTTF), g(row.MTTR), strings.Join(sev, ";"),
			g(row.Interval.Mean), g(row.TopInterval.Mean), g(row.ModelUWT.Mean), g(row.UWT.Mean),
			g(row.SingleInterval.Mean), g(row.SingleModelUWT.Mean), g(row.SingleUWT.Mean), g(row.Gain.Mean), g(row.Gain.Min), row.Status.String()})
	}
	return header, rows
}

func (r levelsReport) Text(w io.Writer) error {
	t := newTable(w)
	t.row("System", "App", "Policy", "N", "Severity", "Node MTTF", "Node MTTR", "Pattern", "I", "Top I", "Work/s", "Model", "Single I", "Work/s", "Model", "Gain (min)")
	var notes []string
	segments := 0
	for _, row := range r.tab.Rows {
		if row.Status != evaluate.Evaluated {
			t.row(row.System, "-", "-", strconv.Itoa(row.Processors), "-", "-", "-", "-", "-", "-", "-", "-", "-", "-", "-", row.Status.String())
			notes = append(notes, fmt.Sprintf("system %s %s: %s", row.System, row.Status, row.Reason))
			continue
		}
		segments = row.Segments
		sev := make([]string, len(row.Severity))
		for i, f := range row.Severity {
			sev[i] = fmt.Sprintf("%.2f", f)
		}
		t.row(row.System, row.Application, row.Policy.String(), strconv.Itoa(row.Processors), strings.Join(sev, "/"),
			short(row.MTTF), short(row.MTTR), patterns(row.Results),
			short(row.Interval.Mean), short(row.TopInterval.Mean), fmt.Sprintf("%.4g", row.UWT.Mean), fmt.Sprintf("%.4g", row.ModelUWT.Mean),
			short(row.SingleInterval.Mean), fmt.Sprintf("%.4g", row.SingleUWT.Mean), fmt.Sprintf("%.4g", row.SingleModelUWT.Mean),
			fmt.Sprintf("%+.1f%% (%+.1f%%)", 100*row.Gain.Mean, 100*row.Gain.Min))
	}
	if err := t.flush(); err != nil {
		return err
	}
	if segments > 0 {
		fmt.Fprintf(w, "\n%d segments per system; each replays the model's multi-level schedule (pattern, I) and its best single-level one (top level alone, Single I),\n"+
			"severities from the causes and event sizes; Work/s is the replayed work per second, Model the model's; Gain = Work/s multi-level / single-level − 1.\n", segments)
	}
	for _, n := range notes {
		fmt.Fprintln(w, n)
	}
	return nil
}

// patterns returns the pattern of a row's segments: the one pattern, or
// the range of V₁ … when they differ ("3-5,1").
func patterns(rs []evaluate.LevelsResult) string {
	if len(rs) == 0 {
		return "-"
	}
	L := len(rs[0].MultiLevel.Pattern)
	parts := make([]string, L)
	for l := range L {
		lo, hi := rs[0].MultiLevel.Pattern[l], rs[0].MultiLevel.Pattern[l]
		for _, r := range rs[1:] {
			lo, hi = min(lo, r.MultiLevel.Pattern[l]), max(hi, r.MultiLevel.Pattern[l])
		}
		parts[l] = strconv.Itoa(lo)
		if hi > lo {
			parts[l] += "-" + strconv.Itoa(hi)
		}
	}
	return strings.Join(parts, ",")
}
