package availability

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/ckpt-markov/markov/internal/testmodel"
	"github.com/ckpt-markov/markov/scenario"
)

func linearApp(n int, l, r float64) scenario.Application {
	app := scenario.Application{
		WorkRate: make([]float64, n),
		Latency:  make([]float64, n),
		Overhead: make([]float64, n),
		Recovery: scenario.RecoveryConstant(r, n),
	}
	for i := range n {
		app.WorkRate[i] = float64(i + 1)
		app.Latency[i], app.Overhead[i] = l, l
	}
	return app
}

// On one processor, A(1, I) is the closed form of the model
// specification, section 7 (with the factor λ its printed formula lacks):
// A = λθ/(λ+θ)·(I + L − C)·e^{−λ(I+2L+R)}/(1 − e^{−λ(I+L)}); the
// specification's example gives 0.69164.
func TestOneProcessor(t *testing.T) {
	lam, theta, i, l, r := 1.0/3600, 1.0/600, 600.0, 60.6, 30.0
	sys := scenario.System{Processors: 1, MTTF: 1 / lam, MTTR: 1 / theta}
	p, err := Evaluate(context.Background(), sys, linearApp(1, l, r), 1, i, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := testmodel.OneProcessorAvailability(lam, theta, i, l, l, r) // C = L
	if math.Abs(p.Availability-want) > 1e-12*want {
		t.Errorf("A = %.15g, closed form %.15g", p.Availability, want)
	}
	if math.Abs(p.Availability-0.69164) > 5e-6 {
		t.Errorf("A = %v, specification's example 0.69164", p.Availability)
	}
	// Expected run time of a job of 10 failure-free hours: 10 h / A.
	if got := p.RunTime(36000); math.Abs(got-36000/want) > 1e-8*got {
		t.Errorf("RunTime = %v, want %v", got, 36000/want)
	}
}

// Plank & Thomason (2001): on a failure-prone system, running on few
// processors is slow (T_a = W/ω(a) is long) and running on many makes
// failures dominate (A falls), so the expected run time is smallest at an
// intermediate a. Here every processor fails every 6 hours on average and
// takes 3 hours to repair: with all 16, a third are down at any time and a
// job on 16 waits most of the time.
func TestRunTimeBestInBetween(t *testing.T) {
	const n = 16
	sys := scenario.System{Processors: n, MTTF: 6 * 3600, MTTR: 3 * 3600}
	app := linearApp(n, 60, 60)
	s, err := Best(context.Background(), sys, app, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Points) != n {
		t.Fatalf("%d points, want %d", len(s.Points), n)
	}
	const work = 1e6 // iterations
	runTime := func(p Point) float64 { return p.RunTime(work / app.WorkRate[p.Processors-1]) }
	best := s.Best
	if best.Processors <= 1 || best.Processors >= n {
		t.Fatalf("best a = %d, want strictly between 1 and %d", best.Processors, n)
	}
	first, last := s.Points[0], s.Points[n-1]
	if !(runTime(first) > runTime(best) && runTime(last) > runTime(best)) {
		t.Errorf("run times: a=1 %v, best a=%d %v, a=%d %v", runTime(first), best.Processors, runTime(best), n, runTime(last))
	}
	// Availability falls as a grows: more processors to lose, and longer
	// waits for a counts above the mean functional count.
	for k := 1; k < n; k++ {
		if s.Points[k].Availability > s.Points[k-1].Availability {
			t.Errorf("A(%d) = %v > A(%d) = %v", k+1, s.Points[k].Availability, k, s.Points[k-1].Availability)
		}
	}
	// The best pair maximises UWT = ω(a)·A over the points, each of which
	// is its own optimum: the search's Best is the maximum of Points.
	for _, p := range s.Points {
		if p.UWT > best.UWT {
			t.Errorf("a=%d has UWT %v above the best %v", p.Processors, p.UWT, best.UWT)
		}
		if d := math.Abs(p.UWT - app.WorkRate[p.Processors-1]*p.Availability); d > 1e-12*p.UWT {
			t.Errorf("a=%d: UWT %v ≠ ω(a)·A = %v", p.Processors, p.UWT, app.WorkRate[p.Processors-1]*p.Availability)
		}
	}
}

// The optimal interval at each a is a local maximum of A(a, ·): nudging
// it by 5 % either way does not raise the availability.
func TestOptimalIsMaximum(t *testing.T) {
	sys := scenario.System{Processors: 8, MTTF: 2 * 86400, MTTR: 3600}
	app := linearApp(8, 120, 60)
	for _, a := range []int{2, 5, 8} {
		p, err := Optimal(context.Background(), sys, app, a, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range []float64{0.95, 1.05} {
			q, err := Evaluate(context.Background(), sys, app, a, f*p.Interval, nil)
			if err != nil {
				t.Fatal(err)
			}
			if q.Availability > p.Availability {
				t.Errorf("a=%d: A(%v·I*) = %v > A(I*) = %v", a, f, q.Availability, p.Availability)
			}
		}
	}
}

func TestBestWorkersIdentical(t *testing.T) {
	sys := scenario.System{Processors: 6, MTTF: 86400, MTTR: 7200}
	app := linearApp(6, 60, 30)
	one, err := Best(context.Background(), sys, app, &Settings{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	many, err := Best(context.Background(), sys, app, &Settings{Workers: 4})
	if err != nil {
		t.Fatal(err)
	}
	for k := range one.Points {
		if one.Points[k] != many.Points[k] {
			t.Errorf("a=%d: %+v with 1 worker, %+v with 4", k+1, one.Points[k], many.Points[k])
		}
	}
}

func TestBadInput(t *testing.T) {
	sys := scenario.System{Processors: 4, MTTF: 86400, MTTR: 3600}
	app := linearApp(4, 60, 30)
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"a = 0", func() error { _, err := Evaluate(ctx, sys, app, 0, 600, nil); return err }(), "moldable"},
		{"a > N", func() error { _, err := Evaluate(ctx, sys, app, 5, 600, nil); return err }(), "moldable"},
		{"interval ≤ 0", func() error { _, err := Evaluate(ctx, sys, app, 2, -1, nil); return err }(), "interval"},
		{"bad system", func() error {
			_, err := Best(ctx, scenario.System{Processors: 4, MTTF: -1, MTTR: 1}, app, nil)
			return err
		}(), "system.mttf"},
		{"short vectors", func() error { _, err := Best(ctx, sys, linearApp(3, 60, 30), nil); return err }(), "work_rate"},
	} {
		if tc.err == nil || !strings.Contains(tc.err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one mentioning %q", tc.name, tc.err, tc.want)
		}
	}
}

// TestBestProgress: Progress counts every processor count searched, one
// call at a time, up to the total; a cancelled context stops the search
// with its error.
func TestBestProgress(t *testing.T) {
	sys := scenario.System{Processors: 6, MTTF: 86400, MTTR: 7200}
	app := linearApp(6, 60, 30)
	var calls []int
	_, err := Best(context.Background(), sys, app, &Settings{Workers: 3, Progress: func(done, total int) {
		if total != 6 {
			t.Errorf("total %d, want 6", total)
		}
		calls = append(calls, done)
	}})
	if err != nil {
		t.Fatal(err)
	}
	if len(calls) != 6 || calls[5] != 6 {
		t.Errorf("progress calls %v, want 1..6", calls)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Best(ctx, sys, app, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: error %v, want context.Canceled", err)
	}
}
