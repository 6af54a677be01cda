package uwt

import (
	"context"
	"errors"
	"math"
	"testing"
	"time"

	"github.com/ckpt-markov/markov/batchchain"
	"github.com/ckpt-markov/markov/internal/testmodel"
	"github.com/ckpt-markov/markov/scenario"
)

// evScenario is the ev.json at MTTF mttf: 32 processors, MTTR
// 1 h, failure events of sizes [0.7, 0.2, 0.1], the QR-like application,
// greedy.
func evScenario(t testing.TB, mttf float64) *scenario.Scenario {
	sys := scenario.System{Processors: 32, MTTF: mttf, MTTR: 3600, FailureEvents: &scenario.FailureEvents{Sizes: []float64{0.7, 0.2, 0.1}}}
	return mustScenario(t, sys, testmodel.QRLike(32), scenario.Policy{})
}

// TestEventsExtremeMTTF: the model with failure events at the ends of the
// MTTF range, each under a deadline (the old code ran for minutes at
// 1 µs and grew to tens of GB at 10²⁰ s).
//
// MTTF 1 µs: Optimize reports NoUsefulWork (and MTTF 1 d, the power
// check, does not). MTTF 10²⁰ s: UWT at I is the failure-free limit of
// the model, which is not ω(N)·(I + L − C)/(I + L): repaired processors
// wait as spares until the next failure (docs/model.md section 3), so
// after the first event the application runs on N − K processors, K the
// size of the event that interrupted it. With the repairs infinitely
// faster than the events, every event finds all N processors functional;
// from a used, it interrupts with probability h_a = Σ_k p_k·(1 −
// C(N − a, k)/C(N, k)) and leaves a' = N − k with probability
// p_k·(1 − C(N − a, k)/C(N, k))/h_a. The time on a is proportional to
// π_a/h_a, π the stationary law of that jump chain (solved here by power
// iteration), and UWT → (I + L − C)/(I + L)·Σ_a π_a ω(a)/h_a / Σ_a π_a/h_a
// (L and C the same for every a here). Tolerance 1e-12 plus
// 10·Nλ·(I + L + R + MTTR): ten times the fraction of time that failures
// take (each of the Nλ failures per second costs at most a segment, a
// recovery and a repair), and the repairs' share MTTR·Nλ of the time
// that the limit leaves out; the limit on all N processors,
// ω(N)·(I + L − C)/(I + L), is rejected (4 % off). The old model's answer was none (it ran out
// of memory). I = 10⁷ and 10⁹ s take batchchain's dense path (the
// sequence refused I = 10⁷ s: Λt ≈ 9000), whose rounding, about
// 2⁻⁵³·κ₁(Φ) with κ₁(Φ) up to Λt (and the measured 10⁻¹³·κ), is within
// the added 1e-15·Λt, Λ ≤ N/MTTR. A segment length that neither path can
// do (I = 10¹⁴ s: Φ beyond the dense path's condition 10⁹, the sequence
// beyond batchchain.MaxSegmentsProducts) is refused with an error naming
// system.mttf, and a deadline stops that long run with the context's
// error instead.
func TestEventsExtremeMTTF(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	for _, tc := range []struct {
		mttf   float64
		noWork bool
	}{{1e-6, true}, {86400, false}} {
		m, err := New(ctx, evScenario(t, tc.mttf), nil)
		if err != nil {
			t.Fatal(err)
		}
		opt, err := m.Optimize(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		if opt.NoUsefulWork != tc.noWork {
			t.Errorf("MTTF %g: NoUsefulWork %v, want %v (UWT %g)", tc.mttf, opt.NoUsefulWork, tc.noWork, opt.UWT)
		}
	}
	sc := evScenario(t, 1e20)
	app := sc.Application
	n := sc.System.Processors
	for _, interval := range []float64{300, 900, 1e4, 1e5, 1e7, 1e9} {
		m, err := New(ctx, sc, nil)
		if err != nil {
			t.Fatal(err)
		}
		r, err := m.Evaluate(ctx, interval)
		if err != nil {
			t.Fatalf("I = %g: %v", interval, err)
		}
		l, c := app.Latency[n-1], app.Overhead[n-1]
		want := failureFreeRate(n, []float64{0.7, 0.2, 0.1}, app.WorkRate) * (interval + l - c) / (interval + l)
		// The dense path (batchchain, Λ/ρ_min ≈ 10¹⁶ here) rounds to
		// about 2⁻⁵³·κ₁(Φ) ≈ 2⁻⁵³·Λt, Λ ≤ N/MTTR + Nλ.
		lam := float64(n) / sc.System.MTTR
		tol := 1e-12 + 10*float64(n)/sc.System.MTTF*(interval+l+app.Recovery.Cost(n, n)+sc.System.MTTR) + 1e-15*lam*interval
		if math.Abs(r.UWT-want) > tol*want {
			t.Errorf("I = %g: UWT %.16g, failure-free %.16g (rel %.2g, tol %.2g)", interval, r.UWT, want, math.Abs(r.UWT-want)/want, tol)
		}
		// Power: the limit on all N processors is rejected.
		if naive := app.WorkRate[n-1] * (interval + l - c) / (interval + l); math.Abs(r.UWT-naive) <= 1e3*tol*naive {
			t.Errorf("I = %g: UWT %.16g does not reject ω(N)·(I + L − C)/(I + L) = %.16g", interval, r.UWT, naive)
		}
	}
	m, err := New(ctx, sc, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = m.Evaluate(ctx, 1e14)
	var se *scenario.Error
	if !errors.As(err, &se) || se.Field != "system.mttf" {
		t.Errorf("I = 1e14 s: error %v, want a *scenario.Error naming system.mttf (Φ beyond the dense path's condition, the sequence beyond MaxSegmentsProducts = %d)", err, batchchain.MaxSegmentsProducts)
	}
	m, err = New(ctx, sc, nil)
	if err != nil {
		t.Fatal(err)
	}
	short, stop := context.WithTimeout(ctx, 20*time.Millisecond)
	defer stop()
	if _, err := m.Evaluate(short, 1e14); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("I = 1e14 s under a 20 ms deadline: error %v, want context.DeadlineExceeded", err)
	}
}

// failureFreeRate returns the limit of the work rate as the events become
// rare against the repairs: Σ_a π_a ω(a)/h_a / Σ_a π_a/h_a over the used
// counts a = N − k after an event of size k (TestEventsExtremeMTTF).
func failureFreeRate(n int, sizes, omega []float64) float64 {
	kmax := len(sizes)
	// miss(a, k) = C(n − a, k)/C(n, k): the event misses every used one.
	miss := func(a, k int) float64 {
		p := 1.0
		for i := range k {
			p *= float64(n-a-i) / float64(n-i)
		}
		return max(p, 0)
	}
	hit := make([]float64, kmax+1) // by k = n − a
	next := make([][]float64, kmax+1)
	for j := 1; j <= kmax; j++ {
		next[j] = make([]float64, kmax+1)
		for k := 1; k <= kmax; k++ {
			q := sizes[k-1] * (1 - miss(n-j, k))
			next[j][k] = q
			hit[j] += q
		}
		for k := range next[j] {
			next[j][k] /= hit[j]
		}
	}
	pi := make([]float64, kmax+1)
	for j := 1; j <= kmax; j++ {
		pi[j] = 1 / float64(kmax)
	}
	for range 10000 {
		np := make([]float64, kmax+1)
		for j := 1; j <= kmax; j++ {
			for k := 1; k <= kmax; k++ {
				np[k] += pi[j] * next[j][k]
			}
		}
		pi = np
	}
	var num, den float64
	for j := 1; j <= kmax; j++ {
		num += pi[j] / hit[j] * omega[n-j-1]
		den += pi[j] / hit[j]
	}
	return num / den
}
