package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/ckpt-markov/markov/internal/quote"
	"github.com/ckpt-markov/markov/optimal"
	"github.com/ckpt-markov/markov/reschedule"
	"github.com/ckpt-markov/markov/scenario"
	"github.com/ckpt-markov/markov/sim"
	"github.com/ckpt-markov/markov/uwt"
)

// optimalOptions are the flags that --policy optimal adds to optimize, uwt
// and policy: the restriction of the processor counts for large N.
type optimalOptions struct {
	Candidates string
	Refine     int
	// changed reports whether a flag was given (set by register).
	changed func(string) bool
}

func (o *optimalOptions) register(cmd *cobra.Command) {
	f := cmd.Flags()
	o.changed = f.Changed
	f.StringVar(&o.Candidates, "candidates", "", "with --policy optimal: the processor counts a run may use, a `LIST` like 4-16,32,64 (default: all)")
	f.IntVar(&o.Refine, "refine", 0, "with --policy optimal: solve on the counts STEP, 2·STEP, …, N first, then on the counts within `STEP` of those used (for large N)")
}

// unused returns an error if a flag of the optimal policy was given
// without --policy optimal.
func (o *optimalOptions) unused() error {
	switch {
	case o.changed("candidates"):
		return flagError("candidates", "only with --policy optimal")
	case o.changed("refine"):
		return flagError("refine", "only with --policy optimal")
	}
	return nil
}

// wantsOptimal reports whether the --policy flag names the optimal policy.
func wantsOptimal(policy string) bool {
	p, err := scenario.ParsePolicy(policy)
	return err == nil && p.Unsolved()
}

// settings loads the scenario's parts (loadOptimal) and returns the
// solver's settings and the step of Options.Refine with the restriction
// the flags ask for.
func (o *optimalOptions) settings(cmd *cobra.Command, so *scenarioOptions, mo *modelOptions) (scenarioInfo, *optimal.Settings, int, error) {
	info, err := so.loadOptimal(cmd)
	if err != nil {
		return info, nil, 0, err
	}
	set, refine, err := o.restrict(info.parts.System, mo)
	return info, set, refine, err
}

// restrict returns the solver's settings and the step of Options.Refine
// that the flags ask for on the system sys.
func (o *optimalOptions) restrict(sys scenario.System, mo *modelOptions) (*optimal.Settings, int, error) {
	if mo.Workers < 0 {
		return nil, 0, flagError("workers", "%d, want 0 or more", mo.Workers)
	}
	set := &optimal.Settings{Full: mo.Exact, Workers: mo.Workers}
	n := sys.Processors
	if !sys.FailureEvents.Single() {
		for _, f := range []string{"candidates", "refine"} {
			if o.changed(f) {
				return nil, 0, flagError(f, "the optimal policy with failure events considers every processor count; omit --%s", f)
			}
		}
	}
	switch {
	case o.changed("candidates") && o.changed("refine"):
		return nil, 0, flagError("refine", "give --candidates or --refine, not both")
	case o.changed("candidates") && strings.TrimSpace(o.Candidates) == "":
		return nil, 0, flagError("candidates", "empty, want a list like 4-16,32,64 (omit the flag for every count)")
	case o.changed("candidates"):
		c, err := parseCounts(o.Candidates, n)
		if err != nil {
			return nil, 0, flagError("candidates", "%v", err)
		}
		set.Candidates = c
	case o.changed("refine") && (o.Refine < 1 || o.Refine > n):
		return nil, 0, flagError("refine", "%d, want a step in 1..%d", o.Refine, n)
	case o.Refine > 0:
		// Solve restricts the counts (Options.Refine).
		return set, o.Refine, nil
	}
	return set, 0, nil
}

// solve loads the scenario and solves its optimal policy (optimal.Solve,
// the one entry point) with the restriction the flags ask for.
func (o *optimalOptions) solve(ctx context.Context, cmd *cobra.Command, so *scenarioOptions, mo *modelOptions, opt optimal.Options) (scenarioInfo, optimal.Solution, error) {
	info, set, refine, err := o.settings(cmd, so, mo)
	if err != nil {
		return info, optimal.Solution{}, err
	}
	// Only level 2 is solved with failure events (Solution.Events): the
	// levels asked for are the highest wanted.
	p := info.parts
	opt.Settings, opt.Refine, opt.Reconfigure, opt.Highest = set, refine, p.Reconfigure, true
	sol, err := optimal.Solve(ctx, p.System, p.Application, &opt)
	if se := (*optimal.SizeError)(nil); errors.As(err, &se) {
		// optimal's error names its Settings; here the flags.
		return info, sol, fmt.Errorf("the optimal policy on %d processors is too large: its decision process needs %d states and %d recovery rows, more than the limit of %d states or %d recovery rows; restrict the processor counts with --candidates or --refine", se.N, se.States, se.Rows, se.MaxStates, se.MaxRows)
	}
	return info, sol, err
}

// optimalVector returns r*(1..N) and its compact form; nil and the range
// form of its decision table (reschedule.Table.String) when the policy
// depends on the checkpoint count p; nil and a sentence when, with
// reconfiguration at checkpoints, it runs on where its vector would
// reconfigure (or the reverse).
func optimalVector(pol *optimal.Policy) (reschedule.Vector, string) {
	v, err := pol.Vector()
	if err == nil {
		return v, runs(v)
	}
	if !pol.DependsOnOld() {
		return nil, "no single vector: with reconfiguration at checkpoints its choice to reconfigure depends on the running count, not only on r(n)"
	}
	t, err := pol.Table()
	if err != nil {
		return nil, "depends on the checkpoint count p (the recovery cost depends on it); no single vector"
	}
	return nil, t.String()
}

// optimalRows writes the policy under "r*(n)"+suffix: runs of the
// vector, or, under "r*(p, n)"+suffix, the decision table in range form,
// one of its rows per line, when the policy depends on the checkpoint
// count p (decisionTableRows).
func optimalRows(t *table, suffix string, pol *optimal.Policy) {
	if pol.DependsOnOld() {
		if tb, err := pol.Table(); err == nil {
			decisionTableRows(t, "r*(p, n)"+suffix, tb)
			return
		}
	}
	_, rr := optimalVector(pol)
	t.row("r*(n)"+suffix, rr)
}

// outsideWindow writes the row that tells where r*(n) is not solved: the
// functional counts outside the solver's window lo..hi of N, whose states
// the stationary law of the functional count reaches with at most
// Settings.Tol of its mass on each side. There the vector repeats the
// action of the nearest count in the window, capped at n
// (optimal.Policy.Recovery), which is what a replay does if it ever gets
// there; docs/optimal-policy.md section 4. No row when the window is
// 1..N.
func outsideWindow(t *table, lo, hi, n int) {
	var parts []string
	if lo > 1 {
		parts = append(parts, fmt.Sprintf("n = %s: as n = %d", countRange(1, lo-1), lo))
	}
	if hi < n {
		parts = append(parts, fmt.Sprintf("n = %s: as n = %d", countRange(hi+1, n), hi))
	}
	if len(parts) == 0 {
		return
	}
	t.row("Outside window", strings.Join(parts, "; ")+" (capped at n); not solved: the functional count stays in "+countRange(lo, hi)+" but for a negligible fraction of the time")
}

// boundWarning writes the row that flags an I* of level 2 at a bound of
// the search (uwt.AtMin, uwt.AtMax), as markov optimize does for a fixed
// policy; nothing for an interior I*.
func boundWarning(t *table, st uwt.Status) {
	switch st {
	case uwt.AtMin:
		t.row("Warning", "g* still rises at the smallest interval searched: I* is that bound, not an interior maximum")
	case uwt.AtMax:
		t.row("Warning", "g* still rises at the largest interval searched: I* is that bound, not an interior maximum")
	}
}

// countRange writes lo..hi as "lo-hi", or "lo" when they are equal.
func countRange(lo, hi int) string {
	if lo == hi {
		return strconv.Itoa(lo)
	}
	return fmt.Sprintf("%d-%d", lo, hi)
}

// secondsByCount writes a map from processor count to seconds with
// string keys, as JSON objects need.
func secondsByCount(m map[int]float64) map[string]jsonFloat {
	out := make(map[string]jsonFloat, len(m))
	for a, v := range m {
		out[strconv.Itoa(a)] = jsonFloat(v)
	}
	return out
}

// intervalsText writes I(a) of the configurations with stationary mass,
// heaviest first.
func intervalsText(iv, mass map[int]float64) string {
	as := slices.Collect(maps.Keys(iv))
	slices.SortFunc(as, func(a, b int) int {
		switch {
		case mass[a] > mass[b]:
			return -1
		case mass[a] < mass[b]:
			return 1
		}
		return a - b
	})
	parts := make([]string, len(as))
	for k, a := range as {
		parts[k] = fmt.Sprintf("%d: %s (mass %s)", a, short(iv[a]), massText(mass[a]))
	}
	return strings.Join(parts, ", ")
}

// ---- markov optimize --policy optimal

func runOptimizeOptimal(ctx context.Context, cmd *cobra.Command, opts *optimizeOptions) error {
	bar := opts.env.startProgress("solving the optimal policy", 0)
	info, sol, err := opts.Optimal.solve(ctx, cmd, &opts.Scenario, &opts.Model, optimal.Options{
		AllLevels: true, Compare: []scenario.Policy{{Kind: scenario.Greedy}, {Kind: scenario.PerformanceBased}}})
	bar.finish()
	if err != nil {
		return err
	}
	if sol.Events != nil {
		if opts.Plot.Path != "" {
			return flagError("plot", "the optimal policy with failure events has level 2 only: nothing to plot")
		}
		return opts.env.render(opts.Output, optimalEventsReport{info: info, sol: sol})
	}
	r := optimalLevelsReport{info, sol.Solver, sol.Levels}
	return opts.env.renderPlotted(opts.Output, opts.Plot, r, r.optimalFigure)
}

// optimalLevelsReport is the result of markov optimize --policy optimal:
// the four levels of docs/optimal-policy.md section 4.
type optimalLevelsReport struct {
	info scenarioInfo
	sv   *optimal.Solver
	rep  optimal.Report
}

// optimalLevelsJSON is its --json form.
type optimalLevelsJSON struct {
	Scenario scenarioJSON `json:"scenario"`
	// UWT and Interval are level 2: r* with one interval I*.
	UWT      jsonFloat `json:"uwt"`
	Interval jsonFloat `json:"interval"`
	// Vector is r*(1..N); null when the policy depends on p.
	Vector           []int                `json:"vector"`
	Runs             string               `json:"runs"`
	DependsOnOld     bool                 `json:"depends_on_old"`
	PerConfiguration perConfigurationJSON `json:"per_configuration"`
	Bound            jsonFloat            `json:"bound"`
	Policies         map[string]jsonFloat `json:"policies"`
	PolicyIntervals  map[string]jsonFloat `json:"policy_intervals"`
	// PolicyErrors says why a compared policy cannot run on the
	// application (absent when every one ran).
	PolicyErrors   map[string]string    `json:"policy_errors,omitempty"`
	Window         [2]int               `json:"window"`
	States         int                  `json:"states"`
	Candidates     int                  `json:"candidates"`
	Solves         int                  `json:"solves"`
	Iterations     int                  `json:"iterations"`
	Status         string               `json:"status"`
	IntervalStatus string               `json:"interval_status"`
	Residual       jsonFloat            `json:"residual"`
	Dropped        jsonFloat            `json:"dropped"`
	Mass           map[string]jsonFloat `json:"mass"`
}

type perConfigurationJSON struct {
	UWT       jsonFloat            `json:"uwt"`
	Intervals map[string]jsonFloat `json:"intervals"`
	Local     bool                 `json:"local"`
	Global    bool                 `json:"global"`
}

func (r optimalLevelsReport) JSON() any {
	rep := r.rep
	v, rr := optimalVector(rep.Single.Policy)
	interval := jsonFloat(rep.Single.Interval)
	if rep.Single.Status == optimal.NoUsefulWork {
		// The policy and its interval are placeholders: nothing was
		// solved (null, not the search's start).
		v, rr, interval = nil, "none: no policy does useful work", jsonFloat(math.NaN())
	}
	pol := map[string]jsonFloat{}
	piv := map[string]jsonFloat{}
	var perr map[string]string
	for _, p := range rep.Policies {
		if p.Err != nil {
			if perr == nil {
				perr = map[string]string{}
			}
			perr[p.Name] = p.Err.Error()
			continue
		}
		pol[p.Name], piv[p.Name] = jsonFloat(p.UWT), jsonFloat(p.Interval)
	}
	lo, hi := r.sv.Window()
	return optimalLevelsJSON{
		Scenario:     r.info.json(),
		UWT:          jsonFloat(rep.Single.UWT),
		Interval:     interval,
		Vector:       v,
		Runs:         rr,
		DependsOnOld: rep.Single.Policy.DependsOnOld(),
		PerConfiguration: perConfigurationJSON{
			UWT:       jsonFloat(rep.PerConfiguration.UWT),
			Intervals: secondsByCount(rep.PerConfiguration.Intervals),
			Local:     rep.PerConfiguration.Local,
			Global:    rep.PerConfiguration.Global,
		},
		Bound:           jsonFloat(rep.PerState.UWT),
		Policies:        pol,
		PolicyIntervals: piv,
		PolicyErrors:    perr,
		Window:          [2]int{lo, hi},
		States:          r.sv.States(),
		Candidates:      len(r.sv.Candidates()),
		Solves:          rep.Single.Evaluations,
		Iterations:      rep.PerState.Iterations,
		Status:          rep.PerState.Status.String(),
		IntervalStatus:  rep.Single.IntervalStatus.String(),
		Residual:        jsonFloat(rep.PerState.Residual),
		Dropped:         jsonFloat(rep.PerState.Dropped),
		Mass:            secondsByCount(rep.Single.Mass),
	}
}

func (r optimalLevelsReport) CSV() ([]string, [][]string) {
	rep := r.rep
	interval := csvFloat(rep.Single.Interval)
	if rep.Single.Status == optimal.NoUsefulWork {
		interval = "" // a placeholder: nothing was solved
	}
	rows := [][]string{
		{"2", "optimal, one interval", csvFloat(rep.Single.UWT), interval},
		{"3", "optimal, one interval per configuration", csvFloat(rep.PerConfiguration.UWT), ""},
		{"4", "optimal, per-state intervals (bound)", csvFloat(rep.PerState.UWT), ""},
	}
	for _, p := range rep.Policies {
		if p.Err != nil {
			// It cannot run on the application: no UWT, no interval.
			rows = append(rows, []string{"1", p.Name, "", ""})
			continue
		}
		rows = append(rows, []string{"1", p.Name, csvFloat(p.UWT), csvFloat(p.Interval)})
	}
	return []string{"level", "policy", "uwt", "interval"}, rows
}

func (r optimalLevelsReport) Text(w io.Writer) error {
	rep := r.rep
	lo, hi := r.sv.Window()
	t := newTable(w)
	t.row("Scenario", r.info.describe())
	t.row("Decision states", fmt.Sprintf("%d (functional counts %d-%d, %d processor counts)", r.sv.States(), lo, hi, len(r.sv.Candidates())))
	if rep.Single.Status == optimal.NoUsefulWork {
		t.row("Optimal policy", fmt.Sprintf("none: no policy does useful work (every up segment's reward rate is at most %s work/s, within the model's accuracy of zero)", sci(r.sv.MaxUWT())))
		t.row("Search", optimal.NoUsefulWork.String())
		return t.flush()
	}
	if err := t.flush(); err != nil {
		return err
	}
	fmt.Fprintln(w)
	g2, g4 := rep.Single.UWT, rep.PerState.UWT
	t = newTable(w)
	t.row("Level", "Policy", "UWT (work/s)", "Interval", "vs level 2", "vs level 4")
	t.row("2", "optimal r*, one interval", num(g2), short(rep.Single.Interval), gapText(g2, g2), gapText(g2, g4))
	t.row("3", "optimal, one interval per configuration", num(rep.PerConfiguration.UWT), "I(a) below", gapText(rep.PerConfiguration.UWT, g2), gapText(rep.PerConfiguration.UWT, g4))
	t.row("4", "optimal, per-state intervals (bound)", num(g4), "per state", gapText(g4, g2), gapText(g4, g4))
	var cannot []string
	for _, p := range rep.Policies {
		if p.Err != nil {
			t.row("1", p.Name, "cannot run", "-", "-", "-")
			cannot = append(cannot, fmt.Sprintf("%s cannot run on this application: %v", p.Name, p.Err))
			continue
		}
		t.row("1", p.Name+" at its best interval", num(p.UWT), short(p.Interval), gapText(p.UWT, g2), gapText(p.UWT, g4))
	}
	if err := t.flush(); err != nil {
		return err
	}
	for _, c := range cannot {
		fmt.Fprintln(w, c)
	}
	fmt.Fprintln(w)
	_, rr := optimalVector(rep.Single.Policy)
	_, rr4 := optimalVector(rep.PerState.Policy)
	t = newTable(w)
	optimalRows(t, ", level 2", rep.Single.Policy)
	if rr4 != rr {
		optimalRows(t, ", level 4", rep.PerState.Policy)
	}
	outsideWindow(t, lo, hi, r.info.parts.System.Processors)
	local := "a coordinate-wise local optimum"
	switch {
	case rep.PerConfiguration.Global:
		local = "the global optimum (intervals in closed form: without reconfiguration levels 3 and 4 coincide)"
	case !rep.PerConfiguration.Local:
		local = "not shown to be a local optimum"
	}
	t.row("I(a), level 3", intervalsText(rep.PerConfiguration.Intervals, rep.PerConfiguration.Mass)+"; "+local)
	t.row("Search", fmt.Sprintf("level 2: %d fixed-interval solves; level 4: %s after %d improvements", rep.Single.Evaluations, rep.PerState.Status, rep.PerState.Iterations))
	boundWarning(t, rep.Single.IntervalStatus)
	t.row("Dropped mass", sci(rep.PerState.Dropped)+" per jump")
	t.row("Residual", sci(rep.PerState.Residual)+" (stationary, 1-norm)")
	return t.flush()
}

// ---- markov uwt --policy optimal

func runUWTOptimal(ctx context.Context, cmd *cobra.Command, opts *uwtOptions, interval float64) error {
	if interval < optimal.DefaultMinInterval || interval > optimal.DefaultMaxInterval {
		return flagError("interval", "%s, want %s to %s with --policy optimal", quote.Value(opts.Interval), short(optimal.DefaultMinInterval), short(optimal.DefaultMaxInterval))
	}
	bar := opts.env.startProgress("solving the optimal policy", 0)
	info, sol, err := opts.Optimal.solve(ctx, cmd, &opts.Scenario, &opts.Model, optimal.Options{Interval: interval})
	bar.finish()
	if err != nil {
		return err
	}
	if sol.Events != nil {
		return opts.env.render(opts.Output, optimalEventsReport{info: info, sol: sol, fixed: true})
	}
	lo, hi := sol.Solver.Window()
	return opts.env.render(opts.Output, optimalUWTReport{info, interval, sol.Result, lo, hi})
}

// optimalUWTReport is the result of markov uwt --policy optimal: g*(I).
type optimalUWTReport struct {
	info     scenarioInfo
	interval float64
	res      optimal.Result
	lo, hi   int // the solver's window of functional counts
}

type optimalUWTJSON struct {
	Scenario     scenarioJSON `json:"scenario"`
	Interval     jsonFloat    `json:"interval"`
	UWT          jsonFloat    `json:"uwt"`
	Vector       []int        `json:"vector"`
	Runs         string       `json:"runs"`
	DependsOnOld bool         `json:"depends_on_old"`
	Iterations   int          `json:"iterations"`
	Status       string       `json:"status"`
	States       int          `json:"states"`
	Recurrent    int          `json:"recurrent"`
	Dropped      jsonFloat    `json:"dropped"`
	Residual     jsonFloat    `json:"residual"`
}

// vector is optimalVector of the result's policy, or none when no policy
// does useful work (the policy is then an unsolved placeholder).
func (r optimalUWTReport) vector() (reschedule.Vector, string) {
	if r.res.Status == optimal.NoUsefulWork {
		return nil, "none: no policy does useful work"
	}
	return optimalVector(r.res.Policy)
}

func (r optimalUWTReport) JSON() any {
	v, rr := r.vector()
	return optimalUWTJSON{
		Scenario: r.info.json(), Interval: jsonFloat(r.interval), UWT: jsonFloat(r.res.UWT),
		Vector: v, Runs: rr, DependsOnOld: r.res.Policy.DependsOnOld(), Iterations: r.res.Iterations, Status: r.res.Status.String(),
		States: r.res.States, Recurrent: r.res.Recurrent, Dropped: jsonFloat(r.res.Dropped), Residual: jsonFloat(r.res.Residual),
	}
}

func (r optimalUWTReport) CSV() ([]string, [][]string) {
	_, rr := r.vector()
	return []string{"interval", "uwt", "runs", "iterations", "states", "dropped", "residual"},
		[][]string{{csvFloat(r.interval), csvFloat(r.res.UWT), rr, strconv.Itoa(r.res.Iterations),
			strconv.Itoa(r.res.States), csvFloat(r.res.Dropped), csvFloat(r.res.Residual)}}
}

func (r optimalUWTReport) Text(w io.Writer) error {
	t := newTable(w)
	t.row("Scenario", r.info.describe())
	t.row("Interval I", dur(r.interval))
	t.row("g*(I)", num(r.res.UWT)+" work/s (the best rescheduling policy at this interval)")
	if r.res.Status == optimal.NoUsefulWork {
		_, rr := r.vector()
		t.row("r*(n)", rr)
	} else {
		optimalRows(t, "", r.res.Policy)
		outsideWindow(t, r.lo, r.hi, r.info.parts.System.Processors)
	}
	t.row("Policy iteration", fmt.Sprintf("%s after %d improvements", r.res.Status, r.res.Iterations))
	t.row("States", fmt.Sprintf("%d decision states, %d recurrent", r.res.States, r.res.Recurrent))
	t.row("Dropped mass", sci(r.res.Dropped)+" per jump")
	t.row("Residual", sci(r.res.Residual)+" (stationary, 1-norm)")
	return t.flush()
}

// ---- markov policy --policy optimal

func runPolicyOptimal(ctx context.Context, cmd *cobra.Command, opts *policyOptions) error {
	bar := opts.env.startProgress("solving the optimal policy", 0)
	info, sol, err := opts.Optimal.solve(ctx, cmd, &opts.Scenario, &modelOptions{Workers: opts.Workers}, optimal.Options{AllLevels: true})
	bar.finish()
	if err != nil {
		return err
	}
	if sol.Status == optimal.NoUsefulWork {
		bound := "within the model's accuracy of zero"
		if sol.Solver != nil {
			bound = "at most " + sci(sol.Solver.MaxUWT()) + " work/s, " + bound
		}
		return fmt.Errorf("the optimal policy: no policy does useful work on this system (every up segment's reward rate is %s): no decision table to write", bound)
	}
	if sol.Events != nil {
		// Level 2 only (one interval): no I(a).
		return opts.env.render(opts.Output, optimalPolicyReport{info: info, t: sol.Events.Table, interval: sol.Interval, status: sol.IntervalStatus, uwt: sol.UWT, lo: 1, hi: info.parts.System.Processors})
	}
	rep := sol.Levels
	t, err := rep.Single.Policy.Table()
	if err != nil {
		return fmt.Errorf("the optimal policy has no decision table to write (%v); use markov optimize --policy optimal", err)
	}
	lo, hi := sol.Solver.Window()
	return opts.env.render(opts.Output, optimalPolicyReport{info: info, t: t, interval: rep.Single.Interval, status: rep.Single.IntervalStatus, uwt: rep.Single.UWT,
		intervals: rep.PerConfiguration.Intervals, mass: rep.PerConfiguration.Mass, lo: lo, hi: hi})
}

// optimalPolicyReport is the result of markov policy --policy optimal:
// r* (a decision table when its actions depend on the checkpoint count
// p) and I* with its UWT, and I(a) when they were computed, in forms that
// read back.
type optimalPolicyReport struct {
	info          scenarioInfo
	t             *reschedule.Table
	interval, uwt float64
	// status tells whether I* lies at a bound of the search.
	status          uwt.Status
	intervals, mass map[int]float64
	lo, hi          int // the solver's window of functional counts
}

// optimalPolicyJSON extends policyJSON: Policy is "vector:r1,...,rN" or
// "table:…" (what --policy reads) and ScenarioPolicy the "policy" object
// of a scenario file: {"vector": [...]}, or {"table": [...]} when the
// actions depend on p (then Vector is absent, Table holds the entries
// and Runs the table's range form).
type optimalPolicyJSON struct {
	policyJSON
	ScenarioPolicy struct {
		Vector []int                 `json:"vector,omitempty"`
		Table  []scenario.TableEntry `json:"table,omitempty"`
	} `json:"scenario_policy"`
	Interval jsonFloat `json:"interval"`
	// IntervalStatus is AtMin or AtMax when I* lies at a bound of the
	// search, else Converged (optimize's interval_status).
	IntervalStatus string               `json:"interval_status"`
	Intervals      map[string]jsonFloat `json:"intervals"`
	UWT            jsonFloat            `json:"uwt"`
}

func (p optimalPolicyReport) JSON() any {
	out := optimalPolicyJSON{
		policyJSON:     policyJSON{Scenario: p.info.json(), Processors: p.t.N()},
		Interval:       jsonFloat(p.interval),
		IntervalStatus: p.status.String(),
		Intervals:      secondsByCount(p.intervals),
		UWT:            jsonFloat(p.uwt),
	}
	if v, err := p.t.Vector(); err == nil {
		out.Policy, out.Vector, out.Runs = scenario.Policy{Kind: scenario.Explicit, Explicit: v}.String(), v, runs(v)
		out.ScenarioPolicy.Vector = v
		return out
	}
	e := scenario.TableJSON(p.t.Entries())
	out.Policy, out.Runs, out.Table = "table:"+p.t.String(), p.t.String(), e
	out.ScenarioPolicy.Table = e
	return out
}

func (p optimalPolicyReport) CSV() ([]string, [][]string) {
	ps := append([]int{0}, p.t.Olds()...)
	var rows [][]string
	for _, q := range ps {
		pc := ""
		if q > 0 {
			pc = strconv.Itoa(q)
		}
		r := p.t.Row(q)
		for n := 1; n <= r.N(); n++ {
			if q > 0 && r.At(n) == p.t.Action(0, n) {
				continue // the default row's
			}
			iv := ""
			if x, ok := p.intervals[r.At(n)]; ok {
				iv = csvFloat(x)
			}
			rows = append(rows, []string{pc, strconv.Itoa(n), strconv.Itoa(r.At(n)), iv})
		}
	}
	if !p.t.DependsOnOld() {
		for i := range rows {
			rows[i] = rows[i][1:]
		}
		return []string{"n", "r", "interval"}, rows
	}
	return []string{"p", "n", "r", "interval"}, rows
}

func (p optimalPolicyReport) Text(w io.Writer) error {
	t := newTable(w)
	t.row("Scenario", p.info.describe())
	sc := &scenario.Scenario{Table: p.t}
	if v, err := p.t.Vector(); err == nil {
		sc.Reschedule, sc.Table = v, nil
	}
	tableRows(t, sc)
	outsideWindow(t, p.lo, p.hi, p.t.N())
	t.row("I*", short(p.interval)+" (one interval, UWT "+num(p.uwt)+" work/s)")
	if p.intervals != nil {
		t.row("I(a)", intervalsText(p.intervals, p.mass))
	}
	boundWarning(t, p.status)
	return t.flush()
}

// gapText writes the relative difference of u from ref in per cent to
// three decimals, signed, except that a difference that rounds to zero is
// "0.000 %" whatever its sign (never "+0.000 %" beside "-0.000 %").
func gapText(u, ref float64) string {
	g := 100 * (u - ref) / ref
	if math.Abs(g) < 0.0005 {
		return "0.000 %"
	}
	return fmt.Sprintf("%+.3f %%", g)
}

// massText writes a stationary probability, in per cent unless tiny.
func massText(m float64) string {
	if m < 1e-4 {
		return sci(m)
	}
	return percent(m)
}

// ---- markov simulate --policy optimal

func runSimulateOptimal(ctx context.Context, cmd *cobra.Command, opts *simulateOptions, interval float64, set *sim.Settings) error {
	bar := opts.env.startProgress("solving the optimal policy", 0)
	// Level 4, or with failure events level 2, the policy there is.
	info, sol, err := opts.Optimal.solve(ctx, cmd, &opts.Scenario, &opts.Model, optimal.Options{Interval: interval, Level: 4})
	bar.finish()
	if err != nil {
		return err
	}
	if sol.Status == optimal.NoUsefulWork {
		return fmt.Errorf("the optimal policy: no policy does useful work on this system (nothing to simulate)")
	}
	res := sol.Result
	if sol.Events != nil {
		// One interval, the table of the batch model's solver.
		return simulateTable(ctx, opts, info, sol.Events.Table, sol.Interval, res.UWT, set)
	}
	// The actions after an interruption as a vector, and, with
	// reconfiguration at checkpoints, the up states' own choices.
	t, err := res.Policy.RecoveryTable()
	if err != nil {
		return fmt.Errorf("the simulator takes a decision table: %w", err)
	}
	if info.parts.Reconfigure == scenario.AtCheckpoint {
		set.Reconfigure = res.Policy.SegmentReconfigure
	}
	if interval == 0 {
		// Per-state intervals; the stationary-weighted mean sets the
		// simulator's default horizon and is printed.
		set.Intervals = res.Policy.SegmentInterval
		interval = sol.Interval
	}
	return simulateTable(ctx, opts, info, t, interval, res.UWT, set)
}

// simulateTable simulates the decision table t of the optimal policy at
// interval (set.Intervals, when set, gives each segment its own) beside
// the model's UWT g: the scenario of the parts with the policy solved.
func simulateTable(ctx context.Context, opts *simulateOptions, info scenarioInfo, t *reschedule.Table, interval, g float64, set *sim.Settings) error {
	p := info.parts
	p.Policy = p.Policy.ResolvedTable(t)
	sc, err := p.Scenario()
	if err != nil {
		return err
	}
	bar := opts.env.startProgress("simulating", 0)
	out, err := sim.Run(ctx, sc, interval, set)
	bar.finish()
	if err != nil {
		return err
	}
	model := uwt.Result{Interval: interval, UWT: g, Availability: math.NaN()}
	return opts.env.render(opts.Output, simulateReport{info: info, interval: interval, seed: opts.Seed, model: model, res: out})
}
