package multilevel

import (
	"fmt"
	"sort"

	"github.com/ckpt-markov/markov/scenario"
	"gonum.org/v1/gonum/mat"
)

// maxReconfBlock bounds the states of one position of the chain with
// reconfiguration and positions (Q and D states at position k): the
// survival h solves one dense system of that order per position.
const maxReconfBlock = 3000

// rjump is a jump of the chain with reconfiguration and positions: to
// its target with x (a probability, or a probability times the work at
// risk).
type rjump struct {
	to rlabel
	x  float64
}

// setPositional makes rc the chain with reconfiguration and positions
// (docs/model.md section 12, "Reconfiguration at top-level checkpoints",
// processor failures of severity 2): three levels, a processor failure
// of severity 2 (share φ = f₂/(f₂ + f₃) of processor failures) restores
// the newest level-2 checkpoint of the period onto r(n') and the period
// goes on there (position.go's rules), the application reconfiguring at
// the next level-3 checkpoint. w is the window's width, ps the writer
// counts a label keeps (w when the level-3 recovery depends on it, else
// 1). It refuses, naming reconfigure, a level-2 recovery by old count
// (the writer of a level-2 checkpoint would be history) and positions
// too wide for the survival's dense solves.
func (rc *reconf) setPositional(sc *scenario.Scenario, w, ps int) error {
	if len(rc.levels) != 3 {
		return nil
	}
	if rc.levels[1].Recovery.DependsOnOld() {
		return &scenario.Error{Field: "reconfigure", Problem: fmt.Sprintf(
			"at-checkpoint with three levels, processor failures of severity 2 and the policy %s: level 2's recovery depends on the count that wrote the checkpoint, not modelled (docs/model.md section 12)", sc.Policy)}
	}
	if b := 2 * w * ps; b > maxReconfBlock {
		return &scenario.Error{Field: "reconfigure", Problem: fmt.Sprintf(
			"at-checkpoint with three levels and processor failures of severity 2: a position of the chain would hold about %d states (a window of %d functional counts), more than %d", b, w, maxReconfBlock)}
	}
	rc.pos = true
	if f := sc.Severity(); f[1] > 0 {
		rc.phi = f[1] / (f[1] + f[2])
	}
	return nil
}

// checkPattern bounds, with positions, the chain's states for pattern
// before anything is built: 2w² + 2w·ps + 2V₂·w·ps (S and C, R and D,
// Q and D by position).
func (rc *reconf) checkPattern(pattern []int) error {
	if !rc.pos {
		return nil
	}
	w := rc.hi - rc.lo + 1
	ps := 1
	if rc.old {
		ps = w
	}
	if est := 2*w*w + 2*w*ps*(1+pattern[1]); est > MaxReconfStates {
		return &scenario.Error{Field: "reconfigure", Problem: fmt.Sprintf(
			"at-checkpoint with three levels, processor failures of severity 2 and pattern %v: the chain would hold about %d states (a window of %d functional counts, %d positions), more than %d", pattern, est, w, pattern[1]+1, MaxReconfStates)}
	}
	return nil
}

// positionalParts adds to rp the superblocks of a period on a (first
// unwrapped: a crash there is the level-3 recovery of state C), the
// recovery from level 2 that starts a Q state and a superblock's useful
// computation V₁(I + L₁ − C₁) + I + L₂ − C₂.
func (rc *reconf) positionalParts(rp *rparts, c *mcomposer, first, mid, last mphase) error {
	// The level-2 recovery is c's recParts' (rec2 nil: its error).
	rec := c.recoveries()
	if rec.rec2 == nil {
		return rec.decErr
	}
	rp.up = &upParts{kw: c.killWidth(), first: first, mid: mid, last: last, rec2: rec.rec2, kill2: rec.kill2}
	lv := c.pr.Levels
	rp.sbw = float64(c.pattern[0])*(c.interval+lv[0].Latency-lv[0].Overhead) + c.interval + lv[1].Latency - lv[1].Overhead
	return nil
}

// startPos adds the row of S(a, n), s = n − a spares up, with positions:
// the period from its start, its crashes before the first level-2
// checkpoint to C, its processor failures by superblock (spreadPos).
func (rb *rbuild) startPos(l rlabel, rp *rparts, a, s int) {
	v2, size := rb.pattern[1], rb.rc.n-a+1
	x := make([]float64, size)
	x[s] = 1
	law := upLaw{kill: make([][]float64, v2+1), zero: make([]float64, size)}
	law.end = rp.up.run(x, 0, v2, &law)
	rb.info[l].tau = rp.time
	if rp.crash != nil {
		for j, x := range rp.crash.RawRowView(s) {
			rb.add(l, rlabel{kind: rkCrash, p: a, n: a + j}, x)
		}
	}
	rb.spreadPos(l, law, a, a, 0, rp)
}

// level2 adds the row of Q(k, p, n) on a = r(n), s spares up: the
// recovery from the k-th level-2 checkpoint (a processor failure in it
// restores the level-3 checkpoint), then superblocks k..V₂
// (upParts.begin). Its sojourn is P(a processor failure ends it)/(aμ):
// processors fail at aμ throughout, so that probability is aμ times the
// expected sojourn (the compensator of the failures at the stopping
// time).
func (rb *rbuild) level2(l rlabel, rp *rparts, a, s int) {
	v2, size := rb.pattern[1], rb.rc.n-a+1
	law := rp.up.begin(s, l.k, v2, size)
	kill := sum(law.zero)
	for _, row := range law.kill {
		kill += sum(row)
	}
	rb.info[l].tau = kill / (float64(a) * rb.rc.mu)
	rb.spreadPos(l, law, a, l.p, l.k, rp)
}

// spreadPos adds the ends of law (a state on a from position k, the
// period's level-3 checkpoint written on p) to from's row: the level-3
// checkpoint (a reconfiguration point), the failures that restore the
// level-3 checkpoint, and those in superblock b ≥ 1, of severity 2 with
// φ (to position b: the work of superblocks k..b − 1 at risk) and of
// severity 3 otherwise. The reward is the work up to the checkpoint,
// U − k·(a superblock's), when the period completes.
func (rb *rbuild) spreadPos(from rlabel, law upLaw, a, p, k int, rp *rparts) {
	rc, st := rb.rc, rb.info[from]
	st.end = sum(law.end)
	st.use = st.end * (rp.useful - float64(k)*rp.sbw)
	st.work = st.use * rp.work
	for j, x := range law.end {
		rb.add(from, rc.checkpoint(a, a+j), x)
	}
	for j, x := range law.zero {
		rb.add(from, rc.after(p, a-1+j), x)
	}
	for b, row := range law.kill {
		for j, x := range row {
			n := a - 1 + j
			rb.add(from, rc.after(p, n), (1-rc.phi)*x)
			if rc.phi == 0 || x == 0 {
				continue
			}
			to := rc.afterAt(b, p, n)
			rb.move(from, to, rc.phi*x)
			if _, ok := rb.info[to]; ok && b > k {
				st.risky = append(st.risky, rjump{to, rc.phi * x * float64(b-k) * rp.sbw})
			}
		}
	}
}

// move adds the jump from → to with x, and, from a position k ≥ 1 to a
// state inside the window, keeps it for the survival h (the level-2
// checkpoint survives it).
func (rb *rbuild) move(from, to rlabel, x float64) {
	rb.add(from, to, x)
	if _, ok := rb.info[to]; ok && from.k > 0 && x != 0 {
		st := rb.info[from]
		st.g = append(st.g, rjump{to, x})
	}
}

// survival returns h, the probability that a state at position k ≥ 1
// (Q or D) reaches the period's level-3 checkpoint before a failure
// restores it: h = end + Σ_g x·h(to), the jumps g going to positions
// ≥ k, solved by back substitution over the positions V₂ … 1, one dense
// system per position (its states in a fixed order).
func (rb *rbuild) survival(v2 int) (map[rlabel]float64, error) {
	byPos := make([][]rlabel, v2+1)
	for l := range rb.info {
		if l.k > 0 {
			byPos[l.k] = append(byPos[l.k], l)
		}
	}
	h := map[rlabel]float64{}
	for k := v2; k >= 1; k-- {
		ls := byPos[k]
		if len(ls) == 0 {
			continue
		}
		sort.Slice(ls, func(i, j int) bool {
			x, y := ls[i], ls[j]
			if x.n != y.n {
				return x.n < y.n
			}
			if x.p != y.p {
				return x.p < y.p
			}
			return x.kind < y.kind
		})
		idx := make(map[rlabel]int, len(ls))
		for i, l := range ls {
			idx[l] = i
		}
		a := eye(len(ls))
		rhs := mat.NewVecDense(len(ls), nil)
		for i, l := range ls {
			st := rb.info[l]
			v := st.end
			for _, g := range st.g {
				if j, ok := idx[g.to]; ok {
					a.Set(i, j, a.At(i, j)-g.x)
				} else {
					v += g.x * h[g.to]
				}
			}
			rhs.SetVec(i, v)
		}
		var x mat.VecDense
		if err := x.SolveVec(a, rhs); err != nil {
			return nil, fmt.Errorf("multilevel: reconfiguration chain, survival at position %d: %w", k, err)
		}
		for i, l := range ls {
			h[l] = x.AtVec(i)
		}
	}
	return h, nil
}

// atRisk returns the expected work at risk that st commits: each
// risky jump's work times the survival of its target.
func atRisk(st *rstate, h map[rlabel]float64) float64 {
	v := 0.0
	for _, r := range st.risky {
		v += r.x * h[r.to]
	}
	return v
}
