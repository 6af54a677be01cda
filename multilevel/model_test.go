package multilevel

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/ckpt-markov/markov/scenario"
	"github.com/ckpt-markov/markov/uwt"
)

// oneLevel returns a single-level scenario of n processors running on a
// (moldable), with ω(a) = a^0.9, L(a) = 60 + a, C = L/2, R = 30 + a/2.
func oneLevel(t *testing.T, n, a int, mttf, mttr float64) *scenario.Scenario {
	t.Helper()
	app := scenario.Application{}
	rec := make([]float64, n)
	for k := 1; k <= n; k++ {
		app.WorkRate = append(app.WorkRate, math.Pow(float64(k), 0.9))
		app.Latency = append(app.Latency, 60+float64(k))
		app.Overhead = append(app.Overhead, (60+float64(k))/2)
		rec[k-1] = 30 + float64(k)/2
	}
	app.Recovery = scenario.RecoveryByNew(rec)
	sc, err := scenario.New(scenario.System{Processors: n, MTTF: mttf, MTTR: mttr}, app, scenario.Policy{Kind: scenario.Moldable, Processors: a})
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// TestOneLevelIsUWT: with one checkpoint level (and the checkpoint after
// every recovery) the multi-level model is today's model: its UWT equals
// package uwt's exact chain of segments (an independent algorithm: a
// Markov chain over spare counts solved for its stationary law) to 1e-12,
// for moldable applications with and without spares.
func TestOneLevelIsUWT(t *testing.T) {
	for _, tc := range []struct {
		n, a       int
		mttf, mttr float64
	}{
		{1, 1, 3600, 600}, {4, 4, 86400, 3600}, {8, 5, 86400, 7200}, {12, 3, 2e5, 5e4}, {16, 8, 1e5, 1e4},
	} {
		againstUWT(t, fmt.Sprintf("N=%d a=%d", tc.n, tc.a), oneLevel(t, tc.n, tc.a, tc.mttf, tc.mttr), true)
	}
}

// againstUWT checks the model of the one-level scenario sc against
// package uwt's exact chain of segments at four intervals from a minute
// to 11 hours: the UWT to 1e-12 relative and, with avail, the
// availability to 1e-12.
func againstUWT(t *testing.T, name string, sc *scenario.Scenario, avail bool) {
	t.Helper()
	m, err := New(sc)
	if err != nil {
		t.Fatal(err)
	}
	compareUWT(t, name, m, sc, []float64{60, 1000, 7200, 40000}, 1e-12, avail)
}

// compareUWT checks m, the model of the one-level scenario sc, against
// package uwt's exact chain of segments at the intervals: the UWT to tol
// relative and, with avail, the availability to tol.
func compareUWT(t *testing.T, name string, m *Model, sc *scenario.Scenario, intervals []float64, tol float64, avail bool) {
	t.Helper()
	ctx := context.Background()
	ref, err := uwt.New(ctx, sc, &uwt.Settings{Exact: true, Prune: -1})
	if err != nil {
		t.Fatal(err)
	}
	for _, I := range intervals {
		got, err := m.Evaluate(nil, I)
		if err != nil {
			t.Fatal(err)
		}
		want, err := ref.Evaluate(ctx, I)
		if err != nil {
			t.Fatal(err)
		}
		if d := math.Abs(got.UWT-want.UWT) / want.UWT; d > tol {
			t.Errorf("%s I=%v: UWT %.15g, uwt %.15g (relative %.2g)", name, I, got.UWT, want.UWT, d)
		}
		if d := math.Abs(got.Availability - want.Availability); avail && d > tol {
			t.Errorf("%s I=%v: availability %.15g, uwt %.15g", name, I, got.Availability, want.Availability)
		}
	}
}

// TestOneProcessorClosedForm: docs/model.md section 7's closed form and
// its example (A = 0.69164 at λ = 1/3600, θ = 1/600, I = 600, L = C =
// 60.6, R = 30), and without the checkpoint after recovery the segment's
// expected time e^{λR}(e^{λ(I+C)} − 1)/λ (issue 22) with repairs
// 1/θ per failure.
func TestOneProcessorClosedForm(t *testing.T) {
	lam, theta, I, L, R := 1/3600.0, 1/600.0, 600.0, 60.6, 30.0
	app := scenario.Application{WorkRate: []float64{1}, Latency: []float64{L}, Overhead: []float64{L}, Recovery: scenario.RecoveryConstant(R, 1)}
	sc, err := scenario.New(scenario.System{Processors: 1, MTTF: 1 / lam, MTTR: 1 / theta}, app, scenario.Policy{})
	if err != nil {
		t.Fatal(err)
	}
	m, err := New(sc)
	if err != nil {
		t.Fatal(err)
	}
	got, err := m.Evaluate(nil, I)
	if err != nil {
		t.Fatal(err)
	}
	want := lam * theta / (lam + theta) * I * math.Exp(-lam*(I+2*L+R)) / -math.Expm1(-lam*(I+L))
	if math.Abs(got.Availability-want) > 1e-14 || math.Abs(got.Availability-0.69164) > 5e-6 {
		t.Errorf("A = %.15g, closed form %.15g, docs/model.md 0.69164", got.Availability, want)
	}
	sc.Application.NoCheckpointAfterRecovery = true
	if m, err = New(sc); err != nil {
		t.Fatal(err)
	}
	if got, err = m.Evaluate(nil, I); err != nil {
		t.Fatal(err)
	}
	seg := math.Exp(lam*R) * math.Expm1(lam*(I+L)) / lam
	// Failures strike at λ all the running time, λ·seg per segment
	// (Wald), each followed by a repair of 1/θ.
	fails := lam * seg
	wantA := I / (seg + fails/theta)
	if math.Abs(got.Availability-wantA) > 1e-14 {
		t.Errorf("without the checkpoint after recovery: A = %.15g, closed form %.15g", got.Availability, wantA)
	}
}
