package cli

import (
	"context"
	"fmt"
	"io"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/ckpt-markov/markov/uwt"
)

// optimizeOptions are the flags of markov optimize.
type optimizeOptions struct {
	modelFlags
	RelTol   float64
	Band     float64
	Scan     bool
	Levels   levelOptions
	Plot     plotOptions
	Replicas replicasOptions
}

// optimizeJSON is the --json output of markov optimize.
type optimizeJSON struct {
	modelPointJSON
	BandLow       jsonFloat    `json:"band_low"`
	BandHigh      jsonFloat    `json:"band_high"`
	Band          jsonFloat    `json:"band"`
	ModelInterval jsonFloat    `json:"model_interval"`
	Evaluations   int          `json:"evaluations"`
	LocalMaxima   int          `json:"local_maxima"`
	Status        string       `json:"status"`
	States        int          `json:"states"`
	Recurrent     int          `json:"recurrent"`
	Dropped       jsonFloat    `json:"dropped"`
	Residual      jsonFloat    `json:"residual"`
	Scan          []sampleJSON `json:"scan"`
	OldCountBin   int          `json:"old_count_bin"`
	BinError      jsonFloat    `json:"bin_error"`
}

// sampleJSON is UWT at one interval.
type sampleJSON struct {
	Interval jsonFloat `json:"interval"`
	UWT      jsonFloat `json:"uwt"`
}

func newOptimizeCmd(e *env) *cobra.Command {
	opts := &optimizeOptions{modelFlags: modelFlags{env: e}}
	cmd := &cobra.Command{
		Use:   "optimize",
		Short: "Find the checkpoint interval I* that maximises UWT",
		Long: `Find I*, the checkpoint interval that maximises the useful work per second
UWT(I) of the scenario, and the near-optimal band of intervals whose UWT is
within --band of the best (UWT is flat near its maximum, so any interval in
the band is as good in practice).

The search doubles I from 5 minutes (down and up) until UWT has fallen to
half its best on both sides, then refines by golden-section search on log I
to --rel-tol. It also reports the paper's I_model: the mean of the scanned
intervals whose UWT is within 8 % of the best.

With --policy optimal it computes the optimal rescheduling policy
(docs/optimal-policy.md) and prints the levels of its section 4: the
optimal vector r* with one interval I*, with one interval per processor
count I(a), and with an interval per state (an upper bound), beside greedy
and pb at their own best intervals. --candidates restricts the processor
counts a run may use; --refine STEP solves on every STEP-th count first and
then around the counts used, for large N.

On a scenario with application.checkpoint_levels (or with --pattern)
it searches the multi-level pattern and the interval together
(docs/model.md section 12) and prints them with the best single-level
schedule and the first-order ones beside them; --pattern V1,V2,... fixes
the pattern, --format scr|fti|veloc prints the schedule as that
library's configuration.

With --replicas auto it chooses the replication degree r, the count a of
logical processes (each run as r replicas on a·r processors) and the
interval together with the exact model of docs/model.md section 13, and
prints the best with r = 1 beside it; pairs whose chain exceeds the model's
size limit are skipped and counted.

With no flags at all it runs the built-in scenario (QR on 128 processors of
LANL system-1, greedy policy); see 'markov --help'.`,
		Example: `  markov optimize
  markov optimize --scenario app.json --json
  markov optimize --app cg --processors 16 --exact
  markov optimize --policy pb --mttf 30d --scan
  markov optimize --policy optimal
  markov optimize --scenario docs/examples/atlas-two-level.json --format scr
  markov optimize --replicas auto --processors 12 --mttf 8h --mttr 4h
  markov optimize --policy optimal --app qr --processors 512 --mttf 8h --mttr 4h --refine 32`,
		Args: cobra.NoArgs,
		RunE: e.runE(func(ctx context.Context, cmd *cobra.Command) error {
			return runOptimize(ctx, cmd, opts)
		}),
	}
	opts.modelFlags.register(cmd)
	opts.Levels.register(cmd, true)
	opts.Plot.register(cmd, "UWT(I) over the search's scan (with --policy optimal: r*(n) and I(a); multi-level: UWT over pattern and interval)")
	opts.Replicas.register(cmd)
	f := cmd.Flags()
	f.Float64Var(&opts.RelTol, "rel-tol", 1e-4, "relative tolerance on I*")
	f.Float64Var(&opts.Band, "band", 0.01, "fraction below the best UWT that defines the near-optimal band")
	f.BoolVar(&opts.Scan, "scan", false, "also print the doubling scan (always in --json)")
	return cmd
}

// optimizeSettings checks the search flags.
func optimizeSettings(relTol, band float64) (*uwt.OptimizeSettings, error) {
	if !(relTol > 0 && relTol < 1) {
		return nil, flagError("rel-tol", "%v, want a number in (0, 1)", relTol)
	}
	if !(band > 0 && band < 1) {
		return nil, flagError("band", "%v, want a fraction in (0, 1)", band)
	}
	return &uwt.OptimizeSettings{RelTol: relTol, Band: band}, nil
}

func runOptimize(ctx context.Context, cmd *cobra.Command, opts *optimizeOptions) error {
	if err := opts.Plot.check(); err != nil {
		return err
	}
	replicas, err := opts.Replicas.wanted()
	if err != nil {
		return err
	}
	if replicas && wantsOptimal(opts.Scenario.Policy) {
		return flagError("replicas", "not with --policy optimal (the optimal policy models one replica per process)")
	}
	if wantsOptimal(opts.Scenario.Policy) {
		return runOptimizeOptimal(ctx, cmd, opts)
	}
	if err := opts.Optimal.unused(); err != nil {
		return err
	}
	search, err := optimizeSettings(opts.RelTol, opts.Band)
	if err != nil {
		return err
	}
	info, err := opts.Scenario.load(cmd)
	if err != nil {
		return err
	}
	if replicas {
		if info.sc.MultiLevel() {
			return flagError("replicas", "not with a multi-level scenario (application.checkpoint_levels)")
		}
		return runOptimizeReplicas(ctx, opts, info)
	}
	if opts.Levels.wanted(info.sc) {
		return runOptimizeLevels(ctx, opts, info)
	}
	info, m, err := buildModel(cmd, info, &opts.Model)
	if err != nil {
		return err
	}
	bar := opts.env.startProgress("searching I*", 0)
	opt, err := m.Optimize(ctx, search)
	bar.finish()
	if err != nil {
		return err
	}

	r := optimizeReport{info, opts.Model, opts.Band, opts.Scan, opt}
	return opts.env.renderPlotted(opts.Output, opts.Plot, r, r.scanFigure)
}

// optimizeReport is the result of markov optimize.
type optimizeReport struct {
	info  scenarioInfo
	model modelOptions
	band  float64
	scan  bool
	opt   uwt.Optimum
}

func (r optimizeReport) JSON() any {
	opt := r.opt
	scan := make([]sampleJSON, len(opt.Scan))
	for k, s := range opt.Scan {
		scan[k] = sampleJSON{jsonFloat(s.Interval), jsonFloat(s.UWT)}
	}
	return optimizeJSON{
		modelPointJSON: newModelPointJSON(r.info, r.model.Exact, opt.Result.Interval, opt.Result.UWT, opt.Result.Availability),
		BandLow:        jsonFloat(opt.BandLow),
		BandHigh:       jsonFloat(opt.BandHigh),
		Band:           jsonFloat(r.band),
		ModelInterval:  jsonFloat(opt.ModelInterval),
		Evaluations:    opt.Evaluations,
		LocalMaxima:    opt.LocalMaxima,
		Status:         r.status(),
		States:         opt.Result.States,
		Recurrent:      opt.Result.Recurrent,
		Dropped:        jsonFloat(opt.Result.Dropped),
		Residual:       jsonFloat(opt.Result.Residual),
		Scan:           scan,
		OldCountBin:    opt.Result.OldCountBin,
		BinError:       jsonFloat(opt.Result.BinError),
	}
}

func (r optimizeReport) CSV() ([]string, [][]string) {
	opt := r.opt
	return []string{"interval", "uwt", "availability", "band_low", "band_high", "model_interval", "evaluations", "status", "states"},
		[][]string{{csvFloat(opt.Result.Interval), csvFloat(opt.Result.UWT), csvFloat(opt.Result.Availability),
			csvFloat(opt.BandLow), csvFloat(opt.BandHigh), csvFloat(opt.ModelInterval),
			strconv.Itoa(opt.Evaluations), r.status(), strconv.Itoa(opt.Result.States)}}
}

// noWork reports whether UWT is negligible at every interval searched
// (uwt.Optimum.NoUsefulWork): then no interval gives useful work, and the
// search's I* is an arbitrary point of a flat curve.
func (r optimizeReport) noWork() bool { return r.opt.NoUsefulWork }

// status is the search's status, or noUsefulWork.
func (r optimizeReport) status() string {
	if r.noWork() {
		return noUsefulWork
	}
	return r.opt.Status.String()
}

// noUsefulWork is the status printed when UWT is negligible at every
// interval (uwt.Optimum.NoUsefulWork; optimal.NoUsefulWork's name), and
// by evaluate for a row where no interval committed any work in any
// segment, instead of an efficiency.
const noUsefulWork = "NoUsefulWork"

func (r optimizeReport) Text(w io.Writer) error {
	opt := r.opt
	t := newTable(w)
	t.row("Scenario", r.info.describe())
	if r.noWork() {
		t.row("Optimal interval I*", "none: UWT is negligible (within the model's accuracy of zero) at every interval searched, no interval gives useful work")
		t.row("Search", fmt.Sprintf("%s after %d evaluations", r.status(), opt.Evaluations))
		writeChainRows(t, opt.Result, r.model.path())
		return t.flush()
	}
	t.row("Optimal interval I*", dur(opt.Result.Interval))
	t.row("UWT at I*", num(opt.Result.UWT)+" work/s")
	t.row("Availability at I*", num(opt.Result.Availability))
	t.row("Near-optimal band", fmt.Sprintf("%s to %s (UWT within %s of the best)", short(opt.BandLow), short(opt.BandHigh), percent(r.band)))
	t.row("Paper's I_model", short(opt.ModelInterval)+" (mean of scanned intervals within 8% of the best)")
	maxima := "1 local maximum"
	if opt.LocalMaxima != 1 {
		maxima = fmt.Sprintf("%d local maxima", opt.LocalMaxima)
	}
	t.row("Search", fmt.Sprintf("%s after %d evaluations; %s in the scan", opt.Status, opt.Evaluations, maxima))
	switch opt.Status {
	case uwt.AtMin:
		t.row("Warning", "UWT still rises at the smallest interval searched: I* is that bound, not an interior maximum")
	case uwt.AtMax:
		t.row("Warning", "UWT still rises at the largest interval searched: I* is that bound, not an interior maximum")
	}
	writeChainRows(t, opt.Result, r.model.path())
	if err := t.flush(); err != nil {
		return err
	}
	if !r.scan {
		return nil
	}
	fmt.Fprintln(w)
	t = newTable(w)
	t.row("Interval", "Seconds", "UWT (work/s)")
	for _, s := range opt.Scan {
		t.row(short(s.Interval), num(s.Interval), num(s.UWT))
	}
	return t.flush()
}
