package multilevel

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/ckpt-markov/markov/expm"
	"github.com/ckpt-markov/markov/scenario"
)

// TestEventsStretch: the parts of a stretch of t seconds with failure
// events (events.go: e^{Ãt} and Φ(t) by expm.ExpIntegral, then Φ·C; and
// the stretch of I + L composed from those of I and L by the semigroup
// property) equal the direct route: e^{Ãt} by expm.Exp and
// ∫₀ᵗ e^{Ãu}du·C by expm.Integral (the Van Loan block of order
// 3(m + 1) + 2, C = [diag(b) | land | down | 1]), to 1e-12 of each oracle
// matrix's largest row sum (∞-norm), on the fixed-count chain and an up
// phase's (whose processor-down exits are not computed: nil), with
// crashes, several event sizes, spares and short and long t. A 1e-10
// relative error in one rate of a crash exit fails it.
func TestEventsStretch(t *testing.T) {
	pol := scenario.Policy{Kind: scenario.Moldable, Processors: 5}
	for _, tc := range []struct {
		name string
		sc   *scenario.Scenario
		a    int
		up   bool
	}{
		{"fixed count", withEvents(t, twoLevel(t, 9, 2e4, 4e3, []float64{0.6, 0.4}, pol), []float64{0.5, 0.3, 0.2}), 5, false},
		{"fixed count, no spare", withEvents(t, twoLevel(t, 5, 2e4, 4e3, []float64{0.6, 0.4}, pol), []float64{0.7, 0.3}), 5, false},
		{"no crash", withEvents(t, twoLevel(t, 8, 1e4, 8e3, []float64{0, 1}, pol), []float64{0.6, 0, 0.4}), 5, false},
		{"up phase", withEvents(t, threeLevel(t, 9, 3e4, 6e3, []float64{0.5, 0, 0.5}, pol), []float64{0.5, 0.5}), 4, true},
	} {
		ec, err := newEventChain(tc.sc, tc.a, tc.up)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range [][2]float64{{1e-3, 0}, {9, 0}, {600, 9}, {3e4, 438}, {2e5, 50}} {
			var got ephase
			if p[1] == 0 {
				got, err = ec.attempt(p[0])
			} else {
				var a, b stretch
				if a, err = ec.stretch(p[0]); err == nil {
					b, err = ec.stretch(p[1])
				}
				got = ec.phase(a.then(b))
			}
			if err != nil {
				t.Fatal(err)
			}
			checkStretch(t, tc.name, ec, p[0]+p[1], got)
		}
	}
}

// checkStretch compares got, the parts of a stretch of t seconds, with
// expm's direct route (TestEventsStretch).
func checkStretch(t *testing.T, name string, ec *eventChain, t0 float64, got ephase) {
	t.Helper()
	m1 := ec.m1
	var e, x mat.Dense
	var a mat.Dense
	a.Scale(t0, ec.gen)
	if err := expm.Exp(&e, &a, nil); err != nil {
		t.Fatal(err)
	}
	if err := expm.Integral(&x, ec.gen, ec.rhs, t0, 0, nil); err != nil {
		t.Fatal(err)
	}
	cmp := func(what string, g, w mat.Matrix, f float64) {
		var d mat.Dense
		d.Scale(f, w)
		if g == nil {
			if f != 0 && mat.Norm(&d, math.Inf(1)) > 0 {
				t.Errorf("%s t=%v %s: nil, want a nonzero matrix", name, t0, what)
			}
			return
		}
		tol := 1e-12 * mat.Norm(&d, math.Inf(1))
		d.Sub(g, &d)
		if n := mat.Norm(&d, math.Inf(1)); n > tol {
			t.Errorf("%s t=%v %s: off by %.3g (tolerance %.3g)", name, t0, what, n, tol)
		}
	}
	cmp("done", got.done, &e, 1)
	for s, f := range ec.sev {
		w := x.Slice(0, m1, m1, 2*m1)
		if s == 0 && len(ec.sev) > 1 {
			w = x.Slice(0, m1, 0, m1)
		}
		if s >= ec.dead {
			if got.exit[s] != nil {
				t.Errorf("%s t=%v: the unread exit %d is computed", name, t0, s)
			}
			continue
		}
		var g mat.Matrix
		if got.exit[s] != nil {
			g = got.exit[s]
		}
		cmp("exit", g, w, f)
	}
	run := mat.DenseCopyOf(x.Slice(0, m1, 2*m1+1, 2*m1+2))
	wall := mat.DenseCopyOf(x.Slice(0, m1, 2*m1, 2*m1+1))
	wall.Add(wall, run)
	cmp("run", got.run, run, 1)
	cmp("time", got.time, wall, 1)
}
