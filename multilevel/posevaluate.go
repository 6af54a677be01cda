package multilevel

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// evaluate returns UWT, availability, efficiency and down time per
// running second of pattern and interval (docs/model.md section 12),
// and the stationary probability that a jump leaves the window (the
// rows are renormalised).
//
// The chain is lifted with one instant state per used count a and
// spare count j, "a period has just completed on a with j spares up"
// (no sojourn), so that a decision state's row holds the current
// period only: its transitions go up in position (a severity-2 failure
// at a later superblock), to position 0, or to an instant state; the
// instant states' rows (the later periods) go anywhere. With z = (π on
// the instant states, π on position 0) the balance of positions
// b = 1..V₂ gives π_b = z·M_b by forward substitution, M_b = (Σ_{k<b}
// M_k P_kb + M_I Y_b)(I − P_bb)⁻¹, and the balance of z closes a system
// of its order (the instant states and one window). The survival h is
// block upper triangular in the position: back substitution.
//
// The stages: the instant states (instants), the blocks of the lifted
// chain and the work credited to each state (assemble), the rows'
// renormalisation (renormalise), h (survival), π (stationary) and the
// long-run sums (totals).
func (p *positional) evaluate(pattern []int, interval float64) (uwtv, avail, eff, down, lost float64, err error) {
	K := pattern[1] + 1
	w := p.hi - p.lo + 1
	if S := w * K; S > MaxPositionStates {
		return 0, 0, 0, 0, 0, fmt.Errorf("multilevel: pattern %v: the positional chain has %d functional counts × %d positions = %d states, more than %d", pattern, w, K, S, MaxPositionStates)
	}
	in := p.instants()
	if S := w * K; float64(S)*float64(max(in.n, 1)) > maxInstantEntries {
		return 0, 0, 0, 0, 0, fmt.Errorf("multilevel: pattern %v: the positional chain has %d states and %d instant states, more than %g entries between them", pattern, S, in.n, float64(maxInstantEntries))
	}
	ch, err := p.assemble(pattern, interval, in)
	if err != nil {
		return 0, 0, 0, 0, 0, err
	}
	leave, err := ch.renormalise(p.lo)
	if err != nil {
		return 0, 0, 0, 0, 0, err
	}
	h, err := ch.survival(p.act)
	if err != nil {
		return 0, 0, 0, 0, 0, err
	}
	st, err := ch.stationary()
	if err != nil {
		return 0, 0, 0, 0, 0, err
	}
	return p.totals(ch, st, h, leave)
}

// instantStates are the instant states of the lifted chain: for each
// used count a of the window, one per spare count j = 0..N − a.
type instantStates struct {
	at map[int]int // a → offset of (a, 0)
	a  []int       // the used count of each instant state
	n  int
}

func (p *positional) instants() instantStates {
	in := instantStates{at: map[int]int{}}
	for _, a := range p.act {
		if _, ok := in.at[a]; a == 0 || ok {
			continue
		}
		in.at[a] = in.n
		for j := 0; j <= p.n-a; j++ {
			in.a = append(in.a, a)
		}
		in.n += p.n - a + 1
	}
	return in
}

// risk is work at risk: credited with the probability gain·h(n, b) that
// the next state at count index n and position b completes its period.
type risk struct {
	n, b       int
	prob, gain float64
}

// credit is the expected work a state commits: safe for sure, risky
// with its survival.
type credit struct {
	safe  float64
	risky []risk
}

// posChain is the lifted positional chain of one pattern and interval:
// blk[k][b] the w×w block of jumps from position k to position b
// (b ≥ max(k, 1), or b = 0); toI[k] the w×ni jumps to instant states;
// fromI[b] the ni×w jumps from instant states to position b; g[k][b]
// the severity-2 jumps of the current period (b ≥ k ≥ 1), for h; tau
// the sojourns by count index; cred and icred the work credited to the
// decision states (by position, then count index) and to the instant
// states.
type posChain struct {
	K, w     int
	in       instantStates
	blk, g   [][]*mat.Dense
	toI      []*mat.Dense
	fromI    []*mat.Dense
	tau      []float64
	cred     [][]credit
	icred    []credit
	parts    map[int]*upParts
	works    map[int][2]float64 // a → (U, superblock work)
	pattern  []int
	interval float64
}

func (c *posChain) get(m [][]*mat.Dense, k, b int) *mat.Dense {
	if m[k][b] == nil {
		m[k][b] = mat.NewDense(c.w, c.w, nil)
	}
	return m[k][b]
}

func newPosChain(K, w int, in instantStates, pattern []int, interval float64) *posChain {
	c := &posChain{K: K, w: w, in: in, pattern: pattern, interval: interval,
		blk: make([][]*mat.Dense, K), g: make([][]*mat.Dense, K),
		toI: make([]*mat.Dense, K), fromI: make([]*mat.Dense, K),
		tau: make([]float64, w), cred: make([][]credit, K), icred: make([]credit, in.n),
		parts: map[int]*upParts{}, works: map[int][2]float64{}}
	for k := 0; k < K; k++ {
		c.blk[k] = make([]*mat.Dense, K)
		c.g[k] = make([]*mat.Dense, K)
		c.toI[k] = mat.NewDense(w, max(in.n, 1), nil)
		c.fromI[k] = mat.NewDense(max(in.n, 1), w, nil)
		c.cred[k] = make([]credit, w)
	}
	return c
}

// assemble builds the blocks and credits of pattern and interval.
func (p *positional) assemble(pattern []int, interval float64, in instantStates) (*posChain, error) {
	c := newPosChain(pattern[1]+1, p.hi-p.lo+1, in, pattern, interval)
	for idx, n := 0, p.lo; n <= p.hi; idx, n = idx+1, n+1 {
		if a := p.act[idx]; a == 0 {
			p.assembleDown(c, idx, n)
		} else if err := p.assembleUp(c, idx, n, a); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// assembleDown fills the rows of the down state of count n (index idx)
// at every position: a failure or a repair, the position kept.
func (p *positional) assembleDown(c *posChain, idx, n int) {
	if p.evOf != nil {
		p.assembleDownEvents(c, idx, n)
		return
	}
	rate := float64(n)*p.mu + float64(p.n-n)*p.theta
	c.tau[idx] = 1 / rate
	for k := 0; k < c.K; k++ {
		if n > 0 && idx > 0 {
			c.get(c.blk, k, k).Set(idx, idx-1, float64(n)*p.mu/rate)
			if k > 0 {
				c.get(c.g, k, k).Set(idx, idx-1, float64(n)*p.mu/rate)
			}
		}
		if n < p.hi {
			c.get(c.blk, k, k).Set(idx, idx+1, float64(p.n-n)*p.theta/rate)
			if k > 0 {
				c.get(c.g, k, k).Set(idx, idx+1, float64(p.n-n)*p.theta/rate)
			}
		}
	}
}

// upOf returns the up-phase parts of used count a, computing them and
// the rows of a's instant states the first time.
func (p *positional) upOf(c *posChain, a int) (*upParts, error) {
	if u, ok := c.parts[a]; ok {
		return u, nil
	}
	v1, v2 := c.pattern[0], c.pattern[1]
	mc := &mcomposer{pr: p.procs[a], chain: p.chains[a], size: p.n - a + 1, pattern: c.pattern, interval: c.interval, rec: p.recs[a], ev: p.ev[a]}
	u, err := mc.parts()
	if err != nil {
		return nil, err
	}
	c.parts[a] = u
	lv := p.procs[a].Levels
	u1 := c.interval + lv[0].Latency - lv[0].Overhead
	u2 := c.interval + lv[1].Latency - lv[1].Overhead
	u3 := c.interval + lv[2].Latency - lv[2].Overhead
	sbw := float64(v1)*u1 + u2
	c.works[a] = [2]float64{float64(v2)*sbw + float64(v1)*u1 + u3, sbw}
	// The instant states of a: the later periods.
	for j := 0; j <= p.n-a; j++ {
		i := c.in.at[a] + j
		law := u.later(j, v2, p.n-a+1)
		c.icred[i].safe = c.works[a][0] * law.periods
		p.spread(law, a, func(nn, b int, x float64) { c.fromI[b].Set(i, nn, c.fromI[b].At(i, nn)+x) },
			func(nn, b int, x float64) {
				c.icred[i].risky = append(c.icred[i].risky, risk{nn, b, x, float64(b) * c.works[a][1]})
			})
	}
	return u, nil
}

// assembleUp fills the rows of the decision state of count n (index idx)
// running on a, at every position k: the current period's laws.
func (p *positional) assembleUp(c *posChain, idx, n, a int) error {
	c.tau[idx] = 1 / (float64(a) * p.mu)
	if pe := p.ev[a]; pe != nil {
		c.tau[idx] = pe.kill[n-a]
	}
	u, err := p.upOf(c, a)
	if err != nil {
		return err
	}
	U, sbw := c.works[a][0], c.works[a][1]
	all := u.beginAll(n-a, c.pattern[1], p.n-a+1)
	for k := 0; k < c.K; k++ {
		law := all[k]
		cr := credit{safe: (U - float64(k)*sbw) * law.periods}
		p.spread(law, a, func(nn, b int, x float64) { c.get(c.blk, k, b).Set(idx, nn, c.get(c.blk, k, b).At(idx, nn)+x) },
			func(nn, b int, x float64) {
				if gain := float64(b-k) * sbw; gain != 0 {
					cr.risky = append(cr.risky, risk{nn, b, x, gain})
				}
				if k > 0 {
					c.get(c.g, k, b).Set(idx, nn, c.get(c.g, k, b).At(idx, nn)+x)
				}
			})
		for j, x := range law.end {
			c.toI[k].Set(idx, c.in.at[a]+j, x)
		}
		c.cred[k][idx] = cr
	}
	return nil
}

// renormalise scales every row that leaves the window to sum 1 and
// returns what each lost: leave[k][i] for the decision states, leave[K]
// for the instant states.
func (c *posChain) renormalise(lo int) ([][]float64, error) {
	leave := make([][]float64, c.K+1)
	norm := func(rows []*mat.Dense, i int) float64 {
		s := 0.0
		for _, m := range rows {
			if m != nil {
				s += sum(m.RawRowView(i))
			}
		}
		if s > 0 {
			for _, m := range rows {
				if m != nil {
					r := m.RawRowView(i)
					for j := range r {
						r[j] /= s
					}
				}
			}
		}
		return s
	}
	for k := 0; k < c.K; k++ {
		leave[k] = make([]float64, c.w)
		rows := append(append([]*mat.Dense(nil), c.blk[k]...), c.toI[k])
		for i := 0; i < c.w; i++ {
			s := norm(rows, i)
			if s <= 0 {
				return nil, fmt.Errorf("multilevel: positional chain: state (%d, %d) leaves the window", lo+i, k)
			}
			leave[k][i] = math.Max(1-s, 0)
		}
	}
	leave[c.K] = make([]float64, c.in.n)
	for i := 0; i < c.in.n; i++ {
		s := norm(c.fromI, i)
		if s <= 0 {
			return nil, fmt.Errorf("multilevel: positional chain: an instant state leaves the window")
		}
		leave[c.K][i] = math.Max(1-s, 0)
	}
	return leave, nil
}

// survival returns h[k] (k = 1..V₂), the probability that a state at
// position k completes its period before a failure restores the period's
// top-level checkpoint, by back substitution over the positions V₂ … 1.
func (c *posChain) survival(act []int) ([]*mat.VecDense, error) {
	h := make([]*mat.VecDense, c.K)
	for k := c.K - 1; k >= 1; k-- {
		rhs := mat.NewVecDense(c.w, nil)
		for idx := 0; idx < c.w; idx++ {
			if act[idx] != 0 {
				rhs.SetVec(idx, sum(c.toI[k].RawRowView(idx))) // the period completes
			}
		}
		for b := k + 1; b < c.K; b++ {
			if c.g[k][b] != nil {
				rhs.AddVec(rhs, mulVec(c.g[k][b], h[b]))
			}
		}
		a := eye(c.w)
		if c.g[k][k] != nil {
			a.Sub(a, c.g[k][k])
		}
		h[k] = mat.NewVecDense(c.w, nil)
		if err := h[k].SolveVec(a, rhs); err != nil {
			return nil, fmt.Errorf("multilevel: positional chain: %w", err)
		}
	}
	return h, nil
}

// posStationary is π of the lifted chain: z (the instant states, then
// position 0) and the M_b with π_b = z·M_b.
type posStationary struct {
	z []float64
	M []*mat.Dense
}

// pi returns π at position k, by count index.
func (st posStationary) pi(k int) []float64 {
	r, w := st.M[k].Dims()
	out := make([]float64, w)
	for c := 0; c < w; c++ {
		s := 0.0
		for i := 0; i < r; i++ {
			s += st.z[i] * st.M[k].At(i, c)
		}
		out[c] = math.Max(s, 0)
	}
	return out
}

// stationary computes π by forward substitution over the positions and
// the closing system for z.
func (c *posChain) stationary() (posStationary, error) {
	ni, w, K := c.in.n, c.w, c.K
	r := ni + w
	M := make([]*mat.Dense, K)
	M[0] = mat.NewDense(r, w, nil)
	for i := 0; i < w; i++ {
		M[0].Set(ni+i, i, 1)
	}
	MI := mat.NewDense(r, max(ni, 1), nil)
	for i := 0; i < ni; i++ {
		MI.Set(i, i, 1)
	}
	for b := 1; b < K; b++ {
		var acc mat.Dense
		acc.Mul(MI, c.fromI[b])
		for k := 0; k < b; k++ {
			if c.blk[k][b] != nil {
				var t mat.Dense
				t.Mul(M[k], c.blk[k][b])
				acc.Add(&acc, &t)
			}
		}
		a := eye(w)
		if c.blk[b][b] != nil {
			a.Sub(a, c.blk[b][b])
		}
		// M_b = acc·a⁻¹: solve aᵀ·M_bᵀ = accᵀ.
		var mt mat.Dense
		if err := mt.Solve(a.T(), acc.T()); err != nil {
			return posStationary{}, fmt.Errorf("multilevel: positional chain: %w", err)
		}
		M[b] = mat.DenseCopyOf(mt.T())
	}
	z, err := c.closing(M, MI)
	return posStationary{z: z, M: M}, err
}

// closing solves z = z·A, A = [Σ_k M_k·toI_k | Σ_k M_k·P_k0 +
// M_I·fromI_0], with Σπ = 1 in place of the last equation.
func (c *posChain) closing(M []*mat.Dense, MI *mat.Dense) ([]float64, error) {
	ni, w, K := c.in.n, c.w, c.K
	r := ni + w
	A := mat.NewDense(r, r, nil)
	var left, right mat.Dense
	right.Mul(MI, c.fromI[0])
	for k := 0; k < K; k++ {
		var t mat.Dense
		t.Mul(M[k], c.toI[k])
		if k == 0 {
			left.CloneFrom(&t)
		} else {
			left.Add(&left, &t)
		}
		if c.blk[k][0] != nil {
			t.Reset()
			t.Mul(M[k], c.blk[k][0])
			right.Add(&right, &t)
		}
	}
	if ni > 0 {
		A.Slice(0, r, 0, ni).(*mat.Dense).Copy(&left)
	}
	A.Slice(0, r, ni, r).(*mat.Dense).Copy(&right)
	sys := eye(r)
	sys.Sub(sys, A)
	var st mat.Dense
	st.CloneFrom(sys.T())
	for col := 0; col < r; col++ {
		t := 0.0
		for k := 0; k < K; k++ {
			t += sum(M[k].RawRowView(col))
		}
		if col < ni {
			t++
		}
		st.Set(r-1, col, t)
	}
	rhs := mat.NewVecDense(r, nil)
	rhs.SetVec(r-1, 1)
	var z mat.VecDense
	if err := z.SolveVec(&st, rhs); err != nil {
		return nil, fmt.Errorf("multilevel: positional chain: %w", err)
	}
	return z.RawVector().Data, nil
}

// totals sums the long-run rates over π: work, useful time, running and
// idle time, and the mass that leaves the window.
func (p *positional) totals(c *posChain, st posStationary, h []*mat.VecDense, leave [][]float64) (uwtv, avail, eff, down, lost float64, err error) {
	value := func(cr credit) float64 {
		v := cr.safe
		for _, x := range cr.risky {
			v += x.prob * x.gain * h[x.b].AtVec(x.n)
		}
		return v
	}
	var wk, use, run, idle float64
	for k := 0; k < c.K; k++ {
		pk := st.pi(k)
		for idx := 0; idx < c.w; idx++ {
			lost += pk[idx] * leave[k][idx]
			a := p.act[idx]
			if a == 0 {
				idle += pk[idx] * c.tau[idx]
				continue
			}
			run += pk[idx] * c.tau[idx]
			x := pk[idx] * value(c.cred[k][idx])
			use += x
			wk += x * p.work[a-1]
		}
	}
	for i := 0; i < c.in.n; i++ {
		x := math.Max(st.z[i], 0)
		lost += x * leave[c.K][i]
		y := x * value(c.icred[i])
		use += y
		wk += y * p.work[c.in.a[i]-1]
	}
	total := run + idle
	if total == 0 || run == 0 {
		return 0, 0, 0, 0, lost, nil
	}
	return wk / total, use / total, use / run, idle / run, lost, nil
}
