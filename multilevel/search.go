package multilevel

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/ckpt-markov/markov/internal/scalar"
	"github.com/ckpt-markov/markov/intervals"
)

const (
	// looseTol is the accuracy in ln I to which the pattern search
	// compares patterns: UWT is flat at its maximum, so the maximum of a
	// pattern is then known to κ·looseTol²/2 relative (second order; κ,
	// the relative curvature of UWT in ln I, is a few hundredths in the
	// tested cases), far below the differences between neighbouring
	// patterns (1e-4 to 1e-6 relative there); the winner, and any pattern
	// whose bound could reach it, is then polished to
	// OptimizeSettings.Tol (searcher.polish).
	looseTol = 1e-3
	// bracketStep is the first step in ln I of the bracket around a
	// pattern's predicted optimal interval (searcher.interval).
	bracketStep = 0.05
)

// searcher holds the state of one Optimize call: every evaluation of
// every pattern, so that no (pattern, I) is solved twice and the Result
// reported is one the search compared.
type searcher struct {
	ctx   context.Context
	m     *Model
	tol   float64
	max   int
	evals int
	pats  map[string]*patternSearch
	order []*patternSearch // in the order searched (deterministic ties)
}

// patternSearch is the interval search of one pattern: its evaluations in
// u = ln I, the bracket [lo, hi] of its maximum and the best evaluation
// so far, found to the accuracy tol in u (+Inf before any search).
type patternSearch struct {
	pattern []int
	pts     []scalar.Point
	res     map[float64]Result
	lo, hi  float64
	best    scalar.Point
	tol     float64
}

// newSearcher returns a searcher of m to the accuracy tol in ln I that
// optimises the interval of at most max patterns.
func newSearcher(ctx context.Context, m *Model, tol float64, max int) *searcher {
	return &searcher{ctx: ctx, m: m, tol: tol, max: max, pats: map[string]*patternSearch{}}
}

// best returns the best interval of pattern to the accuracy
// OptimizeSettings.Tol.
func (sr *searcher) best(pattern []int) (Result, error) {
	return sr.interval(pattern, sr.tol)
}

// loose returns the best interval of pattern to looseTol (or the
// searcher's accuracy, if coarser): what the pattern search compares.
func (sr *searcher) loose(pattern []int) (Result, error) {
	return sr.interval(pattern, max(looseTol, sr.tol))
}

// interval returns the best interval of pattern to the accuracy tol in
// ln I: on the first call, a bracket (scalar.BracketMin on −UWT, step
// bracketStep) from the predicted optimum (sr.predict); then
// scalar.MaximizeSeen, which reuses every evaluation of the pattern, so
// that a later call with a smaller tol only adds the evaluations that
// close the bracket further.
func (sr *searcher) interval(pattern []int, tol float64) (Result, error) {
	key := fmt.Sprint(pattern)
	ps, ok := sr.pats[key]
	if ok && ps.tol <= tol {
		return ps.res[ps.best.X], nil
	}
	if !ok {
		if len(sr.pats) >= sr.max {
			return Result{}, fmt.Errorf("multilevel: the pattern search reached its limit of %d patterns (OptimizeSettings.MaxPatterns)", sr.max)
		}
		ps = &patternSearch{pattern: append([]int(nil), pattern...), res: map[float64]Result{}, tol: math.Inf(1)}
	}
	if err := check(sr.ctx); err != nil {
		return Result{}, err
	}
	f := func(u float64) (float64, error) { return sr.eval(ps, u) }
	seen := func() []scalar.Point { return ps.pts }
	if !ok {
		neg := func(u float64) (float64, error) {
			v, err := f(u)
			return -v, err
		}
		br, err := scalar.BracketMin(neg, sr.predict(pattern), bracketStep)
		if err != nil {
			return Result{}, fmt.Errorf("multilevel: interval search for pattern %v: %w", pattern, err)
		}
		ps.lo, ps.hi = min(br.A, br.B), max(br.A, br.B)
		sr.pats[key] = ps
		sr.order = append(sr.order, ps)
	}
	x, fx, err := scalar.MaximizeSeen(f, seen, ps.lo, ps.hi, tol)
	if err != nil {
		return Result{}, fmt.Errorf("multilevel: interval search for pattern %v: %w", pattern, err)
	}
	ps.best, ps.tol = scalar.Point{X: x, F: fx}, tol
	return ps.res[x], nil
}

// eval returns UWT of ps's pattern at I = e^u, evaluating the model once
// for each u.
func (sr *searcher) eval(ps *patternSearch, u float64) (float64, error) {
	if r, ok := ps.res[u]; ok {
		return r.UWT, nil
	}
	sr.evals++
	r, err := sr.m.Evaluate(ps.pattern, math.Exp(u))
	if err != nil {
		return 0, err
	}
	ps.res[u] = r
	p := scalar.Point{X: u, F: r.UWT}
	i, _ := slices.BinarySearchFunc(ps.pts, p, func(a, b scalar.Point) int { return cmp.Compare(a.X, b.X) })
	ps.pts = slices.Insert(ps.pts, i, p)
	return r.UWT, nil
}

// predict returns the predicted optimal ln I of pattern: the first-order
// interval of the pattern (Benoit et al., package intervals), shifted by
// how far the nearest pattern searched so far (in the sum of the entries'
// differences; the first searched on ties) has its optimum from its own
// first-order interval. Without a first-order interval, the nearest
// pattern's optimum; without a searched pattern, the first-order
// interval, or an hour.
func (sr *searcher) predict(pattern []int) float64 {
	fo, foOK := sr.firstOrderLog(pattern)
	var near *patternSearch
	dist := math.MaxInt
	for _, ps := range sr.order {
		d := 0
		for i, v := range ps.pattern {
			d += max(v-pattern[i], pattern[i]-v)
		}
		if d < dist {
			near, dist = ps, d
		}
	}
	switch {
	case near == nil && foOK:
		return fo
	case near == nil:
		return math.Log(3600)
	}
	if nearFO, ok := sr.firstOrderLog(near.pattern); ok && foOK {
		return fo + near.best.X - nearFO
	}
	return near.best.X
}

// firstOrderLog returns ln of the first-order interval of pattern
// (intervals.MultiLevelWaste with the overheads as costs) and whether it
// is a finite positive interval.
func (sr *searcher) firstOrderLog(pattern []int) (float64, bool) {
	m := sr.m
	L := len(m.proc.Levels)
	costs, rates := make([]float64, L), make([]float64, L)
	for l, lv := range m.proc.Levels {
		costs[l] = math.Max(lv.Overhead, 1e-9)
		rates[l] = m.proc.Rate * m.proc.Severity[l]
	}
	s, err := intervals.MultiLevelWaste(costs, rates, nil, pattern)
	if err != nil || !(s.Interval > 0) || math.IsInf(s.Interval, 0) {
		return 0, false
	}
	return math.Log(s.Interval), true
}

// polish returns the best pattern to the accuracy OptimizeSettings.Tol:
// every searched pattern whose maximum could exceed the best loose UWT
// (upper) is searched to Tol, and the best of them returned (the first
// searched on ties).
func (sr *searcher) polish() (Result, error) {
	top := math.Inf(-1)
	for _, ps := range sr.order {
		top = max(top, ps.best.F)
	}
	var best Result
	for _, ps := range sr.order {
		if ps.upper() < top {
			continue
		}
		r, err := sr.best(ps.pattern)
		if err != nil {
			return Result{}, err
		}
		if best.Pattern == nil || r.UWT > best.UWT {
			best = r
		}
	}
	return best, nil
}

// upper bounds the maximum of ps's UWT from its evaluations, UWT concave
// in ln I near its maximum: between the best evaluation x and its
// neighbours a < x < c, the slope is at most the secant's through the
// neighbour on the other side, so the maximum is at most f(x) plus the
// larger of (c − x)·(f(x) − f(a))/(x − a) and (x − a)·(f(x) − f(c))/(c − x).
// It is +Inf when x has no evaluated neighbour on a side.
func (ps *patternSearch) upper() float64 {
	i, found := slices.BinarySearchFunc(ps.pts, ps.best, func(a, b scalar.Point) int { return cmp.Compare(a.X, b.X) })
	if !found || i == 0 || i == len(ps.pts)-1 {
		return math.Inf(1)
	}
	a, x, c := ps.pts[i-1], ps.pts[i], ps.pts[i+1]
	return x.F + max((c.X-x.X)*(x.F-a.F)/(x.X-a.X), (x.X-a.X)*(x.F-c.F)/(c.X-x.X))
}
