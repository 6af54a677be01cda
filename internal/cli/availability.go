package cli

import (
	"context"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/ckpt-markov/markov/availability"
	"github.com/ckpt-markov/markov/internal/chart"
)

// availabilityOptions are the flags of markov availability.
type availabilityOptions struct {
	env      *env
	Scenario scenarioOptions
	Model    modelOptions
	Output   outputOptions
	Counts   string
	Work     string
	WorkOn   int
	Plot     plotOptions
}

// availabilityJSON is the --json output of markov availability.
type availabilityJSON struct {
	Scenario scenarioJSON `json:"scenario"`
	Exact    bool         `json:"exact"`
	// Work is the failure-free run time of the job on WorkOn processors,
	// in seconds; absent without --work.
	Work   jsonFloat   `json:"work,omitempty"`
	WorkOn int         `json:"work_on,omitempty"`
	Best   pointJSON   `json:"best"`
	Points []pointJSON `json:"points"`
}

// pointJSON is the moldable model's optimum on one processor count.
type pointJSON struct {
	Processors   int       `json:"processors"`
	Interval     jsonFloat `json:"interval"`
	Availability jsonFloat `json:"availability"`
	UWT          jsonFloat `json:"uwt"`
	// RunTime is the expected run time of the --work job, in seconds.
	RunTime jsonFloat `json:"run_time,omitempty"`
}

func newAvailabilityCmd(e *env) *cobra.Command {
	opts := &availabilityOptions{env: e}
	cmd := &cobra.Command{
		Use:   "availability",
		Short: "Moldable jobs: the best processor count and checkpoint interval",
		Long: `For a moldable application (one that always runs on exactly a processors and
waits while fewer are functional: Plank & Thomason's model), find for each
processor count a the interval I*(a) that maximises the availability A(a, I),
the long-run fraction of time spent on committed computation, and the count
whose useful work per second UWT = ω(a)·A is the largest.

The scenario's rescheduling policy is not used: each count a is the moldable
policy on a processors. --work gives the job's failure-free run time (on
--work-on processors, default all N); the table then shows its expected run
time on each count, T_a/A with T_a its failure-free time on a processors.

Each count is one interval search: on a large scenario, searching every
count takes long (a progress bar shows it on a terminal, and Ctrl-C stops
it); --counts limits the search to the counts given.`,
		Example: `  markov availability --counts 1-128 --work 10d
  markov availability --app md --processors 64 --counts 8,16,32,64 --json`,
		Args: cobra.NoArgs,
		RunE: e.runE(func(ctx context.Context, cmd *cobra.Command) error {
			return runAvailability(ctx, cmd, opts)
		}),
	}
	opts.Scenario.jobWork = true // --work is the job's failure-free time
	opts.Scenario.register(cmd)
	// Each count is the moldable policy: --policy is refused (with the
	// reason), so the help does not list it.
	_ = cmd.Flags().MarkHidden("policy")
	opts.Model.register(cmd)
	opts.Output.register(cmd)
	opts.Plot.register(cmd, "I*(a) and UWT(a) against the processor count a")
	f := cmd.Flags()
	f.StringVar(&opts.Counts, "counts", "", "processor counts to try, as `LIST` like 1-16,32,64 (default: every count with a positive work rate)")
	f.StringVar(&opts.Work, "work", "", "failure-free run time of a job (`DURATION`), to show its expected run time; or the work rate's FORM, as on the other model commands: linear, amdahl:F or power:E")
	f.IntVar(&opts.WorkOn, "work-on", 0, "processor count on which the job takes --work (default: N)")
	return cmd
}

func runAvailability(ctx context.Context, cmd *cobra.Command, opts *availabilityOptions) error {
	if cmd.Flags().Changed("policy") {
		return flagError("policy", "not used here: availability tries the moldable policy on each count a (choose them with --counts)")
	}
	if err := opts.Plot.check(); err != nil {
		return err
	}
	opts.Scenario.takeWorkForm(&opts.Work)
	info, err := opts.Scenario.load(cmd)
	if err != nil {
		return err
	}
	r := availabilityReport{info: info, model: opts.Model}
	counts, err := opts.job(&r, cmd.Flags().Changed)
	if err != nil {
		return err
	}
	set, err := opts.Model.settings()
	if err != nil {
		return err
	}
	total := len(counts)
	if counts == nil {
		for _, w := range info.sc.Application.WorkRate {
			if w > 0 {
				total++
			}
		}
	}
	bar := opts.env.startProgress("searching (a, I*) over processor counts", total)
	r.res, err = availability.Best(ctx, info.sc.System, info.sc.Application, &availability.Settings{
		Processors: counts,
		Model:      set,
		Workers:    set.Workers,
		Progress:   func(int, int) { bar.add(1) },
	})
	bar.finish()
	if err != nil {
		return err
	}
	return opts.env.renderPlotted(opts.Output, opts.Plot, r, func() (chart.Figure, error) { return r.figure(), nil })
}

// figure draws I*(a) and UWT(a) against a, the best count marked.
func (r availabilityReport) figure() chart.Figure {
	var a, interval, uwt []float64
	largest := 0.0
	for _, p := range r.res.Points {
		largest = math.Max(largest, p.Interval)
	}
	unit, _ := pickUnit("auto", largest)
	for _, p := range r.res.Points {
		a = append(a, float64(p.Processors))
		interval = append(interval, p.Interval/unit.seconds)
		uwt = append(uwt, p.UWT)
	}
	// A log count axis once the counts span two decades (1-128 and up).
	logA := len(a) > 0 && a[len(a)-1] >= 100*a[0]
	b := r.res.Best
	sys := r.info.sc.System
	return chart.Figure{
		Title: fmt.Sprintf("Moldable jobs: %d processors, MTTF %s, MTTR %s", sys.Processors, short(sys.MTTF), short(sys.MTTR)),
		Panels: []chart.Panel{
			{
				X:      chart.Axis{Label: "processors a", Log: logA},
				Y:      chart.Axis{Label: "I*(a) (" + unit.name + ")", Zero: true},
				Lines:  []chart.Line{{Name: "best interval I*(a)", X: a, Y: interval, Points: true}},
				Legend: chart.BottomLeft,
				Marks:  []chart.Mark{{X: float64(b.Processors), Y: b.Interval / unit.seconds}},
			},
			{
				X:      chart.Axis{Label: "processors a", Log: logA},
				Y:      chart.Axis{Label: "UWT (work/s)", Zero: true},
				Lines:  []chart.Line{{Name: "UWT at I*(a)", X: a, Y: uwt, Points: true}},
				Legend: chart.TopLeft,
				Marks: []chart.Mark{{X: float64(b.Processors), Y: b.UWT,
					Label: fmt.Sprintf("best: a = %d, I* = %s, UWT = %s", b.Processors, short(b.Interval), num(b.UWT))}},
			},
		},
	}
}

// job checks --counts, --work and --work-on against the scenario, sets
// r's job, and returns the counts to try (nil: every count). changed
// reports whether a flag was given: a given flag is never ignored nor
// replaced by its default (--counts ”, --work-on 0, --work-on without
// --work are errors).
func (o *availabilityOptions) job(r *availabilityReport, changed func(string) bool) (counts []int, err error) {
	sc := r.info.sc
	n := sc.N()
	if o.Work != "" {
		if r.work, err = positiveDuration("work", o.Work); err != nil {
			return nil, err
		}
	}
	if changed("counts") && strings.TrimSpace(o.Counts) == "" {
		return nil, flagError("counts", "empty, want a list like 1-16,32,64 (omit the flag for every count)")
	}
	if changed("work-on") && o.Work == "" {
		return nil, flagError("work-on", "without --work: give the job's failure-free run time, as in --work 10h --work-on %d", o.WorkOn)
	}
	if o.Counts != "" {
		if counts, err = parseCounts(o.Counts, n); err != nil {
			return nil, flagError("counts", "%v", err)
		}
	}
	r.workOn = o.WorkOn
	if !changed("work-on") {
		r.workOn = n
	}
	if r.workOn < 1 || r.workOn > n {
		return nil, flagError("work-on", "%d, want a count in 1..%d", r.workOn, n)
	}
	if r.work > 0 && !(sc.Application.WorkRate[r.workOn-1] > 0) {
		return nil, flagError("work-on", "%d: the work rate ω(%d) is 0, so the job makes no progress there", r.workOn, r.workOn)
	}
	return counts, nil
}

// availabilityReport is the result of markov availability.
type availabilityReport struct {
	info  scenarioInfo
	model modelOptions
	// work is the job's failure-free run time on workOn processors; 0
	// without --work.
	work   float64
	workOn int
	res    availability.Search
}

// runTime is the job's expected run time on p's processor count: its
// failure-free time there is work·ω(workOn)/ω(a), divided by A.
func (r availabilityReport) runTime(p availability.Point) float64 {
	rate := r.info.sc.Application.WorkRate
	return p.RunTime(r.work * rate[r.workOn-1] / rate[p.Processors-1])
}

func (r availabilityReport) point(p availability.Point) pointJSON {
	j := pointJSON{
		Processors:   p.Processors,
		Interval:     jsonFloat(p.Interval),
		Availability: jsonFloat(p.Availability),
		UWT:          jsonFloat(p.UWT),
	}
	if r.work > 0 {
		j.RunTime = jsonFloat(r.runTime(p))
	}
	return j
}

func (r availabilityReport) JSON() any {
	j := availabilityJSON{Scenario: r.info.json(), Exact: r.model.Exact, Best: r.point(r.res.Best)}
	if r.work > 0 {
		j.Work, j.WorkOn = jsonFloat(r.work), r.workOn
	}
	for _, p := range r.res.Points {
		j.Points = append(j.Points, r.point(p))
	}
	return j
}

func (r availabilityReport) CSV() ([]string, [][]string) {
	header := []string{"processors", "interval", "availability", "uwt"}
	if r.work > 0 {
		header = append(header, "run_time")
	}
	var rows [][]string
	for _, p := range r.res.Points {
		row := []string{strconv.Itoa(p.Processors), csvFloat(p.Interval), csvFloat(p.Availability), csvFloat(p.UWT)}
		if r.work > 0 {
			row = append(row, csvFloat(r.runTime(p)))
		}
		rows = append(rows, row)
	}
	return header, rows
}

func (r availabilityReport) Text(w io.Writer) error {
	sys := r.info.sc.System
	line := fmt.Sprintf("System    %d processors, MTTF %s, MTTR %s", sys.Processors, short(sys.MTTF), short(sys.MTTR))
	for _, c := range r.info.costs() {
		line += ", " + c.name + " " + c.text
	}
	fmt.Fprintln(w, line+" (moldable: the policy is not used)")
	if r.work > 0 {
		fmt.Fprintf(w, "Job       %s failure-free on %s\n", short(r.work), processors(r.workOn))
	}
	fmt.Fprintln(w)
	t := newTable(w)
	header := []string{"a", "I*", "A", "UWT (work/s)"}
	if r.work > 0 {
		header = append(header, "Run time")
	}
	t.row(append(header, "")...)
	for _, p := range r.res.Points {
		row := []string{strconv.Itoa(p.Processors), short(p.Interval), num(p.Availability), num(p.UWT)}
		if r.work > 0 {
			row = append(row, short(r.runTime(p)))
		}
		mark := ""
		if p.Processors == r.res.Best.Processors {
			mark = "<- best"
		}
		t.row(append(row, mark)...)
	}
	if err := t.flush(); err != nil {
		return err
	}
	b := r.res.Best
	_, err := fmt.Fprintf(w, "\nBest: a = %d processors, I* = %s, A = %s, UWT = %s work/s\n", b.Processors, dur(b.Interval), num(b.Availability), num(b.UWT))
	return err
}
