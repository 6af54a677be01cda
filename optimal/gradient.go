package optimal

import (
	"context"
	"math"
	"slices"

	"github.com/ckpt-markov/markov/internal/pool"
)

// upWeights holds, for one evaluation of a policy, the stationary
// probability π of each running up state U(a, s) in the jump chain of
// the decision and up states (per configuration index and spare offset;
// 0 for a state that reconfigures or is not recurrent) and the mean
// sojourn Σπτ over every state: the weights of the gain's partial
// derivatives in the intervals (intervalGain).
type upWeights struct {
	pi      [][]float64
	sojourn float64
}

// weights returns the upWeights of pol evaluated as v: the stationary law
// of its jump chain (as finish computes it).
func (sv *Solver) weights(pol *Policy, v *values) (*upWeights, error) {
	jc := sv.jumpChain(pol, v)
	sub, st, err := stationaryFrom(v.x0, len(jc.tau), jc.rows, jc.cols, jc.vals)
	if err != nil {
		return nil, err
	}
	uw := &upWeights{pi: make([][]float64, len(sv.acts))}
	for b := range sv.acts {
		uw.pi[b] = make([]float64, len(v.blocks[b].rows))
	}
	for k, i := range sub {
		p := st.Pi[k]
		if p <= 0 {
			continue
		}
		uw.sojourn += p * jc.tau[i]
		if i < sv.nX {
			continue
		}
		b := blockOf(sv.uOff, i-sv.nX)
		j := i - sv.nX - sv.uOff[b]
		if m := pol.maskOf(b); m != nil && m[j] != 0 {
			continue // a reconfiguration: its interval is not used
		}
		uw.pi[b][j] = p
	}
	return uw, nil
}

// span returns the range [k0, k1) of the up states of configuration b
// with weight, empty (k0 = k1) when none has.
func (uw *upWeights) span(b int) (k0, k1 int) {
	k0, k1 = -1, -1
	for k, p := range uw.pi[b] {
		if p > 0 {
			if k0 < 0 {
				k0 = k
			}
			k1 = k + 1
		}
	}
	if k0 < 0 {
		return 0, 0
	}
	return k0, k1
}

// intervalGain returns F_b(I) = Σ_s π(U(a, s))·[w − g·τ + Σ P·h](U(a, s))
// at the interval I for every running up state of configuration b =
// acts[a], the brackets of v (the policy's g and h) with the rows at I.
// Its derivative at the policy's own interval I(a) (where every bracket
// is h(U(a, s))) is Σπτ·∂g/∂I(a): with the policy μ' that differs from μ
// in I(a) alone, renewal–reward gives
//
//	g(μ') − g(μ) = Σ_x π'(x)·[w' − g·τ' + P'·h − h](x) / Σ_x π'(x)τ'(x),
//
// whose brackets vanish outside U(a, ·) and at I(a); as I' → I(a), π' → π
// (Puterman 1994, section 8.2 and chapter 11, for the difference of the
// gains of two policies). One call computes the rows of the states with
// weight in one birthdeath call (rows; into sc when not nil, which the
// rows of the next call overwrite) and no linear solve.
func (sv *Solver) intervalGain(sc *rowScratch, v *values, uw *upWeights, b int, interval float64) (float64, error) {
	k0, k1 := uw.span(b)
	if k0 == k1 {
		return 0, nil
	}
	a := sv.acts[b]
	s0, _ := sv.spares(a)
	rs, err := sv.rowsTo(sc, a, s0+k0, s0+k1, interval+sv.sc.Application.Latency[a-1], interval)
	if err != nil {
		return 0, err
	}
	f := 0.0
	for k := k0; k < k1; k++ {
		if p := uw.pi[b][k]; p > 0 {
			f += p * sv.bracket(v, b, &rs[k-k0])
		}
	}
	return f, nil
}

// propose returns, for every configuration b with weight, the log I
// that maximises intervalGain(v, uw, b, ·) (from its current log I(a)
// with the first step ascendStep(steps[b]), to IntervalTol), and the sum
// over the configurations of the rise of F_b it promises: first-order in
// the move, Σπτ times the rise of g. The configurations are searched in
// a pool (internal/pool), each writing only its own entry.
func (sv *Solver) propose(ctx context.Context, cur *Policy, v *values, uw *upWeights, steps []float64) ([]float64, float64, error) {
	for b := range sv.acts {
		v.upH(b) // solved once, before the pool reads it
	}
	lo, hi := math.Log(sv.set.MinInterval), math.Log(sv.set.MaxInterval)
	xs := make([]float64, len(sv.acts))
	rise := make([]float64, len(sv.acts))
	err := pool.Each(ctx, len(sv.acts), sv.set.Workers, func(ctx context.Context, b int) error {
		x0 := math.Log(cur.interval[b][0])
		xs[b] = x0
		if k0, k1 := uw.span(b); k0 == k1 {
			return nil
		}
		var ferr error
		sc := new(rowScratch) // this task's, reused by every trial interval
		f := func(x float64) float64 {
			u, err := sv.intervalGain(sc, v, uw, b, sv.intervalOf(x))
			if err != nil {
				ferr = err
				return math.Inf(-1)
			}
			return u
		}
		f0 := f(x0)
		x, fx := maximizeFrom(f, x0, f0, ascendStep(steps[b]), lo, hi, sv.set.IntervalTol)
		if ferr != nil {
			return ferr
		}
		if fx > f0 {
			xs[b], rise[b] = x, fx-f0
		}
		return nil
	})
	if err != nil {
		return nil, 0, err
	}
	total := 0.0
	for _, r := range rise {
		total += r
	}
	return xs, total, nil
}

// gradientAscend is level 3's search over the intervals with
// reconfiguration at checkpoints, from cur evaluated as v (it updates
// cur): each step moves every I(a) at once to the maximiser of its
// π-weighted bracket F_b (propose; no solve), then evaluates the policy
// with the new intervals exactly and keeps it when g rises; a step that
// does not is halved on log I (at most gradientHalvings times). It stops
// when the exact rise, or the rise F promises (Σπτ·Δg to first order),
// is at most gradientTol·RelTol·|g|, and returns g and whether it stopped so (a
// stationary point: every ∂g/∂I(a) is zero to the tolerance) rather than
// on steps that did not raise g, where PerConfiguration falls back to
// the coordinate search (ascend).
func (sv *Solver) gradientAscend(ctx context.Context, cur *Policy, v *values, steps []float64) (float64, bool, error) {
	g := v.g
	for range sv.set.MaxIter {
		uw, err := sv.weights(cur, v)
		if err != nil {
			return 0, false, err
		}
		xs, promise, err := sv.propose(ctx, cur, v, uw, steps)
		if err != nil {
			return 0, false, err
		}
		if promise <= gradientTol*sv.set.RelTol*math.Abs(g)*uw.sojourn {
			return g, true, nil
		}
		next, vn, err := sv.stepTowards(ctx, cur, xs, g)
		if err != nil {
			return 0, false, err
		}
		if next == nil {
			return g, false, nil
		}
		for b := range sv.acts {
			if d := math.Abs(math.Log(next.interval[b][0]) - math.Log(cur.interval[b][0])); d > 0 {
				steps[b] = max(2*d, ascendMinStep)
			}
		}
		*cur = *next
		gain := vn.g - g
		g, v = vn.g, vn
		if gain <= gradientTol*sv.set.RelTol*math.Abs(g) {
			return g, true, nil
		}
	}
	return g, false, nil
}

// gradientTol is the fraction of RelTol below which a rise of g, promised
// or exact, ends gradientAscend: a step costs one evaluation, and the
// search then ends closer to the stationary point than the coordinate
// search, which stops at RelTol in each coordinate.
const gradientTol = 0.01

// gradientHalvings bounds the halvings of a step of the gradient
// searches (gradientAscend, singleSearch.climb) that does not raise g;
// tests set it to −1 (no step is tried) to take their fallbacks.
var gradientHalvings = 3

// stepTowards evaluates cur with every configuration's log I moved to xs
// (then halfway, up to gradientHalvings times) and returns the first
// policy whose g exceeds g, with its values, or nil when none does.
func (sv *Solver) stepTowards(ctx context.Context, cur *Policy, xs []float64, g float64) (*Policy, *values, error) {
	frac := 1.0
	for range gradientHalvings + 1 {
		p := sv.clone(cur)
		for b := range sv.acts {
			x0 := math.Log(cur.interval[b][0])
			if xs[b] != x0 {
				setConf(p, b, sv.intervalOf(x0+frac*(xs[b]-x0)))
			}
		}
		vn, err := sv.evaluate(ctx, p, true)
		if err != nil {
			return nil, nil, err
		}
		if vn.g > g {
			return p, vn, nil
		}
		frac /= 2
	}
	return nil, nil, nil
}

// gradientLevel2 makes SingleInterval, with up states, climb from the
// best point of its scan by gradient steps (singleSearch.climb) instead
// of Brent's method on g*(I) and polish; tests turn it off to hold the
// two against each other.
var gradientLevel2 = true

// totalGain returns Σ_b intervalGain(v, uw, b, I): the π-weighted bracket
// of every running up state at the one interval I, whose derivative in
// I at the policy's own interval is Σπτ·dg/dI (intervalGain). The
// configurations are computed in a pool (internal/pool) and summed in
// index order.
func (sv *Solver) totalGain(ctx context.Context, v *values, uw *upWeights, interval float64) (float64, error) {
	parts := make([]float64, len(sv.acts))
	err := pool.Each(ctx, len(sv.acts), sv.set.Workers, func(_ context.Context, b int) error {
		f, err := sv.intervalGain(nil, v, uw, b, interval)
		parts[b] = f
		return err
	})
	total := 0.0
	for _, f := range parts {
		total += f
	}
	return total, err
}

// climb is SingleInterval's search with up states from the best point
// of its scan, x = log I: g*(I) = max over the policies of g at I, so
// where the optimal policy μ at I is unique dg*/dI is ∂g(μ, I)/∂I
// (envelope), Σπτ⁻¹ times the derivative of totalGain. Each step moves
// I to the maximiser of totalGain over log I (no solve), then solves
// g* there by policy iteration from μ and keeps it when g* rises
// (halving a step that does not, at most gradientHalvings times); it
// stops when the rise promised or gained is below gradientTol·RelTol.
// At the end μ is optimal at I and ∂g(μ, I)/∂I is zero to the tolerance:
// what Brent's method on g* followed by polish stops at. When no step
// raises g*, polish goes on from the best point instead. It returns the
// best result and its x.
func (s *singleSearch) climb(scan []scanPoint) (Result, float64, error) {
	sv := s.sv
	x := scan[bestIndex(scan)].x
	var best Result
	if i := slices.IndexFunc(s.visited, func(v visit) bool { return v.x == x }); i >= 0 {
		best = s.visited[i].r // the best point is always solved (peak)
	} else {
		var err error
		if best, err = sv.fixed(s.ctx, s.near(x), sv.intervalOf(x), false); err != nil {
			return Result{}, 0, err
		}
	}
	step := intervalStep
	for it := 0; ; it++ {
		if it == sv.set.MaxIter {
			// Still rising after MaxIter steps: the best point so far,
			// said to be one (Settings.MaxIter).
			best.Status = IterationLimit
			break
		}
		v, err := sv.evaluate(s.ctx, best.Policy, true)
		if err != nil {
			return Result{}, 0, err
		}
		uw, err := sv.weights(best.Policy, v)
		if err != nil {
			return Result{}, 0, err
		}
		for b := range sv.acts {
			v.upH(b) // solved once, before the pool reads it
		}
		var ferr error
		f := func(x float64) float64 {
			u, err := sv.totalGain(s.ctx, v, uw, sv.intervalOf(x))
			if err != nil {
				ferr = err
				return math.Inf(-1)
			}
			return u
		}
		f0 := f(x)
		x1, f1 := maximizeFrom(f, x, f0, step, s.lo, s.hi, sv.set.IntervalTol)
		if ferr != nil {
			return Result{}, 0, ferr
		}
		if f1-f0 <= gradientTol*sv.set.RelTol*math.Abs(best.UWT)*uw.sojourn {
			break
		}
		r, xn, err := s.stepTowards(best, x, x1)
		if err != nil {
			return Result{}, 0, err
		}
		if r.Policy == nil {
			// No step raised g*: the alternation of Brent's method on
			// the policy's g with policy iteration goes on from here.
			return s.polish(best, x)
		}
		gain := r.UWT - best.UWT
		step = min(max(2*math.Abs(xn-x), ascendMinStep), intervalStep)
		best, x = r, xn
		if gain <= gradientTol*sv.set.RelTol*math.Abs(best.UWT) {
			break
		}
	}
	return best, x, nil
}

// stepTowards solves g* at x1 by policy iteration from best's policy
// (then halfway back towards x, up to gradientHalvings times) and
// returns the first result above best, with its x, or a Result without
// policy when none is.
func (s *singleSearch) stepTowards(best Result, x, x1 float64) (Result, float64, error) {
	frac := 1.0
	for range gradientHalvings + 1 {
		xt := x + frac*(x1-x)
		start, fromNever := s.startAt(xt, best.Policy)
		if start == nil {
			return Result{}, 0, s.err
		}
		r, err := s.sv.fixed(s.ctx, start, s.sv.intervalOf(xt), false)
		if err != nil {
			return Result{}, 0, err
		}
		s.solves++
		s.visited = append(s.visited, visit{xt, r, fromNever && sameX(r, start)})
		if r.UWT > best.UWT {
			return r, xt, nil
		}
		frac /= 2
	}
	return Result{}, 0, nil
}
