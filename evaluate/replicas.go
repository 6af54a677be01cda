package evaluate

import (
	"context"
	"fmt"

	"github.com/ckpt-markov/markov/internal/quote"
	"github.com/ckpt-markov/markov/replication"
	"github.com/ckpt-markov/markov/scenario"
	"github.com/ckpt-markov/markov/trace"
	"github.com/ckpt-markov/markov/uwt"
)

// Replicated applications (Volpex; docs/model.md section 13). An
// application with application.replicas = r > 1 runs a logical processes
// as r replicas each on a·r nodes; the replay (package sim) keeps the
// replicas, refills dead ones from the hot spares at every checkpoint
// (co-operative checkpoints) and picks hosts by the segment's rule (sim.Lastval
// for Volpex's). Its model is package replication's exact chain, which
// holds for a fixed count a: the moldable policy on a·r processors.

// replicable reports whether Run pairs policy p with app: every policy
// with an application of one replica; with r > 1 replicas, only a
// moldable policy on a multiple of r processors (package replication's
// model), so that a replicated application is replayed beside the
// malleable policies of its unreplicated twin rather than with them.
func replicable(p scenario.Policy, app scenario.Application) bool {
	r := app.ReplicaCount()
	return r == 1 || p.Kind == scenario.Moldable && p.Explicit == nil && p.Processors%r == 0
}

// checkReplicated rejects a replicated application that no policy of
// Settings.Policies can run, or with the model with failure events
// (Events.Model), which has one replica per process.
func checkReplicated(name string, app scenario.Application, policies []scenario.Policy, events bool) error {
	if app.ReplicaCount() == 1 {
		return nil
	}
	if events {
		return settingsErr("Events.Model", "not with application %s, which has application.replicas = %d (the model with failure events has one replica per process)", quote.Value(name), app.ReplicaCount())
	}
	for _, p := range policies {
		if replicable(p, app) {
			return nil
		}
	}
	r := app.ReplicaCount()
	return fmt.Errorf("evaluate: application %s has application.replicas = %d: it needs a moldable policy on a multiple of %d processors (moldable:A, A = a·r) among the policies", quote.Value(name), r, r)
}

// solveReplicated is solve for a replicated application: package
// replication's optimum for a = Policy.Processors / r logical processes on
// the segment's rates (I* is also the paper's I_model: the chain gives no
// band), and the history's verdict on the model's assumptions. The model
// with failure events is not written for replicas.
func (c config) solveReplicated(ctx context.Context, tr *trace.Trace, seg Segment, m modelled) (solved, error) {
	sc := m.sc
	r := sc.Application.ReplicaCount()
	if !replicable(sc.Policy, sc.Application) {
		return solved{}, fmt.Errorf("evaluate: application.replicas = %d needs a moldable policy on a multiple of %d processors, not %s", r, r, sc.Policy)
	}
	if c.events.Model {
		return solved{}, settingsErr("Events.Model", "not with application.replicas = %d (the model with failure events has one replica per process)", r)
	}
	if err := ctx.Err(); err != nil {
		return solved{}, err
	}
	rm, err := replication.FromScenario(sc, sc.Policy.Processors/r)
	if err != nil {
		return solved{}, fmt.Errorf("evaluate: %w", err)
	}
	opt, err := rm.Optimize(0)
	if err != nil {
		return solved{}, fmt.Errorf("evaluate: %w", err)
	}
	var sv solved
	sv.opt = uwt.Optimum{
		Result:        uwt.Result{Interval: opt.Interval, UWT: opt.UWT, Availability: opt.Availability, States: opt.States},
		BandLow:       opt.Interval,
		BandHigh:      opt.Interval,
		ModelInterval: opt.Interval,
		Status:        uwt.Converged,
	}
	if sv.assume, err = trace.EstimateEvents(tr, seg.Start, c.events.settings(tr, c.estimate.Lookback)); err != nil {
		return solved{}, err
	}
	sv.events = sv.opt
	return sv, nil
}
