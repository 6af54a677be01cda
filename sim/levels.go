package sim

import (
	"errors"
	"math"
	"math/rand/v2"

	"github.com/ckpt-markov/markov/scenario"
)

// levels is the multi-level state of a timeline (docs/model.md section
// 12): the position in the period as mixed-radix digits (d₁ fastest,
// dℓ ∈ 0..V_ℓ), and the work and useful time committed since the newest
// checkpoint of each level or higher, taken back when a failure rolls
// back before them. It holds O(L) numbers whatever the period's length.
type levels struct {
	pattern  []int
	digits   []int
	lat, ovr [][]float64 // by level, then a−1
	rec      []scenario.Recovery
	after    bool      // a checkpoint of the restored level after a recovery
	shares   []float64 // severity shares
	crash    float64   // rate of severity-1 crashes per used processor
	// With failure events (system.failure_events), crash events strike
	// the pool at crashN in all (a bound: N functional), each accepted
	// with probability nUp/N (thinning) and interrupting when one of its
	// min(K, nUp) processors is used; cum is the law of K, cumulated.
	crashN  float64
	cum     []float64
	pool    int
	accW    []float64 // work since the newest checkpoint of level ≥ ℓ
	accU    []float64 // useful time since then
	next    float64   // time of the next crash of a used processor
	crashed bool      // the pending interruption is a crash
	given   bool      // the source gives each failure's severity (SeveritySource)
	hit     int       // highest given severity of the pending interruption's failures
	restore int       // level of the checkpoint being restored
	// top is the count that wrote the newest top-level checkpoint (0
	// before the first): a failure of severity 2 with three levels can
	// move the application onto another count inside the period.
	top      int
	interval float64
}

// crashBefore reports whether a crash comes before t (false for a nil
// state: one level has no crashes apart from processor failures).
func (lv *levels) crashBefore(t float64) bool {
	return lv != nil && lv.next < t
}

// draw draws the time of the next severity-1 crash of the a used
// processors from now (a new phase starts; crashes are memoryless).
func (lv *levels) draw(now float64, a int, rng *rand.Rand) {
	lv.next = math.Inf(1)
	switch {
	case lv.crashN > 0:
		lv.next = now + rng.ExpFloat64()/lv.crashN
	case lv.crash > 0:
		lv.next = now + rng.ExpFloat64()/(float64(a)*lv.crash)
	}
}

// strikes reports whether the crash event at the clock interrupts the
// application on a of nUp functional processors (always without failure
// events): accepted with probability nUp/N, it draws its size K and
// strikes min(K, nUp) functional processors uniformly, the i-th a used
// one with probability a/(nUp − i) if none before was.
func (lv *levels) strikes(nUp, a int, rng *rand.Rand) bool {
	if lv.crashN == 0 {
		return true
	}
	if rng.Float64()*float64(lv.pool) >= float64(nUp) {
		return false
	}
	for i := range eventSize(lv.cum, nUp, rng) {
		if rng.Float64()*float64(nUp-i) < float64(a) {
			return true
		}
	}
	return false
}

// recovery returns the length of the recovery onto a processors from the
// checkpoint before the current segment, written on p (on lv.top for
// the top level once one is written): R_ℓ(p, a), plus L_ℓ(a) with the
// checkpoint after recovery, ℓ its level.
func (lv *levels) recovery(p, a int) float64 {
	l := lv.boundary()
	lv.restore = l
	if l == len(lv.digits)+1 && lv.top > 0 {
		p = lv.top
	}
	t := lv.rec[l-1].Cost(p, a)
	if lv.after {
		t += lv.lat[l-1][a-1]
	}
	return t
}

// errLevelsUnsupported is returned for a multi-level scenario with what
// the multi-level timeline does not model yet.
var errLevelsUnsupported = errors.New("sim: application.checkpoint_levels: per-state decisions (intervals, reconfiguration decisions) are not simulated with several levels yet")

// checkLevels rejects the decisions the multi-level timeline does not
// model yet: per-state intervals and reconfiguration decisions.
func checkLevels(sc *scenario.Scenario, d Decisions) error {
	if sc.MultiLevel() && (d.Intervals != nil || d.Reconfigure != nil) {
		return errLevelsUnsupported
	}
	return nil
}

// atTop reports whether the checkpoint just written (a commit, or the end
// of a recovery) is of the top level, the one the application may
// reconfigure at (docs/model.md section 12): the position is a period's
// start. A nil state (one level) is always at the top.
func (lv *levels) atTop() bool {
	return lv == nil || lv.boundary() == len(lv.digits)+1
}

// newLevels returns the multi-level state of sc, or nil for the
// single-level model.
func newLevels(sc *scenario.Scenario) *levels {
	if !sc.MultiLevel() {
		return nil
	}
	app := sc.Application
	lv := &levels{after: !app.NoCheckpointAfterRecovery, shares: sc.Severity(), next: math.Inf(1)}
	L := app.NumLevels()
	lv.pattern = sc.CheckpointPattern
	if lv.pattern == nil {
		lv.pattern = make([]int, L-1)
	}
	lv.digits = make([]int, L-1)
	for _, l := range app.CheckpointLevels() {
		lv.lat = append(lv.lat, l.Latency)
		lv.ovr = append(lv.ovr, l.Overhead)
		lv.rec = append(lv.rec, l.Recovery)
	}
	lv.accW, lv.accU = make([]float64, L), make([]float64, L)
	if L > 1 {
		lv.crash = lv.shares[0] / sc.System.MTTF
		if sys := sc.System; !sys.FailureEvents.Single() {
			lv.pool = sc.N()
			lv.crashN = lv.shares[0] * sys.EventRate() * float64(lv.pool)
			lv.cum = cumulated(sys.FailureEvents.Law(), 1)
		}
	}
	return lv
}

// downMTTF is the mean time between the failures that take a processor
// down: with several levels, severity-1 failures (process crashes) take
// none, so processors go down at (1 − f₁)λ.
func downMTTF(sc *scenario.Scenario) float64 {
	f := sc.Severity()
	if len(f) == 1 {
		return sc.System.MTTF
	}
	// All crashes: no processor ever goes down (the largest finite mean).
	return math.Min(sc.System.MTTF/(1-f[0]), math.MaxFloat64)
}

// level returns the level of the checkpoint ending the current segment:
// 1 + the number of leading digits at their maximum.
func (lv *levels) level() int {
	l := 1
	for l <= len(lv.digits) && lv.digits[l-1] == lv.pattern[l-1] {
		l++
	}
	return l
}

// boundary returns the level of the checkpoint before the current
// segment: the lowest ℓ with d_ℓ > 0, or L at the start of a period.
func (lv *levels) boundary() int {
	for l, d := range lv.digits {
		if d > 0 {
			return l + 1
		}
	}
	return len(lv.digits) + 1
}

// commit records the commit of the current segment (w work, u useful
// seconds) and moves to the next segment.
func (lv *levels) commit(w, u float64) {
	c := lv.level()
	for l := range lv.accW {
		if l < c {
			lv.accW[l], lv.accU[l] = 0, 0
		} else {
			lv.accW[l] += w
			lv.accU[l] += u
		}
	}
	for l := range lv.digits { // mixed-radix increment
		if lv.digits[l] < lv.pattern[l] {
			lv.digits[l]++
			break
		}
		lv.digits[l] = 0
	}
}

// rollback returns to the newest checkpoint of level ≥ s and the work
// and useful time it takes back.
func (lv *levels) rollback(s int) (w, u float64) {
	w, u = lv.accW[s-1], lv.accU[s-1]
	for l := 0; l < s-1; l++ {
		lv.digits[l] = 0
	}
	b := lv.boundary()
	for l := range lv.accW {
		if l < b {
			lv.accW[l], lv.accU[l] = 0, 0
		} else {
			lv.accW[l] -= w
			lv.accU[l] -= u
		}
	}
	return w, u
}

// fail handles a failure of severity s in an up segment (recovering is
// false) or during the recovery from a level-lv.restore checkpoint:
// severity below the restored level (or any at L) restarts the recovery;
// severity equal to it destroys the checkpoint being read and counts as
// one more; higher severities roll back as in a segment.
func (lv *levels) fail(s int, recovering bool) (w, u float64) {
	L := len(lv.accW)
	if recovering {
		switch l := lv.restore; {
		case s < l || l == L:
			return 0, 0
		case s == l:
			s = l + 1
		}
	}
	return lv.rollback(s)
}

// severity draws the severity of a failure that took a used processor
// down: s ≥ 2 in proportion to the shares (with one level, 1).
func (lv *levels) severity(u float64) int {
	f := lv.shares
	if len(f) == 1 {
		return 1
	}
	u *= 1 - f[0]
	for s := 1; s < len(f); s++ {
		if u < f[s] {
			return s + 1
		}
		u -= f[s]
	}
	return len(f)
}
