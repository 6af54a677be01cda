package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/spf13/cobra"

	"github.com/ckpt-markov/markov/internal/quote"
	"github.com/ckpt-markov/markov/trace"
	"github.com/ckpt-markov/markov/trace/synth"
)

// traceStatsOptions are the flags of markov trace stats.
type traceStatsOptions struct {
	env        *env
	LANL       string
	Systems    string
	Generic    []string
	Tolerance  string
	Resolution string
	Lookback   string
	Level      float64
	// Levels and Severity ask for the failure severity law of L
	// checkpoint levels, with the mapping's overrides.
	Levels   int
	Severity string
	Output   outputOptions
}

func newTraceCmd(e *env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "trace",
		Short: "Look at failure traces",
		Args:  cobra.NoArgs,
	}
	cmd.AddCommand(newTraceStatsCmd(e), newTraceSynthCmd(e))
	return cmd
}

// traceSynthOptions are the flags of markov trace synth.
type traceSynthOptions struct {
	env             *env
	Nodes           int
	Duration        string
	MTTF            string
	MTTR            string
	GroupedFailures float64
	Sizes           string
	RateCV          float64
	Preset          string
	Seed            uint64
	Out             string
	// changed names the flags given on the command line (a preset
	// refuses the flags it sets).
	changed func(name string) bool
}

func newTraceSynthCmd(e *env) *cobra.Command {
	opts := &traceSynthOptions{env: e}
	cmd := &cobra.Command{
		Use:   "synth",
		Short: "Write a synthetic failure trace with grouped failures",
		Long: `Generate a synthetic failure trace (package trace/synth) and write it in the
generic format, with the event column when some failures are grouped.

Each node's up times are exponential, its repair times exponential of mean
--mttr. A fraction --grouped-failures of the node failures belong to grouped
events, whose sizes are uniform on --sizes LO-HI nodes; --mttf is the mean
up time between two failures of one node, counting the failures that other
nodes' grouped events cause (synth.ForFailures). --rate-cv spreads the
nodes' failure rates (Gamma multipliers of that coefficient of variation).

--preset desktop-grid writes a pool of volunteer hosts instead
(synth.DesktopGrid): log-normal availability intervals of mean 20 h and
median 8 h, 35 % of the hosts available 99.5 % of the time and the others
so that the pool is available 65 % of the time (Kondo et al.'s summaries,
docs/model.md section 13); it sets the laws, so --mttf, --mttr, --rate-cv
and --grouped-failures are refused with it.`,
		Example: `  markov trace synth --nodes 128 --duration 180d --mttf 8h --mttr 1h --grouped-failures 0.5 --seed 1 -o t.csv
  markov evaluate --trace t.csv --events
  markov trace synth --preset desktop-grid --nodes 64 --duration 1y --seed 1 -o grid.csv`,
		Args: cobra.NoArgs,
		RunE: e.runE(func(ctx context.Context, cmd *cobra.Command) error {
			opts.changed = cmd.Flags().Changed
			return runTraceSynth(opts)
		}),
	}
	f := cmd.Flags()
	f.IntVar(&opts.Nodes, "nodes", 128, "number of nodes")
	f.StringVar(&opts.Duration, "duration", "180d", "length of the trace (`DURATION`)")
	f.StringVar(&opts.MTTF, "mttf", "1d", "mean up time between failures of a node, all causes (`DURATION`)")
	f.StringVar(&opts.MTTR, "mttr", "1h", "mean repair time (`DURATION`)")
	f.Float64Var(&opts.GroupedFailures, "grouped-failures", 0, "fraction of the failures that belong to grouped events, in [0, 1]")
	f.StringVar(&opts.Sizes, "sizes", "4-16", "nodes per grouped event: `LO-HI`, uniform (2 ≤ LO ≤ HI ≤ nodes; with --grouped-failures > 0)")
	f.Float64Var(&opts.RateCV, "rate-cv", 0, "coefficient of variation of the nodes' failure rates")
	f.StringVar(&opts.Preset, "preset", "", "`NAME` of a preset pool: desktop-grid (volunteer hosts; sets the laws)")
	f.Uint64Var(&opts.Seed, "seed", 1, "seed of the trace")
	f.StringVarP(&opts.Out, "output", "o", "-", "`FILE` to write (- for standard output)")
	return cmd
}

func runTraceSynth(o *traceSynthOptions) error {
	if o.Nodes < 1 || o.Nodes > trace.MaxNodes {
		return flagError("nodes", "%d, want 1 … %d", o.Nodes, trace.MaxNodes)
	}
	dur, err := positiveDuration("duration", o.Duration)
	if err != nil {
		return err
	}
	var c synth.Config
	switch o.Preset {
	case "":
		if c, err = o.config(dur); err != nil {
			return err
		}
	case "desktop-grid":
		for _, name := range []string{"mttf", "mttr", "rate-cv", "grouped-failures", "sizes"} {
			if o.changed != nil && o.changed(name) {
				return flagError(name, "given with --preset desktop-grid, which sets the up and repair laws: drop one of them")
			}
		}
		c = synth.DesktopGrid(o.Nodes, dur)
		if want := float64(o.Nodes) * dur / c.MeanCycle(); want > 0.9*synth.MaxOutages {
			return flagError("duration", "about %.3g outages expected (--nodes × --duration / mean cycle), more than the limit of %d: shorten --duration or lower --nodes", want, synth.MaxOutages*9/10)
		}
	default:
		return flagError("preset", "%s, want desktop-grid", quote.Value(o.Preset))
	}
	res, err := synth.Generate(c, rand.New(rand.NewPCG(o.Seed, 0)))
	if err != nil {
		return err
	}
	w := o.env.out
	if o.Out != "-" {
		f, err := os.Create(o.Out)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := trace.WriteGeneric(f, res.Trace); err != nil {
			return err
		}
		return f.Close()
	}
	return trace.WriteGeneric(w, res.Trace)
}

// config is the configuration of the flags --mttf, --mttr,
// --grouped-failures, --sizes and --rate-cv.
func (o *traceSynthOptions) config(dur float64) (synth.Config, error) {
	mttf, err := positiveDuration("mttf", o.MTTF)
	if err != nil {
		return synth.Config{}, err
	}
	mttr, err := positiveDuration("mttr", o.MTTR)
	if err != nil {
		return synth.Config{}, err
	}
	if math.IsNaN(o.GroupedFailures) || o.GroupedFailures < 0 || o.GroupedFailures > 1 {
		return synth.Config{}, flagError("grouped-failures", "%v, want a fraction in [0, 1]", o.GroupedFailures)
	}
	if math.IsNaN(o.RateCV) || o.RateCV < 0 || o.RateCV > synth.MaxRateCV {
		return synth.Config{}, flagError("rate-cv", "%v, want 0 … %v", o.RateCV, synth.MaxRateCV)
	}
	var sizes []float64
	if o.GroupedFailures > 0 {
		lo, hi, ok := strings.Cut(o.Sizes, "-")
		a, errA := strconv.Atoi(strings.TrimSpace(lo))
		b, errB := strconv.Atoi(strings.TrimSpace(hi))
		if !ok || errA != nil || errB != nil || a < 2 || b < a || b > o.Nodes {
			return synth.Config{}, flagError("sizes", "%s, want LO-HI with 2 ≤ LO ≤ HI ≤ --nodes %d", quote.Value(o.Sizes), o.Nodes)
		}
		sizes = synth.Uniform(a, b)
	}
	grouped, up, err := synth.ForFailures(o.GroupedFailures, mttf, sizes)
	if err != nil {
		return synth.Config{}, err
	}
	// The expected outage count, nodes × duration / (MTTF + MTTR), is
	// checked here so that a trace past synth's bound is a flag error
	// naming the flags, not an error of Generate naming Config fields;
	// 0.9 leaves the count's spread (about its square root) room.
	if want := float64(o.Nodes) * dur / (mttf + mttr); want > 0.9*synth.MaxOutages {
		return synth.Config{}, flagError("duration", "about %.3g outages expected (--nodes × --duration / (--mttf + --mttr)), more than the limit of %d: shorten --duration, lower --nodes or raise --mttf", want, synth.MaxOutages*9/10)
	}
	return synth.Config{Nodes: o.Nodes, Duration: dur, Up: distuv.Exponential{Rate: 1 / up}, Repair: distuv.Exponential{Rate: 1 / mttr},
		RateCV: o.RateCV, Grouped: grouped, Sizes: sizes}, nil
}

func newTraceStatsCmd(e *env) *cobra.Command {
	opts := &traceStatsOptions{env: e}
	cmd := &cobra.Command{
		Use:   "stats",
		Short: "Estimate the failure process of a trace and check the model's assumptions",
		Long: `Estimate, from a failure trace, what the model takes as given and check the
two assumptions it rests on.

For each system: the per-node failure and repair rates λ and θ (MTTF, MTTR)
with their confidence intervals; the failure events (failures of several
nodes that are one event: the same "Same Event" grouping or label in the
log, or start times at most --tolerance apart), their rate per functional
node and per second, and the distribution of the number of nodes per event;
and a maximum likelihood fit of the up times, exponential against Weibull,
with the Weibull shape's confidence interval and a likelihood-ratio test.

A last line per system says whether the history contradicts exponential up
times or single-node failure events: a test rejecting at 1 − --level and a
material effect (a Weibull shape outside [0.9, 1.1]; more than 1 % of the
failures in grouped events). A LANL system whose rows give no node data
(system 17 of the full release) is listed as "no node data".

Traces: --lanl FILE with --systems (the LANL failure-data CSV, or its gzip),
or --trace FILE (repeatable) in the generic format. Equal times in a log that
rounds them can be chance: --resolution is the log's clock tick, used to tell
chance from grouping. LANL times are minutes (default 1m); for --trace the
default is the coarsest of 1h, 1m, 1s and 0.1 s … 1 µs dividing every
failure time, else 0.

--levels L adds the failure severity law of L checkpoint levels, the shares
of the events of each severity (the scenario field system.failure_severity):
each failure's severity comes from its cause (the LANL release's cause
columns) and its event's size through the mapping of docs/scenario.md
("Severity from a failure log"); --severity overrides it, e.g.
--severity software=1,hardware=3,grouped=3.`,
		Example: `  markov trace stats --lanl failures.csv --systems 20
  markov trace stats --lanl failures.csv.gz --systems 18,19,20 --json
  markov trace stats --trace cluster.csv --tolerance 5m
  markov trace stats --lanl failures.csv.gz --systems 20 --levels 3`,
		Args: cobra.NoArgs,
		RunE: e.runE(func(ctx context.Context, cmd *cobra.Command) error {
			return runTraceStats(ctx, opts)
		}),
	}
	f := cmd.Flags()
	f.StringVar(&opts.LANL, "lanl", "", "LANL failure-data CSV `FILE` (plain or gzip)")
	f.StringVar(&opts.Systems, "systems", "", "LANL system ids, a `LIST` like 18,19,20, each once (required with --lanl)")
	f.StringArrayVar(&opts.Generic, "trace", nil, "trace `FILE` in the generic format, plain or gzip (repeatable)")
	f.StringVar(&opts.Tolerance, "tolerance", "0", "failures starting at most this `DURATION` apart are one event")
	f.StringVar(&opts.Resolution, "resolution", "", "clock tick of the log, a `DURATION` (default 1m with --lanl; with --trace, 1h, 1m, 1s or 0.1s … 1µs when every failure time is a multiple, else 0)")
	f.StringVar(&opts.Lookback, "lookback", "", "use only this `DURATION` of history before the end of the trace (default all)")
	f.Float64Var(&opts.Level, "level", 0.95, "confidence level of the intervals; the tests reject at 1 − level")
	f.IntVar(&opts.Levels, "levels", 0, "also estimate the failure severity law (system.failure_severity) of `L` checkpoint levels from the causes and event sizes (docs/scenario.md)")
	f.StringVar(&opts.Severity, "severity", "", "with --levels, override the cause → severity mapping: `LIST` such as software=1,hardware=2,grouped=3")
	opts.Output.register(cmd)
	return cmd
}

// traceStatsOut is the JSON output of markov trace stats.
type traceStatsOut struct {
	Level      float64            `json:"level"`
	Tolerance  float64            `json:"tolerance"`
	Resolution float64            `json:"resolution"`
	Systems    []traceSystemStats `json:"systems"`
	// NoNodeData lists the systems asked for whose rows give no node
	// data (LANL system 17): nothing to estimate.
	NoNodeData []string `json:"no_node_data,omitempty"`
	lanl       bool     // times are Unix seconds: print dates
}

type traceSystemStats struct {
	System     string    `json:"system"`
	Nodes      int       `json:"nodes"`
	Resolution jsonFloat `json:"resolution"`
	From       jsonFloat `json:"from"`
	To         jsonFloat `json:"to"`

	Failure *rateOut `json:"failure_rate"` // λ, null when not estimable
	Repair  *rateOut `json:"repair_rate"`  // θ

	Failures             int        `json:"failures"`
	Events               int        `json:"events"`
	EventRate            rateOut    `json:"event_rate"`        // per functional node
	SystemEventRate      rateOut    `json:"system_event_rate"` // per second
	GroupedEvents        proportion `json:"grouped_events"`
	GroupedFailures      jsonFloat  `json:"grouped_failures"`
	LabelledGroups       int        `json:"labelled_groups"`
	MeanSize             interval   `json:"mean_size"`
	Sizes                []sizeOut  `json:"sizes"`
	Coincidences         int        `json:"coincidences"`
	ExpectedCoincidences jsonFloat  `json:"expected_coincidences"`
	CoincidenceP         jsonFloat  `json:"coincidence_p"`
	UpTime               upTimeOut  `json:"up_time"`
	Exponential          string     `json:"exponential"`
	SingleFailures       string     `json:"single_failures"`
	Summary              string     `json:"summary"`
	// FailureSeverity is the severity law of --levels, null without it.
	FailureSeverity *severityOut `json:"failure_severity,omitempty"`
	est             trace.EventEstimate
	rates           *trace.Estimate
}

// severityOut is the failure severity law of a history (--levels).
type severityOut struct {
	Levels int            `json:"levels"`
	Shares []jsonFloat    `json:"shares"`
	Events []int          `json:"events"`
	Causes map[string]int `json:"causes"`
}

type rateOut struct {
	Value    jsonFloat `json:"value"`
	Low      jsonFloat `json:"low"`
	High     jsonFloat `json:"high"`
	Events   int       `json:"events"`
	Exposure jsonFloat `json:"exposure"`
}

type proportion struct {
	Count int       `json:"count"`
	Total int       `json:"total"`
	Value jsonFloat `json:"value"`
	Low   jsonFloat `json:"low"`
	High  jsonFloat `json:"high"`
}

type interval struct {
	Value jsonFloat `json:"value"`
	Low   jsonFloat `json:"low"`
	High  jsonFloat `json:"high"`
}

type sizeOut struct {
	Size int `json:"size"`
	proportion
}

type upTimeOut struct {
	Complete      int       `json:"complete"`
	Censored      int       `json:"censored"`
	MTTF          jsonFloat `json:"mttf"`
	WeibullShape  interval  `json:"weibull_shape"`
	WeibullScale  jsonFloat `json:"weibull_scale"`
	LogLikExp     jsonFloat `json:"log_lik_exponential"`
	LogLikWeibull jsonFloat `json:"log_lik_weibull"`
	LR            jsonFloat `json:"lr"`
	PValue        jsonFloat `json:"p_value"`
}

func toRate(r trace.Rate) rateOut {
	return rateOut{Value: jsonFloat(r.Value), Low: jsonFloat(r.Low), High: jsonFloat(r.High), Events: r.Events, Exposure: jsonFloat(r.Exposure)}
}

func toProportion(p trace.Proportion) proportion {
	return proportion{Count: p.Count, Total: p.Total, Value: jsonFloat(p.Value), Low: jsonFloat(p.Low), High: jsonFloat(p.High)}
}

func runTraceStats(_ context.Context, o *traceStatsOptions) error {
	set, err := o.eventSettings()
	if err != nil {
		return err
	}
	sevMap, err := o.severityMap()
	if err != nil {
		return err
	}
	systems, noNodeData, err := o.readSystems()
	if err != nil {
		return err
	}
	out := traceStatsOut{Level: o.Level, Tolerance: set.Tolerance, Resolution: set.Resolution, lanl: o.LANL != "", NoNodeData: noNodeData}
	for _, s := range systems {
		st, err := o.systemStats(s, *set, sevMap)
		if err != nil {
			return fmt.Errorf("system %s: %w", s.name, err)
		}
		out.Systems = append(out.Systems, st)
	}
	return o.env.render(o.Output, &out)
}

// eventSettings checks the flags of markov trace stats and returns the
// settings of the event estimate.
func (o *traceStatsOptions) eventSettings() (*trace.EventSettings, error) {
	set := &trace.EventSettings{Level: o.Level}
	if math.IsNaN(o.Level) || !(o.Level > 0 && o.Level < 1) {
		return nil, flagError("level", "%v, want a confidence level in (0, 1)", o.Level)
	}
	var err error
	if set.Tolerance, err = nonNegativeDuration("tolerance", o.Tolerance); err != nil {
		return nil, err
	}
	if o.Lookback != "" {
		if set.Lookback, err = positiveDuration("lookback", o.Lookback); err != nil {
			return nil, err
		}
	}
	switch {
	case o.LANL == "" && len(o.Generic) == 0:
		return nil, flagError("lanl", "give a trace: --lanl FILE --systems IDS, or --trace FILE")
	case o.LANL != "" && len(o.Generic) > 0:
		return nil, flagError("trace", "give --lanl or --trace, not both (their clocks differ)")
	case o.LANL != "" && o.Systems == "":
		return nil, flagError("systems", "required with --lanl, e.g. --systems 18,19,20")
	case o.LANL == "" && o.Systems != "":
		return nil, flagError("systems", "goes with --lanl FILE")
	}
	if o.LANL != "" {
		set.Resolution = 60 // the LANL log records minutes
	}
	if o.Resolution != "" {
		if set.Resolution, err = nonNegativeDuration("resolution", o.Resolution); err != nil {
			return nil, err
		}
	}
	return set, nil
}

// namedTrace is a trace and the name of its system.
type namedTrace struct {
	name string
	tr   *trace.Trace
}

// readSystems reads --lanl (with --systems) and --trace, and the LANL
// systems whose rows give no node data.
func (o *traceStatsOptions) readSystems() ([]namedTrace, []string, error) {
	var systems []namedTrace
	var noNodeData []string
	if o.LANL != "" {
		read, err := readLANL(o.LANL, o.Systems, &noNodeData)
		if err != nil {
			return nil, nil, err
		}
		for _, s := range read {
			systems = append(systems, namedTrace{s.Name, s.Trace})
		}
	}
	for _, path := range o.Generic {
		f, err := os.Open(path)
		if err != nil {
			return nil, nil, err
		}
		tr, err := trace.ReadGeneric(f)
		f.Close()
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", path, err)
		}
		systems = append(systems, namedTrace{filepath.Base(path), tr})
	}
	return systems, noNodeData, nil
}

// systemStats estimates the events, rates, up-time law and (with
// --levels) severity shares of one system's whole trace.
func (o *traceStatsOptions) systemStats(s namedTrace, set trace.EventSettings, sevMap *trace.SeverityMap) (traceSystemStats, error) {
	_, end := s.tr.Window()
	if o.LANL == "" && o.Resolution == "" {
		set.Resolution = s.tr.ClockTick()
	}
	est, err := trace.EstimateEvents(s.tr, end, &set)
	if err != nil {
		return traceSystemStats{}, err
	}
	st := traceSystemStats{System: s.name, Nodes: s.tr.NumNodes(), Resolution: jsonFloat(set.Resolution),
		From: jsonFloat(est.From), To: jsonFloat(est.To), est: est}
	rates, err := trace.EstimateRates(s.tr, end, &trace.EstimateSettings{Lookback: set.Lookback, Level: o.Level})
	switch {
	case err == nil:
		st.rates = &rates
		fr, rr := toRate(rates.Failure), toRate(rates.Repair)
		st.Failure, st.Repair = &fr, &rr
	case !errors.Is(err, trace.ErrTooFewEvents):
		return traceSystemStats{}, err
	}
	ev := est.Events
	st.Failures, st.Events = ev.Failures, ev.Events
	st.EventRate, st.SystemEventRate = toRate(ev.Rate), toRate(ev.SystemRate)
	st.GroupedEvents = toProportion(ev.Grouped)
	st.GroupedFailures = jsonFloat(ev.GroupedFailures)
	st.LabelledGroups = ev.Labelled
	st.MeanSize = interval{jsonFloat(ev.MeanSize), jsonFloat(ev.MeanLow), jsonFloat(ev.MeanHigh)}
	st.Sizes = []sizeOut{}
	for _, sc := range ev.Sizes {
		st.Sizes = append(st.Sizes, sizeOut{Size: sc.Size, proportion: toProportion(sc.Fraction)})
	}
	st.Coincidences = ev.Coincidences
	st.ExpectedCoincidences = jsonFloat(ev.ExpectedCoincidences)
	st.CoincidenceP = jsonFloat(ev.CoincidenceP)
	u := est.UpTime
	st.UpTime = upTimeOut{Complete: u.Complete, Censored: u.Censored, MTTF: jsonFloat(u.MTTF),
		WeibullShape: interval{jsonFloat(u.Shape), jsonFloat(u.ShapeLow), jsonFloat(u.ShapeHigh)},
		WeibullScale: jsonFloat(u.Scale), LogLikExp: jsonFloat(u.LogLikExp), LogLikWeibull: jsonFloat(u.LogLikWeibull),
		LR: jsonFloat(u.LR), PValue: jsonFloat(u.P)}
	st.Exponential, st.SingleFailures = est.Exponential.String(), est.SingleFailures.String()
	st.Summary = est.Summary()
	if sevMap != nil {
		if st.FailureSeverity, err = severity(s.tr, end, *sevMap, &set); err != nil {
			return traceSystemStats{}, err
		}
	}
	return st, nil
}

// severityMap reads --levels and --severity: nil without --levels.
func (o *traceStatsOptions) severityMap() (*trace.SeverityMap, error) {
	if o.Levels == 0 {
		if o.Severity != "" {
			return nil, flagError("severity", "goes with --levels L")
		}
		return nil, nil
	}
	if o.Levels < 1 || o.Levels > trace.MaxLevels {
		return nil, flagError("levels", "%d, want 1 … %d", o.Levels, trace.MaxLevels)
	}
	m, err := trace.DefaultSeverityMap(o.Levels).Override(o.Severity)
	if err != nil {
		return nil, flagError("severity", "%s", strings.TrimPrefix(err.Error(), "trace: "))
	}
	return &m, nil
}

// severity estimates the failure severity law of tr's history before end
// (nil, without error, when the history holds no failure).
func severity(tr *trace.Trace, end float64, m trace.SeverityMap, set *trace.EventSettings) (*severityOut, error) {
	sh, err := trace.EstimateSeverity(tr, end, m, set)
	if errors.Is(err, trace.ErrTooFewEvents) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	out := &severityOut{Levels: m.Levels, Events: sh.Events, Causes: map[string]int{}}
	for _, f := range sh.Shares {
		out.Shares = append(out.Shares, jsonFloat(f))
	}
	for c, n := range sh.Causes {
		if n > 0 {
			out.Causes[trace.Cause(c).String()] = n
		}
	}
	return out, nil
}

// JSON returns the --json value (rates per second, times in seconds).
func (out *traceStatsOut) JSON() any { return out }

// CSV returns one row per system with the main figures; --json has them
// all.
func (out *traceStatsOut) CSV() ([]string, [][]string) {
	header := []string{"system", "nodes", "from", "to", "failures", "events", "event_rate", "event_rate_low", "event_rate_high",
		"grouped_events", "grouped_events_low", "grouped_events_high", "grouped_failures", "mean_size",
		"weibull_shape", "weibull_shape_low", "weibull_shape_high", "p_value", "exponential", "single_failures"}
	var rows [][]string
	for _, s := range out.Systems {
		rows = append(rows, []string{s.System, strconv.Itoa(s.Nodes), csvFloat(float64(s.From)), csvFloat(float64(s.To)),
			strconv.Itoa(s.Failures), strconv.Itoa(s.Events),
			csvFloat(float64(s.EventRate.Value)), csvFloat(float64(s.EventRate.Low)), csvFloat(float64(s.EventRate.High)),
			csvFloat(float64(s.GroupedEvents.Value)), csvFloat(float64(s.GroupedEvents.Low)), csvFloat(float64(s.GroupedEvents.High)),
			csvFloat(float64(s.GroupedFailures)), csvFloat(float64(s.MeanSize.Value)),
			csvFloat(float64(s.UpTime.WeibullShape.Value)), csvFloat(float64(s.UpTime.WeibullShape.Low)), csvFloat(float64(s.UpTime.WeibullShape.High)),
			csvFloat(float64(s.UpTime.PValue)), s.Exponential, s.SingleFailures})
	}
	for _, id := range out.NoNodeData {
		row := make([]string, len(header))
		row[0], row[1], row[len(row)-2], row[len(row)-1] = id, "0", noNodeDataText, noNodeDataText
		rows = append(rows, row)
	}
	return header, rows
}

// Text writes the estimates of each system and its one-line verdict.
func (out *traceStatsOut) Text(w io.Writer) error { return writeTraceStats(w, out) }

// nonNegativeDuration reads a duration flag that may be zero.
func nonNegativeDuration(flag, value string) (float64, error) {
	v, err := parseDuration(flag, value)
	if err != nil {
		return 0, err
	}
	if !(v >= 0) || math.IsInf(v, 0) {
		return 0, flagError(flag, "%s, want a finite duration ≥ 0", quote.Value(value))
	}
	return v, nil
}

func writeTraceStats(w io.Writer, out *traceStatsOut) error {
	lvl := percent(out.Level)
	for k, s := range out.Systems {
		if k > 0 {
			fmt.Fprintln(w)
		}
		from, to := float64(s.From), float64(s.To)
		if out.lanl {
			fmt.Fprintf(w, "system %s: %d nodes, history %s to %s UTC (%s)\n", s.System, s.Nodes,
				time.Unix(int64(from), 0).UTC().Format(time.DateOnly), time.Unix(int64(to), 0).UTC().Format(time.DateOnly), short(to-from))
		} else {
			fmt.Fprintf(w, "system %s: %d nodes, history [%.6g s, %.6g s) (%s)\n", s.System, s.Nodes, from, to, short(to-from))
		}
		t := newTable(w)
		t.row("", "estimate", lvl+" interval", "")
		if r := s.rates; r != nil {
			t.row("node MTTF (1/λ)", short(1/r.Failure.Value), short(1/r.Failure.High)+" – "+short(1/r.Failure.Low),
				fmt.Sprintf("%d failures", r.Failure.Events))
			t.row("node MTTR (1/θ)", short(1/r.Repair.Value), short(1/r.Repair.High)+" – "+short(1/r.Repair.Low),
				fmt.Sprintf("%d repairs", r.Repair.Events))
		} else {
			t.row("node MTTF, MTTR", "-", "", "too few failures or repairs")
		}
		ev := s.est.Events
		t.row("events", strconv.Itoa(ev.Events), "", fmt.Sprintf("from %d failures, tolerance %s", ev.Failures, short(out.Tolerance)))
		if ev.Events > 0 {
			t.row("event rate per node", perDay(ev.Rate.Value), perDay(ev.Rate.Low)+" – "+perDay(ev.Rate.High),
				"mean time between events of one node "+short(1/ev.Rate.Value))
			t.row("event rate, system", perDay(ev.SystemRate.Value), perDay(ev.SystemRate.Low)+" – "+perDay(ev.SystemRate.High),
				"mean time between events "+short(1/ev.SystemRate.Value))
			t.row("grouped events", percent(ev.Grouped.Value), percent(ev.Grouped.Low)+" – "+percent(ev.Grouped.High),
				fmt.Sprintf("%d events of ≥ 2 nodes (%d recorded as one), %s of failures", ev.Grouped.Count, ev.Labelled, percent(ev.GroupedFailures)))
			t.row("nodes per event", num(ev.MeanSize), num(ev.MeanLow)+" – "+num(ev.MeanHigh),
				fmt.Sprintf("%d coincidences, %.3g expected by chance (p %s)", ev.Coincidences, ev.ExpectedCoincidences, trace.FormatP(ev.CoincidenceP)))
		}
		u := s.est.UpTime
		if s.est.Exponential != trace.Untested {
			t.row("Weibull shape of up times", num(u.Shape), num(u.ShapeLow)+" – "+num(u.ShapeHigh),
				fmt.Sprintf("scale %s; %d complete, %d censored up times", short(u.Scale), u.Complete, u.Censored))
			t.row("exponential vs Weibull", fmt.Sprintf("LR %.4g", u.LR), "", "p "+trace.FormatP(u.P))
		}
		if err := t.flush(); err != nil {
			return err
		}
		if sv := s.FailureSeverity; sv != nil {
			fmt.Fprintf(w, "failure severity, %d levels (system.failure_severity):", sv.Levels)
			for l, f := range sv.Shares {
				fmt.Fprintf(w, " %d: %s (%d events)", l+1, percent(float64(f)), sv.Events[l])
			}
			fmt.Fprintln(w)
		}
		if len(ev.Sizes) > 1 {
			fmt.Fprint(w, "nodes per event:")
			for _, sc := range ev.Sizes {
				fmt.Fprintf(w, " %d: %d", sc.Size, sc.Fraction.Count)
			}
			fmt.Fprintln(w)
		}
		fmt.Fprintln(w, s.Summary)
	}
	for k, id := range out.NoNodeData {
		if k > 0 || len(out.Systems) > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "system %s: %s (its rows give times and causes only: no node count, node numbers or dates); nothing to estimate\n", id, noNodeDataText)
	}
	return nil
}

// noNodeDataText is what trace stats says of a LANL system without node
// data.
const noNodeDataText = "no node data"

// perDay formats a rate per second as events per day.
func perDay(r float64) string { return num(r*86400) + "/d" }
