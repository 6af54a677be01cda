package markov

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// triplets is a chain under construction in COO form with int labels.
type triplets struct {
	n          int
	rows, cols []int
	vals       []float64
}

func (t *triplets) add(i, j int, p float64) {
	t.rows = append(t.rows, i)
	t.cols = append(t.cols, j)
	t.vals = append(t.vals, p)
}

// build returns the chain with labels 0..n-1 (FromCOO on copies, so that t
// can be reused).
func (t *triplets) build(tb testing.TB, s *BuildSettings) *Chain[int] {
	tb.Helper()
	labels := make([]int, t.n)
	for i := range labels {
		labels[i] = i
	}
	c, err := FromCOO(labels, append([]int(nil), t.rows...), append([]int(nil), t.cols...),
		append([]float64(nil), t.vals...), s)
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

// dense returns the transition matrix of t as a dense matrix, duplicates summed.
func (t *triplets) dense() *mat.Dense {
	d := mat.NewDense(t.n, t.n, nil)
	for k := range t.rows {
		d.Set(t.rows[k], t.cols[k], d.At(t.rows[k], t.cols[k])+t.vals[k])
	}
	return d
}

// randomRows fills row i of t with the given columns and random positive
// weights normalised to sum 1.
func (t *triplets) randomRow(rng *rand.Rand, i int, cols []int) {
	w := make([]float64, len(cols))
	var s float64
	for k := range w {
		w[k] = 0.05 + rng.Float64()
		s += w[k]
	}
	for k, j := range cols {
		t.add(i, j, w[k]/s)
	}
}

// randomChain returns an irreducible aperiodic chain on n states: a random
// Hamiltonian cycle (irreducibility) plus deg-1 random extra targets per row
// (with a self-loop somewhere, aperiodicity).
func randomChain(rng *rand.Rand, n, deg int) *triplets {
	t := &triplets{n: n}
	perm := rng.Perm(n)
	for k := 0; k < n; k++ {
		i := perm[k]
		cols := []int{perm[(k+1)%n]}
		if k == 0 {
			cols = append(cols, i)
		}
		for len(cols) < min(deg, n) {
			cols = append(cols, rng.IntN(n))
		}
		t.randomRow(rng, i, cols) // repeated columns accumulate
	}
	return t
}

// bandedChain returns a random chain on n states whose row i has perRow
// random targets within distance band of i (clamped at the ends), plus the
// neighbours i±1 so that it is irreducible: a slowly mixing, nearly
// one-dimensional random walk, the hard case for iterative solvers.
func bandedChain(rng *rand.Rand, n, band, perRow int) *triplets {
	t := &triplets{n: n, rows: make([]int, 0, n*perRow), cols: make([]int, 0, n*perRow), vals: make([]float64, 0, n*perRow)}
	cols := make([]int, 0, perRow)
	for i := 0; i < n; i++ {
		cols = cols[:0]
		if i > 0 {
			cols = append(cols, i-1)
		}
		if i < n-1 {
			cols = append(cols, i+1)
		}
		cols = append(cols, i)
		for len(cols) < perRow {
			j := i - band + rng.IntN(2*band+1)
			cols = append(cols, min(max(j, 0), n-1))
		}
		t.randomRow(rng, i, cols)
	}
	return t
}

// luStationary is an independent oracle: it solves (Pᵀ − I)π = 0 with the
// last equation replaced by Σπ = 1, by LU with partial pivoting (gonum).
func luStationary(tb testing.TB, p *mat.Dense) []float64 {
	tb.Helper()
	n, _ := p.Dims()
	a := mat.NewDense(n, n, nil)
	a.CloneFrom(p.T())
	for i := 0; i < n; i++ {
		a.Set(i, i, a.At(i, i)-1)
	}
	for j := 0; j < n; j++ {
		a.Set(n-1, j, 1)
	}
	b := mat.NewVecDense(n, nil)
	b.SetVec(n-1, 1)
	var x mat.VecDense
	if err := x.SolveVec(a, b); err != nil {
		tb.Fatalf("LU oracle: %v", err)
	}
	return x.RawVector().Data
}

// maxAbsDiff returns max_i |a_i − b_i|.
func maxAbsDiff(a, b []float64) float64 {
	var d float64
	for i := range a {
		d = math.Max(d, math.Abs(a[i]-b[i]))
	}
	return d
}

// maxRelDiff returns max_i |a_i − b_i|/|b_i|.
func maxRelDiff(a, b []float64) float64 {
	var d float64
	for i := range a {
		d = math.Max(d, math.Abs(a[i]-b[i])/math.Abs(b[i]))
	}
	return d
}

func intLabels(n int) []int {
	l := make([]int, n)
	for i := range l {
		l[i] = i
	}
	return l
}

// chainDense returns the transition matrix of c (as built: renormalised
// rows, if asked) as a dense matrix.
func chainDense(c *Chain[int]) *mat.Dense {
	d := mat.NewDense(c.Len(), c.Len(), nil)
	for i := range c.Len() {
		to, p := c.Row(i)
		for k, j := range to {
			d.Set(i, j, p[k])
		}
	}
	return d
}
