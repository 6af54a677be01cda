package multilevel

import (
	"fmt"
	"math"

	"github.com/ckpt-markov/markov/internal/decision"
	"github.com/ckpt-markov/markov/markov"
	"github.com/ckpt-markov/markov/reschedule"
	"github.com/ckpt-markov/markov/scenario"
	"gonum.org/v1/gonum/mat"
)

// MaxReconfStates bounds the states of the chain with reconfiguration at
// checkpoints (docs/model.md section 12, "Reconfiguration at top-level
// checkpoints"), estimated from the window before anything is built.
const MaxReconfStates = 200000

// The kinds of state of the chain with reconfiguration.
const (
	rkStart   = iota // S(a, n): a period starts on a, n functional
	rkCrash          // C(a, n): the in-place recovery from level L after a crash
	rkRecover        // R(p, n): the recovery onto r(n) from a checkpoint of p
	rkDown           // D(p, n): down, n functional (at position k with positions)
	rkLevel2         // Q(k, p, n): the recovery from the k-th level-2 checkpoint onto r(n), then the rest of the period
)

// rlabel is a state of the chain with reconfiguration: p is the count
// the application runs on (S, C) or that wrote the checkpoint to restore
// (R, D; 0 when the recovery cost does not depend on it), or, in Q
// and positional D states, the count that wrote the period's level-L
// checkpoint; k is the position (the level-2 checkpoints written in the
// current period: reconfpos.go), 0 but in Q and D states with positions.
type rlabel struct{ kind, p, n, k int }

// reconf is the chain of a malleable policy that reconfigures at every
// top-level checkpoint (docs/model.md section 12), L ≤ 3: a processor
// failure of the top severity restarts the period; with three levels and
// f₂ > 0 (pos) one of severity 2 restores the period's newest level-2
// checkpoint (reconfpos.go).
type reconf struct {
	n, lo, hi         int // processors, the window of functional counts
	act               func(n int) int
	rule              reschedule.Rule
	recfg             scenario.Reconfigure
	old               bool // the top level's recovery cost depends on the old count
	top               scenario.Level
	lambda, mu, theta float64
	sev               []float64 // f₁, 0 …, the down share (malleable.sev)
	levels            []scenario.Level
	work              []float64
	chains            *decision.Chains
	// recs holds, by used count, the recoveries that depend on neither
	// the pattern nor the interval (recParts), computed by newReconf
	// and then only read (none with one level: its body has no loop).
	recs map[int]*recParts
	// pos: three levels with processor failures of severity 2, phi
	// their share f₂/(f₂ + f₃) (reconfpos.go).
	pos bool
	phi float64
}

// newReconf returns the chain of sc on the window [lo, hi], or an error
// naming the field when it is out of reach: too many processors outside
// the application, or too many states (checkReconf refuses the levels
// and severities it does not model before). With pos (three levels)
// the chain keeps the position in the period (reconfpos.go).
func newReconf(sc *scenario.Scenario, lo, hi int, mu float64, sev []float64, pos bool) (*reconf, error) {
	app := sc.Application
	L := app.NumLevels()
	levels := app.CheckpointLevels()
	rc := &reconf{n: sc.N(), lo: lo, hi: hi, act: sc.Reschedule.At, rule: sc.Rule(), recfg: sc.Reconfigure,
		top: levels[L-1], lambda: sc.System.Lambda(), mu: mu, theta: sc.System.Theta(), sev: sev, levels: levels,
		work: app.WorkRate, chains: decision.NewChains(mu, sc.System.Theta())}
	rc.old = rc.top.Recovery.DependsOnOld()
	w := hi - lo + 1
	ps := 1
	if rc.old {
		ps = w
	}
	if est := 2*w*w + 2*w*ps; est > MaxReconfStates {
		return nil, &scenario.Error{Field: "reconfigure", Problem: fmt.Sprintf(
			"at-checkpoint with application.checkpoint_levels: the chain would hold about %d states (a window of %d functional counts), more than %d", est, w, MaxReconfStates)}
	}
	for k := max(lo, 1); k <= hi; k++ {
		if a := rc.act(k); a > 0 && rc.n-a > MaxPositionSpares {
			return nil, &scenario.Error{Field: "reconfigure", Problem: fmt.Sprintf(
				"at-checkpoint with application.checkpoint_levels under a policy that runs on %d of %d processors: the chain's spare matrices are (N − a + 1)² with N − a = %d, more than %d", a, rc.n, rc.n-a, MaxPositionSpares)}
		}
	}
	rc.recs = map[int]*recParts{}
	for k := max(lo, 1); k <= hi && L > 1; k++ {
		a := rc.act(k)
		if _, ok := rc.recs[a]; ok || a <= 0 {
			continue
		}
		ch, err := rc.chains.Chain(rc.n - a)
		if err != nil {
			continue // partsOf returns it
		}
		pr3, _ := rc.embed(a, make([]int, L-1))
		rc.recs[a] = (&mcomposer{pr: pr3, chain: ch, size: rc.n - a + 1}).recoveries()
	}
	if pos {
		return rc, rc.setPositional(sc, w, ps)
	}
	return rc, nil
}

// rparts are the laws of one used count a for one pattern and interval,
// jointly with the spare count (matrices over 0..N − a spares up): the
// level-L body (a period from its start to its level-L checkpoint, a
// crash it hands to the in-place recovery, or a processor failure), the
// in-place recovery and the recoveries onto a by their length.
type rparts struct {
	comp              *mcomposer
	done, crash, kill *mat.Dense // the body's ends
	time, useful      float64    // the body's expected time; a period's useful computation
	rdone, rkill      map[float64]*mat.Dense
	crashLen          float64  // R_L(a, a) + L_L(a)
	work              float64  // ω(a)
	up                *upParts // with positions: the superblocks and the level-2 recovery
	sbw               float64  // with positions: a superblock's useful computation
}

// embed returns the levels and pattern of a three-level composition
// equal to the L ≤ 3 levels on a (a dummy level never written fills the
// missing ones, with V = 0 around it) and the process of the matrices:
// crashes at f₁, every other failure a processor failure.
func (rc *reconf) embed(a int, pattern []int) (*Process, []int) {
	lv := levelsAt(rc.levels, a)
	var l3 []Level
	var p3 []int
	switch len(lv) {
	case 1:
		l3, p3 = []Level{lv[0], lv[0], lv[0]}, []int{0, 0}
	case 2:
		l3, p3 = []Level{lv[0], lv[1], lv[1]}, []int{pattern[0], 0}
	default:
		l3, p3 = lv, pattern
	}
	crash := rc.sev[0]
	return &Process{Rate: float64(a) * rc.lambda, Severity: []float64{crash, 0, 1 - crash}, CheckpointAfterRecovery: true, Levels: l3}, p3
}

// partsOf computes the parts of a.
func (rc *reconf) partsOf(a int, pattern []int, interval float64) (*rparts, error) {
	ch, err := rc.chains.Chain(rc.n - a)
	if err != nil {
		return nil, err
	}
	pr3, p3 := rc.embed(a, pattern)
	c := &mcomposer{pr: pr3, chain: ch, size: rc.n - a + 1, pattern: p3, interval: interval, rec: rc.recs[a]}
	first, mid, last, err := c.levelBodies()
	if err != nil {
		return nil, err
	}
	body, err := c.nested().body(3, 3)
	if err != nil {
		return nil, err
	}
	// The scalar law of the same body (period.go), for its time.
	pr := &Process{Rate: float64(a) * rc.lambda, Severity: rc.sev, CheckpointAfterRecovery: true, Levels: levelsAt(rc.levels, a)}
	L := len(pr.Levels)
	sc := composer{pr: pr, pattern: pattern, interval: interval, L: L, sev: L + 1}
	rp := &rparts{comp: c, done: body.done, time: sc.body(L, L).time, useful: pr.useful(pattern, interval),
		rdone: map[float64]*mat.Dense{}, rkill: map[float64]*mat.Dense{}, work: rc.work[a-1]}
	for s := 0; s < 3; s++ {
		rp.crash = add(rp.crash, body.exit[s])
	}
	rp.kill = add(body.exit[clKill], body.exit[clKillRec])
	rp.crashLen = rc.top.Recovery.Cost(a, a) + rc.top.Latency[a-1]
	if rc.pos {
		return rp, rc.positionalParts(rp, c, first, mid, last)
	}
	return rp, nil
}

// recovery returns the completion and processor-failure matrices of a
// recovery of t seconds onto a (crashes restart it), computed once.
func (rp *rparts) recovery(t float64) (done, kill *mat.Dense, err error) {
	if d, ok := rp.rdone[t]; ok {
		return d, rp.rkill[t], nil
	}
	if done, kill, err = rp.comp.recoveryLoop(t); err != nil {
		return nil, nil, err
	}
	rp.rdone[t], rp.rkill[t] = done, kill
	return done, kill, nil
}

// loopTime returns the expected time of a recovery of t seconds on a,
// crashes restarting it, until it completes or a processor goes down.
func (rc *reconf) loopTime(a int, t float64) float64 {
	rate := float64(a) * rc.lambda
	q := -math.Expm1(-rate * t)
	return q / rate / (1 - rc.sev[0]*q)
}

// rstate is what the renewal–reward sums need of a state: its expected
// sojourn, committed work and useful computation, whether the
// application runs in it, and the probability its row leaves the window.
type rstate struct {
	tau, work, use, leave float64
	down                  bool
	// With positions (reconfpos.go): ω of the count that runs, the
	// probability of reaching the level-L checkpoint (end), the jumps
	// that keep the level-2 checkpoint (g, for the survival h) and the
	// work at risk (credited with h of the state it jumps to).
	omega, end float64
	g, risky   []rjump
}

// rbuild accumulates the chain of one evaluation.
type rbuild struct {
	rc       *reconf
	pattern  []int
	interval float64
	parts    map[int]*rparts
	b        *markov.Builder[rlabel]
	info     map[rlabel]*rstate
	queue    []rlabel
}

func (rb *rbuild) partsOf(a int) (*rparts, error) {
	if p, ok := rb.parts[a]; ok {
		return p, nil
	}
	p, err := rb.rc.partsOf(a, rb.pattern, rb.interval)
	if err != nil {
		return nil, err
	}
	rb.parts[a] = p
	return p, nil
}

// add records the jump from → to with probability x (to inside the
// window, else it counts as leaving it), queueing a state first seen.
func (rb *rbuild) add(from, to rlabel, x float64) {
	if x == 0 {
		return
	}
	if to.n < rb.rc.lo || to.n > rb.rc.hi {
		rb.info[from].leave += x
		return
	}
	if _, ok := rb.info[to]; !ok {
		rb.info[to] = &rstate{}
		rb.queue = append(rb.queue, to)
	}
	rb.b.Add(from, to, x)
}

// after returns the state that follows a processor failure leaving n
// functional, the checkpoint to restore written on p.
func (rc *reconf) after(p, n int) rlabel { return rc.afterAt(0, p, n) }

// afterAt returns the state that follows a processor failure leaving n
// functional with the level-2 checkpoint at position k ≥ 1 to restore
// (Q), or, k = 0, the level-L checkpoint written on p (R).
func (rc *reconf) afterAt(k, p, n int) rlabel {
	if !rc.old {
		p = 0
	}
	switch {
	case n < 1 || rc.act(n) == 0:
		return rlabel{rkDown, p, n, k}
	case k > 0:
		return rlabel{rkLevel2, p, n, k}
	}
	return rlabel{kind: rkRecover, p: p, n: n}
}

// checkpoint returns the state that follows a level-L checkpoint written
// on a with n functional: the next period on a, or the recovery onto
// r(n) that reconfigures.
func (rc *reconf) checkpoint(a, n int) rlabel {
	if b := rc.recfg.TargetOf(rc.rule, a, n); b != a {
		p := a
		if !rc.old {
			p = 0
		}
		return rlabel{kind: rkRecover, p: p, n: n}
	}
	return rlabel{kind: rkStart, p: a, n: n}
}

// ends adds the rows of a state on a with s = n − a spares up: done (to
// the level-L checkpoint), crash (to the in-place recovery, or nil) and
// kill (a processor failure, the checkpoint to restore written on p).
func (rb *rbuild) ends(from rlabel, a, p, s int, done, crash, kill *mat.Dense) {
	rc := rb.rc
	for j, x := range done.RawRowView(s) {
		rb.add(from, rc.checkpoint(a, a+j), x)
	}
	if crash != nil {
		for j, x := range crash.RawRowView(s) {
			rb.add(from, rlabel{kind: rkCrash, p: a, n: a + j}, x)
		}
	}
	for j, x := range kill.RawRowView(s) {
		rb.add(from, rc.after(p, a-1+j), x)
	}
}

// row adds the row of state l and its rewards.
func (rb *rbuild) row(l rlabel) error {
	rc, st := rb.rc, rb.info[l]
	if l.kind == rkDown {
		k := float64(l.n)
		out := k * rc.mu
		in := float64(rc.n-l.n) * rc.theta
		st.tau, st.down = 1/(out+in), true
		if l.n > 0 {
			rb.move(l, rc.afterAt(l.k, l.p, l.n-1), out*st.tau)
		}
		if l.n < rc.n {
			rb.move(l, rc.afterAt(l.k, l.p, l.n+1), in*st.tau)
		}
		return nil
	}
	a := l.p
	if l.kind == rkRecover || l.kind == rkLevel2 {
		a = rc.act(l.n)
	}
	rp, err := rb.partsOf(a)
	if err != nil {
		return err
	}
	s := l.n - a
	st.omega = rp.work
	switch l.kind {
	case rkStart:
		if rc.pos {
			rb.startPos(l, rp, a, s)
			return nil
		}
		q := sum(rp.done.RawRowView(s))
		st.tau, st.use = rp.time, q*rp.useful
		st.work = st.use * rp.work
		rb.ends(l, a, a, s, rp.done, rp.crash, rp.kill)
		return nil
	case rkCrash:
		done, kill, err := rp.recovery(rp.crashLen)
		if err != nil {
			return err
		}
		st.tau = rc.loopTime(a, rp.crashLen)
		rb.ends(l, a, a, s, done, nil, kill)
		return nil
	case rkLevel2:
		rb.level2(l, rp, a, s)
		return nil
	}
	p := l.p
	if p == 0 {
		p = a // the cost does not depend on it
	}
	t := rc.top.Recovery.Cost(p, a) + rc.top.Latency[a-1]
	done, kill, err := rp.recovery(t)
	if err != nil {
		return err
	}
	st.tau = rc.loopTime(a, t)
	rb.ends(l, a, l.p, s, done, nil, kill)
	return nil
}

// evaluate returns the UWT of pattern and interval: the chain of the
// states reachable within the window from a decision with hi functional, its
// stationary law (transient states get none), and the renewal–reward
// ratios, with the stationary mass of the jumps that leave the window
// (lost).
func (rc *reconf) evaluate(pattern []int, interval float64) (uwtv, avail, eff, down, lost float64, err error) {
	if err := rc.checkPattern(pattern); err != nil {
		return 0, 0, 0, 0, 0, err
	}
	rb := &rbuild{rc: rc, pattern: pattern, interval: interval, parts: map[int]*rparts{},
		b: markov.NewBuilder[rlabel](), info: map[rlabel]*rstate{}}
	// Any state leads to the recurrent class: start from the decision
	// with hi functional, the checkpoint written on r(N) > 0.
	start := rc.after(rc.act(rc.n), rc.hi)
	rb.info[start] = &rstate{}
	rb.b.AddState(start)
	rb.queue = append(rb.queue, start)
	for len(rb.queue) > 0 {
		l := rb.queue[0]
		rb.queue = rb.queue[1:]
		if err := rb.row(l); err != nil {
			return 0, 0, 0, 0, 0, err
		}
	}
	ch, err := rb.b.Build(&markov.BuildSettings{Renormalise: true})
	if err != nil {
		return 0, 0, 0, 0, 0, fmt.Errorf("multilevel: reconfiguration chain: %w", err)
	}
	res, err := ch.Stationary(nil)
	if err != nil {
		return 0, 0, 0, 0, 0, fmt.Errorf("multilevel: reconfiguration chain: %w", err)
	}
	var h map[rlabel]float64
	if rc.pos {
		if h, err = rb.survival(pattern[1]); err != nil {
			return 0, 0, 0, 0, 0, err
		}
	}
	var work, use, run, idle float64
	for i, l := range ch.Labels() {
		pi, st := res.Pi[i], rb.info[l]
		risky := atRisk(st, h)
		work += pi * risky * st.omega
		use += pi * risky
		if st.down {
			idle += pi * st.tau
		} else {
			run += pi * st.tau
		}
		work += pi * st.work
		use += pi * st.use
		lost += pi * st.leave
	}
	total := run + idle
	if total == 0 || run == 0 {
		return 0, 0, 0, 0, lost, nil
	}
	return work / total, use / total, use / run, idle / run, lost, nil
}
