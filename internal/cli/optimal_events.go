package cli

import (
	"fmt"
	"io"
	"strconv"

	"github.com/ckpt-markov/markov/optimal"
	"github.com/ckpt-markov/markov/scenario"
)

// optimalEventsReport is the result of markov optimize and markov uwt
// with --policy optimal on a system with failure events: level 2, the
// only level solved there (r* at I*), or g*(I) at a fixed interval, with
// its decision table.
type optimalEventsReport struct {
	info  scenarioInfo
	sol   optimal.Solution
	fixed bool // uwt: g*(I) at the interval asked for
}

// optimalEventsJSON is its --json form. Vector is r*(1..N), null when
// the actions depend on the checkpoint count p (Table then holds the
// decision table's entries); Runs is the vector's runs or the table's
// range form.
type optimalEventsJSON struct {
	Scenario       scenarioJSON          `json:"scenario"`
	UWT            jsonFloat             `json:"uwt"`
	Interval       jsonFloat             `json:"interval"`
	Vector         []int                 `json:"vector"`
	Table          []scenario.TableEntry `json:"table,omitempty"`
	Runs           string                `json:"runs"`
	DependsOnOld   bool                  `json:"depends_on_old"`
	Levels         []int                 `json:"levels"`
	Iterations     int                   `json:"iterations"`
	Status         string                `json:"status"`
	IntervalStatus string                `json:"interval_status"`
}

// noWork is the runs column when no policy does useful work: nothing was
// solved and there is no decision table (Status NoUsefulWork).
const noWork = "none: no policy does useful work"

func (r optimalEventsReport) JSON() any {
	tb := r.sol.Events.Table
	out := optimalEventsJSON{
		Scenario: r.info.json(), UWT: jsonFloat(r.sol.UWT), Interval: jsonFloat(r.sol.Interval),
		Levels: []int{2}, Iterations: r.sol.Iterations,
		Status: r.sol.Status.String(), IntervalStatus: r.sol.IntervalStatus.String(),
	}
	if tb == nil {
		out.Runs = noWork
		return out
	}
	out.DependsOnOld = tb.DependsOnOld()
	if v, err := tb.Vector(); err == nil {
		out.Vector, out.Runs = v, runs(v)
	} else {
		out.Table, out.Runs = scenario.TableJSON(tb.Entries()), tb.String()
	}
	return out
}

func (r optimalEventsReport) CSV() ([]string, [][]string) {
	tb := r.sol.Events.Table
	rr := noWork
	if tb != nil {
		rr = tb.String()
		if v, err := tb.Vector(); err == nil {
			rr = runs(v)
		}
	}
	return []string{"level", "interval", "uwt", "runs", "iterations", "status"},
		[][]string{{"2", csvFloat(r.sol.Interval), csvFloat(r.sol.UWT), rr, strconv.Itoa(r.sol.Iterations), r.sol.Status.String()}}
}

func (r optimalEventsReport) Text(w io.Writer) error {
	tb := r.sol.Events.Table
	t := newTable(w)
	t.row("Scenario", r.info.describe())
	if r.fixed {
		t.row("Interval I", dur(r.sol.Interval))
		t.row("g*(I)", num(r.sol.UWT)+" work/s (the best rescheduling policy at this interval)")
	} else if tb == nil {
		t.row("I*", "none: no interval gives useful work")
	} else {
		t.row("I*", short(r.sol.Interval)+" (one interval, UWT "+num(r.sol.UWT)+" work/s)")
	}
	if tb == nil {
		t.row("r*(n)", noWork+" (every up segment's reward rate is within the model's accuracy of zero)")
	} else if v, err := tb.Vector(); err == nil {
		t.row("r*(n)", runs(v))
	} else {
		decisionTableRows(t, "r*(p, n)", tb)
	}
	t.row("Levels", "level 2 only: with failure events the solver has one interval for every configuration (docs/optimal-policy.md)")
	t.row("Policy iteration", fmt.Sprintf("%s after %d improvements", r.sol.Status, r.sol.Iterations))
	boundWarning(t, r.sol.IntervalStatus)
	return t.flush()
}
