package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/ckpt-markov/markov/bench"
	"github.com/ckpt-markov/markov/evaluate"
	"github.com/ckpt-markov/markov/internal/quote"
	"github.com/ckpt-markov/markov/scenario"
	"github.com/ckpt-markov/markov/sim"
	"github.com/ckpt-markov/markov/trace"
)

// evaluateOptions are the flags of markov evaluate.
type evaluateOptions struct {
	env          *env
	LANL         string
	Systems      string
	Generic      []string
	Apps         string
	Scenario     string
	Policies     string
	Processors   int
	Segments     int
	MinDuration  string
	MaxDuration  string
	Seed         uint64
	Rule         string
	Rates        string
	Reconfigure  string
	SweepFrom    string
	SweepTo      string
	SweepPoints  int
	Workers      int
	Output       outputOptions
	ShowSegments bool
	Events       bool
	EventTol     string
	Plot         plotOptions
	Levels       levelsOptions
	// changed reports whether a flag was given (set by newEvaluateCmd).
	changed func(string) bool
}

// evaluateLong is the help text of markov evaluate.
const evaluateLong = `Replay real failure traces to measure the model's efficiency, as in section
VI-C of the malleable-checkpointing paper.

For random segments (start, duration) of each system's trace, the failure
and repair rates are estimated from the history before the start, the model
gives its optimal interval I*, and the application is run through the
segment's real outages (which nodes are up comes from the trace) with I*
and with a sweep of intervals (doubling from I*/8, then refined; see
--sweep-from). The efficiency is the work with I* over the best work of the
sweep; the table also rates Young's and Daly's intervals from the same
estimated rates.

When the rule prefers some nodes (most-reliable, lowest-index) and the
policy leaves spares, the failure rate given to the model is that of the
nodes the rule uses (--rates used, the default: per-node rates shrunk
towards the pool by empirical Bayes, averaged over the r(N) preferred
nodes); --rates all pools every node, as the paper does. The Rates column
says which estimate each row used.

Traces: --lanl FILE with --systems (the LANL failure-data CSV), or --trace
FILE (repeatable) in the generic format: one "node,down_start,down_end" line
per outage, times in seconds, with a "# nodes=N start=S end=E" header.
Applications are the built-in benchmarks (qr, cg, md), up to 512 processors:
each system runs on min(its nodes, 512) (or --processors); systems with more
nodes use a random subset for each segment. --scenario FILE replays instead
the application of a scenario file (work rate, checkpoint and recovery
costs; one checkpoint level), with its policy unless --policies is given
and its reconfiguration unless --reconfigure is given; its system's rates
are replaced by each segment's estimates, and each system runs on min(its
nodes, the file's processors) (or --processors). A file with
application.replicas = r > 1 and the policy moldable:A, A = a·r, is
replayed as Volpex runs (replicas, hot spares, co-operative checkpoints;
--rule lastval for its host selection) with the interval of package
replication's model, beside the same application with one replica ("FILE
(r = 1)") under the file's policy and every policy of --policies.

--levels replays a scenario file with application.checkpoint_levels
(docs/model.md section 12): for each segment the model chooses its
multi-level schedule (pattern and interval together; the file's
checkpoint_pattern fixes the pattern) and its best single-level one (the
top level alone), both are replayed with each failure's severity from its
cause and event size (docs/scenario.md "Severity from a failure log";
--severity overrides the mapping, e.g. software=1,hardware=3,grouped=3),
and the table gives the replayed work per second of each beside the
model's, and the gain. The model's severity shares are each segment's
history's (--severity-shares history) or the file's (scenario). A
severity-1 failure still takes its node down for the outage in the log.
The sweep, --events and --plot do not go with --levels; the optimal
policy has no multi-level form.

Node MTTF and MTTR are the per-node means given to the model, estimated from
each segment's history and averaged over the segments (markov trace stats
estimates them from the whole trace instead). For policies solved or
resolved for each segment (optimal, ab), the vectors r(n) replayed are
printed below the table in the range form of markov optimize --policy
optimal. Off a terminal, stderr gets a progress line per segment (at most
ten a second).
Policies: greedy, pb, ab (availability based, from the history), moldable:A,
optimal (the optimal policy with one interval per configuration I(a), solved
for each segment from the estimated rates and replayed with those intervals;
its efficiency is against the best single interval in hindsight and may
exceed 100 %, and its "Mean I*" is the stationary-weighted mean of the I(a);
docs/optimal-policy.md).
A fixed --seed reproduces the table exactly, whatever --workers; segments
depend on the seed and the trace's content, not on its file name.

--events adds the model with failure events (docs/model.md, section 11): in
each segment whose history shows grouped failures (failures with the same
"Same Event" label or event column, or equal start times beyond chance;
--event-tolerance widens "equal"), the model is solved again with the size
law of the history's events, at the same failure rate per node, and its
interval is replayed too (column "Events"). Where the history shows no
grouped failures it is the model itself. It costs one more solve per such
segment (seconds at 128 nodes).

Below the table, a system whose whole trace contradicts exponential up times
or single-node failure events gets one line saying so (the verdict of
"markov trace stats"), with the number of segment histories that contradict
them.

A system whose trace is too short for 30 days of history and a
--max-duration segment, or whose history holds too few failures, gets a row
saying why; the other systems are still evaluated and printed, and the exit
status is then 1. Where no interval commits any work in any segment, the
row says NoUsefulWork instead of an efficiency. A LANL system whose
rows give no node data (system 17 of the full release) is refused.`

func newEvaluateCmd(e *env) *cobra.Command {
	opts := &evaluateOptions{env: e}
	cmd := &cobra.Command{
		Use:   "evaluate",
		Short: "Measure how good the model's interval is on real failure traces",
		Long:  evaluateLong,
		Example: `  markov evaluate --lanl failures.csv.gz --systems 18,19,20
  markov evaluate --lanl failures.csv.gz --systems 20 --policies pb,ab --apps qr
  markov evaluate --lanl failures.csv.gz --systems 18,19,20 --policies optimal,greedy,pb --apps qr
  markov evaluate --lanl failures.csv.gz --systems 20 --scenario docs/examples/cluster.json --policies optimal,greedy
  markov evaluate --trace mycluster.csv --segments 20 --json
  markov evaluate --lanl failures.csv.gz --systems 18,19,20 --apps qr --events
  markov evaluate --lanl failures.csv.gz --systems 20 --scenario docs/examples/atlas-two-level.json --levels`,
		Args: cobra.NoArgs,
		RunE: e.runE(func(ctx context.Context, cmd *cobra.Command) error {
			return runEvaluate(ctx, opts)
		}),
	}
	opts.register(cmd)
	opts.Output.register(cmd)
	opts.Plot.register(cmd, evaluatePlotWhat)
	return cmd
}

// register defines the flags of markov evaluate.
func (opts *evaluateOptions) register(cmd *cobra.Command) {
	f := cmd.Flags()
	opts.changed = f.Changed
	f.StringVar(&opts.LANL, "lanl", "", "LANL failure-data CSV `FILE`, plain or gzip (as the repository ships it: trace/testdata/lanl/failures.csv.gz)")
	f.StringVar(&opts.Systems, "systems", "", "LANL system ids, a `LIST` like 18,19,20, each once (required with --lanl)")
	f.StringArrayVar(&opts.Generic, "trace", nil, "trace `FILE` in the generic format, plain or gzip (repeatable)")
	f.StringVar(&opts.Apps, "apps", "qr,cg,md", "benchmark applications, a `LIST` like qr,cg,md")
	f.StringVarP(&opts.Scenario, "scenario", "s", "", "replay the application, costs, policy and reconfiguration of a scenario `FILE` (JSON; its system's rates are replaced by each segment's history) instead of --apps")
	f.StringVar(&opts.Policies, "policies", "greedy", "policies, a `LIST` of greedy, pb, ab, moldable:A, vector:r1,...,rN, table:… (a decision table, docs/scenario.md), optimal")
	f.IntVarP(&opts.Processors, "processors", "n", 0, "processors `N` the application runs on (0: min(nodes, 512))")
	f.IntVar(&opts.Segments, "segments", evaluate.DefaultSegments, "random segments per system")
	f.StringVar(&opts.MinDuration, "min-duration", "", "shortest segment (`DURATION`, default 7d)")
	f.StringVar(&opts.MaxDuration, "max-duration", "", "longest segment (`DURATION`, default 60d)")
	f.Uint64Var(&opts.Seed, "seed", 1, "seed of the random segments and node choices")
	f.StringVar(&opts.Rule, "rule", "most-reliable", "`RULE` choosing the nodes used when r(n) < n: most-reliable, random, lowest-index or lastval (the most available over the last hour, as Volpex)")
	f.StringVar(&opts.Rates, "rates", "used", "failure rate given to the model, from `WHICH` nodes: used (those the rule prefers) or all (pooled)")
	f.StringVar(&opts.Reconfigure, "reconfigure", "never", "`WHEN` a running application changes its processor count: never (the paper's model) or at-checkpoint (model, optimal policy and replay)")
	f.StringVar(&opts.SweepFrom, "sweep-from", "I*/8", "first interval of the sweep: a `DURATION`, or I*/K for a fraction of the model's interval")
	f.StringVar(&opts.SweepTo, "sweep-to", "", "last interval of the sweep's doubling scan (`DURATION`; default: the segment's length)")
	f.IntVar(&opts.SweepPoints, "sweep-points", 16, "intervals of each of the sweep's two refinements (at least 3)")
	f.IntVar(&opts.Workers, "workers", 0, "segments evaluated at once (0: one per CPU)")
	f.BoolVar(&opts.ShowSegments, "segments-detail", false, "with --json, include every segment's result")
	f.BoolVar(&opts.Events, "events", false, "also replay the interval of the model with failure events estimated from each segment's history")
	f.StringVar(&opts.EventTol, "event-tolerance", "0", "failures of different nodes starting at most this `DURATION` apart are one event")
	f.BoolVar(&opts.Levels.On, "levels", false, "replay the multi-level schedule the model chooses for the --scenario's application.checkpoint_levels beside the best single-level one, and report the gain")
	f.StringVar(&opts.Levels.Severity, "severity", "", "with --levels, override the cause → severity mapping: `LIST` such as software=1,hardware=2,grouped=3")
	f.StringVar(&opts.Levels.Shares, "severity-shares", "history", "with --levels, the failure_severity given to the model: `FROM` history (each segment's, estimated) or scenario (the file's)")
}

func runEvaluate(ctx context.Context, opts *evaluateOptions) error {
	if err := opts.Plot.check(); err != nil {
		return err
	}
	set, err := opts.settings()
	if err != nil {
		return err
	}
	if opts.Levels.On {
		return runEvaluateLevels(ctx, opts, set)
	}
	var finish func()
	set.Progress, finish = opts.env.stepProgress("evaluating segments", "evaluate", "segments")
	tab, err := evaluate.Run(ctx, set)
	finish()
	err = evaluateFlagError(err)
	if se := (*scenario.Error)(nil); errors.As(err, &se) && se.Field == "policy" && opts.Scenario != "" && !opts.changed("policies") {
		// The scenario file's policy does not fit a system's node count.
		return fmt.Errorf("%s: %w", opts.Scenario, err)
	}
	if se := (*scenario.Error)(nil); errors.As(err, &se) && se.Field == "policy" {
		// The policies come from --policies: one that does not fit a
		// system's node count.
		return flagError("policies", "%s", se.Problem)
	}
	if err != nil {
		return err
	}
	if err := opts.showEvaluate(evaluateReport{tab: tab, segments: opts.ShowSegments}); err != nil {
		return err
	}
	if bad := tab.NotEvaluated(); len(bad) > 0 {
		return fmt.Errorf("%d of %d systems could not be evaluated (see the table)", len(bad), len(set.Systems))
	}
	return nil
}

// evaluateFlags names the flag of each field of evaluate.Settings that
// evaluate validates (evaluate.SettingsError): the checks live there only.
var evaluateFlags = map[string]string{
	"Segments":            "segments",
	"Processors":          "processors",
	"Workers":             "workers",
	"MinDuration":         "min-duration",
	"MaxDuration":         "max-duration",
	"Rates":               "rates",
	"Sweep.Start":         "sweep-from",
	"Sweep.StartFraction": "sweep-from",
	"Sweep.End":           "sweep-to",
	"Sweep.Points":        "sweep-points",
	"Events.Tolerance":    "event-tolerance",
	"Policy":              "policies",
}

// evaluateFlagError returns the error of a field evaluate validates as
// the error of its flag, and any other error as it is.
func evaluateFlagError(err error) error {
	if se := (*evaluate.SettingsError)(nil); errors.As(err, &se) {
		if flag, ok := evaluateFlags[se.Field]; ok {
			return flagError(flag, "%s", se.Problem)
		}
	}
	return err
}

// evaluateReport is the result of markov evaluate.
type evaluateReport struct {
	tab *evaluate.Table
	// segments is whether --json includes every segment's result.
	segments bool
}

// evaluateJSON is the --json output of markov evaluate.
type evaluateJSON struct {
	Rows []evaluateRowJSON `json:"rows"`
}

// evaluateRowJSON is one row: a system, an application and a policy. Its
// scenario's MTTF and MTTR are the means over the segments of the rates
// estimated from each segment's history and given to the model; rates says
// which nodes the MTTF describes ("used", "all" or "mixed"). A system that
// could not be evaluated has status "NotEvaluated", a reason, and no
// application or policy.
type evaluateRowJSON struct {
	System          string       `json:"system"`
	Status          string       `json:"status"`
	Reason          string       `json:"reason,omitempty"`
	Scenario        scenarioJSON `json:"scenario"`
	Rates           string       `json:"rates,omitempty"`
	Nodes           int          `json:"nodes"`
	Segments        int          `json:"segments"`
	Used            statJSON     `json:"used"`
	Efficiency      statJSON     `json:"efficiency"`
	PaperEfficiency statJSON     `json:"paper_efficiency"`
	YoungEfficiency statJSON     `json:"young_efficiency"`
	DalyEfficiency  statJSON     `json:"daly_efficiency"`
	Interval        statJSON     `json:"interval"`
	BestInterval    statJSON     `json:"best_interval"`
	ModelUWT        statJSON     `json:"model_uwt"`
	UWT             statJSON     `json:"uwt"`
	BestUWT         statJSON     `json:"best_uwt"`
	// ModelEventsEfficiency and ModelEventsInterval are the efficiency
	// and interval of the model with failure events (--events);
	// EventsSegments counts the segments whose history showed grouped
	// failures. ModelEvents is the efficiency's name before every
	// efficiency field ended in _efficiency: an alias kept for one
	// release (README), to be removed in the next.
	ModelEventsEfficiency *statJSON `json:"model_events_efficiency,omitempty"`
	ModelEvents           *statJSON `json:"model_events,omitempty"`
	ModelEventsInterval   *statJSON `json:"model_events_interval,omitempty"`
	EventsSegments        int       `json:"events_segments"`
	// NoWorkSegments counts the segments where no interval committed any
	// work: their efficiencies are undefined and left out (all null, and
	// status "NoUsefulWork", when every segment is one).
	NoWorkSegments int `json:"no_work_segments,omitempty"`
	// ExponentialRejected and GroupedFailures count the segments whose
	// history contradicts exponential up times or single-node failures.
	ExponentialRejected int    `json:"exponential_rejected"`
	GroupedFailures     int    `json:"grouped_failures"`
	Verdict             string `json:"verdict,omitempty"`
	// Replayed lists the vectors r(n) the segments replayed (one for a
	// fixed policy), the most frequent first.
	Replayed []replayedJSON `json:"replayed"`
	Results  []segmentJSON  `json:"results,omitempty"`
}

// replayedJSON is one vector of a row, in the range form of markov
// optimize --policy optimal, and the number of segments that replayed it.
type replayedJSON struct {
	Runs     string `json:"runs"`
	Segments int    `json:"segments"`
}

// statJSON summarises a quantity over the segments of a row.
type statJSON struct {
	Mean jsonFloat `json:"mean"`
	Std  jsonFloat `json:"std"`
	Min  jsonFloat `json:"min"`
	Max  jsonFloat `json:"max"`
}

// segmentJSON is the evaluation of one segment (--segments-detail).
type segmentJSON struct {
	Start       jsonFloat        `json:"start"`
	Duration    jsonFloat        `json:"duration"`
	Nodes       []int            `json:"nodes,omitempty"`
	Processors  int              `json:"processors"`
	Used        int              `json:"used"`
	Rates       string           `json:"rates"`
	Runs        string           `json:"runs"`
	MTTF        jsonFloat        `json:"mttf"`
	MTTR        jsonFloat        `json:"mttr"`
	ModelUWT    jsonFloat        `json:"model_uwt"`
	ModelStatus string           `json:"model_status"`
	Model       outcomeJSON      `json:"model"`
	Paper       outcomeJSON      `json:"paper"`
	Best        outcomeJSON      `json:"best"`
	Young       *outcomeJSON     `json:"young,omitempty"`
	Daly        *outcomeJSON     `json:"daly,omitempty"`
	ModelEvents *outcomeJSON     `json:"model_events,omitempty"`
	EventSizes  []jsonFloat      `json:"event_sizes,omitempty"`
	Verdict     string           `json:"verdict"`
	Sweep       []sweepPointJSON `json:"sweep"`
}

// sweepPointJSON is one interval of the sweep and the work it committed.
type sweepPointJSON struct {
	Interval jsonFloat `json:"interval"`
	Work     jsonFloat `json:"work"`
}

// outcomeJSON is the replay of a segment with one interval.
type outcomeJSON struct {
	Interval   jsonFloat `json:"interval"`
	Efficiency jsonFloat `json:"efficiency"`
	Work       jsonFloat `json:"work"`
	Failures   int64     `json:"failures"`
	Commits    int64     `json:"commits"`
}

func stat(s evaluate.Stat) statJSON {
	return statJSON{jsonFloat(s.Mean), jsonFloat(s.Std), jsonFloat(s.Min), jsonFloat(s.Max)}
}

func outcome(o evaluate.Outcome) outcomeJSON {
	return outcomeJSON{jsonFloat(o.Interval), jsonFloat(o.Efficiency), jsonFloat(o.Work), o.Failures, o.Commits}
}

func (r evaluateReport) JSON() any {
	j := evaluateJSON{Rows: []evaluateRowJSON{}}
	for _, row := range r.tab.Rows {
		if row.Status != evaluate.Evaluated {
			j.Rows = append(j.Rows, evaluateRowJSON{
				System: row.System, Status: row.Status.String(), Reason: row.Reason,
				Scenario: scenarioJSON{Processors: row.Processors}, Nodes: row.Nodes,
				Verdict: verdict(row),
			})
			continue
		}
		rj := evaluateRowJSON{
			System: row.System,
			Status: rowStatus(row),
			Rates:  row.Rates.String(),
			Scenario: scenarioJSON{Application: row.Application, Processors: row.Processors,
				MTTF: jsonFloat(row.MTTF), MTTR: jsonFloat(row.MTTR), Policy: row.Policy.String()},
			Nodes:               row.Nodes,
			Segments:            row.Segments,
			Used:                stat(row.Used),
			Efficiency:          stat(row.Efficiency),
			PaperEfficiency:     stat(row.PaperEfficiency),
			YoungEfficiency:     stat(row.YoungEfficiency),
			DalyEfficiency:      stat(row.DalyEfficiency),
			Interval:            stat(row.Interval),
			BestInterval:        stat(row.BestInterval),
			ModelUWT:            stat(row.ModelUWT),
			UWT:                 stat(row.UWT),
			BestUWT:             stat(row.BestUWT),
			EventsSegments:      row.EventsSegments,
			NoWorkSegments:      row.NoWork,
			ExponentialRejected: row.Rejected.Exponential,
			GroupedFailures:     row.Rejected.SingleFailures,
			Verdict:             verdict(row),
		}
		for _, v := range replayed(row) {
			rj.Replayed = append(rj.Replayed, replayedJSON{Runs: v.runs, Segments: v.segments})
		}
		if len(row.Results) > 0 && row.Results[0].Events != nil {
			e, i := stat(row.EventsEfficiency), stat(row.EventsInterval)
			rj.ModelEventsEfficiency, rj.ModelEvents, rj.ModelEventsInterval = &e, &e, &i
		}
		if r.segments {
			for _, res := range row.Results {
				sj := segmentJSON{
					Start: jsonFloat(res.Start), Duration: jsonFloat(res.Duration), Nodes: res.Nodes,
					Processors: res.Processors, Used: res.Used, Rates: res.Rates.String(), Runs: runs(res.Vector), MTTF: jsonFloat(res.MTTF), MTTR: jsonFloat(res.MTTR),
					ModelUWT: jsonFloat(res.ModelUWT), ModelStatus: res.ModelStatus.String(),
					Model: outcome(res.Model), Paper: outcome(res.Paper), Best: outcome(res.Best),
				}
				if res.Young != nil {
					y := outcome(*res.Young)
					sj.Young = &y
				}
				if res.Daly != nil {
					d := outcome(*res.Daly)
					sj.Daly = &d
				}
				if res.Events != nil {
					ev := outcome(*res.Events)
					sj.ModelEvents = &ev
				}
				for _, p := range res.EventSizes {
					sj.EventSizes = append(sj.EventSizes, jsonFloat(p))
				}
				sj.Verdict = res.Assumptions.Summary()
				for _, p := range res.Sweep {
					sj.Sweep = append(sj.Sweep, sweepPointJSON{jsonFloat(p.Interval), jsonFloat(p.Work)})
				}
				rj.Results = append(rj.Results, sj)
			}
		}
		j.Rows = append(j.Rows, rj)
	}
	return j
}

func (r evaluateReport) CSV() ([]string, [][]string) {
	header := []string{"system", "application", "policy", "processors", "segments", "rates", "mttf", "mttr",
		"efficiency", "efficiency_std", "efficiency_min", "young_efficiency", "daly_efficiency",
		"interval", "best_interval", "uwt", "best_uwt", "status",
		"model_events_efficiency", "model_events_efficiency_min", "young_efficiency_min", "daly_efficiency_min", "events_segments",
		// The old names of the first two, kept for one release.
		"model_events", "model_events_min"}
	var rows [][]string
	for _, r := range r.tab.Rows {
		if r.Status != evaluate.Evaluated {
			row := make([]string, len(header))
			row[0], row[3], row[4] = r.System, strconv.Itoa(r.Processors), "0"
			row[17] = r.Status.String() + ": " + r.Reason
			rows = append(rows, row)
			continue
		}
		ev, evMin := "", ""
		if r.EventsEfficiency != (evaluate.Stat{}) {
			ev, evMin = csvFloat(r.EventsEfficiency.Mean), csvFloat(r.EventsEfficiency.Min)
		}
		rows = append(rows, []string{r.System, r.Application, r.Policy.String(), strconv.Itoa(r.Processors), strconv.Itoa(r.Segments),
			r.Rates.String(), csvFloat(r.MTTF), csvFloat(r.MTTR), csvFloat(r.Efficiency.Mean), csvFloat(r.Efficiency.Std), csvFloat(r.Efficiency.Min),
			csvFloat(r.YoungEfficiency.Mean), csvFloat(r.DalyEfficiency.Mean), csvFloat(r.Interval.Mean), csvFloat(r.BestInterval.Mean),
			csvFloat(r.UWT.Mean), csvFloat(r.BestUWT.Mean), rowStatus(r),
			ev, evMin, csvFloat(r.YoungEfficiency.Min), csvFloat(r.DalyEfficiency.Min), strconv.Itoa(r.EventsSegments), ev, evMin})
	}
	return header, rows
}

// rowStatus is the status of a row for the output: its Status, or
// NoUsefulWork (spelt as optimal.NoUsefulWork) for an evaluated row
// without any.
func rowStatus(r evaluate.Row) string {
	if r.Status == evaluate.Evaluated && r.NoWork == r.Segments {
		return noUsefulWork
	}
	return r.Status.String()
}

// verdict is the one-line verdict on the model's assumptions of a row's
// system (trace.EventEstimate.Summary of its whole trace).
func verdict(r evaluate.Row) string {
	if r.Assumptions == nil {
		return ""
	}
	return r.Assumptions.Summary()
}

// withEvents reports whether some row replayed the model with events.
func (r evaluateReport) withEvents() bool {
	for _, row := range r.tab.Rows {
		if len(row.Results) > 0 && row.Results[0].Events != nil {
			return true
		}
	}
	return false
}

func (r evaluateReport) Text(w io.Writer) error {
	pct := func(s evaluate.Stat) string { return fmt.Sprintf("%.1f%% (%.1f%%)", 100*s.Mean, 100*s.Min) }
	events := r.withEvents()
	t := newTable(w)
	head := []string{"System", "App", "Policy", "N", "Rates", "Node MTTF", "Node MTTR", "Efficiency (min)"}
	if events {
		head = append(head, "Events (min)")
	}
	t.row(append(head, "Young (min)", "Daly (min)", "Mean I*", "Mean best I", "Work/s I*", "Work/s best")...)
	var notes []string
	segments := 0
	seen := map[string]bool{}
	for _, r := range r.tab.Rows {
		if r.Status != evaluate.Evaluated {
			cells := []string{r.System, "-", "-", strconv.Itoa(r.Processors), "-", "-", "-", r.Status.String()}
			if events {
				cells = append(cells, "-")
			}
			t.row(append(cells, "-", "-", "-", "-", "-", "-")...)
			notes = append(notes, fmt.Sprintf("system %s %s: %s", r.System, r.Status, r.Reason))
		} else {
			segments = r.Segments
			eff, young, daly, ev := pct(r.Efficiency), pct(r.YoungEfficiency), pct(r.DalyEfficiency), pct(r.EventsEfficiency)
			switch {
			case r.NoWork == r.Segments:
				eff, young, daly, ev = noUsefulWork, "-", "-", "-"
				notes = append(notes, fmt.Sprintf("system %s, %s, %s: no useful work: no interval commits any work in any segment (MTTF %s), so there is no efficiency",
					r.System, r.Application, r.Policy, short(r.MTTF)))
			case r.NoWork > 0:
				notes = append(notes, fmt.Sprintf("system %s, %s, %s: no useful work in %d of %d segments, left out of the efficiencies",
					r.System, r.Application, r.Policy, r.NoWork, r.Segments))
			}
			cells := []string{r.System, r.Application, r.Policy.String(), strconv.Itoa(r.Processors), r.Rates.String(), short(r.MTTF), short(r.MTTR), eff}
			if events {
				cells = append(cells, ev)
			}
			t.row(append(cells, young, daly,
				short(r.Interval.Mean), short(r.BestInterval.Mean), fmt.Sprintf("%.4g", r.UWT.Mean), fmt.Sprintf("%.4g", r.BestUWT.Mean))...)
		}
		// The verdict of a system whose trace contradicts the model's
		// assumptions, once per system.
		if a := r.Assumptions; a != nil && !seen[r.System] &&
			(a.Exponential == trace.Contradicted || a.SingleFailures == trace.Contradicted) {
			seen[r.System] = true
			n := fmt.Sprintf("system %s: %s", r.System, a.Summary())
			if r.Status == evaluate.Evaluated {
				n += fmt.Sprintf(" (segment histories: %d of %d reject exponential up times, %d show grouped failures)",
					r.Rejected.Exponential, r.Segments, r.Rejected.SingleFailures)
			}
			notes = append(notes, n)
		}
	}
	if err := t.flush(); err != nil {
		return err
	}
	if segments > 0 {
		fmt.Fprintf(w, "\n%d segments per system; efficiency = work with the model's I* / best work of the sweep.\n", segments)
		for _, row := range r.tab.Rows {
			if row.Status == evaluate.Evaluated && row.Policy.Kind == scenario.Optimal {
				fmt.Fprintln(w, "optimal: work with its intervals I(a) / best work of a single interval (can exceed 100%); I* = mean of the I(a).")
				break
			}
		}
		fmt.Fprintln(w, "Node MTTF, MTTR: the per-node means given to the model, estimated from each segment's history and averaged over the segments;")
		fmt.Fprintln(w, "the MTTF is that of the nodes the rule uses (Rates used) or pooled over all nodes (all). markov trace stats estimates them from the whole trace.")
		if events {
			fmt.Fprintln(w, "Events: the model with the failure events of each segment's history (the model itself where it shows no grouped failures).")
		}
	}
	for _, n := range notes {
		fmt.Fprintln(w, n)
	}
	return r.policiesText(w)
}

// policiesText writes, for each row whose policy is solved (optimal) or
// resolved (availability based) for each segment, the vectors r(n) it
// replayed, in the range form of markov optimize --policy optimal (runs),
// with the MTTF they were solved for and where it comes from.
func (r evaluateReport) policiesText(w io.Writer) error {
	first := true
	for _, row := range r.tab.Rows {
		if row.Status != evaluate.Evaluated || row.Policy.Explicit != nil ||
			(row.Policy.Kind != scenario.Optimal && row.Policy.Kind != scenario.AvailabilityBased) {
			continue
		}
		if first {
			fmt.Fprintln(w, "\nPolicies solved for each segment and replayed, r(n) for n functional nodes:")
			first = false
		}
		fmt.Fprintf(w, "system %s, %s, %s (MTTF %s: %s): %s\n", row.System, row.Application, row.Policy,
			short(row.MTTF), mttfSource(row.Rates), replayedText(replayed(row)))
	}
	return nil
}

// mttfSource says which estimate a row's MTTF is.
func mttfSource(r evaluate.Rates) string {
	switch r {
	case evaluate.UsedNodes:
		return "per node, of the nodes used, segment histories"
	case evaluate.AllNodes:
		return "per node, pooled over all nodes, segment histories"
	}
	return "per node, of the nodes used or pooled, segment histories"
}

// replayedVector is one vector a row replayed and in how many segments.
type replayedVector struct {
	runs     string
	segments int
}

// replayed returns the distinct vectors of a row's segments, the most
// frequent first (ties in segment order).
func replayed(row evaluate.Row) []replayedVector {
	var out []replayedVector
	at := map[string]int{}
	for _, res := range row.Results {
		k := runs(res.Vector)
		if i, ok := at[k]; ok {
			out[i].segments++
			continue
		}
		at[k] = len(out)
		out = append(out, replayedVector{runs: k, segments: 1})
	}
	slices.SortStableFunc(out, func(a, b replayedVector) int { return b.segments - a.segments })
	return out
}

// maxReplayedText is the number of distinct vectors replayedText writes.
const maxReplayedText = 3

// replayedText writes the vectors of replayed, at most maxReplayedText.
func replayedText(vs []replayedVector) string {
	total := 0
	for _, v := range vs {
		total += v.segments
	}
	if len(vs) == 1 {
		return fmt.Sprintf("%s in all %d segments", vs[0].runs, total)
	}
	var parts []string
	for _, v := range vs[:min(len(vs), maxReplayedText)] {
		parts = append(parts, fmt.Sprintf("%s in %d of %d segments", v.runs, v.segments, total))
	}
	if len(vs) > maxReplayedText {
		parts = append(parts, fmt.Sprintf("%d other vectors", len(vs)-maxReplayedText))
	}
	return strings.Join(parts, "; ")
}

// settings turns the flags into evaluate.Settings, reading the traces.
func (o *evaluateOptions) settings() (*evaluate.Settings, error) {
	set := &evaluate.Settings{
		Processors: o.Processors,
		Segments:   o.Segments,
		Seed:       o.Seed,
		Workers:    o.Workers,
	}
	// evaluate.Settings validates every field (evaluate.SettingsError,
	// evaluateFlags), but reads a zero as its default: given on the
	// command line, it is a mistake.
	if o.Segments == 0 {
		return nil, flagError("segments", "0, want 1 … %d", evaluate.MaxSegments)
	}
	if o.SweepPoints == 0 {
		return nil, flagError("sweep-points", "0, want 3 … %d", evaluate.MaxSweepPoints)
	}
	if err := o.replayFlags(set); err != nil {
		return nil, err
	}
	file, err := o.scenarioFile(set)
	if err != nil {
		return nil, err
	}
	if err := o.workload(set, file); err != nil {
		return nil, err
	}
	// Every flag is checked (by evaluate) before a trace is read.
	if err := set.Validate(); err != nil {
		return nil, evaluateFlagError(err)
	}
	if set.Systems, err = o.systems(); err != nil {
		return nil, err
	}
	return set, nil
}

// replayFlags reads the flags of the replay into set: reconfiguration,
// segment durations, the node rule, the rates, the sweep and the events.
func (o *evaluateOptions) replayFlags(set *evaluate.Settings) error {
	var err error
	if set.Reconfigure, err = scenario.ParseReconfigure(o.Reconfigure); err != nil {
		return flagError("reconfigure", "%s, want never or at-checkpoint", quote.Value(o.Reconfigure))
	}
	if o.MinDuration != "" {
		if set.MinDuration, err = positiveDuration("min-duration", o.MinDuration); err != nil {
			return err
		}
	}
	if o.MaxDuration != "" {
		if set.MaxDuration, err = positiveDuration("max-duration", o.MaxDuration); err != nil {
			return err
		}
	}
	if set.Rule, err = sim.ParseRule(o.Rule); err != nil {
		return flagError("rule", "%v", err)
	}
	if set.Rates, err = evaluate.ParseRates(o.Rates); err != nil {
		return flagError("rates", "%v", err)
	}
	if set.Sweep, err = o.sweep(); err != nil {
		return err
	}
	set.Events.Model = o.Events
	if set.Events.Tolerance, err = nonNegativeDuration("event-tolerance", o.EventTol); err != nil {
		return err
	}
	return nil
}

// workload reads --apps (without a scenario file) and --policies into
// set, and the replicated form of a file with replicas.
func (o *evaluateOptions) workload(set *evaluate.Settings, file *scenario.Scenario) error {
	var err error
	if file == nil {
		set.Applications = splitList(o.Apps)
		if len(set.Applications) == 0 {
			return flagError("apps", "empty, want e.g. qr,cg,md")
		}
		for _, a := range set.Applications {
			if !slices.ContainsFunc(bench.Names(), func(n string) bool { return strings.EqualFold(n, a) }) {
				return flagError("apps", "%s is not one of %s", quote.Value(a), strings.Join(bench.Names(), ", "))
			}
		}
	}
	if file == nil || o.changed("policies") {
		if strings.TrimSpace(o.Policies) == "" {
			return flagError("policies", "empty, want e.g. greedy,pb")
		}
		if set.Policies, err = scenario.SplitPolicies(o.Policies); err != nil {
			return flagError("policies", "%s", problem(err))
		}
	}
	if file != nil && file.Application.ReplicaCount() > 1 {
		replicatedFile(set, file, filepath.Base(o.Scenario))
	}
	for _, p := range set.Policies {
		if p.Kind == scenario.Explicit && o.Processors > 0 && len(p.Explicit) != o.Processors {
			return flagError("policies", "%s has %d entries, want %d (--processors)", p, len(p.Explicit), o.Processors)
		}
	}
	return nil
}

// systems reads the traces of --lanl and --trace.
func (o *evaluateOptions) systems() ([]evaluate.System, error) {
	var out []evaluate.System
	switch {
	case o.LANL == "" && len(o.Generic) == 0:
		return nil, flagError("lanl", "give a trace: --lanl FILE --systems IDS, or --trace FILE")
	case o.LANL != "" && o.Systems == "":
		return nil, flagError("systems", "required with --lanl, e.g. --systems 18,19,20")
	case o.LANL == "" && o.Systems != "":
		return nil, flagError("systems", "goes with --lanl FILE")
	}
	if o.LANL != "" {
		systems, err := readLANL(o.LANL, o.Systems, nil)
		if err != nil {
			return nil, err
		}
		out = append(out, systems...)
	}
	for _, path := range o.Generic {
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		tr, err := trace.ReadGeneric(f)
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		out = append(out, evaluate.System{Name: filepath.Base(path), Trace: tr})
	}
	return out, nil
}

// scenarioFile reads --scenario into set: its application (the only one,
// named by the file, restricted to each system's N by its first counts),
// its policy unless --policies is given, and its reconfiguration unless
// --reconfigure is given. Its system's rates are not used: each segment's
// come from its history. It returns nil without --scenario.
func (o *evaluateOptions) scenarioFile(set *evaluate.Settings) (*scenario.Scenario, error) {
	if err := o.checkLevels(); err != nil {
		return nil, err
	}
	if o.Scenario == "" {
		return nil, nil
	}
	if o.changed("apps") {
		return nil, flagError("scenario", "give --scenario FILE or --apps, not both")
	}
	sc, err := scenario.Load(o.Scenario, &scenario.ParseSettings{Applications: bench.Application})
	if err != nil {
		return nil, err
	}
	if o.Levels.On {
		if err := o.levelsScenario(sc); err != nil {
			return nil, err
		}
	} else if err := sc.SingleLevel("markov evaluate"); err != nil {
		// A multi-level schedule is replayed with --levels only: say so
		// before any trace is read.
		return nil, fmt.Errorf("%s: %w (replay it with --levels)", o.Scenario, err)
	}
	app, name := sc.Application, filepath.Base(o.Scenario)
	if o.Processors > app.N() {
		return nil, flagError("processors", "%d, but the application of %s is described for %d processors", o.Processors, name, app.N())
	}
	set.Applications = []string{name}
	set.MaxProcessors = app.N()
	set.Resolve = func(_ string, n int) (scenario.Application, error) {
		if n == app.N() {
			return app, nil
		}
		return app.FirstCounts(n)
	}
	if !o.changed("policies") {
		set.Policies = []scenario.Policy{sc.Policy}
	}
	if !o.changed("reconfigure") {
		set.Reconfigure = sc.Reconfigure
	}
	return sc, nil
}

// replicatedFile sets up the replay of a scenario file with
// application.replicas = r > 1: the application as given (replayed with
// the file's policy, a moldable one on a·r processors, evaluate's
// replicable) beside the same application with one replica (name + " (r =
// 1)"), which every policy replays; the file's policy is added to
// --policies when they do not hold it, so the replicated run is always
// there.
func replicatedFile(set *evaluate.Settings, sc *scenario.Scenario, name string) {
	app := sc.Application
	single := name + " (r = 1)"
	set.Applications = []string{name, single}
	set.Resolve = func(which string, n int) (scenario.Application, error) {
		a := app
		if n != app.N() {
			var err error
			if a, err = app.FirstCounts(n); err != nil {
				return a, err
			}
		}
		if which == single {
			a.Replicas = 0
		}
		return a, nil
	}
	if !slices.ContainsFunc(set.Policies, sc.Policy.Equal) {
		set.Policies = append([]scenario.Policy{sc.Policy}, set.Policies...)
	}
}

// sweep reads the sweep's flags: --sweep-from is a duration or I*/K.
func (o *evaluateOptions) sweep() (evaluate.Sweep, error) {
	var sw evaluate.Sweep
	from := strings.TrimSpace(o.SweepFrom)
	if k, ok := strings.CutPrefix(from, "I*/"); ok {
		d, err := strconv.ParseFloat(k, 64)
		if err != nil || !(d > 0) || math.IsInf(d, 0) {
			return sw, flagError("sweep-from", "%s, want I*/K with a finite K ≥ 1, or a duration", quote.Value(o.SweepFrom))
		}
		sw.StartFraction = 1 / d
	} else {
		v, err := positiveDuration("sweep-from", from)
		if err != nil {
			return sw, err
		}
		sw.Start = v
	}
	if o.SweepTo != "" {
		v, err := positiveDuration("sweep-to", o.SweepTo)
		if err != nil {
			return sw, err
		}
		sw.End = v
	}
	sw.Points = o.SweepPoints
	return sw, nil
}

// readLANL reads the named systems from a LANL failure-data file; rows of
// other systems are not read (trace.LANLSettings.Systems). A system whose
// rows give no node data (system 17 of the full release) is refused by
// name, unless noNodeData is given: its id is then appended there, in
// the order of ids, and it has no entry in the result.
func readLANL(path, ids string, noNodeData *[]string) ([]evaluate.System, error) {
	want := map[int]bool{}
	var order []int
	for _, s := range splitList(ids) {
		id, err := strconv.Atoi(s)
		if err != nil || id < 0 {
			return nil, flagError("systems", "%s is not a system id", quote.Value(s))
		}
		if want[id] {
			return nil, flagError("systems", "system %d given twice", id)
		}
		want[id] = true
		order = append(order, id)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	all, err := trace.ReadLANLSystems(f, &trace.LANLSettings{Systems: order})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	byID := map[int]trace.LANLSystem{}
	for _, s := range all {
		byID[s.System] = s
	}
	var out []evaluate.System
	for _, id := range order {
		s, ok := byID[id]
		switch {
		case !ok:
			return nil, flagError("systems", "system %d is not in %s", id, filepath.Base(path))
		case s.NoNodeData && noNodeData == nil:
			return nil, flagError("systems", "system %d of %s has no node data (its %d rows leave the nodes column empty): nothing to replay",
				id, filepath.Base(path), s.Records)
		case s.NoNodeData:
			*noNodeData = append(*noNodeData, strconv.Itoa(id))
		default:
			out = append(out, evaluate.System{Name: strconv.Itoa(id), Trace: s.Trace})
		}
	}
	return out, nil
}

func splitList(s string) []string {
	var out []string
	for part := range strings.SplitSeq(s, ",") {
		if part = strings.TrimSpace(part); part != "" {
			out = append(out, part)
		}
	}
	return out
}
