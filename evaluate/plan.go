package evaluate

import (
	"errors"
	"fmt"

	"github.com/ckpt-markov/markov/internal/quote"
	"github.com/ckpt-markov/markov/scenario"
)

// cell is one row of a run before it is evaluated: a system, an
// application resolved on the system's processor count, a policy's
// segment configuration, and the system's segment draws (shared by every
// cell of the system: same seed, same draws).
type cell struct {
	sys   System
	procs int
	name  string
	app   scenario.Application
	cfg   config
	draws []draw
}

// planner is what Run and RunLevels do differently while they walk the
// systems, applications and policies of the settings; nil hooks do
// nothing (keep: every policy).
type planner struct {
	// system runs first for each system.
	system func(sys System) error
	// application checks an application before its policies.
	application func(name string, app scenario.Application) error
	// keep tells whether a policy applies to an application.
	keep func(pol scenario.Policy, app scenario.Application) bool
	// short records a system that cannot be evaluated, and why.
	short func(sys System, procs int, reason string)
	// cell records one row to evaluate.
	cell func(c cell)
}

// plan walks set's systems, then applications, then policies, in the
// order of the settings (the order of the table's rows), and calls pl's
// hooks. A system whose trace is too short (shortError) goes to
// pl.short and the others go on; any other error stops the walk.
func (set Settings) plan(pl planner) error {
	for _, sys := range set.Systems {
		if pl.system != nil {
			if err := pl.system(sys); err != nil {
				return err
			}
		}
		procs := set.processors(sys)
		draws, err := set.draw(sys, procs)
		if short := (*shortError)(nil); errors.As(err, &short) {
			pl.short(sys, procs, short.Error())
			continue
		}
		if err != nil {
			return err
		}
		for _, name := range set.Applications {
			app, err := set.Resolve(name, procs)
			if err != nil {
				return fmt.Errorf("evaluate: application %s on %d processors (system %s): %w", quote.Value(name), procs, quote.Value(sys.Name), err)
			}
			if app.N() != procs {
				return fmt.Errorf("evaluate: application %s is described for %d processors, want %d (system %s)", quote.Value(name), app.N(), procs, quote.Value(sys.Name))
			}
			if pl.application != nil {
				if err := pl.application(name, app); err != nil {
					return err
				}
			}
			for _, pol := range set.Policies {
				if pl.keep != nil && !pl.keep(pol, app) {
					continue
				}
				c, err := newConfig(set.segmentSettings(pol))
				if err != nil {
					return err
				}
				if err := fits(pol, app); err != nil {
					return err
				}
				pl.cell(cell{sys: sys, procs: procs, name: name, app: app, cfg: c, draws: draws})
			}
		}
	}
	return nil
}
