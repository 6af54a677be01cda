package optimal

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/ckpt-markov/markov/scenario"
)

// TestIntervalGainDerivative holds the derivative of the gain in one
// interval given by intervalGain (Σ_s π(U(a, s))·∂_x[w − g·τ + P·h] / Σπτ,
// no solve) against the central difference of the exact g of the policy
// with I(a) alone moved (two evaluations), at the level-2 policy (one
// interval everywhere, so the derivatives are not zero), for every
// configuration with mass at least 1e-3, with the same step d = 1e-4 on
// log I for both. Both differences err by O(d²) (a few 1e-9 of the
// largest derivative here) and g's by about ε|g|/d ≈ 1e-12·|g| from
// rounding: the tolerance is 1e-6 of the largest derivative, plus 1e-10
// of g. Power: the derivative of Σπ·w / Σπτ alone (the transitions and
// sojourns held at I(a)), and the formula with the sojourn Σπτ left out,
// each miss by more than the tolerance in some configuration.
func TestIntervalGainDerivative(t *testing.T) {
	ctx := context.Background()
	const d = 1e-4
	for _, c := range gradientCases(t) {
		t.Run(c.name, func(t *testing.T) {
			sv, err := New(c.sc, nil)
			if err != nil {
				t.Fatal(err)
			}
			single, err := sv.SingleInterval(ctx, 0)
			if err != nil {
				t.Fatal(err)
			}
			pol := single.Policy
			v, err := sv.evaluate(ctx, pol, false)
			if err != nil {
				t.Fatal(err)
			}
			uw, err := sv.weights(pol, v)
			if err != nil {
				t.Fatal(err)
			}
			gAt := func(b int, x float64) float64 {
				p := sv.clone(pol)
				setConf(p, b, math.Exp(x))
				vp, err := sv.evaluate(ctx, p, false)
				if err != nil {
					t.Fatal(err)
				}
				return vp.g
			}
			sc := new(rowScratch) // both calls into one storage, as propose does
			deriv := func(w *upWeights, b int, x float64) float64 {
				fp, err := sv.intervalGain(sc, v, w, b, math.Exp(x+d))
				if err != nil {
					t.Fatal(err)
				}
				fm, err := sv.intervalGain(sc, v, w, b, math.Exp(x-d))
				if err != nil {
					t.Fatal(err)
				}
				return (fp - fm) / (2 * d) / w.sojourn
			}
			// workOnly is the derivative of Σπ·w / Σπτ alone (the
			// transitions and sojourns held), a wrong model.
			workOnly := func(b int, x float64) float64 {
				a := sv.acts[b]
				s0, _ := sv.spares(a)
				lat := sv.sc.Application.Latency[a-1]
				f := func(x float64) float64 {
					rs, err := sv.rows(a, s0, s0+len(uw.pi[b]), math.Exp(x)+lat, math.Exp(x))
					if err != nil {
						t.Fatal(err)
					}
					s := 0.0
					for k, p := range uw.pi[b] {
						s += p * rs[k].w
					}
					return s
				}
				return (f(x+d) - f(x-d)) / (2 * d) / uw.sojourn
			}
			noSojourn := &upWeights{pi: uw.pi, sojourn: 1}
			type row struct{ exact, formula, work, noSoj float64 }
			var rows []row
			largest := 0.0
			for b, a := range sv.acts {
				if single.Mass[a] < 1e-3 {
					continue
				}
				x := math.Log(pol.interval[b][0])
				r := row{exact: (gAt(b, x+d) - gAt(b, x-d)) / (2 * d), formula: deriv(uw, b, x), work: workOnly(b, x), noSoj: deriv(noSojourn, b, x)}
				rows = append(rows, r)
				largest = max(largest, math.Abs(r.exact))
			}
			if len(rows) < 2 {
				t.Fatalf("%d configurations with mass ≥ 1e-3: too few", len(rows))
			}
			tol := 1e-6*largest + 1e-10*math.Abs(v.g)
			workMiss, sojMiss := false, false
			worst := 0.0
			for i, r := range rows {
				e := math.Abs(r.formula - r.exact)
				worst = max(worst, e)
				if e > tol {
					t.Errorf("configuration %d of those with mass: ∂g/∂log I = %.10g by the formula, %.10g by differences (error %.3g > %.3g)", i, r.formula, r.exact, e, tol)
				}
				workMiss = workMiss || math.Abs(r.work-r.exact) > tol
				sojMiss = sojMiss || math.Abs(r.noSoj-r.exact) > tol
			}
			if !workMiss || !sojMiss {
				t.Errorf("power: the work-only derivative rejected %v, weights without Σπτ rejected %v", workMiss, sojMiss)
			}
			t.Logf("%d configurations, largest derivative %.4g, largest error %.3g, tolerance %.3g", len(rows), largest, worst, tol)
		})
	}
}

// TestGradientMatchesCoordinateSearch holds levels 2 and 3 with
// reconfiguration at checkpoints, searched by gradient steps
// (singleSearch.climb, gradientAscend), against the searches they
// replaced (Brent's method on g*(I) and polish; the coordinate search
// ascend alone: gradientLevel2 and gradientLevel3 off) on every scenario
// with reconfiguration of the package's tests. Level 2: g* to 1e-10
// relative and I* within the width where g of its policy is flat to
// RelTol, as below (checkSingle). Level 3: g to 1e-10
// relative (RelTol), both at a coordinate-wise local optimum, and the
// same interval in every configuration with mass at least 1e-4 within
// the width over which g is flat to its tolerance: |Δlog I(a)| ≤
// 2·√(2·RelTol·|g| / |∂²g/∂(log I)²|) + 2·IntervalTol, the curvature from
// the second difference of the exact g (step 0.02) at the gradient's
// optimum. Power: the tolerance of the heaviest configuration is below
// 0.02 (an interval 2 % off would fail).
func TestGradientMatchesCoordinateSearch(t *testing.T) {
	ctx := context.Background()
	const d = 0.02
	for _, c := range reconfCases(t) {
		t.Run(c.name, func(t *testing.T) {
			levels := func(grad bool) Report {
				gradientLevel2, gradientLevel3 = grad, grad
				defer func() { gradientLevel2, gradientLevel3 = true, true }()
				return levelsOf(t, c.sc, c.set)
			}
			rg, rc := levels(true), levels(false)
			checkSingle(t, rg.Single, rc.Single, "gradient steps", "Brent's method")
			gr, co := rg.PerConfiguration, rc.PerConfiguration
			if e := relDiff(gr.UWT, co.UWT); e > 1e-10 {
				t.Errorf("level 3: g = %.15g by gradient steps, %.15g by coordinate search (rel. diff %.2g)", gr.UWT, co.UWT, e)
			}
			if !gr.Local || !co.Local {
				t.Errorf("Local: gradient %v, coordinate search %v", gr.Local, co.Local)
			}
			sv := gr.Policy.sv
			set := sv.set
			heavy, mh, compared, worst := 0, 0.0, 0, 0.0
			for a, m := range gr.Mass {
				if m > mh || (m == mh && a < heavy) {
					heavy, mh = a, m
				}
			}
			for a, m := range gr.Mass {
				if m < 1e-4 {
					continue
				}
				b := sv.aIdx[a]
				x := math.Log(gr.Intervals[a])
				gAt := func(x float64) float64 {
					p := sv.clone(gr.Policy)
					setConf(p, b, math.Exp(x))
					v, err := sv.evaluate(ctx, p, true)
					if err != nil {
						t.Fatal(err)
					}
					return v.g
				}
				curv := math.Abs(gAt(x+d)-2*gr.UWT+gAt(x-d)) / (d * d)
				tol := 2*math.Sqrt(2*set.RelTol*math.Abs(gr.UWT)/curv) + 2*set.IntervalTol
				ic, ok := co.Intervals[a]
				if !ok {
					t.Errorf("a = %d (mass %.3g): no interval from the coordinate search", a, m)
					continue
				}
				compared++
				dx := math.Abs(x - math.Log(ic))
				worst = max(worst, dx/tol)
				if dx > tol {
					t.Errorf("a = %d (mass %.3g): I = %.10g by gradient steps, %.10g by coordinate search (|Δlog I| %.3g > %.3g)", a, m, gr.Intervals[a], ic, dx, tol)
				}
				if a == heavy && tol >= 0.02 {
					t.Errorf("power: the tolerance on log I(%d), %.3g, would pass an interval 2 %% off", a, tol)
				}
			}
			if compared == 0 {
				t.Fatal("no configuration with mass ≥ 1e-4")
			}
			t.Logf("g %.15g / %.15g; %d intervals compared, largest |Δlog I| / tolerance %.3g", gr.UWT, co.UWT, compared, worst)
		})
	}
}

// checkSingle holds level 2 by one search (gr, named grName: gradient
// steps, say) against another (co, coName: Brent's method): g* to 1e-10 relative and |Δlog I*| ≤ 2·√(2·RelTol·|g| / |g”|) +
// 2·IntervalTol, g” the second difference (step 0.02 on log I) of the
// exact g of gr's policy with its one interval moved. Power: that
// tolerance is below 0.02.
func checkSingle(t *testing.T, gr, co Single, grName, coName string) {
	t.Helper()
	const d = 0.02
	if e := relDiff(gr.UWT, co.UWT); e > 1e-10 {
		t.Errorf("level 2: g* = %.15g by %s, %.15g by %s (rel. diff %.2g)", gr.UWT, grName, co.UWT, coName, e)
	}
	sv := gr.Policy.sv
	x := math.Log(gr.Interval)
	gAt := func(x float64) float64 {
		p := sv.clone(gr.Policy)
		for b := range p.interval {
			setConf(p, b, math.Exp(x))
		}
		v, err := sv.evaluate(context.Background(), p, true)
		if err != nil {
			t.Fatal(err)
		}
		return v.g
	}
	curv := math.Abs(gAt(x+d)-2*gr.UWT+gAt(x-d)) / (d * d)
	tol := 2*math.Sqrt(2*sv.set.RelTol*math.Abs(gr.UWT)/curv) + 2*sv.set.IntervalTol
	if dx := math.Abs(x - math.Log(co.Interval)); dx > tol {
		t.Errorf("level 2: I* = %.10g by %s, %.10g by %s (|Δlog I| %.3g > %.3g)", gr.Interval, grName, co.Interval, coName, dx, tol)
	}
	if tol >= d {
		t.Errorf("power: the tolerance on log I*, %.3g, would pass an interval 2 %% off", tol)
	}
	t.Logf("level 2: g* %.15g / %.15g, I* %.10g / %.10g (tolerance on log I %.3g); solves %d / %d", gr.UWT, co.UWT, gr.Interval, co.Interval, tol, gr.Evaluations, co.Evaluations)
}

// TestGradientFallback forces the fallbacks of the gradient searches (no
// step is tried: gradientHalvings = −1), so level 2 ends in polish from
// the best point of its scan and level 3 in the coordinate search
// (ascend): on the scenarios of TestPerConfigurationCoordinateOptimum
// and QR at N = 16, levels 2 and 3 must reach the g of the gradient
// searches to 1e-10 relative, level 3 with Local set, and level 2's I*
// off the scan's grid (without a step only polish moves it there).
func TestGradientFallback(t *testing.T) {
	for _, c := range gradientCases(t) {
		t.Run(c.name, func(t *testing.T) {
			levels := func() Report { return levelsOf(t, c.sc, nil) }
			want := levels()
			gradientHalvings = -1
			t.Cleanup(func() { gradientHalvings = 3 })
			got := levels()
			if e := relDiff(got.Single.UWT, want.Single.UWT); e > 1e-10 {
				t.Errorf("level 2: g* %.15g by the fallback, %.15g by gradient steps (rel. diff %.2g)", got.Single.UWT, want.Single.UWT, e)
			}
			if e := relDiff(got.PerConfiguration.UWT, want.PerConfiguration.UWT); e > 1e-10 || !got.PerConfiguration.Local {
				t.Errorf("level 3: g %.15g by the fallback (Local %v), %.15g by gradient steps (rel. diff %.2g)", got.PerConfiguration.UWT, got.PerConfiguration.Local, want.PerConfiguration.UWT, e)
			}
			// Without a step, only polish moves I* off the scan's grid.
			if k := math.Log(got.Single.Interval/300) / math.Ln2; math.Abs(k-math.Round(k)) < 1e-9 {
				t.Errorf("level 2: I* = %g is a point of the scan: the fallback did not search", got.Single.Interval)
			}
		})
	}
}

// TestClimbIterationLimit: level 2's climb with up states that is still
// rising after Settings.MaxIter steps says so (Status IterationLimit), with
// the best point so far; with the default limit it converges.
func TestClimbIterationLimit(t *testing.T) {
	const h = 3600.0
	sc := qrScenario(t, 16, 8*h, 4*h)
	sc.Reconfigure = scenario.AtCheckpoint
	for _, c := range []struct {
		maxIter int
		want    Status
	}{{2, IterationLimit}, {0, Converged}} {
		sv, err := New(sc, &Settings{MaxIter: c.maxIter})
		if err != nil {
			t.Fatal(err)
		}
		s, err := sv.SingleInterval(context.Background(), 0)
		if err != nil {
			t.Fatal(err)
		}
		if s.Status != c.want {
			t.Errorf("MaxIter %d: status %v, want %v (g* %.15g, I* %.9g)", c.maxIter, s.Status, c.want, s.UWT, s.Interval)
		}
	}
}

// TestPolishRoundLimit: level 2's polish that still rises after
// polishRounds rounds says so (Status IterationLimit) with the best
// result so far. The cases are those of TestGradientFallback with
// reconfiguration at checkpoints, with the fallback of climb
// (gradientHalvings = −1: level 2 ends in polish from the best point of
// its scan), and without reconfiguration (Brent's method on g*, then
// polish). With the default polishRounds every case converges. With one
// round, a case where the default ran more rounds (more solves:
// Evaluations counts one a round) must say IterationLimit, with g* not
// above the default's, and the others Converged with the default's
// result. Both kinds must occur, else one side of the limit is not
// tested.
func TestPolishRoundLimit(t *testing.T) {
	gradientHalvings = -1
	t.Cleanup(func() { gradientHalvings = 3 })
	t.Cleanup(func() { polishRounds = 10 })
	more, once := 0, 0
	for _, c := range gradientCases(t) {
		for _, reconf := range []scenario.Reconfigure{scenario.AtCheckpoint, scenario.Never} {
			sc := *c.sc
			sc.Reconfigure = reconf
			name := fmt.Sprintf("%s/%v", c.name, reconf)
			single := func(rounds int) Single {
				polishRounds = rounds
				sv, err := New(&sc, nil)
				if err != nil {
					t.Fatal(err)
				}
				s, err := sv.SingleInterval(context.Background(), 0)
				if err != nil {
					t.Fatal(err)
				}
				return s
			}
			all, one := single(10), single(1)
			if all.Status != Converged {
				t.Errorf("%s: status %v with 10 rounds, want Converged", name, all.Status)
			}
			want := Converged
			if all.Evaluations > one.Evaluations {
				want = IterationLimit
				more++
			} else {
				once++
				if one.UWT != all.UWT || one.Interval != all.Interval {
					t.Errorf("%s: one round (%d solves) gives g* %.15g, I* %.9g; all rounds (%d solves) %.15g, %.9g",
						name, one.Evaluations, one.UWT, one.Interval, all.Evaluations, all.UWT, all.Interval)
				}
			}
			if one.Status != want || one.UWT > all.UWT {
				t.Errorf("%s: g* %.15g, I* %.9g, status %v after one round (%.15g, %.9g after all): want status %v and g* not above",
					name, one.UWT, one.Interval, one.Status, all.UWT, all.Interval, want)
			}
		}
	}
	if more == 0 || once == 0 {
		t.Errorf("%d cases of more than one round, %d of one: the limit is tested on one side only", more, once)
	}
	t.Logf("%d cases of more than one round, %d of one", more, once)
}

// gradientCases are QR at N = 8, the desktop application at N = 12 and QR
// at N = 16 (MTTF 8 h, MTTR 4 h), with reconfiguration at checkpoints:
// the scenarios of the gradient searches' tests.
func gradientCases(t *testing.T) []solverCase {
	const h = 3600.0
	cs := []solverCase{
		{"qr8", qrScenario(t, 8, 8*h, 4*h), nil},
		{"large12", largeApp(t, 12, 8*h, 4*h), nil},
		{"qr16", qrScenario(t, 16, 8*h, 4*h), nil},
	}
	for _, c := range cs {
		c.sc.Reconfigure = scenario.AtCheckpoint
	}
	return cs
}
