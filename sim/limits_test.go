package sim

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/ckpt-markov/markov/scenario"
)

// TestRunNoCommits checks that a run in which no segment commits is not
// reported as converged (its 0 ± 0 says nothing about precision), and that
// a run whose segments essentially never complete stops after
// NoCommitInterruptions interruptions instead of extending to MaxHorizon.
func TestRunNoCommits(t *testing.T) {
	const n = 4
	app := scenario.Application{WorkRate: linear(n), Latency: constant(n, 60), Overhead: constant(n, 60), Recovery: scenario.RecoveryConstant(30, n)}
	sc, err := scenario.New(scenario.System{Processors: n, MTTF: 1e5, MTTR: 1e3}, app, scenario.Policy{Kind: scenario.Greedy})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name     string
		interval float64
		set      Settings
	}{
		// A horizon of 1 s holds no segment of 1 h: nothing commits in
		// one stage.
		{"horizon below one segment", 3600, Settings{Horizon: 1, Seed: 1, RelTol: -1}},
		// I = 50 MTTF: a segment on a ≥ 1 processors completes with
		// probability below e^{−50}. Two replications: the default
		// first stage is then 1000 segments (5·10⁹ s) whatever R, and
		// holds about 1.5·10⁵ interruptions a replication, far above
		// NoCommitInterruptions, so R = 2 takes the same branch as the
		// default R = 32 at a sixteenth of the work (34 s under -race).
		{"segments never complete", 50 * 1e5, Settings{Seed: 1, Replications: 2}},
		{"one stage", 50 * 1e5, Settings{Seed: 1, RelTol: -1, Replications: 2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			res, err := Run(ctx, sc, tc.interval, &tc.set)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("R = %d, horizon %v s, %d interruptions", res.Replications, res.Horizon, res.Failures)
			if res.Commits != 0 {
				t.Fatalf("%d commits, want 0", res.Commits)
			}
			if res.Status != NoCommits {
				t.Errorf("status %v, want %v", res.Status, NoCommits)
			}
		})
	}
	// With a precision target, a first stage without commits is extended
	// (before, 0 ± 0 met the target and was called converged).
	res, err := Run(context.Background(), sc, 3600, &Settings{Horizon: 1, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status == Converged && res.Commits == 0 {
		t.Errorf("converged with no commits: UWT %v ± %v", res.UWT.Mean, res.UWT.HalfWidth)
	}
}

// issue23Scenario is the scenario of issue 23's hangs (simulate -n 4):
// four processors, work rate a, latency and overhead 90 s, recovery
// 10 s, MTTF 9·10⁶ s (about 104 days), MTTR 3400 s, greedy.
func issue23Scenario(t *testing.T) *scenario.Scenario {
	t.Helper()
	const n = 4
	app := scenario.Application{WorkRate: linear(n), Latency: constant(n, 90), Overhead: constant(n, 90), Recovery: scenario.RecoveryConstant(10, n)}
	sc, err := scenario.New(scenario.System{Processors: n, MTTF: 9.0e6, MTTR: 3.4e3}, app, scenario.Policy{Kind: scenario.Greedy})
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// TestRunBoundedTime checks that the default MaxHorizon bounds the events
// a replication simulates: at I = 1 year on 4 processors failing every
// ~100 days (simulate -n 4 --interval 1y) a segment completes with
// probability about e^{−4·365/104} ≈ 10⁻⁶, the UWT's interval does not reach
// 1 %, and before the bound the run went on to 10⁴ first-stage horizons
// (10⁷ years a replication: it never returned). The run ends either
// without commits or at the bound.
func TestRunBoundedTime(t *testing.T) {
	if testing.Short() {
		t.Skip("a few seconds of CPU")
	}
	sc := issue23Scenario(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	interval := 365.25 * 86400.0
	res, err := Run(ctx, sc, interval, &Settings{Seed: 1, Replications: 8})
	if err != nil {
		t.Fatal(err)
	}
	if limit := MaxSteps / stepRate(sc, interval); res.Horizon > limit*(1+1e-9) {
		t.Errorf("horizon %v s, want ≤ %v s (MaxSteps events)", res.Horizon, limit)
	}
	if res.Status != HorizonLimit && res.Status != NoCommits {
		t.Errorf("status %v", res.Status)
	}
}

// TestRunHugeInterval is issue 23's hang: simulate -n 4 --interval 1e300
// asked for a first stage of 1000 segments, 10³⁰³ s of failures and
// repairs, and never returned. The default horizon is now bounded by the
// time of MaxSteps events (and MaxHorizonSeconds), and the run ends without
// commits.
func TestRunHugeInterval(t *testing.T) {
	sc := issue23Scenario(t)
	for _, interval := range []float64{1e14, 1e100, 1e300} {
		set, err := settings(sc, interval, &Settings{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		if limit := min(MaxSteps/stepRate(sc, interval), MaxHorizonSeconds); set.Horizon > limit || set.MaxHorizon > max(MaxSteps/stepRate(sc, interval), set.Horizon) {
			t.Errorf("I = %g: horizon %g s, max %g s, want ≤ %g s", interval, set.Horizon, set.MaxHorizon, limit)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	res, err := Run(ctx, sc, 1e300, &Settings{Seed: 1, Replications: 4})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != NoCommits {
		t.Errorf("status %v, want %v", res.Status, NoCommits)
	}
}

// TestRunCancelWithinStage checks that cancellation stops a run within a
// stage: a first stage of a thousand years on 64 processors failing every
// 100 s holds about 10¹² events, which the former 64 steps a stage
// split into pieces of hours of CPU between two looks at the context (the
// run ignored SIGINT). The test fails by its own timeout if the run does
// not stop.
func TestRunCancelWithinStage(t *testing.T) {
	const n = 64
	app := scenario.Application{WorkRate: linear(n), Latency: constant(n, 1), Overhead: constant(n, 1), Recovery: scenario.RecoveryConstant(1, n)}
	sc, err := scenario.New(scenario.System{Processors: n, MTTF: 100, MTTR: 10}, app, scenario.Policy{Kind: scenario.Greedy})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := Run(ctx, sc, 10, &Settings{Seed: 1, Replications: 2, Horizon: MaxHorizonSeconds, Warmup: -1, RelTol: -1, Workers: 1})
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("error %v, want context.DeadlineExceeded", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("the run did not stop a minute after its context was cancelled")
	}
	// A horizon over the limit is refused, naming it.
	_, err = Run(context.Background(), sc, 10, &Settings{Horizon: 1e9 * 365 * 86400})
	if err == nil || !strings.Contains(err.Error(), "3.15576e+10") {
		t.Errorf("horizon 1e9 years: error %v, want one naming the limit 3.15576e+10 s", err)
	}
}

// TestReplicationsLimit checks that a replication count beyond
// MaxReplications is refused before any timeline is allocated.
func TestReplicationsLimit(t *testing.T) {
	app := scenario.Application{WorkRate: linear(2), Latency: constant(2, 1), Overhead: constant(2, 1)}
	sc, err := scenario.New(scenario.System{Processors: 2, MTTF: 1e5, MTTR: 1e3}, app, scenario.Policy{Kind: scenario.Greedy})
	if err != nil {
		t.Fatal(err)
	}
	_, err = Run(context.Background(), sc, 100, &Settings{Replications: 2_000_000_000})
	if err == nil || !strings.Contains(err.Error(), "Replications") || !strings.Contains(err.Error(), "10000") {
		t.Errorf("2e9 replications: error %v, want one naming Replications and the limit 10000", err)
	}
}

// TestWarmupWaitingStart: with r(N) = 0 the application starts by waiting
// for failures; the default warm-up must cover that wait (Σ 1/(kλ) over
// the counts it waits through) and the first failure after it, ten times,
// where it used to count neither.
func TestWarmupWaitingStart(t *testing.T) {
	const mttf, mttr = 1e5, 1e3
	app := scenario.Application{WorkRate: linear(2), Latency: constant(2, 10), Overhead: constant(2, 10)}
	sc, err := scenario.New(scenario.System{Processors: 2, MTTF: mttf, MTTR: mttr}, app, scenario.Policy{Kind: scenario.Explicit, Explicit: []int{1, 0}})
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), sc, 100, &Settings{Seed: 1, RelTol: -1, Replications: 2})
	if err != nil {
		t.Fatal(err)
	}
	// Wait 1/(2λ) for the first failure, then 1/λ to a failure of the one
	// used processor.
	if want := 10 * (mttf/2 + mttf); res.Warmup < want {
		t.Errorf("warm-up %v s, want ≥ %v s", res.Warmup, want)
	}
}
