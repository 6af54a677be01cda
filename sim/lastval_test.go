package sim

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/ckpt-markov/markov/internal/quote"
	"github.com/ckpt-markov/markov/scenario"
)

// TestLastvalChoose ranks by recent availability, then failures, then
// index; counted by hand for each row.
func TestLastvalChoose(t *testing.T) {
	for _, tc := range []struct {
		recent []float64
		fails  []int
		a      int
		want   []int
	}{
		{[]float64{1, 1, 1, 1}, []int{0, 0, 0, 0}, 2, []int{0, 1}},            // all tied
		{[]float64{0.5, 1, 0.9, 1}, []int{0, 3, 0, 1}, 2, []int{3, 1}},        // recency first, then failures
		{[]float64{0.5, 0.2, 0.9, 0.1}, []int{9, 9, 9, 9}, 3, []int{2, 0, 1}}, // by recency alone
		{[]float64{1, 1, 1, 1}, []int{2, 1, 0, 1}, 3, []int{2, 1, 3}},         // failures break ties
	} {
		up := []int{0, 1, 2, 3}
		got := Lastval{}.ChooseRecent(nil, up, tc.a, tc.recent, tc.fails, nil)
		if !slices.Equal(got, tc.want) {
			t.Errorf("recent %v, fails %v, a = %d: chose %v, want %v", tc.recent, tc.fails, tc.a, got, tc.want)
		}
	}
	// Without recency it is MostReliable{}.
	if got := (Lastval{}).Choose(nil, []int{0, 1, 2}, 1, []int{2, 0, 1}, nil); !slices.Equal(got, []int{1}) {
		t.Errorf("Choose: %v, want [1]", got)
	}
	if (Lastval{}).Window() != DefaultLastvalWindow || (Lastval{Span: 60}).Window() != 60 {
		t.Error("Window")
	}
	if r, err := ParseRule("lastval"); err != nil || fmt.Sprint(r) != "lastval" {
		t.Errorf(`ParseRule("lastval") = %v, %v`, r, err)
	}
}

// TestRecencyBruteForce: the pruned record of down periods gives, at any
// time, the fraction of [max(0, t − W), t] a processor was functional,
// which the test recomputes from the whole event list (no pruning) for
// random seeded histories, to 1e−12.
func TestRecencyBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 4))
	const n = 5
	for trial := range 50 {
		w := 10 + 200*rng.Float64()
		rc := newRecency(Lastval{Span: w}, n)
		up := []bool{true, true, true, false, true}
		for i, u := range up {
			if !u {
				rc.fail(i, 0)
			}
		}
		type ev struct {
			t  float64
			up bool
		}
		hist := make([][]ev, n)
		now := 0.0
		for range 400 {
			now += rng.ExpFloat64() * 7
			i := rng.IntN(n)
			if up[i] {
				rc.fail(i, now)
			} else {
				rc.repair(i, now)
			}
			up[i] = !up[i]
			hist[i] = append(hist[i], ev{now, up[i]})
			if rng.IntN(5) != 0 {
				continue
			}
			var ids []int
			for j := range n {
				if up[j] {
					ids = append(ids, j)
				}
			}
			rc.fill(ids, now)
			lo := math.Max(0, now-w)
			for _, j := range ids {
				// Integrate the down time over [lo, now] from the full history.
				state := j != 3 // initial state
				last := 0.0
				down := 0.0
				for _, e := range hist[j] {
					if !state {
						down += math.Max(0, math.Min(e.t, now)-math.Max(last, lo))
					}
					state, last = e.up, e.t
				}
				want := 1 - down/(now-lo)
				if math.Abs(rc.frac[j]-want) > 1e-12 {
					t.Fatalf("trial %d, t = %v, processor %d: fraction %v, brute force %v", trial, now, j, rc.frac[j], want)
				}
			}
		}
	}
}

// TestLastvalTimeline replays a scripted history where the two rules
// differ, counted by hand. N = 3, r = (1, 1, 1), ω = 1, L = C = 10,
// R = 0, I = 90, window 100 s.
//
//	Start on {0} (all tied). Proc 2 fails at 5, repaired at 15; proc 1
//	fails at 101, repaired at 130. Commit at 100. Proc 0 fails at 150
//	(50 s of up lost): functional {1, 2}, one failure each. In [50, 150]
//	proc 1 was down 29 s (0.71), proc 2 never (1): Lastval picks 2,
//	MostReliable (tie) picks 1. Recovery [150, 160), up from 160. Proc 1
//	fails at 170:
//	  Lastval is not hit, commits at 260, up [260, 300): up 100 + 50 +
//	  100 + 40 = 290, recovery 10, 1 interruption, 2 commits.
//	  MostReliable is hit (10 s lost), recovers on {2} [170, 180),
//	  commits at 280, up [280, 300): up 100 + 50 + 10 + 100 + 20 = 280,
//	  recovery 20, 2 interruptions, 2 commits.
//	Functional: proc 0 150, proc 1 101 + 40, proc 2 5 + 285.
func TestLastvalTimeline(t *testing.T) {
	sc := scriptedScenario(t, 1, 1, []int{1, 1, 1}, []float64{1, 1, 1}, []float64{10, 10, 10}, []float64{10, 10, 10},
		scenario.RecoveryConstant(0, 3))
	events := []Event{fail(5, 2), repair(15, 2), fail(101, 1), repair(130, 1), fail(150, 0), fail(170, 1)}
	functional := 150.0 + 141 + 290
	for _, tc := range []struct {
		rule Rule
		want Totals
	}{
		{Lastval{Span: 100}, Totals{Time: 300, Work: 180, Useful: 180, Up: 290, Recovery: 10, Functional: functional, Failures: 1, Commits: 2, Events: 6}},
		{MostReliable{}, Totals{Time: 300, Work: 180, Useful: 180, Up: 280, Recovery: 20, Functional: functional, Failures: 2, Commits: 2, Events: 6}},
	} {
		src, err := NewListSource([]bool{true, true, true}, events)
		if err != nil {
			t.Fatal(err)
		}
		tl, err := NewTimeline(sc, 90, src, tc.rule, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := tl.Run(300); err != nil {
			t.Fatal(err)
		}
		got := tl.Totals()
		if !totalsClose(got, tc.want, 1e-9) {
			t.Errorf("%v: totals %+v, want %+v", tc.rule, got, tc.want)
		}
	}
}

// TestLastvalWindowErrors: a window that is not finite and positive is
// an error of NewTimeline and Run, not a panic.
func TestLastvalWindowErrors(t *testing.T) {
	sc := scriptedScenario(t, 3600, 3600, []int{1, 1}, []float64{1, 1}, []float64{10, 10}, []float64{10, 10}, scenario.RecoveryConstant(0, 2))
	for _, w := range []float64{-1, math.NaN(), math.Inf(1)} {
		src, err := NewListSource([]bool{true, true}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := NewTimeline(sc, 90, src, Lastval{Span: w}, nil); err == nil {
			t.Errorf("NewTimeline, window %v: no error", w)
		}
		if _, err := Run(context.Background(), sc, 90, &Settings{Rule: Lastval{Span: w}, Replications: 2}); err == nil {
			t.Errorf("Run, window %v: no error", w)
		}
	}
}

// FuzzParseRule: ParseRule never panics, an accepted name round-trips
// through String, and an error quotes a bounded prefix of the input.
func FuzzParseRule(f *testing.F) {
	for _, s := range []string{"", "lastval", "most-reliable", "random", "lowest-index", "Lastval", "lastval:1h", "\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := ParseRule(s)
		if err != nil {
			// The message's own text, and at most quote.MaxBytes bytes of
			// the input, each escaped in at most 4 characters (\xff).
			if len(err.Error()) > 120+4*quote.MaxBytes {
				t.Errorf("error of %d bytes", len(err.Error()))
			}
			return
		}
		if s != "" && fmt.Sprint(r) != s {
			t.Errorf("ParseRule(%q) = %v", s, r)
		}
	})
}

// TestLastvalFollowsChangingHosts: volunteer hosts change behaviour.
// Hosts 0–3 fail every hour on average during the first 1,000 hours and
// every 100 hours after; hosts 4–7 the other way round (all repaired in
// an hour on average; a seeded history). The application runs on 4 hosts
// and chooses at every start and recovery. In the second half
// MostReliable still prefers hosts 4–7, which failed less over the whole
// run, although they are now the flaky ones; Lastval, looking at the last
// hour only, moves to hosts 0–3. So Lastval must be interrupted less
// often than MostReliable and commit more work than MostReliable,
// LowestIndex and Random; a rule that ignored recent availability would
// be MostReliable (ratio 1). Over the histories of seeds (25, 1 … 4) and
// (25, 7) the ratio of interruptions was 0.70–0.76 and the order of the
// work the same; the test asks for a ratio below 0.85.
func TestLastvalFollowsChangingHosts(t *testing.T) {
	const n, horizon = 8, 2000 * 3600.0
	rng := rand.New(rand.NewPCG(25, 7))
	var events []Event
	for i := range n {
		mttf := func(tm float64) float64 {
			if (i < 4) == (tm < horizon/2) {
				return 3600
			}
			return 100 * 3600
		}
		for tm := rng.ExpFloat64() * mttf(0); tm < horizon; {
			events = append(events, fail(tm, i))
			tm += rng.ExpFloat64() * 3600
			if tm >= horizon {
				break
			}
			events = append(events, repair(tm, i))
			tm += rng.ExpFloat64() * mttf(tm)
		}
	}
	slices.SortStableFunc(events, func(a, b Event) int { return cmpFloat(a.Time, b.Time) })
	r := make([]int, n)
	for k := range r {
		if k+1 >= 4 {
			r[k] = 4
		}
	}
	w := make([]float64, n)
	l := make([]float64, n)
	for k := range w {
		w[k], l[k] = 4, 60
	}
	sc := scriptedScenario(t, 3600, 3600, r, w, l, l, scenario.RecoveryConstant(60, n))
	got := map[string]Totals{}
	for _, rule := range []Rule{Lastval{}, MostReliable{}, LowestIndex{}, Random{}} {
		up := make([]bool, n)
		for i := range up {
			up[i] = true
		}
		src, err := NewListSource(up, events)
		if err != nil {
			t.Fatal(err)
		}
		tl, err := NewTimeline(sc, 3600, src, rule, rand.New(rand.NewPCG(1, 1)))
		if err != nil {
			t.Fatal(err)
		}
		if err := tl.Run(horizon); err != nil {
			t.Fatal(err)
		}
		got[fmt.Sprint(rule)] = tl.Totals()
	}
	lv := got["lastval"]
	for name, tot := range got {
		t.Logf("%-13s interruptions %4d, useful %.4g s", name, tot.Failures, tot.Useful)
		if name != "lastval" && !(lv.Useful > tot.Useful) {
			t.Errorf("lastval commits %.4g s, %s %.4g s", lv.Useful, name, tot.Useful)
		}
	}
	if mr := got["most-reliable"]; !(float64(lv.Failures) < 0.85*float64(mr.Failures)) {
		t.Errorf("lastval interrupted %d times, most-reliable %d: lastval does not follow the hosts' change", lv.Failures, mr.Failures)
	}
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
