package cli

import (
	"context"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/ckpt-markov/markov/internal/chart"
	"github.com/ckpt-markov/markov/intervals"
	"github.com/ckpt-markov/markov/multilevel"
	"github.com/ckpt-markov/markov/scenario"
	"github.com/ckpt-markov/markov/sim"
	"github.com/ckpt-markov/markov/uwt"
)

// levelOptions are the multi-level flags of markov uwt and optimize
// (docs/model.md section 12).
type levelOptions struct {
	Pattern string
	Format  string // optimize only
}

func (o *levelOptions) register(cmd *cobra.Command, format bool) {
	f := cmd.Flags()
	f.StringVar(&o.Pattern, "pattern", "", "multi-level pattern `V1,V2,...`: V_l level-l checkpoints between consecutive level-(l+1) ones (overrides checkpoint_pattern)")
	if format {
		f.StringVar(&o.Format, "format", "", "print the schedule as the configuration of a checkpoint library: `scr`, fti or veloc")
	}
}

// pattern parses --pattern; nil when not given.
func (o *levelOptions) pattern() ([]int, error) {
	if o.Pattern == "" {
		return nil, nil
	}
	fields := strings.Split(o.Pattern, ",")
	if len(fields) > scenario.MaxCheckpointLevels-1 {
		return nil, flagError("pattern", "%d entries, at most %d (one per level but the highest)", len(fields), scenario.MaxCheckpointLevels-1)
	}
	v := make([]int, len(fields))
	for i, f := range fields {
		x, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || x < 0 || x > scenario.MaxPatternEntry {
			return nil, flagError("pattern", "entry %d is %q, want a count from 0 to %d", i+1, shorten(f), scenario.MaxPatternEntry)
		}
		v[i] = x
	}
	return v, nil
}

// shorten quotes at most a short prefix of a bad value.
func shorten(s string) string {
	if len(s) > 20 {
		return s[:20] + "…"
	}
	return s
}

// wanted reports whether the command must take the multi-level model:
// the scenario asks for it, or a multi-level flag is given.
func (o *levelOptions) wanted(sc *scenario.Scenario) bool {
	return sc.MultiLevel() || o.Pattern != "" || o.Format != "" || sc.CheckpointPattern != nil
}

// levelModel builds the multi-level model of a loaded scenario, with the
// pattern of --pattern checked against its levels.
func (o *levelOptions) levelModel(ctx context.Context, info scenarioInfo, mo *modelOptions) (*multilevel.Model, []int, error) {
	pattern, err := o.pattern()
	if err != nil {
		return nil, nil, err
	}
	if pattern != nil && len(pattern) != info.sc.Application.NumLevels()-1 {
		return nil, nil, flagError("pattern", "%d entries for %d checkpoint levels (application.checkpoint_levels), want %d", len(pattern), info.sc.Application.NumLevels(), info.sc.Application.NumLevels()-1)
	}
	switch o.Format {
	case "", "scr", "fti", "veloc":
	default:
		return nil, nil, flagError("format", "%q, want scr, fti or veloc", shorten(o.Format))
	}
	m, err := newLevelModel(ctx, info, mo)
	if err != nil {
		return nil, nil, err
	}
	return m, pattern, nil
}

// newLevelModel builds the multi-level model of a loaded scenario, the
// chain of a malleable policy with mo's --workers and --max-memory.
func newLevelModel(ctx context.Context, info scenarioInfo, mo *modelOptions) (*multilevel.Model, error) {
	set, err := mo.settings()
	if err != nil {
		return nil, err
	}
	m, err := multilevel.NewWith(ctx, info.sc, &multilevel.Settings{Workers: set.Workers, MaxTransitions: set.MaxTransitions})
	if err != nil {
		return nil, explainSize(err)
	}
	return m, nil
}

// levelsJSON is the multi-level part of the --json output of markov uwt
// and optimize.
type levelsJSON struct {
	Pattern        []int       `json:"pattern"`
	LevelIntervals []jsonFloat `json:"level_intervals"`
	Levels         int         `json:"levels"`
	Processors     int         `json:"processors"`
	Malleable      bool        `json:"malleable"`
	Efficiency     jsonFloat   `json:"efficiency"`
	PeriodTime     jsonFloat   `json:"period_time"`
	Down           jsonFloat   `json:"down"`
}

func levelsOf(m *multilevel.Model, r multilevel.Result) levelsJSON {
	li := make([]jsonFloat, len(r.LevelIntervals))
	for i, x := range r.LevelIntervals {
		li[i] = jsonFloat(x)
	}
	return levelsJSON{Pattern: r.Pattern, LevelIntervals: li, Levels: m.Levels(), Processors: m.Processors(), Malleable: m.Malleable(),
		Efficiency: jsonFloat(r.Efficiency), PeriodTime: jsonFloat(r.Period.Time), Down: jsonFloat(r.Down)}
}

// runUWTLevels is markov uwt on the multi-level model.
func runUWTLevels(ctx context.Context, opts *uwtOptions, info scenarioInfo, interval float64) error {
	if opts.Model.OldCountBin > 1 {
		return flagError("old-count-bin", "the multi-level model is exact and keeps no old counts")
	}
	m, pattern, err := opts.Levels.levelModel(ctx, info, &opts.Model)
	if err != nil {
		return err
	}
	res, err := m.Evaluate(pattern, interval)
	if err != nil {
		return err
	}
	return opts.env.render(opts.Output, levelsUWTReport{info, m, res})
}

type levelsUWTReport struct {
	info scenarioInfo
	m    *multilevel.Model
	res  multilevel.Result
}

// levelsUWTJSON is uwtJSON's keys with the multi-level ones: the model is
// exact and solves no chain (states, transitions 0; solver "Nested").
type levelsUWTJSON struct {
	uwtJSON
	levelsJSON
}

func (r levelsUWTReport) JSON() any {
	return levelsUWTJSON{
		uwtJSON: uwtJSON{modelPointJSON: newModelPointJSON(r.info, true, r.res.Interval, r.res.UWT, r.res.Availability),
			Solver: "Nested", Dropped: jsonFloat(r.res.Dropped)},
		levelsJSON: levelsOf(r.m, r.res),
	}
}

func (r levelsUWTReport) CSV() ([]string, [][]string) {
	return []string{"interval", "uwt", "availability", "pattern", "level_intervals"},
		[][]string{{csvFloat(r.res.Interval), csvFloat(r.res.UWT), csvFloat(r.res.Availability), joinInts(r.res.Pattern, " "), joinFloats(r.res.LevelIntervals, " ")}}
}

func (r levelsUWTReport) Text(w io.Writer) error {
	t := newTable(w)
	t.row("Scenario", r.info.describe())
	writeLevelRows(t, r.m, r.res)
	t.row("Path", levelPath(r.m, r.res))
	return t.flush()
}

// levelPath describes the multi-level model's path.
func levelPath(m *multilevel.Model, r multilevel.Result) string {
	if m.Malleable() {
		return "multi-level, chain of up phases of a malleable policy (docs/model.md section 12), exact; dropped mass " + num(r.Dropped)
	}
	return "multi-level, nested blocks (docs/model.md section 12), exact"
}

// writeLevelRows writes a multi-level schedule and its UWT.
func writeLevelRows(t *table, m *multilevel.Model, r multilevel.Result) {
	if m.Malleable() {
		t.row("Levels", fmt.Sprintf("%d, malleable: on %s with all functional", m.Levels(), processors(m.Processors())))
	} else {
		t.row("Levels", fmt.Sprintf("%d, on %s", m.Levels(), processors(m.Processors())))
	}
	t.row("Pattern", patternText(r.Pattern))
	t.row("Interval I", dur(r.Interval))
	for l, x := range r.LevelIntervals {
		t.row(fmt.Sprintf("Level %d every", l+1), dur(x)+" of computation")
	}
	t.row("UWT", num(r.UWT)+" work/s")
	t.row("Availability", num(r.Availability))
	t.row("Efficiency", num(r.Efficiency)+" (running time; SCR's efficiency)")
}

func patternText(v []int) string {
	if len(v) == 0 {
		return "none (one level)"
	}
	return "[" + joinInts(v, ", ") + "]"
}

func joinInts(v []int, sep string) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, sep)
}

func joinFloats(v []float64, sep string) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = csvFloat(x)
	}
	return strings.Join(s, sep)
}

// runOptimizeLevels is markov optimize on the multi-level model.
func runOptimizeLevels(ctx context.Context, opts *optimizeOptions, info scenarioInfo) error {
	m, pattern, err := opts.Levels.levelModel(ctx, info, &opts.Model)
	if err != nil {
		return err
	}
	if opts.Model.OldCountBin > 1 {
		return flagError("old-count-bin", "the multi-level model is exact and keeps no old counts")
	}
	bar := opts.env.startProgress("searching the pattern and I*", 0)
	opt, err := m.Optimize(ctx, &multilevel.OptimizeSettings{Pattern: pattern, Tol: opts.RelTol})
	bar.finish()
	if err != nil {
		return err
	}
	rep := levelsOptimizeReport{info: info, m: m, opt: opt, band: opts.Band}
	if rep.bandLow, rep.bandHigh, err = m.Band(opt.Result, opts.Band); err != nil {
		return err
	}
	rep.di = diTwoLevel(m)
	if err := opts.Plot.draw(func() (chart.Figure, error) { return rep.levelsFigure(ctx) }); err != nil {
		return err
	}
	if opts.Levels.Format != "" {
		cfg, err := libraryConfig(opts.Levels.Format, opt.Result, m)
		if err != nil {
			return err
		}
		_, err = io.WriteString(opts.env.out, cfg)
		return err
	}
	return opts.env.renderPlotted(opts.Output, opts.Plot, rep, nil)
}

// diTwoLevel returns Di et al.'s first-order two-level schedule on the
// model's processor count, or nil when there are not two levels or it
// does not apply.
func diTwoLevel(m *multilevel.Model) *intervals.MultiLevelSchedule {
	if m.Levels() != 2 {
		return nil
	}
	p := m.Process()
	di, err := intervals.DiTwoLevel(p.Levels[0].Overhead, p.Levels[1].Overhead, p.Rate*p.Severity[0], p.Rate*p.Severity[1])
	if err != nil {
		return nil
	}
	return &di
}

type levelsOptimizeReport struct {
	info              scenarioInfo
	m                 *multilevel.Model
	opt               multilevel.Optimum
	di                *intervals.MultiLevelSchedule
	band              float64
	bandLow, bandHigh float64
}

// scheduleJSON is a schedule compared with the optimum.
type scheduleJSON struct {
	Pattern        []int       `json:"pattern"`
	Interval       jsonFloat   `json:"interval"`
	LevelIntervals []jsonFloat `json:"level_intervals,omitempty"`
	UWT            jsonFloat   `json:"uwt"`
}

// levelsOptimizeJSON is optimizeJSON's keys (no chain: states,
// dropped, residual 0; model_interval null; scan empty) with the
// multi-level ones.
type levelsOptimizeJSON struct {
	optimizeJSON
	levelsJSON
	FixedPattern bool          `json:"fixed_pattern"`
	Patterns     int           `json:"patterns"`
	SingleLevel  scheduleJSON  `json:"single_level"`
	FirstOrder   *scheduleJSON `json:"first_order,omitempty"`
	DiTwoLevel   *scheduleJSON `json:"di_two_level,omitempty"`
}

// firstOrder evaluates a first-order schedule with the model.
func (r levelsOptimizeReport) firstOrder(s *intervals.MultiLevelSchedule) *scheduleJSON {
	if s == nil || s.Interval <= 0 || math.IsInf(s.Interval, 0) {
		return nil
	}
	res, err := r.m.Evaluate(s.Pattern, s.Interval)
	if err != nil {
		return nil
	}
	return &scheduleJSON{Pattern: s.Pattern, Interval: jsonFloat(s.Interval), UWT: jsonFloat(res.UWT)}
}

func (r levelsOptimizeReport) JSON() any {
	o := r.opt
	var fo *scheduleJSON
	if r.m.Levels() > 1 {
		fo = r.firstOrder(&o.FirstOrder)
	}
	return levelsOptimizeJSON{
		optimizeJSON: optimizeJSON{modelPointJSON: newModelPointJSON(r.info, true, o.Interval, o.UWT, o.Availability),
			Evaluations: o.Evaluations, Status: "Converged",
			BandLow: jsonFloat(r.bandLow), BandHigh: jsonFloat(r.bandHigh), Band: jsonFloat(r.band),
			ModelInterval: jsonFloat(math.NaN()), Scan: []sampleJSON{}, Dropped: jsonFloat(o.Dropped)},
		levelsJSON: levelsOf(r.m, o.Result), FixedPattern: o.Fixed, Patterns: o.Patterns,
		SingleLevel: scheduleJSON{Pattern: o.SingleLevel.Pattern, Interval: jsonFloat(o.SingleLevel.Interval), UWT: jsonFloat(o.SingleLevel.UWT)},
		FirstOrder:  fo, DiTwoLevel: r.firstOrder(r.di),
	}
}

func (r levelsOptimizeReport) CSV() ([]string, [][]string) {
	o := r.opt
	return []string{"interval", "uwt", "availability", "pattern", "level_intervals", "single_level_interval", "single_level_uwt", "evaluations"},
		[][]string{{csvFloat(o.Interval), csvFloat(o.UWT), csvFloat(o.Availability), joinInts(o.Pattern, " "), joinFloats(o.LevelIntervals, " "),
			csvFloat(o.SingleLevel.Interval), csvFloat(o.SingleLevel.UWT), strconv.Itoa(o.Evaluations)}}
}

func (r levelsOptimizeReport) Text(w io.Writer) error {
	o := r.opt
	t := newTable(w)
	t.row("Scenario", r.info.describe())
	writeLevelRows(t, r.m, o.Result)
	t.row("Near-optimal band", fmt.Sprintf("%s to %s (UWT within %g%% of the best, this pattern)", dur(r.bandLow), dur(r.bandHigh), 100*r.band))
	t.row("Single level", fmt.Sprintf("UWT %s work/s at I = %s (highest level only)", num(o.SingleLevel.UWT), dur(o.SingleLevel.Interval)))
	if r.m.Levels() > 1 {
		if fo := r.firstOrder(&o.FirstOrder); fo != nil {
			t.row("First order", fmt.Sprintf("Benoit et al. 2017: pattern %s, I = %s, UWT %s work/s", patternText(fo.Pattern), dur(float64(fo.Interval)), num(float64(fo.UWT))))
		}
		if di := r.firstOrder(r.di); di != nil {
			t.row("", fmt.Sprintf("Di et al. 2017: pattern %s, I = %s, UWT %s work/s", patternText(di.Pattern), dur(float64(di.Interval)), num(float64(di.UWT))))
		}
	}
	what := fmt.Sprintf("%d patterns searched, %d evaluations", o.Patterns, o.Evaluations)
	if o.Fixed {
		what = fmt.Sprintf("pattern given; %d evaluations", o.Evaluations)
	}
	t.row("Search", what)
	t.row("Path", levelPath(r.m, o.Result))
	return t.flush()
}

// libraryConfig writes the schedule r in the configuration syntax of a
// checkpoint library (docs/model.md section 12, "Configurations"):
// thresholds in seconds or minutes of computation.
func libraryConfig(format string, r multilevel.Result, m *multilevel.Model) (string, error) {
	L := len(r.LevelIntervals)
	every := make([]int, L) // checkpoints between consecutive ones of level ≥ ℓ
	every[0] = 1
	for l := 1; l < L; l++ {
		every[l] = every[l-1] * (r.Pattern[l-1] + 1)
	}
	var b strings.Builder
	head := fmt.Sprintf("# markov optimize: %d levels, pattern %s, I = %.0f s of computation between checkpoints, UWT %s\n",
		L, patternText(r.Pattern), r.Interval, num(r.UWT))
	b.WriteString(head)
	switch format {
	case "scr":
		// SCR user guide: SCR_CHECKPOINT_SECONDS (integer seconds between
		// checkpoints, through SCR_Need_checkpoint), checkpoint
		// descriptors CKPT=i INTERVAL=n (every n-th checkpoint) with
		// SCR_COPY_TYPE=FILE, SCR_FLUSH=n (every n-th checkpoint to the
		// parallel file system: the highest level).
		fmt.Fprintf(&b, "SCR_CHECKPOINT_SECONDS=%d\n", int(math.Max(1, math.Round(r.Interval))))
		if L > 1 {
			b.WriteString("SCR_COPY_TYPE=FILE\n")
			b.WriteString("# levels 1..L-1 as cache descriptors; give each its GROUP, STORE and TYPE\n")
			for l := 0; l < L-1; l++ {
				fmt.Fprintf(&b, "CKPT=%d INTERVAL=%d\n", l, every[l])
			}
		}
		fmt.Fprintf(&b, "SCR_FLUSH=%d\n", every[L-1])
	case "fti":
		// FTI configuration, [basic]: ckpt_l1 … ckpt_l4, each level's
		// interval in whole minutes (0 disables the level); the highest
		// of our levels is FTI's L4 (the parallel file system), the
		// others FTI's L1, L2, L3 in order.
		if L > 4 {
			return "", flagError("format", "fti has 4 checkpoint levels, the scenario %d", L)
		}
		minutes := int(math.Max(1, math.Round(r.Interval/60)))
		fti := [4]int{}
		for l := 0; l < L; l++ {
			k := l
			if l == L-1 {
				k = 3
			}
			fti[k] = minutes * every[l]
		}
		b.WriteString("[basic]\n")
		for k, v := range fti {
			fmt.Fprintf(&b, "ckpt_l%d = %d\n", k+1, v)
		}
		if float64(minutes)*60 != math.Round(r.Interval) {
			fmt.Fprintf(&b, "# FTI counts whole minutes: I = %.0f s is rounded to %d min\n", r.Interval, minutes)
		}
	case "veloc":
		// VeloC user guide: every checkpoint request goes to scratch;
		// ec_interval and persistent_interval are the least seconds
		// between checkpoints protected by erasure coding and flushed to
		// the parallel file system (negative: never).
		if L > 3 {
			return "", flagError("format", "veloc has 3 checkpoint levels (scratch, erasure coding, persistent), the scenario %d", L)
		}
		b.WriteString("scratch = <node-local path>\npersistent = <parallel file system path>\nmode = async\n")
		ec := -1.0
		if L == 3 {
			ec = r.LevelIntervals[1]
		}
		fmt.Fprintf(&b, "ec_interval = %d\n", int(math.Round(ec)))
		per := r.LevelIntervals[L-1]
		if L == 1 {
			per = 0
		}
		fmt.Fprintf(&b, "persistent_interval = %d\n", int(math.Round(per)))
		fmt.Fprintf(&b, "# and a checkpoint request every %.0f s of computation\n", r.Interval)
	}
	b.WriteString("# (the thresholds count computation; they fall on the intended checkpoint while the checkpoints in between take less than I in all)\n")
	_ = m
	return b.String(), nil
}

// runSimulateLevels is markov simulate on a multi-level scenario: the
// simulation (package sim, with levels and severities) beside the exact
// multi-level model at the same pattern (the scenario's
// checkpoint_pattern) and interval (--interval, or the model's best for
// that pattern).
func runSimulateLevels(ctx context.Context, opts *simulateOptions, info scenarioInfo, interval float64, set *sim.Settings) error {
	m, err := newLevelModel(ctx, info, &opts.Model)
	if err != nil {
		return err
	}
	var res multilevel.Result
	if interval == 0 {
		pattern := info.sc.CheckpointPattern
		if pattern == nil {
			pattern = make([]int, m.Levels()-1)
		}
		opt, err := m.Optimize(ctx, &multilevel.OptimizeSettings{Pattern: pattern})
		if err != nil {
			return err
		}
		interval, res = opt.Interval, opt.Result
	} else if res, err = m.Evaluate(nil, interval); err != nil {
		return err
	}
	bar := opts.env.startProgress("simulating", 0)
	out, err := sim.Run(ctx, info.sc, interval, set)
	bar.finish()
	if err != nil {
		return err
	}
	model := uwt.Result{Interval: interval, UWT: res.UWT, Availability: res.Availability}
	return opts.env.render(opts.Output, simulateReport{info: info, interval: interval, seed: opts.Seed, model: model, res: out})
}
