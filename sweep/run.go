package sweep

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/ckpt-markov/markov/bench"
	"github.com/ckpt-markov/markov/evaluate"
	"github.com/ckpt-markov/markov/internal/pool"
	"github.com/ckpt-markov/markov/optimal"
	"github.com/ckpt-markov/markov/scenario"
	"github.com/ckpt-markov/markov/sim"
	"github.com/ckpt-markov/markov/trace"
	"github.com/ckpt-markov/markov/uwt"
)

// Settings configures Run. A nil *Settings runs every task with the
// defaults.
type Settings struct {
	// Shard and Shards select shard Shard of Shards (0 ≤ Shard < Shards);
	// Shards = 0 means all tasks in one process.
	Shard, Shards int
	// Workers is the number of tasks run at once. Default
	// runtime.GOMAXPROCS(0). Results do not depend on it.
	Workers int
	// Progress, if not nil, is called after each task with the number
	// done and the number to do in this run, in task order, from the
	// calling goroutine.
	Progress func(done, total int)
	// FlushEvery is the least time between two rewrites of the result
	// file while tasks complete; the file is always written at the end.
	// Default one second; negative means after every task.
	FlushEvery time.Duration
}

// Summary is what Run did.
type Summary struct {
	// Tasks is the number of tasks of the shard, Skipped those already
	// done in the directory, Done those run now and, of them, Failed those
	// that failed (their error is in their row; a rerun tries them
	// again). Others counts the tasks another process running the same
	// shard finished meanwhile.
	Tasks, Skipped, Done, Failed, Others int
	// File is the result file written.
	File string
}

// Run runs the tasks of the study's shard that the directory dir does not
// hold a result of yet, appending their results to the shard's result
// file in dir (ResultFile), synced, at most once per FlushEvery and at the
// end. It copies the study into dir as StudyFile first, and refuses a dir
// that holds results of another study. A task that fails does not stop
// the others: its row holds the error, and a rerun tries it again. On a
// cancelled ctx or an error writing the results, the results of the tasks
// that finished are kept.
//
// Two processes may run the same shard at once: each appends under the
// result file's lock (flock(2)) what the other has not, so that no result
// is lost or written twice. Before it runs, Run tidies its shard's file:
// it drops second copies of a task (kept elsewhere), failures a result
// supersedes and a last line cut short by a killed writer.
func Run(ctx context.Context, st *Study, dir string, s *Settings) (Summary, error) {
	set, err := s.withDefaults()
	if err != nil {
		return Summary{}, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return Summary{}, err
	}
	if err := claim(st, dir); err != nil {
		return Summary{}, err
	}
	name := ResultFile(set.Shard, set.Shards)
	sum := Summary{File: filepath.Join(dir, name)}
	w, err := openShard(st, dir, name, set.FlushEvery)
	if err != nil {
		return sum, err
	}
	mine := shardOf(st.count(), func(i int) float64 { return st.Task(i).Cost }, set.Shard, set.Shards)
	sum.Tasks = len(mine)
	var todo []int32
	for _, i := range mine {
		if w.states[i] == finished {
			sum.Skipped++
			continue
		}
		todo = append(todo, i)
	}
	if len(todo) == 0 {
		return sum, nil
	}
	err = runTasks(ctx, st, w, todo, set, &sum)
	if ferr := w.flush(); err == nil {
		err = ferr
	}
	return sum, err
}

// withDefaults returns the settings with their defaults (nil: all), or
// an error naming the field that is out of range.
func (s *Settings) withDefaults() (Settings, error) {
	var set Settings
	if s != nil {
		set = *s
	}
	if set.Shards == 0 {
		set.Shards = 1
		if set.Shard != 0 {
			return set, fmt.Errorf("sweep: shard %d without a shard count", set.Shard)
		}
	}
	if set.Shards < 1 || set.Shards > MaxShards || set.Shard < 0 || set.Shard >= set.Shards {
		return set, fmt.Errorf("sweep: shard %d of %d, want 0 ≤ shard < shards ≤ %d", set.Shard, set.Shards, MaxShards)
	}
	if set.Workers == 0 {
		set.Workers = runtime.GOMAXPROCS(0)
	}
	if set.Workers < 1 {
		return set, fmt.Errorf("sweep: workers = %d, want ≥ 1", set.Workers)
	}
	if set.FlushEvery == 0 {
		set.FlushEvery = time.Second
	}
	return set, nil
}

// runTasks runs the tasks todo on the worker pool and appends their
// results to w in task order, counting them in sum. A task another
// process has finished since the shard was read is counted in
// sum.Others when its turn comes.
func runTasks(ctx context.Context, st *Study, w *shardWriter, todo []int32, set Settings, sum *Summary) error {
	r := &runner{study: st, bases: map[string]*scenario.Scenario{}, lanl: map[string][]trace.LANLSystem{}, generic: map[string]*trace.Trace{}}
	type ran struct {
		l       line
		skipped bool
	}
	return pool.Map(ctx, len(todo), set.Workers, func(ctx context.Context, k int) (ran, error) {
		if w.done(int(todo[k])) {
			return ran{skipped: true}, nil
		}
		t := st.Task(int(todo[k]))
		start := time.Now()
		rec, err := r.run(ctx, t)
		if err != nil {
			if ctx.Err() != nil {
				return ran{}, ctx.Err()
			}
			rec = t.record()
			rec.Status, rec.Error = Failed, clip(fmt.Sprintf("task %d (%s): %v", t.Index, t.ID, err))
		}
		return ran{l: line{Study: st.hash, Task: t.Index, ID: t.ID, Seconds: time.Since(start).Seconds(), Record: rec}}, nil
	}, func(_ int, r ran) error {
		if r.skipped {
			sum.Others++
		} else {
			sum.Done++
			if r.l.Record.Error != "" {
				sum.Failed++
			}
			if err := w.add(r.l); err != nil {
				return err
			}
		}
		if set.Progress != nil {
			set.Progress(sum.Done+sum.Others, len(todo))
		}
		return nil
	})
}

// Failed is the status of a task that failed; its row's error says why.
const Failed = "Failed"

// clip bounds an error kept in a row.
func clip(s string) string {
	const limit = 2000
	if len(s) > limit {
		return s[:limit] + "…"
	}
	return s
}

// openShard takes the lock of the shard's result file, reads the
// directory's results, tidies the shard's file and returns its writer.
func openShard(st *Study, dir, name string, every time.Duration) (*shardWriter, error) {
	w := &shardWriter{path: filepath.Join(dir, name), lock: filepath.Join(dir, lockName(name)), every: every}
	unlock, err := lock(w.lock)
	if err != nil {
		return nil, err
	}
	defer unlock()
	// Temporary files of this shard left by a run killed while tidying.
	if stale, err := filepath.Glob(filepath.Join(dir, "."+name+".tmp-*")); err == nil {
		for _, f := range stale {
			os.Remove(f)
		}
	}
	ix, err := scanDir(st, dir)
	if err != nil {
		return nil, err
	}
	if fi, ok := slices.BinarySearch(ix.files, name); ok && (ix.extra[fi] > 0 || ix.partial[fi]) {
		if err := ix.tidy(fi); err != nil {
			return nil, err
		}
		if ix, err = scanDir(st, dir); err != nil {
			return nil, err
		}
	}
	w.states = make([]uint8, len(ix.entries))
	for i, e := range ix.entries {
		w.states[i] = e.state
	}
	if info, err := os.Stat(w.path); err == nil {
		w.info, w.off = info, info.Size()
	}
	return w, nil
}

// runner runs tasks, reading each trace and base scenario once.
type runner struct {
	study   *Study
	mu      sync.Mutex
	bases   map[string]*scenario.Scenario
	lanl    map[string][]trace.LANLSystem
	generic map[string]*trace.Trace
}

func (r *runner) path(p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(r.study.dir, p)
}

func (r *runner) run(ctx context.Context, t Task) (Record, error) {
	rec := t.record()
	if t.Compute == Evaluate {
		return rec, r.evaluate(ctx, t, &rec)
	}
	parts, err := r.scenario(t)
	if err != nil {
		return rec, err
	}
	rec.Processors = parts.System.Processors
	rec.MTTF, rec.MTTR = fl(parts.System.MTTF), fl(parts.System.MTTR)
	rec.Policy = parts.Policy.String()
	interval := t.Interval
	var (
		sc     *scenario.Scenario
		g      float64
		status string
	)
	solve := parts.Policy.Unsolved() // the optimal policy, solved here
	if solve {
		sc, interval, g, status, err = r.optimal(ctx, t, &parts)
	} else {
		sc, err = parts.Scenario()
	}
	if err != nil {
		return rec, err
	}
	if solve && sc == nil {
		// No policy does useful work: nothing to evaluate or replay
		// (markov optimize --policy optimal says the same).
		rec.UWT, rec.Status = fl(0), status
		return rec, nil
	}
	m, err := uwt.New(ctx, sc, &uwt.Settings{Workers: 1})
	if err != nil {
		return rec, err
	}
	var res uwt.Result
	switch {
	case solve:
		// The solver's g at its interval, with the availability of its
		// vector there (uwt's UWT of that vector equals g: the
		// consistency oracle of package optimal).
		if res, err = m.Evaluate(ctx, interval); err != nil {
			return rec, err
		}
		res.UWT = g
		if t.Compute == Optimize {
			rec.Status = status
		}
	case t.Compute == Optimize || math.IsNaN(interval):
		opt, err := m.Optimize(ctx, nil)
		if err != nil {
			return rec, err
		}
		interval, res = opt.Interval, opt.Result
		if t.Compute == Optimize {
			rec.BandLow, rec.BandHigh, rec.ModelInterval = fl(opt.BandLow), fl(opt.BandHigh), fl(opt.ModelInterval)
			rec.Status = opt.Status.String()
			if opt.NoUsefulWork {
				rec.Status = optimal.NoUsefulWork.String()
			}
		}
	default:
		if res, err = m.Evaluate(ctx, interval); err != nil {
			return rec, err
		}
	}
	rec.Interval, rec.UWT, rec.Availability = fl(interval), fl(res.UWT), fl(res.Availability)
	if t.Compute != Simulate {
		return rec, nil
	}
	return rec, r.simulate(ctx, t, sc, interval, res.UWT, &rec)
}

// simulate replays sc at interval (the study's simulation settings, the
// task's seed) into rec: the simulated UWT and availability, and whether
// the model's UWT lies in the simulation's confidence interval.
func (r *runner) simulate(ctx context.Context, t Task, sc *scenario.Scenario, interval, model float64, rec *Record) error {
	ss := sim.Settings{Seed: t.Seed, Workers: 1}
	if p := r.study.Simulation; p != nil {
		ss.Replications, ss.Horizon, ss.RelTol, ss.Confidence = p.Replications, float64(p.Horizon), p.RelTol, p.Confidence
	}
	sr, err := sim.Run(ctx, sc, interval, &ss)
	if err != nil {
		return err
	}
	in := sr.UWT.Contains(model)
	rec.SimUWT, rec.SimUWTHalfWidth = fl(sr.UWT.Mean), fl(sr.UWT.HalfWidth)
	rec.SimAvailability = fl(sr.Availability.Mean)
	rec.ModelInCI = &in
	rec.Status = sr.Status.String()
	return nil
}

// optimal solves the optimal policy of a scenario task (optimal.Solve,
// one interval for every configuration) on the system, application and
// reconfiguration rule of p: at the task's interval, g*(I); for optimize
// or without an interval, level 2 (r* at I*). It returns the scenario with
// the policy resolved to r* (its decision table when r* depends on the
// checkpoint count p), the interval, g and the status of the solve as
// markov optimize --policy optimal reports it: level 2's I* at a bound of
// the search (uwt.AtMin, uwt.AtMax), else the policy iteration's status
// (Converged, IterationLimit). When no policy does useful work it returns
// a nil scenario and the status NoUsefulWork.
func (r *runner) optimal(ctx context.Context, t Task, p *scenario.Parts) (*scenario.Scenario, float64, float64, string, error) {
	o := &optimal.Options{Reconfigure: p.Reconfigure, Settings: &optimal.Settings{Workers: 1}}
	if t.Compute != Optimize && !math.IsNaN(t.Interval) {
		o.Interval = t.Interval
	}
	sol, err := optimal.Solve(ctx, p.System, p.Application, o)
	if err != nil {
		return nil, 0, 0, "", err
	}
	if sol.Status == optimal.NoUsefulWork {
		return nil, math.NaN(), 0, sol.Status.String(), nil
	}
	// Its decision table, which uwt and sim replay also when the actions
	// depend on the checkpoint count p (no vector then).
	tab, err := sol.DecisionTable()
	if err != nil {
		return nil, 0, 0, "", err
	}
	solved := *p
	solved.Policy = p.Policy.ResolvedTable(tab)
	out, err := solved.Scenario()
	if err != nil {
		return nil, 0, 0, "", err
	}
	status := sol.Status.String()
	if sol.IntervalStatus == uwt.AtMin || sol.IntervalStatus == uwt.AtMax {
		status = sol.IntervalStatus.String()
	}
	return out, sol.Interval, sol.UWT, status, nil
}

// scenario returns the parts of the task's scenario, from the base and
// the task's point (scenario.Overrides.Resolve): the policy is the
// optimal policy not yet solved (scenario.Policy.Unsolved) when the task
// names it, and run solves it.
func (r *runner) scenario(t Task) (scenario.Parts, error) {
	a := r.study.Scenarios
	var base *scenario.Scenario
	if file := cmp.Or(t.Scenario, a.Base); file != "" {
		var err error
		if base, err = r.base(file); err != nil {
			return scenario.Parts{}, err
		}
	}
	ov := scenario.Overrides{Application: a.Application}
	if t.Processors > 0 {
		ov.Processors = &t.Processors
	}
	for _, o := range []struct {
		v   float64
		dst **float64
	}{{t.MTTF, &ov.MTTF}, {t.MTTR, &ov.MTTR}, {t.Latency, &ov.Latency}, {t.Recovery, &ov.Recovery}} {
		if !math.IsNaN(o.v) {
			*o.dst = &o.v
		}
	}
	if t.Policy != "" {
		pol, err := parsePolicy(t.Policy, false)
		if err != nil {
			return scenario.Parts{}, err
		}
		ov.Policy = &pol
	}
	parts, err := ov.Resolve(base, &scenario.OverrideSettings{Applications: bench.Application})
	if oe := (*scenario.OverrideError)(nil); errors.As(err, &oe) {
		// The task's ID names the point: the problem alone.
		return scenario.Parts{}, errors.New(oe.Problem)
	}
	return parts, err
}

// base reads a base scenario file once.
func (r *runner) base(file string) (*scenario.Scenario, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	path := r.path(file)
	if base, ok := r.bases[path]; ok {
		return base, nil
	}
	base, err := scenario.Load(path, &scenario.ParseSettings{Applications: bench.Application})
	if err != nil {
		return nil, err
	}
	r.bases[path] = base
	return base, nil
}

// evaluate runs one row of evaluate's table: one system, application and
// policy over the study's segments.
func (r *runner) evaluate(ctx context.Context, t Task, rec *Record) error {
	tr, err := r.trace(t)
	if err != nil {
		return err
	}
	ta := r.study.Traces
	pol, err := parsePolicy(t.Policy, true)
	if err != nil {
		return err
	}
	set := &evaluate.Settings{
		Systems:      []evaluate.System{{Name: t.System, Trace: tr}},
		Applications: []string{t.Application},
		Policies:     []scenario.Policy{pol},
		Processors:   ta.Processors,
		Segments:     ta.Segments,
		MinDuration:  float64(ta.MinDuration),
		MaxDuration:  float64(ta.MaxDuration),
		Seed:         t.Seed,
		Workers:      1,
	}
	if ta.Rule != "" {
		if set.Rule, err = sim.ParseRule(ta.Rule); err != nil {
			return err
		}
	}
	tab, err := evaluate.Run(ctx, set)
	if err != nil {
		return err
	}
	row := tab.Rows[0]
	if row.Status != evaluate.Evaluated {
		// A trace too short for the study's segments: a result too, the
		// same on every rerun.
		rec.Processors = row.Processors
		rec.Status = row.Status.String() + ": " + row.Reason
		return nil
	}
	rec.Policy = row.Policy.String()
	rec.Processors, rec.Segments = row.Processors, row.Segments
	rec.MTTF, rec.MTTR = fl(row.MTTF), fl(row.MTTR)
	rec.Interval, rec.UWT = fl(row.Interval.Mean), fl(row.ModelUWT.Mean)
	rec.Efficiency, rec.EfficiencyStd, rec.EfficiencyMin = fl(row.Efficiency.Mean), fl(row.Efficiency.Std), fl(row.Efficiency.Min)
	rec.YoungEfficiency, rec.DalyEfficiency = fl(row.YoungEfficiency.Mean), fl(row.DalyEfficiency.Mean)
	rec.BestInterval = fl(row.BestInterval.Mean)
	rec.ReplayUWT, rec.BestUWT = fl(row.UWT.Mean), fl(row.BestUWT.Mean)
	rec.Status = row.Status.String()
	return nil
}

// trace reads the task's system, each file once per run.
func (r *runner) trace(t Task) (*trace.Trace, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	path := r.path(t.trace)
	if t.systemID < 0 {
		if tr, ok := r.generic[path]; ok {
			return tr, nil
		}
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		tr, err := trace.ReadGeneric(f)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		r.generic[path] = tr
		return tr, nil
	}
	all, ok := r.lanl[path]
	if !ok {
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		if all, err = trace.ReadLANLSystems(f, nil); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		r.lanl[path] = all
	}
	for _, s := range all {
		if s.System == t.systemID {
			if s.NoNodeData { // no trace (trace.LANLSystem)
				return nil, fmt.Errorf("system %d of %s has no node data", t.systemID, path)
			}
			return s.Trace, nil
		}
	}
	return nil, fmt.Errorf("system %d is not in %s", t.systemID, path)
}
