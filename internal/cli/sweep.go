package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/ckpt-markov/markov/sweep"
)

// newSweepCmd is markov sweep with its subcommands run, slurm and merge.
func newSweepCmd(e *env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "sweep",
		Short: "Run a study (a grid of scenarios or traces), sharded, locally or on Slurm",
		Long: `A study file (JSON) lists the axes to sweep (scenario parameters, or traces
with applications, policies and segment counts) and what to compute at each
point (optimize, uwt, simulate, evaluate). "sweep run" expands it into
numbered tasks and runs them, or one shard of them; "sweep slurm" writes
(and submits) a Slurm job array with one shard per array task; "sweep merge"
checks that every task has one result (an identical second copy counts
once) and writes the merged table.
Each task has its own seed, so the merged table is the same byte for byte
however the study was sharded. See the README for the study format.`,
		Example: `  markov sweep run study.json --out results
  markov sweep slurm study.json --tasks 100 --out /scratch/results --submit
  markov sweep merge /scratch/results`,
	}
	cmd.AddCommand(newSweepRunCmd(e), newSweepSlurmCmd(e), newSweepMergeCmd(e))
	return cmd
}

// sweepRunOptions are the flags of markov sweep run.
type sweepRunOptions struct {
	env     *env
	Shard   string
	Out     string
	Workers int
}

func newSweepRunCmd(e *env) *cobra.Command {
	opts := &sweepRunOptions{env: e}
	cmd := &cobra.Command{
		Use:   "run STUDY",
		Short: "Run a study's tasks, or one shard of them, skipping those done in --out",
		Long: `Run the tasks of the study (all of them, or shard K of N with --shard K/N,
K = 0 … N−1; --shard auto takes K from SLURM_ARRAY_TASK_ID) and write their
results to DIR/results-K-of-N.jsonl as they finish (appended and synced
under a lock: two runs of one shard lose and duplicate nothing). Tasks whose
result is already in DIR are skipped, so running a shard again resumes it;
a task that fails writes its error in its row and is tried again by a rerun.
Off a terminal, a line per task goes to stderr.`,
		Args: cobra.ExactArgs(1),
		RunE: e.runE(func(ctx context.Context, cmd *cobra.Command) error {
			return runSweepRun(ctx, cmd.Flags().Arg(0), opts)
		}),
	}
	f := cmd.Flags()
	f.StringVar(&opts.Shard, "shard", "", "run shard `K/N` only (0 ≤ K < N), or auto, auto/N in a Slurm job array")
	f.StringVar(&opts.Out, "out", "", "output `DIR` (required)")
	f.IntVar(&opts.Workers, "workers", 0, "tasks run at once (0: the CPUs Slurm granted, else one per CPU)")
	return cmd
}

func runSweepRun(ctx context.Context, path string, opts *sweepRunOptions) error {
	if opts.Out == "" {
		return flagError("out", "required, the output directory")
	}
	if opts.Workers < 0 {
		return flagError("workers", "%d, want 0 or more", opts.Workers)
	}
	set := &sweep.Settings{Workers: opts.Workers}
	if set.Workers == 0 {
		// In a Slurm allocation, the CPUs it granted (0 outside: one
		// worker per CPU).
		set.Workers = sweep.SlurmCPUs(os.Getenv)
	}
	if opts.Shard != "" {
		k, n, err := sweep.ParseShard(opts.Shard, os.Getenv)
		if err != nil {
			return flagError("shard", "%v", err)
		}
		set.Shard, set.Shards = k, n
	}
	st, err := sweep.Load(path)
	if err != nil {
		return err
	}
	// A batch log gets a line a task, so that it shows the shard's pace
	// before the shard ends.
	var finish func()
	set.Progress, finish = opts.env.stepProgress("running tasks", "sweep", "tasks")
	sum, err := sweep.Run(ctx, st, opts.Out, set)
	finish()
	if err == nil || sum.Done > 0 {
		fmt.Fprintf(opts.env.out, "%s: %d tasks, %d already done, %d run now", sum.File, sum.Tasks, sum.Skipped, sum.Done)
		if sum.Others > 0 {
			fmt.Fprintf(opts.env.out, ", %d done meanwhile by another run of the shard", sum.Others)
		}
		fmt.Fprintln(opts.env.out)
	}
	if err == nil && sum.Failed > 0 {
		err = fmt.Errorf("%d of the %d tasks run failed; their rows hold the error (markov sweep merge lists them) and a rerun tries them again", sum.Failed, sum.Done)
	}
	return err
}

// sweepSlurmOptions are the flags of markov sweep slurm.
type sweepSlurmOptions struct {
	env       *env
	Tasks     int
	Out       string
	Submit    bool
	Markov    string
	CPUs      int
	Partition string
	Time      string
	Mem       string
	Account   string
}

func newSweepSlurmCmd(e *env) *cobra.Command {
	opts := &sweepSlurmOptions{env: e}
	cmd := &cobra.Command{
		Use:   "slurm STUDY",
		Short: "Write (and submit) a Slurm job array that runs the study in --tasks shards",
		Long: `Write DIR/sweep.sbatch, a job array whose task i runs
"markov sweep run STUDY --shard auto/N --out DIR", and with --submit pass it to
sbatch. Slurm options come from the flags, or else from the study's "slurm"
object. A failed task is rerun with "sbatch --array=i DIR/sweep.sbatch";
it resumes where it stopped.`,
		Args: cobra.ExactArgs(1),
		RunE: e.runE(func(ctx context.Context, cmd *cobra.Command) error {
			return runSweepSlurm(ctx, cmd, cmd.Flags().Arg(0), opts)
		}),
	}
	f := cmd.Flags()
	f.IntVar(&opts.Tasks, "tasks", 0, "array tasks `N`, one shard each (required)")
	f.StringVar(&opts.Out, "out", "", "output `DIR` (required)")
	f.BoolVar(&opts.Submit, "submit", false, "submit the script with sbatch")
	f.StringVar(&opts.Markov, "markov", "", "the markov program on the compute nodes, its `PATH` (default: this one)")
	f.IntVar(&opts.CPUs, "cpus", 0, "CPUs per array task (sbatch --cpus-per-task; 0: the study's slurm.cpus, else Slurm's default); each task runs that many workers")
	f.StringVar(&opts.Partition, "partition", "", "Slurm partition `NAME`")
	f.StringVar(&opts.Time, "time", "", "`TIME` limit per task, as sbatch takes it (e.g. 2:00:00)")
	f.StringVar(&opts.Mem, "mem", "", "memory per task, a `SIZE` as sbatch takes it (e.g. 4G)")
	f.StringVar(&opts.Account, "account", "", "Slurm account `NAME`")
	return cmd
}

func runSweepSlurm(ctx context.Context, cmd *cobra.Command, path string, opts *sweepSlurmOptions) error {
	if opts.Out == "" {
		return flagError("out", "required, the output directory")
	}
	if opts.Tasks < 1 || opts.Tasks > sweep.MaxShards {
		return flagError("tasks", "%d, want 1 … %d", opts.Tasks, sweep.MaxShards)
	}
	st, err := sweep.Load(path)
	if err != nil {
		return err
	}
	if opts.CPUs < 0 || opts.CPUs > sweep.MaxCPUs {
		return flagError("cpus", "%d, want 1 … %d (0: the study's, else Slurm's default)", opts.CPUs, sweep.MaxCPUs)
	}
	job := sweep.Job{Name: st.Name, Tasks: opts.Tasks, CPUs: opts.CPUs, Markov: opts.Markov}
	if st.Slurm != nil {
		job.Options = *st.Slurm
	}
	for _, o := range []struct {
		flag string
		dst  *string
		v    string
	}{{"partition", &job.Options.Partition, opts.Partition}, {"time", &job.Options.Time, opts.Time}, {"mem", &job.Options.Mem, opts.Mem}, {"account", &job.Options.Account, opts.Account}} {
		if cmd.Flags().Changed(o.flag) {
			*o.dst = o.v
		}
	}
	if job.Markov == "" {
		if job.Markov, err = os.Executable(); err != nil {
			return err
		}
	}
	if job.Study, err = filepath.Abs(path); err != nil {
		return err
	}
	if job.Dir, err = filepath.Abs(opts.Out); err != nil {
		return err
	}
	script, err := job.Script()
	if err != nil {
		return usageError{err}
	}
	if err := os.MkdirAll(job.Dir, 0o755); err != nil {
		return err
	}
	file := filepath.Join(job.Dir, "sweep.sbatch")
	if err := os.WriteFile(file, []byte(script), 0o755); err != nil {
		return err
	}
	fmt.Fprintf(opts.env.out, "wrote %s (%d array tasks)\n", file, opts.Tasks)
	if !opts.Submit {
		return nil
	}
	out, err := exec.CommandContext(ctx, "sbatch", "--parsable", file).CombinedOutput()
	if err != nil {
		return fmt.Errorf("sbatch: %v: %s", err, strings.TrimSpace(string(out)))
	}
	fmt.Fprintf(opts.env.out, "submitted job %s\n", strings.TrimSpace(string(out)))
	return nil
}

// sweepMergeOptions are the flags of markov sweep merge.
type sweepMergeOptions struct {
	env  *env
	Plot sweepPlotOptions
}

func newSweepMergeCmd(e *env) *cobra.Command {
	opts := &sweepMergeOptions{env: e}
	cmd := &cobra.Command{
		Use:   "merge DIR",
		Short: "Check that every task has a result and write DIR/merged.csv and DIR/merged.json (exit 1 naming failed tasks)",
		Long: `Check that every task has a result and write DIR/merged.csv and
DIR/merged.json (exit 1 naming failed tasks).

--plot FILE draws a grid study: the UWT (or with --plot-value interval, the
I* of optimize tasks) of the study's first scenario computation over the
axes that vary, at most two: along the numeric axis with the most values,
one line per value of the other. Failed tasks are left out of their line.`,
		Example: `  markov sweep merge results
  markov sweep merge results --plot grid.svg --plot-value interval`,
		Args: cobra.ExactArgs(1),
		RunE: e.runE(func(ctx context.Context, cmd *cobra.Command) error {
			return runSweepMerge(cmd, cmd.Flags().Arg(0), opts)
		}),
	}
	opts.Plot.register(cmd)
	return cmd
}

func runSweepMerge(cmd *cobra.Command, dir string, opts *sweepMergeOptions) error {
	plot, err := opts.Plot.plot(cmd.Flags().Changed)
	if err != nil {
		return err
	}
	m, err := sweep.WriteMerged(dir)
	var inc *sweep.IncompleteError
	if errors.As(err, &inc) {
		return fmt.Errorf("%w; rerun the shards (markov sweep run STUDY --shard K/N --out %s): a rerun runs the missing tasks and tidies its shard's file", err, dir)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(opts.env.out, "%d tasks merged into %s and %s\n", m.Tasks,
		filepath.Join(dir, sweep.MergedCSV), filepath.Join(dir, sweep.MergedJSON))
	if m.Duplicates > 0 {
		fmt.Fprintf(opts.env.out, "%d second copies of a result left out (two runs of one task)\n", m.Duplicates)
	}
	if plot.Path != "" {
		if err := drawSweep(dir, m.Tasks, plot, opts.Plot.Value); err != nil {
			return err
		}
		fmt.Fprintf(opts.env.out, "Plot written to %s\n", plot.Path)
	}
	if len(m.Failed) > 0 {
		return fmt.Errorf("%d of %d tasks failed (their error is in the merged files' error column): %s; fix the cause and rerun their shards, which try them again",
			len(m.Failed), m.Tasks, taskList(m.Failed))
	}
	return nil
}

// taskList formats task numbers, the first 20 of them.
func taskList(ts []int) string {
	var b strings.Builder
	for i, t := range ts[:min(len(ts), 20)] {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprint(&b, t)
	}
	if len(ts) > 20 {
		fmt.Fprintf(&b, " and %d more", len(ts)-20)
	}
	return b.String()
}
