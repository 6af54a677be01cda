package cli_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// sweepStudy is a four-task study: the optimum for two MTTFs and two
// policies of the CG benchmark on 8 processors.
const sweepStudy = `{"name": "cli", "seed": 9, "compute": ["optimize"],
  "scenarios": {"application": "cg", "processors": [8], "mttf": ["20d", "40d"], "mttr": ["1h"], "policies": ["greedy", "pb"]},
  "slurm": {"partition": "short", "mem": "1G", "cpus": 3}}`

// TestSweepCommands runs a study in one process and in two shards, merges
// both and compares the files; merge of an incomplete directory lists the
// missing tasks and exits 1.
func TestSweepCommands(t *testing.T) {
	study := writeFile(t, "study.json", sweepStudy)
	one, two := t.TempDir(), t.TempDir()
	out, errOut, code := run(t, "sweep", "run", study, "--out", one)
	if code != 0 || !strings.Contains(out, "4 tasks, 0 already done, 4 run now") {
		t.Errorf("sweep run: exit %d, printed %q", code, out)
	}
	// Not on a terminal (a batch log): a line a task on stderr, at most
	// ten a second, the first and the last always.
	if !strings.HasPrefix(errOut, "sweep: 1 of 4 tasks done\n") || !strings.HasSuffix(errOut, "sweep: 4 of 4 tasks done\n") || strings.Count(errOut, "\n") > 4 {
		t.Errorf("sweep run's stderr off a terminal: %q, want a line a task", errOut)
	}
	if _, _, code := run(t, "sweep", "run", study, "--out", two, "--shard", "0/2"); code != 0 {
		t.Fatalf("shard 0/2: exit %d", code)
	}
	_, errOut, code = run(t, "sweep", "merge", two)
	if code != 1 || !strings.Contains(errOut, "2 tasks missing") {
		t.Errorf("merge of half a study: exit %d, stderr %q", code, errOut)
	}
	if _, _, code := run(t, "sweep", "run", study, "--out", two, "--shard", "1/2"); code != 0 {
		t.Fatalf("shard 1/2: exit %d", code)
	}
	mustRun(t, "sweep", "merge", one)
	mustRun(t, "sweep", "merge", two)
	for _, f := range []string{"merged.csv", "merged.json"} {
		a, err1 := os.ReadFile(filepath.Join(one, f))
		b, err2 := os.ReadFile(filepath.Join(two, f))
		if err1 != nil || err2 != nil || !bytes.Equal(a, b) || len(a) == 0 {
			t.Errorf("%s: one process and two shards differ (%v, %v)", f, err1, err2)
		}
	}
}

func TestSweepSlurmScript(t *testing.T) {
	study := writeFile(t, "study.json", sweepStudy)
	dir := t.TempDir()
	mustRun(t, "sweep", "slurm", study, "--tasks", "3", "--out", dir, "--mem", "2G", "--markov", "/opt/bin/markov")
	script, err := os.ReadFile(filepath.Join(dir, "sweep.sbatch"))
	if err != nil {
		t.Fatal(err)
	}
	// --mem overrides the study's, the partition and the CPUs come from
	// the study.
	for _, want := range []string{"--array=0-2", "--partition=short", "--mem=2G", "--cpus-per-task=3", "/opt/bin/markov sweep run " + study + " --shard auto/3 --out " + dir} {
		if !strings.Contains(string(script), want) {
			t.Errorf("script lacks %q:\n%s", want, script)
		}
	}
}

// TestSweepMergeMessages: merge of a directory without results says what
// it lacks; merge of a study with a failed task writes the table, names
// the task and exits 1.
func TestSweepMergeMessages(t *testing.T) {
	dir := t.TempDir()
	_, errOut, code := run(t, "sweep", "merge", dir)
	if code != 1 || !strings.Contains(errOut, "holds no results") || strings.Contains(errOut, "no such file") {
		t.Errorf("merge of an empty directory: exit %d, stderr %q", code, errOut)
	}
	base := writeFile(t, "four.json", `{"system": {"processors": 4, "mttf": "20d", "mttr": "1h"},
		"application": {"work_rate": [1, 1.9, 2.7, 3.4], "checkpoint_latency": 60, "recovery": 30}, "policy": "greedy"}`)
	study := writeFile(t, "fail.json", `{"name": "f", "compute": ["optimize"], "scenarios": {"base": "`+base+`", "processors": [2, 6]}}`)
	out := filepath.Join(dir, "out")
	if _, errOut, code := run(t, "sweep", "run", study, "--out", out); code != 1 || !strings.Contains(errOut, "1 of the 2 tasks run failed") {
		t.Errorf("run with a failing task: exit %d, stderr %q", code, errOut)
	}
	_, errOut, code = run(t, "sweep", "merge", out)
	if code != 1 || !strings.Contains(errOut, "1 of 2 tasks failed") || !strings.Contains(errOut, ": 1;") {
		t.Errorf("merge with a failed task: exit %d, stderr %q", code, errOut)
	}
	if csv, err := os.ReadFile(filepath.Join(out, "merged.csv")); err != nil || !strings.Contains(string(csv), `Failed,"task 1 (optimize n=6): 6 processors`) {
		t.Errorf("merged.csv: %v\n%s", err, csv)
	}
}

func TestSweepUsageErrors(t *testing.T) {
	study := writeFile(t, "study.json", sweepStudy)
	t.Setenv("SLURM_ARRAY_TASK_ID", "")
	for _, args := range [][]string{
		{"sweep", "run", study},
		{"sweep", "run", study, "--out", t.TempDir(), "--shard", "2/2"},
		{"sweep", "run", study, "--out", t.TempDir(), "--shard", "auto"},
		{"sweep", "slurm", study, "--out", t.TempDir()},
		{"sweep", "slurm", study, "--out", t.TempDir(), "--tasks", "2", "--time", "1:00 ; reboot"},
		{"sweep", "merge"},
	} {
		if _, errOut, code := run(t, args...); code != 2 {
			t.Errorf("markov %s: exit %d, want 2 (usage); stderr %q", strings.Join(args, " "), code, errOut)
		}
	}
	bad := writeFile(t, "bad.json", `{"name": "x", "compute": ["optimize"], "scenarios": {"application": "qr", "processors": [4], "mttf": ["-1d"], "mttr": ["1h"]}}`)
	if _, errOut, code := run(t, "sweep", "run", bad, "--out", t.TempDir()); code != 1 || !strings.Contains(errOut, "scenarios.mttf[0]") {
		t.Errorf("bad study: exit %d, stderr %q", code, errOut)
	}
}
