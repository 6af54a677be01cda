package markov

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

var allMethods = []Method{Dense, Banded, Iterative}

// TestStationaryTwoState checks P = [[1−p, p], [q, 1−q]] against its closed
// form π = (q, p)/(p + q) (balance of the flow between the two states).
func TestStationaryTwoState(t *testing.T) {
	for _, tc := range []struct{ p, q float64 }{
		{0.3, 0.6},
		{1, 1},        // period 2
		{1e-9, 0.5},   // π_1 ≈ 2e-9: relative accuracy of a tiny entry
		{0.999, 1e-6}, // nearly absorbing state 1
	} {
		for _, m := range allMethods {
			tr := &triplets{n: 2}
			tr.add(0, 0, 1-tc.p)
			tr.add(0, 1, tc.p)
			tr.add(1, 0, tc.q)
			tr.add(1, 1, 1-tc.q)
			c := tr.build(t, nil)
			res, err := c.Stationary(&Settings{Method: m, Tol: 1e-15})
			if err != nil {
				t.Fatalf("p=%v q=%v %v: %v", tc.p, tc.q, m, err)
			}
			want := []float64{tc.q / (tc.p + tc.q), tc.p / (tc.p + tc.q)}
			// Rounding: 1−p is exact to 1 ulp and the direct solves are a
			// few operations deep, so a few ulps of relative error (1e-13
			// leaves a margin); the iterative method is held to its
			// residual.
			tol := 1e-13
			if m == Iterative {
				tol = 1e-9
			}
			if d := maxRelDiff(res.Pi, want); d > tol {
				t.Errorf("p=%v q=%v %v: π = %v, want %v (rel diff %.3g)", tc.p, tc.q, m, res.Pi, want, d)
			}
			if res.Method != m || res.Status != Converged {
				t.Errorf("p=%v q=%v: Method %v Status %v, want %v Converged", tc.p, tc.q, res.Method, res.Status, m)
			}
		}
	}
}

// birthDeath returns a birth–death chain on n states with up-probabilities
// up[i] (i → i+1) and down-probabilities down[i] (i → i−1), the rest
// staying put, and its stationary distribution from detailed balance:
// π_k ∝ Π_{i<k} up[i]/down[i+1], accumulated in logarithms.
func birthDeath(n int, up, down []float64) (*triplets, []float64) {
	t := &triplets{n: n}
	for i := 0; i < n; i++ {
		stay := 1.0
		if i < n-1 {
			t.add(i, i+1, up[i])
			stay -= up[i]
		}
		if i > 0 {
			t.add(i, i-1, down[i])
			stay -= down[i]
		}
		if stay > 1e-15 {
			t.add(i, i, stay)
		}
	}
	logPi := make([]float64, n)
	top := 0.0
	for k := 1; k < n; k++ {
		logPi[k] = logPi[k-1] + math.Log(up[k-1]) - math.Log(down[k])
		top = math.Max(top, logPi[k])
	}
	pi := make([]float64, n)
	for k := range pi {
		pi[k] = math.Exp(logPi[k] - top)
	}
	s := neumaierSum(pi)
	for k := range pi {
		pi[k] /= s
	}
	return t, pi
}

func TestStationaryBirthDeath(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	unif := func(lo, hi float64) float64 { return lo + (hi-lo)*rng.Float64() }
	for _, tc := range []struct {
		name    string
		n       int
		up      func(i, n int) float64
		down    func(i, n int) float64 // nil: 1 − up (no holding)
		period  int
		methods []Method
	}{
		{"random-10", 10, func(int, int) float64 { return unif(0.05, 0.45) }, func(int, int) float64 { return unif(0.05, 0.45) }, 1, allMethods},
		// Geometric π_k ∝ 2^-k over 60 states: entries down to 1e-18.
		{"geometric-60", 60, func(int, int) float64 { return 0.25 }, func(int, int) float64 { return 0.5 }, 1, allMethods},
		// Reflecting walk without holding: period 2.
		{"reflecting-41", 41, func(i, _ int) float64 {
			if i == 0 {
				return 1
			}
			return unif(0.3, 0.7)
		}, nil, 2, allMethods},
		// Random environment (a Sinai walk): log π is itself a random walk,
		// π spans hundreds of orders of magnitude and the chain is badly
		// conditioned; state reduction keeps relative accuracy.
		{"sinai-3000", 3000, func(int, int) float64 { return unif(0.05, 0.45) }, func(int, int) float64 { return unif(0.05, 0.45) }, 1, []Method{Banded}},
		// Ehrenfest-like drift to the middle: well conditioned.
		{"ehrenfest-3000", 3000, func(i, n int) float64 { return 0.4 * float64(n-1-i) / float64(n-1) * unif(0.9, 1.1) },
			func(i, n int) float64 { return 0.4 * float64(i) / float64(n-1) * unif(0.9, 1.1) }, 1, []Method{Banded, Iterative}},
	} {
		up := make([]float64, tc.n)
		down := make([]float64, tc.n)
		for i := range up {
			up[i] = tc.up(i, tc.n)
			if tc.down != nil {
				down[i] = tc.down(i, tc.n)
			} else {
				down[i] = 1 - up[i]
			}
		}
		if tc.down == nil {
			up[tc.n-1], down[tc.n-1] = 0, 1
		}
		tr, want := birthDeath(tc.n, up, down)
		c := tr.build(t, nil)
		for _, m := range tc.methods {
			res, err := c.Stationary(&Settings{Method: m, Tol: 1e-14})
			if err != nil {
				t.Fatalf("%s %v: %v", tc.name, m, err)
			}
			if res.Class.Period != tc.period || len(res.Class.States) != tc.n {
				t.Errorf("%s: class of %d states with period %d, want %d states, period %d",
					tc.name, len(res.Class.States), res.Class.Period, tc.n, tc.period)
			}
			if m != Iterative {
				// State reduction is subtraction-free: componentwise
				// relative error of order n·ε, for tiny entries too
				// (Grassmann et al. 1985; O'Cinneide 1993). Entries that
				// underflow in the oracle are skipped.
				for k, v := range want {
					if v > 1e-290 && math.Abs(res.Pi[k]-v) > 1e-13*float64(tc.n)*v {
						t.Fatalf("%s %v: π[%d] = %.17g, want %.17g", tc.name, m, k, res.Pi[k], v)
					}
				}
				continue
			}
			if d := maxAbsDiff(res.Pi, want); d > 1e-10 {
				t.Errorf("%s Iterative: max abs error %.3g (residual %.3g, %d iterations)", tc.name, d, res.Residual, res.Iterations)
			}
		}
	}
}

// TestStationaryDoublyStochastic: a convex combination of permutation
// matrices is doubly stochastic, so 1ᵀP = 1ᵀ and π is uniform. The cyclic
// shift makes it irreducible, the identity aperiodic.
func TestStationaryDoublyStochastic(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{7, 120, 2000} {
		tr := &triplets{n: n}
		perms := [][]int{make([]int, n), make([]int, n)}
		for i := 0; i < n; i++ {
			perms[0][i] = (i + 1) % n
			perms[1][i] = i
		}
		for k := 0; k < 3; k++ {
			perms = append(perms, rng.Perm(n))
		}
		w := make([]float64, len(perms))
		var s float64
		for k := range w {
			w[k] = 0.1 + rng.Float64()
			s += w[k]
		}
		for k, perm := range perms {
			for i, j := range perm {
				tr.add(i, j, w[k]/s)
			}
		}
		c := tr.build(t, nil)
		for _, m := range allMethods {
			if m != Iterative && n > 500 {
				continue // O(n³) for a random pattern
			}
			res, err := c.Stationary(&Settings{Method: m, Tol: 1e-14})
			if err != nil {
				t.Fatalf("n=%d %v: %v", n, m, err)
			}
			for i, v := range res.Pi {
				// Uniform within rounding: the residual bound 1e-14 and a
				// well-mixing chain give absolute errors far below 1e-12/n.
				if math.Abs(v*float64(n)-1) > 1e-10 {
					t.Fatalf("n=%d %v: π[%d]·n = %.15g, want 1", n, m, i, v*float64(n))
				}
			}
		}
	}
}

// TestStationaryPeriodic covers chains of period k > 1: pure cycles (π
// uniform), layered chains whose layers are visited cyclically (oracle: LU
// solve), and random walks on weighted bipartite graphs, which are
// reversible with π_v ∝ Σ_u w_uv (detailed balance) and have period 2.
func TestStationaryPeriodic(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, k := range []int{2, 3, 17, 400} {
		tr := &triplets{n: k}
		for i := 0; i < k; i++ {
			tr.add(i, (i+1)%k, 1)
		}
		c := tr.build(t, nil)
		for _, m := range allMethods {
			res, err := c.Stationary(&Settings{Method: m})
			if err != nil {
				t.Fatalf("cycle %d %v: %v", k, m, err)
			}
			if res.Class.Period != k {
				t.Errorf("cycle %d: period %d", k, res.Class.Period)
			}
			for i, v := range res.Pi {
				if math.Abs(v*float64(k)-1) > 1e-12 {
					t.Fatalf("cycle %d %v: π[%d]·k = %v, want 1", k, m, i, v*float64(k))
				}
			}
		}
	}

	// Layered chain: 4 layers of 30 states, every state jumps to 3 random
	// states of the next layer (plus one fixed edge so that it is
	// irreducible), period 4.
	const layers, width = 4, 30
	tr := &triplets{n: layers * width}
	for l := 0; l < layers; l++ {
		next := (l + 1) % layers
		for i := 0; i < width; i++ {
			cols := []int{next*width + (i+1)%width, next*width + i}
			for len(cols) < 4 {
				cols = append(cols, next*width+rng.IntN(width))
			}
			tr.randomRow(rng, l*width+i, cols)
		}
	}
	c := tr.build(t, nil)
	want := luStationary(t, tr.dense())
	for _, m := range allMethods {
		res, err := c.Stationary(&Settings{Method: m, Tol: 1e-14})
		if err != nil {
			t.Fatalf("layered %v: %v", m, err)
		}
		if res.Class.Period != layers {
			t.Errorf("layered: period %d, want %d", res.Class.Period, layers)
		}
		if d := maxAbsDiff(res.Pi, want); d > 1e-12 {
			t.Errorf("layered %v: max abs diff from LU %.3g", m, d)
		}
	}

	for _, size := range [][2]int{{5, 8}, {300, 200}} {
		tr, want := bipartiteWalk(rng, size[0], size[1])
		c := tr.build(t, nil)
		for _, m := range allMethods {
			if m == Dense && tr.n > 100 {
				continue
			}
			res, err := c.Stationary(&Settings{Method: m, Tol: 1e-14})
			if err != nil {
				t.Fatalf("bipartite %v %v: %v", size, m, err)
			}
			if res.Class.Period != 2 {
				t.Errorf("bipartite %v: period %d, want 2", size, res.Class.Period)
			}
			if d := maxRelDiff(res.Pi, want); d > 1e-10 {
				t.Errorf("bipartite %v %v: max rel error %.3g", size, m, d)
			}
		}
	}
}

// bipartiteWalk returns the random walk on a random connected weighted
// bipartite graph between a left and b right vertices, and its stationary
// distribution π_v = W_v/Σ_u W_u, W_v the total weight at v.
func bipartiteWalk(rng *rand.Rand, a, b int) (*triplets, []float64) {
	n := a + b
	w := make(map[[2]int]float64)
	addEdge := func(u, v int) { w[[2]int{u, v}] += 0.1 + rng.Float64() }
	// A spanning path alternating sides keeps the graph connected.
	for i := 0; i < max(a, b); i++ {
		addEdge(i%a, a+i%b)
		addEdge((i+1)%a, a+i%b)
	}
	for k := 0; k < 2*n; k++ {
		addEdge(rng.IntN(a), a+rng.IntN(b))
	}
	wt := make([]float64, n)
	for e, x := range w {
		wt[e[0]] += x
		wt[e[1]] += x
	}
	tr := &triplets{n: n}
	for e, x := range w {
		tr.add(e[0], e[1], x/wt[e[0]])
		tr.add(e[1], e[0], x/wt[e[1]])
	}
	pi := make([]float64, n)
	total := neumaierSum(wt)
	for v := range pi {
		pi[v] = wt[v] / total
	}
	return tr, pi
}

// TestStationaryMethodsAgree: on random non-reversible chains, GTH, an LU
// solve (gonum, partial pivoting) and the iterative solver agree.
func TestStationaryMethodsAgree(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, tc := range []struct{ n, deg int }{{3, 2}, {5, 5}, {40, 3}, {150, 6}, {400, 4}, {400, 40}} {
		tr := randomChain(rng, tc.n, tc.deg)
		c := tr.build(t, nil)
		lu := luStationary(t, tr.dense())
		dense, err := c.Stationary(&Settings{Method: Dense})
		if err != nil {
			t.Fatal(err)
		}
		iter, err := c.Stationary(&Settings{Method: Iterative, Tol: 1e-14})
		if err != nil {
			t.Fatal(err)
		}
		band, err := c.Stationary(&Settings{Method: Banded})
		if err != nil {
			t.Fatal(err)
		}
		auto, err := c.Stationary(nil)
		if err != nil {
			t.Fatal(err)
		}
		if (tc.n <= DefaultDenseMax) != (auto.Method == Dense) {
			t.Errorf("n=%d: Auto used %v", tc.n, auto.Method)
		}
		// Agreement to 1e-10 as required; well-conditioned random chains
		// (every row mixes over ≥ 2 states) give far better in practice.
		if d := maxAbsDiff(dense.Pi, lu); d > 1e-10 {
			t.Errorf("n=%d deg=%d: GTH vs LU %.3g", tc.n, tc.deg, d)
		}
		if d := maxAbsDiff(iter.Pi, lu); d > 1e-10 {
			t.Errorf("n=%d deg=%d: iterative vs LU %.3g (%d iterations)", tc.n, tc.deg, d, iter.Iterations)
		}
		if d := maxAbsDiff(iter.Pi, dense.Pi); d > 1e-10 {
			t.Errorf("n=%d deg=%d: iterative vs GTH %.3g", tc.n, tc.deg, d)
		}
		// Same eliminations in another storage: equal to rounding.
		if d := maxRelDiff(band.Pi, dense.Pi); d > 1e-12 {
			t.Errorf("n=%d deg=%d: banded vs dense GTH %.3g (relative)", tc.n, tc.deg, d)
		}
		if dense.Residual > 1e-13 || dense.Iterations != 0 {
			t.Errorf("n=%d: GTH residual %.3g, iterations %d", tc.n, dense.Residual, dense.Iterations)
		}
	}
}

// TestStationaryLargeReversible: random walks on random weighted graphs
// whose edges join nearby states are reversible, with π_v ∝ W_v (detailed
// balance), however slowly they mix.
func TestStationaryLargeReversible(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for _, tc := range []struct {
		n, band, perRow int
		method, want    Method
		relTol          float64
	}{
		// Slowly mixing (mixing time ~ (n/band)² steps): Auto must choose
		// the banded reduction, whose componentwise relative error is
		// O(n·ε) whatever the mixing (O'Cinneide 1993).
		{1000, 3, 4, Auto, Banded, 1e-13 * 1000},
		{100000, 5, 4, Auto, Banded, 1e-13 * 100000},
		// Fast mixing, wide band: Auto must choose GMRES. Its error is
		// bounded by the residual times the norm of the group inverse of
		// I − P (Meyer 1975), small for a fast-mixing chain.
		{20000, 8000, 8, Auto, Iterative, 1e-8},
	} {
		tr, want := bandedWalk(rng, tc.n, tc.band, tc.perRow)
		c := tr.build(t, nil)
		res, err := c.Stationary(&Settings{Method: tc.method, Tol: 1e-14})
		if err != nil {
			t.Fatalf("n=%d: %v", tc.n, err)
		}
		if res.Method != tc.want {
			t.Errorf("n=%d band=%d: method %v, want %v", tc.n, tc.band, res.Method, tc.want)
		}
		if d := maxRelDiff(res.Pi, want); d > tc.relTol {
			t.Errorf("n=%d: max rel error %.3g after %d iterations (residual %.3g)", tc.n, d, res.Iterations, res.Residual)
		}
		t.Logf("n=%d nnz=%d %v: %d iterations, residual %.3g, max rel error %.3g",
			tc.n, c.NNZ(), res.Method, res.Iterations, res.Residual, maxRelDiff(res.Pi, want))
	}
}

// bandedWalk returns the random walk on a connected random weighted graph
// whose edges join vertices at most band apart (a path i—i+1 plus random
// chords and self-loops), and π_v = W_v/ΣW.
func bandedWalk(rng *rand.Rand, n, band, perRow int) (*triplets, []float64) {
	type edge struct{ u, v int }
	var edges []edge
	var weights []float64
	for i := 0; i < n; i++ {
		if i+1 < n {
			edges = append(edges, edge{i, i + 1})
			weights = append(weights, 0.1+rng.Float64())
		}
		for k := 1; k < perRow/2; k++ {
			j := min(i+rng.IntN(band+1), n-1)
			edges = append(edges, edge{i, j})
			weights = append(weights, 0.1+rng.Float64())
		}
	}
	wt := make([]float64, n)
	for k, e := range edges {
		wt[e.u] += weights[k]
		if e.v != e.u {
			wt[e.v] += weights[k]
		}
	}
	tr := &triplets{n: n}
	for k, e := range edges {
		tr.add(e.u, e.v, weights[k]/wt[e.u])
		if e.v != e.u {
			tr.add(e.v, e.u, weights[k]/wt[e.v])
		}
	}
	pi := make([]float64, n)
	total := neumaierSum(wt)
	for v := range pi {
		pi[v] = wt[v] / total
	}
	return tr, pi
}

// TestStationaryTransient: states outside the closed class get π = 0 and
// the class gets the distribution of the chain restricted to it.
func TestStationaryTransient(t *testing.T) {
	// States 0, 1 transient; {2, 3} closed with P = [[0.2, 0.8], [0.4, 0.6]]:
	// π = (0.4, 0.8)/1.2 = (1/3, 2/3) by the two-state closed form.
	b := NewBuilder[string]()
	b.Add("t0", "t1", 0.5)
	b.Add("t0", "t0", 0.5)
	b.Add("t1", "c2", 1)
	b.Add("c2", "c2", 0.2)
	b.Add("c2", "c3", 0.8)
	b.Add("c3", "c2", 0.4)
	b.Add("c3", "c3", 0.6)
	c, err := b.Build(nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{0, 0, 1.0 / 3, 2.0 / 3}
	for _, m := range allMethods {
		res, err := c.Stationary(&Settings{Method: m})
		if err != nil {
			t.Fatal(err)
		}
		if res.Pi[0] != 0 || res.Pi[1] != 0 {
			t.Errorf("%v: π on transient states = %v, want exactly 0", m, res.Pi[:2])
		}
		if d := maxAbsDiff(res.Pi, want); d > 1e-12 {
			t.Errorf("%v: π = %v, want %v", m, res.Pi, want)
		}
		if fmt.Sprint(res.Class.States) != "[2 3]" {
			t.Errorf("%v: class %v", m, res.Class.States)
		}
	}
}

func TestStationaryErrors(t *testing.T) {
	// Two closed classes {a} and {b}, reached from s.
	b := NewBuilder[string]()
	b.Add("s", "a", 0.5)
	b.Add("s", "b", 0.5)
	b.Add("a", "a", 1)
	b.Add("b", "b", 1)
	red, err := b.Build(nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = red.Stationary(nil)
	if !errors.Is(err, ErrReducible) || !strings.Contains(err.Error(), "a") || !strings.Contains(err.Error(), "b") {
		t.Errorf("reducible chain: error %v", err)
	}

	c := (&triplets{n: 2, rows: []int{0, 1}, cols: []int{1, 0}, vals: []float64{1, 1}}).build(t, nil)
	for _, tc := range []struct {
		name string
		s    Settings
		want string
	}{
		{"negative Tol", Settings{Tol: -1}, "Tol"},
		{"NaN Tol", Settings{Tol: math.NaN()}, "Tol"},
		{"negative MaxIter", Settings{MaxIter: -3}, "MaxIter"},
		{"negative Restart", Settings{Restart: -1}, "Restart"},
		{"Restart beyond gmres.MaxRestart", Settings{Method: Iterative, Restart: 4097}, "Restart"},
		{"unknown method", Settings{Method: 9}, "Method"},
		{"short Start", Settings{Start: []float64{1}}, "Start"},
		{"negative Start", Settings{Start: []float64{1, -1}}, "Start[1]"},
		{"NaN Start", Settings{Start: []float64{math.NaN(), 1}}, "Start[0]"},
		{"zero Start", Settings{Method: Iterative, Start: []float64{0, 0}}, "no mass"},
	} {
		_, err := c.Stationary(&tc.s)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want it to mention %q", tc.name, err, tc.want)
		}
	}

	// A dense copy of a 12,000-state class needs 1.44e8 float64s, beyond
	// the 2^27 limit, and so does the band of the cycle (its wrap-around
	// transition gives it lower bandwidth n−1); Auto solves it with GMRES.
	const n = 12000
	cyc := &triplets{n: n}
	for i := 0; i < n; i++ {
		cyc.add(i, (i+1)%n, 1)
	}
	big := cyc.build(t, nil)
	if _, err := big.Stationary(&Settings{Method: Dense}); err == nil || !strings.Contains(err.Error(), "Dense method on a class of 12000 states") {
		t.Errorf("huge dense solve: error %v", err)
	}
	if _, err := big.Stationary(&Settings{Method: Banded}); err == nil || !strings.Contains(err.Error(), "bandwidths 11999, 1") {
		t.Errorf("huge banded solve: error %v", err)
	}
	res, err := big.Stationary(nil)
	if err != nil || res.Method != Iterative || math.Abs(res.Pi[n-1]*n-1) > 1e-12 {
		t.Errorf("cycle of %d: %v with %v, π[n-1]·n = %v", n, err, res.Method, res.Pi[n-1]*n)
	}
}

// TestStationaryIterationLimit: two GMRES iterations cannot solve a slowly
// mixing 3000-state chain to 1e-14: the result comes back with its status.
func TestStationaryIterationLimit(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	c := bandedChain(rng, 3000, 30, 6).build(t, nil)
	res, err := c.Stationary(&Settings{Method: Iterative, MaxIter: 2, Tol: 1e-14})
	if !errors.Is(err, ErrNoConvergence) {
		t.Fatalf("error %v, want ErrNoConvergence", err)
	}
	if res.Status != IterationLimit || res.Iterations != 2 || len(res.Pi) != 3000 || !(res.Residual > 1e-14) {
		t.Errorf("Status %v, Iterations %d, len(Pi) %d, Residual %v", res.Status, res.Iterations, len(res.Pi), res.Residual)
	}
}

// TestStationaryWarmStart: re-solving a slightly perturbed chain from the
// previous π converges, to the same answer as a cold start, and does not
// take more iterations.
func TestStationaryWarmStart(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	tr := bandedChain(rng, 5000, 500, 20)
	c := tr.build(t, nil)
	first, err := c.Stationary(&Settings{Method: Iterative})
	if err != nil {
		t.Fatal(err)
	}
	for k := range tr.vals {
		tr.vals[k] *= 1 + 1e-3*rng.Float64()
	}
	c2 := tr.build(t, &BuildSettings{Renormalise: true})
	cold, err := c2.Stationary(&Settings{Method: Iterative, Tol: 1e-13})
	if err != nil {
		t.Fatal(err)
	}
	warm, err := c2.Stationary(&Settings{Method: Iterative, Tol: 1e-13, Start: first.Pi})
	if err != nil {
		t.Fatal(err)
	}
	if warm.Iterations > cold.Iterations {
		t.Errorf("warm start took %d iterations, cold %d", warm.Iterations, cold.Iterations)
	}
	if d := maxRelDiff(warm.Pi, cold.Pi); d > 1e-8 {
		t.Errorf("warm and cold solutions differ by %.3g (relative)", d)
	}
	t.Logf("cold %d iterations, warm %d", cold.Iterations, warm.Iterations)
}

// TestStationarySimulation compares π with the visit frequencies of a
// simulated path. Successive returns to state 0 split the path into i.i.d.
// cycles (regenerative method, Crane & Iglehart 1975): with Y_j the visits
// to j and T the length of a cycle, π_j = E[Y_j]/E[T], and the ratio
// estimator has standard error sd(Y_j − π̂_j T)/(mean(T)·√K) over K cycles.
func TestStationarySimulation(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	tr := randomChain(rng, 6, 3)
	c := tr.build(t, nil)
	res, err := c.Stationary(nil)
	if err != nil {
		t.Fatal(err)
	}
	const cycles = 20000
	n := c.Len()
	ys := make([][]float64, cycles)
	lens := make([]float64, cycles)
	state := 0
	for k := range ys {
		y := make([]float64, n)
		for {
			y[state]++
			lens[k]++
			to, p := c.Row(state)
			u := rng.Float64()
			next := to[len(to)-1]
			for m, q := range p {
				if u < q {
					next = to[m]
					break
				}
				u -= q
			}
			state = next
			if state == 0 {
				break
			}
		}
		ys[k] = y
	}
	meanT := neumaierSum(lens) / cycles
	for j := 0; j < n; j++ {
		var sy float64
		for k := range ys {
			sy += ys[k][j]
		}
		est := sy / (meanT * cycles)
		var ss float64
		for k := range ys {
			d := ys[k][j] - est*lens[k]
			ss += d * d
		}
		se := math.Sqrt(ss/(cycles-1)) / (meanT * math.Sqrt(cycles))
		// 4.5 standard errors: a false alarm once in ~1e5 per state.
		if math.Abs(est-res.Pi[j]) > 4.5*se || se > 0.01 {
			t.Errorf("state %d: simulated %.5f ± %.5f, solver %.5f", j, est, se, res.Pi[j])
		}
	}
}

// FuzzStationary: on arbitrary small chains, Stationary never panics, fails
// only with ErrReducible, and its three methods agree with each other and
// with the LU oracle when the class is unique.
func FuzzStationary(f *testing.F) {
	f.Add([]byte{0, 1, 9, 1, 0, 9})
	f.Add([]byte{0, 1, 200, 1, 2, 3, 2, 0, 50, 2, 2, 1, 1, 1, 1})
	f.Add([]byte{0, 0, 1, 1, 1, 1, 2, 0, 5, 2, 1, 5})
	f.Fuzz(func(t *testing.T, raw []byte) {
		const n = 6
		tr := &triplets{n: n}
		for k := 0; k+2 < len(raw); k += 3 {
			tr.add(int(raw[k])%n, int(raw[k+1])%n, 1+float64(raw[k+2]))
		}
		shift := 0
		if len(raw) > 0 {
			shift = int(raw[0] % 3)
		}
		for i := 0; i < n; i++ {
			tr.add(i, (i+shift)%n, 0.5) // every row non-empty
		}
		c, err := FromCOO(intLabels(n), tr.rows, append([]int(nil), tr.cols...), append([]float64(nil), tr.vals...),
			&BuildSettings{Renormalise: true})
		if err != nil {
			t.Fatal(err)
		}
		var first []float64
		for _, m := range allMethods {
			res, err := c.Stationary(&Settings{Method: m, Tol: 1e-13})
			if err != nil {
				if !errors.Is(err, ErrReducible) {
					t.Fatalf("%v: %v", m, err)
				}
				return
			}
			if first == nil {
				first = res.Pi
				continue
			}
			// Weights within a factor 256 on 6 states: well conditioned.
			if d := maxAbsDiff(res.Pi, first); d > 1e-10 {
				t.Fatalf("%v differs from Dense by %.3g: %v vs %v", m, d, res.Pi, first)
			}
		}
	})
}

// Factors reused from a nearby chain (Settings.Preconditioner) give the
// solution of a fresh solve to the tolerance, checked against the
// independent LU oracle; a chain on a different class gets new factors;
// and factors of an unrelated chain of the same size, a poor
// preconditioner, still give a converged answer (by refactoring when they
// stall, or by converging anyway).
func TestStationaryPreconditionerReuse(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	tr := bandedChain(rng, 400, 40, 12)
	var pc Preconditioner
	set := &Settings{Method: Iterative, Tol: 1e-13, Preconditioner: &pc}
	if _, err := tr.build(t, nil).Stationary(set); err != nil {
		t.Fatal(err)
	}
	if pc.Factored != 1 || pc.Reused != 0 {
		t.Fatalf("first solve: factored %d, reused %d; want 1, 0", pc.Factored, pc.Reused)
	}
	// A nearby chain: every probability perturbed by up to 1e-3 relative.
	for k := range tr.vals {
		tr.vals[k] *= 1 + 1e-3*rng.Float64()
	}
	c2 := tr.build(t, &BuildSettings{Renormalise: true})
	got, err := c2.Stationary(set)
	if err != nil {
		t.Fatal(err)
	}
	if pc.Reused != 1 {
		t.Errorf("nearby chain: reused %d times, want 1 (factored %d)", pc.Reused, pc.Factored)
	}
	want := luStationary(t, chainDense(c2))
	// Residual 1e-13 and a 400-state walk of bandwidth 40: the oracle and
	// the iterate agree to far better than 1e-8 relative.
	if d := maxRelDiff(got.Pi, want); d > 1e-8 {
		t.Errorf("reused factors: π differs from LU by %.3g relative", d)
	}
	// A different chain of another size: new factors.
	other := bandedChain(rng, 300, 30, 12).build(t, nil)
	if _, err := other.Stationary(set); err != nil {
		t.Fatal(err)
	}
	if pc.Factored != 2 {
		t.Errorf("different class: factored %d times, want 2", pc.Factored)
	}
	// An unrelated chain of the same size and class: the held factors are
	// tried, and the answer still converges.
	unrelatedT := randomChain(rng, 300, 6)
	unrelated := unrelatedT.build(t, nil)
	res, err := unrelated.Stationary(set)
	if err != nil {
		t.Fatalf("unrelated chain with stale factors: %v", err)
	}
	if d := maxRelDiff(res.Pi, luStationary(t, chainDense(unrelated))); d > 1e-8 {
		t.Errorf("unrelated chain: π differs from LU by %.3g relative", d)
	}
	t.Logf("reused %d, factored %d", pc.Reused, pc.Factored)
}
