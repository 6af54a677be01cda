package multilevel

import (
	"fmt"
	"math"

	"github.com/ckpt-markov/markov/birthdeath"
	"github.com/ckpt-markov/markov/scenario"
	"gonum.org/v1/gonum/lapack/lapack64"
	"gonum.org/v1/gonum/mat"
)

// MaxPositionStates bounds the states of the positional chain (three
// levels, a malleable policy and processor failures of severity 2:
// docs/model.md section 12, "Processor failures inside the period"): the
// window's functional counts times V₂ + 1 positions. Each evaluation
// solves two dense systems of that order.
const MaxPositionStates = 3000

// maxInstantEntries bounds the jumps between the positional chain's
// states and its instant states (dense: 8 bytes each).
const maxInstantEntries = 2e7

// MaxPositionSpares bounds m = N − a, the processors outside the
// application, of every used count of the positional chain's window:
// its matrices are (m + 1)², some thirty of them per count.
const MaxPositionSpares = 400

// The classes of what ends a part of an up phase (positional model):
// the severities 1..3 of failures that take no processor down (crashes,
// and the crashes a failed recovery escalates), a processor failure in
// a segment or a level-1 or level-3 recovery, and a processor failure
// during a recovery from level 2 (any severity then restores the
// level-3 checkpoint: severity 2 destroys the level-2 copy being read).
const (
	clCrash   = 0
	clKill    = 3
	clKillRec = 4
	nClasses  = 5
)

// mphase is a part of an up phase on a processors, summarised jointly
// with the spare count: done[i][j] is the probability of completing it
// with j spares up at its end, from i at its start, and exit[c][i][j]
// that of leaving it by class c with j spares up then. Every matrix is a
// function of the spare chain's generator G (a series in e^{Gt} and
// resolvents of G), so they all commute, and the scalar composition of
// period.go holds with the products and inverses of matrices. A nil
// exit is zero.
type mphase struct {
	done *mat.Dense
	exit [nClasses]*mat.Dense
}

// mcomposer composes the up phase's parts on a processors with m = N − a
// processors outside the application (their up count the spare state).
type mcomposer struct {
	pr       *Process          // on a: rate aλ, shares f₁ … f₃
	chain    *birthdeath.Chain // the up count of the m processors outside, failing at μ
	size     int
	pattern  []int
	interval float64
	attempts map[float64]mphase // by length: the segments' and recoveries'
	rec      *recParts          // nil: computed on first use
	ev       *posEvents         // with failure events (posevents.go), or nil
	nest     *nest[mphase]      // the pattern's bodies and blocks (nest.go), or nil
}

// killWidth returns the columns of the processor-failure exits: spare
// counts with single failures, the window's functional counts with
// failure events.
func (c *mcomposer) killWidth() int {
	if c.ev != nil {
		return c.ev.w
	}
	return c.size
}

// recParts are the parts of an up phase on a processors that depend on
// neither the pattern nor the interval, computed once per count by
// newPositional and newReconf (a third to a half of an evaluation's
// spare-chain transitions and loop inverses otherwise): for each level
// l = 1..3, its recovery as in a level-l block (mcomposer.recovery)
// with the inverse of that recovery's restart loop, or the error that
// computing them gave (returned by the evaluation that needs them, as
// before); and the recoveries that start an up phase
// (mcomposer.decisionRecovery).
type recParts struct {
	r                        [4]mphase
	ri                       [4]*mat.Dense
	err                      [4]error
	rec2, kill2, rec3, kill3 *mat.Dense
	decErr                   error
}

// recoveries returns c's recParts, computing them the first time.
func (c *mcomposer) recoveries() *recParts {
	if c.rec != nil {
		return c.rec
	}
	rp := &recParts{}
	for l := 1; l <= 3; l++ {
		r, restart, err := c.recovery(l)
		if err == nil {
			rp.ri[l], err = c.loopInverse(restart)
		}
		rp.r[l], rp.err[l] = r, err
	}
	if rp.rec2, rp.kill2, rp.decErr = c.decisionRecovery(2); rp.decErr == nil {
		rp.rec3, rp.kill3, rp.decErr = c.decisionRecovery(3)
	}
	c.rec = rp
	return rp
}

// identity returns the part that completes at once.
func (c *mcomposer) identity() mphase { return mphase{done: eye(c.size)} }

func mul(a, b *mat.Dense) *mat.Dense {
	var out mat.Dense
	out.Mul(a, b)
	return &out
}

// add returns a + b, nil being zero.
func add(a, b *mat.Dense) *mat.Dense {
	switch {
	case a == nil:
		return b
	case b == nil:
		return a
	}
	var out mat.Dense
	out.Add(a, b)
	return &out
}

// loopInverse returns (I − z)⁻¹ (nil z: I). I − z is a non-singular
// M-matrix here: z holds the probabilities of returning to the start of
// a loop, whose rows sum to less than one.
func (c *mcomposer) loopInverse(z *mat.Dense) (*mat.Dense, error) {
	a := eye(c.size)
	if z != nil {
		a.Sub(a, z)
	}
	// LU and its inverse without mat.Inverse's condition estimate (a
	// fifth of an evaluation's time): I − z is diagonally dominant.
	raw := a.RawMatrix()
	ipiv := make([]int, c.size)
	work := make([]float64, 4*c.size)
	if !lapack64.Getrf(raw, ipiv) || !lapack64.Getri(raw, ipiv, work, len(work)) {
		return nil, fmt.Errorf("multilevel: positional model: a loop matrix is singular")
	}
	return a, nil
}

// attempt is a stretch of t seconds that any failure of a used
// processor ends: done = e^{−Λt}e^{Gt}, and a failure of class c in it
// leaves the spares with ∫₀ᵗ r_c e^{−Λu}e^{Gu} du, r_c its rate (crashes
// aλf₁, processor failures aμ).
func (c *mcomposer) attempt(t float64) (mphase, error) {
	if ph, ok := c.attempts[t]; ok {
		return ph, nil
	}
	ph, err := c.newAttempt(t)
	if err != nil {
		return mphase{}, err
	}
	if c.attempts == nil {
		c.attempts = map[float64]mphase{}
	}
	c.attempts[t] = ph
	return ph, nil
}

func (c *mcomposer) newAttempt(t float64) (mphase, error) {
	if c.ev != nil {
		return c.ev.attempt(t, c.pr.Severity[0])
	}
	rate := c.pr.Rate
	var p, q mat.Dense
	if err := c.chain.Transition(&p, &q, t, rate, nil); err != nil {
		return mphase{}, err
	}
	p.Scale(math.Exp(-rate*t), &p)
	ph := mphase{done: &p}
	if rate == 0 {
		return ph, nil
	}
	// q = ∫₀ᵗ Λe^{−Λu}e^{Gu} du: the classes take their shares of it.
	crash := c.pr.Severity[0]
	if crash > 0 {
		var x mat.Dense
		x.Scale(crash, &q)
		ph.exit[clCrash] = &x
	}
	var k mat.Dense
	k.Scale(1-crash, &q)
	ph.exit[clKill] = &k
	return ph, nil
}

func (a mphase) then(b mphase) mphase {
	out := mphase{done: mul(a.done, b.done)}
	for s := range a.exit {
		var x *mat.Dense
		if b.exit[s] != nil {
			x = mul(a.done, b.exit[s])
		}
		out.exit[s] = add(a.exit[s], x)
	}
	return out
}

// recovery returns the attempt of a recovery from level l (R_l + L_l:
// the checkpoint after recovery) with its classes mapped as in a level-l
// block (period.go, block): severities below l, or any at l = 3,
// restart it (returned as restart); severity l < 3 escalates to l + 1; a
// processor failure during a recovery from level 2 is clKillRec.
func (c *mcomposer) recovery(l int) (r mphase, restart *mat.Dense, err error) {
	lv := c.pr.Levels[l-1]
	a, err := c.attempt(lv.Recovery + lv.Latency)
	if err != nil {
		return mphase{}, nil, err
	}
	r.done = a.done
	const L = 3
	for s := 0; s < L; s++ { // severity s+1
		switch {
		case s < l-1 || l == L:
			restart = add(restart, a.exit[s])
		case s == l-1:
			r.exit[s+1] = add(r.exit[s+1], a.exit[s])
		default:
			r.exit[s] = add(r.exit[s], a.exit[s])
		}
	}
	if l == 2 {
		r.exit[clKillRec] = a.exit[clKill]
	} else {
		r.exit[clKill] = a.exit[clKill]
	}
	return r, restart, nil
}

// wrap returns body inside the recovery loop of level l: a failure of
// severity ≤ l (classes below l) is handled by a recovery from the
// level-l checkpoint that began it and a new attempt of the body.
func (c *mcomposer) wrap(l int, body mphase) (mphase, error) {
	rp := c.recoveries()
	if rp.err[l] != nil {
		return mphase{}, rp.err[l]
	}
	r, ri := rp.r[l], rp.ri[l]
	var handled *mat.Dense
	for s := 0; s < l; s++ {
		handled = add(handled, body.exit[s])
	}
	if handled == nil {
		out := body
		for s := 0; s < l; s++ {
			out.exit[s] = nil
		}
		return out, nil
	}
	hr := mul(handled, ri) // a handled failure, then the recovery loop
	zi, err := c.loopInverse(mul(hr, r.done))
	if err != nil {
		return mphase{}, err
	}
	out := mphase{done: mul(zi, body.done)}
	for s := l; s < nClasses; s++ {
		var x *mat.Dense
		if r.exit[s] != nil {
			x = mul(hr, r.exit[s])
		}
		if y := add(body.exit[s], x); y != nil {
			out.exit[s] = mul(zi, y)
		}
	}
	return out, nil
}

// decisionRecovery returns the recovery from level l that starts an up
// phase, crashes restarting it: its completion, and its end by a
// processor failure (after which the application restores the level-3
// checkpoint: position 0).
func (c *mcomposer) decisionRecovery(l int) (done, kill *mat.Dense, err error) {
	lv := c.pr.Levels[l-1]
	return c.recoveryLoop(lv.Recovery + lv.Latency)
}

// recoveryLoop returns a recovery of t seconds that crashes restart: with
// one attempt's done D, crash exit X and processor-failure exit K, its
// completion (I − X)⁻¹D and its end by a processor failure (I − X)⁻¹K.
func (c *mcomposer) recoveryLoop(t float64) (done, kill *mat.Dense, err error) {
	a, err := c.attempt(t)
	if err != nil {
		return nil, nil, err
	}
	ri, err := c.loopInverse(a.exit[clCrash])
	if err != nil {
		return nil, nil, err
	}
	return mul(ri, a.done), mul(ri, a.exit[clKill]), nil
}

// upParts are the parts of an up phase on a processors for one pattern
// and interval: the recoveries that start it (from level 2 and level 3),
// the first superblock of a period (the level-2 body wrapped in the
// level-3 recovery loop), the level-2 blocks ending at level 2 and at
// level 3, and a whole period from its start.
type upParts struct {
	kw                       int // columns of the kill laws (killWidth)
	rec2, rec3, kill2, kill3 *mat.Dense
	first, mid, last         mphase
	periodInv                *mat.Dense // (I − period's done)⁻¹
}

func (c *mcomposer) parts() (*upParts, error) {
	rp := c.recoveries()
	if rp.decErr != nil {
		return nil, rp.decErr
	}
	u := &upParts{kw: c.killWidth(), rec2: rp.rec2, kill2: rp.kill2, rec3: rp.rec3, kill3: rp.kill3}
	var err error
	var b mphase
	if b, u.mid, u.last, err = c.levelBodies(); err != nil {
		return nil, err
	}
	if u.first, err = c.wrap(3, b); err != nil {
		return nil, err
	}
	period := u.first.done
	if v2 := c.pattern[1]; v2 > 0 {
		period = mul(period, mul(repeat(c, u.mid, v2-1).done, u.last.done))
	}
	if u.periodInv, err = c.loopInverse(period); err != nil {
		return nil, err
	}
	return u, nil
}

// levelBodies returns the parts of the level-3 body: its first level-2
// body (ending at level 2, or at level 3 when V₂ = 0), unwrapped, and,
// when V₂ > 0, the level-2 blocks ending at level 2 and at level 3. The
// body is first, then V₂ − 1 copies of mid, then last.
func (c *mcomposer) levelBodies() (first, mid, last mphase, err error) {
	n := c.nested()
	if c.pattern[1] == 0 {
		first, err = n.body(3, 3)
		return
	}
	if first, err = n.body(2, 2); err != nil {
		return
	}
	if mid, err = n.block(2, 2); err != nil {
		return
	}
	last, err = n.block(2, 3)
	return
}

// nested returns the nesting of c's pattern, created on first use.
func (c *mcomposer) nested() *nest[mphase] {
	if c.nest == nil {
		c.nest = newNest[mphase](c, c.pattern)
	}
	return c.nest
}

// segment returns the attempt of a segment ending with a level-k
// checkpoint, I + L_k seconds.
func (c *mcomposer) segment(k int) (mphase, error) {
	return c.attempt(c.interval + c.pr.Levels[k-1].Latency)
}

// then returns a followed by b.
func (c *mcomposer) then(a, b mphase) mphase { return a.then(b) }

// superblock returns the superblock that leads from position b to b + 1
// (b = V₂: to the end of the period).
func (u *upParts) superblock(b, v2 int) mphase {
	switch {
	case b == 0:
		return u.first
	case b < v2:
		return u.mid
	}
	return u.last
}

// rowTimes returns the row vector x·d (nil d: zero, of len(x)).
func rowTimes(x []float64, d *mat.Dense) []float64 {
	if d == nil {
		return make([]float64, len(x))
	}
	r, c := d.Dims()
	out := make([]float64, c)
	for i := 0; i < r; i++ {
		if x[i] == 0 {
			continue
		}
		row := d.RawRowView(i)
		for j := 0; j < c; j++ {
			out[j] += x[i] * row[j]
		}
	}
	return out
}

// killLaw returns x·d for an exit to the kill laws' columns (nil d: zero,
// of u.kw).
func (u *upParts) killLaw(x []float64, d *mat.Dense) []float64 {
	if d == nil {
		return make([]float64, u.kw)
	}
	return rowTimes(x, d)
}

func sum(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += v
	}
	return s
}

// upLaw is what a stretch of an up phase yields, from a point mass of
// spares: kill[b] (b = 1..V₂; nil where the stretch does not run
// superblock b) the spare law at a processor failure in a segment or a
// level-1 recovery of superblock b, zero the spare law at the failures
// that restore the level-3 checkpoint whatever their severity (during a
// recovery from level 2 or 3, or in the first superblock), end the
// spare law at the end of the stretch (nil for the later periods, which
// never end), periods the expected number of periods it completes.
type upLaw struct {
	kill    [][]float64
	zero    []float64
	end     []float64
	periods float64
}

// run sequences the superblocks from..V₂ from the spare law x into out
// and returns the spare law at their end.
func (u *upParts) run(x []float64, from, v2 int, out *upLaw) []float64 {
	for b := from; b <= v2; b++ {
		sb := u.superblock(b, v2)
		kn := u.killLaw(x, sb.exit[clKill])
		kr := u.killLaw(x, sb.exit[clKillRec])
		if b == 0 {
			for j := range kn {
				out.zero[j] += kn[j] + kr[j]
			}
		} else {
			out.kill[b] = kn
			for j := range kr {
				out.zero[j] += kr[j]
			}
		}
		x = rowTimes(x, sb.done)
	}
	return x
}

// begin returns the law of an up phase from s spares up at position k
// until the end of the period it starts in: the recovery from the level
// of position k's checkpoint, then the superblocks k..V₂.
func (u *upParts) begin(s, k, v2, size int) upLaw {
	x := make([]float64, size)
	x[s] = 1
	out := upLaw{kill: make([][]float64, v2+1)}
	if k == 0 {
		out.zero = rowTimes(x, u.kill3)
		x = rowTimes(x, u.rec3)
	} else {
		out.zero = rowTimes(x, u.kill2)
		x = rowTimes(x, u.rec2)
	}
	out.end = u.run(x, k, v2, &out)
	out.periods = sum(out.end)
	return out
}

// beginAll returns begin(s, k, v2, size) for k = 0..V₂ in O(V₂m²)
// rather than O(V₂²m²): from a level-2 checkpoint the superblocks before
// the last are alike, so the spare law x_i = e_s·rec₂·mid^i after i of
// them serves every start k, superblock b being offset b − k. The laws
// share their rows (read only).
func (u *upParts) beginAll(s, v2, size int) []upLaw {
	out := make([]upLaw, v2+1)
	out[0] = u.begin(s, 0, v2, size)
	if v2 == 0 {
		return out
	}
	x := make([]float64, size)
	x[s] = 1
	zero0 := rowTimes(x, u.kill2)
	x = rowTimes(x, u.rec2)
	yN := make([][]float64, v2)
	cumR := make([][]float64, v2+1) // Σ_{i'<i} x_{i'}·mid's clKillRec
	cumR[0] = make([]float64, u.kw)
	lN, lR, lD := make([][]float64, v2), make([][]float64, v2), make([][]float64, v2)
	for i := 0; i < v2; i++ {
		lN[i] = u.killLaw(x, u.last.exit[clKill])
		lR[i] = u.killLaw(x, u.last.exit[clKillRec])
		lD[i] = rowTimes(x, u.last.done)
		if i == v2-1 {
			break
		}
		yN[i] = u.killLaw(x, u.mid.exit[clKill])
		r := u.killLaw(x, u.mid.exit[clKillRec])
		cumR[i+1] = make([]float64, u.kw)
		for j := range r {
			cumR[i+1][j] = cumR[i][j] + r[j]
		}
		x = rowTimes(x, u.mid.done)
	}
	for k := 1; k <= v2; k++ {
		i := v2 - k
		law := upLaw{kill: make([][]float64, v2+1), zero: make([]float64, u.kw), end: lD[i]}
		for b := k; b < v2; b++ {
			law.kill[b] = yN[b-k]
		}
		law.kill[v2] = lN[i]
		for j := range law.zero {
			law.zero[j] = zero0[j] + cumR[i][j] + lR[i][j]
		}
		law.periods = sum(law.end)
		out[k] = law
	}
	return out
}

// later returns the law of the periods that follow the completion of a
// period with j spares up, until the up phase ends: Σ_{r≥0} e_j·D_P^r
// (the geometric tail, (I − D_P)⁻¹) run through the superblocks.
func (u *upParts) later(j, v2, size int) upLaw {
	x := make([]float64, size)
	x[j] = 1
	w := rowTimes(x, u.periodInv)
	out := upLaw{kill: make([][]float64, v2+1), zero: make([]float64, u.kw)}
	out.periods = sum(w) - 1
	u.run(w, 0, v2, &out)
	return out
}

// positional is the chain of decision and down states with the position
// in the period (docs/model.md section 12, "Processor failures inside the
// period"): three levels on a malleable policy with processor failures
// of severity 2.
type positional struct {
	n         int // processors
	lo, hi    int // the window of functional counts
	act       []int
	work      []float64 // ω(a) by a−1
	procs     map[int]*Process
	recs      map[int]*recParts // by a: the parts independent of V and I
	mu, theta float64
	phi       float64 // share of severity 2 among processor failures
	chains    map[int]*birthdeath.Chain
	levelsOf  func(a int) []Level
	// evOf is nil with single failures; with failure events it builds
	// each used count's spare chain, kept in ev (posevents.go).
	evOf *posEventsOf
	ev   map[int]*posEvents
}

// posEventsOf holds what the positional chain needs of failure events:
// the normalised size law, the rate of processor-down events per
// functional processor (μ/E[K]) for the down states, and the spare
// chain of an up phase on a.
type posEventsOf struct {
	sizes []float64
	rate  float64
	build func(a int) (*posEvents, error)
}

// newPositional returns the positional chain of the window [lo, hi] of
// functional counts, r the policy.
//
// With failure events (evOf not nil) the up phases' parts are built on
// batchchain's spare chain (posevents.go) and a processor failure lands
// on the functional count the event leaves.
func newPositional(n, lo, hi int, r func(int) int, lambda, mu, theta float64, sev []float64, work []float64, levelsOf func(a int) []Level, evOf *posEventsOf) (*positional, error) {
	p := &positional{n: n, lo: lo, hi: hi, work: work, mu: mu, theta: theta, levelsOf: levelsOf, evOf: evOf, ev: map[int]*posEvents{},
		procs: map[int]*Process{}, chains: map[int]*birthdeath.Chain{}, recs: map[int]*recParts{}}
	p.phi = sev[1] / (sev[1] + sev[2])
	// Every used count's spares are bounded before anything is built.
	for k := max(lo, 1); k <= hi; k++ {
		if a := r(k); a > 0 && n-a > MaxPositionSpares {
			return nil, &scenario.Error{Field: "system.failure_severity", Problem: fmt.Sprintf(
				"processor failures of severity 2 with three levels under a policy that runs on %d of %d processors: the positional chain's spare matrices are (N − a + 1)² with N − a = %d, more than %d (docs/model.md section 12); use f₂ = 0 or policy moldable:a", a, n, n-a, MaxPositionSpares)}
		}
	}
	for k := lo; k <= hi; k++ {
		a := 0
		if k > 0 {
			a = r(k)
		}
		p.act = append(p.act, a)
		if a == 0 {
			continue
		}
		if _, ok := p.procs[a]; ok {
			continue
		}
		p.procs[a] = &Process{Rate: float64(a) * lambda, Severity: sev, CheckpointAfterRecovery: true, Levels: levelsOf(a)}
		ch, err := birthdeath.New(n-a, mu, theta)
		if err != nil {
			return nil, err
		}
		p.chains[a] = ch
		if evOf != nil {
			if p.ev[a], err = evOf.build(a); err != nil {
				return nil, err
			}
		}
		p.recs[a] = (&mcomposer{pr: p.procs[a], chain: ch, size: n - a + 1, ev: p.ev[a]}).recoveries()
	}
	return p, nil
}

// spread hands the spare laws of law (an up phase on a) to the next
// states: jump(n, b, x) for a jump to count index n at position b with
// probability x, and sev2(n, b, x) for the severity-2 failures at
// superblocks b ≥ 1 (their work is at risk).
func (p *positional) spread(law upLaw, a int, jump, sev2 func(n, b int, x float64)) {
	off := a - 1 // a used processor down, j spares up
	if p.evOf != nil {
		off = p.lo // the functional counts of the window
	}
	to := func(j int) (int, bool) {
		nn := off + j
		return nn - p.lo, nn >= p.lo && nn <= p.hi
	}
	for j, x := range law.zero {
		if nn, ok := to(j); ok && x != 0 {
			jump(nn, 0, x)
		}
	}
	for b, row := range law.kill {
		for j, x := range row {
			nn, ok := to(j)
			if !ok || x == 0 {
				continue
			}
			jump(nn, b, p.phi*x)
			jump(nn, 0, (1-p.phi)*x)
			sev2(nn, b, p.phi*x)
		}
	}
}

func mulVec(m *mat.Dense, v *mat.VecDense) *mat.VecDense {
	var out mat.VecDense
	out.MulVec(m, v)
	return &out
}

func eye(n int) *mat.Dense {
	d := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		d.Set(i, i, 1)
	}
	return d
}
