package synth

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/ckpt-markov/markov/law"
	"github.com/ckpt-markov/markov/trace"
)

// MaxOutages is the default bound on the outages of a generated trace
// (Config.MaxOutages): about 0.4 GB of outages at 24 bytes each.
const MaxOutages = 1 << 24

// MaxRateCV bounds Config.RateCV: beyond it the Gamma multipliers are
// mostly zero to machine precision.
const MaxRateCV = 10

// Config describes the trace to generate.
type Config struct {
	Nodes    int     // number of nodes, 1 ≤ Nodes ≤ trace.MaxNodes
	Duration float64 // the trace covers [0, Duration), seconds

	Up     law.Law // up times of a node of multiplier 1, seconds (drawn by law.Draw)
	Repair law.Law // repair times, seconds

	// Classes, when not empty, makes the nodes heterogeneous: node i
	// takes the up and repair laws of a class, the classes' shares of the
	// nodes being their Share weights (Result.Class); Up and Repair must then
	// be nil. At most MaxClasses classes.
	Classes []Class

	// RateCV is the coefficient of variation of the nodes' failure-rate
	// multipliers, in [0, MaxRateCV]; 0 means identical nodes.
	RateCV float64

	// Grouped is the fraction of failure events that are grouped, in
	// [0, 1]. Sizes[k] is the weight of a grouped event of k nodes; the
	// weights of k = 0 and 1 must be zero, at least one weight positive,
	// and len(Sizes) ≤ Nodes + 1. Sizes is needed only when Grouped > 0.
	Grouped float64
	Sizes   []float64

	// MaxOutages bounds the outages generated; Generate stops with an
	// error beyond it. Zero means the package's MaxOutages.
	MaxOutages int
}

// Uniform returns size weights uniform on lo..hi, for Config.Sizes
// (Uniform(4, 16): groups of 4 to 16 nodes, as in the LANL study of the
// issue on grouped failures).
func Uniform(lo, hi int) []float64 {
	if lo < 2 || hi < lo {
		panic(fmt.Sprintf("synth: Uniform(%d, %d): want 2 ≤ lo ≤ hi", lo, hi))
	}
	w := make([]float64, hi+1)
	for k := lo; k <= hi; k++ {
		w[k] = 1
	}
	return w
}

// Result is a generated trace and what the generator did.
type Result struct {
	Trace *trace.Trace

	// Multipliers are the nodes' rate multipliers w_i.
	Multipliers []float64
	// Class is each node's index in Config.Classes (nil without classes).
	Class []int

	Events        int // failure events
	GroupedEvents int // of those, grouped ones (labels 1..GroupedEvents)
	Failures      int // node failures, all events together
}

// Generate draws a trace of configuration c from rng.
func Generate(c Config, rng *rand.Rand) (Result, error) {
	if err := c.check(); err != nil {
		return Result{}, err
	}
	if c.MaxOutages == 0 {
		c.MaxOutages = MaxOutages
	}
	if rng == nil {
		return Result{}, errors.New("synth: rng is nil")
	}
	g := &gen{c: c, rng: rng, w: make([]float64, c.Nodes), gen: make([]int, c.Nodes),
		pos: make([]int, c.Nodes), ids: make([]int, c.Nodes), nUp: c.Nodes,
		down: make([][]trace.Interval, c.Nodes), up: make([]law.Law, c.Nodes), repair: make([]law.Law, c.Nodes)}
	var class []int
	if len(c.Classes) > 0 {
		class = classes(c.Classes, c.Nodes)
	}
	for i := range c.Nodes {
		if class == nil {
			g.up[i], g.repair[i] = c.Up, c.Repair
			continue
		}
		k := class[i]
		g.up[i], g.repair[i] = c.Classes[k].Up, c.Classes[k].Repair
	}
	if c.RateCV > 0 {
		a := 1 / (c.RateCV * c.RateCV)
		gam := distuv.Gamma{Alpha: a, Beta: a}
		for i := range g.w {
			g.w[i] = law.Draw(gam, rng)
			if !(g.w[i] > 0) {
				g.w[i] = math.SmallestNonzeroFloat64 // a node that never fails in practice
			}
		}
	} else {
		for i := range g.w {
			g.w[i] = 1
		}
	}
	if c.Grouped > 0 {
		for _, x := range c.Sizes {
			g.sizeTotal += x
		}
	}
	for i := range c.Nodes {
		g.ids[i], g.pos[i] = i, i
		g.schedule(i, 0)
	}
	res, err := g.run()
	if err != nil {
		return Result{}, err
	}
	res.Multipliers = g.w
	res.Class = class
	return res, nil
}

func (c *Config) check() error {
	switch {
	case c.Nodes < 1 || c.Nodes > trace.MaxNodes:
		return fmt.Errorf("synth: Config.Nodes = %d, want 1 to %d", c.Nodes, trace.MaxNodes)
	case !(c.Duration > 0) || math.IsInf(c.Duration, 0):
		return fmt.Errorf("synth: Config.Duration = %v, want a finite positive number of seconds", c.Duration)
	case !(c.RateCV >= 0) || c.RateCV > MaxRateCV:
		return fmt.Errorf("synth: Config.RateCV = %v, want 0 to %v", c.RateCV, MaxRateCV)
	case !(c.Grouped >= 0 && c.Grouped <= 1):
		return fmt.Errorf("synth: Config.Grouped = %v, want a fraction in [0, 1]", c.Grouped)
	case c.MaxOutages < 0:
		return fmt.Errorf("synth: Config.MaxOutages = %d, want ≥ 0", c.MaxOutages)
	}
	if len(c.Classes) > 0 {
		if err := c.checkClasses(); err != nil {
			return err
		}
	} else {
		if err := checkLaw("Up", c.Up); err != nil {
			return err
		}
		if err := checkLaw("Repair", c.Repair); err != nil {
			return err
		}
	}
	if c.Grouped == 0 {
		return nil
	}
	if len(c.Sizes) > c.Nodes+1 {
		return fmt.Errorf("synth: Config.Sizes has %d weights, want at most Nodes + 1 = %d", len(c.Sizes), c.Nodes+1)
	}
	total := 0.0
	for k, x := range c.Sizes {
		if !(x >= 0) || math.IsInf(x, 0) || (k < 2 && x != 0) {
			return fmt.Errorf("synth: Config.Sizes[%d] = %v, want a finite weight ≥ 0 (0 for sizes 0 and 1)", k, x)
		}
		total += x
	}
	if !(total > 0) || math.IsInf(total, 0) {
		return errors.New("synth: Config.Sizes has no positive weight, want one for some size ≥ 2 when Grouped > 0")
	}
	return nil
}

// checkLaw checks a law of the configuration (law.Check).
func checkLaw(name string, l law.Law) error {
	if err := law.Check(l); err != nil {
		return fmt.Errorf("synth: Config.%s %w", name, err)
	}
	return nil
}

// gen is the state of one generation.
type gen struct {
	c         Config
	rng       *rand.Rand
	w         []float64
	sizeTotal float64
	// up and repair are each node's laws (its class's, or the Config's).
	up, repair []law.Law

	q   pending
	gen []int // generation of each node's pending event (stale ones skipped)
	// ids[:nUp] are the nodes up, ids[nUp:] the nodes down; pos inverts ids.
	ids, pos []int
	nUp      int

	down    [][]trace.Interval
	outages int
}

// schedule draws the next failure of node i, up from time t.
func (g *gen) schedule(i int, t float64) {
	g.gen[i]++
	g.q.push(pendingEvent{t: t + law.Draw(g.up[i], g.rng)/g.w[i], node: i, gen: g.gen[i], failure: true})
}

// markDown moves node i to the down part of ids.
func (g *gen) markDown(i int) {
	last := g.ids[g.nUp-1]
	p := g.pos[i]
	g.ids[p], g.ids[g.nUp-1] = last, i
	g.pos[last], g.pos[i] = p, g.nUp-1
	g.nUp--
}

func (g *gen) markUp(i int) {
	first := g.ids[g.nUp]
	p := g.pos[i]
	g.ids[p], g.ids[g.nUp] = first, i
	g.pos[first], g.pos[i] = p, g.nUp
	g.nUp++
}

// fail takes node i down at t with the event label, and schedules its
// repair.
func (g *gen) fail(i int, t float64, label int) error {
	if g.outages == g.c.MaxOutages {
		return fmt.Errorf("synth: more than Config.MaxOutages = %d outages: shorten Config.Duration or lengthen the up times", g.c.MaxOutages)
	}
	g.outages++
	g.markDown(i)
	r := t + law.Draw(g.repair[i], g.rng)
	g.down[i] = append(g.down[i], trace.Interval{Start: t, End: math.Min(r, g.c.Duration), Event: label})
	g.gen[i]++
	g.q.push(pendingEvent{t: r, node: i, gen: g.gen[i]})
	return nil
}

func (g *gen) run() (Result, error) {
	var res Result
	for len(g.q) > 0 {
		ev := g.q.pop()
		if ev.t >= g.c.Duration {
			break
		}
		if ev.gen != g.gen[ev.node] {
			continue // a failure cancelled by a grouped event
		}
		if !ev.failure {
			g.markUp(ev.node)
			g.schedule(ev.node, ev.t)
			continue
		}
		res.Events++
		label, k := 0, 1
		if g.c.Grouped > 0 && g.rng.Float64() < g.c.Grouped {
			res.GroupedEvents++
			label, k = res.GroupedEvents, g.size()
		}
		if err := g.fail(ev.node, ev.t, label); err != nil {
			return res, err
		}
		res.Failures++
		for range k - 1 {
			if g.nUp == 0 {
				break
			}
			j := g.ids[g.rng.IntN(g.nUp)]
			if err := g.fail(j, ev.t, label); err != nil {
				return res, err
			}
			res.Failures++
		}
	}
	nodes := make([]trace.Node, g.c.Nodes)
	for i := range nodes {
		nodes[i] = trace.Node{Start: 0, End: g.c.Duration, Down: g.down[i]}
	}
	tr, err := trace.New(nodes)
	if err != nil {
		return res, fmt.Errorf("synth: %w", err) // cannot happen: outages are finite and ordered
	}
	res.Trace = tr
	return res, nil
}

// size draws the size of a grouped event from the weights.
func (g *gen) size() int {
	u := g.rng.Float64() * g.sizeTotal
	k := len(g.c.Sizes) - 1
	for s, x := range g.c.Sizes {
		if u < x {
			k = s
			break
		}
		u -= x
	}
	for g.c.Sizes[k] == 0 { // rounding past the last positive weight
		k--
	}
	return k
}

type pendingEvent struct {
	t       float64
	node    int
	gen     int
	failure bool
}

// pending is a binary min-heap of events by time, then node (a
// deterministic order for equal times), typed to avoid container/heap's
// boxing of every event.
type pending []pendingEvent

func (h pending) less(i, j int) bool {
	if h[i].t != h[j].t {
		return h[i].t < h[j].t
	}
	return h[i].node < h[j].node
}

func (h *pending) push(ev pendingEvent) {
	*h = append(*h, ev)
	q := *h
	for i := len(q) - 1; i > 0; {
		p := (i - 1) / 2
		if !q.less(i, p) {
			break
		}
		q[i], q[p] = q[p], q[i]
		i = p
	}
}

func (h *pending) pop() pendingEvent {
	q := *h
	top := q[0]
	last := len(q) - 1
	q[0] = q[last]
	q = q[:last]
	for i := 0; ; {
		l, small := 2*i+1, i
		if l < len(q) && q.less(l, small) {
			small = l
		}
		if r := l + 1; r < len(q) && q.less(r, small) {
			small = r
		}
		if small == i {
			break
		}
		q[i], q[small] = q[small], q[i]
		i = small
	}
	*h = q
	return top
}

// ForFailures returns the Config.Grouped and the mean of Config.Up that
// give a trace where a fraction groupedFailures of the node failures
// belong to grouped events of the size weights sizes and each node fails
// every mttf seconds of up time on average, counting the failures other
// nodes' grouped events cause. With S the size of a grouped event
// (E[S] from the weights) an event is grouped with probability
// g = f/(f + (1 − f)·E[S]), f = groupedFailures, and takes down
// E[K] = 1 − g + g·E[S] nodes on average; a node starting events at rate
// 1/U per second of up time fails at rate E[K]/U (each failure of a
// grouped event lands on a node that is up), so U = mttf·E[K]. The
// identity is exact while every grouped event finds enough nodes up.
func ForFailures(groupedFailures, mttf float64, sizes []float64) (grouped, upMean float64, err error) {
	if !(groupedFailures >= 0 && groupedFailures <= 1) {
		return 0, 0, fmt.Errorf("synth: grouped failures = %v, want a fraction in [0, 1]", groupedFailures)
	}
	if !(mttf > 0) || math.IsInf(mttf, 0) {
		return 0, 0, fmt.Errorf("synth: MTTF = %v, want a finite positive number of seconds", mttf)
	}
	if groupedFailures == 0 {
		return 0, mttf, nil
	}
	var total, mean float64
	for k, x := range sizes {
		if !(x >= 0) || math.IsInf(x, 0) || (k < 2 && x != 0) {
			return 0, 0, fmt.Errorf("synth: sizes[%d] = %v, want a finite weight ≥ 0 (0 for sizes 0 and 1)", k, x)
		}
		total += x
		mean += float64(k) * x
	}
	if !(total > 0) || math.IsInf(total, 0) {
		return 0, 0, errors.New("synth: sizes has no positive weight, want one for some size ≥ 2")
	}
	mean /= total
	f := groupedFailures
	grouped = f / (f + (1-f)*mean)
	return grouped, mttf * (1 - grouped + grouped*mean), nil
}
