package replication

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/ckpt-markov/markov/expm"
	"github.com/ckpt-markov/markov/internal/scalar"
	"github.com/ckpt-markov/markov/scenario"
)

// MaxStates bounds the number of states of the chain within a segment
// (profiles × spare counts): the dense exponential and its integral cost
// O(S³) and O(S²) memory, a few seconds at S = 400.
const MaxStates = 400

// Model is a fixed count of a logical processes, each run as r replicas,
// on a pool of N processors with exponential failures (rate λ = 1/MTTF,
// functional processors) and repairs (rate θ = 1/MTTR, unlimited repair
// capacity); see the package documentation for the process.
type Model struct {
	// Processors is N ≥ a·r.
	Processors int
	// Processes is a ≥ 1 and Replicas r, 1 ≤ r ≤ scenario.MaxReplicas.
	Processes, Replicas int
	// MTTF and MTTR are per processor, in seconds.
	MTTF, MTTR float64
	// WorkRate is ω(a), Latency L(a), Overhead C(a) ≤ L(a) and Recovery
	// R(a, a), the costs at the count a.
	WorkRate, Latency, Overhead, Recovery float64
}

// FromScenario returns the model of sc for a logical processes, with r =
// sc.Application.ReplicaCount() and the costs at a.
func FromScenario(sc *scenario.Scenario, a int) (Model, error) {
	if sc == nil {
		return Model{}, errors.New("replication: scenario is nil")
	}
	if err := sc.Validate(); err != nil {
		return Model{}, err
	}
	r := sc.Application.ReplicaCount()
	if a < 1 || a*r > sc.N() {
		return Model{}, fmt.Errorf("replication: %d processes × %d replicas, want 1 ≤ a·r ≤ N = %d", a, r, sc.N())
	}
	return modelAt(sc, a, r), nil
}

// Validate reports whether m is a valid model whose state space fits
// MaxStates.
func (m Model) Validate() error {
	switch {
	case m.Processes < 1:
		return fmt.Errorf("replication: Processes = %d, want ≥ 1", m.Processes)
	case m.Replicas < 1 || m.Replicas > scenario.MaxReplicas:
		return fmt.Errorf("replication: Replicas = %d, want 1 … %d", m.Replicas, scenario.MaxReplicas)
	case m.Processors < m.Processes*m.Replicas || m.Processors > scenario.MaxProcessors:
		return fmt.Errorf("replication: Processors = %d, want a·r = %d … %d", m.Processors, m.Processes*m.Replicas, scenario.MaxProcessors)
	}
	for _, f := range []struct {
		name string
		v    float64
		pos  bool
	}{{"MTTF", m.MTTF, true}, {"MTTR", m.MTTR, true}, {"WorkRate", m.WorkRate, true},
		{"Latency", m.Latency, false}, {"Overhead", m.Overhead, false}, {"Recovery", m.Recovery, false}} {
		if math.IsNaN(f.v) || math.IsInf(f.v, 0) || f.v < 0 || (f.pos && f.v == 0) {
			return fmt.Errorf("replication: %s = %v, want a finite number %s", f.name, f.v, map[bool]string{true: "> 0", false: "≥ 0"}[f.pos])
		}
	}
	if m.Overhead > m.Latency {
		return fmt.Errorf("replication: Overhead = %v exceeds Latency = %v", m.Overhead, m.Latency)
	}
	if s := m.States(); s > MaxStates {
		return fmt.Errorf("replication: %d processes × %d replicas on %d processors make %d states, more than the limit of %d", m.Processes, m.Replicas, m.Processors, s, MaxStates)
	}
	return nil
}

// States returns the number of states of the chain within a segment
// (saturating at MaxStates+1, so that it never overflows).
func (m Model) States() int {
	total := 0
	m.profiles(func(c []int) bool {
		total += m.Processors - used(c) + 1
		return total <= MaxStates
	})
	return min(total, MaxStates+1)
}

// profiles calls f with every profile c (c[k], k = 1 … r, the number of
// processes with k live replicas; c[0] unused) summing to a, until f
// returns false. The slice is reused.
func (m Model) profiles(f func(c []int) bool) {
	c := make([]int, m.Replicas+1)
	var rec func(k, left int) bool
	rec = func(k, left int) bool {
		if k == 1 {
			c[1] = left
			return f(c)
		}
		for x := left; x >= 0; x-- {
			c[k] = x
			if !rec(k-1, left-x) {
				return false
			}
		}
		return true
	}
	rec(m.Replicas, m.Processes)
}

// used returns Σ k·c[k], the processors a profile occupies.
func used(c []int) int {
	u := 0
	for k := 1; k < len(c); k++ {
		u += k * c[k]
	}
	return u
}

// space is the state space within a segment: state i is the profile
// prof[i] with spare[i] functional spares.
type space struct {
	prof  [][]int
	spare []int
	index map[string]int
}

func key(c []int, s int) string { return fmt.Sprint(c[1:], s) }

func (m Model) space() *space {
	sp := &space{index: map[string]int{}}
	m.profiles(func(c []int) bool {
		for s := 0; s <= m.Processors-used(c); s++ {
			sp.index[key(c, s)] = len(sp.prof)
			sp.prof = append(sp.prof, append([]int(nil), c...))
			sp.spare = append(sp.spare, s)
		}
		return true
	})
	return sp
}

// generator returns the transient generator Q (S×S) and the rates into
// the interruptions, B (S×N, column n' = the functional count after the
// failure that interrupts).
func (m Model) generator(sp *space) (q, b *mat.Dense) {
	n := len(sp.prof)
	lam, th := 1/m.MTTF, 1/m.MTTR
	q = mat.NewDense(n, n, nil)
	b = mat.NewDense(n, m.Processors, nil)
	c2 := make([]int, m.Replicas+1)
	for i, c := range sp.prof {
		s := sp.spare[i]
		fn := used(c) + s
		out := 0.0
		add := func(j int, rate float64) {
			if rate > 0 {
				q.Set(i, j, q.At(i, j)+rate)
				out += rate
			}
		}
		if c[1] > 0 {
			rate := float64(c[1]) * lam
			b.Set(i, fn-1, rate)
			out += rate
		}
		for k := 2; k <= m.Replicas; k++ {
			if c[k] == 0 {
				continue
			}
			copy(c2, c)
			c2[k]--
			c2[k-1]++
			add(sp.index[key(c2, s)], float64(k*c[k])*lam)
		}
		if s > 0 {
			add(sp.index[key(c, s-1)], float64(s)*lam)
		}
		if f := m.Processors - fn; f > 0 {
			add(sp.index[key(c, s+1)], float64(f)*th)
		}
		q.Set(i, i, -out)
	}
	return q, b
}

// refill returns the state after the checkpoint at the end of a segment
// in state i: spares go one at a time to a process with the fewest live
// replicas.
func (m Model) refill(sp *space, i int) int {
	c := append([]int(nil), sp.prof[i]...)
	s := sp.spare[i]
	for s > 0 {
		k := 1
		for k < m.Replicas && c[k] == 0 {
			k++
		}
		if k == m.Replicas {
			break
		}
		c[k]--
		c[k+1]++
		s--
	}
	return sp.index[key(c, s)]
}

// segment holds, for a segment of length t from every state, the
// probabilities of ending in each state without interruption (end), of
// an interruption leaving n' functional (hit, S×N), and the expected
// time spent (time).
type segment struct {
	end, hit *mat.Dense
	time     []float64
}

func (m Model) segment(q, b *mat.Dense, t float64) (segment, error) {
	n, _ := q.Dims()
	var sg segment
	sg.time = make([]float64, n)
	if t == 0 {
		sg.end = mat.NewDense(n, n, nil)
		for i := range n {
			sg.end.Set(i, i, 1)
		}
		sg.hit = mat.NewDense(n, m.Processors, nil)
		return sg, nil
	}
	var e mat.Dense
	var qt mat.Dense
	qt.Scale(t, q)
	if err := expm.Exp(&e, &qt, nil); err != nil {
		return sg, err
	}
	sg.end = &e
	// ∫₀ᵗ e^{Qu} [B | 1] du.
	rhs := mat.NewDense(n, m.Processors+1, nil)
	rhs.Slice(0, n, 0, m.Processors).(*mat.Dense).Copy(b)
	for i := range n {
		rhs.Set(i, m.Processors, 1)
	}
	var in mat.Dense
	if err := expm.Integral(&in, q, rhs, t, 0, nil); err != nil {
		return sg, err
	}
	sg.hit = mat.DenseCopyOf(in.Slice(0, n, 0, m.Processors))
	for i := range n {
		sg.time[i] = in.At(i, m.Processors)
	}
	return sg, nil
}

// Result is the outcome of UWT.
type Result struct {
	// Interval is the checkpoint interval I evaluated, in seconds.
	Interval float64
	// UWT is the long-run useful work per second and Availability the
	// fraction of time spent on committed computation (UWT = ω(a)·
	// Availability).
	UWT, Availability float64
	// Interruptions is the long-run number of interruptions per second.
	Interruptions float64
	// States is the number of states within a segment, Epochs the size of
	// the embedded chain.
	States, Epochs int
}

// UWT returns the long-run useful work per second of m with checkpoint
// interval I (finite, > 0).
func (m Model) UWT(interval float64) (Result, error) {
	if err := m.Validate(); err != nil {
		return Result{}, err
	}
	if !(interval > 0) || math.IsInf(interval, 0) {
		return Result{}, fmt.Errorf("replication: interval = %v, want a finite positive number of seconds", interval)
	}
	pr, err := m.prepare()
	if err != nil {
		return Result{}, err
	}
	return m.uwtWith(pr, interval)
}

// prepared holds what UWT(I) needs that does not depend on I: the state
// space, the generator, the recovery segment, the down times and the
// refill map; Optimize builds it once for all its evaluations.
type prepared struct {
	sp       *space
	q, b     *mat.Dense
	rec      segment
	down     []float64
	refilled []int
}

func (m Model) prepare() (*prepared, error) {
	sp := m.space()
	q, b := m.generator(sp)
	rec, err := m.segment(q, b, m.Recovery+m.Latency)
	if err != nil {
		return nil, err
	}
	refilled := make([]int, len(sp.prof))
	for j := range refilled {
		refilled[j] = m.refill(sp, j)
	}
	return &prepared{sp: sp, q: q, b: b, rec: rec, down: m.downTimes(), refilled: refilled}, nil
}

// uwtWith is UWT on a validated model and interval.
func (m Model) uwtWith(pr *prepared, interval float64) (Result, error) {
	sp, rec, down, refilled := pr.sp, pr.rec, pr.down, pr.refilled
	up, err := m.segment(pr.q, pr.b, interval+m.Latency)
	if err != nil {
		return Result{}, err
	}
	n := len(sp.prof)
	ar := m.Processes * m.Replicas
	nr := m.Processors - ar + 1 // Rec(s), s = 0 … N − a·r
	ne := n + nr
	// Embedded chain: epochs 0 … n−1 are up segments from state i,
	// epochs n + s recoveries with s spares (full profile).
	full := make([]int, m.Replicas+1)
	full[m.Replicas] = m.Processes
	p := mat.NewDense(ne, ne, nil)
	tau := make([]float64, ne)
	work := make([]float64, ne)
	hits := make([]float64, ne)
	useful := interval + m.Latency - m.Overhead
	fill := func(e, from int, sg segment, committed bool) {
		tau[e] = sg.time[from]
		for j := range n {
			if pj := sg.end.At(from, j); pj != 0 {
				p.Set(e, refilled[j], p.At(e, refilled[j])+pj)
				if committed {
					work[e] += pj * useful
				}
			}
		}
		for np := range m.Processors {
			ph := sg.hit.At(from, np)
			if ph == 0 {
				continue
			}
			hits[e] += ph
			s := 0
			if np >= ar {
				s = np - ar
			} else {
				tau[e] += ph * down[np]
			}
			p.Set(e, n+s, p.At(e, n+s)+ph)
		}
	}
	for i := range n {
		fill(i, i, up, true)
	}
	for s := range nr {
		fill(n+s, sp.index[key(full, s)], rec, false)
	}
	pi, err := stationary(p)
	if err != nil {
		return Result{}, err
	}
	var sw, st, sh float64
	for e := range ne {
		sw += pi[e] * work[e]
		st += pi[e] * tau[e]
		sh += pi[e] * hits[e]
	}
	avail := sw / st
	return Result{Interval: interval, UWT: m.WorkRate * avail, Availability: avail, Interruptions: sh / st, States: n, Epochs: ne}, nil
}

// downTimes returns, for every functional count n' < a·r, the expected
// time until the pool first holds a·r functional processors (a
// birth–death passage: up at (N − n)θ, down at nλ): the sum over k = n'
// … a·r − 1 of the mean passage t_k from k to k + 1, t_k = 1/b_k +
// (d_k/b_k)·t_{k−1}, t_0 = 1/b_0.
func (m Model) downTimes() []float64 {
	ar := m.Processes * m.Replicas
	lam, th := 1/m.MTTF, 1/m.MTTR
	t := make([]float64, ar)
	for k := range ar {
		bk := float64(m.Processors-k) * th
		t[k] = 1 / bk
		if k > 0 {
			t[k] += float64(k) * lam / bk * t[k-1]
		}
	}
	h := make([]float64, ar)
	acc := 0.0
	for k := ar - 1; k >= 0; k-- {
		acc += t[k]
		h[k] = acc
	}
	return h
}

// stationary returns π with πP = π, Σπ = 1, by a dense LU solve of
// (Pᵀ − I)π = 0 with the last equation replaced by the normalisation.
func stationary(p *mat.Dense) ([]float64, error) {
	n, _ := p.Dims()
	a := mat.NewDense(n, n, nil)
	a.CloneFrom(p.T())
	for i := range n {
		a.Set(i, i, a.At(i, i)-1)
	}
	for j := range n {
		a.Set(n-1, j, 1)
	}
	rhs := mat.NewVecDense(n, nil)
	rhs.SetVec(n-1, 1)
	var x mat.VecDense
	if err := x.SolveVec(a, rhs); err != nil {
		return nil, fmt.Errorf("replication: stationary distribution: %w", err)
	}
	return x.RawVector().Data, nil
}

// Optimum is the outcome of Optimize.
type Optimum struct {
	Result
}

// Optimize returns the interval that maximises UWT, searched in ln I
// from the Young-like start sqrt(2·L·MTTI) (MTTI of the fresh
// configuration without repairs, package intervals' closed form being
// its a·r ≪ N limit) by Brent's method to a relative width tol (0 means
// 1e−6). UWT(I) is assumed unimodal.
func (m Model) Optimize(tol float64) (Optimum, error) {
	if err := m.Validate(); err != nil {
		return Optimum{}, err
	}
	if tol == 0 {
		tol = 1e-6
	}
	if !(tol > 0 && tol < 1) {
		return Optimum{}, fmt.Errorf("replication: tol = %v, want 0 < tol < 1", tol)
	}
	pr, err := m.prepare()
	if err != nil {
		return Optimum{}, err
	}
	return m.optimizeWith(func(x float64) (Result, error) { return m.uwtWith(pr, x) }, tol)
}

// optimizeWith maximises UWT(I) = eval(I).UWT over ln I by Brent's
// method from the Young-like start of Optimize; tol is already checked.
// Best calls it with package uwt's evaluation for r = 1.
func (m Model) optimizeWith(uwtAt func(float64) (Result, error), tol float64) (Optimum, error) {
	eval := func(x float64) (Result, error) {
		if !(x > 0) || math.IsInf(x, 0) {
			return Result{}, fmt.Errorf("replication: interval = %v, want a finite positive number of seconds", x)
		}
		return uwtAt(x)
	}
	x0 := math.Sqrt(2 * math.Max(m.Latency, 1e-3*m.MTTF) * m.MTTF / float64(m.Processes))
	iv, err := scalar.LogMinimize(func(x float64) (float64, error) {
		r, err := eval(x)
		return -r.UWT, err
	}, x0, tol)
	if err != nil {
		return Optimum{}, err
	}
	r, err := eval(iv)
	return Optimum{r}, err
}
