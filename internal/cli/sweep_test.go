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
  "slurm": {"partition": "short", "mem": "1G"}}`

// TestSweepCommands runs a study in one process and in two shards, merges
// both and compares the files; merge of an incomplete directory lists the
// missing tasks and exits 1.
func TestSweepCommands(t *testing.T) {
	study := writeFile(t, "study.json", sweepStudy)
	one, two := t.TempDir(), t.TempDir()
	out := mustRun(t, "sweep", "run", study, "--out", one)
	if !strings.Contains(out, "4 tasks, 0 already done, 4 run now") {
		t.Errorf("sweep run printed %q", out)
	}
	mustRun(t, "sweep", "run", study, "--out", two, "--shard", "0/2")
	_, errOut, code := run(t, "sweep", "merge", two)
	if code != 1 || !strings.Contains(errOut, "2 tasks missing") {
		t.Errorf("merge of half a study: exit %d, stderr %q", code, errOut)
	}
	mustRun(t, "sweep", "run", study, "--out", two, "--shard", "1/2")
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
	// --mem overrides the study's, the partition comes from the study.
	for _, want := range []string{"--array=0-2", "--partition=short", "--mem=2G", "/opt/bin/markov sweep run " + study + " --shard auto/3 --out " + dir} {
		if !strings.Contains(string(script), want) {
			t.Errorf("script lacks %q:\n%s", want, script)
		}
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
