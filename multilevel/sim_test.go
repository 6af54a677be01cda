package multilevel

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/ckpt-markov/markov/scenario"
)

// segmentLevels returns the level of the checkpoint ending each segment
// of a period (flat, in order).
func segmentLevels(pattern []int) []int {
	L := len(pattern) + 1
	var lev []int
	var build func(l, k int)
	build = func(l, k int) {
		if l == 1 {
			lev = append(lev, k)
			return
		}
		for i := 0; i < pattern[l-2]; i++ {
			build(l-1, l-1)
		}
		build(l-1, k)
	}
	build(L, L)
	return lev
}

// simulate runs the process of docs/model.md section 12 event by event
// (N processors failing at λ, severities drawn per failure, repairs at
// θ, the application on a of them) for horizon seconds and returns the
// work per second that no later failure took back (a segment's work
// counts when its checkpoint is written and is taken back when a failure
// rolls back before it). It is written from the rules directly,
// without the package's composition or its down-time factor.
func simulate(rng *rand.Rand, n, a int, lambda, theta, omega float64, levels []Level, sev []float64, after bool, pattern []int, I, horizon float64) float64 {
	L := len(levels)
	lev := segmentLevels(pattern)
	P := len(lev)
	level := func(b int) int {
		if b == 0 {
			return L
		}
		return lev[b-1]
	}
	newest := func(b, s int) int {
		for level(b) < s {
			b--
		}
		return b
	}
	draw := func() int {
		u := rng.Float64()
		for s, f := range sev {
			if u < f {
				return s + 1
			}
			u -= f
		}
		return L
	}
	mu := lambda
	if L > 1 {
		mu = lambda * (1 - sev[0])
	}
	const (
		running = iota
		recovering
		down
	)
	mode, pos, functional := running, 0, n
	left := I + levels[lev[0]-1].Latency
	recTime := func(b int) float64 {
		lv := levels[level(b)-1]
		if after {
			return lv.Recovery + lv.Latency
		}
		return lv.Recovery
	}
	committed := func(k int) float64 {
		c := levels[lev[k]-1]
		return omega * (I + c.Latency - c.Overhead)
	}
	t, work := 0.0, 0.0
	for t < horizon {
		failed := float64(n - functional)
		var usedRate, spareRate float64
		if mode == down {
			spareRate = float64(functional) * mu
		} else {
			usedRate = float64(a) * lambda
			spareRate = float64(functional-a) * mu
		}
		total := usedRate + spareRate + failed*theta
		dt := rng.ExpFloat64() / total
		if mode != down && dt >= left {
			t += left
			if mode == running {
				work += committed(pos)
				pos = (pos + 1) % P
			}
			mode = running
			left = I + levels[lev[pos]-1].Latency
			continue
		}
		t += dt
		if mode != down {
			left -= dt
		}
		u := rng.Float64() * total
		switch {
		case u < usedRate:
			s := draw()
			if s > 1 || L == 1 {
				functional--
			}
			back := pos
			if mode == running {
				back = newest(pos, s)
			} else { // recovering to pos
				l := level(pos)
				switch {
				case s < l || l == L:
				case s == l:
					back = newest(pos, l+1)
				default:
					back = newest(pos, s)
				}
			}
			// The work of the segments rolled back was not kept.
			for k := back; k < pos; k++ {
				work -= committed(k)
			}
			pos = back
			if functional >= a {
				mode, left = recovering, recTime(pos)
			} else {
				mode = down
			}
		case u < usedRate+spareRate:
			functional--
		default:
			functional++
			if mode == down && functional == a {
				mode, left = recovering, recTime(pos)
			}
		}
	}
	return work / t
}

// TestSimulation: the model's UWT lies in the 99 % confidence interval
// of an event-by-event simulation (32 seeded replications) of three
// levels on 4 of 6 processors with repairs, with and without the
// checkpoint after recovery; and the simulation has the power to see a
// plausible modelling error: severity-1 failures taking processors down
// (μ = λ) moves the model out of the interval.
func TestSimulation(t *testing.T) {
	if testing.Short() {
		t.Skip("simulation: skipped in -short")
	}
	const (
		n, a          = 6, 4
		mttf, mttr    = 20000.0, 3000.0
		I             = 300.0
		horizon, reps = 1e7, 32
	)
	levels := []Level{{Latency: 5, Overhead: 3, Recovery: 5}, {Latency: 40, Overhead: 30, Recovery: 60}, {Latency: 200, Overhead: 150, Recovery: 300}}
	sev := []float64{0.6, 0.3, 0.1}
	pattern := []int{3, 2}
	for _, after := range []bool{true, false} {
		app := scenario.Application{WorkRate: []float64{1, 2, 3, 4, 5, 6}, NoCheckpointAfterRecovery: !after}
		for _, lv := range levels {
			app.Levels = append(app.Levels, scenario.Level{Latency: constant(lv.Latency, n), Overhead: constant(lv.Overhead, n), Recovery: scenario.RecoveryLinear(lv.Recovery, 0, 0, n)})
		}
		sc, err := scenario.New(scenario.System{Processors: n, MTTF: mttf, MTTR: mttr, FailureSeverity: &scenario.FailureSeverity{Shares: sev}},
			app, scenario.Policy{Kind: scenario.Moldable, Processors: a})
		if err != nil {
			t.Fatal(err)
		}
		m, err := New(sc)
		if err != nil {
			t.Fatal(err)
		}
		model, err := m.Evaluate(pattern, I)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(2026, 22))
		var sum, sum2 float64
		for range reps {
			x := simulate(rng, n, a, 1/mttf, 1/mttr, 4, levels, sev, after, pattern, I, horizon)
			sum += x
			sum2 += x * x
		}
		mean := sum / reps
		half := 2.576 * math.Sqrt((sum2/reps-mean*mean)/(reps-1))
		t.Logf("checkpoint after recovery %v: model %.6f, simulation %.6f ± %.6f", after, model.UWT, mean, half)
		if math.Abs(model.UWT-mean) > half {
			t.Errorf("checkpoint after recovery %v: model %.6f outside the simulation's 99%% interval %.6f ± %.6f", after, model.UWT, mean, half)
		}
		// Power: severity-1 failures taking processors down.
		wrong := *m
		wrong.down = downPerRunning(n, a, 1/mttf, 1/mttr)
		w, _ := wrong.Evaluate(pattern, I)
		if math.Abs(w.UWT-mean) <= half {
			t.Errorf("no power: the wrong model (severity 1 takes processors down) %.6f is inside %.6f ± %.6f", w.UWT, mean, half)
		}
		t.Logf("  wrong model (μ = λ): %.6f", w.UWT)
	}
}
