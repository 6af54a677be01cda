package cli_test

import (
	"context"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/ckpt-markov/markov/replication"
	"github.com/ckpt-markov/markov/scenario"
)

// sixVolatile is a small volatile pool (MTTF 2 h, MTTR 2 h, checkpoints of
// 10 minutes) where replication pays: a = 6 processes × r = 1 lose most
// of their work to interruptions.
const sixVolatile = `{
  "system": {"processors": 6, "mttf": "2h", "mttr": "2h"},
  "application": {"work_rate": [1, 2, 3, 4, 5, 6], "checkpoint_latency": 600, "recovery": 600},
  "policy": "greedy"
}`

type replicasPair struct {
	Processes    int     `json:"processes"`
	Replicas     int     `json:"replicas"`
	Processors   int     `json:"processors"`
	Interval     float64 `json:"interval"`
	UWT          float64 `json:"uwt"`
	Availability float64 `json:"availability"`
}

// TestOptimizeReplicasAuto: the r = 1 column must be the best moldable
// count, which package uwt finds through optimize --policy moldable:A
// (another chain, another optimiser; UWT is flat at its maximum, so the
// two agree to far better than the 1e−6 allowed); the joint best must be
// at least as good and use at most N processors. On this pool it must
// replicate; the value of the replicated optimum itself is package
// replication's, checked there against package sim's replicated runs
// (TestAgainstSimulation).
func TestOptimizeReplicasAuto(t *testing.T) {
	path := writeFile(t, "six.json", sixVolatile)
	var got struct {
		Best      replicasPair  `json:"best"`
		Single    *replicasPair `json:"single"`
		Evaluated int           `json:"evaluated"`
		Pruned    int           `json:"pruned"`
		Skipped   int           `json:"skipped"`
	}
	out := runJSON(t, &got, "optimize", "--scenario", path, "--replicas", "auto", "--rel-tol", "1e-8")
	requireKeys(t, out, "scenario", "best", "single", "evaluated", "pruned", "skipped", "max_states")
	if got.Single == nil {
		t.Fatal("no single-replica choice")
	}
	bestA, bestU := 0, math.Inf(-1)
	for a := 1; a <= 6; a++ {
		var o struct {
			UWT float64 `json:"uwt"`
		}
		runJSON(t, &o, "optimize", "--scenario", path, "--policy", "moldable:"+strconv.Itoa(a), "--rel-tol", "1e-8")
		if o.UWT > bestU {
			bestA, bestU = a, o.UWT
		}
	}
	s := got.Single
	if s.Replicas != 1 || s.Processes != bestA || math.Abs(s.UWT-bestU) > 1e-6*bestU {
		t.Errorf("r = 1 column: a = %d r = %d UWT %.10g; optimize --policy moldable: a = %d UWT %.10g", s.Processes, s.Replicas, s.UWT, bestA, bestU)
	}
	b := got.Best
	if b.UWT < s.UWT || b.Processors != b.Processes*b.Replicas || b.Processors > 6 || b.Replicas < 1 {
		t.Errorf("best %+v against r = 1 %+v", b, *s)
	}
	if b.Replicas < 2 {
		t.Errorf("best %+v: want a replicated choice on this pool", b)
	}
	// Every pair of r = 1 … 6 with a·r ≤ 6: 6 + 3 + 2 + 1 + 1 + 1.
	if got.Evaluated+got.Pruned+got.Skipped != 14 {
		t.Errorf("evaluated %d + pruned %d + skipped %d, want 14 pairs", got.Evaluated, got.Pruned, got.Skipped)
	}
	text := mustRun(t, "optimize", "--scenario", path, "--replicas", "auto")
	for _, want := range []string{"best with r = 1", "Replicas r", "Interval I*", "pairs optimised"} {
		if !strings.Contains(text, want) {
			t.Errorf("text output lacks %q:\n%s", want, text)
		}
	}
	csv := mustRun(t, "optimize", "--scenario", path, "--replicas", "auto", "--csv")
	if lines := strings.Split(strings.TrimSpace(csv), "\n"); len(lines) != 3 || !strings.HasPrefix(lines[0], "choice,replicas,processes") {
		t.Errorf("csv:\n%s", csv)
	}
}

// TestOptimizeReplicasFlags: --replicas takes only auto, and not with the
// flags it ignores; each is a usage error (exit 2) naming the flag.
func TestOptimizeReplicasFlags(t *testing.T) {
	path := writeFile(t, "six.json", sixVolatile)
	for _, c := range []struct {
		args []string
		flag string
	}{
		{[]string{"--replicas", "2"}, "--replicas"},
		{[]string{"--replicas", strings.Repeat("x", 500)}, "--replicas"},
		{[]string{"--replicas", "auto", "--policy", "optimal"}, "--replicas"},
		{[]string{"--replicas", "auto", "--scan"}, "--scan"},
		{[]string{"--replicas", "auto", "--exact"}, "--exact"},
		{[]string{"--replicas", "auto", "--band", "0.05"}, "--band"},
	} {
		_, stderr, code := run(t, append([]string{"optimize", "--scenario", path}, c.args...)...)
		if code != 2 || !strings.Contains(stderr, c.flag) || len(stderr) > 400 {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 naming %s", c.args, code, stderr, c.flag)
		}
	}
}

// TestOptimizeReplicasTooLarge: a pool with more (a, r) pairs than
// replication.MaxPairs is a usage error naming --processors (exit 2),
// before anything is solved, not a search silently cut short.
func TestOptimizeReplicasTooLarge(t *testing.T) {
	path := writeFile(t, "huge.json", `{
  "system": {"processors": 1048576, "mttf": "8h", "mttr": "4h"},
  "application": {"work_rate": {"constant": 0, "per_processor": 1}, "checkpoint_latency": "10m", "recovery": "10m"},
  "policy": "greedy"
}`)
	_, stderr, code := run(t, "optimize", "--scenario", path, "--replicas", "auto")
	if code != 2 || !strings.Contains(stderr, "--processors") || !strings.Contains(stderr, "pairs") || len(stderr) > 400 {
		t.Errorf("exit %d, stderr %q; want exit 2 naming --processors", code, stderr)
	}
}

// volunteerPairs is docs/examples/volunteer-replicas.json run the way
// optimize --replicas auto chooses there: 4 processes × 2 replicas.
const volunteerPairs = `{
  "system": {"processors": 12, "mttf": "8h", "mttr": "4h"},
  "application": {"work_rate": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12],
    "checkpoint_latency": "10m", "recovery": "10m", "replicas": 2},
  "policy": "moldable:8"
}`

// TestSimulateReplicas: simulate with application.replicas = 2 prints
// package replication's exact UWT beside package sim's replicated runs
// (two independent computations of one process), and the model must lie
// in the simulation's 99 % interval. Power: the same interval must
// exclude the model with one replica (4 unreplicated processes at the same
// interval) and the best unreplicated choice (6 processes at their own
// interval, 2.5285 work/s by optimize --replicas auto's r = 1 column,
// recomputed here through the package), so the simulation does confirm
// that replication wins on this pool.
func TestSimulateReplicas(t *testing.T) {
	path := writeFile(t, "pairs.json", volunteerPairs)
	var got struct {
		Interval     float64 `json:"interval"`
		UWT          float64 `json:"uwt"`
		UWTHalfWidth float64 `json:"uwt_half_width"`
		ModelUWT     float64 `json:"model_uwt"`
		ModelInCI    bool    `json:"model_in_ci"`
		Status       string  `json:"status"`
	}
	runJSON(t, &got, "simulate", "--scenario", path, "--seed", "3")
	if !got.ModelInCI || math.Abs(got.UWT-got.ModelUWT) > got.UWTHalfWidth {
		t.Errorf("model %.6g outside the simulation's %.6g ± %.2g (%s)", got.ModelUWT, got.UWT, got.UWTHalfWidth, got.Status)
	}
	one := replication.Model{Processors: 12, Processes: 4, Replicas: 1, MTTF: 8 * 3600, MTTR: 4 * 3600,
		WorkRate: 4, Latency: 600, Overhead: 600, Recovery: 600}
	r1, err := one.UWT(got.Interval)
	if err != nil {
		t.Fatal(err)
	}
	sc, err := scenario.Parse(strings.NewReader(unreplicated(volunteerPairs)), nil)
	if err != nil {
		t.Fatal(err)
	}
	single, err := replication.Best(context.Background(), sc, 1, 1e-6, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, alt := range []float64{r1.UWT, single.UWT} {
		if math.Abs(got.UWT-alt) <= got.UWTHalfWidth {
			t.Errorf("the simulation's %.6g ± %.2g also holds %.6g: no power", got.UWT, got.UWTHalfWidth, alt)
		}
	}
}

// unreplicated drops the replication degree and the policy that need it (Best
// ignores both, but the file must parse on its own).
func unreplicated(s string) string {
	return strings.NewReplacer(`, "replicas": 2`, ``, `"moldable:8"`, `"greedy"`).Replace(s)
}

// TestSimulateReplicasErrors: the replicated model needs a moldable
// policy on a multiple of r processors (a data error, exit 1, naming
// application.replicas); the uwt model's flags are usage errors.
func TestSimulateReplicasErrors(t *testing.T) {
	for _, c := range []struct {
		policy, flag string
		code         int
		want         string
	}{
		{"greedy", "", 1, "application.replicas"},
		{"moldable:7", "", 1, "application.replicas"},
		{"moldable:8", "--exact", 2, "--exact"},
	} {
		path := writeFile(t, "p.json", strings.Replace(volunteerPairs, `"moldable:8"`, `"`+c.policy+`"`, 1))
		args := []string{"simulate", "--scenario", path, "--interval", "1h", "--replications", "2", "--horizon", "1d", "--rel-tol", "-1"}
		if c.flag != "" {
			args = append(args, c.flag)
		}
		_, stderr, code := run(t, args...)
		if code != c.code || !strings.Contains(stderr, c.want) {
			t.Errorf("%s %s: exit %d, stderr %q; want exit %d naming %s", c.policy, c.flag, code, stderr, c.code, c.want)
		}
	}
}
