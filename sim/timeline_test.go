package sim

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/ckpt-markov/markov/scenario"
)

// scriptedScenario builds a scenario from explicit vectors without going
// through a policy, so that tests can use any rescheduling vector.
func scriptedScenario(t testing.TB, mttf, mttr float64, r []int, w, l, c []float64, rec scenario.Recovery) *scenario.Scenario {
	t.Helper()
	sc, err := scenario.New(scenario.System{Processors: len(r), MTTF: mttf, MTTR: mttr},
		scenario.Application{WorkRate: w, Latency: l, Overhead: c, Recovery: rec},
		scenario.Policy{Kind: scenario.Explicit, Explicit: r})
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// fail and repair build scripted events.
func fail(t float64, p int) Event   { return Event{Time: t, Proc: p} }
func repair(t float64, p int) Event { return Event{Time: t, Proc: p, Up: true} }

// TestScriptedHandCount replays fixed event lists whose outcome is counted
// by hand from the rules of docs/model.md section 3 (the counts are in the
// comments of each case).
func TestScriptedHandCount(t *testing.T) {
	// Case "malleable": N = 2, r = (1, 2), ω = (1, 1.5), L = (10, 6),
	// C = (10, 4), R(p, a) = [[5, 7], [20, 3]], I = 100.
	// T_U(2) = 106, commit on 2 = 1.5·102 = 153 (useful 102);
	// T_U(1) = 110, commit on 1 = 1·100 = 100 (useful 100).
	//   [0,106) [106,212) commit on {0,1}; [212,...) hit at 250 by proc 1.
	//   n = 1: recovery on {0} from p = 2: R(2,1)+L(1) = 30, [250,280).
	//   260 proc 1 repaired (spare). Up on {0}: [280,390) commits.
	//   400 proc 1 fails (spare, no interruption), 420 repaired.
	//   450 proc 0 fails: up lost (170 s since 280). Recovery on {1} from
	//   p = 1: 5+10 = 15, [450,465); 460 proc 1 fails: recovery lost, n = 0
	//   so down. 500 proc 0 repaired: recovery from p = 1 (unchanged),
	//   [500,515). Up [515,625) commits. 600 proc 1 repaired. Stop at 700.
	//   Up 250+170+185 = 605, recovery 30+10+15 = 55, down 40.
	//   Work 2·153 + 100 + 100 = 506, useful 2·102 + 200 = 404.
	//   Functional: proc 0 up 450 + 200, proc 1 up 250 + 140 + 40 + 100.
	malleable := struct {
		sc     *scenario.Scenario
		events []Event
	}{
		scriptedScenario(t, 1, 1, []int{1, 2}, []float64{1, 1.5}, []float64{10, 6}, []float64{10, 4},
			scenario.RecoveryMatrix([][]float64{{5, 7}, {20, 3}})),
		[]Event{fail(250, 1), repair(260, 1), fail(400, 1), repair(420, 1), fail(450, 0), fail(460, 1), repair(500, 0), repair(600, 1)},
	}
	// Case "moldable": N = 3, r = (0, 2, 2), ω = (1, 2, 3), L = C = 10,
	// R = 30, I = 90: T_U(2) = 100, commit = 2·90 = 180 (useful 90).
	//   Used {0,1} (lowest index), spare 2. Commits at 100, 200. 150 spare 2
	//   fails. Proc 0 fails at exactly 300, the end of [200,300): the
	//   segment commits first (events at a segment end come after it), then
	//   the new segment is hit at once (0 s). n = 1, r(1) = 0: down.
	//   350 proc 2 repaired: n = 2, recovery on {1,2}: 40 s, [350,390).
	//   360 proc 0 repaired (spare). Commits at 490, 590. 600 proc 1 fails:
	//   recovery on {0,2}, [600,640), which completes at until = 640.
	//   Up 300 + 210 = 510, recovery 80, down 50; 5 commits, work 900.
	//   Functional: 300+280, 600, 150+290.
	moldable := struct {
		sc     *scenario.Scenario
		events []Event
	}{
		scriptedScenario(t, 1, 1, []int{0, 2, 2}, []float64{1, 2, 3}, []float64{10, 10, 10}, []float64{10, 10, 10},
			scenario.RecoveryConstant(30, 3)),
		[]Event{fail(150, 2), fail(300, 0), repair(350, 2), repair(360, 0), fail(600, 1)},
	}
	// Case "rule": N = 3, r = (1, 1, 1), ω = 1, L = C = 10, R = 0, I = 90.
	//   Start on {0}. 10 proc 1 fails (spare), 20 repaired. 50 proc 0
	//   fails; functional {1, 2} with failures (1, 0). LowestIndex picks 1,
	//   MostReliable picks 2. Recovery [50,60), up from 60. 70 proc 1 fails:
	//   LowestIndex is hit (up 10 s lost), recovers on {2} [70,80) and
	//   commits at 180; MostReliable is not hit and commits at 160.
	//   Stop at 200: LowestIndex up 50+10+120 = 180, recovery 20,
	//   2 failures; MostReliable up 50+140 = 190, recovery 10, 1 failure.
	//   One commit of 1·(90+10−10) = 90. Functional: proc 0 [0,50),
	//   proc 1 [0,10)+[20,70), proc 2 throughout.
	rule := struct {
		sc     *scenario.Scenario
		events []Event
	}{
		scriptedScenario(t, 1, 1, []int{1, 1, 1}, []float64{1, 1, 1}, []float64{10, 10, 10}, []float64{10, 10, 10},
			scenario.RecoveryConstant(0, 3)),
		[]Event{fail(10, 1), repair(20, 1), fail(50, 0), fail(70, 1)},
	}
	// Case "late start": N = 2, r = (0, 2), ω = (1, 2), L = C = 10, I = 90,
	// proc 1 failed at time 0 and repaired at 50: the application waits,
	// then starts an up segment (nothing to restore) [50,150) and commits
	// 2·90 = 180. Stop at 200: down 50, up 150.
	late := scriptedScenario(t, 1, 1, []int{0, 2}, []float64{1, 2}, []float64{10, 10}, []float64{10, 10},
		scenario.RecoveryConstant(1000, 2))

	for _, tc := range []struct {
		name   string
		sc     *scenario.Scenario
		up     []bool
		events []Event
		rule   Rule
		until  float64
		want   Totals
	}{
		{"malleable", malleable.sc, []bool{true, true}, malleable.events, nil, 700,
			Totals{Time: 700, Work: 506, Useful: 404, Up: 605, Recovery: 55, Down: 40, Functional: 650 + 530, Failures: 3, Commits: 4, Events: 8}},
		{"moldable", moldable.sc, []bool{true, true, true}, moldable.events, LowestIndex{}, 640,
			Totals{Time: 640, Work: 900, Useful: 450, Up: 510, Recovery: 80, Down: 50, Functional: 580 + 600 + 440, Failures: 2, Commits: 5, Events: 5}},
		{"rule lowest", rule.sc, []bool{true, true, true}, rule.events, LowestIndex{}, 200,
			Totals{Time: 200, Work: 90, Useful: 90, Up: 180, Recovery: 20, Down: 0, Functional: 50 + 60 + 200, Failures: 2, Commits: 1, Events: 4}},
		{"rule reliable", rule.sc, []bool{true, true, true}, rule.events, MostReliable{}, 200,
			Totals{Time: 200, Work: 90, Useful: 90, Up: 190, Recovery: 10, Down: 0, Functional: 50 + 60 + 200, Failures: 1, Commits: 1, Events: 4}},
		// The default rule (nil) is MostReliable: the same run. Fails on
		// the old code, whose default was LowestIndex.
		{"rule default", rule.sc, []bool{true, true, true}, rule.events, nil, 200,
			Totals{Time: 200, Work: 90, Useful: 90, Up: 190, Recovery: 10, Down: 0, Functional: 50 + 60 + 200, Failures: 1, Commits: 1, Events: 4}},
		{"late start", late, []bool{true, false}, []Event{repair(50, 1)}, nil, 200,
			Totals{Time: 200, Work: 180, Useful: 90, Up: 150, Down: 50, Functional: 200 + 150, Commits: 1, Events: 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src, err := NewListSource(tc.up, tc.events)
			if err != nil {
				t.Fatal(err)
			}
			// One step, and steps that stop inside segments, exactly at
			// events and at segment ends: the totals must not depend on it.
			for _, steps := range [][]float64{{tc.until}, {0, 100, 250, 255, 300, 300, 455, 460, 500, 599.5, tc.until}} {
				tl, err := NewTimeline(tc.sc, 90+10*boolToFloat(tc.name == "malleable"), src, tc.rule, nil)
				if err != nil {
					t.Fatal(err)
				}
				for _, u := range steps {
					if u > tc.until {
						continue
					}
					if err := tl.Run(u); err != nil {
						t.Fatal(err)
					}
				}
				if got := tl.Totals(); !totalsClose(got, tc.want, 1e-9) {
					t.Errorf("steps %v:\n got %+v\nwant %+v", steps, got, tc.want)
				}
			}
		})
	}
}

func boolToFloat(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// totalsClose compares totals with a relative tolerance on the times
// (sums of segment lengths round).
func totalsClose(a, b Totals, tol float64) bool {
	close := func(x, y float64) bool { return math.Abs(x-y) <= tol*math.Max(1, math.Abs(y)) }
	return close(a.Time, b.Time) && close(a.Work, b.Work) && close(a.Useful, b.Useful) &&
		close(a.Up, b.Up) && close(a.Recovery, b.Recovery) && close(a.Down, b.Down) &&
		close(a.Functional, b.Functional) &&
		a.Failures == b.Failures && a.Commits == b.Commits && a.Events == b.Events
}

// TestTimelineStepInvariance checks that advancing a random run in many
// small steps gives bit-identical totals to one step: pausing must not
// change the trajectory (Run relies on it to extend replications).
func TestTimelineStepInvariance(t *testing.T) {
	sc := scriptedScenario(t, 4*3600, 3600, []int{0, 2, 2, 4}, []float64{1, 1.9, 2.7, 3.4},
		[]float64{20, 30, 40, 50}, []float64{20, 25, 40, 35}, scenario.RecoveryConstant(60, 4))
	run := func(steps int) Totals {
		src, err := NewExponential(4, 4*3600, 3600, rand.New(rand.NewPCG(7, 8)))
		if err != nil {
			t.Fatal(err)
		}
		tl, err := NewTimeline(sc, 1200, src, Random{}, rand.New(rand.NewPCG(9, 10)))
		if err != nil {
			t.Fatal(err)
		}
		const horizon = 1e7
		for i := 1; i <= steps; i++ {
			if err := tl.Run(horizon * float64(i) / float64(steps)); err != nil {
				t.Fatal(err)
			}
		}
		return tl.Totals()
	}
	one := run(1)
	if one.Failures == 0 || one.Down == 0 || one.Commits == 0 {
		t.Fatalf("run does not exercise failures, down periods and commits: %+v", one)
	}
	for _, steps := range []int{2, 7, 1000} {
		if got := run(steps); got != one {
			t.Errorf("%d steps: %+v, one step %+v", steps, got, one)
		}
	}
	// Pauses after a budget of events (how Run's workers look at the
	// context) do not change the trajectory either.
	for _, budget := range []int{1, 7, 1000} {
		src, err := NewExponential(4, 4*3600, 3600, rand.New(rand.NewPCG(7, 8)))
		if err != nil {
			t.Fatal(err)
		}
		tl, err := NewTimeline(sc, 1200, src, Random{}, rand.New(rand.NewPCG(9, 10)))
		if err != nil {
			t.Fatal(err)
		}
		pauses := 0
		for done := false; !done; pauses++ {
			if done, err = tl.run(1e7, budget); err != nil {
				t.Fatal(err)
			}
		}
		if got := tl.Totals(); got != one || pauses < 2 {
			t.Errorf("budget %d (%d pauses): %+v, one step %+v", budget, pauses, got, one)
		}
	}
	// The phases partition the time.
	if sum := one.Up + one.Recovery + one.Down; math.Abs(sum-one.Time) > 1e-9*one.Time {
		t.Errorf("up+recovery+down = %v, time %v", sum, one.Time)
	}
}

// badSource returns the events it holds without checking them.
type badSource struct {
	up     []bool
	events []Event
}

func (b *badSource) Processors() int { return len(b.up) }
func (b *badSource) Init(up []bool)  { copy(up, b.up) }
func (b *badSource) Next() Event {
	if len(b.events) == 0 {
		return Event{Time: math.Inf(1)}
	}
	ev := b.events[0]
	b.events = b.events[1:]
	return ev
}

func TestTimelineErrors(t *testing.T) {
	sc := scriptedScenario(t, 1, 1, []int{1, 2}, []float64{1, 2}, []float64{1, 1}, []float64{1, 1}, scenario.Recovery{})
	for _, tc := range []struct {
		name   string
		events []Event
		want   string
	}{
		{"processor out of range", []Event{fail(5, 2)}, "outside"},
		{"negative processor", []Event{fail(5, -1)}, "outside"},
		{"time backwards", []Event{fail(5, 0), repair(3, 0)}, "want a time ≥ 5"},
		{"NaN time", []Event{{Time: math.NaN()}}, "NaN"},
		{"double failure", []Event{fail(5, 0), fail(6, 0)}, "already failed"},
		{"repair of functional", []Event{repair(5, 1)}, "already functional"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tl, err := NewTimeline(sc, 10, &badSource{up: []bool{true, true}, events: tc.events}, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			err = tl.Run(100)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
			if err2 := tl.Run(200); err2 != err {
				t.Errorf("second Run: %v, want the same error", err2)
			}
			// The same list is rejected up front by NewListSource.
			if _, err := NewListSource([]bool{true, true}, tc.events); err == nil {
				t.Errorf("NewListSource accepted %v", tc.events)
			}
		})
	}
	src, _ := NewListSource([]bool{true, true}, nil)
	tl, err := NewTimeline(sc, 10, src, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, until := range []float64{-1, math.NaN(), math.Inf(1)} {
		if err := tl.Run(until); err == nil || !strings.Contains(err.Error(), "until") {
			t.Errorf("Run(%v): error %v, want one naming until", until, err)
		}
	}
	for _, tc := range []struct {
		name     string
		interval float64
		src      Source
		want     string
	}{
		{"zero interval", 0, src, "interval"},
		{"infinite interval", math.Inf(1), src, "interval"},
		{"nil source", 10, nil, "source is nil"},
		{"wrong size", 10, &badSource{up: []bool{true}}, "1 processors"},
	} {
		if _, err := NewTimeline(sc, tc.interval, tc.src, nil, nil); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
	}
	if _, err := NewListSource(nil, nil); err == nil {
		t.Error("NewListSource accepted no processors")
	}
	if _, err := NewListSource([]bool{true}, []Event{fail(math.Inf(1), 0)}); err == nil {
		t.Error("NewListSource accepted an infinite time")
	}
	for _, tc := range []struct {
		n          int
		mttf, mttr float64
		rng        *rand.Rand
		want       string
	}{
		{0, 1, 1, rand.New(rand.NewPCG(1, 1)), "processors"},
		{1, -1, 1, rand.New(rand.NewPCG(1, 1)), "mttf"},
		{1, 1, math.NaN(), rand.New(rand.NewPCG(1, 1)), "mttr"},
		{1, 1, math.Inf(1), rand.New(rand.NewPCG(1, 1)), "mttr"},
		{1, 1, 1, nil, "rng"},
	} {
		if _, err := NewExponential(tc.n, tc.mttf, tc.mttr, tc.rng); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("NewExponential(%d, %v, %v): error %v, want one naming %s", tc.n, tc.mttf, tc.mttr, err, tc.want)
		}
	}
}

// TestRulePanics checks that a rule breaking its contract is reported.
func TestRulePanics(t *testing.T) {
	sc := scriptedScenario(t, 1, 1, []int{1, 2}, []float64{1, 2}, []float64{1, 1}, []float64{1, 1}, scenario.Recovery{})
	src, _ := NewListSource([]bool{true, true}, nil)
	for _, r := range []Rule{ruleFunc(func(dst, up []int, a int) []int { return dst }),
		ruleFunc(func(dst, up []int, a int) []int { return append(dst, up[0], up[0]) })} {
		func() {
			defer func() {
				if recover() == nil {
					t.Error("no panic for a bad rule")
				}
			}()
			_, _ = NewTimeline(sc, 10, src, r, nil)
		}()
	}
}

type ruleFunc func(dst, up []int, a int) []int

func (f ruleFunc) Choose(dst, up []int, a int, _ []int, _ *rand.Rand) []int { return f(dst, up, a) }

// TestRules checks that each rule returns a distinct functional processors
// with its documented preference.
func TestRules(t *testing.T) {
	up := []int{1, 3, 4, 6}
	fails := []int{0, 5, 0, 2, 1, 0, 2}
	rng := rand.New(rand.NewPCG(3, 4))
	if got := (LowestIndex{}).Choose(nil, append([]int(nil), up...), 2, fails, rng); !slices.Equal(got, []int{1, 3}) {
		t.Errorf("LowestIndex = %v, want [1 3]", got)
	}
	// fails: 1→5, 3→2, 4→1, 6→2: fewest are 4, then 3 and 6 (tie, lower 3).
	if got := (MostReliable{}).Choose(nil, append([]int(nil), up...), 2, fails, rng); !slices.Equal(got, []int{4, 3}) {
		t.Errorf("MostReliable = %v, want [4 3]", got)
	}
	seen := map[int]int{}
	for range 4000 {
		got := (Random{}).Choose(nil, append([]int(nil), up...), 2, fails, rng)
		if len(got) != 2 || got[0] == got[1] {
			t.Fatalf("Random chose %v", got)
		}
		for _, p := range got {
			seen[p]++
		}
	}
	// Each processor is chosen with probability 1/2: 2000 expected of 4000,
	// binomial sd ≈ 32; allow 5 sd.
	for _, p := range up {
		if math.Abs(float64(seen[p])-2000) > 160 {
			t.Errorf("Random chose processor %d %d times of 4000, want about 2000", p, seen[p])
		}
	}
}

// TestNewTimelineDecisions: a constant interval function gives the run of
// NewTimeline with that interval, to the bit, and so does a reconfiguration
// function that makes the vector's choices (with scenario.AtCheckpoint);
// one that depends on the processor count, or never reconfigures, gives
// another; reconfiguration decisions without the option are an error.
func TestNewTimelineDecisions(t *testing.T) {
	sc := scriptedScenario(t, 4*3600, 3600, []int{0, 2, 2, 4}, []float64{1, 1.9, 2.7, 3.4},
		[]float64{20, 30, 40, 50}, []float64{20, 25, 40, 35}, scenario.RecoveryConstant(60, 4))
	run := func(d *Decisions) Totals {
		src, err := NewExponential(4, 4*3600, 3600, rand.New(rand.NewPCG(5, 6)))
		if err != nil {
			t.Fatal(err)
		}
		var tl *Timeline
		if d == nil {
			tl, err = NewTimeline(sc, 1200, src, nil, nil)
		} else {
			tl, err = NewTimelineDecisions(sc, 1200, *d, src, nil, nil)
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := tl.Run(1e6); err != nil {
			t.Fatal(err)
		}
		return tl.Totals()
	}
	plain := run(nil)
	if got := run(&Decisions{Intervals: func(a, s int) float64 { return 1200 }}); got != plain {
		t.Errorf("constant intervals: %+v\nsingle interval: %+v", got, plain)
	}
	if got := run(&Decisions{Intervals: func(a, s int) float64 { return 300 * float64(a) }}); got.Work == plain.Work {
		t.Error("intervals by processor count gave the single interval's work")
	}
	src, _ := NewExponential(4, 4*3600, 3600, rand.New(rand.NewPCG(5, 6)))
	if _, err := NewTimelineDecisions(sc, 1200, Decisions{Reconfigure: func(a, s int) int { return 0 }}, src, nil, nil); err == nil {
		t.Error("reconfiguration decisions without the option: no error")
	}
	r := []int{0, 2, 2, 4} // the scenario's vector
	sc.Reconfigure = scenario.AtCheckpoint
	vec := run(nil)
	asVector := func(a, s int) int {
		if b := r[a+s-1]; b != 0 && b != a {
			return b
		}
		return 0
	}
	if got := run(&Decisions{Reconfigure: asVector}); got != vec {
		t.Errorf("the vector's reconfigurations as decisions: %+v\nthe vector: %+v", got, vec)
	}
	if got := run(&Decisions{Reconfigure: func(a, s int) int { return 0 }}); got != plain || got == vec {
		t.Errorf("never reconfiguring: %+v\nthe paper's model: %+v\nthe vector's: %+v", got, plain, vec)
	}
}
