package optimal

import (
	"fmt"
	"math"
	"slices"

	"github.com/ckpt-markov/markov/birthdeath"
	"github.com/ckpt-markov/markov/internal/decision"
)

// ent is one transition of a decision state: to index i (a spare count
// offset inside a configuration's block, or a functional count offset
// inside the window) with probability p.
type ent struct {
	i int32
	p float64
}

// row is the outcome of one decision: the transitions to up states of the
// same configuration (up) and to decision states X (fail), renormalised
// over the window, with the mass dropped, the expected sojourn and the
// expected committed work.
type row struct {
	up, fail []ent
	drop     float64
	tau, w   float64
}

// rows computes the rows s0 ≤ s < s1 of a segment of length t on a
// processors (P_t and Q_t of the spare chain with m = N − a, package
// birthdeath), mapped onto the window. For an up segment, interval > 0 is
// the checkpoint interval and w the committed work; for a recovery
// interval = 0 and w = 0.
func (sv *Solver) rows(a, s0, s1 int, t, interval float64) ([]row, error) {
	return sv.rowsTo(nil, a, s0, s1, t, interval)
}

// rowScratch is the storage of rows used once and dropped (a trial
// interval's rows in the searches): rowsTo with a rowScratch reuses it,
// and the rows it returns are overwritten by its next call.
type rowScratch struct {
	blk birthdeath.RowBlock
	buf []ent
	out []row
}

// rowsTo is rows, into sc's storage when sc is not nil (the same rows, bit
// for bit).
func (sv *Solver) rowsTo(sc *rowScratch, a, s0, s1 int, t, interval float64) ([]row, error) {
	c, err := sv.chains.Chain(sv.n - a)
	if err != nil {
		return nil, err
	}
	rho := float64(a) * sv.lambda
	var rb *birthdeath.RowBlock
	if sc != nil {
		rb = &sc.blk
		err = c.RowsInto(rb, s0, s1, t, rho, decision.RowTol)
	} else {
		rb, err = c.Rows(s0, s1, t, rho, decision.RowTol)
	}
	if err != nil {
		return nil, fmt.Errorf("optimal: spare chain m = %d, T = %g: %w", sv.n-a, t, err)
	}
	return sv.windowRows(sc, a, rb, interval)
}

// windowRows maps the spare chain's rows rb of a segment on a processors
// onto the window (rows), into sc's storage when sc is not nil.
func (sv *Solver) windowRows(sc *rowScratch, a int, rb *birthdeath.RowBlock, interval float64) ([]row, error) {
	t, rho := rb.T, rb.Rho
	surv := rb.Survival
	tau := -math.Expm1(-rho*t) / rho
	w := 0.0
	if interval > 0 {
		app := sv.sc.Application
		w = surv * app.WorkRate[a-1] * (interval + app.Latency[a-1] - app.Overhead[a-1])
	}
	ulo, uhi := sv.spares(a)
	inUp := func(r *birthdeath.Row, j int) bool {
		s2 := r.Lo + j
		return surv*r.P[j] > 0 && s2 >= ulo && s2 < uhi
	}
	inFail := func(r *birthdeath.Row, j int) bool {
		n2 := a - 1 + r.Lo + j
		return r.Q[j] > 0 && n2 >= sv.lo && n2 <= sv.hi
	}
	nz := 0 // the entries of every row, in one allocation
	for k := range rb.Rows {
		r := &rb.Rows[k]
		for j := range r.P {
			if inUp(r, j) {
				nz++
			}
			if inFail(r, j) {
				nz++
			}
		}
	}
	var buf []ent
	var out []row
	if sc != nil && cap(sc.buf) >= nz && cap(sc.out) >= len(rb.Rows) {
		buf, out = sc.buf[:0], sc.out[:len(rb.Rows)]
	} else {
		buf, out = make([]ent, 0, nz), make([]row, len(rb.Rows))
		if sc != nil {
			sc.buf, sc.out = buf, out
		}
	}
	for k := range rb.Rows {
		r := &rb.Rows[k]
		kept := 0.0
		start := len(buf)
		for j := range r.P {
			if inUp(r, j) {
				v := surv * r.P[j]
				buf = append(buf, ent{int32(r.Lo + j - ulo), v})
				kept += v
			}
			if inFail(r, j) {
				kept += r.Q[j]
			}
		}
		mid := len(buf)
		for j := range r.P {
			if inFail(r, j) {
				buf = append(buf, ent{int32(a - 1 + r.Lo + j - sv.lo), r.Q[j]})
			}
		}
		up, fail := buf[start:mid:mid], buf[mid:len(buf):len(buf)]
		if kept <= 0 {
			return nil, fmt.Errorf("optimal: every transition of a segment on %d processors leaves the window [%d, %d]", a, sv.lo, sv.hi)
		}
		for i := range up {
			up[i].p /= kept
		}
		for i := range fail {
			fail[i].p /= kept
		}
		out[k] = row{up: up, fail: fail, drop: max(1-kept, 0), tau: tau, w: w}
	}
	return out, nil
}

// spares returns the spare counts [lo, hi) of the up states U(a, ·) inside
// the window of functional counts.
func (sv *Solver) spares(a int) (lo, hi int) {
	return max(0, sv.lo-a), min(sv.n-a, sv.hi-a) + 1
}

// upRows computes the rows of the up states of block b at the intervals iv
// (one per spare count), one birthdeath call per run of equal intervals.
func (sv *Solver) upRows(b int, iv []float64) ([]row, error) {
	a := sv.acts[b]
	s0, _ := sv.spares(a)
	out := make([]row, 0, len(iv))
	for k := 0; k < len(iv); {
		e := k + 1
		for e < len(iv) && iv[e] == iv[k] {
			e++
		}
		rs, err := sv.rows(a, s0+k, s0+e, iv[k]+sv.sc.Application.Latency[a-1], iv[k])
		if err != nil {
			return nil, err
		}
		out = append(out, rs...)
		k = e
	}
	return out, nil
}

// recoveryRows computes, once, the rows of every recovery decision
// X(p, n) → a: segment length R(p, a) + L(a), spare count n − a.
func (sv *Solver) recoveryRows() error {
	sv.rec = make([][][]row, len(sv.ps))
	sv.recSum = make([]recSummary, len(sv.ps)*sv.w*len(sv.acts))
	app := sv.sc.Application
	for pi, p := range sv.ps {
		sv.rec[pi] = make([][]row, len(sv.acts))
		for b, a := range sv.acts {
			if a > sv.hi {
				continue
			}
			pOld := p
			if pOld == 0 {
				pOld = a // the cost does not depend on p
			}
			t := app.Recovery.Cost(pOld, a) + app.Latency[a-1]
			// Rows s = n − a for n in [max(lo, a), hi].
			s0, s1 := max(sv.lo, a)-a, sv.hi-a+1
			rs, err := sv.rows(a, s0, s1, t, 0)
			if err != nil {
				return err
			}
			sv.rec[pi][b] = rs
			for k := range rs {
				sv.recSum[sv.recSumIndex(pi, max(sv.lo, a)+k, b)] = summarize(&rs[k])
			}
		}
	}
	return nil
}

// recRow returns the row of X(ps[pi], n) under action acts[b].
func (sv *Solver) recRow(pi, b, n int) *row {
	a := sv.acts[b]
	return &sv.rec[pi][b][n-max(sv.lo, a)]
}

// waitRow returns the row of X(·, n) under the action wait: one failure or
// one repair, renormalised over the window (newWaitRow), from the rows
// built once (initWaits). Its slice is shared: callers read it.
func (sv *Solver) waitRow(n int) row {
	sv.initWaits()
	return sv.waitRows[n-sv.lo]
}

// newWaitRow computes waitRow's row.
func (sv *Solver) newWaitRow(n int) row {
	fail, repair := float64(n)*sv.lambda, float64(sv.n-n)*sv.theta
	tot := fail + repair
	var r row
	r.tau = 1 / tot
	kept := 0.0
	if n-1 >= sv.lo && fail > 0 {
		r.fail = append(r.fail, ent{int32(n - 1 - sv.lo), fail / tot})
		kept += fail / tot
	}
	if n+1 <= sv.hi && repair > 0 {
		r.fail = append(r.fail, ent{int32(n + 1 - sv.lo), repair / tot})
		kept += repair / tot
	}
	for i := range r.fail {
		r.fail[i].p /= kept
	}
	r.drop = max(1-kept, 0)
	return r
}

// candidates returns the processor counts the solver may use: those of
// set (all when nil) with a positive work rate.
func candidates(n int, work []float64, set []int) ([]int, error) {
	var acts []int
	if set == nil {
		for a := 1; a <= n; a++ {
			if work[a-1] > 0 {
				acts = append(acts, a)
			}
		}
		return acts, nil
	}
	for _, a := range set {
		if a < 1 || a > n {
			return nil, fmt.Errorf("optimal: Settings.Candidates holds %d, want in [1, %d]", a, n)
		}
		if work[a-1] > 0 {
			acts = append(acts, a)
		}
	}
	slices.Sort(acts)
	acts = slices.Compact(acts)
	if len(acts) == 0 {
		return nil, fmt.Errorf("optimal: Settings.Candidates holds no processor count with a positive work rate")
	}
	return acts, nil
}
