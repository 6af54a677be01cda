package sweep

import (
	"bytes"
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ckpt-markov/markov/bench"
	"github.com/ckpt-markov/markov/scenario"
	"github.com/ckpt-markov/markov/uwt"
)

func parse(t *testing.T, s string) *Study {
	t.Helper()
	st, err := Parse(strings.NewReader(s), ".")
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func loadStudy(t *testing.T, name string) *Study {
	t.Helper()
	st, err := Load(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// studyIn writes files (name → content) into a new directory and parses
// the study s there, so that its relative paths name them.
func studyIn(t *testing.T, files map[string]string, s string) (st *Study, dir string) {
	t.Helper()
	dir = t.TempDir()
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	st, err := Parse(strings.NewReader(s), dir)
	if err != nil {
		t.Fatal(err)
	}
	return st, dir
}

// runStudy runs every task of st, with the default settings, into a new
// directory and returns it.
func runStudy(t *testing.T, st *Study) string {
	t.Helper()
	dir := t.TempDir()
	if _, err := Run(context.Background(), st, dir, nil); err != nil {
		t.Fatal(err)
	}
	return dir
}

// runMerged runs every task of st (runStudy) and returns the merged table.
func runMerged(t *testing.T, st *Study) *Table {
	t.Helper()
	tab, err := Merge(runStudy(t, st))
	if err != nil {
		t.Fatal(err)
	}
	return tab
}

// TestParseErrors checks that each malformed study is refused with an
// error naming the offending field.
func TestParseErrors(t *testing.T) {
	const ok = `"name": "x", "compute": ["optimize"], "scenarios": {"application": "qr", "processors": [4], "mttf": ["10d"], "mttr": ["1h"]}`
	for _, tc := range []struct {
		study, field string
	}{
		{`{` + ok + `, "extra": 1}`, `unknown field "extra"`},
		{`{` + ok + `} {}`, "data after"},
		{`{"compute": ["optimize"]}`, "name"},
		{`{"name": "a b", "compute": ["uwt"]}`, "name"},
		{`{"name": "x", "compute": []}`, "compute"},
		{`{"name": "x", "compute": ["optimal"]}`, "compute[0]"},
		{`{"name": "x", "compute": ["optimize", "optimize"]}`, "compute[1]"},
		{`{"name": "x", "compute": ["optimize"]}`, "scenarios"},
		{`{"name": "x", "compute": ["evaluate"]}`, "traces"},
		{`{"name": "x", "compute": ["uwt"], "scenarios": {"application": "qr", "processors": [4], "mttf": ["10d"], "mttr": ["1h"]}}`, "scenarios.intervals"},
		{`{"name": "x", "compute": ["optimize"], "scenarios": {"application": "lu", "processors": [4], "mttf": ["10d"], "mttr": ["1h"]}}`, "scenarios.application"},
		{`{"name": "x", "compute": ["optimize"], "scenarios": {"application": "qr", "processors": [0], "mttf": ["10d"], "mttr": ["1h"]}}`, "scenarios.processors[0]"},
		{`{"name": "x", "compute": ["optimize"], "scenarios": {"application": "qr", "processors": [4, 4], "mttf": ["10d"], "mttr": ["1h"]}}`, "scenarios.processors[1]"},
		{`{"name": "x", "compute": ["optimize"], "scenarios": {"application": "qr", "processors": [4], "mttf": [-5], "mttr": ["1h"]}}`, "scenarios.mttf[0]"},
		{`{"name": "x", "compute": ["optimize"], "scenarios": {"application": "qr", "processors": [4], "mttf": ["10d"], "mttr": ["1h"], "recovery": [-1]}}`, "scenarios.recovery[0]"},
		{`{"name": "x", "compute": ["optimize"], "scenarios": {"application": "qr", "processors": [4], "mttf": ["10d"], "mttr": ["1h"], "policies": ["moldable"]}}`, "scenarios.policies[0]"},
		{`{"name": "x", "compute": ["optimize"], "scenarios": {"application": "qr", "processors": [4], "mttf": ["ten days"], "mttr": ["1h"]}}`, "mttf"},
		{`{"name": "x", "compute": ["evaluate"], "traces": {"lanl": "f.csv"}}`, "traces.systems"},
		{`{"name": "x", "compute": ["evaluate"], "traces": {"generic": ["a.csv"], "segments": -1}}`, "traces.segments"},
		{`{"name": "x", "compute": ["evaluate"], "traces": {"generic": ["a.csv"], "policies": ["xx"]}}`, "traces.policies[0]"},
		{`{"name": "x", "compute": ["evaluate"], "traces": {"generic": ["a/t.csv", "b/t.csv"]}}`, "traces.generic[1]"},
		{`{"name": "x", "compute": ["evaluate"], "traces": {"generic": ["a.csv"], "rule": "best"}}`, "traces.rule"},
		{`{"name": "x", "compute": ["optimize"], "scenarios": {"application": "qr", "processors": [4], "mttf": ["10d"], "mttr": ["1h"], "policies": ["ab"]}}`, "scenarios.policies[0]"},
		{`{` + ok + `, "simulation": {"replications": 1}}`, "simulation.replications"},
		{`{` + ok + `, "slurm": {"partition": "a;rm -rf /"}}`, "slurm.partition"},
		{`{` + ok + `, "slurm": {"cpus": -2}}`, "slurm.cpus"},
		// An empty file said "EOF" (issue 23).
		{``, "the file is empty"},
		{" \n", "the file is empty"},
		// A horizon over the limit names the limit (issue 23).
		{`{` + ok + `, "simulation": {"horizon": "1000000000y"}}`, "at most 3.15576e+10 s"},
		// 1000³ = 10⁹ tasks: the real count, not "1000001" (issue 23).
		{`{"name": "x", "compute": ["optimize"], "scenarios": {"application": "qr", "processors": [1], "mttf": [` + seq(1, 1000) + `], "mttr": [` + seq(1, 1000) + `], "checkpoint_latency": [` + seq(1, 1000) + `]}}`, "1000000000 tasks, more than the limit of 1000000"},
		// 101 × 100 × 100 = 1,010,000 tasks, over MaxTasks.
		{`{"name": "x", "compute": ["optimize"], "scenarios": {"application": "qr", "processors": [` + seq(1, 101) + `], "mttf": [` + seq(1, 100) + `], "mttr": [` + seq(1, 100) + `]}}`, "tasks"},
	} {
		_, err := Parse(strings.NewReader(tc.study), ".")
		if err == nil || !strings.Contains(err.Error(), tc.field) {
			t.Errorf("%.90s: error %v, want one naming %q", tc.study, err, tc.field)
		}
	}
	big := `{"name": "x", "compute": ["optimize"], "pad": "` + strings.Repeat("x", MaxStudyBytes) + `"}`
	if _, err := Parse(strings.NewReader(big), "."); err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Errorf("a study over MaxStudyBytes: error %v", err)
	}
}

func seq(a, b int) string {
	var s []string
	for i := a; i <= b; i++ {
		s = append(s, strconv.Itoa(i))
	}
	return strings.Join(s, ",")
}

// TestExpand checks the numbering of a study whose task list is written
// out by hand here: the product of the axes, first axis outermost, for
// each computation in order.
func TestExpand(t *testing.T) {
	st := parse(t, `{"name": "x", "seed": 3, "compute": ["optimize", "uwt"],
		"scenarios": {"application": "qr", "processors": [4, 8], "mttf": ["1d"], "mttr": [3600],
		"policies": ["greedy", "pb"], "intervals": ["1h", "2h"]}}`)
	want := []string{
		"optimize app=qr n=4 mttf=86400 mttr=3600 policy=greedy",
		"optimize app=qr n=4 mttf=86400 mttr=3600 policy=pb",
		"optimize app=qr n=8 mttf=86400 mttr=3600 policy=greedy",
		"optimize app=qr n=8 mttf=86400 mttr=3600 policy=pb",
		"uwt app=qr n=4 mttf=86400 mttr=3600 policy=greedy interval=3600",
		"uwt app=qr n=4 mttf=86400 mttr=3600 policy=greedy interval=7200",
		"uwt app=qr n=4 mttf=86400 mttr=3600 policy=pb interval=3600",
		"uwt app=qr n=4 mttf=86400 mttr=3600 policy=pb interval=7200",
		"uwt app=qr n=8 mttf=86400 mttr=3600 policy=greedy interval=3600",
		"uwt app=qr n=8 mttf=86400 mttr=3600 policy=greedy interval=7200",
		"uwt app=qr n=8 mttf=86400 mttr=3600 policy=pb interval=3600",
		"uwt app=qr n=8 mttf=86400 mttr=3600 policy=pb interval=7200",
	}
	tasks := st.Expand()
	if st.count() != len(tasks) {
		t.Errorf("count() = %d, Expand has %d tasks", st.count(), len(tasks))
	}
	var got []string
	seeds := map[uint64]bool{}
	for i, tk := range tasks {
		if tk.Index != i {
			t.Errorf("task %d has index %d", i, tk.Index)
		}
		got = append(got, tk.ID)
		seeds[tk.Seed] = true
	}
	if !slices.Equal(got, want) {
		t.Errorf("tasks:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(seeds) != len(tasks) {
		t.Errorf("%d distinct seeds for %d tasks", len(seeds), len(tasks))
	}
	// A different study seed changes every task's seed, not its ID.
	other := parse(t, strings.Replace(string(st.raw), `"seed": 3`, `"seed": 4`, 1)).Expand()
	for i := range tasks {
		if other[i].ID != tasks[i].ID || other[i].Seed == tasks[i].Seed {
			t.Errorf("task %d: seed %d with study seed 3 and %d with 4", i, tasks[i].Seed, other[i].Seed)
		}
	}
}

// TestShard checks that the shards partition the tasks and that the
// largest is within Graham's (1969) bound for the LPT rule: at most
// (4/3 − 1/(3n)) times the optimum, which is at least the mean load and
// at least the largest task.
func TestShard(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, size := range []int{0, 1, 5, 37, 400} {
		tasks := make([]Task, size)
		var total, biggest float64
		for i := range tasks {
			tasks[i] = Task{Index: i, Cost: math.Exp(3 * rng.NormFloat64())}
			total += tasks[i].Cost
			biggest = max(biggest, tasks[i].Cost)
		}
		for _, n := range []int{1, 2, 3, 4, 7, 100} {
			seen := make([]int, size)
			var worst float64
			for k := range n {
				var load float64
				sh := Shard(tasks, k, n)
				for j, tk := range sh {
					if j > 0 && sh[j-1].Index >= tk.Index {
						t.Fatalf("size %d, shard %d/%d: not in index order", size, k, n)
					}
					seen[tk.Index]++
					load += tk.Cost
				}
				worst = max(worst, load)
			}
			for i, c := range seen {
				if c != 1 {
					t.Errorf("size %d, %d shards: task %d in %d shards", size, n, i, c)
				}
			}
			opt := max(total/float64(n), biggest)
			if bound := (4.0/3 - 1/(3*float64(n))) * opt; worst > bound*(1+1e-12) {
				t.Errorf("size %d, %d shards: largest shard %v over the LPT bound %v", size, n, worst, bound)
			}
		}
	}
}

// merged returns the merged CSV and JSON of dir.
func merged(t *testing.T, dir string) (csv, js []byte) {
	t.Helper()
	if _, err := WriteMerged(dir); err != nil {
		t.Fatal(err)
	}
	csv, err := os.ReadFile(filepath.Join(dir, MergedCSV))
	if err != nil {
		t.Fatal(err)
	}
	js, err = os.ReadFile(filepath.Join(dir, MergedJSON))
	if err != nil {
		t.Fatal(err)
	}
	return csv, js
}

// TestShardsEqualOneProcess runs a study in one process and in 1, 3 and 5
// shards with different worker counts: the merged tables are the same
// bytes.
func TestShardsEqualOneProcess(t *testing.T) {
	st := loadStudy(t, "small-study.json")
	ref := t.TempDir()
	if _, err := Run(context.Background(), st, ref, &Settings{Workers: 1}); err != nil {
		t.Fatal(err)
	}
	csv0, js0 := merged(t, ref)
	if n := bytes.Count(csv0, []byte("\n")); n != 1+st.count() {
		t.Fatalf("merged CSV has %d lines, want %d tasks and a header", n, st.count())
	}
	counts := []int{1, 3, 5}
	if testing.Short() {
		counts = []int{3} // CI's race run: one split, workers 1, 2 and 3
	}
	for _, n := range counts {
		dir := t.TempDir()
		for k := range n {
			if _, err := Run(context.Background(), st, dir, &Settings{Shard: k, Shards: n, Workers: 1 + k%3}); err != nil {
				t.Fatal(err)
			}
		}
		csv, js := merged(t, dir)
		if !bytes.Equal(csv, csv0) || !bytes.Equal(js, js0) {
			t.Errorf("%d shards: merged table differs from the single process's", n)
		}
	}
}

// TestResume cancels a run after its first results are written, checks
// that merge reports the missing tasks, reruns and checks that the tasks
// done are skipped and the merged table equals an uninterrupted run's.
func TestResume(t *testing.T) {
	st := loadStudy(t, "small-study.json")
	ref := runStudy(t, st)
	csv0, js0 := merged(t, ref)

	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	const stopAfter = 3
	sum, err := Run(ctx, st, dir, &Settings{Shard: 1, Shards: 2, Workers: 1, FlushEvery: -1, Progress: func(done, _ int) {
		if done == stopAfter {
			cancel()
		}
	}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled run: error %v", err)
	}
	// A task already handed to the worker may finish after the cancel; its
	// result is kept too.
	if sum.Done < stopAfter || sum.Done >= sum.Tasks {
		t.Fatalf("cancelled run did %d of %d tasks, want %d or a few more", sum.Done, sum.Tasks, stopAfter)
	}
	if _, err := Run(context.Background(), st, dir, &Settings{Shard: 0, Shards: 2}); err != nil {
		t.Fatal(err)
	}
	var inc *IncompleteError
	if _, err := Merge(dir); !errors.As(err, &inc) || len(inc.Missing) != sum.Tasks-sum.Done || len(inc.Conflicting) != 0 {
		t.Fatalf("merge of an interrupted study: %v, want %d missing tasks", err, sum.Tasks-sum.Done)
	}
	// What a shard killed while writing leaves: a part of a temporary file.
	stale := filepath.Join(dir, "."+ResultFile(1, 2)+".tmp-123")
	if err := os.WriteFile(stale, []byte(`{"study":`), 0o644); err != nil {
		t.Fatal(err)
	}
	again, err := Run(context.Background(), st, dir, &Settings{Shard: 1, Shards: 2})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the rerun left the stale temporary file: %v", err)
	}
	if again.Skipped != sum.Done || again.Done != sum.Tasks-sum.Done {
		t.Errorf("rerun skipped %d and ran %d tasks, want %d and %d", again.Skipped, again.Done, sum.Done, sum.Tasks-sum.Done)
	}
	csv, js := merged(t, dir)
	if !bytes.Equal(csv, csv0) || !bytes.Equal(js, js0) {
		t.Error("resumed study's merged table differs from the uninterrupted run's")
	}
	// A local run over the sharded directory has nothing left to do.
	if s, err := Run(context.Background(), st, dir, nil); err != nil || s.Done != 0 || s.Skipped != st.count() {
		t.Errorf("local run over a complete directory: %+v, %v", s, err)
	}
}

// TestMergeChecks removes a result and copies another into a second
// file: merge names the missing task, takes the identical second copy as
// one, and a rerun completes the study with the table of the first run;
// a directory of another study with results is refused.
func TestMergeChecks(t *testing.T) {
	st := loadStudy(t, "small-study.json")
	dir := runStudy(t, st)
	csv0, js0 := merged(t, dir)
	path := filepath.Join(dir, ResultFile(0, 1))
	keep, _ := without(t, path, 5)
	if err := os.WriteFile(path, keep, 0o644); err != nil {
		t.Fatal(err)
	}
	_, seven := without(t, path, 7)
	if err := os.WriteFile(filepath.Join(dir, ResultFile(1, 2)), seven, 0o644); err != nil {
		t.Fatal(err)
	}
	var inc *IncompleteError
	_, err := Merge(dir)
	if !errors.As(err, &inc) || !slices.Equal(inc.Missing, []int{5}) || len(inc.Conflicting) != 0 {
		t.Fatalf("merge: %v, want task 5 missing and nothing else", err)
	}
	sum, err := Run(context.Background(), st, dir, nil)
	if err != nil || sum.Done != 1 {
		t.Fatalf("rerun: %+v, %v, want task 5 run", sum, err)
	}
	if csv, js := merged(t, dir); !bytes.Equal(csv, csv0) || !bytes.Equal(js, js0) {
		t.Error("the rerun's merged table differs from the first run's")
	}
	other := loadStudy(t, "slow-study.json")
	if _, err := Run(context.Background(), other, dir, nil); err == nil || !strings.Contains(err.Error(), "another study") {
		t.Errorf("run of another study in the directory: %v", err)
	}
}

// TestScenarioTasks checks scenario tasks against the model built by
// hand: the benchmark for the task's N with L(a) = C(a) = the latency
// axis and a constant recovery, optimised by uwt directly.
func TestScenarioTasks(t *testing.T) {
	st := parse(t, `{"name": "x", "compute": ["optimize", "uwt"], "scenarios": {"application": "md",
		"processors": [6], "mttf": ["5d"], "mttr": ["2h"], "checkpoint_latency": [120], "recovery": [45],
		"policies": ["moldable:4"], "intervals": ["90m"]}}`)
	tab := runMerged(t, st)
	app, err := bench.Application("md", 6)
	if err != nil {
		t.Fatal(err)
	}
	for i := range app.Latency {
		app.Latency[i], app.Overhead[i] = 120, 120
	}
	app.Recovery = scenario.RecoveryConstant(45, 6)
	sc, err := scenario.New(scenario.System{Processors: 6, MTTF: 5 * 86400, MTTR: 7200}, app, scenario.Policy{Kind: scenario.Moldable, Processors: 4})
	if err != nil {
		t.Fatal(err)
	}
	m, err := uwt.New(context.Background(), sc, nil)
	if err != nil {
		t.Fatal(err)
	}
	opt, err := m.Optimize(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	at, err := m.Evaluate(context.Background(), 5400)
	if err != nil {
		t.Fatal(err)
	}
	// The same computation in the same order: equal to rounding (uwt's
	// results do not depend on its worker count).
	const tol = 1e-12
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"optimize interval", *tab.Records[0].Interval, opt.Interval},
		{"optimize uwt", *tab.Records[0].UWT, opt.UWT},
		{"uwt at 90m", *tab.Records[1].UWT, at.UWT},
		{"interval", *tab.Records[1].Interval, 5400},
	} {
		if math.Abs(c.got-c.want) > tol*math.Abs(c.want) {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
	if r := tab.Records[0]; r.Processors != 6 || *r.Latency != 120 || *r.Recovery != 45 || r.Policy != "moldable:4" {
		t.Errorf("record of the point: %+v", r)
	}
}

// TestSlurmCPUs reads the CPUs Slurm granted from the environment.
func TestSlurmCPUs(t *testing.T) {
	for _, tc := range []struct {
		perTask, perNode string
		want             int
	}{
		{"", "", 0}, {"4", "", 4}, {"4", "16", 4}, {"", "8", 8}, {"", "4(x2),2", 4}, {"", "6,2", 6},
		{"0", "3", 3}, {"x", "", 0}, {"", "-1", 0},
	} {
		env := map[string]string{"SLURM_CPUS_PER_TASK": tc.perTask, "SLURM_JOB_CPUS_PER_NODE": tc.perNode}
		if got := SlurmCPUs(func(k string) string { return env[k] }); got != tc.want {
			t.Errorf("SLURM_CPUS_PER_TASK=%q SLURM_JOB_CPUS_PER_NODE=%q: %d CPUs, want %d", tc.perTask, tc.perNode, got, tc.want)
		}
	}
}

// TestShardOptimalCost: with the optimal policy's solve in the cost, the
// optimal tasks of a study are spread over the shards. Before, a greedy
// and an optimal task of one N cost the same and the longest-first rule
// put both optimal tasks of this study on shard 1 (issue 23: 131 s and
// 196 s against 1 s).
func TestShardOptimalCost(t *testing.T) {
	st := parse(t, `{"name": "x", "compute": ["optimize"], "scenarios": {"application": "qr",
		"processors": [64, 128], "mttf": ["10d"], "mttr": ["1h"], "policies": ["greedy", "optimal"]}}`)
	tasks := st.Expand()
	for k := range 2 {
		n := 0
		for _, task := range Shard(tasks, k, 2) {
			if task.Policy == "optimal" {
				n++
			}
		}
		if n != 1 {
			t.Errorf("shard %d holds %d optimal tasks, want 1", k, n)
		}
	}
}

func TestParseShard(t *testing.T) {
	env := map[string]string{"SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_COUNT": "8"}
	getenv := func(k string) string { return env[k] }
	for _, tc := range []struct {
		s    string
		k, n int
		ok   bool
	}{
		{"0/1", 0, 1, true}, {"2/5", 2, 5, true}, {"auto", 3, 8, true}, {"auto/4", 3, 4, true},
		{"5/5", 0, 0, false}, {"-1/3", 0, 0, false}, {"1", 0, 0, false}, {"a/b", 0, 0, false},
		{"auto/3", 0, 0, false}, {"0/0", 0, 0, false}, {"0/1000001", 0, 0, false},
	} {
		k, n, err := ParseShard(tc.s, getenv)
		if (err == nil) != tc.ok || tc.ok && (k != tc.k || n != tc.n) {
			t.Errorf("ParseShard(%q) = %d, %d, %v", tc.s, k, n, err)
		}
	}
	if _, _, err := ParseShard("auto", func(string) string { return "" }); err == nil {
		t.Error("auto outside a job array: no error")
	}
}

func TestScript(t *testing.T) {
	s, err := Job{Name: "lanl", Markov: "/opt/markov", Study: "/home/me/my study.json", Dir: "/scratch/out",
		Tasks: 4, Options: SlurmSettings{Partition: "batch", Time: "2:00:00"}}.Script()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"#SBATCH --array=0-3\n", "#SBATCH --partition=batch\n", "#SBATCH --time=2:00:00\n",
		"#SBATCH --output=/scratch/out/slurm-%A_%a.out\n",
		"exec /opt/markov sweep run '/home/me/my study.json' --shard auto/4 --out /scratch/out\n"} {
		if !strings.Contains(s, want) {
			t.Errorf("script lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "--mem") || strings.Contains(s, "--account") {
		t.Errorf("script has options that were not set:\n%s", s)
	}
	for _, bad := range []Job{
		{Name: "x", Markov: "m", Study: "s", Dir: "d", Tasks: 0},
		{Name: "x", Markov: "m", Study: "s\nrm", Dir: "d", Tasks: 1},
		{Name: "x", Markov: "m", Study: "s", Dir: "d", Tasks: 1, Options: SlurmSettings{Mem: "4G $(x)"}},
	} {
		if _, err := bad.Script(); err == nil {
			t.Errorf("%+v: no error", bad)
		}
	}
}

// TestScenarioFiles checks the files axis against the model of each file
// loaded by hand, and the processors axis on a file's application against
// the application restricted by hand to the first counts.
func TestScenarioFiles(t *testing.T) {
	files := map[string]string{
		"a.json": `{"system": {"processors": 4, "mttf": "3d", "mttr": "2h"},
			"application": {"work_rate": [1, 1.8, 2.5, 3.1], "checkpoint_latency": [60, 70, 80, 90], "recovery": 30}, "policy": "greedy"}`,
		"b.json": `{"system": {"processors": 3, "mttf": "1d", "mttr": "1h"},
			"application": {"work_rate": [2, 3, 4], "checkpoint_latency": 100, "checkpoint_overhead": 50, "recovery": [10, 20, 30]}, "policy": "pb"}`,
	}
	st, dir := studyIn(t, files, `{"name": "f", "compute": ["uwt"], "scenarios": {"files": ["a.json", "b.json"],
		"processors": [3], "intervals": ["1h"]}}`)
	tab := runMerged(t, st)
	// a.json restricted to 3 processors, written out by hand.
	a3, err := scenario.New(scenario.System{Processors: 3, MTTF: 3 * 86400, MTTR: 7200}, scenario.Application{
		WorkRate: []float64{1, 1.8, 2.5}, Latency: []float64{60, 70, 80}, Overhead: []float64{60, 70, 80},
		Recovery: scenario.RecoveryConstant(30, 3)}, scenario.Policy{Kind: scenario.Greedy})
	if err != nil {
		t.Fatal(err)
	}
	b, err := scenario.Load(filepath.Join(dir, "b.json"), nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, sc := range []*scenario.Scenario{a3, b} {
		m, err := uwt.New(context.Background(), sc, nil)
		if err != nil {
			t.Fatal(err)
		}
		want, err := m.Evaluate(context.Background(), 3600)
		if err != nil {
			t.Fatal(err)
		}
		r := tab.Records[i]
		if got := *r.UWT; math.Abs(got-want.UWT) > 1e-12*want.UWT {
			t.Errorf("%s: UWT %v, by hand %v", r.ID, got, want.UWT)
		}
		if wantFile := []string{"a.json", "b.json"}[i]; r.Scenario != wantFile {
			t.Errorf("record %d: scenario %q, want %q", i, r.Scenario, wantFile)
		}
	}
}
