package markov

import (
	"fmt"
	"math"
	"sort"
	"sync"

	"github.com/james-bowman/sparse"
	"gonum.org/v1/gonum/mat"
)

// DefaultRowTol is the default base tolerance on row sums used by
// FromCOO and Builder.Build; see BuildSettings.RowTol.
const DefaultRowTol = 1e-12

// Chain is a finite discrete-time Markov chain whose states carry labels of
// type L. Its transition matrix P is stored in compressed sparse row (CSR)
// form: row i holds the probabilities p_ij > 0 of the transitions out of
// state i, with column indices strictly increasing. A Chain is immutable
// once built and safe for concurrent use.
type Chain[L comparable] struct {
	labels []L
	// index maps labels to states; built by FromCOO, or on first use by
	// Index when BuildSettings.UniqueLabels skipped it.
	index     map[L]int
	indexOnce sync.Once
	indptr    []int
	ind       []int
	data      []float64
	renorm    Renormalisation
}

// Renormalisation reports what BuildSettings.Renormalise did.
type Renormalisation struct {
	// Deficit[i] is 1 − Σ_j p_ij for state i, summed over the entries kept
	// after pruning and before rescaling: the probability mass removed from
	// the row (by pruning or because it was missing from the input). It is
	// negative when the row summed to more than 1.
	Deficit []float64
	// MaxAbs is max_i |Deficit[i]|.
	MaxAbs float64
	// ArgMax is the state attaining MaxAbs (-1 when Deficit is empty).
	ArgMax int
}

// BuildSettings controls the validation of a transition matrix. A nil
// *BuildSettings means the zero value: row sums checked with DefaultRowTol,
// no pruning, no renormalisation.
type BuildSettings struct {
	// RowTol is the base tolerance on row sums: without Renormalise, row i
	// is accepted when |Σ_j p_ij − 1| ≤ RowTol·max(1, nnz_i), nnz_i being
	// the number of distinct transitions out of i (the rounding error of a
	// sum grows with its number of terms). Zero means DefaultRowTol.
	// An accepted row is then divided by its sum, so that the chain is
	// stochastic to rounding error and the residual of its stationary
	// distribution can reach the level of rounding.
	RowTol float64
	// Prune drops the transitions whose accumulated probability is below
	// Prune (without Renormalise, the dropped mass counts against RowTol).
	// Zero keeps every positive entry. Entries that are exactly zero are
	// always dropped, so they never count as edges of the chain.
	Prune float64
	// Renormalise divides every row by its sum after pruning, instead of
	// checking the sum against RowTol. The removed mass is reported by
	// Chain.Renormalisation.
	Renormalise bool
	// MaxDeficit, when positive and Renormalise is set, is the largest
	// |1 − Σ_j p_ij| accepted before rescaling; a row beyond it is an
	// error. Zero or negative means no limit (a row must still have a
	// positive sum).
	MaxDeficit float64
	// UniqueLabels declares that the labels are distinct, as the caller
	// guarantees by construction: FromCOO then skips their check and
	// builds the label index only when Chain.Index is first called (a
	// map of every label, which for a chain solved once and dropped is
	// most of the cost of building it). With duplicate labels, Index
	// returns the last state of a label.
	UniqueLabels bool
}

// Builder accumulates the transitions of a Chain one at a time. States are
// numbered in the order they are first seen by AddState or Add. The zero
// value is not usable; call NewBuilder.
type Builder[L comparable] struct {
	labels []L
	index  map[L]int
	rows   []int
	cols   []int
	vals   []float64
}

// NewBuilder returns an empty Builder.
func NewBuilder[L comparable]() *Builder[L] {
	return &Builder[L]{index: make(map[L]int)}
}

// AddState declares the state l if it is new and returns its index.
func (b *Builder[L]) AddState(l L) int {
	if i, ok := b.index[l]; ok {
		return i
	}
	i := len(b.labels)
	b.index[l] = i
	b.labels = append(b.labels, l)
	return i
}

// Add adds p to the probability of the transition from → to, declaring the
// states if they are new (from first). Duplicate transitions accumulate.
// The value is not checked here: Build reports negative, NaN or infinite
// probabilities with the labels of the transition.
func (b *Builder[L]) Add(from, to L, p float64) {
	i := b.AddState(from)
	j := b.AddState(to)
	b.rows = append(b.rows, i)
	b.cols = append(b.cols, j)
	b.vals = append(b.vals, p)
}

// Len returns the number of states declared so far.
func (b *Builder[L]) Len() int { return len(b.labels) }

// Build validates the accumulated transitions and returns the Chain. The
// Builder is left unchanged and may be extended and built again.
func (b *Builder[L]) Build(settings *BuildSettings) (*Chain[L], error) {
	labels := append([]L(nil), b.labels...)
	return fromCOO(labels, b.rows, b.cols, b.vals, settings, false)
}

// FromCOO builds a Chain from integer-indexed triplets: the state with index
// i has label labels[i], and the k-th triplet adds vals[k] to the probability
// of the transition rows[k] → cols[k]. Duplicate triplets accumulate.
// Labels must be unique, indices in [0, len(labels)), values finite and
// non-negative, and every row must sum to 1 as described by BuildSettings
// (nil means defaults). Errors name the offending state labels and values.
//
// FromCOO is the allocation-light path: it takes ownership of labels, cols
// and vals. When rows is non-decreasing (triplets generated row by row), the
// Chain is built in place inside cols and vals and the only new allocations
// are the row pointers and the label index; otherwise the triplets are
// copied. The caller must not use labels, cols or vals after the call,
// whether or not it returns an error, as long as the Chain is in use; once
// the Chain is no longer used, their storage may be reused. rows is only
// read.
func FromCOO[L comparable](labels []L, rows, cols []int, vals []float64, settings *BuildSettings) (*Chain[L], error) {
	return fromCOO(labels, rows, cols, vals, settings, true)
}

func fromCOO[L comparable](labels []L, rows, cols []int, vals []float64, settings *BuildSettings, inPlace bool) (*Chain[L], error) {
	s, err := settings.withDefaults()
	if err != nil {
		return nil, err
	}
	n := len(labels)
	if n == 0 {
		return nil, fmt.Errorf("markov: chain has no states")
	}
	if len(cols) != len(rows) || len(vals) != len(rows) {
		return nil, fmt.Errorf("markov: triplet lengths differ: len(rows) = %d, len(cols) = %d, len(vals) = %d",
			len(rows), len(cols), len(vals))
	}
	var index map[L]int
	if !s.UniqueLabels {
		index = make(map[L]int, n)
		for i, l := range labels {
			if j, dup := index[l]; dup {
				return nil, fmt.Errorf("markov: states %d and %d have the same label %v", j, i, l)
			}
			index[l] = i
		}
	}
	sorted, err := checkTriplets(labels, rows, cols, vals)
	if err != nil {
		return nil, err
	}
	m := tripletRows(n, rows, cols, vals, sorted && inPlace)
	m.compact(s.Prune)
	c := &Chain[L]{labels: labels, index: index, indptr: m.indptr, ind: m.ind, data: m.data}
	if err := c.checkRows(&s); err != nil {
		return nil, err
	}
	return c, nil
}

// withDefaults returns the settings with their defaults (nil: all), or an
// error naming the field that is out of range.
func (settings *BuildSettings) withDefaults() (BuildSettings, error) {
	var s BuildSettings
	if settings != nil {
		s = *settings
	}
	if s.RowTol == 0 {
		s.RowTol = DefaultRowTol
	}
	if !(s.RowTol > 0) || math.IsInf(s.RowTol, 1) {
		return s, fmt.Errorf("markov: BuildSettings.RowTol = %v, want finite and positive", s.RowTol)
	}
	if !(s.Prune >= 0) || math.IsInf(s.Prune, 1) {
		return s, fmt.Errorf("markov: BuildSettings.Prune = %v, want finite and non-negative", s.Prune)
	}
	if math.IsNaN(s.MaxDeficit) {
		return s, fmt.Errorf("markov: BuildSettings.MaxDeficit is NaN")
	}
	return s, nil
}

// checkTriplets checks the indices (in [0, n), n = len(labels)) and the
// values (finite, non-negative) of the triplets, and reports whether
// their rows are in non-decreasing order.
func checkTriplets[L comparable](labels []L, rows, cols []int, vals []float64) (sorted bool, err error) {
	n := len(labels)
	sorted = true
	for k, i := range rows {
		j := cols[k]
		if i < 0 || i >= n {
			return false, fmt.Errorf("markov: triplet %d: row index %d out of range [0, %d)", k, i, n)
		}
		if j < 0 || j >= n {
			return false, fmt.Errorf("markov: triplet %d: column index %d out of range [0, %d)", k, j, n)
		}
		if v := vals[k]; !(v >= 0) || math.IsInf(v, 1) {
			return false, fmt.Errorf("markov: transition %v -> %v has probability %v, want finite and non-negative",
				labels[i], labels[j], v)
		}
		if k > 0 && i < rows[k-1] {
			sorted = false
		}
	}
	return sorted, nil
}

// csrRows is a matrix in compressed sparse row form: row i's columns
// and values are ind and data over [indptr[i], indptr[i+1]).
type csrRows struct {
	indptr, ind []int
	data        []float64
}

// tripletRows groups the n-row triplets by row; with reuse (the triplets
// already in row order, and the caller's to keep) it takes cols and vals
// as they are.
func tripletRows(n int, rows, cols []int, vals []float64, reuse bool) csrRows {
	nnz := len(rows)
	m := csrRows{indptr: make([]int, n+1)}
	for _, i := range rows {
		m.indptr[i+1]++
	}
	for i := 0; i < n; i++ {
		m.indptr[i+1] += m.indptr[i]
	}
	if reuse {
		m.ind, m.data = cols, vals
		return m
	}
	m.ind = make([]int, nnz)
	m.data = make([]float64, nnz)
	next := make([]int, n)
	copy(next, m.indptr[:n])
	for k, i := range rows {
		p := next[i]
		next[i]++
		m.ind[p] = cols[k]
		m.data[p] = vals[k]
	}
	return m
}

// compact sorts every row by column, merges duplicates and drops zero
// entries and those below prune, compacting the arrays in place.
func (m *csrRows) compact(prune float64) {
	n := len(m.indptr) - 1
	ind, data := m.ind, m.data
	var rs rowSorter
	w := 0
	start := 0
	for i := 0; i < n; i++ {
		end := m.indptr[i+1]
		rs.sort(ind[start:end], data[start:end])
		rowStart := w
		for k := start; k < end; {
			j := ind[k]
			v := data[k]
			for k++; k < end && ind[k] == j; k++ {
				v += data[k]
			}
			if v > 0 && v >= prune {
				ind[w] = j
				data[w] = v
				w++
			}
		}
		m.indptr[i] = rowStart
		start = end
	}
	m.indptr[n] = w
	m.ind = ind[:w:w]
	m.data = data[:w:w]
}

// checkRows validates the row sums or renormalises the rows.
func (c *Chain[L]) checkRows(s *BuildSettings) error {
	n := len(c.labels)
	if s.Renormalise {
		c.renorm = Renormalisation{Deficit: make([]float64, n), ArgMax: -1}
	}
	for i := 0; i < n; i++ {
		row := c.data[c.indptr[i]:c.indptr[i+1]]
		if len(row) == 0 {
			return fmt.Errorf("markov: state %v has no outgoing transitions", c.labels[i])
		}
		sum := neumaierSum(row)
		if math.IsInf(sum, 0) {
			return fmt.Errorf("markov: row of state %v sums to %v", c.labels[i], sum)
		}
		dev := 1 - sum
		if !s.Renormalise {
			tol := s.RowTol * math.Max(1, float64(len(row)))
			if math.Abs(dev) > tol {
				return fmt.Errorf("markov: row of state %v sums to %.17g (|1 - sum| = %.3g > tolerance %.3g)",
					c.labels[i], sum, math.Abs(dev), tol)
			}
			if dev != 0 {
				for k := range row {
					row[k] /= sum
				}
			}
			continue
		}
		if s.MaxDeficit > 0 && math.Abs(dev) > s.MaxDeficit {
			return fmt.Errorf("markov: row of state %v sums to %.17g (|1 - sum| = %.3g > MaxDeficit %.3g)",
				c.labels[i], sum, math.Abs(dev), s.MaxDeficit)
		}
		c.renorm.Deficit[i] = dev
		if a := math.Abs(dev); a > c.renorm.MaxAbs || c.renorm.ArgMax < 0 {
			c.renorm.MaxAbs = a
			c.renorm.ArgMax = i
		}
		for k := range row {
			row[k] /= sum
		}
	}
	return nil
}

// rowSorter sorts the column indices of one CSR row together with their
// values. It is reused across rows to avoid allocations.
type rowSorter struct {
	ind  []int
	data []float64
}

func (r *rowSorter) Len() int           { return len(r.ind) }
func (r *rowSorter) Less(a, b int) bool { return r.ind[a] < r.ind[b] }
func (r *rowSorter) Swap(a, b int) {
	r.ind[a], r.ind[b] = r.ind[b], r.ind[a]
	r.data[a], r.data[b] = r.data[b], r.data[a]
}

func (r *rowSorter) sort(ind []int, data []float64) {
	isSorted := true
	for k := 1; k < len(ind); k++ {
		if ind[k] < ind[k-1] {
			isSorted = false
			break
		}
	}
	if isSorted {
		return
	}
	if len(ind) <= 16 {
		for k := 1; k < len(ind); k++ {
			j, v := ind[k], data[k]
			m := k
			for ; m > 0 && ind[m-1] > j; m-- {
				ind[m], data[m] = ind[m-1], data[m-1]
			}
			ind[m], data[m] = j, v
		}
		return
	}
	r.ind, r.data = ind, data
	sort.Sort(r)
	r.ind, r.data = nil, nil
}

// Len returns the number of states.
func (c *Chain[L]) Len() int { return len(c.labels) }

// NNZ returns the number of transitions with positive probability.
func (c *Chain[L]) NNZ() int { return len(c.data) }

// Labels returns the state labels, indexed by state. The slice is shared
// with the Chain and must not be modified.
func (c *Chain[L]) Labels() []L { return c.labels }

// Label returns the label of state i. It panics if i is out of range.
func (c *Chain[L]) Label(i int) L { return c.labels[i] }

// Index returns the index of the state labelled l and whether it exists.
func (c *Chain[L]) Index(l L) (int, bool) {
	c.indexOnce.Do(func() {
		if c.index == nil {
			c.index = make(map[L]int, len(c.labels))
			for i, l := range c.labels {
				c.index[l] = i
			}
		}
	})
	i, ok := c.index[l]
	return i, ok
}

// Row returns the transitions out of state i: the target states, in
// increasing order, and their probabilities. The slices are shared with the
// Chain and must not be modified. It panics if i is out of range.
func (c *Chain[L]) Row(i int) (to []int, p []float64) {
	a, b := c.indptr[i], c.indptr[i+1]
	return c.ind[a:b:b], c.data[a:b:b]
}

// Matrix returns a read-only view of the transition matrix that shares
// storage with the Chain (a CSR matrix; its concrete type is not part of
// the API). Row gives the same entries without the interface.
func (c *Chain[L]) Matrix() mat.Matrix {
	n := len(c.labels)
	return sparse.NewCSR(n, n, c.indptr, c.ind, c.data)
}

// Renormalisation returns the report of BuildSettings.Renormalise; it is
// the zero value when the chain was built without renormalisation.
func (c *Chain[L]) Renormalisation() Renormalisation { return c.renorm }

// Residual returns ‖πᵀP − πᵀ‖₁, the ℓ1 norm of the stationarity residual
// of pi. It panics if len(pi) != c.Len().
func (c *Chain[L]) Residual(pi []float64) float64 {
	n := len(c.labels)
	if len(pi) != n {
		panic(fmt.Sprintf("markov: Residual: len(pi) = %d, want %d", len(pi), n))
	}
	y := make([]float64, n)
	c.mulTrans(y, pi)
	var r float64
	for j, v := range y {
		r += math.Abs(v - pi[j])
	}
	return r
}

// mulTrans sets y = Pᵀx, that is yᵀ = xᵀP.
func (c *Chain[L]) mulTrans(y, x []float64) {
	clear(y)
	for i, xi := range x {
		if xi == 0 {
			continue
		}
		for k := c.indptr[i]; k < c.indptr[i+1]; k++ {
			y[c.ind[k]] += xi * c.data[k]
		}
	}
}
