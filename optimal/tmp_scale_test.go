package optimal

import (
	"context"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/ckpt-markov/markov/scenario"
)

func amdahlScenario(t testing.TB, n int, mttf, mttr float64) *scenario.Scenario {
	work, lat, ovh, rec := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
	for a := 1; a <= n; a++ {
		x := float64(a)
		work[a-1] = x / (1 + 0.002*(x-1))
		lat[a-1] = 60 + 0.1*x
		ovh[a-1] = lat[a-1]
		rec[a-1] = 30 + 0.05*x
	}
	sc, err := scenario.New(scenario.System{Processors: n, MTTF: mttf, MTTR: mttr},
		scenario.Application{WorkRate: work, Latency: lat, Overhead: ovh, Recovery: scenario.RecoveryByNew(rec)}, scenario.Policy{})
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

func TestTmpScale(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("OPT_N"))
	if n == 0 {
		t.Skip()
	}
	mttf, mttr := 8*3600.0, 4*3600.0
	if os.Getenv("OPT_SYS") == "builtin" {
		mttf, mttr = 104.61*86400, 56.03*60
	}
	sc := qrScenario(t, min(n, 512), mttf, mttr)
	if os.Getenv("OPT_APP") == "amdahl" {
		sc = amdahlScenario(t, n, mttf, mttr)
	}
	ctx := context.Background()
	t0 := time.Now()
	sv, err := New(sc, nil)
	if err != nil {
		t.Fatal(err)
	}
	lo, hi := sv.Window()
	t.Logf("new: %v, window [%d,%d], states %d, nX %d", time.Since(t0), lo, hi, sv.States(), sv.nX)
	t0 = time.Now()
	f, err := sv.FixedInterval(ctx, 1800)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("fixed: %v, g %.8g it %d", time.Since(t0), f.UWT, f.Iterations)
	t0 = time.Now()
	s, err := sv.SingleInterval(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("single: %v, g %.8g I %.5g evals %d", time.Since(t0), s.UWT, s.Interval, s.Evaluations)
	t0 = time.Now()
	p, err := sv.PerState(ctx, s.Policy)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("perstate: %v, g %.8g it %d", time.Since(t0), p.UWT, p.Iterations)
	t0 = time.Now()
	c, err := sv.PerConfiguration(ctx, s, p)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("perconf: %v, g %.8g it %d, %v", time.Since(t0), c.UWT, c.Iterations, c.Intervals)
}
