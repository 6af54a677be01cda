package sweep

import (
	"container/heap"
	"fmt"
	"hash/fnv"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/ckpt-markov/markov/bench"
	"github.com/ckpt-markov/markov/evaluate"
	"github.com/ckpt-markov/markov/internal/splitmix"
	"github.com/ckpt-markov/markov/scenario"
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

// block is the tasks of one computation: the product of its axes, the
// first outermost. Task i of the block has the coordinates of i written in
// the mixed radix of the axes' lengths.
type block struct {
	compute string
	first   int   // index of the block's first task
	dims    []int // axis lengths (≥ 1), outermost first
}

// blocks lists the study's blocks in the order of Compute, with their
// sizes, and the total; a total above MaxTasks is returned as is (with
// first and the total saturated at math.MaxInt) and nothing is allocated
// by it.
func (s *Study) blocks() ([]block, *big.Int) {
	total := new(big.Int)
	var out []block
	for _, c := range s.Compute {
		b := block{compute: c, first: int(min(total.Int64(), math.MaxInt))}
		if !total.IsInt64() {
			b.first = math.MaxInt
		}
		if c == Evaluate {
			t := s.Traces
			b.dims = []int{len(t.Systems) + len(t.Generic), len(t.Applications), len(t.Policies)}
			if b.dims[1] == 0 {
				b.dims[1] = len(bench.Names())
			}
		} else {
			a := s.Scenarios
			iv := 1
			if c != Optimize {
				iv = len(a.Intervals)
			}
			b.dims = []int{len(a.Files), len(a.Processors), len(a.MTTF), len(a.MTTR), len(a.CheckpointLatency), len(a.Recovery), len(a.Policies), iv}
		}
		size := big.NewInt(1)
		for i, d := range b.dims {
			b.dims[i] = max(d, 1)
			size.Mul(size, big.NewInt(int64(b.dims[i])))
		}
		total.Add(total, size)
		out = append(out, b)
	}
	return out, total
}

// count is the number of tasks of the study, computed without expanding;
// above MaxTasks it is MaxTasks + 1.
func (s *Study) count() int {
	_, total := s.blocks()
	if total.Cmp(big.NewInt(MaxTasks)) > 0 {
		return MaxTasks + 1
	}
	return int(total.Int64())
}

// at returns v[i] as seconds, or NaN (the base's value) when v is empty.
func at(v []Duration, i int) float64 {
	if len(v) == 0 {
		return math.NaN()
	}
	return float64(v[i])
}

func num(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }

// Expand lists the study's tasks: for each computation in the order of
// Compute, the product of its axes with the first axis outermost
// (processors, mttf, mttr, checkpoint_latency, recovery, policies,
// intervals; or traces, applications, policies). Task(i) is its i-th
// element.
func (s *Study) Expand() []Task {
	n := s.count()
	tasks := make([]Task, n)
	for i := range tasks {
		tasks[i] = s.Task(i)
	}
	return tasks
}

// Task returns task i (0 ≤ i < the number of tasks) of Expand without
// expanding the others: a run or a merge holds one task at a time.
func (s *Study) Task(i int) Task {
	bs := s.blk
	if bs == nil {
		bs, _ = s.blocks()
	}
	for _, b := range bs {
		size := 1
		for _, d := range b.dims {
			size *= d
		}
		if i < b.first || i >= b.first+size {
			continue
		}
		coord := make([]int, len(b.dims))
		r := i - b.first
		for k := len(b.dims) - 1; k >= 0; k-- {
			coord[k], r = r%b.dims[k], r/b.dims[k]
		}
		var t Task
		if b.compute == Evaluate {
			t = s.traceTask(coord)
		} else {
			t = s.scenarioTask(b.compute, coord)
		}
		t.Index = i
		return t
	}
	panic(fmt.Sprintf("sweep: task %d of a study of %d tasks", i, s.count()))
}

// scenarioTask is the task of computation c at the coordinates (file,
// processors, mttf, mttr, checkpoint_latency, recovery, policies,
// intervals).
func (s *Study) scenarioTask(c string, x []int) Task {
	a := s.Scenarios
	t := Task{Compute: c, Application: a.Application, MTTF: at(a.MTTF, x[2]), MTTR: at(a.MTTR, x[3]),
		Latency: at(a.CheckpointLatency, x[4]), Recovery: at(a.Recovery, x[5]), Interval: math.NaN()}
	if len(a.Files) > 0 {
		t.Scenario = a.Files[x[0]]
	}
	if len(a.Processors) > 0 {
		t.Processors = a.Processors[x[1]]
	}
	if len(a.Policies) > 0 {
		t.Policy = a.Policies[x[6]]
	}
	if c != Optimize {
		t.Interval = at(a.Intervals, x[7])
	}
	t.ID = t.scenarioID()
	t.Seed = mix(s.Seed, t.ID)
	t.Cost = scenarioCost(c, t.Processors, t.Policy, s.Simulation)
	return t
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

// traceTask is the evaluate task at the coordinates (system, application,
// policy): the LANL systems first, then the generic traces.
func (s *Study) traceTask(x []int) Task {
	tr := s.Traces
	name, file, id := "", tr.LANL, -1
	if x[0] < len(tr.Systems) {
		id = tr.Systems[x[0]]
		name = strconv.Itoa(id)
	} else {
		file = tr.Generic[x[0]-len(tr.Systems)]
		name = baseName(file)
	}
	app := ""
	if len(tr.Applications) > 0 {
		app = tr.Applications[x[1]]
	} else {
		app = bench.Names()[x[1]]
	}
	pol := "greedy"
	if len(tr.Policies) > 0 {
		pol = tr.Policies[x[2]]
	}
	segments := tr.Segments
	if segments == 0 {
		segments = evaluate.DefaultSegments
	}
	n := tr.Processors
	if n == 0 {
		n = bench.MaxProcessors
	}
	return Task{
		Compute: Evaluate, System: name, Application: app, Policy: pol,
		ID:   fmt.Sprintf("evaluate system=%s app=%s policy=%s", name, app, pol),
		Seed: s.Seed, trace: file, systemID: id,
		Processors: tr.Processors, MTTF: math.NaN(), MTTR: math.NaN(), Latency: math.NaN(),
		Recovery: math.NaN(), Interval: math.NaN(),
		Cost: float64(segments) * (25*math.Pow(float64(n), 1.5) + optimalCost(pol, n)),
	}
}

func baseName(path string) string {
	if i := strings.LastIndexAny(path, `/\`); i >= 0 {
		return path[i+1:]
	}
	return path
}

// scenarioCost is a rough cost of a scenario task, in units of about
// 0.1 µs: one model evaluation grows like N^1.5 (the fast path's window
// of functional counts times the spare chains' rows) and a search makes
// about 25 of them; the optimal policy adds its solve (optimalCost).
func scenarioCost(c string, n int, policy string, sim *SimulationSettings) float64 {
	if n == 0 {
		n = 128
	}
	one := math.Pow(float64(n), 1.5)
	extra := optimalCost(policy, n)
	switch c {
	case Optimize:
		return 25*one + extra
	case UWT:
		return one + extra
	}
	r := 32
	if sim != nil && sim.Replications > 0 {
		r = sim.Replications
	}
	return 25*one + float64(r)*float64(n) + extra
}

// optimalCost is the cost of solving the optimal policy on n processors
// when policy names it, 0 otherwise: 650·n^2.2 units, fitted to markov
// optimize --policy optimal -n 64, 128, 256 on the built-in scenario
// (0.58 s, 2.65 s, 12.6 s of CPU, against about 10 ms for a greedy
// optimize at n = 256, 25·256^1.5 units). Left out, the optimal tasks of a
// study all landed on a few shards (issue 23: 131 s and 196 s against
// 1 s).
func optimalCost(policy string, n int) float64 {
	if p, err := scenario.ParsePolicy(policy); err != nil || p.Kind != scenario.Optimal {
		return 0
	}
	return 650 * math.Pow(float64(n), 2.2)
}

// mix derives a task's seed from the study's seed and the task's ID (FNV-1a
// of the ID, then SplitMix64; Steele, Lea & Flood 2014).
func mix(seed uint64, id string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(id))
	return splitmix.Mix(seed ^ h.Sum64())
}

// Shard returns the tasks of shard k of n (0 ≤ k < n): the tasks are
// taken in decreasing order of Cost (ties by Index) and each goes to the
// shard with the least total cost so far (ties to the lowest shard), the
// longest-processing-time rule, whose largest shard is within 4/3 of the
// best possible (Graham 1969). The result is in increasing Index order
// and depends only on the tasks and n.
func Shard(tasks []Task, k, n int) []Task {
	mine := shardOf(len(tasks), func(i int) float64 { return tasks[i].Cost }, k, n)
	out := make([]Task, len(mine))
	for j, i := range mine {
		out[j] = tasks[i]
	}
	return out
}

// shardOf is Shard on m tasks given by their costs: the indices of shard
// k of n, increasing. It holds 12 bytes a task, not the tasks.
func shardOf(m int, cost func(int) float64, k, n int) []int32 {
	if n < 1 || k < 0 || k >= n {
		panic(fmt.Sprintf("sweep: shard %d of %d", k, n))
	}
	costs := make([]float64, m)
	order := make([]int32, m)
	for i := range order {
		order[i], costs[i] = int32(i), cost(i)
	}
	slices.SortStableFunc(order, func(a, b int32) int {
		switch {
		case costs[a] > costs[b]:
			return -1
		case costs[a] < costs[b]:
			return 1
		}
		return int(a - b)
	})
	h := make(loads, n)
	for i := range h {
		h[i] = load{shard: i}
	}
	var mine []int32
	for _, i := range order {
		h[0].cost += costs[i]
		if h[0].shard == k {
			mine = append(mine, i)
		}
		heap.Fix(&h, 0)
	}
	slices.Sort(mine)
	return mine
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
