package markov

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestFromCOOMatchesDense: random triplets with duplicates, in row order
// (in-place path) and shuffled (copying path), and the Builder, all give the
// matrix obtained by summing the triplets into a dense matrix.
func TestFromCOOMatchesDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	for _, n := range []int{1, 2, 7, 60} {
		tr := &triplets{n: n}
		for i := 0; i < n; i++ {
			k := 1 + rng.IntN(2*n+20) // up to 2n+20 triplets per row: many duplicates
			cols := make([]int, k)
			for m := range cols {
				cols[m] = rng.IntN(n)
			}
			tr.randomRow(rng, i, cols)
		}
		want := tr.dense()

		sortedChain := tr.build(t, nil)
		perm := rng.Perm(len(tr.rows))
		shuf := &triplets{n: n}
		for _, k := range perm {
			shuf.add(tr.rows[k], tr.cols[k], tr.vals[k])
		}
		shuffledChain := shuf.build(t, nil)
		b := NewBuilder[string]()
		for i := 0; i < n; i++ {
			b.AddState(fmt.Sprint("s", i)) // fix the numbering
		}
		for _, k := range perm {
			b.Add(fmt.Sprint("s", shuf.rows[k]), fmt.Sprint("s", shuf.cols[k]), shuf.vals[k])
		}
		built, err := b.Build(nil)
		if err != nil {
			t.Fatal(err)
		}
		if b.Len() != n || built.Len() != n {
			t.Fatalf("n=%d: builder has %d states, chain %d", n, b.Len(), built.Len())
		}
		for name, c := range map[string]interface {
			Row(int) ([]int, []float64)
			NNZ() int
		}{"sorted": sortedChain, "shuffled": shuffledChain, "builder": built} {
			nnz := 0
			for i := 0; i < n; i++ {
				to, p := c.Row(i)
				for k := range to {
					if k > 0 && to[k] <= to[k-1] {
						t.Fatalf("%s n=%d: row %d columns not increasing: %v", name, n, i, to)
					}
					// Summation order differs from the oracle's and the row
					// is rescaled by its sum: a few ulps.
					if w := want.At(i, to[k]); math.Abs(p[k]-w) > 1e-15 {
						t.Errorf("%s n=%d: P[%d][%d] = %v, want %v", name, n, i, to[k], p[k], w)
					}
				}
				for j := 0; j < n; j++ {
					if want.At(i, j) != 0 {
						nnz++
					}
				}
			}
			if c.NNZ() != nnz {
				t.Errorf("%s n=%d: NNZ %d, want %d", name, n, c.NNZ(), nnz)
			}
		}
		// The builder is unchanged by Build: building again gives the same.
		again, err := b.Build(nil)
		if err != nil || again.NNZ() != built.NNZ() {
			t.Errorf("n=%d: second Build: %v, NNZ %d vs %d", n, err, again.NNZ(), built.NNZ())
		}
		m := built.Matrix()
		if r, c := m.Dims(); r != n || c != n {
			t.Errorf("n=%d: Matrix dims %d×%d", n, r, c)
		}
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				if math.Abs(m.At(i, j)-want.At(i, j)) > 1e-15 {
					t.Fatalf("n=%d: Matrix().At(%d,%d) = %v, want %v", n, i, j, m.At(i, j), want.At(i, j))
				}
			}
		}
	}
}

// TestFromCOOInPlace: row-ordered triplets without duplicates are used as
// the storage of the chain, as documented.
func TestFromCOOInPlace(t *testing.T) {
	rows := []int{0, 0, 1, 2}
	cols := []int{1, 2, 0, 0}
	vals := []float64{0.5, 0.5, 1, 1}
	c, err := FromCOO([]string{"x", "y", "z"}, rows, cols, vals, nil)
	if err != nil {
		t.Fatal(err)
	}
	to, p := c.Row(0)
	if &to[0] != &cols[0] || &p[0] != &vals[0] {
		t.Error("in-place path copied the triplets")
	}
	if fmt.Sprint(rows) != "[0 0 1 2]" {
		t.Errorf("rows modified: %v", rows)
	}
}

func TestChainLabels(t *testing.T) {
	type state struct {
		kind byte
		a, s int
	}
	b := NewBuilder[state]()
	u, r := state{'U', 2, 0}, state{'R', 1, 0}
	if i := b.AddState(u); i != 0 {
		t.Fatalf("first state index %d", i)
	}
	b.Add(r, u, 1) // r is new: index 1
	b.Add(u, r, 0.25)
	b.Add(u, u, 0.5)
	b.Add(u, u, 0.25) // accumulates to 0.75
	c, err := b.Build(nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.Label(1) != r || len(c.Labels()) != 2 {
		t.Errorf("labels %v", c.Labels())
	}
	if i, ok := c.Index(r); !ok || i != 1 {
		t.Errorf("Index(r) = %d, %v", i, ok)
	}
	if _, ok := c.Index(state{'D', 0, 0}); ok {
		t.Error("Index of an absent label reported present")
	}
	if to, p := c.Row(0); fmt.Sprint(to, p) != "[0 1] [0.75 0.25]" {
		t.Errorf("Row(0) = %v %v", to, p)
	}
	if c.Renormalisation().Deficit != nil {
		t.Error("Renormalisation reported without Renormalise")
	}
}

// TestBuildErrors is a table of malformed chains: each error must name the
// offending state(s) and value.
func TestBuildErrors(t *testing.T) {
	type tr struct {
		from, to string
		p        float64
	}
	for _, tc := range []struct {
		name  string
		trans []tr
		s     *BuildSettings
		want  []string
	}{
		{"row sum low", []tr{{"a", "b", 0.5}, {"b", "a", 1}}, nil, []string{"a", "0.5"}},
		{"row sum high", []tr{{"a", "b", 1}, {"b", "a", 0.7}, {"b", "b", 0.7}}, nil, []string{"state b", "1.3999"}},
		{"just outside tolerance", []tr{{"a", "a", 1 + 3e-12}}, nil, []string{"state a", "3e-12", "tolerance 1e-12"}},
		{"negative", []tr{{"a", "b", -0.1}, {"a", "a", 1.1}, {"b", "a", 1}}, nil, []string{"a -> b", "-0.1"}},
		{"NaN", []tr{{"a", "b", math.NaN()}, {"b", "a", 1}}, nil, []string{"a -> b", "NaN"}},
		{"Inf", []tr{{"a", "a", 1}, {"b", "a", math.Inf(1)}}, nil, []string{"b -> a", "+Inf"}},
		{"no outgoing", []tr{{"a", "b", 1}}, nil, []string{"state b", "no outgoing"}},
		{"all zero row", []tr{{"a", "a", 1}, {"b", "a", 0}}, nil, []string{"state b", "no outgoing"}},
		{"pruned to nothing", []tr{{"a", "a", 1}, {"b", "a", 1e-9}, {"b", "b", 1e-9}}, &BuildSettings{Prune: 1e-6, Renormalise: true}, []string{"state b", "no outgoing"}},
		{"deficit too large", []tr{{"a", "a", 0.9}, {"b", "b", 1}}, &BuildSettings{Renormalise: true, MaxDeficit: 0.01}, []string{"state a", "0.9", "MaxDeficit"}},
		{"bad RowTol", []tr{{"a", "a", 1}}, &BuildSettings{RowTol: -1}, []string{"RowTol"}},
		{"bad Prune", []tr{{"a", "a", 1}}, &BuildSettings{Prune: math.NaN()}, []string{"Prune"}},
		{"bad MaxDeficit", []tr{{"a", "a", 1}}, &BuildSettings{MaxDeficit: math.NaN()}, []string{"MaxDeficit"}},
		{"empty", nil, nil, []string{"no states"}},
	} {
		b := NewBuilder[string]()
		for _, x := range tc.trans {
			b.Add(x.from, x.to, x.p)
		}
		_, err := b.Build(tc.s)
		if err == nil {
			t.Errorf("%s: no error", tc.name)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q does not mention %q", tc.name, err, w)
			}
		}
	}

	// Errors only reachable through FromCOO.
	for _, tc := range []struct {
		name       string
		labels     []string
		rows, cols []int
		vals       []float64
		want       string
	}{
		{"duplicate labels", []string{"x", "y", "x"}, []int{0, 1, 2}, []int{0, 1, 2}, []float64{1, 1, 1}, "same label x"},
		{"row out of range", []string{"x"}, []int{1}, []int{0}, []float64{1}, "row index 1"},
		{"negative column", []string{"x"}, []int{0}, []int{-1}, []float64{1}, "column index -1"},
		{"length mismatch", []string{"x"}, []int{0}, []int{0, 0}, []float64{1}, "len(cols) = 2"},
	} {
		_, err := FromCOO(tc.labels, tc.rows, tc.cols, tc.vals, nil)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want it to mention %q", tc.name, err, tc.want)
		}
	}
}

// TestRowTolerance: the tolerance scales with the number of entries in a
// row, and accepted rows are rescaled to sum 1.
func TestRowTolerance(t *testing.T) {
	// 4 entries summing to 1 + 3e-12: accepted by the default 1e-12·4.
	b := NewBuilder[int]()
	for j := 0; j < 4; j++ {
		b.Add(0, j, 0.25+0.75e-12)
		b.Add(j+1, 0, 1)
	}
	c, err := b.Build(nil)
	if err != nil {
		t.Fatal(err)
	}
	_, p := c.Row(0)
	if s := p[0] + p[1] + p[2] + p[3]; math.Abs(s-1) > 4e-16 {
		t.Errorf("row 0 sums to %.17g after rescaling", s)
	}
	// The same row is rejected with a tolerance of 1e-13·4.
	if _, err := b.Build(&BuildSettings{RowTol: 1e-13}); err == nil {
		t.Error("row off by 3e-12 accepted with RowTol 1e-13")
	}
}

// TestRenormalise: pruning drops small entries and renormalisation reports
// the removed mass per row.
func TestRenormalise(t *testing.T) {
	b := NewBuilder[string]()
	b.Add("a", "a", 0.6)
	b.Add("a", "b", 0.3999)
	b.Add("a", "c", 1e-4) // pruned
	b.Add("b", "a", 0.5)
	b.Add("b", "c", 0.49) // row short of 0.01 (e.g. a truncated distribution)
	b.Add("c", "a", 1)
	c, err := b.Build(&BuildSettings{Prune: 1e-3, Renormalise: true, MaxDeficit: 0.05})
	if err != nil {
		t.Fatal(err)
	}
	r := c.Renormalisation()
	// Deficits: 1 − (0.6 + 0.3999) = 1e-4, 1 − 0.99 = 0.01, 0.
	want := []float64{1e-4, 0.01, 0}
	if d := maxAbsDiff(r.Deficit, want); d > 1e-15 {
		t.Errorf("Deficit = %v, want %v", r.Deficit, want)
	}
	if r.ArgMax != 1 || math.Abs(r.MaxAbs-0.01) > 1e-15 {
		t.Errorf("MaxAbs %v at %d, want 0.01 at 1", r.MaxAbs, r.ArgMax)
	}
	if c.NNZ() != 5 {
		t.Errorf("NNZ %d, want 5 after pruning", c.NNZ())
	}
	to, p := c.Row(1)
	if fmt.Sprint(to) != "[0 2]" || math.Abs(p[0]-0.5/0.99) > 1e-15 || math.Abs(p[1]-0.49/0.99) > 1e-15 {
		t.Errorf("Row(b) = %v %v, want [0 2] [%v %v]", to, p, 0.5/0.99, 0.49/0.99)
	}
	if res := c.Residual([]float64{1, 0, 0}); math.Abs(res-2*(1-0.6/0.9999)) > 1e-14 {
		// π = e_a: πᵀP − πᵀ = (0.6/0.9999 − 1, 0.3999/0.9999, 0).
		t.Errorf("Residual(e_a) = %v", res)
	}
}

// FuzzFromCOO: arbitrary triplets never panic; either an error or a chain
// whose rows are sorted, positive and stochastic.
func FuzzFromCOO(f *testing.F) {
	f.Add(uint8(2), []byte{0, 1, 0xff, 1, 0, 0xff})
	f.Add(uint8(3), []byte{0, 0, 10, 0, 0, 10, 1, 2, 0, 2, 1, 255, 1, 1, 255})
	f.Add(uint8(1), []byte{0, 0, 0})
	f.Fuzz(func(t *testing.T, n uint8, raw []byte) {
		labels := make([]int, n%16)
		for i := range labels {
			labels[i] = i
		}
		var rows, cols []int
		var vals []float64
		for k := 0; k+2 < len(raw); k += 3 {
			rows = append(rows, int(raw[k])%17-1)
			cols = append(cols, int(raw[k+1])%17)
			vals = append(vals, float64(raw[k+2])/255)
		}
		c, err := FromCOO(labels, rows, cols, vals, &BuildSettings{Renormalise: raw != nil && len(raw)%2 == 0})
		if err != nil {
			return
		}
		for i := 0; i < c.Len(); i++ {
			to, p := c.Row(i)
			var s float64
			for k := range to {
				if k > 0 && to[k] <= to[k-1] || !(p[k] > 0) {
					t.Fatalf("row %d: %v %v", i, to, p)
				}
				s += p[k]
			}
			if math.Abs(s-1) > 1e-12*float64(len(p)) {
				t.Fatalf("row %d sums to %v", i, s)
			}
		}
	})
}

// With BuildSettings.UniqueLabels the label index is built on first use
// and gives the same answers as the checked build.
func TestUniqueLabelsLazyIndex(t *testing.T) {
	labels := []string{"a", "b", "c"}
	build := func(unique bool) *Chain[string] {
		c, err := FromCOO(append([]string(nil), labels...), []int{0, 1, 2}, []int{1, 2, 0}, []float64{1, 1, 1},
			&BuildSettings{UniqueLabels: unique})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	checked, lazy := build(false), build(true)
	for _, l := range append(labels, "z") {
		i, ok := checked.Index(l)
		j, ok2 := lazy.Index(l)
		if i != j || ok != ok2 {
			t.Errorf("Index(%q): checked %d %v, lazy %d %v", l, i, ok, j, ok2)
		}
	}
	if _, err := FromCOO([]string{"a", "a"}, []int{0, 1}, []int{1, 0}, []float64{1, 1}, nil); err == nil {
		t.Error("duplicate labels accepted without UniqueLabels")
	}
}
