package sim

import (
	"math"
	"testing"

	"github.com/ckpt-markov/markov/scenario"
)

// TestSeveritySourceHandWorked replays one processor with two levels
// (latency = overhead: 10 s and 20 s; recovery 5 s and 50 s; no
// checkpoint after recovery), pattern [1] and I = 100 s through one
// failure at t = 400 given by the source, and compares the work at
// t = 530 with the rules of docs/model.md section 12 worked by hand. The
// segments end at 110 (level 1), 230 (level 2), 340 (level 1) with 300
// s of work, and the fourth (to end with a level-2 checkpoint) is running
// at 400:
//   - severity 1, node back at once (a crash): roll back to the level-1
//     checkpoint of 340, recover 5 s in place, the fourth segment runs
//     405–525: work 400;
//   - severity 2, node back at once: roll back to the level-2 checkpoint
//     of 230 (the third segment's 100 s are lost), recover 50 s, the third
//     segment again runs 450–560: work 200 at 530;
//   - severity 1, node down 400–430: nothing lost, the application waits
//     30 s down and recovers 5 s from level 1, the fourth segment runs
//     435–555: work 300 at 530, 30 s down.
func TestSeveritySourceHandWorked(t *testing.T) {
	one := func(x float64) []float64 { return []float64{x} }
	app := scenario.Application{WorkRate: one(1), NoCheckpointAfterRecovery: true, Levels: []scenario.Level{
		{Latency: one(10), Overhead: one(10), Recovery: scenario.RecoveryConstant(5, 1)},
		{Latency: one(20), Overhead: one(20), Recovery: scenario.RecoveryConstant(50, 1)},
	}}
	sc, err := scenario.New(scenario.System{Processors: 1, MTTF: 1e9, MTTR: 1,
		FailureSeverity: &scenario.FailureSeverity{Shares: []float64{0.5, 0.5}}}, app, scenario.Policy{})
	if err != nil {
		t.Fatal(err)
	}
	sc.CheckpointPattern = []int{1}
	for _, tc := range []struct {
		name       string
		sev        int
		repair     float64
		work, down float64
	}{
		{"crash", 1, 400, 400, 0},
		{"severity 2", 2, 400, 200, 0},
		{"severity 1, node down", 1, 430, 300, 30},
		{"severity above L counts as L", 5, 400, 200, 0},
	} {
		src, err := NewSeverityListSource([]bool{true}, []Event{{Time: 400, Severity: tc.sev}, {Time: tc.repair, Up: true}})
		if err != nil {
			t.Fatal(err)
		}
		tl, err := NewTimeline(sc, 100, src, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := tl.Run(530); err != nil {
			t.Fatal(err)
		}
		tot := tl.Totals()
		if math.Abs(tot.Work-tc.work) > 1e-9 || math.Abs(tot.Down-tc.down) > 1e-9 || tot.Failures != 1 {
			t.Errorf("%s: work %v, down %v, failures %d; want %v, %v, 1", tc.name, tot.Work, tot.Down, tot.Failures, tc.work, tc.down)
		}
	}
}

// TestSeverityListSourceErrors: NewListSource takes no severities;
// NewSeverityListSource wants one ≥ 1 on every failure and none on a
// repair.
func TestSeverityListSourceErrors(t *testing.T) {
	up := []bool{true}
	if _, err := NewListSource(up, []Event{{Time: 1, Severity: 2}}); err == nil {
		t.Error("NewListSource accepted a severity")
	}
	for _, evs := range [][]Event{
		{{Time: 1}},
		{{Time: 1, Severity: -1}},
		{{Time: 1, Severity: 1}, {Time: 2, Up: true, Severity: 1}},
	} {
		if _, err := NewSeverityListSource(up, evs); err == nil {
			t.Errorf("NewSeverityListSource accepted %+v", evs)
		}
	}
	src, err := NewSeverityListSource(up, nil)
	if err != nil || !src.Severities() {
		t.Errorf("an empty severity list: %v, Severities %v", err, src != nil && src.Severities())
	}
}
