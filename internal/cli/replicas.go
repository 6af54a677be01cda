package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/ckpt-markov/markov/internal/quote"
	"github.com/ckpt-markov/markov/replication"
	"github.com/ckpt-markov/markov/scenario"
	"github.com/ckpt-markov/markov/sim"
	"github.com/ckpt-markov/markov/uwt"
)

// replicasOptions is optimize's --replicas flag: "auto" searches the
// replication degree r with the count a and the interval I (package
// replication's Best).
type replicasOptions struct {
	Replicas string
	changed  func(string) bool
}

func (o *replicasOptions) register(cmd *cobra.Command) {
	f := cmd.Flags()
	o.changed = f.Changed
	f.StringVar(&o.Replicas, "replicas", "", fmt.Sprintf("`MODE` auto: choose the replication degree r (1 … %d), the count a of logical processes and the interval together (docs/model.md section 13), beside the best with r = 1", scenario.MaxReplicas))
}

// wanted reports whether --replicas was given, and checks its value and
// the flags it excludes.
func (o *replicasOptions) wanted() (bool, error) {
	if !o.changed("replicas") {
		return false, nil
	}
	if o.Replicas != "auto" {
		return false, flagError("replicas", "%s, want auto (a fixed degree is application.replicas in the scenario)", quote.Value(o.Replicas))
	}
	for _, name := range []string{"scan", "exact", "old-count-bin", "workers", "max-memory", "pattern", "format", "band"} {
		if o.changed(name) {
			return false, flagError(name, "not with --replicas auto")
		}
	}
	return true, nil
}

// runOptimizeReplicas maximises UWT over (a, r, I) for the loaded
// scenario's system and costs.
func runOptimizeReplicas(ctx context.Context, opts *optimizeOptions, info scenarioInfo) error {
	n := info.sc.N()
	maxR := min(scenario.MaxReplicas, n)
	total := 0
	for r := 1; r <= maxR; r++ {
		total += n / r
	}
	bar := opts.env.startProgress("searching (a, r, I)", total)
	done := 0
	choice, err := replication.Best(ctx, info.sc, maxR, opts.RelTol, func(d, _ int) {
		bar.add(d - done)
		done = d
	})
	bar.finish()
	var we *replication.WorkError
	if errors.As(err, &we) {
		return flagError("processors", "N = %d is too large for --replicas auto: %s", we.Processors, strings.TrimPrefix(we.Error(), "replication: "))
	}
	if err != nil {
		return err
	}
	return opts.env.render(opts.Output, replicasReport{info, choice})
}

// replicasReport is the result of markov optimize --replicas auto.
type replicasReport struct {
	info   scenarioInfo
	choice replication.Choice
}

// pairJSON is one (a, r, I) choice.
type pairJSON struct {
	Processes    int       `json:"processes"`
	Replicas     int       `json:"replicas"`
	Processors   int       `json:"processors"`
	Interval     jsonFloat `json:"interval"`
	UWT          jsonFloat `json:"uwt"`
	Availability jsonFloat `json:"availability"`
	States       int       `json:"states"`
}

// replicasJSON is the --json output of markov optimize --replicas auto.
type replicasJSON struct {
	Scenario  scenarioJSON `json:"scenario"`
	Best      pairJSON     `json:"best"`
	Single    *pairJSON    `json:"single"`
	Evaluated int          `json:"evaluated"`
	Pruned    int          `json:"pruned"`
	Skipped   int          `json:"skipped"`
	MaxStates int          `json:"max_states"`
}

func toPairJSON(p replication.Pair) pairJSON {
	return pairJSON{
		Processes: p.Processes, Replicas: p.Replicas, Processors: p.Processes * p.Replicas,
		Interval: jsonFloat(p.Interval), UWT: jsonFloat(p.UWT), Availability: jsonFloat(p.Availability),
		States: p.States,
	}
}

func (r replicasReport) JSON() any {
	out := replicasJSON{
		Scenario:  r.info.json(),
		Best:      toPairJSON(r.choice.Pair),
		Evaluated: r.choice.Evaluated,
		Pruned:    r.choice.Pruned,
		Skipped:   r.choice.Skipped,
		MaxStates: replication.MaxStates,
	}
	if r.choice.Single.Processes > 0 {
		s := toPairJSON(r.choice.Single)
		out.Single = &s
	}
	return out
}

func (r replicasReport) CSV() ([]string, [][]string) {
	header := []string{"choice", "replicas", "processes", "processors", "interval", "uwt", "availability", "states"}
	row := func(name string, p replication.Pair) []string {
		return []string{name, strconv.Itoa(p.Replicas), strconv.Itoa(p.Processes), strconv.Itoa(p.Processes * p.Replicas),
			csvFloat(p.Interval), csvFloat(p.UWT), csvFloat(p.Availability), strconv.Itoa(p.States)}
	}
	rows := [][]string{row("best", r.choice.Pair)}
	if r.choice.Single.Processes > 0 {
		rows = append(rows, row("single", r.choice.Single))
	}
	return header, rows
}

func (r replicasReport) Text(w io.Writer) error {
	t := newTable(w)
	t.row("Scenario", r.info.describe())
	t.row("", "best (a, r, I)", "best with r = 1")
	single := []string{"none (no count does useful work)", "", "", "", ""}
	if s := r.choice.Single; s.Processes > 0 {
		single = []string{strconv.Itoa(s.Replicas), strconv.Itoa(s.Processes), strconv.Itoa(s.Processes * s.Replicas), dur(s.Interval), num(s.UWT) + " work/s"}
	}
	b := r.choice.Pair
	best := []string{strconv.Itoa(b.Replicas), strconv.Itoa(b.Processes), strconv.Itoa(b.Processes * b.Replicas), dur(b.Interval), num(b.UWT) + " work/s"}
	for k, name := range []string{"Replicas r", "Logical processes a", "Processors used a·r", "Interval I*", "UWT at I*"} {
		t.row(name, best[k], single[k])
	}
	t.row("Search", fmt.Sprintf("%d (a, r) pairs optimised; %d pruned (bound below the best); %d skipped (chain above %d states)", r.choice.Evaluated, r.choice.Pruned, r.choice.Skipped, replication.MaxStates))
	return t.flush()
}

// runSimulateReplicas simulates a scenario with application.replicas =
// r > 1 beside package replication's exact model, which holds for a
// moldable policy on a·r processors (docs/model.md section 13).
func runSimulateReplicas(ctx context.Context, cmd *cobra.Command, opts *simulateOptions, info scenarioInfo, interval float64, set *sim.Settings) error {
	for _, name := range []string{"exact", "old-count-bin", "max-memory"} {
		if cmd.Flags().Changed(name) {
			return flagError(name, "not with application.replicas > 1 (package replication's model has no such option)")
		}
	}
	sc := info.sc
	r := sc.Application.ReplicaCount()
	if sc.Policy.Kind != scenario.Moldable || sc.Policy.Processors%r != 0 {
		return fmt.Errorf("application.replicas = %d: the model needs a moldable policy on a multiple of %d processors (moldable:A with A = a·r), not %s", r, r, info.shortPolicy())
	}
	m, err := replication.FromScenario(sc, sc.Policy.Processors/r)
	if err != nil {
		return err
	}
	var res replication.Result
	if interval == 0 {
		opt, err := m.Optimize(0)
		if err != nil {
			return err
		}
		interval, res = opt.Interval, opt.Result
	} else if res, err = m.UWT(interval); err != nil {
		return err
	}
	bar := opts.env.startProgress("simulating", 0)
	out, err := sim.Run(ctx, sc, interval, set)
	bar.finish()
	if err != nil {
		return err
	}
	model := uwt.Result{Interval: interval, UWT: res.UWT, Availability: res.Availability, States: res.States}
	return opts.env.render(opts.Output, simulateReport{info: info, interval: interval, seed: opts.Seed, model: model, res: out})
}
