package uwt

import (
	"context"
	"maps"
	"math"
	"slices"
	"testing"

	"github.com/ckpt-markov/markov/scenario"
)

// TestEventPhasesMatchSegmentChain: with failure events the fast path's
// chain of up phases (decision states only; batchchain.Phase.Exit and
// Segments) agrees with the fast path's per-segment chain (up states
// U(a, s) whose rows are recomputed by uniformization at every interval,
// eventPhases off) to 1e-9 relative in UWT and availability, on the seven
// batch scenarios (one with a recovery matrix R(p, a), whose rows are
// split between the old and the new count) at four intervals from 5 min
// to 5.5 h. TestBatchRowOracle holds the same path against the chain
// built by hand (1e-12), TestBatchFastMatchesExact against the exact
// path's dense Van Loan exponentials (1e-9), TestBatchPathSingleSize
// with sizes [1] against the single-failure chain of up phases (1e-12),
// TestBatchMatchesSimulation against the simulator.
func TestEventPhasesMatchSegmentChain(t *testing.T) {
	skipNumericsUnderRace(t)
	scs := batchScenarios(t)
	for _, name := range slices.Sorted(maps.Keys(scs)) {
		sc := scs[name]
		for _, interval := range []float64{300, 1800, 3 * 3600, 20000} {
			got := evaluate(t, sc, nil, interval)
			eventPhases = false
			want := evaluate(t, sc, nil, interval)
			eventPhases = true
			if !got.Phases || want.Phases {
				t.Fatalf("%s: Phases %v with eventPhases, %v without", name, got.Phases, want.Phases)
			}
			for _, v := range []struct {
				what      string
				got, want float64
			}{{"UWT", got.UWT, want.UWT}, {"availability", got.Availability, want.Availability}} {
				if d := math.Abs(v.got-v.want) / v.want; d > 1e-9 {
					t.Errorf("%s I=%v: %s %.15g on the chain of up phases (%d states), %.15g per segment (%d states): rel %.2g",
						name, interval, v.what, v.got, got.States, v.want, want.States, d)
				}
			}
			if got.States >= want.States {
				t.Errorf("%s I=%v: %d states on the chain of up phases, %d per segment", name, interval, got.States, want.States)
			}
		}
	}
}

// TestEventPhasesSingleSize: sizes [1] through the batch code (forceBatch)
// on the chain of up phases gives the single-failure chain of up phases
// (the binomial closed form and the resolvent) to 1e-12, at intervals
// from 5 min to a day.
func TestEventPhasesSingleSize(t *testing.T) {
	scs := testScenarios(t)
	for _, name := range slices.Sorted(maps.Keys(scs)) {
		sc := scs[name]
		for _, interval := range []float64{300, 3600, 86400} {
			want := evaluate(t, sc, nil, interval)
			forceBatch = true
			got := evaluate(t, sc, nil, interval)
			forceBatch = false
			if !got.Phases {
				t.Fatalf("%s: the batch path did not take the chain of up phases", name)
			}
			if d := math.Abs(got.UWT-want.UWT) / want.UWT; d > 1e-12 {
				t.Errorf("%s I=%v: batch path %.16g, single failures %.16g (rel %.2g)", name, interval, got.UWT, want.UWT, d)
			}
		}
	}
}

// TestEventPhasesOrderIndependent: the chain of up phases is solved once
// and each interval's rewards depend on the interval only (the sums of
// batchchain.Segments stop on a fixed ladder), so a Model gives the same
// bits at an interval whatever it evaluated before, and the same as a
// fresh Model.
func TestEventPhasesOrderIndependent(t *testing.T) {
	sc := batchScenarios(t)["greedy N=64 sizes 1-8"]
	intervals := []float64{300, 86400, 1200, 20000, 600}
	m, err := New(context.Background(), sc, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k := len(intervals) - 1; k >= 0; k-- {
		if _, err := m.Evaluate(context.Background(), intervals[k]); err != nil {
			t.Fatal(err)
		}
	}
	for _, i := range intervals {
		got, err := m.Evaluate(context.Background(), i)
		if err != nil {
			t.Fatal(err)
		}
		fresh := evaluate(t, sc, nil, i)
		if got.UWT != fresh.UWT || got.Availability != fresh.Availability {
			t.Errorf("I=%v: %v after other intervals, %v from a fresh model", i, got.UWT, fresh.UWT)
		}
	}
}

// TestEventReconfigureKeepsSegments: with reconfiguration at checkpoints
// the up phase depends on the checkpoints, so the fast path keeps the
// per-segment chain (Phases false).
func TestEventReconfigureKeepsSegments(t *testing.T) {
	sc := *batchScenarios(t)["moldable N=24 sizes 2-6"]
	sc.Reconfigure = scenario.AtCheckpoint
	if res := evaluate(t, &sc, nil, 1800); res.Phases {
		t.Errorf("reconfigure at-checkpoint with failure events took the chain of up phases")
	}
}

// TestEventPhasesReleased: on the chain of up phases with failure
// events, once the last segment of a used count is filled its chain and
// phase (their rate tables) are released and only the base of its
// sequence is kept (batchChains.filled). The UWT and availability must
// be bit for bit those of a model whose bases are built afresh from
// rebuilt phases (segmentsBase's other path), with one worker or two (in
// the scenario with a recovery matrix a count has several segments, so
// that the release waits for the last); and the release must have
// happened (no chain or phase left beside a kept base).
func TestEventPhasesReleased(t *testing.T) {
	scs := batchScenarios(t)
	for _, name := range slices.Sorted(maps.Keys(scs)) {
		sc := scs[name]
		var first Result
		for _, workers := range []int{1, 2} {
			for _, rebuild := range []bool{false, true} {
				m, err := New(context.Background(), sc, &Settings{Workers: workers})
				if err != nil {
					t.Fatal(err)
				}
				b := m.rows.batch
				kept := 0
				b.bases.Range(func(a, _ any) bool {
					kept++
					_, ph := b.phases.Load(a)
					_, ch := b.chains.Load(a)
					if ph || ch {
						t.Errorf("%s: a = %v: base kept with its phase %v, chain %v", name, a, ph, ch)
					}
					if rebuild {
						b.bases.Delete(a)
					}
					return true
				})
				r, err := m.Evaluate(context.Background(), 1800)
				if err != nil {
					t.Fatal(err)
				}
				if !r.Phases {
					break // no chain of up phases: nothing released
				}
				if kept == 0 {
					t.Errorf("%s: no base kept after the build", name)
				}
				if workers == 1 && !rebuild {
					first = r
					continue
				}
				if r.UWT != first.UWT || r.Availability != first.Availability {
					t.Errorf("%s workers=%d rebuilt=%v: UWT %v, availability %v; released, one worker: %v, %v",
						name, workers, rebuild, r.UWT, r.Availability, first.UWT, first.Availability)
				}
			}
		}
	}
}

// TestEntriesBound: the storage the assembly reserves (entriesBound) is
// at least the transitions it adds, with and without failure events, on
// the chain of up phases and per segment, so that it never grows by
// appends; and it is not far above them (at most 4 times, plus the
// states), so that it does not reserve memory for nothing.
func TestEntriesBound(t *testing.T) {
	scs := batchScenarios(t)
	for name, sc := range testScenarios(t) {
		scs["single "+name] = sc
	}
	for _, name := range slices.Sorted(maps.Keys(scs)) {
		for _, phases := range []bool{true, false} {
			eventPhases = phases
			m, err := New(context.Background(), scs[name], nil)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := m.Evaluate(context.Background(), 1800); err != nil {
				t.Fatal(err)
			}
			eventPhases = true
			if m.asm == nil {
				continue // one recovery class: nothing assembled
			}
			n, bound := len(m.asm.rows), m.entriesBound()
			if n > bound || bound > 4*n+len(m.sk.states) {
				t.Errorf("%s (phases %v): %d transitions, bound %d", name, phases, n, bound)
			}
		}
	}
}
