package sim

import (
	"context"
	"math"
	"math/rand/v2"

	"testing"

	"gonum.org/v1/gonum/integrate/quad"

	"github.com/ckpt-markov/markov/intervals"
	"github.com/ckpt-markov/markov/scenario"
)

// replicatedScenario is a logical processes with r replicas each on N
// processors (moldable on a·r), ω(a) = a, L = C = 0 and free recovery, so
// that a segment of I seconds always starts with every process on r live
// replicas and the run is a renewal process.
func replicatedScenario(t *testing.T, n, a, r int, mttf, mttr float64) *scenario.Scenario {
	t.Helper()
	app := scenario.Application{
		WorkRate: linear(n),
		Latency:  constant(n, 0),
		Overhead: constant(n, 0),
		Recovery: scenario.RecoveryConstant(0, n),
		Replicas: r,
	}
	sc, err := scenario.New(scenario.System{Processors: n, MTTF: mttf, MTTR: mttr}, app, scenario.Policy{Kind: scenario.Moldable, Processors: a * r})
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// replicatedUWT is the renewal-reward UWT of replicatedScenario when spares
// never run out: a segment commits ω(a)·I with probability S(I) and lasts
// E[min(τ, I)] = ∫₀^I S(t) dt, τ the time to interruption, whose survival
// function is Volpex's P(t) = (1 − (1 − e^{−λt})^r)^a (package intervals);
// the integral by 64-point Gauss–Legendre quadrature (gonum).
func replicatedUWT(t *testing.T, a, r int, lambda, interval float64) float64 {
	t.Helper()
	v := intervals.Volpex{Processes: a, Replicas: r, Rate: lambda, Save: 1}
	if err := v.Validate(); err != nil {
		t.Fatal(err)
	}
	mean := quad.Fixed(v.Survival, 0, interval, 64, quad.Legendre{}, 0)
	return float64(a) * interval * v.Survival(interval) / mean
}

// TestReplicasClosedForm checks replicated runs against the closed form
// within the simulation's 99.9 % interval on several scenarios (N leaves
// a spare for every used processor and repairs take a minute, so that
// dead replicas are always replaced at the checkpoint). Power check: the
// interval excludes the closed form at a failure rate 5 % off, and for
// r > 1 the value with one replica fewer.
func TestReplicasClosedForm(t *testing.T) {
	if testing.Short() {
		t.Skip("simulation")
	}
	for _, c := range []struct {
		n, a, r  int
		mttf, iv float64
	}{
		{32, 8, 2, 36000, 7200},
		{24, 4, 3, 36000, 14400},
		{40, 16, 2, 72000, 3600},
		{16, 8, 1, 36000, 1800},
	} {
		const mttr = 60
		sc := replicatedScenario(t, c.n, c.a, c.r, c.mttf, mttr)
		res, err := Run(context.Background(), sc, c.iv, &Settings{Seed: 25, RelTol: 0.004, Confidence: 0.999})
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != Converged {
			t.Fatalf("%+v: status %v", c, res.Status)
		}
		lambda := 1 / c.mttf
		want := replicatedUWT(t, c.a, c.r, lambda, c.iv)
		t.Logf("N=%d a=%d r=%d I=%v: sim %.6g ± %.2g, closed form %.6g (%d interruptions)", c.n, c.a, c.r, c.iv, res.UWT.Mean, res.UWT.HalfWidth, want, res.Failures)
		if !res.UWT.Contains(want) {
			t.Errorf("N=%d a=%d r=%d: UWT %.6g ± %.2g, closed form %.6g", c.n, c.a, c.r, res.UWT.Mean, res.UWT.HalfWidth, want)
		}
		if off := replicatedUWT(t, c.a, c.r, 1.05*lambda, c.iv); res.UWT.Contains(off) {
			t.Errorf("N=%d a=%d r=%d: the interval %.6g ± %.2g also holds the value %.6g at 1.05λ: no power", c.n, c.a, c.r, res.UWT.Mean, res.UWT.HalfWidth, off)
		}
		if c.r > 1 {
			if fewer := replicatedUWT(t, c.a, c.r-1, lambda, c.iv); res.UWT.Contains(fewer) {
				t.Errorf("N=%d a=%d r=%d: the interval also holds r−1's value %.6g", c.n, c.a, c.r, fewer)
			}
		}
	}
}

func TestReplicasErrors(t *testing.T) {
	sc := replicatedScenario(t, 8, 2, 2, 3600, 60)
	sc.Reconfigure = scenario.AtCheckpoint
	if _, err := Run(context.Background(), sc, 600, nil); err == nil {
		t.Error("replicas with reconfiguration at checkpoints: no error")
	}
	sc = replicatedScenario(t, 8, 2, 2, 3600, 60)
	if _, err := Run(context.Background(), sc, 600, &Settings{Intervals: func(a, s int) float64 { return 600 }}); err == nil {
		t.Error("replicas with per-state intervals: no error")
	}

}

// TestReplicasScripted follows the Volpex rules on a scripted trace, by
// hand: 2 processes × 2 replicas on processors 0–3 (LowestIndex: process
// 0 on {0, 1}, process 1 on {2, 3}), processor 4 a spare, I = 100 s, L =
// C = 0. Processor 0 fails at 30 s: process 0 runs on. The commit at
// 100 s replaces it by the spare 4. Processor 1 fails at 150 s (process 0
// still on 4), processor 4 at 160 s: the last replica of process 0, the
// only interruption. Without the replacement the run would be
// interrupted at 150 s.
func TestReplicasScripted(t *testing.T) {
	sc := replicatedScenario(t, 5, 2, 2, 1e6, 1e6)
	up := []bool{true, true, true, true, true}
	src, err := NewListSource(up, []Event{{Time: 30, Proc: 0}, {Time: 150, Proc: 1}, {Time: 160, Proc: 4}})
	if err != nil {
		t.Fatal(err)
	}
	tl, err := NewTimeline(sc, 100, src, LowestIndex{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := tl.Run(159); err != nil {
		t.Fatal(err)
	}
	if tot := tl.Totals(); tot.Failures != 0 || tot.Commits != 1 {
		t.Fatalf("at 159 s: %d interruptions, %d commits; want 0 and 1", tot.Failures, tot.Commits)
	}
	if err := tl.Run(1000); err != nil {
		t.Fatal(err)
	}
	tot := tl.Totals()
	// After 160 s two processors are functional, fewer than a·r = 4: down.
	if tot.Failures != 1 || tot.Commits != 1 || tot.Work != 2*100 || tot.Up != 160 || tot.Down != 840 {
		t.Errorf("totals %+v; want 1 interruption at 160 s, 1 commit of 200, 160 s up, 840 s down", tot)
	}
}

// TestReplicasMTTI checks replicated runs against the mean time to
// interruption of intervals.Replication (Ferreira et al.; Casanova et
// al.), where the assumptions coincide: segments far longer than the
// MTTI (I = 1000·MTTI, so no checkpoint replaces a replica before the
// interruption), free recovery, and repairs fast enough that the a·r
// processors are always at hand. The mean over 32 independent timelines
// of H/interruptions must hold the MTTI within 4 standard errors; the
// power check is that it rejects Ferreira et al.'s birthday-problem value
// (intervals.BirthdayMNFTI), 25 to 30 % lower.
//
// Power: a timeline of H = 1000·MTTI holds about 1000 interruptions, whose
// times between interruptions have a coefficient of variation v ≤ 1
// (exponential in the limit), so the standard error of the mean of the 32
// ratios is about v·MTTI/√(32·1000) ≤ 0.56 % of the MTTI (the logged ones
// are 0.27 to 0.32 %, v ≈ 0.5): the birthday value, ≥ 25 % away, lies
// ≥ 40 standard errors off and passes the 4-s.e. test with probability
// ≈ 0, while the ratio estimator's relative bias, about v²/1000 ≤ 0.1 %,
// stays under a third of a standard error. The earlier 4000 interruptions
// a timeline bought no power against that alternative at 4 times the
// cost.
func TestReplicasMTTI(t *testing.T) {
	if testing.Short() {
		t.Skip("simulation")
	}
	for _, c := range []struct{ a, r int }{{16, 2}, {4, 3}, {32, 2}} {
		const mttf = 36000.0
		n := 2 * c.a * c.r
		sc := replicatedScenario(t, n, c.a, c.r, mttf, mttf/1e4)
		rep := intervals.Replication{Processes: c.a, Replicas: c.r, Rate: 1 / mttf}
		mtti, err := rep.MTTI()
		if err != nil {
			t.Fatal(err)
		}
		const k = 32
		h := 1000 * mtti // about 1000 interruptions a timeline
		var sum, sum2 float64
		for j := range k {
			src, err := NewExponential(n, mttf, mttf/1e4, rand.New(rand.NewPCG(uint64(j), 25)))
			if err != nil {
				t.Fatal(err)
			}
			tl, err := NewTimeline(sc, 1000*mtti, src, nil, rand.New(rand.NewPCG(uint64(j), 26)))
			if err != nil {
				t.Fatal(err)
			}
			if err := tl.Run(h); err != nil {
				t.Fatal(err)
			}
			tot := tl.Totals()
			if tot.Commits != 0 {
				t.Fatalf("a=%d r=%d: %d commits, want none", c.a, c.r, tot.Commits)
			}
			x := h / float64(tot.Failures)
			sum += x
			sum2 += x * x
		}
		mean := sum / k
		se := math.Sqrt((sum2/k - mean*mean) / (k - 1))
		t.Logf("a=%d r=%d: simulated MTTI %.6g ± %.2g s (1 s.e.), closed form %.6g s", c.a, c.r, mean, se, mtti)
		if math.Abs(mean-mtti) > 4*se {
			t.Errorf("a=%d r=%d: simulated MTTI %.6g ± %.2g, closed form %.6g", c.a, c.r, mean, se, mtti)
		}
		if c.r == 2 {
			bd, _ := intervals.BirthdayMNFTI(c.a)
			alt := bd * mttf / float64(2*c.a)
			if math.Abs(mean-alt) <= 4*se {
				t.Errorf("a=%d: the birthday value %.6g is not rejected (%.6g ± %.2g): no power", c.a, alt, mean, se)
			}
		}
	}
}
