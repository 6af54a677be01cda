package multilevel

import (
	"context"
	"fmt"
	"math"

	"github.com/ckpt-markov/markov/internal/scalar"
	"github.com/ckpt-markov/markov/intervals"
)

// OptimizeSettings configures Model.Optimize. A nil *OptimizeSettings
// searches the pattern (or takes the scenario's checkpoint_pattern) with
// DefaultTol and DefaultMaxPatterns.
type OptimizeSettings struct {
	// Pattern fixes the pattern: only the interval is optimised. Nil
	// means the scenario's checkpoint_pattern, or, without one, a search.
	Pattern []int
	// Tol is the relative accuracy of the optimal interval; zero means
	// DefaultTol.
	Tol float64
	// MaxPatterns bounds the patterns whose interval is optimised; zero
	// means DefaultMaxPatterns.
	MaxPatterns int
}

const (
	// DefaultTol is the default relative accuracy of the interval: UWT is
	// flat at its maximum, so 1e-6 in I is far below any difference in
	// UWT that matters (second order: ≈1e-12 relative).
	DefaultTol = 1e-6
	// DefaultMaxPatterns bounds the pattern search: each pattern costs
	// an interval search of about six evaluations (five to eight in the
	// benchmarks) of O(L² log V) each on a fixed count, so 10⁴ patterns
	// take well under a second there.
	DefaultMaxPatterns = 10_000
)

// Optimum is the best schedule Model.Optimize found.
type Optimum struct {
	Result
	// SingleLevel is the best schedule with the highest level only
	// (V = 0): the single-level schedule on the same system.
	SingleLevel Result
	// FirstOrder is Benoit et al.'s first-order schedule (package
	// intervals) the search starts from; zero for one level.
	FirstOrder intervals.MultiLevelSchedule
	// Patterns is the number of patterns whose interval was optimised,
	// Evaluations the number of model evaluations.
	Patterns, Evaluations int
	// Fixed says that the pattern was given, not searched.
	Fixed bool
}

// Optimize returns the pattern and interval that maximise UWT: for each
// pattern, the interval in ln I (a bracket from the interval predicted by
// the first-order schedule and the patterns searched so far, then
// scalar.MaximizeSeen through every evaluation of the pattern); over
// patterns, a coordinate search on the integers (documented in
// docs/model.md section 12): from the first-order pattern and from V = 0,
// each entry in turn is moved by doubling steps while UWT rises and then
// narrowed by golden-section steps on the integers (scalar.MaximizeInt),
// until no entry moves. Patterns are compared with their intervals to
// looseTol; the best, and every pattern whose bound could reach it, is
// then searched to Tol. It assumes UWT unimodal in I for a pattern and
// in each entry of the pattern with the others fixed, as it is in every
// case tested.
func (m *Model) Optimize(ctx context.Context, s *OptimizeSettings) (Optimum, error) {
	set := OptimizeSettings{Tol: DefaultTol, MaxPatterns: DefaultMaxPatterns}
	if s != nil {
		set.Pattern = s.Pattern
		if s.Tol != 0 {
			set.Tol = s.Tol
		}
		if s.MaxPatterns != 0 {
			set.MaxPatterns = s.MaxPatterns
		}
	}
	if !(set.Tol > 0 && set.Tol < 1) || set.MaxPatterns < 1 {
		return Optimum{}, fmt.Errorf("multilevel: OptimizeSettings: Tol %v, MaxPatterns %d, want 0 < Tol < 1 and MaxPatterns ≥ 1", set.Tol, set.MaxPatterns)
	}
	if set.Pattern == nil {
		set.Pattern = m.pattern
	}
	L := len(m.proc.Levels)
	sr := newSearcher(ctx, m, set.Tol, set.MaxPatterns)
	var out Optimum
	if L > 1 {
		fo, err := m.FirstOrder()
		if err != nil {
			return Optimum{}, err
		}
		out.FirstOrder = fo
	}
	zero := make([]int, L-1)
	single, err := sr.best(zero)
	if err != nil {
		return Optimum{}, err
	}
	var best Result
	switch {
	case set.Pattern != nil:
		if err := CheckPattern(set.Pattern, L); err != nil {
			return Optimum{}, err
		}
		if best, err = sr.best(set.Pattern); err != nil {
			return Optimum{}, err
		}
		out.Fixed = true
	case L == 1:
		best = single
	default:
		for _, start := range [][]int{out.FirstOrder.Pattern, zero} {
			if err := sr.climb(start); err != nil {
				return Optimum{}, err
			}
		}
		if best, err = sr.polish(); err != nil {
			return Optimum{}, err
		}
	}
	out.Result, out.SingleLevel = best, single
	out.Patterns, out.Evaluations = len(sr.pats), sr.evals
	return out, nil
}

// FirstOrder returns Benoit et al.'s first-order schedule for the
// model's levels and severity rates (package intervals), the checkpoint
// costs being the overheads.
func (m *Model) FirstOrder() (intervals.MultiLevelSchedule, error) {
	L := len(m.proc.Levels)
	costs, rates, rec := make([]float64, L), make([]float64, L), make([]float64, L)
	for l, lv := range m.proc.Levels {
		costs[l] = math.Max(lv.Overhead, 1e-9)
		rates[l] = m.proc.Rate * m.proc.Severity[l]
		rec[l] = lv.Recovery
	}
	if L == 1 || rates[0] == 0 {
		return intervals.MultiLevelSchedule{Pattern: make([]int, L-1)}, nil
	}
	return intervals.BenoitMultiLevel(costs, rates, rec)
}

// climb is the coordinate search from start, on the loose maxima of the
// patterns: each entry in turn is maximised on the integers with the
// others fixed, until none moves.
func (sr *searcher) climb(start []int) error {
	v := append([]int(nil), start...)
	if _, err := sr.loose(v); err != nil {
		return err
	}
	for moved := true; moved; {
		moved = false
		for l := range v {
			g := func(x int) (float64, error) {
				w := append([]int(nil), v...)
				w[l] = x
				r, err := sr.loose(w)
				return r.UWT, err
			}
			x, err := scalar.MaximizeInt(g, v[l], MaxPatternEntry)
			if err != nil {
				return err
			}
			if x != v[l] {
				v[l], moved = x, true
			}
		}
	}
	return nil
}

// Band returns the near-optimal band of the pattern of best: the
// intervals around best.Interval whose UWT is within the fraction frac
// of best.UWT (the Illinois regula falsi of internal/scalar in ln I on
// each side, from doubling steps out of the band). An end that UWT never
// falls below the level within a factor 2⁴⁰ is returned infinite (or 0).
func (m *Model) Band(best Result, frac float64) (lo, hi float64, err error) {
	if !(frac > 0 && frac < 1) {
		return 0, 0, fmt.Errorf("multilevel: band fraction %v, want one in (0, 1)", frac)
	}
	level := (1 - frac) * best.UWT
	f := func(u float64) (float64, error) {
		r, err := m.Evaluate(best.Pattern, math.Exp(u))
		return r.UWT, err
	}
	in := math.Log(best.Interval)
	side := func(dir float64) (float64, error) {
		step := dir * math.Ln2 / 8
		for k := 0; k < 40*8; k++ {
			out := in + step
			v, err := f(out)
			if err != nil {
				return 0, err
			}
			if v < level {
				u, err := scalar.LevelCrossing(f, in, out, best.UWT, v, level, 1e-6)
				return math.Exp(u), err
			}
			step *= 2
			if math.Abs(step) > 40*math.Ln2 {
				break
			}
		}
		return math.Exp(dir * math.Inf(1)), nil
	}
	if lo, err = side(-1); err != nil {
		return 0, 0, err
	}
	hi, err = side(1)
	return lo, hi, err
}
