package sweep

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/ckpt-markov/markov/internal/quote"
)

// Job describes a Slurm job array that runs a study, one shard per array
// task.
type Job struct {
	// Name is the job name (the study's name).
	Name string
	// Markov, Study and Dir are the paths of the markov program, the
	// study file and the output directory, as the compute nodes see them.
	Markov, Study, Dir string
	// Tasks is the number of array tasks, and of shards.
	Tasks int
	// Options are the sbatch options; empty ones are left out.
	Options SlurmSettings
	// CPUs is the number of CPUs per task (sbatch --cpus-per-task); 0
	// takes Options.CPUs, and 0 there leaves it out.
	CPUs int
}

// Script returns the sbatch script of the job array: task i runs
// "markov sweep run STUDY --shard auto/N --out DIR", which reads i from
// SLURM_ARRAY_TASK_ID. The shard count is written into the script, so
// that resubmitting one task ("sbatch --array=i SCRIPT") reruns shard i
// of the same N.
func (j Job) Script() (string, error) {
	if j.Tasks < 1 || j.Tasks > MaxShards {
		return "", fmt.Errorf("sweep: tasks = %d, want 1 … %d", j.Tasks, MaxShards)
	}
	if j.CPUs < 0 || j.CPUs > MaxCPUs {
		return "", fmt.Errorf("sweep: cpus = %d, want 0 … %d", j.CPUs, MaxCPUs)
	}
	cpus := j.CPUs
	if cpus == 0 {
		cpus = j.Options.CPUs
	}
	if err := j.Options.Validate(); err != nil {
		return "", err
	}
	for _, p := range []struct{ field, v string }{{"markov", j.Markov}, {"study", j.Study}, {"out", j.Dir}} {
		if p.v == "" || strings.ContainsAny(p.v, "\n\r\x00") {
			return "", fmt.Errorf("sweep: %s path %s is empty or holds a line break", p.field, quote.Value(p.v))
		}
	}
	var b strings.Builder
	b.WriteString("#!/bin/bash\n")
	fmt.Fprintf(&b, "#SBATCH --job-name=%s\n", j.Name)
	fmt.Fprintf(&b, "#SBATCH --array=0-%d\n", j.Tasks-1)
	fmt.Fprintf(&b, "#SBATCH --output=%s\n", shellQuote(j.Dir+"/slurm-%A_%a.out"))
	for _, o := range []struct{ flag, v string }{{"partition", j.Options.Partition}, {"time", j.Options.Time}, {"mem", j.Options.Mem}, {"account", j.Options.Account}} {
		if o.v != "" {
			fmt.Fprintf(&b, "#SBATCH --%s=%s\n", o.flag, o.v)
		}
	}
	if cpus > 0 {
		fmt.Fprintf(&b, "#SBATCH --cpus-per-task=%d\n", cpus)
	}
	b.WriteString("set -eu\n")
	fmt.Fprintf(&b, "exec %s sweep run %s --shard auto/%d --out %s\n",
		shellQuote(j.Markov), shellQuote(j.Study), j.Tasks, shellQuote(j.Dir))
	return b.String(), nil
}

// shellQuote quotes s for a POSIX shell.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./%:=+,@", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// ParseShard reads a shard as "K/N" (0 ≤ K < N), "auto/N" or "auto"; auto
// takes K from the environment variable SLURM_ARRAY_TASK_ID and, without
// N, N from SLURM_ARRAY_TASK_COUNT, through getenv.
func ParseShard(s string, getenv func(string) string) (k, n int, err error) {
	ks, ns, hasN := strings.Cut(strings.TrimSpace(s), "/")
	if ks == "auto" {
		id := getenv("SLURM_ARRAY_TASK_ID")
		if id == "" {
			return 0, 0, fmt.Errorf("shard %s: SLURM_ARRAY_TASK_ID is not set (not in a Slurm job array)", quote.Value(s))
		}
		if ks = id; !hasN {
			if ns = getenv("SLURM_ARRAY_TASK_COUNT"); ns == "" {
				return 0, 0, fmt.Errorf("shard %s: SLURM_ARRAY_TASK_COUNT is not set; give auto/N", quote.Value(s))
			}
		}
	} else if !hasN {
		return 0, 0, fmt.Errorf("shard %s, want K/N, auto/N or auto", quote.Value(s))
	}
	k, err1 := strconv.Atoi(ks)
	n, err2 := strconv.Atoi(ns)
	if err1 != nil || err2 != nil {
		return 0, 0, fmt.Errorf("shard %s (task %s of %s), want integers K/N", quote.Value(s), quote.Value(ks), quote.Value(ns))
	}
	if n < 1 || n > MaxShards || k < 0 || k >= n {
		return 0, 0, fmt.Errorf("shard %d/%d, want 0 ≤ K < N ≤ %d", k, n, MaxShards)
	}
	return k, n, nil
}

// SlurmCPUs returns the CPUs Slurm granted this job step, read through
// getenv: SLURM_CPUS_PER_TASK (set when the job asked for
// --cpus-per-task), else the first count of SLURM_JOB_CPUS_PER_NODE (such
// as "4" or "4(x2),2"); 0 outside Slurm or when neither is a positive
// count. An array task runs that many workers, not one per CPU of the
// node.
func SlurmCPUs(getenv func(string) string) int {
	if n, err := strconv.Atoi(strings.TrimSpace(getenv("SLURM_CPUS_PER_TASK"))); err == nil && n > 0 {
		return n
	}
	v := getenv("SLURM_JOB_CPUS_PER_NODE")
	if i := strings.IndexAny(v, "(,"); i >= 0 {
		v = v[:i]
	}
	if n, err := strconv.Atoi(strings.TrimSpace(v)); err == nil && n > 0 {
		return n
	}
	return 0
}
