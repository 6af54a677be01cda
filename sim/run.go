package sim

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/ckpt-markov/markov/internal/pool"
	"github.com/ckpt-markov/markov/internal/splitmix"
	"github.com/ckpt-markov/markov/reschedule"
	"github.com/ckpt-markov/markov/scenario"
)

// Settings configures Run. A nil *Settings, and every zero field, means
// the default given with the field.
type Settings struct {
	// Seed seeds every random stream of the run (0 is a valid seed).
	Seed uint64
	// Replications is the number R ≥ 2 of independent replications.
	// Default 32.
	Replications int
	// Horizon is the simulated time of each replication, in seconds, at
	// the first stage. Default
	//
	//	max(1000·T, min(max(100/(λ+θ), K/(R·a·λ)), 10⁶·T)),
	//
	// where T is the longest up segment I + L(a) over the counts
	// a = r(n) > 0, a the largest of those counts and K =
	// MinInterruptions: the replications together expect at least K
	// interruptions (see MinInterruptions), unless that takes more than
	// 10⁶ segments a replication, and never longer than the time in which
	// a replication expects MaxSteps events. At most MaxHorizonSeconds.
	Horizon float64
	// Warmup is simulated time run by each replication before anything is
	// counted, so that the estimate is of the long-run (steady-state) UWT
	// rather than biased by the start state (Law 2015, ch. 9). Default
	// 10/(r(N)·λ) + 10/(λ+θ): ten mean times to the first failure of the
	// starting configuration plus ten relaxation times of a processor,
	// capped at ten first-stage horizons (failures may be too rare for the
	// start to matter). A negative value means no warm-up: the run
	// measures from the start.
	Warmup float64
	// MaxHorizon bounds the simulated time of each replication. Default
	// 10⁴·Horizon, but no more than the time in which a replication
	// expects MaxSteps processor events and segment ends (and never below
	// Horizon), so that the default run is bounded in time whatever the
	// inputs; it must not be below Horizon.
	MaxHorizon float64
	// RelTol is the target relative half-width of the UWT confidence
	// interval: the replications are extended until HalfWidth ≤
	// RelTol·Mean or MaxHorizon is reached. Default 0.01. A negative value
	// sets no target: one stage of Horizon is run.
	RelTol float64
	// Confidence is the level of the confidence intervals, in (0, 1).
	// Default 0.99.
	Confidence float64
	// Workers is the number of goroutines. Default runtime.GOMAXPROCS(0).
	// Results do not depend on it.
	Workers int
	// Rule chooses the processors to use. Default MostReliable{} (see Rule).
	Rule Rule
	// Intervals, when not nil, gives the checkpoint interval of each up
	// segment from its processor count a and the functional spares s at
	// its start (per-state intervals, as package optimal computes them);
	// it must return a finite positive number of seconds. The interval
	// argument of Run then only sets the default Horizon. Nil means the
	// single interval of Run for every segment.
	Intervals func(a, s int) float64
	// Reconfigure, when not nil, decides at each checkpoint whether to
	// reconfigure (Decisions.Reconfigure); it needs a scenario with
	// scenario.AtCheckpoint. Nil means the vector's rule.
	Reconfigure func(a, s int) int
}

// Status says how a run ended.
type Status int

const (
	// NotRun is the zero Status: the run did not end (it failed or was
	// cancelled), so a zero Result says nothing.
	NotRun Status = iota
	// Converged: the UWT confidence interval reached Settings.RelTol.
	Converged
	// HorizonLimit: MaxHorizon was reached before the target precision.
	HorizonLimit
	// Fixed: no precision target was set; one stage was run.
	Fixed
	// NoCommits: no up segment committed in any replication, so the UWT
	// estimate 0 ± 0 carries no information about its precision. Run
	// stops with it once the replications have been interrupted
	// NoCommitInterruptions times in all without a single commit, rather
	// than extending them up to MaxHorizon: segments then essentially
	// never complete (a probability of completion below about 3 in
	// NoCommitInterruptions, at 95 % confidence).
	NoCommits
)

// NoCommitInterruptions is the number of interruptions without any commit
// after which Run gives up with status NoCommits. A run of p-probable
// completions sees none in k attempts with probability (1−p)ᵏ ≤ 5 % for
// p ≥ 3/k; 1000 attempts cost milliseconds.
const NoCommitInterruptions = 1000

// String returns the name of the status, spelt as its Go identifier
// (as the statuses of packages markov, uwt and optimal are).
func (s Status) String() string {
	switch s {
	case NotRun:
		return "NotRun"
	case Converged:
		return "Converged"
	case HorizonLimit:
		return "HorizonLimit"
	case Fixed:
		return "Fixed"
	case NoCommits:
		return "NoCommits"
	}
	return fmt.Sprintf("Status(%d)", int(s))
}

// Estimate is a mean over independent replications with the half-width
// of its Student-t confidence interval.
type Estimate struct {
	// Mean is the point estimate and HalfWidth the half-width of its
	// interval at the run's confidence level.
	Mean      float64
	HalfWidth float64
}

// Contains reports whether x lies in the confidence interval.
func (e Estimate) Contains(x float64) bool { return math.Abs(x-e.Mean) <= e.HalfWidth }

// Result is the outcome of Run. The totals are summed over all
// replications.
type Result struct {
	// UWT is the useful work per second, Work/Time.
	UWT Estimate
	// Availability is the useful time per second, Useful/Time.
	Availability Estimate
	// Functional is the mean fraction of the N processors that are
	// functional; it tends to θ/(λ+θ).
	Functional Estimate
	Totals
	// Replications is R and Horizon the simulated seconds of each one
	// counted after its Warmup seconds.
	Replications int
	Horizon      float64
	Warmup       float64
	// Confidence is the level of the confidence intervals.
	Confidence float64
	// Status says how the run ended.
	Status Status
}

// Run simulates the process of scenario sc with checkpoint interval I =
// interval on exponential processors, by R independent replications of
// equal horizon that are extended, in stages, until the UWT confidence
// interval is narrow enough. It returns ctx.Err() if ctx is cancelled.
func Run(ctx context.Context, sc *scenario.Scenario, interval float64, s *Settings) (*Result, error) {
	if sc == nil {
		return nil, errors.New("sim: scenario is nil")
	}
	if err := sc.Validate(); err != nil {
		return nil, err
	}
	if err := checkInterval(interval); err != nil {
		return nil, err
	}
	set, err := settings(sc, interval, s)
	if err != nil {
		return nil, err
	}
	d := Decisions{Intervals: set.Intervals, Reconfigure: set.Reconfigure}
	if err := checkLevels(sc, d); err != nil {
		return nil, err
	}
	if set.Reconfigure != nil && sc.Reconfigure != scenario.AtCheckpoint {
		return nil, errors.New("sim: Settings.Reconfigure needs a scenario that reconfigures at checkpoints")
	}
	if err := checkReplicas(sc, d); err != nil {
		return nil, err
	}
	tls := make([]*Timeline, set.Replications)
	for k := range tls {
		src, err := newSource(sc, rand.New(rand.NewPCG(seed(set.Seed, k, 0), seed(set.Seed, k, 1))))
		if err != nil {
			return nil, err
		}
		tls[k] = newTimeline(sc, interval, d, src, set.Rule, rand.New(rand.NewPCG(seed(set.Seed, k, 2), seed(set.Seed, k, 3))))
	}
	base := make([]Totals, len(tls))
	if set.Warmup > 0 {
		if err := advanceAll(ctx, tls, set.Warmup, set.Workers); err != nil {
			return nil, err
		}
		for k, tl := range tls {
			base[k] = tl.Totals()
		}
	}
	warm := max(set.Warmup, 0)
	h := set.Horizon
	for {
		if err := advanceAll(ctx, tls, warm+h, set.Workers); err != nil {
			return nil, err
		}
		res := summarize(tls, base, sc.N(), h, set.Confidence)
		res.Warmup = warm
		switch {
		case res.Commits == 0 && (res.Failures >= NoCommitInterruptions || h >= set.MaxHorizon || set.RelTol < 0):
			res.Status = NoCommits
			return res, nil
		case set.RelTol < 0:
			res.Status = Fixed
			return res, nil
		case res.Commits > 0 && res.UWT.HalfWidth <= set.RelTol*res.UWT.Mean:
			res.Status = Converged
			return res, nil
		case h >= set.MaxHorizon:
			res.Status = HorizonLimit
			return res, nil
		}
		// The half-width shrinks like 1/√h: aim 10 % past the target.
		grow := 1.1 * math.Pow(res.UWT.HalfWidth/(set.RelTol*res.UWT.Mean), 2)
		if res.Commits == 0 {
			// Nothing to extrapolate from: grow until enough
			// interruptions tell that segments never complete.
			grow = float64(NoCommitInterruptions) / float64(max(res.Failures, 1))
		}
		h = min(h*min(max(grow, 1.25), 100), set.MaxHorizon)
	}
}

// settings returns s with its defaults filled in, or an error naming the
// bad field.
func settings(sc *scenario.Scenario, interval float64, s *Settings) (Settings, error) {
	var set Settings
	if s != nil {
		set = *s
	}
	switch {
	case set.Replications == 0:
		set.Replications = 32
	case set.Replications < 2:
		return set, fmt.Errorf("sim: Settings.Replications = %d, want ≥ 2", set.Replications)
	case set.Replications > MaxReplications:
		return set, fmt.Errorf("sim: Settings.Replications = %d, more than the limit of %d", set.Replications, MaxReplications)
	}
	bad := func(x float64) bool { return math.IsNaN(x) || math.IsInf(x, 0) || x < 0 }
	if bad(set.Horizon) {
		return set, fmt.Errorf("sim: Settings.Horizon = %v, want a finite number of seconds ≥ 0", set.Horizon)
	}
	if set.Horizon > MaxHorizonSeconds {
		return set, fmt.Errorf("sim: Settings.Horizon = %v s, above the limit of %v s (MaxHorizonSeconds, a thousand years)", set.Horizon, MaxHorizonSeconds)
	}
	if math.IsNaN(set.Warmup) || math.IsInf(set.Warmup, 0) {
		return set, fmt.Errorf("sim: Settings.Warmup = %v, want a finite number of seconds", set.Warmup)
	}
	if set.Horizon == 0 {
		set.Horizon = defaultHorizon(sc, interval, set.Replications)
	}
	if set.Warmup == 0 {
		set.Warmup = min(10*firstFailure(sc)+10/(sc.System.Lambda()+sc.System.Theta()), 10*set.Horizon)
	}
	if bad(set.MaxHorizon) {
		return set, fmt.Errorf("sim: Settings.MaxHorizon = %v, want a finite number of seconds ≥ 0", set.MaxHorizon)
	}
	switch {
	case set.MaxHorizon == 0:
		set.MaxHorizon = max(set.Horizon, min(1e4*set.Horizon, MaxSteps/stepRate(sc, interval)))
	case set.MaxHorizon < set.Horizon:
		return set, fmt.Errorf("sim: Settings.MaxHorizon = %v is below Settings.Horizon = %v", set.MaxHorizon, set.Horizon)
	}
	if math.IsNaN(set.RelTol) || math.IsInf(set.RelTol, 0) {
		return set, fmt.Errorf("sim: Settings.RelTol = %v, want a finite number", set.RelTol)
	}
	if set.RelTol == 0 {
		set.RelTol = 0.01
	}
	switch {
	case set.Confidence == 0:
		set.Confidence = 0.99
	case !(set.Confidence > 0 && set.Confidence < 1):
		return set, fmt.Errorf("sim: Settings.Confidence = %v, want a level in (0, 1)", set.Confidence)
	}
	switch {
	case set.Workers == 0:
		set.Workers = runtime.GOMAXPROCS(0)
	case set.Workers < 0:
		return set, fmt.Errorf("sim: Settings.Workers = %d, want ≥ 0", set.Workers)
	}
	if set.Rule == nil {
		set.Rule = MostReliable{}
	}
	if err := checkRule(set.Rule); err != nil {
		return set, err
	}
	return set, nil
}

// MinInterruptions is the number of interruptions the replications of a
// default first stage expect together: 3·10⁵. The UWT of a replication is
// moved far from the mean by rare episodes, such as a failure while a spare
// is in repair, which leaves a greedy application on fewer processors until
// its next interruption weeks later. With about one such episode in 10³
// interruptions (the QR benchmark on 4 processors at I = 6 h), a run that
// holds a few hundred interruptions mostly misses them: its mean lies above
// the model and its interval is too narrow (233 of 300 seeds covered the
// model at 99 % with the former default of about 240 interruptions). The
// 99 % interval covered the model for 196 of 200 seeds with 10⁵
// interruptions and 199 of 200 with 3·10⁵ (TestCoverage checks it).
const MinInterruptions = 3e5

// MaxHorizonSeconds bounds Settings.Horizon: a thousand years of 365.25
// days, the bound of every duration of a study (package sweep).
const MaxHorizonSeconds = 1000 * 365.25 * 86400

// MaxReplications bounds Settings.Replications: 10⁴ replications give a
// Student-t interval indistinguishable from the normal one, and each holds
// a Timeline of O(N) memory.
const MaxReplications = 10_000

// MaxSteps is the number of events (processor failures and repairs,
// segment ends) one replication is expected to simulate by the default
// MaxHorizon: 4·10⁶, tens of milliseconds of CPU a replication, so that a
// default run of 32 replications stays within seconds.
const MaxSteps = 4e6

// stepRate is an upper bound on the expected events per second of a
// replication: processor events, at most 2Nλθ/(λ+θ) in steady state
// (each of N processors fails and is repaired once per cycle of mean
// 1/λ + 1/θ) plus Nλ for the start, and segment ends, at most one per
// shortest segment I + min L.
func stepRate(sc *scenario.Scenario, interval float64) float64 {
	lam, th := sc.System.Lambda(), sc.System.Theta()
	n := float64(sc.N())
	return n*lam + 2*n*lam*th/(lam+th) + 1/(interval+slices.Min(sc.Application.CheckpointLevels()[0].Latency))
}

// defaultHorizon is the first-stage horizon of Settings.Horizon: at least
// 1000 up segments, and 100 relaxation times 1/(λ+θ) of a processor and
// MinInterruptions expected interruptions over the replications, the
// latter two capped at 10⁶ segments; but no longer than the time in which
// a replication expects MaxSteps events (an interval of 10³⁰⁰ s would
// otherwise ask for 10³⁰³ s of failures and repairs) nor than
// MaxHorizonSeconds.
func defaultHorizon(sc *scenario.Scenario, interval float64, replications int) float64 {
	t, amax := 0.0, 0
	for _, a := range usedCounts(sc) {
		if a > 0 {
			t = max(t, interval+sc.Application.CheckpointLevels()[sc.Application.NumLevels()-1].Latency[a-1])
			amax = max(amax, a)
		}
	}
	lam := sc.System.Lambda()
	relax := 1 / (lam + sc.System.Theta())
	interruptions := MinInterruptions / (float64(replications) * float64(amax) * lam)
	h := max(1000*t, min(max(100*relax, interruptions), 1e6*t))
	return min(h, MaxSteps/stepRate(sc, interval), MaxHorizonSeconds)
}

// usedCounts returns the counts the policy may run on: the entries of the
// rescheduling vector, and those of a decision table's rows (the largest
// count of a range where it runs on all n).
func usedCounts(sc *scenario.Scenario) []int {
	if sc.Table == nil {
		return sc.Reschedule
	}
	out := slices.Clone([]int(sc.Reschedule))
	for _, e := range sc.Table.Entries() {
		if e.A == reschedule.AllUp {
			out = append(out, e.Hi)
		} else {
			out = append(out, e.A)
		}
	}
	return out
}

// firstFailure is the expected time from the start to the first failure
// of a used processor, counting, when r(N) = 0, the failures the
// application waits for before it can start: Σ 1/(kλ) for k = N down to
// n'+1, n' the largest count with r(n') > 0 (repairs ignored), then
// 1/(r(n')λ).
func firstFailure(sc *scenario.Scenario) float64 {
	lam := sc.System.Lambda()
	t := 0.0
	for k := sc.N(); k >= 1; k-- {
		if a := sc.Reschedule.At(k); a > 0 {
			return t + 1/(float64(a)*lam)
		}
		t += 1 / (float64(k) * lam)
	}
	return t
}

// seed derives the j-th seed word of replication k from the run's seed:
// output 4k + j of SplitMix64 seeded with s, so that every replication
// has its own streams whatever the number of workers.
func seed(s uint64, k, j int) uint64 { return splitmix.Stream(s, uint64(k)*4+uint64(j)) }

// stepBudget is the number of events and segment ends a timeline handles
// between two looks at the context: about a millisecond of CPU.
const stepBudget = 1 << 14

// advanceAll runs every timeline to time h with a pool of workers. Each
// timeline advances stepBudget events at a time so that cancellation is
// noticed whatever the horizon; the pauses do not change its trajectory.
func advanceAll(ctx context.Context, tls []*Timeline, h float64, workers int) error {
	return pool.Each(ctx, len(tls), workers, func(ctx context.Context, k int) error {
		for done := false; !done; {
			if err := ctx.Err(); err != nil {
				return err
			}
			var err error
			if done, err = tls[k].run(h, stepBudget); err != nil {
				return err
			}
		}
		return nil
	})
}

// summarize sums the totals of the replications since their warm-up
// (base), in order, and computes
// the Student-t confidence intervals of the per-replication ratios.
func summarize(tls []*Timeline, base []Totals, n int, h, confidence float64) *Result {
	r := len(tls)
	res := &Result{Replications: r, Horizon: h, Confidence: confidence}
	uwt := make([]float64, r)
	avail := make([]float64, r)
	fun := make([]float64, r)
	for k, tl := range tls {
		t := tl.Totals()
		t.sub(base[k])
		res.Totals.add(t)
		uwt[k] = t.Work / h
		avail[k] = t.Useful / h
		fun[k] = t.Functional / (float64(n) * h)
	}
	q := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(r - 1)}.Quantile(0.5 + confidence/2)
	res.UWT = estimate(uwt, q)
	res.Availability = estimate(avail, q)
	res.Functional = estimate(fun, q)
	return res
}

// estimate returns the mean of x and q·s/√len(x), s the sample standard
// deviation.
func estimate(x []float64, q float64) Estimate {
	mean := 0.0
	for _, v := range x {
		mean += v
	}
	mean /= float64(len(x))
	ss := 0.0
	for _, v := range x {
		ss += (v - mean) * (v - mean)
	}
	sd := math.Sqrt(ss / float64(len(x)-1))
	return Estimate{Mean: mean, HalfWidth: q * sd / math.Sqrt(float64(len(x)))}
}
