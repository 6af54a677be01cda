package sweep

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

// without returns the content of the result file at path without the line
// of task, and that line.
func without(t *testing.T, path string, task int) (rest, l []byte) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	key := []byte(fmt.Sprintf(`"task":%d,`, task))
	for _, x := range bytes.SplitAfter(data, []byte("\n")) {
		if bytes.Contains(x, key) {
			l = x
		} else {
			rest = append(rest, x...)
		}
	}
	if l == nil {
		t.Fatalf("no line of task %d in %s", task, path)
	}
	return rest, l
}

// lineCounts counts the result lines of every task in dir.
func lineCounts(t *testing.T, st *Study, dir string) []int {
	t.Helper()
	counts := make([]int, st.count())
	files, _ := filepath.Glob(filepath.Join(dir, "results-*.jsonl"))
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, x := range bytes.Split(bytes.TrimSuffix(data, []byte("\n")), []byte("\n")) {
			l, err := decodeLine(st, x)
			if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			counts[l.Task]++
		}
	}
	return counts
}

func reference(t *testing.T, st *Study) (csv, js []byte) {
	t.Helper()
	ref := runStudy(t, st)
	return merged(t, ref)
}

// TestConcurrentWriterKeepsRows is issue 23's lost rows: run B of a shard
// starts, finishes one task and waits; run A of the same shard then runs
// the whole shard; B runs one more task and is cancelled. B used to
// rewrite the shard's file with what it knew (its two results), losing
// A's; each run now appends under the file's lock what the other has not
// written. Oracle: every task once, and the merged table of an
// uninterrupted run.
func TestConcurrentWriterKeepsRows(t *testing.T) {
	st := loadStudy(t, "small-study.json")
	csv0, js0 := reference(t, st)
	dir := t.TempDir()
	started, aDone := make(chan struct{}), make(chan struct{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var bSum Summary
	var bErr error
	var wg sync.WaitGroup
	wg.Go(func() {
		bSum, bErr = Run(ctx, st, dir, &Settings{Workers: 1, FlushEvery: -1, Progress: func(done, _ int) {
			switch done {
			case 1:
				close(started)
				<-aDone
			case 2:
				cancel()
			}
		}})
	})
	<-started
	aSum, err := Run(context.Background(), st, dir, &Settings{Workers: 1, FlushEvery: -1})
	if err != nil {
		t.Fatal(err)
	}
	close(aDone)
	wg.Wait()
	if !errors.Is(bErr, context.Canceled) && bErr != nil {
		t.Fatalf("run B: %v", bErr)
	}
	if aSum.Skipped != 1 || aSum.Done != st.count()-1 {
		t.Errorf("run A: %+v, want 1 task skipped (B's) and the others run", aSum)
	}
	for i, c := range lineCounts(t, st, dir) {
		if c != 1 {
			t.Errorf("task %d has %d lines, want 1 (run B: %+v)", i, c, bSum)
		}
	}
	if csv, js := merged(t, dir); !bytes.Equal(csv, csv0) || !bytes.Equal(js, js0) {
		t.Error("merged table differs from an uninterrupted run's")
	}
}

// TestTwoProcessesOneShard runs the same shard in two processes at once
// (this test binary, re-executed): every task is written once and the
// merged table equals a single run's.
func TestTwoProcessesOneShard(t *testing.T) {
	if dir := os.Getenv("SWEEP_TEST_RUN_DIR"); dir != "" {
		st := loadStudy(t, "small-study.json")
		if _, err := Run(context.Background(), st, dir, &Settings{Shard: 1, Shards: 2, Workers: 1, FlushEvery: -1}); err != nil {
			t.Fatal(err)
		}
		return
	}
	st := loadStudy(t, "small-study.json")
	dir := t.TempDir()
	var cmds []*exec.Cmd
	for range 2 {
		cmd := exec.Command(os.Args[0], "-test.run=^TestTwoProcessesOneShard$")
		cmd.Env = append(os.Environ(), "SWEEP_TEST_RUN_DIR="+dir)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, cmd)
	}
	for _, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Fatal(err)
		}
	}
	counts := lineCounts(t, st, dir)
	mine := shardOf(st.count(), func(i int) float64 { return st.Task(i).Cost }, 1, 2)
	for _, i := range mine {
		if counts[i] != 1 {
			t.Errorf("task %d has %d lines, want 1", i, counts[i])
		}
	}
	if _, err := Run(context.Background(), st, dir, &Settings{Shard: 0, Shards: 2}); err != nil {
		t.Fatal(err)
	}
	csv0, js0 := reference(t, st)
	if csv, js := merged(t, dir); !bytes.Equal(csv, csv0) || !bytes.Equal(js, js0) {
		t.Error("merged table differs from a single run's")
	}
}

// TestTruncatedLastLine cuts the last line of a shard's file in two, as a
// writer killed while writing leaves it: merge reports the task missing,
// and the rerun of the shard cuts the piece and runs the task.
func TestTruncatedLastLine(t *testing.T) {
	st := loadStudy(t, "small-study.json")
	csv0, js0 := reference(t, st)
	dir := t.TempDir()
	if _, err := Run(context.Background(), st, dir, &Settings{Shard: 0, Shards: 2}); err != nil {
		t.Fatal(err)
	}
	if _, err := Run(context.Background(), st, dir, &Settings{Shard: 1, Shards: 2}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, ResultFile(1, 2))
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	last := bytes.LastIndexByte(data[:len(data)-1], '\n') + 1
	if err := os.WriteFile(path, data[:last+(len(data)-last)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	var inc *IncompleteError
	if _, err := Merge(dir); !errors.As(err, &inc) || len(inc.Missing) != 1 {
		t.Fatalf("merge with a line cut short: %v, want one task missing", err)
	}
	sum, err := Run(context.Background(), st, dir, &Settings{Shard: 1, Shards: 2})
	if err != nil || sum.Done != 1 {
		t.Fatalf("rerun: %+v, %v, want one task run", sum, err)
	}
	if csv, js := merged(t, dir); !bytes.Equal(csv, csv0) || !bytes.Equal(js, js0) {
		t.Error("merged table differs from an uninterrupted run's")
	}
}

// TestConflictingCopies puts a second, different result of a task in
// another shard's file: merge names the task and the file, and the rerun
// of that file's shard keeps the first copy, after which merge succeeds.
// An identical second copy is merged as one.
func TestConflictingCopies(t *testing.T) {
	st := loadStudy(t, "small-study.json")
	csv0, js0 := reference(t, st)
	dir := runStudy(t, st)
	_, seven := without(t, filepath.Join(dir, ResultFile(0, 1)), 7)
	second := filepath.Join(dir, ResultFile(1, 2))
	if err := os.WriteFile(second, seven, 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := WriteMerged(dir)
	if err != nil || m.Duplicates != 1 {
		t.Fatalf("merge with an identical copy: %+v, %v, want one duplicate left out", m, err)
	}
	// A different value of a known field: the UWT negated.
	changed := bytes.Replace(seven, []byte(`"uwt":`), []byte(`"uwt":-`), 1)
	if err := os.WriteFile(second, changed, 0o644); err != nil {
		t.Fatal(err)
	}
	var inc *IncompleteError
	if _, err := Merge(dir); !errors.As(err, &inc) || !slices.Equal(inc.Conflicting, []int{7}) ||
		!slices.Equal(inc.Files, []string{ResultFile(1, 2)}) || !strings.Contains(err.Error(), ResultFile(1, 2)) {
		t.Fatalf("merge: %v, want task 7 conflicting in %s", err, ResultFile(1, 2))
	}
	if _, err := Run(context.Background(), st, dir, &Settings{Shard: 1, Shards: 2}); err != nil {
		t.Fatal(err)
	}
	if csv, js := merged(t, dir); !bytes.Equal(csv, csv0) || !bytes.Equal(js, js0) {
		t.Error("merged table after the rerun differs from the first run's")
	}
}

// TestStreamedJSON checks that WriteMerged's streamed JSON is the bytes
// encoding/json writes for the whole table (Table.WriteJSON of Merge).
func TestStreamedJSON(t *testing.T) {
	st := loadStudy(t, "small-study.json")
	dir := runStudy(t, st)
	_, js := merged(t, dir)
	tab, err := Merge(dir)
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	if err := tab.WriteJSON(&want); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(js, want.Bytes()) {
		t.Errorf("streamed JSON differs from encoding/json's:\n%s\nwant\n%s", js, want.Bytes())
	}
}

// TestFailedTaskRow: a task that fails (a base scenario described for 4
// processor counts asked for 6) writes its error in its row, the other
// tasks run, merge writes the table and reports the failure, and a rerun
// tries the failed task again.
func TestFailedTaskRow(t *testing.T) {
	dir := t.TempDir()
	base := filepath.Join(dir, "four.json")
	if err := os.WriteFile(base, []byte(`{"system": {"processors": 4, "mttf": "20d", "mttr": "1h"},
		"application": {"work_rate": [1, 1.9, 2.7, 3.4], "checkpoint_latency": 60, "recovery": 30}, "policy": "greedy"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	st, err := Parse(strings.NewReader(`{"name": "f", "compute": ["optimize"], "scenarios": {"base": "four.json", "processors": [2, 6, 3]}}`), dir)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	sum, err := Run(context.Background(), st, out, &Settings{Workers: 1})
	if err != nil || sum.Done != 3 || sum.Failed != 1 {
		t.Fatalf("run: %+v, %v, want 3 tasks run, 1 failed", sum, err)
	}
	m, err := WriteMerged(out)
	if err != nil || !slices.Equal(m.Failed, []int{1}) {
		t.Fatalf("merge: %+v, %v, want task 1 failed", m, err)
	}
	tab, err := Merge(out)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range tab.Records {
		if failedRow := r.Error != ""; failedRow != (i == 1) || (i != 1 && r.UWT == nil) {
			t.Errorf("task %d: error %q, uwt %v", i, r.Error, r.UWT)
		}
	}
	if r := tab.Records[1]; r.Status != Failed || !strings.Contains(r.Error, "described for 4") {
		t.Errorf("failed row: status %q, error %q", r.Status, r.Error)
	}
	// The rerun tries the failed task again; it fails again, now with
	// another error (the base changed), which the merged row shows.
	if err := os.WriteFile(base, []byte(`{"system": {"processors": 5, "mttf": "20d", "mttr": "1h"},
		"application": {"work_rate": [1, 1.9, 2.7, 3.4, 4], "checkpoint_latency": 60, "recovery": 30}, "policy": "greedy"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	again, err := Run(context.Background(), st, out, nil)
	if err != nil || again.Skipped != 2 || again.Done != 1 || again.Failed != 1 {
		t.Errorf("rerun: %+v, %v, want 2 skipped and the failed task tried again", again, err)
	}
	if tab, err = Merge(out); err != nil || !strings.Contains(tab.Records[1].Error, "described for 5") {
		t.Errorf("merge after the rerun: %v, want the rerun's error: %+v", err, tab)
	}
	// The next rerun tidies the first failure away before appending its
	// own.
	if _, err := Run(context.Background(), st, out, nil); err != nil {
		t.Fatal(err)
	}
	if counts := lineCounts(t, st, out); !slices.Equal(counts, []int{1, 2, 1}) {
		t.Errorf("lines per task %v, want 1, 2, 1 (the last failure and the new one)", counts)
	}
}

// TestNewStudyAfterFailedRun: a study whose trace is missing fails every
// task; the fixed study (another file) is accepted in the same directory,
// which holds no finished task, and the old failures are set aside. A
// directory with a finished task of another study is refused.
func TestNewStudyAfterFailedRun(t *testing.T) {
	dir := t.TempDir()
	bad, err := Parse(strings.NewReader(`{"name": "t", "compute": ["evaluate"], "traces": {"generic": ["missing.txt"], "applications": ["qr"]}}`), dir)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	sum, err := Run(context.Background(), bad, out, nil)
	if err != nil || sum.Failed != sum.Done || sum.Done == 0 {
		t.Fatalf("run with a missing trace: %+v, %v, want every task failed", sum, err)
	}
	good := loadStudy(t, "small-study.json")
	if _, err := Run(context.Background(), good, out, &Settings{Shard: 0, Shards: 4}); err != nil {
		t.Fatalf("the fixed study in the directory of a failed run: %v", err)
	}
	if aside, _ := filepath.Glob(filepath.Join(out, "replaced-*-results-0-of-1.jsonl")); len(aside) != 1 {
		t.Errorf("old result files set aside: %v, want one", aside)
	}
	if _, err := Run(context.Background(), bad, out, nil); err == nil || !strings.Contains(err.Error(), "another study") {
		t.Errorf("the first study over finished results of another: %v", err)
	}
}

// TestMergeNoResults: merge of a directory that holds no study copy says
// what is missing, not "open …/study.json: no such file".
func TestMergeNoResults(t *testing.T) {
	dir := t.TempDir()
	for _, d := range []string{dir, filepath.Join(dir, "nothing")} {
		_, err := WriteMerged(d)
		if err == nil || strings.Contains(err.Error(), "open ") || !strings.Contains(err.Error(), d) {
			t.Errorf("merge of %s: %v", d, err)
		}
	}
	if _, err := WriteMerged(dir); err == nil || !strings.Contains(err.Error(), "holds no results") || !strings.Contains(err.Error(), StudyFile) {
		t.Errorf("merge of an empty directory: %v", err)
	}
}

// TestStatusSpelling: the status column has one spelling, the Go
// identifiers' CamelCase of every package's statuses (issue 21: sim's
// "fixed horizon" beside uwt's "Converged" in one column).
func TestStatusSpelling(t *testing.T) {
	st := loadStudy(t, "small-study.json")
	tab := runMerged(t, st)
	seen := map[string]bool{}
	for _, r := range tab.Records {
		seen[r.Status] = true
	}
	for s := range seen {
		if s == "" || strings.ContainsRune(s, ' ') || s[:1] != strings.ToUpper(s[:1]) {
			t.Errorf("status %q in the merged table", s)
		}
	}
	if !seen["Converged"] || !seen["Fixed"] {
		t.Errorf("statuses %v, want optimize's Converged and simulate's Fixed", seen)
	}
}

// TestMergeManyShards merges a study run in more shards than each keeps
// files open (64): every record in task order, the single run's table.
func TestMergeManyShards(t *testing.T) {
	st := parse(t, `{"name": "m", "seed": 5, "compute": ["uwt"], "scenarios": {"application": "qr",
		"processors": [2, 3, 4, 5], "mttf": ["5d", "10d", "20d", "40d"], "mttr": ["1h"], "intervals": ["1h", "2h", "3h", "4h", "5h"]}}`)
	csv0, js0 := reference(t, st)
	dir := t.TempDir()
	const shards = 70
	for k := range shards {
		if _, err := Run(context.Background(), st, dir, &Settings{Shard: k, Shards: shards, Workers: 1}); err != nil {
			t.Fatal(err)
		}
	}
	if files, _ := filepath.Glob(filepath.Join(dir, "results-*.jsonl")); len(files) != shards {
		t.Fatalf("%d result files, want %d", len(files), shards)
	}
	if csv, js := merged(t, dir); !bytes.Equal(csv, csv0) || !bytes.Equal(js, js0) {
		t.Error("merged table of 70 shards differs from a single run's")
	}
}

// TestMergeStrictLines: a result line with a field the toolkit does not
// write is refused by merge, naming the file.
func TestMergeStrictLines(t *testing.T) {
	st := parse(t, `{"name": "s", "compute": ["uwt"], "scenarios": {"application": "qr", "processors": [2], "mttf": ["5d"], "mttr": ["1h"], "intervals": ["1h"]}}`)
	dir := runStudy(t, st)
	path := filepath.Join(dir, ResultFile(0, 1))
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, bytes.Replace(data, []byte(`"record":{`), []byte(`"record":{"sim_uwt_x":1,`), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Merge(dir); err == nil || !strings.Contains(err.Error(), "unknown field") || !strings.Contains(err.Error(), ResultFile(0, 1)) {
		t.Errorf("merge of a line with an unknown field: %v", err)
	}
}
