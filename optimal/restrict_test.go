package optimal

import (
	"context"
	"testing"

	"github.com/ckpt-markov/markov/scenario"
)

// largeApp is the application BENCHMARKS.md uses beyond package bench's
// 512 processors (bench/model_bench_test.go, "QR-like"): the Table I
// averages C = L = 99.19 s and R = 17.21 s with the speed-up
// ω(a) = a/(1 + a/2000).
func largeApp(tb testing.TB, n int, mttf, mttr float64) *scenario.Scenario {
	tb.Helper()
	work, lat := make([]float64, n), make([]float64, n)
	for a := 1; a <= n; a++ {
		work[a-1] = float64(a) / (1 + float64(a)/2000)
		lat[a-1] = 99.19
	}
	sc, err := scenario.New(scenario.System{Processors: n, MTTF: mttf, MTTR: mttr},
		scenario.Application{WorkRate: work, Latency: lat, Overhead: lat, Recovery: scenario.RecoveryConstant(17.21, n)}, scenario.Policy{})
	if err != nil {
		tb.Fatal(err)
	}
	return sc
}

// TestRefineMatchesFull compares the coarse-to-fine restriction with the
// full action set where both run: level 2 on the refined candidates must
// not exceed the full optimum (it is a restriction) and, with the optimal
// counts within the refined window, equal it to the search tolerance.
func TestRefineMatchesFull(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		sc   *scenario.Scenario
		step int
	}{
		// A desktop grid: MTTF 8 h, MTTR 4 h (the example).
		{largeApp(t, 48, 8*3600, 4*3600), 6},
		// QR of package bench on the CLI's built-in system.
		{qrScenario(t, 48, 104.61*86400, 56.03*60), 8},
	} {
		full, err := New(c.sc, nil)
		if err != nil {
			t.Fatal(err)
		}
		want, err := full.SingleInterval(ctx, 0)
		if err != nil {
			t.Fatal(err)
		}
		cand, err := Refine(ctx, c.sc, nil, c.step)
		if err != nil {
			t.Fatal(err)
		}
		sv, err := New(c.sc, &Settings{Candidates: cand})
		if err != nil {
			t.Fatal(err)
		}
		got, err := sv.SingleInterval(ctx, 0)
		if err != nil {
			t.Fatal(err)
		}
		if got.UWT > want.UWT*(1+1e-12) {
			t.Errorf("N = %d: restricted %.12g above the full optimum %.12g", c.sc.N(), got.UWT, want.UWT)
		}
		// The interval searches stop at 1e-6 in log I: 1e-9 relative on
		// UWT, as the joint enumeration oracle.
		if d := relDiff(got.UWT, want.UWT); d > 1e-9 {
			t.Errorf("N = %d, step %d: restricted %.12g, full %.12g (rel. diff %.2g; %d candidates)", c.sc.N(), c.step, got.UWT, want.UWT, d, len(cand))
		}
		t.Logf("N = %d, step %d: %d candidates, restricted %.10g, full %.10g", c.sc.N(), c.step, len(cand), got.UWT, want.UWT)
	}
}
