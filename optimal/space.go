package optimal

import (
	"fmt"
	"math"
	"slices"

	"github.com/ckpt-markov/markov/birthdeath"
)

// rowTol is the mass each spare-chain row may leave out of its column
// window (as in package uwt's fast path): far below DefaultTol, so that
// the window of functional counts dominates the dropped mass.
const rowTol = 1e-16

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

// chainOf returns the spare chain with m other processors, built once.
func (sv *Solver) chainOf(m int) (*birthdeath.Chain, error) {
	sv.mu.Lock()
	defer sv.mu.Unlock()
	if c := sv.chains[m]; c != nil {
		return c, nil
	}
	c, err := birthdeath.New(m, sv.lambda, sv.theta)
	if err != nil {
		return nil, err
	}
	sv.chains[m] = c
	return c, nil
}

// rows computes the rows s0 ≤ s < s1 of a segment of length t on a
// processors (P_t and Q_t of the spare chain with m = N − a, package
// birthdeath), mapped onto the window. For an up segment, interval > 0 is
// the checkpoint interval and w the committed work; for a recovery
// interval = 0 and w = 0.
func (sv *Solver) rows(a, s0, s1 int, t, interval float64) ([]row, error) {
	c, err := sv.chainOf(sv.n - a)
	if err != nil {
		return nil, err
	}
	rho := float64(a) * sv.lambda
	rb, err := c.Rows(s0, s1, t, rho, rowTol)
	if err != nil {
		return nil, fmt.Errorf("optimal: spare chain m = %d, T = %g: %w", sv.n-a, t, err)
	}
	surv := rb.Survival
	tau := -math.Expm1(-rho*t) / rho
	w := 0.0
	if interval > 0 {
		app := sv.sc.Application
		w = surv * app.WorkRate[a-1] * (interval + app.Latency[a-1] - app.Overhead[a-1])
	}
	ulo, uhi := sv.spares(a)
	out := make([]row, len(rb.Rows))
	for k, r := range rb.Rows {
		var up, fail []ent
		kept := 0.0
		for j := range r.P {
			s2 := r.Lo + j
			if v := surv * r.P[j]; v > 0 && s2 >= ulo && s2 < uhi {
				up = append(up, ent{int32(s2 - ulo), v})
				kept += v
			}
			if v := r.Q[j]; v > 0 {
				if n2 := a - 1 + s2; n2 >= sv.lo && n2 <= sv.hi {
					fail = append(fail, ent{int32(n2 - sv.lo), v})
					kept += v
				}
			}
		}
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
// one repair, renormalised over the window.
func (sv *Solver) waitRow(n int) row {
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

// window returns the functional counts [lo, hi] outside which the
// stationary law of the functional count, Binomial(n, 1 − q) with
// q = λ/(λ+θ), has at most tol of its mass on each side, widened by a
// margin of two processors per side (decision states are entered at
// failure instants). It is the same rule as package uwt's fast path.
func window(n int, q, tol float64) (lo, hi int) {
	mode := min(max(int(math.Floor(float64(n+1)*q)), 0), n)
	logq, logp := math.Log(q), math.Log1p(-q)
	lgn, _ := math.Lgamma(float64(n + 1))
	logPMF := func(k int) float64 {
		a, _ := math.Lgamma(float64(k + 1))
		b, _ := math.Lgamma(float64(n - k + 1))
		return lgn - a - b + float64(k)*logq + float64(n-k)*logp
	}
	// tail(k, dir): the mass of the failed count beyond k is ≤ tol,
	// bounded by a geometric series past the mode.
	tail := func(k, dir int) bool {
		next := k + dir
		if next < 0 || next > n {
			return true
		}
		l1 := logPMF(next)
		ratio := 0.0
		if next+dir >= 0 && next+dir <= n {
			ratio = math.Exp(logPMF(next+dir) - l1)
		}
		return ratio < 1 && math.Exp(l1)/(1-ratio) <= tol
	}
	fHi, fLo := mode, mode
	for !tail(fHi, +1) {
		fHi++
	}
	for !tail(fLo, -1) {
		fLo--
	}
	const margin = 2
	return max(n-fHi-margin, 0), min(n-fLo+margin, n)
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
