package sweep

import (
	"container/heap"
	"fmt"
	"hash/fnv"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/ckpt-markov/markov/bench"
	"github.com/ckpt-markov/markov/evaluate"
)

// Task is one point of a study and one computation at it. Its Index and
// ID do not depend on how the study is sharded.
type Task struct {
	// Index numbers the tasks 0, 1, … in the order of Expand.
	Index int
	// Compute is the computation: Optimize, UWT, Simulate or Evaluate.
	Compute string
	// ID names the task by its coordinates, as "uwt app=qr n=64
	// mttf=8640000 policy=greedy interval=3600".
	ID string
	// Seed is the task's seed: the study's seed mixed with the ID (for
	// Evaluate, the study's seed itself, which package evaluate mixes with
	// the trace's content and the segment number, so that every application and
	// policy of a system replays the same segments).
	Seed uint64
	// Cost estimates the task's run time in arbitrary units, for balancing
	// shards only.
	Cost float64

	// The point. A NaN or zero value means the base scenario's. Scenario
	// is the file of ScenarioAxes.Files the point starts from, if any.
	Scenario                           string
	Processors                         int
	MTTF, MTTR, Latency, Recovery      float64
	Interval                           float64
	Policy, Application, System, trace string
	systemID                           int
}

// count is the number of tasks Expand returns, computed without expanding.
func (s *Study) count() int {
	total := 0
	mul := func(ns ...int) int {
		p := 1
		for _, n := range ns {
			p *= max(n, 1)
			if p > MaxTasks {
				return MaxTasks + 1
			}
		}
		return p
	}
	for _, c := range s.Compute {
		switch c {
		case Evaluate:
			t := s.Traces
			apps := len(t.Applications)
			if apps == 0 {
				apps = len(bench.Names())
			}
			total += mul(len(t.Systems)+len(t.Generic), apps, len(t.Policies))
		default:
			a := s.Scenarios
			iv := 1
			if c != Optimize {
				iv = len(a.Intervals)
			}
			total += mul(len(a.Files), len(a.Processors), len(a.MTTF), len(a.MTTR), len(a.CheckpointLatency), len(a.Recovery), len(a.Policies), iv)
		}
		if total > MaxTasks {
			return MaxTasks + 1
		}
	}
	return total
}

// orBase returns v, or one NaN (the base's value) when v is empty.
func orBase(v []Duration) []float64 {
	if len(v) == 0 {
		return []float64{math.NaN()}
	}
	out := make([]float64, len(v))
	for i, d := range v {
		out[i] = float64(d)
	}
	return out
}

func num(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }

// Expand lists the study's tasks: for each computation in the order of
// Compute, the product of its axes with the first axis outermost
// (processors, mttf, mttr, checkpoint_latency, recovery, policies,
// intervals; or traces, applications, policies).
func (s *Study) Expand() []Task {
	tasks := make([]Task, 0, s.count())
	for _, c := range s.Compute {
		if c == Evaluate {
			tasks = s.expandTraces(tasks)
		} else {
			tasks = s.expandScenarios(c, tasks)
		}
	}
	for i := range tasks {
		tasks[i].Index = i
	}
	return tasks
}

func (s *Study) expandScenarios(c string, tasks []Task) []Task {
	a := s.Scenarios
	procs := a.Processors
	if len(procs) == 0 {
		procs = []int{0}
	}
	pols := a.Policies
	if len(pols) == 0 {
		pols = []string{""}
	}
	ivs := []float64{math.NaN()}
	if c != Optimize && len(a.Intervals) > 0 {
		ivs = orBase(a.Intervals)
	}
	files := a.Files
	if len(files) == 0 {
		files = []string{""}
	}
	for _, file := range files {
		tasks = s.expandPoints(c, file, procs, pols, ivs, tasks)
	}
	return tasks
}

// expandPoints appends the tasks of computation c on the scenario file
// (empty: the base or the application).
func (s *Study) expandPoints(c, file string, procs []int, pols []string, ivs []float64, tasks []Task) []Task {
	a := s.Scenarios
	for _, n := range procs {
		for _, mttf := range orBase(a.MTTF) {
			for _, mttr := range orBase(a.MTTR) {
				for _, lat := range orBase(a.CheckpointLatency) {
					for _, rec := range orBase(a.Recovery) {
						for _, pol := range pols {
							for _, iv := range ivs {
								t := Task{Compute: c, Processors: n, MTTF: mttf, MTTR: mttr, Latency: lat,
									Recovery: rec, Policy: pol, Interval: iv, Application: a.Application, Scenario: file}
								t.ID = t.scenarioID()
								t.Seed = mix(s.Seed, t.ID)
								t.Cost = scenarioCost(c, n, s.Simulation)
								tasks = append(tasks, t)
							}
						}
					}
				}
			}
		}
	}
	return tasks
}

func (t *Task) scenarioID() string {
	var b strings.Builder
	b.WriteString(t.Compute)
	if t.Scenario != "" {
		b.WriteString(" scenario=" + t.Scenario)
	}
	if t.Application != "" {
		b.WriteString(" app=" + t.Application)
	}
	if t.Processors > 0 {
		b.WriteString(" n=" + strconv.Itoa(t.Processors))
	}
	for _, kv := range []struct {
		key string
		v   float64
	}{{"mttf", t.MTTF}, {"mttr", t.MTTR}, {"latency", t.Latency}, {"recovery", t.Recovery}} {
		if !math.IsNaN(kv.v) {
			b.WriteString(" " + kv.key + "=" + num(kv.v))
		}
	}
	if t.Policy != "" {
		b.WriteString(" policy=" + t.Policy)
	}
	if !math.IsNaN(t.Interval) {
		b.WriteString(" interval=" + num(t.Interval))
	}
	return b.String()
}

func (s *Study) expandTraces(tasks []Task) []Task {
	t := s.Traces
	apps := t.Applications
	if len(apps) == 0 {
		apps = bench.Names()
	}
	pols := t.Policies
	if len(pols) == 0 {
		pols = []string{"greedy"}
	}
	type sys struct {
		name, file string
		id         int
	}
	var systems []sys
	for _, id := range t.Systems {
		systems = append(systems, sys{name: strconv.Itoa(id), file: t.LANL, id: id})
	}
	for _, g := range t.Generic {
		systems = append(systems, sys{name: baseName(g), file: g, id: -1})
	}
	segments := t.Segments
	if segments == 0 {
		segments = evaluate.DefaultSegments
	}
	n := t.Processors
	if n == 0 {
		n = bench.MaxProcessors
	}
	for _, sy := range systems {
		for _, app := range apps {
			for _, pol := range pols {
				tasks = append(tasks, Task{
					Compute: Evaluate, System: sy.name, Application: app, Policy: pol,
					ID:   fmt.Sprintf("evaluate system=%s app=%s policy=%s", sy.name, app, pol),
					Seed: s.Seed, trace: sy.file, systemID: sy.id,
					Processors: t.Processors, MTTF: math.NaN(), MTTR: math.NaN(), Latency: math.NaN(),
					Recovery: math.NaN(), Interval: math.NaN(),
					Cost: float64(segments) * 25 * math.Pow(float64(n), 1.5),
				})
			}
		}
	}
	return tasks
}

func baseName(path string) string {
	if i := strings.LastIndexAny(path, `/\`); i >= 0 {
		return path[i+1:]
	}
	return path
}

// scenarioCost is a rough cost of a scenario task: one model evaluation
// grows like N^1.5 (the fast path's window of functional counts times the
// spare chains' rows); a search makes about 25 of them.
func scenarioCost(c string, n int, sim *SimulationSettings) float64 {
	if n == 0 {
		n = 128
	}
	one := math.Pow(float64(n), 1.5)
	switch c {
	case Optimize:
		return 25 * one
	case UWT:
		return one
	}
	r := 32
	if sim != nil && sim.Replications > 0 {
		r = sim.Replications
	}
	return 25*one + float64(r)*float64(n)
}

// mix derives a task's seed from the study's seed and the task's ID (FNV-1a
// of the ID, then SplitMix64; Steele, Lea & Flood 2014).
func mix(seed uint64, id string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(id))
	x := seed ^ h.Sum64()
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// Shard returns the tasks of shard k of n (0 ≤ k < n): the tasks are
// taken in decreasing order of Cost (ties by Index) and each goes to the
// shard with the least total cost so far (ties to the lowest shard), the
// longest-processing-time rule, whose largest shard is within 4/3 of the
// best possible (Graham 1969). The result is in increasing Index order
// and depends only on the tasks and n.
func Shard(tasks []Task, k, n int) []Task {
	if n < 1 || k < 0 || k >= n {
		panic(fmt.Sprintf("sweep: shard %d of %d", k, n))
	}
	order := make([]int, len(tasks))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		switch {
		case tasks[a].Cost > tasks[b].Cost:
			return -1
		case tasks[a].Cost < tasks[b].Cost:
			return 1
		}
		return tasks[a].Index - tasks[b].Index
	})
	h := make(loads, n)
	for i := range h {
		h[i] = load{shard: i}
	}
	var mine []int
	for _, i := range order {
		h[0].cost += tasks[i].Cost
		if h[0].shard == k {
			mine = append(mine, i)
		}
		heap.Fix(&h, 0)
	}
	slices.Sort(mine)
	out := make([]Task, len(mine))
	for j, i := range mine {
		out[j] = tasks[i]
	}
	return out
}

type load struct {
	cost  float64
	shard int
}

// loads is a min-heap of shard loads, ties by shard number.
type loads []load

func (h loads) Len() int { return len(h) }
func (h loads) Less(i, j int) bool {
	if h[i].cost != h[j].cost {
		return h[i].cost < h[j].cost
	}
	return h[i].shard < h[j].shard
}
func (h loads) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *loads) Push(x any)   { *h = append(*h, x.(load)) }
func (h *loads) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
