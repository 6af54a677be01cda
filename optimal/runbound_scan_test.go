package optimal

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/ckpt-markov/markov/scenario"
)

// randomReconfCase returns a seeded random small scenario with
// reconfiguration at checkpoints: N = 1..5, a per-processor MTTF from 1e2
// to 1e8 s and an MTTR from 1 to 1e7 s (ratios up to 1e7 either way),
// work rates from 0.1 to 10 in any order, latencies from 1 to 1e5 s with
// an overhead below each, recoveries by new count from 1 to 1e5 s or
// zero, or linear in the old and new counts; the full window or the
// default, or a narrow one (tail 1e-3); the default interval range, or
// [1e-3, 1e5] s, or [1e4, 100 y].
func randomReconfCase(t *testing.T, rng *rand.Rand) solverCase {
	logU := func(lo, hi float64) float64 {
		return math.Exp(math.Log(lo) + rng.Float64()*(math.Log(hi)-math.Log(lo)))
	}
	n := 1 + rng.IntN(5)
	mttf, mttr := logU(1e2, 1e8), logU(1, 1e7)
	work, lat, ovh, rec := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
	zeroR := rng.IntN(4) == 0
	for a := range n {
		work[a], lat[a] = logU(0.1, 10), logU(1, 1e5)
		ovh[a] = lat[a] * rng.Float64()
		if !zeroR {
			rec[a] = logU(1, 1e5)
		}
	}
	recov := scenario.RecoveryByNew(rec)
	if rng.IntN(3) == 0 {
		recov = scenario.RecoveryLinear(logU(1, 1e4), logU(1, 1e4), logU(1, 1e4), n)
	}
	sc, err := scenario.New(scenario.System{Processors: n, MTTF: mttf, MTTR: mttr},
		scenario.Application{WorkRate: work, Latency: lat, Overhead: ovh, Recovery: recov}, scenario.Policy{})
	if err != nil {
		t.Fatal(err)
	}
	sc.Reconfigure = scenario.AtCheckpoint
	set := &Settings{Full: rng.IntN(2) == 0}
	if rng.IntN(3) == 0 {
		set.Tol = 1e-3
	}
	switch rng.IntN(4) {
	case 0:
		set.MinInterval, set.MaxInterval = 1e-3, 1e5
	case 1:
		set.MinInterval = 1e4
	}
	name := fmt.Sprintf("n=%d,mttf=%.3g,mttr=%.3g,full=%v,tol=%g,I=[%g,%g]", n, mttf, mttr, set.Full, set.Tol, set.MinInterval, set.MaxInterval)
	return solverCase{name, sc, set}
}

// TestRunBoundRandomScan holds level 4's bound on running (runMax) on
// seeded random small scenarios with reconfiguration (randomReconfCase):
// at the policies of levels 2 and 4, the bound of every up state where it
// applies must be at least its brackets at 161 intervals evenly spaced
// in log I over the search range and at maximize's optimum; and level 4
// with the bound must be level 4 without it (checkSameLevel4). Power:
// the bound without its drift terms (as if P_t left h unchanged) must
// fall below a bracket somewhere in the scan, the bound must skip some
// reconfiguring state's search, and at most a tenth of the scenarios
// may fail to solve (an error is a skipped scenario, not a pass).
func TestRunBoundRandomScan(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(2026, 5))
	const cases = 300
	failed, skips, flatBelow := 0, 0, 0
	for range cases {
		c := randomReconfCase(t, rng)
		solve := func(on bool) (*Solver, Single, Result, error) {
			runBound = on
			defer func() { runBound = true }()
			sv, err := New(c.sc, c.set)
			if err != nil {
				return nil, Single{}, Result{}, err
			}
			start := math.Sqrt(sv.set.MinInterval * min(sv.set.MaxInterval, 1e6))
			two, err := sv.SingleInterval(ctx, start)
			if err != nil {
				return nil, Single{}, Result{}, err
			}
			four, err := sv.PerState(ctx, two.Policy)
			return sv, two, four, err
		}
		sv, two, got, err := solve(true)
		_, _, want, err2 := solve(false)
		if err != nil || err2 != nil {
			if (err == nil) != (err2 == nil) {
				t.Errorf("%s: with the bound %v, without %v", c.name, err, err2)
			}
			failed++
			continue
		}
		t.Run(c.name, func(t *testing.T) { checkSameLevel4(t, got, want) })
		for _, pol := range []*Policy{two.Policy, got.Policy} {
			v, err := sv.evaluate(ctx, pol, false)
			if err != nil {
				continue // a policy level 4 repairs on the way (evaluate's repair off)
			}
			rb := sv.newRunBounds(v)
			flat := &runBounds{ok: rb.ok, fu: rb.fu, fx: rb.fx, pieces: rb.pieces, span: rb.span, fmax: rb.fmax, u: make([]drifts, len(sv.acts)), x: make([]drifts, len(sv.acts))}
			for b := range sv.acts {
				for _, d := range []struct{ to, from *drifts }{{&flat.u[b], &rb.u[b]}, {&flat.x[b], &rb.x[b]}} {
					d.to.g1, d.to.g2 = make([]float64, len(d.from.g1)), make([]float64, len(d.from.g1))
				}
			}
			xv := sv.newXValues(v)
			lo, hi := math.Log(sv.set.MinInterval), math.Log(sv.set.MaxInterval)
			for b, a := range sv.acts {
				s0, _ := sv.spares(a)
				for k := range pol.interval[b] {
					bd, ok := sv.runMax(rb, v, b, k, math.Inf(1))
					if !ok {
						continue
					}
					best := bestBracket(t, sv, v, b, k, lo, hi, 160)
					if best > bd {
						t.Errorf("%s: U(%d, %d): bracket %.17g above the bound %.17g", c.name, a, s0+k, best, bd)
					}
					if bf, _ := sv.runMax(flat, v, b, k, math.Inf(1)); best > bf {
						flatBelow++
					}
					if cur := pol.reconf[b][k]; cur != 0 && bd < xv.at(sv.pa(b), a+s0+k, cur) {
						skips++
					}
				}
			}
		}
	}
	if failed > cases/10 {
		t.Errorf("%d of %d scenarios failed to solve", failed, cases)
	}
	if flatBelow == 0 {
		t.Errorf("the bound without drift terms is never below a bracket: the scan cannot tell a wrong bound")
	}
	if skips == 0 {
		t.Errorf("the bound never skips a reconfiguring state's search in the scan")
	}
	t.Logf("%d scenarios, %d failed to solve; %d brackets above the bound without drifts; %d skips", cases, failed, flatBelow, skips)
}
