package multilevel

import (
	"context"
	"math"
	"testing"

	"github.com/ckpt-markov/markov/internal/cputime"
	"github.com/ckpt-markov/markov/scenario"
)

// moldable returns a two-level scenario of n processors running on a
// (moldable): MTTF 1 y per processor, MTTR 1 h, 90 % of failures of
// severity 1; the level costs of Atlas (9 s, 438 s), work rate a.
func moldable(b testing.TB, n, a int) *scenario.Scenario {
	work := make([]float64, n)
	for i := range work {
		work[i] = float64(i + 1)
	}
	level := func(c float64) scenario.Level {
		return scenario.Level{Latency: constant(c, n), Overhead: constant(c, n), Recovery: scenario.RecoveryLinear(c, 0, 0, n)}
	}
	sc, err := scenario.New(scenario.System{Processors: n, MTTF: 365 * 86400, MTTR: 3600,
		FailureSeverity: &scenario.FailureSeverity{Shares: []float64{0.9, 0.1}}},
		scenario.Application{WorkRate: work, Levels: []scenario.Level{level(9), level(438)}},
		scenario.Policy{Kind: scenario.Moldable, Processors: a})
	if err != nil {
		b.Fatal(err)
	}
	return sc
}

func constant(c float64, n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = c
	}
	return v
}

// BenchmarkLevels: New (the spare chain, O(N); with greedy, the chain of
// up phases built and solved), one evaluation and the joint optimum, CPU
// time per operation (cpu-ns/op).
func BenchmarkLevels(b *testing.B) {
	for _, tc := range []struct {
		name string
		n, a int
	}{{"N=512/a=256", 512, 256}, {"N=1000000/a=500000", 1_000_000, 500_000}, {"N=512/greedy", 512, 0}, {"N=4096/greedy", 4096, 0}, {"N=512/greedy/MTTF=1d", 512, -1}, {"N=1000000/greedy", 1_000_000, 0}} {
		sc := moldable(b, tc.n, max(tc.a, 1))
		if tc.a <= 0 { // greedy: the malleable model (−1: MTTF one day)
			sys := sc.System
			if tc.a < 0 {
				sys.MTTF = 86400
			}
			var err error
			if sc, err = scenario.New(sys, sc.Application, scenario.Policy{}); err != nil {
				b.Fatal(err)
			}
		}
		benchModel(b, sc, tc.name, []int{20}, false)
	}
	// SCR's largest pattern: 10⁶ segments per period, three levels.
	pr := &Process{Rate: 8.3e-6, Severity: []float64{0.93, 0.062, 0.008},
		Levels: []Level{{9, 9, 9}, {50, 50, 50}, {438, 438, 438}}}
	b.Run("Period/V=1000,1000", func(b *testing.B) {
		c0 := cputime.Used()
		for b.Loop() {
			if _, err := pr.Period([]int{1000, 1000}, 500); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(cputime.Used()-c0)/float64(b.N), "cpu-ns/op")
	})
}

// BenchmarkLevelsIntermediate: three levels under greedy with processor
// failures of severity 2 (the positional chain, position.go): costs 9 s,
// 50 s and 438 s, shares 0.9, 0.07, 0.03, work rate a, MTTR 1 h; New,
// one evaluation (pattern [3, 2], I = 600 s) and the joint optimum, CPU
// time per operation (cpu-ns/op).
func BenchmarkLevelsIntermediate(b *testing.B) {
	for _, tc := range []struct {
		name string
		n    int
		mttf float64
	}{{"N=512/greedy", 512, 365 * 86400}, {"N=512/greedy/MTTF=10d", 512, 10 * 86400}} {
		sc := moldable(b, tc.n, 1)
		level := func(c float64) scenario.Level {
			return scenario.Level{Latency: constant(c, tc.n), Overhead: constant(c, tc.n), Recovery: scenario.RecoveryLinear(c, 0, 0, tc.n)}
		}
		app := sc.Application
		app.Levels = []scenario.Level{level(9), level(50), level(438)}
		sc, err := scenario.New(scenario.System{Processors: tc.n, MTTF: tc.mttf, MTTR: 3600,
			FailureSeverity: &scenario.FailureSeverity{Shares: []float64{0.9, 0.07, 0.03}}}, app, scenario.Policy{})
		if err != nil {
			b.Fatal(err)
		}
		benchModel(b, sc, tc.name, []int{3, 2}, true)
	}
}

// benchModel runs the sub-benchmarks New, Evaluate (at pattern and
// I = 600 s) and Optimize of sc, in CPU time per operation, with the
// optimum's evaluations and patterns; reportV2 also reports its V₂.
func benchModel(b *testing.B, sc *scenario.Scenario, name string, pattern []int, reportV2 bool) {
	b.Run("New/"+name, func(b *testing.B) {
		c0 := cputime.Used()
		for b.Loop() {
			if _, err := New(sc); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(cputime.Used()-c0)/float64(b.N), "cpu-ns/op")
	})
	m, err := New(sc)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("Evaluate/"+name, func(b *testing.B) {
		c0 := cputime.Used()
		for b.Loop() {
			if _, err := m.Evaluate(pattern, 600); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(cputime.Used()-c0)/float64(b.N), "cpu-ns/op")
	})
	b.Run("Optimize/"+name, func(b *testing.B) {
		c0 := cputime.Used()
		for b.Loop() {
			r, err := m.Optimize(context.Background(), nil)
			if err != nil || math.IsNaN(r.UWT) {
				b.Fatal(err)
			}
			if reportV2 {
				b.ReportMetric(float64(r.Pattern[1]), "V2")
			}
			b.ReportMetric(float64(r.Evaluations), "evals")
			b.ReportMetric(float64(r.Patterns), "patterns")
		}
		b.ReportMetric(float64(cputime.Used()-c0)/float64(b.N), "cpu-ns/op")
	})
}

// BenchmarkLevelsReconfigure: greedy with reconfiguration at top-level
// checkpoints (reconf.go) at N = 512, two levels (Atlas's costs 9 s and
// 438 s, shares 0.9, 0.1) and three (9 s, 50 s, 438 s, shares 0.9, 0,
// 0.1), MTTF 1 y and 1 d (two levels) or 10 d (three) per processor,
// MTTR 1 h, work rate a; New, one
// evaluation (I = 600 s, pattern [20] or [3, 2]) and the joint optimum,
// CPU time per operation (cpu-ns/op).
func BenchmarkLevelsReconfigure(b *testing.B) {
	const n = 512
	level := func(c float64) scenario.Level {
		return scenario.Level{Latency: constant(c, n), Overhead: constant(c, n), Recovery: scenario.RecoveryLinear(c, 0, 0, n)}
	}
	for _, tc := range []struct {
		name    string
		levels  []scenario.Level
		sev     []float64
		mttf    float64
		pattern []int
	}{
		{"N=512/greedy/L=2", []scenario.Level{level(9), level(438)}, []float64{0.9, 0.1}, 365 * 86400, []int{20}},
		{"N=512/greedy/L=3", []scenario.Level{level(9), level(50), level(438)}, []float64{0.9, 0, 0.1}, 365 * 86400, []int{3, 2}},
		{"N=512/greedy/L=2/MTTF=1d", []scenario.Level{level(9), level(438)}, []float64{0.9, 0.1}, 86400, []int{20}},
		// MTTF 1 d with three levels: Optimize finds no bracket, with or
		// without reconfiguration (UWT ≈ 0 where the search starts).
		{"N=512/greedy/L=3/MTTF=10d", []scenario.Level{level(9), level(50), level(438)}, []float64{0.9, 0, 0.1}, 10 * 86400, []int{3, 2}},
	} {
		app := moldable(b, n, 1).Application
		app.Levels = tc.levels
		sc, err := scenario.New(scenario.System{Processors: n, MTTF: tc.mttf, MTTR: 3600,
			FailureSeverity: &scenario.FailureSeverity{Shares: tc.sev}}, app, scenario.Policy{})
		if err != nil {
			b.Fatal(err)
		}
		sc.Reconfigure = scenario.AtCheckpoint
		benchModel(b, sc, tc.name, tc.pattern, len(tc.levels) == 3)
	}
}

// BenchmarkLevelsEvents: the two levels of BenchmarkLevels under greedy
// with failure events of sizes 1, 2, 4 (shares 0.7, 0.2, 0.1): package
// uwt's batch chain of up phases and the up phases' matrices over the
// spare count (docs/model.md section 12, "Failure events"); New, one
// evaluation ([20], I = 600 s) and the joint optimum, CPU time per
// operation (cpu-ns/op).
func BenchmarkLevelsEvents(b *testing.B) {
	for _, tc := range []struct {
		name string
		mttf float64
	}{{"N=512/greedy/MTTF=1y", 365 * 86400}, {"N=512/greedy/MTTF=1d", 86400}} {
		sc := moldable(b, 512, 1)
		sys := sc.System
		sys.MTTF = tc.mttf
		sys.FailureEvents = &scenario.FailureEvents{Sizes: []float64{0.7, 0.2, 0, 0.1}}
		sc, err := scenario.New(sys, sc.Application, scenario.Policy{})
		if err != nil {
			b.Fatal(err)
		}
		benchModel(b, sc, tc.name, []int{20}, false)
	}
}
