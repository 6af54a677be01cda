package batchchain

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/ckpt-markov/markov/birthdeath"
	"gonum.org/v1/gonum/mat"
)

const hour = 3600.0

// Entries are probabilities (or times divided by t), so comparisons are
// absolute; 1e-12 is the agreement target (issue 13, "Done when").
const agreeTol = 1e-12

// singleCases are (n, a, λ, θ, t) points for the k ≡ 1 oracle, chosen to
// cover few and many spares, slow and fast repairs, short and long
// segments (λ, θ, t in units where the products are what matter).
var singleCases = []struct {
	n, a          int
	lambda, theta float64
	t             float64
}{
	{1, 1, 1, 2, 0.5},
	{3, 1, 1, 1, math.Ln2},
	{6, 2, 0.3, 1.1, 0.7},
	{12, 4, 1, 4, 2},
	{20, 20, 0.2, 0.1, 5},
	{33, 9, 1.0 / 8, 1.0 / 4, 1},
	{40, 1, 1e-3, 1, 4},
	{40, 30, 1, 3, 0.2},
	{64, 48, 1 / (8 * hour), 1 / hour, hour},
}

// TestSingleSizeMatchesClosedForm is the first oracle: with K ≡ 1 the batch
// chain is the birth–death chain of package birthdeath, and P_t = e^{−aλt}
// times its P_t, Q_t[s, a−1+s'] its Q_t(aλ)[s, s'] (the failure of a used
// processor leaves a − 1 + s' functional), τ = (1 − e^{−aλt})/(aλ). Checked
// for the dense Van Loan path and for Rows (uniformization), whole and
// windowed.
func TestSingleSizeMatchesClosedForm(t *testing.T) {
	for _, tc := range singleCases {
		name := fmt.Sprintf("n=%d,a=%d,λ=%g,θ=%g,t=%g", tc.n, tc.a, tc.lambda, tc.theta, tc.t)
		m := tc.n - tc.a
		bd, err := birthdeath.New(m, tc.lambda, tc.theta)
		if err != nil {
			t.Fatal(err)
		}
		rho := float64(tc.a) * tc.lambda
		blk, err := bd.Rows(0, m+1, tc.t, rho, 0)
		if err != nil {
			t.Fatal(err)
		}
		wantP := mat.NewDense(m+1, m+1, nil)
		wantQ := mat.NewDense(m+1, tc.n, nil)
		for _, r := range blk.Rows {
			for i := range r.P {
				wantP.Set(r.S, r.Lo+i, blk.Survival*r.P[i])
				wantQ.Set(r.S, tc.a-1+r.Lo+i, r.Q[i])
			}
		}
		wantTau := -math.Expm1(-rho*tc.t) / rho

		// The sizes [1, 0, 0] must behave exactly as [1].
		for _, sizes := range [][]float64{{1}, []float64{1, 0, 0}[:min(3, tc.n)]} {
			c, err := New(tc.n, tc.a, tc.lambda, tc.theta, sizes)
			if err != nil {
				t.Fatal(err)
			}
			var p, q mat.Dense
			tau := make([]float64, m+1)
			if err := c.Transition(&p, &q, tau, tc.t); err != nil {
				t.Fatal(err)
			}
			compareDense(t, name+" dense", &p, wantP, agreeTol)
			compareDense(t, name+" dense Q", &q, wantQ, agreeTol)
			for s, v := range tau {
				if math.Abs(v-wantTau) > agreeTol*tc.t {
					t.Errorf("%s: dense τ[%d] = %v, want %v", name, s, v, wantTau)
				}
			}
			for _, tol := range []float64{0, 1e-14} {
				rows, err := c.Rows(0, m+1, tc.t, tol)
				if err != nil {
					t.Fatal(err)
				}
				for _, r := range rows {
					checkRow(t, fmt.Sprintf("%s rows tol=%g", name, tol), r, wantP.RawRowView(r.S), wantQ.RawRowView(r.S), wantTau, tc.t, tol)
				}
			}
		}
	}
}

// checkRow compares a Row with reference full rows. The contract of Rows:
// the row only misses mass (each entry at most agreeTol above the
// reference), and the mass it misses, in the windows and outside them, is
// at most Dropped (+ agreeTol), which is at most tol (+ the Poisson
// truncation); the sojourn misses at most Dropped·t. With Dropped below
// agreeTol this is agreement entry by entry to agreeTol.
func checkRow(t *testing.T, name string, r Row, p, q []float64, tau, tt, tol float64) {
	t.Helper()
	var missing float64
	check := func(what string, got []float64, lo int, want []float64) {
		for j, v := range want {
			if j < lo || j >= lo+len(got) {
				missing += v
				continue
			}
			g := got[j-lo]
			if g > v+agreeTol || g < v-r.Dropped-agreeTol {
				t.Errorf("%s: %s[%d,%d] = %v, want %v (diff %.2g, Dropped %.2g)", name, what, r.S, j, g, v, g-v, r.Dropped)
			}
			missing += v - g
		}
	}
	check("P", r.P, r.Lo, p)
	check("Q", r.Q, r.QLo, q)
	if missing > r.Dropped+agreeTol {
		t.Errorf("%s: row %d: missing mass %v exceeds Dropped = %v", name, r.S, missing, r.Dropped)
	}
	if r.Dropped > tol+4*poissonCut {
		t.Errorf("%s: row %d: Dropped = %v exceeds tol = %v", name, r.S, r.Dropped, tol)
	}
	if d := tau - r.Sojourn; d > (agreeTol+r.Dropped)*math.Max(tt, 1) || d < -agreeTol*math.Max(tt, 1) {
		t.Errorf("%s: row %d: Sojourn = %v, want %v", name, r.S, r.Sojourn, tau)
	}
}

func compareDense(t *testing.T, name string, got, want *mat.Dense, tol float64) {
	t.Helper()
	r, c := want.Dims()
	if gr, gc := got.Dims(); gr != r || gc != c {
		t.Fatalf("%s: %d×%d, want %d×%d", name, gr, gc, r, c)
	}
	for i := range r {
		for j := range c {
			if d := math.Abs(got.At(i, j) - want.At(i, j)); d > tol {
				t.Errorf("%s: [%d,%d] = %v, want %v (diff %.2g)", name, i, j, got.At(i, j), want.At(i, j), d)
			}
		}
	}
}

// handN3 is the generator of N = 3 processors, a = 1 used, sizes
// P(K=1) = P(K=2) = 1/2 (E[K] = 3/2, event rate λe = λ/(3/2) per functional
// processor), written out from the definitions of docs/model.md section 11:
//
//	j = 0 (f = 1): every event takes the used one: → n' = 0 at λe;
//	               repairs → j = 1 at 2θ.
//	j = 1 (f = 2): K = 1 hits the used one w.p. 1/2: → n' = 1 at 2λe·½·½,
//	               else the spare: → j = 0 at 2λe·½·½; K = 2 takes both:
//	               → n' = 0 at 2λe·½; repair → j = 2 at θ.
//	j = 2 (f = 3): K = 1: the used one w.p. 1/3: → n' = 2 at 3λe·½·⅓,
//	               a spare: → j = 1 at 3λe·½·⅔; K = 2: both spares w.p.
//	               C(2,2)/C(3,2) = ⅓: → j = 0 at 3λe·½·⅓, else → n' = 1 at
//	               3λe·½·⅔.
func handN3(lambda, theta float64) (a, b *mat.Dense) {
	le := lambda / 1.5
	a = mat.NewDense(3, 3, []float64{
		-(le + 2*theta), 2 * theta, 0,
		0.5 * le, -(2*le + theta), theta,
		0.5 * le, le, -3 * le,
	})
	b = mat.NewDense(3, 3, []float64{
		le, 0, 0,
		le, 0.5 * le, 0,
		0, le, 0.5 * le,
	})
	return a, b
}

// TestHandBuiltN3 is the second oracle: the N = 3 chain with batches of 2
// written out by hand, its P_t, Q_t and τ computed with gonum's own
// mat.Dense.Exp (another implementation of the exponential) of the Van
// Loan block, against Generator, Transition and Rows.
func TestHandBuiltN3(t *testing.T) {
	for _, tc := range []struct{ lambda, theta, t float64 }{
		{1, 1, 1},
		{1 / (8 * hour), 1 / hour, hour},
		{0.3, 2, 5},
		{2, 0.01, 0.1},
	} {
		name := fmt.Sprintf("λ=%g,θ=%g,t=%g", tc.lambda, tc.theta, tc.t)
		ha, hb := handN3(tc.lambda, tc.theta)
		c, err := New(3, 1, tc.lambda, tc.theta, []float64{0.5, 0.5})
		if err != nil {
			t.Fatal(err)
		}
		ga, gb := c.Generator()
		scale := 3*tc.lambda + 2*tc.theta
		compareDense(t, name+" A", ga, ha, 1e-15*scale)
		compareDense(t, name+" B", gb, hb, 1e-15*scale)

		blk := mat.NewDense(7, 7, nil)
		for i := range 3 {
			for j := range 3 {
				blk.Set(i, j, ha.At(i, j)*tc.t)
				blk.Set(i, 3+j, hb.At(i, j)*tc.t)
			}
			blk.Set(i, 6, tc.t)
		}
		var e mat.Dense
		e.Exp(blk)
		wantP := mat.DenseCopyOf(e.Slice(0, 3, 0, 3))
		wantQ := mat.DenseCopyOf(e.Slice(0, 3, 3, 6))

		var p, q mat.Dense
		tau := make([]float64, 3)
		if err := c.Transition(&p, &q, tau, tc.t); err != nil {
			t.Fatal(err)
		}
		compareDense(t, name+" P", &p, wantP, agreeTol)
		compareDense(t, name+" Q", &q, wantQ, agreeTol)
		for s := range 3 {
			if d := math.Abs(tau[s] - e.At(s, 6)); d > agreeTol*tc.t {
				t.Errorf("%s: τ[%d] = %v, want %v", name, s, tau[s], e.At(s, 6))
			}
		}
		rows, err := c.Rows(0, 3, tc.t, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rows {
			checkRow(t, name+" rows", r, wantP.RawRowView(r.S), wantQ.RawRowView(r.S), e.At(r.S, 6), tc.t, 0)
		}
	}
}

// randomSizes draws a size law on 1..kmax with a random support.
func randomSizes(rnd *rand.Rand, kmax int) []float64 {
	s := make([]float64, kmax)
	for k := range s {
		if rnd.IntN(2) == 0 || k == kmax-1 {
			s[k] = rnd.Float64()
		}
	}
	return s
}

// TestRowsMatchDense holds Rows (uniformization on windows) against the
// dense Van Loan exponential (package expm), two independent algorithms,
// on random chains with sizes up to 8, and checks the row sums:
// Σ P + Σ Q = 1 exactly in law (the application is interrupted or not),
// so it must hold to rounding plus Dropped.
func TestRowsMatchDense(t *testing.T) {
	rnd := rand.New(rand.NewPCG(13, 2))
	trimmed := false
	for it := range 24 {
		rc := randomDenseChain(t, rnd, it)
		c, m, tt, name := rc.c, rc.m, rc.t, rc.name
		p, q, tau := &rc.p, &rc.q, rc.tau
		for s := 0; s <= m; s++ {
			sum := mat.Sum(p.Slice(s, s+1, 0, m+1)) + mat.Sum(q.Slice(s, s+1, 0, rc.c.N()))
			if math.Abs(sum-1) > agreeTol {
				t.Errorf("%s: dense row %d sums to 1 %+.2g", name, s, sum-1)
			}
			if tau[s] > tt*(1+1e-15) || tau[s] < 0 {
				t.Errorf("%s: τ[%d] = %v outside [0, t]", name, s, tau[s])
			}
		}
		for _, tol := range []float64{0, 1e-13, 1e-6} {
			rows, err := c.Rows(m/3, m+1, tt, tol)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range rows {
				checkRow(t, fmt.Sprintf("%s tol=%g", name, tol), r, p.RawRowView(r.S), q.RawRowView(r.S), tau[r.S], tt, tol)
				var sum float64
				for _, v := range r.Q {
					sum += v
				}
				if d := r.Survival + sum - 1; d > agreeTol || d < -(r.Dropped+agreeTol) {
					t.Errorf("%s tol=%g: row %d: Survival + ΣQ = 1 %+.2g, Dropped %.2g", name, tol, r.S, d, r.Dropped)
				}
				trimmed = trimmed || (tol > 0 && (len(r.P) < m+1 || r.Lo > 0))
			}
		}
	}
	if !trimmed {
		t.Error("no case used a window narrower than 0..m: the windowing was not tested")
	}
}

// TestRowsLargeWindow checks, at n = 400 (too large for the dense path in
// a unit test), that windowed rows agree with full-width rows (tol = 0, the
// same algorithm without windows) and that the windows are narrow.
func TestRowsLargeWindow(t *testing.T) {
	sizes := make([]float64, 16)
	sizes[0] = 0.5
	for k := 3; k < 16; k++ {
		sizes[k] = 0.5 / 13
	}
	c, err := New(400, 360, 1/(8*hour), 1/hour, sizes)
	if err != nil {
		t.Fatal(err)
	}
	full, err := c.Rows(30, 34, hour, 0)
	if err != nil {
		t.Fatal(err)
	}
	win, err := c.Rows(30, 34, hour, 1e-12)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range win {
		f := full[i]
		p := make([]float64, c.M()+1)
		copy(p[f.Lo:], f.P)
		q := make([]float64, c.N())
		copy(q[f.QLo:], f.Q)
		checkRow(t, "n=400", r, p, q, f.Sojourn, hour, 1e-12)
		if len(r.P) > 40 {
			t.Errorf("row %d: window of P has %d entries, want a narrow one", r.S, len(r.P))
		}
	}
}

// TestLoss checks the truncation of the size law at n functional processors.
func TestLoss(t *testing.T) {
	law := []float64{0.5, 0.25, 0.125, 0.125}
	for _, tc := range []struct {
		n    int
		want []float64
	}{
		{1, []float64{1}},
		{2, []float64{0.5, 0.5}},
		{3, []float64{0.5, 0.25, 0.25}},
		{4, law},
		{9, law},
	} {
		got := Loss(law, tc.n)
		if fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("Loss(n=%d) = %v, want %v", tc.n, got, tc.want)
		}
	}
}

// TestErrors checks that bad input gets an error, not a panic.
func TestErrors(t *testing.T) {
	for _, tc := range []struct {
		name          string
		n, a          int
		lambda, theta float64
		sizes         []float64
	}{
		{"n", 0, 1, 1, 1, []float64{1}},
		{"a zero", 3, 0, 1, 1, []float64{1}},
		{"a > n", 3, 4, 1, 1, []float64{1}},
		{"lambda", 3, 1, -1, 1, []float64{1}},
		{"theta", 3, 1, 1, math.NaN(), []float64{1}},
		{"no sizes", 3, 1, 1, 1, nil},
		{"sizes too long", 3, 1, 1, 1, []float64{0, 0, 0, 1}},
		{"negative size", 3, 1, 1, 1, []float64{1, -0.5}},
		{"zero sizes", 3, 1, 1, 1, []float64{0, 0}},
	} {
		if _, err := New(tc.n, tc.a, tc.lambda, tc.theta, tc.sizes); err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
	c, _ := New(4, 2, 1, 1, []float64{0.5, 0.5})
	for _, tc := range []struct {
		s0, s1 int
		t, tol float64
	}{{-1, 1, 1, 0}, {2, 1, 1, 0}, {0, 4, 1, 0}, {0, 1, -1, 0}, {0, 1, math.Inf(1), 0}, {0, 1, 1, 1}, {0, 1, 1, math.NaN()}} {
		if _, err := c.Rows(tc.s0, tc.s1, tc.t, tc.tol); err == nil {
			t.Errorf("Rows(%d, %d, %v, %v): no error", tc.s0, tc.s1, tc.t, tc.tol)
		}
	}
	if err := c.Transition(nil, nil, nil, math.NaN()); err == nil {
		t.Error("Transition(t = NaN): no error")
	}
	big, err := New(4000, 1, 1, 1, []float64{1})
	if err != nil {
		t.Fatal(err)
	}
	if err := big.Transition(nil, nil, nil, 1); err == nil {
		t.Error("Transition of order 8001: no error")
	}
}

// TestRowsOneRow holds rows computed one at a time (Rows(s, s+1), the
// recovery segments of a greedy policy, which take applyK's one-row
// path) against the dense Van Loan exponential, on random chains with
// sizes up to 8.
func TestRowsOneRow(t *testing.T) {
	rnd := rand.New(rand.NewPCG(20, 1))
	for it := range 16 {
		rc := randomDenseChain(t, rnd, it)
		c, m, tt, name := rc.c, rc.m, rc.t, rc.name
		p, q, tau := &rc.p, &rc.q, rc.tau
		for _, tol := range []float64{0, 1e-13, 1e-6} {
			for s := 0; s <= m; s++ {
				rows, err := c.Rows(s, s+1, tt, tol)
				if err != nil {
					t.Fatal(err)
				}
				checkRow(t, fmt.Sprintf("%s tol=%g", name, tol), rows[0], p.RawRowView(s), q.RawRowView(s), tau[s], tt, tol)
			}
		}
	}
}

// denseChain is a random chain of the Rows tests with its dense Van Loan
// transition (the oracle) at its segment length t.
type denseChain struct {
	c    *Chain
	m    int // spare slots n − a
	t    float64
	name string
	p, q mat.Dense
	tau  []float64
}

// randomDenseChain draws a chain of up to 41 processors with sizes up to
// 8, rates over e^[−3, 3] and t over e^[−3, 1], and computes its dense
// transition.
func randomDenseChain(t *testing.T, rnd *rand.Rand, it int) *denseChain {
	t.Helper()
	n := 2 + rnd.IntN(40)
	a := 1 + rnd.IntN(n)
	lambda := math.Exp(rnd.Float64()*4 - 2)
	theta := math.Exp(rnd.Float64()*6 - 3)
	tt := math.Exp(rnd.Float64()*4 - 3)
	sizes := randomSizes(rnd, min(2+rnd.IntN(7), n))
	d := &denseChain{m: n - a, t: tt, name: fmt.Sprintf("#%d n=%d a=%d λ=%.3g θ=%.3g t=%.3g sizes=%.2f", it, n, a, lambda, theta, tt, sizes)}
	var err error
	if d.c, err = New(n, a, lambda, theta, sizes); err != nil {
		t.Fatal(err)
	}
	d.tau = make([]float64, d.m+1)
	if err := d.c.Transition(&d.p, &d.q, d.tau, tt); err != nil {
		t.Fatal(err)
	}
	return d
}
