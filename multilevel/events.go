package multilevel

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/ckpt-markov/markov/batchchain"
	"github.com/ckpt-markov/markov/expm"
	"github.com/ckpt-markov/markov/scenario"
)

// MaxEventProcessors bounds N for the multi-level model with failure
// events (docs/model.md section 12, "Failure events"): its matrices are
// dense over the N − a + 1 spare counts, each stretch of the period a
// dense exponential and integral of that order, and the down chain a dense
// system of order a.
const MaxEventProcessors = 1024

// eventChain is the multi-level model of a fixed processor count a with
// failure events (docs/model.md section 12, "Failure events"): the spare
// count j ∈ 0..m (m = N − a) modulates the interruption rate, so every
// part of the period is summarised by matrices over j instead of scalars.
// It is immutable once built.
type eventChain struct {
	m1    int        // m + 1 spare counts
	gen   *mat.Dense // Ã: the spare count while the application runs, uninterrupted
	rhs   *mat.Dense // [diag(b) | land | down | 1], integrated against e^{Ãu}
	crash float64    // share of severity-1 events (in place), 0 with one level
	sev   []float64  // severity shares f₁ … f_L (and the down share of an up phase)
	kill  []float64  // an up phase's expected time to its end, by spare count
	// dead is the first severity class whose exits nothing reads (an up
	// phase's processor-down class, which the decision chain handles):
	// their matrices are left nil (zero), as are the classes a block
	// handles.
	dead int
	// rec holds the recoveries' stretches and their retry loops, which
	// do not depend on the pattern or the interval, by level and length;
	// lat the latencies' stretches, by length (filled by recoveries,
	// then only read).
	rec map[recKey]recPart
	lat map[float64]stretch
	// starts holds, by length, the top-level recoveries' spare laws at
	// their end (upStart; filled while the model is built).
	starts map[float64]*mat.Dense
}

// recKey names the level-l recovery of t seconds of an L-level period.
type recKey struct {
	l, L int
	t    float64
}

// recPart is a level-l recovery as a level-l block uses it: its stretch,
// G = (I − R_retry)⁻¹ (the retries of severities below l, any at the top
// level) and the exits it hands over (nil: none).
type recPart struct {
	r     ephase
	g     *mat.Dense
	rexit []*mat.Dense
}

// recoveries computes, once for every evaluation, the stretches of pr's
// recoveries with their retry loops and those of its latencies (an
// attempt of I + L_ℓ seconds is the stretch of I followed by that of
// L_ℓ: stretch.then).
func (ec *eventChain) recoveries(pr *Process) error {
	ec.rec, ec.lat = map[recKey]recPart{}, map[float64]stretch{}
	for l, lv := range pr.Levels {
		t := lv.Recovery
		if pr.CheckpointAfterRecovery {
			t += lv.Latency
		}
		rp, err := ec.recovery(l+1, len(pr.Levels), t)
		if err != nil {
			return err
		}
		ec.rec[recKey{l + 1, len(pr.Levels), t}] = rp
		if _, ok := ec.lat[lv.Latency]; !ok {
			if ec.lat[lv.Latency], err = ec.stretch(lv.Latency); err != nil {
				return err
			}
		}
	}
	return nil
}

// recovery returns the level-l recovery of t seconds of an L-level
// period: one attempt; severities below l (any at l = L) retry, l < L
// escalates to l + 1, higher ones (and an up phase's last class, a
// processor going down) are handed over.
func (ec *eventChain) recovery(l, L int, t float64) (recPart, error) {
	r, err := ec.attempt(t)
	if err != nil {
		return recPart{}, err
	}
	classes := len(ec.sev)
	var retry *mat.Dense
	rexit := make([]*mat.Dense, classes)
	for s := range classes {
		switch {
		case s < l-1 || l == L && s < L:
			retry = add(retry, r.exit[s])
		case s == l-1:
			rexit[l] = r.exit[s]
		default:
			rexit[s] = add(rexit[s], r.exit[s])
		}
	}
	if retry == nil {
		retry = mat.NewDense(ec.m1, ec.m1, nil)
	}
	g, err := loop(retry)
	if err != nil {
		return recPart{}, err
	}
	return recPart{r: r, g: g, rexit: rexit}, nil
}

// newEventChain returns the chain of sc on a fixed count a, or an error
// naming system.processors if N exceeds MaxEventProcessors. With up set
// it is the chain of an up phase of a malleable policy (malleable.go):
// L + 1 severity classes, crashes (f₁) and processors going down
// (1 − f₁), the last, which no block handles.
func newEventChain(sc *scenario.Scenario, a int, up bool) (*eventChain, error) {
	ec, _, err := newEventChainHits(sc, a, up)
	return ec, err
}

// newEventChainHits is newEventChain that also returns batchchain's
// rates of the events that strike the application, by spare count and
// functional count after them (the positional chain's landing:
// posevents.go).
func newEventChainHits(sc *scenario.Scenario, a int, up bool) (*eventChain, *mat.Dense, error) {
	n := sc.N()
	if n > MaxEventProcessors {
		return nil, nil, &scenario.Error{Field: "system.processors", Problem: fmt.Sprintf(
			"%d processors with system.failure_events and application.checkpoint_levels: the model is dense over the spare counts, at most %d processors", n, MaxEventProcessors)}
	}
	sev := sc.Severity()
	crash := 0.0
	if len(sev) > 1 {
		crash = sev[0]
	}
	if up {
		sev = make([]float64, len(sev)+1)
		sev[0], sev[len(sev)-1] = crash, 1-crash
	}
	dead := len(sev)
	if up {
		dead-- // the decision chain's
	}
	law := sc.System.FailureEvents.Law()
	c, err := batchchain.New(n, a, sc.System.Lambda(), sc.System.Theta(), law)
	if err != nil {
		return nil, nil, err
	}
	full, hits := c.Generator()
	m1 := n - a + 1
	ec := &eventChain{m1: m1, crash: crash, sev: sev, dead: dead, gen: mat.NewDense(m1, m1, nil), rhs: mat.NewDense(m1, 2*m1+2, nil)}
	// An up phase ends at a processor-down event: where it lands and the
	// down period after it are the decision chain's (malleable.go).
	down := make([]float64, a)
	if !up {
		if down, err = downTimes(n, a, (1-crash)*c.EventRate(), sc.System.Theta(), law); err != nil {
			return nil, nil, err
		}
	}
	for j := range m1 {
		// Crashes that miss every used processor change nothing: drop
		// them from Ã (the rest of the chain is batchchain's).
		miss := 0.0
		for k := range j {
			v := full.At(j, k)
			miss += v
			ec.gen.Set(j, k, (1-crash)*v)
		}
		ec.gen.Set(j, j, full.At(j, j)+crash*miss)
		if j+1 < m1 {
			ec.gen.Set(j, j+1, full.At(j, j+1))
		}
		b, dt := 0.0, 0.0
		for np := range n {
			v := hits.At(j, np)
			b += v
			// Landing with np − a spares, or after a down period with none.
			col := m1 + max(np-a, 0)
			ec.rhs.Set(j, col, ec.rhs.At(j, col)+v)
			if np < a {
				dt += v * down[np]
			}
		}
		ec.rhs.Set(j, j, b)
		ec.rhs.Set(j, 2*m1, (1-crash)*dt)
		ec.rhs.Set(j, 2*m1+1, 1)
	}
	return ec, hits, nil
}

// downTimes returns, for each functional count n' < a, the expected time
// until a are functional again: processors go down in events at
// rate·n per functional processor count n (min(K, n) of them, K from
// law) and each failed one is repaired at θ; the count reaches a from
// below by a repair, so exactly a (no spare) at the end. It solves the
// a×a system of the mean first passage times.
func downTimes(n, a int, rate, theta float64, law []float64) ([]float64, error) {
	g := mat.NewDense(a, a, nil)
	one := mat.NewVecDense(a, nil)
	for c := range a {
		one.SetVec(c, 1)
		up := float64(n-c) * theta
		ev := float64(c) * rate
		g.Set(c, c, up+ev)
		if c+1 < a {
			g.Set(c, c+1, -up)
		}
		for k := 1; k <= c && ev > 0; k++ {
			p := 0.0
			if k <= len(law) {
				p = law[k-1]
			}
			if k == c {
				for _, q := range law[min(c, len(law)):] {
					p += q
				}
			}
			g.Set(c, c-k, g.At(c, c-k)-ev*p)
		}
	}
	var t mat.VecDense
	if err := t.SolveVec(g, one); err != nil {
		// The repairs make g a non-singular M-matrix (θ > 0).
		return nil, fmt.Errorf("multilevel: the down period's passage times to %d functional processors: %w", a, err)
	}
	return t.RawVector().Data, nil
}

// ephase is phase with matrices (position.go's mphase has no times and
// commuting matrices; these do not commute) over the spare count: done[j][j'] the
// probability of completing with j' spares from j, exit[s-1][j][j'] that
// of handing over a failure of severity s with j' spares at the restart
// (after any down period), time[j] the expected wall time until either
// (down periods included), run[j] its running part.
type ephase struct {
	done      *mat.Dense
	exit      []*mat.Dense
	time, run *mat.VecDense
}

// then returns a followed by b: done = D_A D_B, exit = E_A + D_A E_B,
// time = τ_A + D_A τ_B (ordered products: the matrices do not commute;
// a nil exit is zero).
func (a ephase) then(b ephase) ephase {
	out := ephase{done: &mat.Dense{}, exit: make([]*mat.Dense, len(a.exit)), time: &mat.VecDense{}, run: &mat.VecDense{}}
	out.done.Mul(a.done, b.done)
	for s := range a.exit {
		if b.exit[s] == nil {
			out.exit[s] = a.exit[s]
			continue
		}
		out.exit[s] = add(a.exit[s], mul(a.done, b.exit[s]))
	}
	out.time.MulVec(a.done, b.time)
	out.time.AddVec(out.time, a.time)
	out.run.MulVec(a.done, b.run)
	out.run.AddVec(out.run, a.run)
	return out
}

// identity returns the part that completes at once.
func (ec *eventChain) identity() ephase {
	return ephase{done: eye(ec.m1), exit: make([]*mat.Dense, len(ec.sev)), time: mat.NewVecDense(ec.m1, nil), run: mat.NewVecDense(ec.m1, nil)}
}

// stretch is t seconds of the spare count while the application runs,
// uninterrupted: e = e^{Ãt} and phi = Φ(t) = ∫₀ᵗ e^{Ãu}du.
type stretch struct {
	e, phi *mat.Dense
}

// stretch returns the stretch of t seconds: e^{Ãt} and Φ(t), what the
// Van Loan (1978) block [[Ã, I], [0, 0]]·t = [[e^{Ãt}, Φ(t)], [0, I]]
// holds, by expm.ExpIntegral (Ã is a sub-generator: a Metzler matrix).
func (ec *eventChain) stretch(t float64) (stretch, error) {
	var st stretch
	st.e, st.phi = &mat.Dense{}, &mat.Dense{}
	if err := expm.ExpIntegral(st.e, st.phi, ec.gen, t); err != nil {
		return stretch{}, err
	}
	return st, nil
}

// then returns the stretch of a's length followed by b's, by the
// semigroup property: e^{Ã(s+t)} = e^{Ãs}e^{Ãt} and Φ(s + t) = Φ(s) +
// e^{Ãs}Φ(t) (sums and products of nonnegative matrices: no
// cancellation).
func (a stretch) then(b stretch) stretch {
	out := stretch{e: mul(a.e, b.e), phi: mul(a.e, b.phi)}
	out.phi.Add(out.phi, a.phi)
	return out
}

// attempt returns a stretch of t seconds that any interruption ends.
func (ec *eventChain) attempt(t float64) (ephase, error) {
	st, err := ec.stretch(t)
	if err != nil {
		return ephase{}, err
	}
	return ec.phase(st), nil
}

// phase returns the part of a stretch that any interruption ends:
// done = e^{Ãt} and, with C = [diag(b) | land | down | 1], Φ(t)·C. A
// crash (severity 1 with several levels) restarts in place with the same
// spares, f₁Φ·diag(b); any other severity s lands where the event left
// the spares (land), after the down period it may start (down),
// f_sΦ·land; the expected wall time Φ·(down + 1) and running time Φ·1.
// Classes from ec.dead on and those of zero share are left nil.
func (ec *eventChain) phase(st stretch) ephase {
	m1 := ec.m1
	out := ephase{done: st.e, exit: make([]*mat.Dense, len(ec.sev)), time: mat.NewVecDense(m1, nil), run: mat.NewVecDense(m1, nil)}
	var land *mat.Dense
	for s, f := range ec.sev {
		if f == 0 || s >= ec.dead {
			continue
		}
		x := mat.NewDense(m1, m1, nil)
		if s == 0 && len(ec.sev) > 1 {
			for j := range m1 {
				b := f * ec.rhs.At(j, j)
				for i := range m1 {
					x.Set(i, j, st.phi.At(i, j)*b)
				}
			}
		} else {
			if land == nil {
				land = mul(st.phi, ec.rhs.Slice(0, m1, m1, 2*m1).(*mat.Dense))
			}
			x.Scale(f, land)
		}
		out.exit[s] = x
	}
	out.run.MulVec(st.phi, ec.rhs.ColView(2*m1+1))
	out.time.MulVec(st.phi, ec.rhs.ColView(2*m1))
	out.time.AddVec(out.time, out.run)
	return out
}

// ecomposer is composer with matrices (docs/model.md section 12,
// "Failure events"): the parts of the same nesting (nest.go), ordered
// products for sequences and linear solves for the loops.
type ecomposer struct {
	ec       *eventChain
	pr       *Process
	interval float64
	base     *stretch // the interval's stretch, computed on first use
}

// segment returns the attempt of a segment ending with a level-k
// checkpoint, I + L_k seconds: the interval's stretch followed by the
// latency's (eventChain.recoveries), one exponential for every k.
func (c *ecomposer) segment(k int) (ephase, error) {
	lat := c.pr.Levels[k-1].Latency
	l, ok := c.ec.lat[lat]
	if !ok {
		return c.ec.attempt(c.interval + lat)
	}
	if c.base == nil {
		st, err := c.ec.stretch(c.interval)
		if err != nil {
			return ephase{}, err
		}
		c.base = &st
	}
	return c.ec.phase(c.base.then(l)), nil
}

// recovery returns the level-l recovery, from the chain's cache when it
// holds it.
func (c *ecomposer) recovery(l int) (recPart, error) {
	lv, L := c.pr.Levels[l-1], len(c.pr.Levels)
	t := lv.Recovery
	if c.pr.CheckpointAfterRecovery {
		t += lv.Latency
	}
	if rp, ok := c.ec.rec[recKey{l, L, t}]; ok {
		return rp, nil
	}
	return c.ec.recovery(l, L, t)
}

// then returns a followed by b.
func (c *ecomposer) then(a, b ephase) ephase { return a.then(b) }

// identity returns the part that completes at once.
func (c *ecomposer) identity() ephase { return c.ec.identity() }

// wrap is composer.wrap with matrices: with H the handled exits of the
// body (severities ≤ l), G = (I − R_retry)⁻¹ the recovery's retries,
// K = H·G·R_done the return to the body's start and M = (I − K)⁻¹,
//
//	done = M·D,   exit_s = M·(E_s + H·G·R_s),   time = M·(τ + H·G·τ_R).
func (c *ecomposer) wrap(l int, body ephase) (ephase, error) {
	rp, err := c.recovery(l)
	if err != nil {
		return ephase{}, err
	}
	r, m1, classes := rp.r, c.ec.m1, len(c.ec.sev)
	var handled *mat.Dense
	for s := range l {
		handled = add(handled, body.exit[s])
	}
	if handled == nil {
		handled = mat.NewDense(m1, m1, nil)
	}
	hg := mul(handled, rp.g)
	// M·X by solves with the LU factors of I − K.
	mm := loopLU(mul(hg, r.done))
	out := ephase{done: &mat.Dense{}, exit: make([]*mat.Dense, classes), time: &mat.VecDense{}, run: &mat.VecDense{}}
	if err := mm.SolveTo(out.done, false, body.done); err != nil {
		return ephase{}, loopErr(err)
	}
	for s := l; s < classes; s++ {
		var x *mat.Dense
		if rp.rexit[s] != nil {
			x = mul(hg, rp.rexit[s])
		}
		if x = add(x, body.exit[s]); x != nil {
			out.exit[s] = &mat.Dense{}
			if err := mm.SolveTo(out.exit[s], false, x); err != nil {
				return ephase{}, loopErr(err)
			}
		}
	}
	for _, v := range [][3]*mat.VecDense{{out.time, body.time, r.time}, {out.run, body.run, r.run}} {
		var x mat.VecDense
		x.MulVec(hg, v[2])
		x.AddVec(&x, v[1])
		if err := mm.SolveVecTo(v[0], false, &x); err != nil {
			return ephase{}, loopErr(err)
		}
	}
	return out, nil
}

// loopLU returns the LU factors of I − k, the loop of loop.
func loopLU(k *mat.Dense) *mat.LU {
	var lu mat.LU
	lu.Factorize(iMinus(k))
	return &lu
}

// iMinus returns I − k.
func iMinus(k *mat.Dense) *mat.Dense {
	n, _ := k.Dims()
	var a mat.Dense
	a.Scale(-1, k)
	for i := range n {
		a.Set(i, i, 1+a.At(i, i))
	}
	return &a
}

// loopErr is loop's error for a solve with loopLU's factors.
func loopErr(err error) error {
	return fmt.Errorf("multilevel: a loop of the period with failure events is not left: %w", err)
}

// loop returns (I − k)⁻¹, the expected visits of a loop that returns with
// the sub-stochastic k.
func loop(k *mat.Dense) (*mat.Dense, error) {
	var inv mat.Dense
	if err := inv.Inverse(iMinus(k)); err != nil {
		return nil, loopErr(err)
	}
	return &inv, nil
}

// evaluate returns the UWT of pattern and interval on the fixed count:
// the period is the level-L block, whose done matrix D is stochastic (it
// handles every severity); π, the stationary law of the spare count at
// the start of a period (πD = π), weighs its expected wall and running
// times. It returns the availability U/(π·τ), the efficiency U/(π·run),
// the down time per running second and π·run, U a period's useful
// computation.
func (ec *eventChain) evaluate(pr *Process, pattern []int, interval float64, useful float64) (avail, eff, down, run float64, err error) {
	top, err := ec.period(pr, pattern, interval)
	if err != nil {
		return 0, 0, 0, 0, err
	}
	pi, err := periodStart(top.done)
	if err != nil {
		return 0, 0, 0, 0, err
	}
	wall := mat.Dot(pi, top.time)
	run = mat.Dot(pi, top.run)
	if !(run > 0) || math.IsInf(wall, 0) {
		return 0, 0, 0, run, nil
	}
	return useful / wall, useful / run, (wall - run) / run, run, nil
}

// period returns the level-L block of pattern and interval on pr.
func (ec *eventChain) period(pr *Process, pattern []int, interval float64) (ephase, error) {
	c := &ecomposer{ec: ec, pr: pr, interval: interval}
	L := len(pr.Levels)
	return newNest[ephase](c, pattern).block(L, L)
}

// periodStart returns π with πD = π, Σπ = 1, for a stochastic D with one
// recurrent class: it solves (D − I)ᵀπ = 0 with the last equation
// replaced by the normalisation.
func periodStart(d *mat.Dense) (*mat.VecDense, error) {
	n, _ := d.Dims()
	a := mat.DenseCopyOf(d.T())
	rhs := mat.NewVecDense(n, nil)
	for i := range n {
		a.Set(i, i, a.At(i, i)-1)
		a.Set(n-1, i, 1)
	}
	rhs.SetVec(n-1, 1)
	var pi mat.VecDense
	if err := pi.SolveVec(a, rhs); err != nil {
		return nil, fmt.Errorf("multilevel: the spare count at the start of a period has no stationary law: %w", err)
	}
	return &pi, nil
}

// upStart returns the spare law at the end of the recovery from the top
// level, t seconds on the up phase's chain, started with s spares: the
// row s of (I − R_crash)⁻¹·R_done, crashes restarting the recovery (the
// SCR model's choice at the top level); its sum is the probability that
// the recovery completes before a processor goes down. The matrix is
// computed once per length (kept in ec.starts while the model is built).
func (ec *eventChain) upStart(s int, t float64) ([]float64, error) {
	w, ok := ec.starts[t]
	if !ok {
		r, err := ec.attempt(t)
		if err != nil {
			return nil, err
		}
		var retry *mat.Dense
		for c := range len(ec.sev) - 1 {
			retry = add(retry, r.exit[c])
		}
		if retry == nil {
			retry = mat.NewDense(ec.m1, ec.m1, nil)
		}
		g, err := loop(retry)
		if err != nil {
			return nil, err
		}
		w = mul(g, r.done)
		if ec.starts == nil {
			ec.starts = map[float64]*mat.Dense{}
		}
		ec.starts[t] = w
	}
	return mat.Row(nil, s, w), nil
}

// upPeriods returns, by spare count at the start of an up phase's first
// period, the expected number of periods it commits before a processor
// goes down: (I − D)⁻¹D·1, D the period's done matrix (every class but
// the last handled inside it).
func (ec *eventChain) upPeriods(pr *Process, pattern []int, interval float64) (*mat.VecDense, error) {
	top, err := ec.period(pr, pattern, interval)
	if err != nil {
		return nil, err
	}
	ones := make([]float64, ec.m1)
	for i := range ones {
		ones[i] = 1
	}
	var d, out mat.VecDense
	d.MulVec(top.done, mat.NewVecDense(ec.m1, ones))
	if err := loopLU(top.done).SolveVecTo(&out, false, &d); err != nil {
		return nil, loopErr(err)
	}
	return &out, nil
}

// killSojourn returns, by spare count, the expected time until a
// processor-down event strikes one of a used processors: (−A)⁻¹·1, A the
// spare chain of events that take processors down (batchchain's, at the
// rate (1 − f₁)λ), with whatever the application does (crashes,
// recoveries) not changing it.
func killSojourn(sc *scenario.Scenario, a int, lambda float64) ([]float64, error) {
	c, err := batchchain.New(sc.N(), a, lambda, sc.System.Theta(), sc.System.FailureEvents.Law())
	if err != nil {
		return nil, err
	}
	gen, _ := c.Generator()
	gen.Scale(-1, gen)
	n, _ := gen.Dims()
	ones := make([]float64, n)
	for i := range ones {
		ones[i] = 1
	}
	var x mat.VecDense
	if err := x.SolveVec(gen, mat.NewVecDense(n, ones)); err != nil {
		return nil, fmt.Errorf("multilevel: the up phase on %d processors never ends: %w", a, err)
	}
	return x.RawVector().Data, nil
}
