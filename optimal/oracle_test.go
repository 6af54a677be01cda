package optimal

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/ckpt-markov/markov/internal/testmodel"
	"github.com/ckpt-markov/markov/reschedule"
	"github.com/ckpt-markov/markov/scenario"
	"github.com/ckpt-markov/markov/uwt"
)

// oracleCase is a small scenario for the enumeration oracle. The
// parameter sets are chosen so that different hand-made policies win:
// docs/optimal-policy.md section 1 gives the wait-favouring one (5
// processors, MTTF 2 days, MTTR 1 h, linear speed-up: the best vector
// waits for all 5); the others are made up to favour greedy (long repairs,
// linear speed-up), PB (ω peaks below N) and a moldable count (ω jumps at
// a = 4). Costs: L(a) = 60 + 10a s, C(a) = L(a)/2 < L(a) and a recovery
// cost by new count R(a) = 30 + 5a s, unless stated.
type oracleCase struct {
	name       string
	n          int
	mttf, mttr float64
	work       []float64
}

// vectors enumerates every rescheduling vector that runs somewhere.
var vectors = testmodel.Vectors

func oracleCases() []oracleCase {
	const h, d = 3600.0, 86400.0
	return []oracleCase{
		{"greedy", 4, 1 * d, 2 * d, []float64{1, 2, 3, 4}},
		{"pb", 5, 12 * h, 2 * h, []float64{1, 1.8, 2.4, 2.2, 2.0}},
		{"moldable", 5, 1 * d, 30 * 60, []float64{0.2, 0.4, 0.6, 4, 4.1}},
		{"wait", 5, 2 * d, 1 * h, []float64{1, 2, 3, 4, 5}},
		{"six", 6, 8 * h, 4 * h, []float64{1, 1.9, 2.7, 3.4, 4.0, 4.5}},
	}
}

func (c oracleCase) scenario(t testing.TB, pol scenario.Policy) *scenario.Scenario {
	t.Helper()
	lat, ovh, rec := make([]float64, c.n), make([]float64, c.n), make([]float64, c.n)
	for a := 1; a <= c.n; a++ {
		lat[a-1] = 60 + 10*float64(a)
		ovh[a-1] = lat[a-1] / 2
		rec[a-1] = 30 + 5*float64(a)
	}
	sc, err := scenario.New(scenario.System{Processors: c.n, MTTF: c.mttf, MTTR: c.mttr},
		scenario.Application{WorkRate: c.work, Latency: lat, Overhead: ovh, Recovery: scenario.RecoveryByNew(rec)}, pol)
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// exactUWT is the existing model's UWT of vector r at interval I, on the
// exact path without pruning.
func exactUWT(t testing.TB, c oracleCase, r reschedule.Vector, interval float64) float64 {
	t.Helper()
	m, err := uwt.New(context.Background(), c.scenario(t, scenario.Policy{Kind: scenario.Explicit, Explicit: r}), &uwt.Settings{Exact: true, Prune: -1})
	if err != nil {
		t.Fatal(err)
	}
	res, err := m.Evaluate(context.Background(), interval)
	if err != nil {
		t.Fatal(err)
	}
	return res.UWT
}

func relDiff(a, b float64) float64 { return math.Abs(a-b) / math.Max(math.Abs(a), math.Abs(b)) }

// TestFixedIntervalEnumeration checks g*(I) against the largest UWT(I; r)
// of the existing model over all Π(n+1) vectors (docs/optimal-policy.md
// section 5, tolerance 1e-12 from the issue), and that g of the final
// policy equals the existing model's UWT of its vector.
func TestFixedIntervalEnumeration(t *testing.T) {
	ctx := context.Background()
	for _, c := range oracleCases() {
		if testing.Short() && c.n > 5 {
			continue
		}
		sv, err := New(c.scenario(t, scenario.Policy{}), &Settings{Full: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, interval := range []float64{600, 3600, 4 * 3600} {
			t.Run(fmt.Sprintf("%s/I=%g", c.name, interval), func(t *testing.T) {
				best, count := -1.0, 0
				var arg reschedule.Vector
				vectors(c.n, func(r reschedule.Vector) {
					count++
					if u := exactUWT(t, c, r, interval); u > best {
						best, arg = u, append(reschedule.Vector(nil), r...)
					}
				})
				res, err := sv.FixedInterval(ctx, interval)
				if err != nil {
					t.Fatal(err)
				}
				if d := relDiff(res.UWT, best); d > 1e-12 {
					vec, _ := res.Policy.Vector()
					t.Errorf("g*(I) = %.15g (r = %v), enumeration over %d vectors: %.15g (r = %v), rel. diff %.2g", res.UWT, vec, count, best, arg, d)
				}
				vec, err := res.Policy.Vector()
				if err != nil {
					t.Fatal(err)
				}
				if u := exactUWT(t, c, vec, interval); relDiff(res.UWT, u) > 1e-12 {
					t.Errorf("g = %.15g but uwt gives %.15g for r* = %v", res.UWT, u, vec)
				}
				if d := relDiff(res.UWT, res.RenewalReward); d > 1e-12 {
					t.Errorf("g = %.15g, renewal-reward ratio %.15g", res.UWT, res.RenewalReward)
				}
				t.Logf("g* = %.10g, r* = %v, %d iterations", res.UWT, vec, res.Iterations)
			})
		}
	}
}

// TestJointEnumeration checks level 2 (the best policy with one interval)
// against the best of the per-vector optima of the existing model's
// interval search, to 1e-9 (the tolerance), and that g equals
// uwt's UWT of (r*, I*) to 1e-12.
func TestJointEnumeration(t *testing.T) {
	if testing.Short() {
		t.Skip("per-vector interval searches")
	}
	ctx := context.Background()
	for _, c := range oracleCases() {
		if c.n > 5 {
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			best := -1.0
			var arg reschedule.Vector
			var argI float64
			vectors(c.n, func(r reschedule.Vector) {
				m, err := uwt.New(context.Background(), c.scenario(t, scenario.Policy{Kind: scenario.Explicit, Explicit: r}), &uwt.Settings{Exact: true, Prune: -1})
				if err != nil {
					t.Fatal(err)
				}
				// RelTol 1e-7 on I: UWT is flat at I*, so its error is of
				// order 1e-14, far below the 1e-9 checked.
				o, err := m.Optimize(ctx, &uwt.OptimizeSettings{RelTol: 1e-7})
				if err != nil {
					t.Fatal(err)
				}
				if o.UWT > best {
					best, arg, argI = o.UWT, append(reschedule.Vector(nil), r...), o.Interval
				}
			})
			sv, err := New(c.scenario(t, scenario.Policy{}), &Settings{Full: true})
			if err != nil {
				t.Fatal(err)
			}
			s, err := sv.SingleInterval(ctx, 0)
			if err != nil {
				t.Fatal(err)
			}
			vec, err := s.Policy.Vector()
			if err != nil {
				t.Fatal(err)
			}
			if d := relDiff(s.UWT, best); d > 1e-9 {
				t.Errorf("level 2: %.12g (r = %v, I = %.6g), best per-vector optimum %.12g (r = %v, I = %.6g): rel. diff %.2g",
					s.UWT, vec, s.Interval, best, arg, argI, d)
			}
			if u := exactUWT(t, c, vec, s.Interval); relDiff(u, s.UWT) > 1e-12 {
				t.Errorf("g = %.15g, uwt at (r*, I*) = %.15g", s.UWT, u)
			}
			t.Logf("level 2: %.10g, r* = %v, I* = %.6g (%d solves); enumeration %.10g at %v, %.6g", s.UWT, vec, s.Interval, s.Evaluations, best, arg, argI)
		})
	}
}

// TestOneProcessor checks N = 1 against the closed form of
// docs/model.md section 7: A(I) = λθ/(λ+θ)·(I + L − C)·e^{−λ(I+2L+R)} /
// (1 − e^{−λ(I+L)}), whose maximiser solves
// d/dI log A = 1/(I+L−C) − λ/(1 − e^{−λ(I+L)}) = 0 (found here by
// bisection: the left side falls in I).
func TestOneProcessor(t *testing.T) {
	for _, c := range []struct {
		mttf, mttr, l, cc, r float64
	}{
		// The model.md example's system and costs.
		{3600, 600, 60.6, 60.6, 30},
		{86400, 3600, 120, 40, 300},
		{8 * 3600, 4 * 3600, 30, 10, 0},
	} {
		lambda, theta := 1/c.mttf, 1/c.mttr
		closed := func(i float64) float64 {
			return lambda * theta / (lambda + theta) * (i + c.l - c.cc) * math.Exp(-lambda*(i+2*c.l+c.r)) / -math.Expm1(-lambda*(i+c.l))
		}
		dlog := func(i float64) float64 { return 1/(i+c.l-c.cc) + lambda/math.Expm1(-lambda*(i+c.l)) }
		lo, hi := 1e-3, 100*c.mttf
		for range 200 {
			mid := math.Sqrt(lo * hi)
			if dlog(mid) > 0 {
				lo = mid
			} else {
				hi = mid
			}
		}
		iStar := math.Sqrt(lo * hi)
		sc, err := scenario.New(scenario.System{Processors: 1, MTTF: c.mttf, MTTR: c.mttr},
			scenario.Application{WorkRate: []float64{1}, Latency: []float64{c.l}, Overhead: []float64{c.cc},
				Recovery: scenario.RecoveryConstant(c.r, 1)}, scenario.Policy{})
		if err != nil {
			t.Fatal(err)
		}
		sv, err := New(sc, &Settings{IntervalTol: 1e-9})
		if err != nil {
			t.Fatal(err)
		}
		s, err := sv.SingleInterval(context.Background(), 0)
		if err != nil {
			t.Fatal(err)
		}
		// A is flat at I*: an interval error δ changes A by O(δ²), and
		// the search stops at 1e-9 in log I; 1e-6 relative on I leaves
		// room for the rounding of A near its maximum.
		if d := relDiff(s.Interval, iStar); d > 1e-6 {
			t.Errorf("MTTF %g: I* = %.10g, closed form %.10g (rel. diff %.2g)", c.mttf, s.Interval, iStar, d)
		}
		if d := relDiff(s.UWT, closed(iStar)); d > 1e-12 {
			t.Errorf("MTTF %g: UWT = %.15g, closed form %.15g", c.mttf, s.UWT, closed(iStar))
		}
		ps, err := sv.PerState(context.Background(), s.Policy)
		if err != nil {
			t.Fatal(err)
		}
		if d := relDiff(ps.Policy.Interval(1, 0), iStar); d > 1e-5 {
			t.Errorf("MTTF %g: per-state I(1, 0) = %.10g, closed form %.10g", c.mttf, ps.Policy.Interval(1, 0), iStar)
		}
	}
}
