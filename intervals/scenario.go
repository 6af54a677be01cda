package intervals

import (
	"fmt"

	"github.com/ckpt-markov/markov/scenario"
)

// ForScenario returns the parameters the closed-form models see for a
// scenario of the Markov model, and the processor count a they describe:
// the job runs on a = r(N) processors, fails when any of them does (job
// MTBF M = MTTF/a, repairs ignored), checkpoints with overhead C(a) and
// latency L(a), and restarts in R(a, a). Work is left zero.
func ForScenario(sc *scenario.Scenario) (Params, int, error) {
	if err := sc.Validate(); err != nil {
		return Params{}, 0, err
	}
	if err := sc.SingleLevel("intervals.ForScenario"); err != nil {
		return Params{}, 0, err
	}
	n := sc.N()
	a := sc.Reschedule.At(n)
	if a == 0 {
		return Params{}, 0, fmt.Errorf("intervals: r(N) = 0: the job does not run on all %d processors", n)
	}
	app := sc.Application
	p := Params{
		MTBF:       sc.System.MTTF / float64(a),
		Checkpoint: app.Overhead[a-1],
		Latency:    app.Latency[a-1],
		Restart:    app.Recovery.Cost(a, a),
		Processes:  a,
	}
	return p, a, nil
}
