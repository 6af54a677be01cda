package sim

import (
	"math"
	"testing"

	"github.com/ckpt-markov/markov/scenario"
)

// FuzzTimeline drives a Timeline with arbitrary event lists on three
// processors (pairs of bytes: time step, processor; each event flips the
// processor's state) and checks the invariants of every run: the phases
// partition the time, commits account for the work and the useful time,
// counts are bounded by the events, and stopping half-way changes nothing.
func FuzzTimeline(f *testing.F) {
	f.Add([]byte{0, 50, 0, 30, 1, 0, 0, 10, 1, 20, 2, 5, 0})
	f.Add([]byte{1, 0, 0, 0, 1, 0, 2, 0, 0, 0, 1, 0, 2})
	f.Add([]byte{2, 255, 1, 255, 1, 3, 0, 3, 0, 200, 2})
	f.Add([]byte{3})
	vectors := [][]int{{1, 2, 3}, {0, 2, 2}, {1, 1, 1}, {0, 0, 3}}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		r := vectors[int(data[0])%len(vectors)]
		sc, err := scenario.New(scenario.System{Processors: 3, MTTF: 1, MTTR: 1},
			scenario.Application{WorkRate: []float64{1, 1.5, 2}, Latency: []float64{4, 6, 8}, Overhead: []float64{4, 3, 8},
				Recovery: scenario.RecoveryMatrix([][]float64{{1, 2, 3}, {4, 0, 6}, {7, 8, 9}})},
			scenario.Policy{Kind: scenario.Explicit, Explicit: r})
		if err != nil {
			t.Fatal(err)
		}
		up := []bool{true, true, true}
		var events []Event
		now, failures := 0.0, int64(0)
		for i := 1; i+1 < len(data); i += 2 {
			now += float64(data[i])
			p := int(data[i+1]) % 3
			events = append(events, Event{Time: now, Proc: p, Up: !up[p]})
			if up[p] {
				failures++
			}
			up[p] = !up[p]
		}
		src, err := NewListSource([]bool{true, true, true}, events)
		if err != nil {
			t.Fatalf("valid list rejected: %v", err)
		}
		until := now + 50
		run := func(stops ...float64) Totals {
			tl, err := NewTimeline(sc, 20, src, MostReliable{}, nil)
			if err != nil {
				t.Fatal(err)
			}
			for _, u := range stops {
				if err := tl.Run(u); err != nil {
					t.Fatal(err)
				}
			}
			return tl.Totals()
		}
		tot := run(until)
		if half := run(until/2, until); half != tot {
			t.Fatalf("stopping half-way changed the run:\n%+v\n%+v", half, tot)
		}
		if sum := tot.Up + tot.Recovery + tot.Down; math.Abs(sum-tot.Time) > 1e-9*until {
			t.Errorf("up+recovery+down = %v, time %v", sum, tot.Time)
		}
		// Commit sizes: useful 20+4−4 = 20, 20+6−3 = 23, 20+8−8 = 20,
		// work 20, 34.5, 40.
		if tot.Useful < 20*float64(tot.Commits)-1e-9 || tot.Useful > 23*float64(tot.Commits)+1e-9 ||
			tot.Work < 20*float64(tot.Commits)-1e-9 || tot.Work > 40*float64(tot.Commits)+1e-9 {
			t.Errorf("%d commits, useful %v, work %v", tot.Commits, tot.Useful, tot.Work)
		}
		if tot.Useful > tot.Up+1e-9 || tot.Functional > 3*tot.Time+1e-9 || tot.Functional < 0 {
			t.Errorf("useful %v, up %v, functional %v, time %v", tot.Useful, tot.Up, tot.Functional, tot.Time)
		}
		if tot.Events != int64(len(events)) || tot.Failures > failures {
			t.Errorf("events %d of %d, interruptions %d of %d failures", tot.Events, len(events), tot.Failures, failures)
		}
	})
}
