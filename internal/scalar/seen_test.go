package scalar

import (
	"errors"
	"math"
	"slices"
	"testing"
)

// memo records the evaluations of f, as a costly model does for
// MaximizeSeen and CrossingSeen.
type memo struct {
	f     func(float64) float64
	pts   map[float64]float64
	fails int // the call that fails (0: none)
	calls int
}

func newMemo(f func(float64) float64) *memo { return &memo{f: f, pts: map[float64]float64{}} }

var errBoom = errors.New("boom")

func (m *memo) eval(x float64) (float64, error) {
	if m.calls++; m.calls == m.fails {
		return 0, errBoom
	}
	if v, ok := m.pts[x]; ok {
		return v, nil
	}
	v := m.f(x)
	m.pts[x] = v
	return v, nil
}

func (m *memo) seen() []Point {
	pts := make([]Point, 0, len(m.pts))
	for x, v := range m.pts {
		pts = append(pts, Point{x, v})
	}
	slices.SortFunc(pts, func(a, b Point) int { return cmpFloat(a.X, b.X) })
	return pts
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// seenCases are functions of u = ln x with a maximum known in closed
// form (the cases of TestMaximizeClosedForm) and a level crossing on
// each side, found here by the closed form's own root (by Root, a second
// algorithm, where it has none).
var seenCases = []struct {
	name string
	f    func(x float64) float64
	want float64
}{
	{"x e^-x", func(x float64) float64 { return x * math.Exp(-x) }, 1},
	{"x^3 e^-x/7", func(x float64) float64 { return x * x * x * math.Exp(-x/7) }, 21},
	{"segment λ=1e-4 c=60", func(x float64) float64 { return math.Exp(-1e-4*(x+60)) * x / (x + 60) },
		(-60 + math.Sqrt(60*60+4*60/1e-4)) / 2},
}

// TestMaximizeSeen checks the search that reuses every evaluation on the
// closed-form maxima, from the doubling scan's bracket [want/4, want·4]
// (seeded with the scan's three points, the middle one better than the
// ends), to MaximizeSeen's stated accuracy.
func TestMaximizeSeen(t *testing.T) {
	for _, tc := range seenCases {
		for _, off := range []float64{0.5, 1.3, 1.9} {
			g := func(u float64) float64 { return tc.f(math.Exp(u)) }
			m := newMemo(g)
			a, b, x := math.Log(tc.want/4), math.Log(tc.want*4), math.Log(tc.want*off)
			for _, p := range []float64{a, x, b} {
				m.eval(p)
			}
			if !(g(x) > g(a) && g(x) > g(b)) {
				t.Fatalf("%s: start %v·want does not bracket the maximum", tc.name, off)
			}
			const tol = 1e-4
			u, fu, err := MaximizeSeen(m.eval, m.seen, a, b, tol)
			if err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
			// Within 2·tol₁ of the maximiser, up to the flatness of f at
			// its top (as in TestMaximizeClosedForm).
			uw, h := math.Log(tc.want), 1e-3
			guu := (g(uw+h) - 2*g(uw) + g(uw-h)) / (h * h)
			flat := math.Sqrt(2 * 0x1p-52 * g(uw) / math.Abs(guu))
			if d := math.Abs(u - uw); d > 2*(tol/3+1e-10*math.Abs(uw))+flat {
				t.Errorf("%s from %v·want: argmax e^%v, want %v (|Δu| = %v)", tc.name, off, u, tc.want, d)
			}
			if fu != g(u) || fu > g(uw)*(1+1e-14) {
				t.Errorf("%s: value %v at %v, f there %v, max %v", tc.name, fu, u, g(u), g(uw))
			}
		}
	}
}

// TestCrossingSeen checks the crossings of the level 0.99·max on both
// sides of the maximum of each case, against Root on the same function
// to 1e-14, after seeding the memo with a doubling scan as uwt.Optimize
// does.
func TestCrossingSeen(t *testing.T) {
	for _, tc := range seenCases {
		g := func(u float64) float64 { return tc.f(math.Exp(u)) }
		m := newMemo(g)
		uw := math.Log(tc.want)
		for k := -4; k <= 4; k++ {
			m.eval(uw + float64(k)*math.Ln2 + 0.1)
		}
		top := Point{uw, g(uw)}
		m.eval(uw)
		level := 0.99 * top.F
		const xTol = 1e-3
		fTol := xTol * (top.F - level)
		for _, dir := range []float64{-1, 1} {
			got, err := CrossingSeen(m.eval, m.seen, top, dir, level, xTol, fTol)
			if err != nil {
				t.Fatalf("%s dir %v: %v", tc.name, dir, err)
			}
			h := func(u float64) (float64, error) { return g(u) - level, nil }
			far := uw + dir*4*math.Ln2
			want, err := Root(h, uw, far, top.F-level, g(far)-level, 1e-14)
			if err != nil {
				t.Fatal(err)
			}
			// Located to xTol in u, or to fTol in f: |Δu| ≤ fTol/|f′|.
			slope := math.Abs(g(want+1e-6)-g(want-1e-6)) / 2e-6
			if d := math.Abs(got - want); d > xTol && d > 1.01*fTol/slope {
				t.Errorf("%s dir %v: crossing %v, want %v (|Δu| = %v)", tc.name, dir, got, want, d)
			}
		}
	}
}

// TestSeenErrors checks that an error of f on any call is returned
// unchanged, and that CrossingSeen without a point below the level says
// so.
func TestSeenErrors(t *testing.T) {
	hump := func(u float64) float64 { return -(u - 1) * (u - 1) }
	runs := map[string]func(m *memo) error{
		"MaximizeSeen": func(m *memo) error {
			for _, p := range []float64{-3, 0, 4} {
				m.pts[p] = hump(p)
			}
			_, _, err := MaximizeSeen(m.eval, m.seen, -3, 4, 1e-9)
			return err
		},
		"CrossingSeen": func(m *memo) error {
			for _, p := range []float64{1, 5} {
				m.pts[p] = hump(p)
			}
			_, err := CrossingSeen(m.eval, m.seen, Point{1, 0}, 1, -1, 1e-12, 1e-15)
			return err
		},
	}
	for name, run := range runs {
		m := newMemo(hump)
		if err := run(m); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		calls := m.calls
		if calls == 0 {
			t.Fatalf("%s made no call", name)
		}
		for k := 1; k <= calls; k++ {
			m := newMemo(hump)
			m.fails = k
			if err := run(m); !errors.Is(err, errBoom) {
				t.Errorf("%s, failing call %d of %d: %v", name, k, calls, err)
			}
		}
	}
	m := newMemo(hump)
	m.pts[1], m.pts[1.5] = 0, -0.25
	if _, err := CrossingSeen(m.eval, m.seen, Point{1, 0}, 1, -1, 1e-9, 1e-12); !errors.Is(err, ErrNoBracket) {
		t.Errorf("CrossingSeen with nothing below the level: %v", err)
	}
}
