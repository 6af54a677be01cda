package trace

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestExponentialRates: the fraction of node-time down and the outage
// rate of a long synthetic trace match an alternating renewal process with
// exponential up and down times: down fraction MTTR/(MTTF+MTTR), outages
// per node-second 1/(MTTF+MTTR). With 64 nodes over 2000 cycles each,
// about 128,000 outages, both estimates have a relative standard error
// near 0.3 %; 2 % is over six of them.
func TestExponentialRates(t *testing.T) {
	const n, mttf, mttr = 64, 8 * 3600.0, 4 * 3600.0
	horizon := 2000 * (mttf + mttr)
	tr, err := Exponential(n, mttf, mttr, horizon, rand.New(rand.NewPCG(8, 4)))
	if err != nil {
		t.Fatal(err)
	}
	down, outages := 0.0, 0
	for i := range tr.NumNodes() {
		for _, iv := range tr.Node(i).Down {
			down += iv.End - iv.Start
			outages++
		}
	}
	frac := down / (n * horizon)
	if want := mttr / (mttf + mttr); math.Abs(frac-want) > 0.02*want {
		t.Errorf("down fraction %.5f, want %.5f", frac, want)
	}
	rate := float64(outages) / (n * horizon)
	if want := 1 / (mttf + mttr); math.Abs(rate-want) > 0.02*want {
		t.Errorf("outage rate %.4g, want %.4g", rate, want)
	}
	for _, bad := range []struct {
		n       int
		f, r, h float64
	}{{0, 1, 1, 1}, {1, 0, 1, 1}, {1, 1, math.NaN(), 1}, {1, 1, 1, math.Inf(1)}, {1 << 21, 1, 1, 1}, {1000, 1, 1, 1e9}} {
		if _, err := Exponential(bad.n, bad.f, bad.r, bad.h, rand.New(rand.NewPCG(1, 1))); err == nil {
			t.Errorf("Exponential(%d, %v, %v, %v): no error", bad.n, bad.f, bad.r, bad.h)
		}
	}
}
