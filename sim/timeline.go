package sim

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"

	"github.com/ckpt-markov/markov/reschedule"
	"github.com/ckpt-markov/markov/scenario"
)

// Totals are the accumulated quantities of one run.
type Totals struct {
	// Time is the simulated time so far, in seconds; Up + Recovery + Down
	// equals it up to rounding.
	Time float64
	// Work is the committed work: Σ ω(a)(I + L(a) − C(a)) over committed
	// up segments.
	Work float64
	// Useful is the committed segment time Σ (I + L(a) − C(a)).
	Useful float64
	// Up, Recovery and Down are the seconds spent in up segments
	// (committed or not), recoveries and down periods.
	Up, Recovery, Down float64
	// Functional is ∫ n(t) dt, the processor-seconds during which
	// processors were functional.
	Functional float64
	// Failures counts the interruptions of the application: failures of
	// processors it uses, in up segments and recoveries (failures at one
	// instant count once).
	Failures int64
	// Commits counts the committed up segments.
	Commits int64
	// Events counts the processor failures and repairs applied.
	Events int64
}

// add adds u into t.
func (t *Totals) add(u Totals) {
	t.Time += u.Time
	t.Work += u.Work
	t.Useful += u.Useful
	t.Up += u.Up
	t.Recovery += u.Recovery
	t.Down += u.Down
	t.Functional += u.Functional
	t.Failures += u.Failures
	t.Commits += u.Commits
	t.Events += u.Events
}

// sub subtracts u from t (totals at an earlier time of the same run).
func (t *Totals) sub(u Totals) {
	t.Time -= u.Time
	t.Work -= u.Work
	t.Useful -= u.Useful
	t.Up -= u.Up
	t.Recovery -= u.Recovery
	t.Down -= u.Down
	t.Functional -= u.Functional
	t.Failures -= u.Failures
	t.Commits -= u.Commits
	t.Events -= u.Events
}

type phase uint8

const (
	phaseUp phase = iota
	phaseRecovery
	phaseDown
)

// Timeline is the application of section 3 of the model driven by a
// Source of processor events: up segments, recoveries and down periods.
// It runs from time 0 and can be advanced in steps; the trajectory does
// not depend on where the steps stop.
type Timeline struct {
	r        reschedule.Rule        // the policy: sc.Rule(), its action in X(p, n)
	segLen   []float64              // T_U(a) = I + L(a), by a−1
	work     []float64              // ω(a)(I + L(a) − C(a))
	useful   []float64              // I + L(a) − C(a)
	latency  []float64              // L(a)
	workRate []float64              // ω(a)
	overhead []float64              // C(a)
	ivOf     func(a, s int) float64 // per-state intervals (Settings.Intervals), or nil
	curUse   float64                // with ivOf: I + L(a) − C(a) of the current up segment
	recovery scenario.Recovery
	reconf   scenario.Reconfigure
	reOf     func(a, s int) int // reconfigurations at checkpoints (Decisions), or nil
	src      Source
	rule     Rule
	rng      *rand.Rand

	n     int
	up    bitset // functional processors
	used  bitset // processors the application uses
	fails []int
	nUp   int
	a     int // processors used; 0 when down
	p     int // processors the checkpoint to restore was written on
	fresh bool
	phase phase
	end   float64 // end of the current segment
	next  Event
	rep   *replicas // replication (application.replicas > 1), or nil
	upIDs []int     // scratch: functional processors
	pick  []int     // scratch: the rule's choice
	now   float64   // current time
	mark  float64   // time up to which tot is accumulated
	tot   Totals
	err   error
	lv    *levels  // multi-level state (levels.go); nil for one level
	rec   *recency // recent availability for a RecentRule (lastval.go), or nil
}

// NewTimeline returns the timeline of scenario sc with checkpoint interval
// I = interval, processor events from src (with src.Processors() = N),
// rule choosing the processors to use (nil means MostReliable{}) and rng the
// random stream of the rule (nil means a PCG source seeded with (1, 2)).
//
// At time 0 the application starts an up segment on r(n) of the n
// processors src reports functional. If r(n) = 0 it waits, and starts an
// up segment (there is nothing to restore yet) once the functional count
// reaches some n' with r(n') > 0. Until the first commit the checkpoint to
// restore is taken to be written on the starting count. NewTimeline and
// Run panic if the rule breaks its contract.
func NewTimeline(sc *scenario.Scenario, interval float64, src Source, rule Rule, rng *rand.Rand) (*Timeline, error) {
	if err := checkInterval(interval); err != nil {
		return nil, err
	}
	return newTimelineChecked(sc, interval, Decisions{}, src, rule, rng)
}

// newTimelineChecked checks the scenario and the source, then builds the
// timeline.
func newTimelineChecked(sc *scenario.Scenario, interval float64, d Decisions, src Source, rule Rule, rng *rand.Rand) (*Timeline, error) {
	if sc == nil {
		return nil, errors.New("sim: scenario is nil")
	}
	if err := sc.Validate(); err != nil {
		return nil, err
	}
	if err := checkLevels(sc, d); err != nil {
		return nil, err
	}
	if src == nil {
		return nil, errors.New("sim: source is nil")
	}
	if src.Processors() != sc.N() {
		return nil, fmt.Errorf("sim: source has %d processors, scenario has %d", src.Processors(), sc.N())
	}
	if err := checkReplicas(sc, d); err != nil {
		return nil, err
	}
	if err := checkRule(rule); err != nil {
		return nil, err
	}
	if rng == nil {
		rng = rand.New(rand.NewPCG(1, 2))
	}
	return newTimeline(sc, interval, d, src, rule, rng), nil
}

// Decisions are the choices of a policy that one rescheduling vector and
// one interval cannot express (the per-state policies of package
// optimal). A nil field keeps the single interval's or the vector's
// choice.
type Decisions struct {
	// Intervals gives the checkpoint interval of an up segment on a
	// processors with s functional spares at its start; it must return a
	// finite positive number of seconds for every a the vector uses (the
	// timeline panics otherwise).
	Intervals func(a, s int) float64
	// Reconfigure, with scenario.AtCheckpoint only, decides at each
	// checkpoint on a processors with s functional spares: 0 to run on, or
	// the processor count a' ≠ a, 1 ≤ a' ≤ a + s, to reconfigure onto
	// (instead of the vector's rule r(a + s); the timeline panics on
	// another value).
	Reconfigure func(a, s int) int
}

// NewTimelineDecisions is NewTimeline with the decisions d in place of
// the single interval (used when d.Intervals is nil) and of the vector's
// reconfigurations at checkpoints.
func NewTimelineDecisions(sc *scenario.Scenario, interval float64, d Decisions, src Source, rule Rule, rng *rand.Rand) (*Timeline, error) {
	if d.Intervals == nil {
		if err := checkInterval(interval); err != nil {
			return nil, err
		}
	} else {
		// The single interval only fills the per-count tables, unused.
		interval = 1
	}
	if d.Reconfigure != nil && sc != nil && sc.Reconfigure != scenario.AtCheckpoint {
		return nil, errors.New("sim: reconfiguration decisions need a scenario that reconfigures at checkpoints")
	}
	return newTimelineChecked(sc, interval, d, src, rule, rng)
}

func checkInterval(interval float64) error {
	if !(interval > 0) || math.IsInf(interval, 0) {
		return fmt.Errorf("sim: interval = %v, want a finite positive number of seconds", interval)
	}
	return nil
}

// newTimeline builds a timeline from validated inputs, with the decisions
// d (Decisions).
func newTimeline(sc *scenario.Scenario, interval float64, d Decisions, src Source, rule Rule, rng *rand.Rand) *Timeline {
	n := sc.N()
	app := sc.Application
	if rule == nil {
		rule = MostReliable{}
	}
	tl := &Timeline{
		r:        sc.Rule(),
		segLen:   make([]float64, n),
		work:     make([]float64, n),
		useful:   make([]float64, n),
		latency:  app.Latency,
		workRate: app.WorkRate,
		overhead: app.Overhead,
		ivOf:     d.Intervals,
		reOf:     d.Reconfigure,
		recovery: app.Recovery,
		reconf:   sc.Reconfigure,
		src:      src,
		rule:     rule,
		rng:      rng,
		n:        n,
		up:       newBitset(n),
		used:     newBitset(n),
		fails:    make([]int, n),
		upIDs:    make([]int, 0, n),
		pick:     make([]int, 0, n),
		fresh:    true,
		rep:      newReplicas(app.ReplicaCount(), n),
		rec:      newRecency(rule, n),
	}
	if tl.lv = newLevels(sc); tl.lv != nil {
		tl.lv.interval = interval
		if ss, ok := src.(SeveritySource); ok && ss.Severities() {
			// Severities come with the events; a severity-1 failure is
			// one of them, so no crash clock runs (levels.go).
			tl.lv.given, tl.lv.crash, tl.lv.crashN = true, 0, 0
		}
	} else {
		for i := range n {
			tl.segLen[i] = interval + app.Latency[i]
			tl.useful[i] = interval + app.Latency[i] - app.Overhead[i]
			tl.work[i] = app.WorkRate[i] * tl.useful[i]
		}
	}
	initial := make([]bool, n)
	src.Init(initial)
	for i, u := range initial {
		if u {
			tl.up.set(i)
			tl.nUp++
		}
	}
	tl.phase = phaseDown
	if tl.fetch() == nil {
		tl.resume()
	}
	return tl
}

// Totals returns the quantities accumulated so far.
func (tl *Timeline) Totals() Totals {
	t := tl.tot
	t.charge(tl.phase, tl.nUp, tl.now-tl.mark)
	t.Time = tl.now
	return t
}

// Run advances the timeline to time until (finite, ≥ the current time).
// Commits at until count; events at until are left for the next call.
// It returns an error if the source produces an invalid event (time out
// of order or not a number, processor out of range, a failure of a failed
// processor or a repair of a functional one); the timeline then stays
// stopped.
func (tl *Timeline) Run(until float64) error {
	_, err := tl.run(until, -1)
	return err
}

// run is Run that stops early, at an event or a segment end before until,
// once it has handled budget of them (budget < 0: no limit), and reports
// whether it got to until. Where it stops does not change the trajectory:
// the next call goes on from there.
func (tl *Timeline) run(until float64, budget int) (bool, error) {
	if tl.err != nil {
		return false, tl.err
	}
	if !(until >= tl.now) || math.IsInf(until, 0) {
		return false, fmt.Errorf("sim: until = %v, want finite and ≥ the current time %v", until, tl.now)
	}
	if budget < 0 {
		budget = math.MaxInt
	}
	for ; ; budget-- {
		if budget <= 0 {
			return false, nil
		}
		if tl.phase == phaseDown {
			t := tl.next.Time
			if t >= until {
				tl.now = until
				return true, nil
			}
			tl.advance(t)
			if err := tl.applyInstant(); err != nil {
				return false, err
			}
			tl.resume()
			continue
		}
		interrupted := false
		for ; tl.next.Time < tl.end || tl.lv.crashBefore(tl.end); budget-- {
			if budget <= 0 {
				return false, nil
			}
			if tl.lv.crashBefore(tl.next.Time) {
				// A severity-1 crash of a used processor (levels.go).
				if tl.lv.next >= until {
					tl.now = until
					return true, nil
				}
				tl.advance(tl.lv.next)
				if !tl.lv.strikes(tl.nUp, tl.a, tl.rng) {
					// A crash event that misses the application.
					tl.lv.draw(tl.now, tl.a, tl.rng)
					continue
				}
				tl.lv.crashed, interrupted = true, true
				break
			}
			if tl.next.Time >= until {
				tl.now = until
				return true, nil
			}
			tl.advance(tl.next.Time)
			hit, err := tl.apply()
			if err != nil {
				return false, err
			}
			if hit {
				if err := tl.applyInstant(); err != nil {
					return false, err
				}
				interrupted = true
				break
			}
		}
		if interrupted {
			tl.interrupt()
			continue
		}
		if tl.end > until {
			tl.now = until
			return true, nil
		}
		tl.advance(tl.end)
		tl.complete()
	}
}

// advance moves the clock to t, an event or the end of a segment,
// charging the time since the last one to the current phase. Pauses only
// move tl.now, so that the sums do not depend on them.
func (tl *Timeline) advance(t float64) {
	tl.tot.charge(tl.phase, tl.nUp, t-tl.mark)
	tl.mark, tl.now = t, t
}

// charge adds dt seconds in phase ph with n functional processors.
func (t *Totals) charge(ph phase, n int, dt float64) {
	switch ph {
	case phaseUp:
		t.Up += dt
	case phaseRecovery:
		t.Recovery += dt
	default:
		t.Down += dt
	}
	t.Functional += float64(n) * dt
}

// fetch reads the next event from the source and checks its time and
// processor.
func (tl *Timeline) fetch() error {
	ev := tl.src.Next()
	if !(ev.Time >= tl.now) || !(ev.Time >= tl.next.Time) {
		tl.err = fmt.Errorf("sim: source event at time %v, want a time ≥ %v", ev.Time, max(tl.now, tl.next.Time))
	} else if !math.IsInf(ev.Time, 1) && (ev.Proc < 0 || ev.Proc >= tl.n) {
		tl.err = fmt.Errorf("sim: source event at time %v for processor %d outside [0, %d)", ev.Time, ev.Proc, tl.n)
	}
	tl.next = ev
	return tl.err
}

// apply applies the pending event (at the current time) and fetches the
// next. It reports whether a processor in use failed.
func (tl *Timeline) apply() (bool, error) {
	ev := tl.next
	if tl.up.has(ev.Proc) == ev.Up {
		tl.err = fmt.Errorf("sim: source event at time %v: processor %d is already %s", ev.Time, ev.Proc, stateName(ev.Up))
		return false, tl.err
	}
	tl.tot.Events++
	hit := false
	if ev.Up {
		tl.up.set(ev.Proc)
		tl.nUp++
		tl.rec.repair(ev.Proc, ev.Time)
	} else {
		tl.up.unset(ev.Proc)
		tl.nUp--
		tl.fails[ev.Proc]++
		tl.rec.fail(ev.Proc, ev.Time)
		hit = tl.used.has(ev.Proc)
		if hit && tl.rep != nil {
			hit = tl.rep.lose(ev.Proc, tl.used)
		}
		if hit && tl.lv != nil {
			tl.lv.hit = max(tl.lv.hit, ev.Severity)
		}
	}
	return hit, tl.fetch()
}

// applyInstant applies every pending event at the current time.
func (tl *Timeline) applyInstant() error {
	for tl.next.Time == tl.now {
		if _, err := tl.apply(); err != nil {
			return err
		}
	}
	return nil
}

// interrupt handles a failure of a used processor: everything since the
// last commit is lost; recover on r(n) processors or go down.
func (tl *Timeline) interrupt() {
	if lv := tl.lv; lv != nil {
		s, crashed := 1, lv.crashed
		switch {
		case crashed:
		case lv.given:
			s = min(max(lv.hit, 1), len(lv.accW))
			// A severity-1 failure whose nodes are back at once (a
			// zero-length outage in a log) is a process crash; one whose
			// node stays down is a failure like the others, and a
			// rescheduling point (docs/model.md section 12).
			crashed = s == 1 && tl.usedUp()
		default:
			s = lv.severity(tl.rng.Float64())
		}
		lv.crashed, lv.hit = false, 0
		w, u := lv.fail(s, tl.phase == phaseRecovery)
		tl.tot.Work -= w
		tl.tot.Useful -= u
		lv.next = math.Inf(1)
		if crashed {
			// A process crash takes no processor down and is no
			// rescheduling point: the application recovers in place, on
			// the same processors (docs/model.md section 12).
			tl.tot.Failures++
			tl.phase = phaseRecovery
			tl.end = tl.now + lv.recovery(tl.p, tl.a)
			lv.draw(tl.now, tl.a, tl.rng)
			return
		}
	}
	tl.tot.Failures++
	clear(tl.used)
	tl.rep.reset()
	tl.a = 0
	tl.phase = phaseDown
	tl.resume()
}

// usedUp reports whether every processor in use is functional.
func (tl *Timeline) usedUp() bool {
	for i, w := range tl.used {
		if w&^tl.up[i] != 0 {
			return false
		}
	}
	return true
}

// resume leaves the down phase if the policy's action in X(p, n) is not
// to wait, for the current functional count n and the count p of the last
// checkpoint (0 before the first, the default row of a decision table):
// by an up segment before the application ever ran, by a recovery
// otherwise.
func (tl *Timeline) resume() {
	if tl.nUp == 0 {
		return
	}
	r := tl.r.Action(tl.p, tl.nUp)
	if r < tl.rep.degree() {
		return
	}
	a := r / tl.rep.degree()
	tl.choose(a)
	if tl.fresh {
		tl.fresh = false
		tl.p = a
		tl.phase = phaseUp
		tl.end = tl.now + tl.segment(a)
		return
	}
	tl.phase = phaseRecovery
	if lv := tl.lv; lv != nil {
		tl.end = tl.now + lv.recovery(tl.p, a)
		lv.draw(tl.now, a, tl.rng)
		return
	}
	tl.end = tl.now + tl.recovery.Cost(tl.p, a) + tl.latency[a-1]
}

// choose marks the processors of a logical processes used (a·r with r
// replicas each), as the rule picks them.
func (tl *Timeline) choose(a int) {
	tl.upIDs = tl.up.appendMembers(tl.upIDs[:0])
	tl.pickFrom(tl.upIDs, a*tl.rep.degree())
	tl.rep.assign(tl.pick, a)
	tl.a = a
}

// pickFrom marks k processors of ids used, as the rule picks them
// (tl.pick holds them after).
func (tl *Timeline) pickFrom(ids []int, k int) {
	if tl.rec != nil {
		tl.rec.fill(ids, tl.now)
		tl.pick = tl.rule.(RecentRule).ChooseRecent(tl.pick[:0], ids, k, tl.rec.frac, tl.fails, tl.rng)
	} else {
		tl.pick = tl.rule.Choose(tl.pick[:0], ids, k, tl.fails, tl.rng)
	}
	if len(tl.pick) != k {
		panic(fmt.Sprintf("sim: rule chose %d processors, want %d", len(tl.pick), k))
	}
	for _, i := range tl.pick {
		if i < 0 || i >= tl.n || !tl.up.has(i) || tl.used.has(i) {
			panic(fmt.Sprintf("sim: rule chose processor %d, which is not a distinct functional processor", i))
		}
		tl.used.set(i)
	}
}

// complete ends the current segment without failure. An up segment
// commits; a recovery has written its checkpoint. Either way the next up
// segment starts on the same processors, unless the scenario reconfigures
// at checkpoints, r(n) ∉ {0, a} and (with several levels) the checkpoint
// is of the top level: then a recovery onto r(n) starts.
func (tl *Timeline) complete() {
	a := tl.a
	if tl.phase == phaseUp && tl.lv != nil {
		w := tl.workRate[a-1] * tl.curUse
		tl.tot.Work += w
		tl.tot.Useful += tl.curUse
		tl.tot.Commits++
		tl.lv.commit(w, tl.curUse)
	} else if tl.phase == phaseUp {
		if tl.ivOf != nil {
			tl.tot.Work += tl.workRate[a-1] * tl.curUse
			tl.tot.Useful += tl.curUse
		} else {
			tl.tot.Work += tl.work[a-1]
			tl.tot.Useful += tl.useful[a-1]
		}
		tl.tot.Commits++
	}
	tl.refill()
	tl.p = a
	if lv := tl.lv; lv != nil && lv.atTop() && (tl.phase == phaseUp || lv.after) {
		lv.top = a // a top-level checkpoint written on a
	}
	if b := tl.target(a); b != a && tl.lv.atTop() {
		// Reconfigure at the checkpoint just written on a: a recovery
		// onto b = r(n) (scenario.AtCheckpoint); with several levels at
		// a top-level checkpoint only (docs/model.md section 12).
		clear(tl.used)
		tl.choose(b)
		tl.phase = phaseRecovery
		if lv := tl.lv; lv != nil {
			tl.end = tl.now + lv.recovery(a, b)
			lv.draw(tl.now, b, tl.rng)
			return
		}
		tl.end = tl.now + tl.recovery.Cost(a, b) + tl.latency[b-1]
		return
	}
	tl.phase = phaseUp
	tl.end = tl.now + tl.segment(a)
}

// target returns the processor count to run on after a checkpoint on a:
// a, or the count to reconfigure onto.
func (tl *Timeline) target(a int) int {
	if tl.reOf == nil || tl.reconf != scenario.AtCheckpoint {
		return tl.reconf.TargetOf(tl.r, a, tl.nUp)
	}
	b := tl.reOf(a, tl.nUp-a)
	switch {
	case b == 0:
		return a
	case b < 1 || b > tl.nUp || b == a:
		panic(fmt.Sprintf("sim: reconfiguration from %d processors with %d functional onto %d", a, tl.nUp, b))
	}
	return b
}

// segment returns the length I + L(a) of an up segment starting now on a
// processors, with the per-state interval when there is one.
func (tl *Timeline) segment(a int) float64 {
	if lv := tl.lv; lv != nil {
		c := lv.level()
		tl.curUse = lv.interval + lv.lat[c-1][a-1] - lv.ovr[c-1][a-1]
		lv.draw(tl.now, a, tl.rng)
		return lv.interval + lv.lat[c-1][a-1]
	}
	if tl.ivOf == nil {
		return tl.segLen[a-1]
	}
	iv := tl.ivOf(a, tl.nUp-a)
	if !(iv > 0) || math.IsInf(iv, 0) {
		panic(fmt.Sprintf("sim: the interval of an up segment on %d processors with %d spares is %v, want a finite positive number of seconds", a, tl.nUp-a, iv))
	}
	tl.curUse = iv + tl.latency[a-1] - tl.overhead[a-1]
	return iv + tl.latency[a-1]
}

// bitset is a set of processors, one bit each.
type bitset []uint64

func newBitset(n int) bitset { return make(bitset, (n+63)/64) }

func (b bitset) has(i int) bool { return b[i/64]&(1<<(i%64)) != 0 }
func (b bitset) set(i int)      { b[i/64] |= 1 << (i % 64) }
func (b bitset) unset(i int)    { b[i/64] &^= 1 << (i % 64) }

// appendMembers appends the members of b to dst in increasing order.
func (b bitset) appendMembers(dst []int) []int {
	for w, word := range b {
		for word != 0 {
			dst = append(dst, w*64+bits.TrailingZeros64(word))
			word &= word - 1
		}
	}
	return dst
}
