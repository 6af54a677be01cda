package evaluate

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/stat"

	"github.com/ckpt-markov/markov/bench"
	"github.com/ckpt-markov/markov/internal/pool"
	"github.com/ckpt-markov/markov/internal/quote"
	"github.com/ckpt-markov/markov/internal/splitmix"
	"github.com/ckpt-markov/markov/scenario"
	"github.com/ckpt-markov/markov/sim"
	"github.com/ckpt-markov/markov/trace"
)

// Defaults of Settings.
const (
	DefaultSegments    = 30
	DefaultMinDuration = 7 * 86400  // one week
	DefaultMaxDuration = 60 * 86400 // sixty days
	DefaultMinHistory  = 30 * 86400 // thirty days
	// MaxSegments bounds Settings.Segments: 10⁴ segments a system, 300
	// times the paper's 30, is already hours of model solves and keeps the
	// per-segment results of a table within megabytes; more would only
	// narrow an interval already far below the spread between systems.
	MaxSegments = 10_000
	// maxDraws bounds the draws of one segment whose history is too
	// short to estimate the rates.
	maxDraws = 1000
)

// System is a failure trace with the name its rows carry.
type System struct {
	Name  string
	Trace *trace.Trace
}

// Subset chooses the nodes of a system the application runs on when
// Settings.Processors is below its node count.
type Subset int

const (
	// RandomSubset draws, for every segment, Processors distinct nodes
	// uniformly at random (the seeded draw of the segment).
	RandomSubset Subset = iota
	// FirstNodes takes the nodes 0 … Processors−1.
	FirstNodes
)

// String returns "random" or "first".
func (s Subset) String() string {
	switch s {
	case RandomSubset:
		return "random"
	case FirstNodes:
		return "first"
	}
	return fmt.Sprintf("Subset(%d)", int(s))
}

// ParseSubset reads a subset rule name as String writes it.
func ParseSubset(s string) (Subset, error) {
	for _, v := range []Subset{RandomSubset, FirstNodes} {
		if s == v.String() {
			return v, nil
		}
	}
	return 0, fmt.Errorf("evaluate: subset %s is not one of random, first", quote.Value(s))
}

// Settings configures Run. Systems is required; a zero value in any other
// field means the default given with it.
type Settings struct {
	// Systems are the traces to evaluate, with distinct names.
	Systems []System
	// Applications names the applications, resolved by Resolve for the
	// processor count. Default bench.Names(): "qr", "cg", "md".
	Applications []string
	// Resolve returns an application described for n processors. Default
	// bench.Application.
	Resolve func(name string, n int) (scenario.Application, error)
	// Policies are the rescheduling policies (see SegmentSettings.Policy).
	// Default {greedy}.
	Policies []scenario.Policy
	// Processors is the number N of nodes of each system the application
	// runs on. Default min(nodes, MaxProcessors), the system's own node
	// count; when set it must not exceed the node count of any system.
	Processors int
	// MaxProcessors caps the default N, the processor count the
	// applications are described for. Default bench.MaxProcessors (the
	// built-in benchmarks' limit); an application of a scenario file sets
	// its own processor count.
	MaxProcessors int
	// Subset chooses those nodes when N is below a system's node count.
	// Default RandomSubset.
	Subset Subset
	// Segments is the number of segments per system. Default
	// DefaultSegments.
	Segments int
	// MinDuration and MaxDuration bound the segment durations, drawn
	// uniformly between them. Defaults DefaultMinDuration and
	// DefaultMaxDuration.
	MinDuration, MaxDuration float64
	// MinHistory is the least history before a segment start: starts are
	// drawn uniformly in [begin + MinHistory, end − duration], [begin,
	// end) being the trace's window. Default DefaultMinHistory.
	MinHistory float64
	// Estimate configures the estimation of λ and θ (see
	// SegmentSettings.Estimate). A segment whose history holds too few
	// events for it is drawn again.
	Estimate trace.EstimateSettings
	// Rule chooses the nodes to use when r(n) < n. Default (nil)
	// sim.MostReliable{} (see ReplaySettings.Rule).
	Rule sim.Rule
	// Rates chooses which nodes the model's failure rate describes.
	// Default UsedNodes.
	Rates Rates
	// Sweep configures the search for the best interval of a segment.
	Sweep Sweep
	// Reconfigure is the model's option of reconfiguring at checkpoints
	// (see SegmentSettings.Reconfigure). Default scenario.Never.
	Reconfigure scenario.Reconfigure
	// Events configures the verdicts on the model's assumptions from each
	// segment's history and the model with failure events
	// (Events.Model, off by default: it costs one more model per segment).
	Events Events
	// Seed seeds every random draw. The table depends on it but not on
	// Workers.
	Seed uint64
	// Workers is the number of segments evaluated at once. Default
	// runtime.GOMAXPROCS(0).
	Workers int
	// Progress, if not nil, is called after each segment evaluation with
	// the number done and the total, from one goroutine at a time, until
	// the run fails or is cancelled.
	Progress func(done, total int)
}

// Stat summarises one quantity over the segments of a row: mean, sample
// standard deviation (0 for one segment), minimum and maximum.
type Stat struct {
	Mean, Std, Min, Max float64
}

// RowStatus tells whether a row was evaluated.
type RowStatus int

const (
	// NotEvaluated means the row holds no result: Row.Reason says why.
	NotEvaluated RowStatus = iota
	// Evaluated means the row summarises its segments.
	Evaluated
)

// String returns "NotEvaluated" or "Evaluated", spelt as the Go
// identifiers (as every status of the toolkit is).
func (s RowStatus) String() string {
	switch s {
	case NotEvaluated:
		return "NotEvaluated"
	case Evaluated:
		return "Evaluated"
	}
	return fmt.Sprintf("RowStatus(%d)", int(s))
}

// MarshalText writes the name String returns.
func (s RowStatus) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// Row is one line of the efficiency table: one system, application and
// policy, summarised over its segments; or one system that could not be
// evaluated.
type Row struct {
	System      string
	Application string
	// Policy is the policy as given in Settings.Policies (an
	// availability-based one is resolved anew for each segment).
	Policy scenario.Policy
	// Status is Evaluated, or NotEvaluated for a system whose trace holds
	// no segment with enough history (the system's only row, without
	// application or policy; Reason says why).
	Status RowStatus
	Reason string `json:",omitempty"`
	// Nodes is the system's node count, Processors the N of the model.
	Nodes, Processors int
	// Segments is the number of segments evaluated.
	Segments int
	// Used is r(N), the processors the application uses when all N are
	// functional (it varies between segments for the availability-based
	// policy only).
	Used Stat
	// Rates tells which nodes the model's failure rate describes:
	// UsedNodes or AllNodes as in every segment's result, or MixedRates.
	Rates Rates
	// MTTF and MTTR are the means over the segments of the MTTF and MTTR
	// given to the model, in seconds.
	MTTF, MTTR float64
	// Efficiency is the model efficiency of I*, PaperEfficiency that of
	// the paper's I_model, YoungEfficiency and DalyEfficiency those of
	// Young's and Daly's intervals (over the segments where they apply),
	// over the segments with useful work; NaN when no segment has any
	// (NoWork = Segments).
	Efficiency, PaperEfficiency, YoungEfficiency, DalyEfficiency Stat
	// NoWork counts the segments where no interval committed any work
	// (SegmentResult.NoWork): their efficiencies mean nothing and are
	// left out of the efficiency statistics.
	NoWork int
	// Interval is I* and BestInterval the interval of the most work, in
	// seconds.
	Interval, BestInterval Stat
	// ModelUWT is the UWT the model predicts at I*; UWT and BestUWT are
	// the work per second replayed with I* and with the best interval
	// (committed work / segment duration).
	ModelUWT, UWT, BestUWT Stat
	// EventsEfficiency and EventsInterval are the efficiency and the
	// interval of the model with failure events (Settings.Events.Model;
	// zero otherwise); EventsSegments counts the segments whose history
	// showed grouped failures, where that model differs from the
	// single-failure one.
	EventsEfficiency, EventsInterval Stat
	EventsSegments                   int
	// Rejected counts the segments whose history contradicts exponential
	// up times (Exponential) or single-node failure events
	// (SingleFailures): trace.EstimateEvents's verdicts.
	Rejected struct{ Exponential, SingleFailures int }
	// Assumptions is what the whole trace of the system (all its nodes,
	// up to its end; its last Settings.Estimate.Lookback seconds when
	// that is set) says about the model's assumptions, with the
	// settings of Settings.Events: Assumptions.Summary() is the one-line
	// verdict. It is set on the rows of every system, evaluated or not.
	Assumptions *trace.EventEstimate `json:",omitempty"`
	// Results holds the evaluation of every segment, in segment order.
	Results []SegmentResult
}

// Table is the outcome of Run: rows by system, then application, then
// policy, in the order of the settings.
type Table struct {
	Rows []Row
}

// NotEvaluated returns the rows of the systems that could not be
// evaluated.
func (t *Table) NotEvaluated() []Row {
	return notEvaluated(t.Rows, func(r *Row) RowStatus { return r.Status })
}

// notEvaluated returns the rows whose status is not Evaluated (nil when
// there is none), for Table and LevelsTable.
func notEvaluated[R any](rows []R, status func(*R) RowStatus) []R {
	var out []R
	for i := range rows {
		if status(&rows[i]) != Evaluated {
			out = append(out, rows[i])
		}
	}
	return out
}

// Run evaluates the model on random segments of every system for every
// application and policy and summarises each combination in a row, as
// the paper's Tables II–IV. All rows of a system use the same segments
// (and node subsets). Segments are evaluated in parallel; the result
// depends on Settings.Seed and the traces' content but not on the
// systems' names or the number of workers. It returns ctx.Err() if ctx is
// cancelled.
//
// A system whose trace is too short for the history and a segment, or
// holds no segment with enough history to estimate the rates, does not
// stop the others: it gets one row with Status NotEvaluated and the
// reason (Table.NotEvaluated lists them), and the error is nil.
func Run(ctx context.Context, s *Settings) (*Table, error) {
	if s == nil {
		return nil, errors.New("evaluate: settings are nil, want at least one system")
	}
	set, err := s.withDefaults()
	if err != nil {
		return nil, err
	}
	var jobs []job
	table := &Table{}
	var assume *trace.EventEstimate // the current system's, shared by its rows
	err = set.plan(planner{
		system: func(sys System) error {
			_, end := sys.Trace.Window()
			a, err := trace.EstimateEvents(sys.Trace, end, set.Events.settings(sys.Trace, set.Estimate.Lookback))
			if err != nil {
				return fmt.Errorf("evaluate: system %s: %w", quote.Value(sys.Name), err)
			}
			assume = &a
			return nil
		},
		application: func(name string, app scenario.Application) error {
			return checkReplicated(name, app, set.Policies, set.Events.Model)
		},
		keep: replicable, // replicas.go
		short: func(sys System, procs int, reason string) {
			table.Rows = append(table.Rows, Row{System: sys.Name, Status: NotEvaluated, Reason: reason,
				Nodes: sys.Trace.NumNodes(), Processors: procs, Assumptions: assume})
		},
		cell: func(c cell) {
			row := len(table.Rows)
			table.Rows = append(table.Rows, Row{
				System:      c.sys.Name,
				Application: c.name,
				Policy:      c.cfg.policy,
				Status:      Evaluated,
				Nodes:       c.sys.Trace.NumNodes(),
				Processors:  c.procs,
				Segments:    set.Segments,
				Results:     make([]SegmentResult, set.Segments),
				Assumptions: assume,
			})
			for k, d := range c.draws {
				jobs = append(jobs, job{row: row, seg: k, cfg: c.cfg, app: c.app, draw: d})
			}
		},
	})
	if err != nil {
		return nil, err
	}
	if err := set.evaluate(ctx, jobs, table); err != nil {
		return nil, err
	}
	for i := range table.Rows {
		if table.Rows[i].Status == Evaluated {
			table.Rows[i].summarise()
		}
	}
	return table, nil
}

// processors is the N of system sys: Settings.Processors, or
// min(nodes, Settings.MaxProcessors).
func (s Settings) processors(sys System) int {
	if s.Processors > 0 {
		return s.Processors
	}
	return min(sys.Trace.NumNodes(), s.MaxProcessors)
}

// segmentSettings are the settings of the segments of policy pol.
func (s Settings) segmentSettings(pol scenario.Policy) SegmentSettings {
	return SegmentSettings{Policy: pol, Rule: s.Rule, Rates: s.Rates, Estimate: s.Estimate, Sweep: s.Sweep, Reconfigure: s.Reconfigure, Events: s.Events}
}

// SettingsError is a bad field of Settings, SegmentSettings or Sweep,
// found by Run or EvaluateSegment before any work: Field names it as a Go
// selector from Settings ("Segments", "Sweep.Points", "Estimate.Lookback"),
// Problem says what is wrong with its value. Validation lives here only:
// a command line maps Field to its flag.
type SettingsError struct {
	Field, Problem string
}

func (e *SettingsError) Error() string { return "evaluate: " + e.Field + ": " + e.Problem }

func settingsErr(field, format string, args ...any) error {
	return &SettingsError{Field: field, Problem: fmt.Sprintf(format, args...)}
}

// shortError is the reason a system cannot be evaluated: its trace is too
// short, or its history too sparse, for any segment.
type shortError struct{ msg string }

func (e *shortError) Error() string { return e.msg }

// withDefaults validates s and fills in the defaults.
func (s Settings) withDefaults() (Settings, error) {
	if len(s.Systems) == 0 {
		return s, errors.New("evaluate: no systems, want at least one")
	}
	names := map[string]bool{}
	for i, sys := range s.Systems {
		if sys.Trace == nil {
			return s, fmt.Errorf("evaluate: systems[%d] (%s) has no trace", i, quote.Value(sys.Name))
		}
		if names[sys.Name] {
			return s, fmt.Errorf("evaluate: systems[%d]: name %s is used twice", i, quote.Value(sys.Name))
		}
		names[sys.Name] = true
		if n := sys.Trace.NumNodes(); s.Processors > n {
			return s, settingsErr("Processors", "%d, but system %s has %d nodes", s.Processors, quote.Value(sys.Name), n)
		}
	}
	return s.fieldDefaults()
}

// Validate checks every field of s but Systems (and Processors against
// their node counts), as Run does before any work, so that a command
// line can check its flags before it reads the traces. The error of a
// bad field is a *SettingsError.
func (s *Settings) Validate() error {
	_, err := s.fieldDefaults()
	return err
}

// fieldDefaults validates the fields of s but Systems and fills in the
// defaults.
func (s Settings) fieldDefaults() (Settings, error) {
	if len(s.Applications) == 0 {
		s.Applications = bench.Names()
	}
	if s.Resolve == nil {
		s.Resolve = bench.Application
	}
	if len(s.Policies) == 0 {
		s.Policies = []scenario.Policy{{Kind: scenario.Greedy}}
	}
	if s.MaxProcessors == 0 {
		s.MaxProcessors = bench.MaxProcessors
	}
	if s.MaxProcessors < 1 || s.MaxProcessors > scenario.MaxProcessors {
		return s, settingsErr("MaxProcessors", "%d, want 1 … %d", s.MaxProcessors, scenario.MaxProcessors)
	}
	if s.Processors < 0 {
		return s, settingsErr("Processors", "%d, want ≥ 1 (or 0 for each system's min(nodes, %d))", s.Processors, s.MaxProcessors)
	}
	if s.Subset != RandomSubset && s.Subset != FirstNodes {
		return s, settingsErr("Subset", "%d, want RandomSubset or FirstNodes", int(s.Subset))
	}
	if s.Segments == 0 {
		s.Segments = DefaultSegments
	}
	if s.Segments < 1 || s.Segments > MaxSegments {
		return s, settingsErr("Segments", "%d, want 1 … %d", s.Segments, MaxSegments)
	}
	if s.MinDuration == 0 {
		s.MinDuration = DefaultMinDuration
	}
	if s.MaxDuration == 0 {
		s.MaxDuration = max(DefaultMaxDuration, s.MinDuration)
	}
	if !(s.MinDuration > 0) || math.IsInf(s.MinDuration, 0) {
		return s, settingsErr("MinDuration", "%v s, want a finite positive number of seconds", s.MinDuration)
	}
	if !(s.MaxDuration >= s.MinDuration) || math.IsInf(s.MaxDuration, 0) {
		return s, settingsErr("MaxDuration", "%v s, want finite and at least MinDuration (%v s)", s.MaxDuration, s.MinDuration)
	}
	if s.MinHistory == 0 {
		s.MinHistory = DefaultMinHistory
	}
	if !(s.MinHistory > 0) || math.IsInf(s.MinHistory, 0) {
		return s, settingsErr("MinHistory", "%v s, want a finite positive number of seconds", s.MinHistory)
	}
	if s.Workers == 0 {
		s.Workers = runtime.GOMAXPROCS(0)
	}
	if s.Workers < 1 {
		return s, settingsErr("Workers", "%d, want ≥ 1 (or 0 for one per CPU)", s.Workers)
	}
	// Check the policies and the rest of the segment settings once here.
	for _, p := range s.Policies {
		if _, err := newConfig(s.segmentSettings(p)); err != nil {
			return s, err
		}
	}
	return s, nil
}

// draw is one segment of a system: where it lies, on which nodes (nil
// means all), the sub-trace of those nodes and the segment's seed.
type draw struct {
	seg   Segment
	nodes []int
	tr    *trace.Trace
	seed  uint64
}

// draw draws the segments of system sys on p of its nodes. Segment k
// takes its start, duration and node subset from its own stream, seeded
// from Settings.Seed, the trace's content (not the system's name) and k,
// and is drawn again while its history holds too few events to estimate
// the rates. The error is a *shortError when the trace is too short or its
// history too sparse for any segment.
func (s Settings) draw(sys System, p int) ([]draw, error) {
	base := splitmix.Mix(s.Seed ^ fingerprint(sys.Trace))
	n := sys.Trace.NumNodes()
	if begin, end := sys.Trace.Window(); !(begin+s.MinHistory <= end-s.MaxDuration) {
		return nil, &shortError{fmt.Sprintf("its trace spans %s, too short for %s of history and a %s segment",
			scenario.FormatDuration(end-begin), scenario.FormatDuration(s.MinHistory), scenario.FormatDuration(s.MaxDuration))}
	}
	draws := make([]draw, s.Segments)
	for k := range draws {
		seed := splitmix.Mix(base + uint64(k))
		rng := rand.New(rand.NewPCG(seed, streamDraw))
		var err error
		for range maxDraws {
			d := draw{seed: seed, tr: sys.Trace}
			if p < n {
				d.nodes = pickNodes(n, p, s.Subset, rng)
				nodes := make([]trace.Node, len(d.nodes))
				for j, i := range d.nodes {
					nodes[j] = sys.Trace.Node(i)
				}
				if d.tr, err = trace.New(nodes); err != nil {
					return nil, err
				}
			}
			begin, end := d.tr.Window()
			dur := s.MinDuration + (s.MaxDuration-s.MinDuration)*rng.Float64()
			lo, hi := begin+s.MinHistory, end-dur
			if !(lo <= hi) {
				// A subset's window can be narrower than the system's.
				err = &shortError{fmt.Sprintf("the window of nodes %v leaves no room for the history and a %s segment", d.nodes, scenario.FormatDuration(dur))}
				continue
			}
			d.seg = Segment{Start: lo + (hi-lo)*rng.Float64(), Duration: dur}
			if _, err = trace.EstimateRates(d.tr, d.seg.Start, &s.Estimate); err == nil {
				draws[k] = d
				break
			}
			if !errors.Is(err, trace.ErrTooFewEvents) {
				return nil, err
			}
		}
		if errors.Is(err, trace.ErrTooFewEvents) || errors.As(err, new(*shortError)) {
			return nil, &shortError{fmt.Sprintf("no segment with enough history in %d draws (last: %v)", maxDraws, err)}
		}
		if err != nil {
			return nil, err
		}
	}
	return draws, nil
}

// pickNodes returns p of the nodes 0 … n−1, in increasing order.
func pickNodes(n, p int, sub Subset, rng *rand.Rand) []int {
	if sub == FirstNodes {
		nodes := make([]int, p)
		for i := range nodes {
			nodes[i] = i
		}
		return nodes
	}
	perm := make([]int, n)
	for i := range perm {
		perm[i] = i
	}
	for i := range p {
		j := i + rng.IntN(n-i)
		perm[i], perm[j] = perm[j], perm[i]
	}
	nodes := perm[:p]
	slices.Sort(nodes)
	return nodes
}

// fingerprint is the FNV-1a hash of the content of tr: its node count and
// every node's window and outages (as trace.New normalised them), as
// IEEE 754 bits. Traces that differ in any event differ in fingerprint
// (up to hash collisions); the same events under another name or read
// from another file have the same.
func fingerprint(tr *trace.Trace) uint64 {
	h := fnv.New64a()
	var buf [8]byte
	put := func(x uint64) {
		binary.LittleEndian.PutUint64(buf[:], x)
		h.Write(buf[:])
	}
	put(uint64(tr.NumNodes()))
	for i := range tr.NumNodes() {
		nd := tr.Node(i)
		put(math.Float64bits(nd.Start))
		put(math.Float64bits(nd.End))
		put(uint64(len(nd.Down)))
		for _, o := range nd.Down {
			put(math.Float64bits(o.Start))
			put(math.Float64bits(o.End))
		}
	}
	return h.Sum64()
}

// job is one segment of one row.
type job struct {
	row, seg int
	cfg      config
	app      scenario.Application
	draw     draw
}

// evaluate runs the jobs on Settings.Workers goroutines and stores each
// result in its row and segment slot.
func (s Settings) evaluate(ctx context.Context, jobs []job, table *Table) error {
	return pool.Map(ctx, len(jobs), s.Workers, func(ctx context.Context, j int) (SegmentResult, error) {
		jb := jobs[j]
		res, err := jb.cfg.segment(ctx, jb.draw.tr, jb.app, jb.draw.seg, jb.draw.seed)
		res.Nodes = jb.draw.nodes
		return res, err
	}, func(j int, res SegmentResult) error {
		jb := jobs[j]
		table.Rows[jb.row].Results[jb.seg] = res
		if s.Progress != nil {
			s.Progress(j+1, len(jobs))
		}
		return nil
	})
}

// summarise fills the statistics of a row from its results.
func (r *Row) summarise() {
	var mttf, mttr float64
	for _, res := range r.Results {
		mttf += res.MTTF
		mttr += res.MTTR
	}
	k := float64(len(r.Results))
	r.MTTF, r.MTTR = mttf/k, mttr/k
	r.Rates = r.Results[0].Rates
	for _, res := range r.Results {
		if res.Rates != r.Rates {
			r.Rates = MixedRates
		}
	}
	r.Used = summary(r.Results, func(s *SegmentResult) (float64, bool) { return float64(s.Used), true })
	// Efficiencies over the segments with useful work only.
	eff := func(o *Outcome) (float64, bool) {
		if o == nil || math.IsNaN(o.Efficiency) {
			return 0, false
		}
		return o.Efficiency, true
	}
	r.Efficiency = summary(r.Results, func(s *SegmentResult) (float64, bool) { return eff(&s.Model) })
	r.PaperEfficiency = summary(r.Results, func(s *SegmentResult) (float64, bool) { return eff(&s.Paper) })
	r.YoungEfficiency = summary(r.Results, func(s *SegmentResult) (float64, bool) { return eff(s.Young) })
	r.DalyEfficiency = summary(r.Results, func(s *SegmentResult) (float64, bool) { return eff(s.Daly) })
	r.Interval = summary(r.Results, func(s *SegmentResult) (float64, bool) { return s.Model.Interval, true })
	r.BestInterval = summary(r.Results, func(s *SegmentResult) (float64, bool) { return s.Best.Interval, true })
	r.ModelUWT = summary(r.Results, func(s *SegmentResult) (float64, bool) { return s.ModelUWT, true })
	r.UWT = summary(r.Results, func(s *SegmentResult) (float64, bool) { return s.Model.Work / s.Duration, true })
	r.BestUWT = summary(r.Results, func(s *SegmentResult) (float64, bool) { return s.Best.Work / s.Duration, true })
	r.EventsEfficiency = summary(r.Results, func(s *SegmentResult) (float64, bool) { return eff(s.Events) })
	r.EventsInterval = summary(r.Results, func(s *SegmentResult) (float64, bool) {
		if s.Events == nil {
			return 0, false
		}
		return s.Events.Interval, true
	})
	for _, res := range r.Results {
		if res.NoWork() {
			r.NoWork++
		}
		if res.EventSizes != nil {
			r.EventsSegments++
		}
		if res.Assumptions.Exponential == trace.Contradicted {
			r.Rejected.Exponential++
		}
		if res.Assumptions.SingleFailures == trace.Contradicted {
			r.Rejected.SingleFailures++
		}
	}
	if r.NoWork == len(r.Results) {
		// No useful work anywhere: every efficiency that applies is
		// undefined (NaN), not 100 %.
		nan := math.NaN()
		none := Stat{nan, nan, nan, nan}
		r.Efficiency, r.PaperEfficiency = none, none
		for _, e := range []struct {
			st *Stat
			of func(*SegmentResult) *Outcome
		}{
			{&r.YoungEfficiency, func(s *SegmentResult) *Outcome { return s.Young }},
			{&r.DalyEfficiency, func(s *SegmentResult) *Outcome { return s.Daly }},
			{&r.EventsEfficiency, func(s *SegmentResult) *Outcome { return s.Events }},
		} {
			if slices.ContainsFunc(r.Results, func(s SegmentResult) bool { return e.of(&s) != nil }) {
				*e.st = none
			}
		}
	}
}

// summary summarises f over the results where it applies; the zero Stat when
// it applies nowhere.
func summary(rs []SegmentResult, f func(*SegmentResult) (float64, bool)) Stat {
	var xs []float64
	for i := range rs {
		if x, ok := f(&rs[i]); ok {
			xs = append(xs, x)
		}
	}
	return statOf(xs)
}

// statOf summarises xs; the zero Stat when xs is empty.
func statOf(xs []float64) Stat {
	if len(xs) == 0 {
		return Stat{}
	}
	st := Stat{Min: floats.Min(xs), Max: floats.Max(xs)}
	if len(xs) == 1 {
		// The sample standard deviation of one value is 0/0; a single
		// segment has no spread.
		st.Mean = xs[0]
		return st
	}
	st.Mean, st.Std = stat.MeanStdDev(xs, nil)
	return st
}
