package cli

import (
	"context"
	"fmt"
	"io"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/ckpt-markov/markov/sim"
	"github.com/ckpt-markov/markov/uwt"
)

// simulateOptions are the flags of markov simulate.
type simulateOptions struct {
	modelFlags
	Interval     string
	Horizon      string
	Replications int
	Seed         uint64
	RelTol       float64
	Confidence   float64
}

// simulateJSON is the --json output of markov simulate.
type simulateJSON struct {
	Scenario scenarioJSON `json:"scenario"`
	Interval jsonFloat    `json:"interval"`
	// UWT is the simulated mean, UWTLow and UWTHigh its confidence interval.
	UWT                   jsonFloat `json:"uwt"`
	UWTHalfWidth          jsonFloat `json:"uwt_half_width"`
	UWTLow                jsonFloat `json:"uwt_low"`
	UWTHigh               jsonFloat `json:"uwt_high"`
	Availability          jsonFloat `json:"availability"`
	AvailabilityHalfWidth jsonFloat `json:"availability_half_width"`
	Confidence            jsonFloat `json:"confidence"`
	// ModelUWT and ModelAvailability are the Markov model's values at the
	// same interval; ModelInCI tells whether ModelUWT is in the interval.
	ModelUWT          jsonFloat `json:"model_uwt"`
	ModelAvailability jsonFloat `json:"model_availability"`
	ModelInCI         bool      `json:"model_in_ci"`
	Replications      int       `json:"replications"`
	Horizon           jsonFloat `json:"horizon"`
	Seed              uint64    `json:"seed"`
	// Interruptions counts the failures that interrupted the application
	// (the table's "interruptions"); Failures is its old name, kept as an
	// alias for one release.
	Interruptions int64  `json:"interruptions"`
	Failures      int64  `json:"failures"`
	Commits       int64  `json:"commits"`
	Status        string `json:"status"`
}

func newSimulateCmd(e *env) *cobra.Command {
	opts := &simulateOptions{modelFlags: modelFlags{env: e}}
	cmd := &cobra.Command{
		Use:   "simulate",
		Short: "Monte Carlo simulation of the same process, beside the model",
		Long: `Simulate the scenario event by event (processors failing and being repaired at
exponential times, the application checkpointing, failing, recovering and
waiting as the model describes) and estimate UWT with a confidence interval
from independent replications; print the Markov model's UWT at the same
interval beside it.

The replications run for --horizon of simulated time each and are extended
until the confidence interval's half-width is below --rel-tol of the mean
(a negative --rel-tol runs one stage). Without --interval the model's I* is
searched first and simulated. With --policy optimal the optimal policy is
simulated: at --interval, the best vector for that interval; without it,
the per-state optimum with its interval for every (processor count, spare
count), beside the UWT the solver computes for it. With application.replicas = r > 1
the policy must be moldable:A with A = a·r, and the model beside the
simulation is the exact replicated model (docs/model.md section 13).
Results depend only on --seed, not on the number of CPUs.`,
		Example: `  markov simulate --interval 17h
  markov simulate --app cg --processors 16 --seed 7 --replications 64 --json
  markov simulate --interval 2h --horizon 5y --rel-tol -1`,
		Args: cobra.NoArgs,
		RunE: e.runE(func(ctx context.Context, cmd *cobra.Command) error {
			return runSimulate(ctx, cmd, opts)
		}),
	}
	opts.modelFlags.register(cmd)
	f := cmd.Flags()
	f.StringVarP(&opts.Interval, "interval", "i", "", "checkpoint interval (`DURATION`); default: the model's I*")
	f.StringVar(&opts.Horizon, "horizon", "", "simulated time per replication at the first stage (`DURATION`); default: long enough for many failures and segments")
	f.IntVar(&opts.Replications, "replications", 32, "independent replications (at least 2)")
	f.Uint64Var(&opts.Seed, "seed", 1, "random seed")
	f.Float64Var(&opts.RelTol, "rel-tol", 0.01, "target relative half-width of the UWT confidence interval (negative: one stage only)")
	f.Float64Var(&opts.Confidence, "confidence", 0.99, "confidence level of the intervals")
	return cmd
}

func runSimulate(ctx context.Context, cmd *cobra.Command, opts *simulateOptions) error {
	interval, set, err := opts.settings()
	if err != nil {
		return err
	}
	if wantsOptimal(opts.Scenario.Policy) {
		return runSimulateOptimal(ctx, cmd, opts, interval, set)
	}
	if err := opts.Optimal.unused(); err != nil {
		return err
	}
	info, err := opts.Scenario.load(cmd)
	if err != nil {
		return err
	}
	if info.sc.MultiLevel() {
		return runSimulateLevels(ctx, opts, info, interval, set)
	}
	if info.sc.Application.ReplicaCount() > 1 {
		return runSimulateReplicas(ctx, cmd, opts, info, interval, set)
	}
	info, m, err := buildModel(cmd, info, &opts.Model)
	if err != nil {
		return err
	}
	var model uwt.Result
	if interval == 0 {
		bar := opts.env.startProgress("searching I*", 0)
		opt, err := m.Optimize(ctx, nil)
		bar.finish()
		if err != nil {
			return err
		}
		interval, model = opt.Result.Interval, opt.Result
	} else if model, err = m.Evaluate(ctx, interval); err != nil {
		return err
	}
	bar := opts.env.startProgress("simulating", 0)
	res, err := sim.Run(ctx, info.sc, interval, set)
	bar.finish()
	if err != nil {
		return err
	}
	return opts.env.render(opts.Output, simulateReport{info: info, interval: interval, seed: opts.Seed, model: model, res: res})
}

// settings checks the flags and returns --interval (0 when not given) and
// the simulation's settings.
func (o *simulateOptions) settings() (interval float64, set *sim.Settings, err error) {
	var horizon float64
	if o.Interval != "" {
		if interval, err = positiveDuration("interval", o.Interval); err != nil {
			return 0, nil, err
		}
	}
	if o.Horizon != "" {
		if horizon, err = positiveDuration("horizon", o.Horizon); err != nil {
			return 0, nil, err
		}
		if horizon > sim.MaxHorizonSeconds {
			return 0, nil, flagError("horizon", "%v s, above the limit of %v s (a thousand years)", horizon, sim.MaxHorizonSeconds)
		}
	}
	switch {
	case o.Replications < 2 || o.Replications > sim.MaxReplications:
		return 0, nil, flagError("replications", "%d, want at least 2 and at most %d", o.Replications, sim.MaxReplications)
	case !(o.Confidence > 0 && o.Confidence < 1):
		return 0, nil, flagError("confidence", "%v, want a level in (0, 1)", o.Confidence)
	case o.RelTol == 0:
		return 0, nil, flagError("rel-tol", "0, want a positive target or a negative value for one stage")
	}
	return interval, &sim.Settings{
		Seed:         o.Seed,
		Replications: o.Replications,
		Horizon:      horizon,
		RelTol:       o.RelTol,
		Confidence:   o.Confidence,
		Workers:      o.Model.Workers,
	}, nil
}

// simulateReport is the result of markov simulate: the simulation and the
// model at the same interval.
type simulateReport struct {
	info     scenarioInfo
	interval float64
	seed     uint64
	model    uwt.Result
	res      *sim.Result
}

func (r simulateReport) JSON() any {
	u, res := r.res.UWT, r.res
	return simulateJSON{
		Scenario:              r.info.json(),
		Interval:              jsonFloat(r.interval),
		UWT:                   jsonFloat(u.Mean),
		UWTHalfWidth:          jsonFloat(u.HalfWidth),
		UWTLow:                jsonFloat(u.Mean - u.HalfWidth),
		UWTHigh:               jsonFloat(u.Mean + u.HalfWidth),
		Availability:          jsonFloat(res.Availability.Mean),
		AvailabilityHalfWidth: jsonFloat(res.Availability.HalfWidth),
		Confidence:            jsonFloat(res.Confidence),
		ModelUWT:              jsonFloat(r.model.UWT),
		ModelAvailability:     jsonFloat(r.model.Availability),
		ModelInCI:             u.Contains(r.model.UWT),
		Replications:          res.Replications,
		Horizon:               jsonFloat(res.Horizon),
		Seed:                  r.seed,
		Interruptions:         res.Failures,
		Failures:              res.Failures,
		Commits:               res.Commits,
		Status:                res.Status.String(),
	}
}

func (r simulateReport) CSV() ([]string, [][]string) {
	u, res := r.res.UWT, r.res
	return []string{"interval", "uwt", "uwt_half_width", "model_uwt", "availability", "availability_half_width", "model_availability", "confidence", "replications", "horizon", "seed", "status"},
		[][]string{{csvFloat(r.interval), csvFloat(u.Mean), csvFloat(u.HalfWidth), csvFloat(r.model.UWT),
			csvFloat(res.Availability.Mean), csvFloat(res.Availability.HalfWidth), csvFloat(r.model.Availability),
			csvFloat(res.Confidence), strconv.Itoa(res.Replications), csvFloat(res.Horizon),
			strconv.FormatUint(r.seed, 10), res.Status.String()}}
}

func (r simulateReport) Text(w io.Writer) error {
	u, res := r.res.UWT, r.res
	verdict := "inside the confidence interval"
	if !u.Contains(r.model.UWT) {
		verdict = "OUTSIDE the confidence interval"
	}
	level := percent(res.Confidence)
	t := newTable(w)
	t.row("Scenario", r.info.describe())
	t.row("Interval I", dur(r.interval))
	t.row("Simulated UWT", fmt.Sprintf("%s ± %s work/s (%s CI %s to %s)", num(u.Mean), halfWidth(u.HalfWidth), level, num(u.Mean-u.HalfWidth), num(u.Mean+u.HalfWidth)))
	t.row("Model UWT", fmt.Sprintf("%s work/s (%s)", num(r.model.UWT), verdict))
	t.row("Simulated availability", fmt.Sprintf("%s ± %s", num(res.Availability.Mean), halfWidth(res.Availability.HalfWidth)))
	t.row("Model availability", num(r.model.Availability))
	t.row("Replications", fmt.Sprintf("%d × %s simulated (seed %d), %s", res.Replications, short(res.Horizon), r.seed, res.Status))
	t.row("Events", fmt.Sprintf("%d interruptions, %d commits", res.Failures, res.Commits))
	switch res.Status {
	case sim.NoCommits:
		if res.Failures >= sim.NoCommitInterruptions {
			t.row("Warning", fmt.Sprintf("no segment committed in %d interruptions: at this interval segments essentially never complete, and 0 ± 0 is no estimate", res.Failures))
		} else {
			t.row("Warning", "no segment committed within the simulated time (is --horizon shorter than a segment?): 0 ± 0 is no estimate")
		}
	case sim.HorizonLimit:
		t.row("Warning", "the simulation time limit was reached before the interval's target precision (--rel-tol)")
	}
	return t.flush()
}
