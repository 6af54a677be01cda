package evaluate

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/ckpt-markov/markov/internal/quote"
	"github.com/ckpt-markov/markov/sim"
	"github.com/ckpt-markov/markov/trace"
)

// Rates chooses which nodes the failure rate given to the model (and to
// Young's and Daly's intervals) describes.
type Rates int

const (
	// UsedNodes, the default, estimates the failure rate of the nodes the
	// rule will use when the rule prefers some nodes (sim.MostReliable,
	// the default, or sim.LowestIndex) and the policy leaves spares
	// (r(N) < N): the mean of the empirical Bayes rates of those r(N)
	// nodes (see the package documentation). Otherwise, and always under
	// sim.Random or a rule of the caller's, it is the rate pooled over
	// all N nodes.
	UsedNodes Rates = iota
	// AllNodes pools the history of all N nodes (the paper's estimate).
	AllNodes
	// MixedRates is found in a Row only: some of its segments used the
	// rate of the used nodes and some the pooled rate (the
	// availability-based policy runs on all N nodes in some segments).
	MixedRates
)

// String returns "used", "all" or "mixed".
func (r Rates) String() string {
	switch r {
	case UsedNodes:
		return "used"
	case AllNodes:
		return "all"
	case MixedRates:
		return "mixed"
	}
	return fmt.Sprintf("Rates(%d)", int(r))
}

// MarshalText writes the name String returns, so that tables encode as
// JSON with names rather than numbers.
func (r Rates) MarshalText() ([]byte, error) { return []byte(r.String()), nil }

// ParseRates reads "used" or "all".
func ParseRates(s string) (Rates, error) {
	for _, r := range []Rates{UsedNodes, AllNodes} {
		if s == r.String() {
			return r, nil
		}
	}
	return 0, fmt.Errorf("evaluate: rates %s is not one of used, all", quote.Value(s))
}

func (r Rates) validate() error {
	if r != UsedNodes && r != AllNodes {
		return settingsErr("Rates", "%d, want UsedNodes or AllNodes", int(r))
	}
	return nil
}

// nodeRates returns the empirical Bayes estimate of each node's failure
// rate from the history [from, t0) of tr (Marshall 1991, the "global"
// estimator): with k_i failures in T_i seconds of up time and the pooled
// rate μ = Σk/ΣT,
//
//	s² = Σ T_i (k_i/T_i − μ)² / ΣT,   v = s² − μ/T̄ (T̄ = ΣT/M),
//	λ̃_i = μ + w_i (k_i/T_i − μ),     w_i = v / (v + μ/T_i),
//
// the sums over the M nodes with T_i > 0. v is the moment estimate of the
// variance of the true rates across nodes: the spread of the raw rates
// k_i/T_i less the Poisson noise μ/T_i. When v ≤ 0 (no more spread than
// chance gives) every λ̃_i is μ. A node with no up time in the history
// gets μ. The counts are those of trace.EstimateRates on each node alone,
// so Σk_i and ΣT_i are the pooled estimate's events and exposure.
//
// λ̃_i is the posterior mean of node i's rate under a prior with the
// estimated mean and variance: unlike k_i/T_i, it stays unbiased for nodes
// selected for their small counts, as the MostReliable rule selects them.
func nodeRates(tr *trace.Trace, t0 float64, est trace.EstimateSettings) ([]float64, error) {
	n := tr.NumNodes()
	k := make([]float64, n)
	exp := make([]float64, n)
	var sumK, sumT float64
	m := 0
	for i := range n {
		one, err := trace.New([]trace.Node{tr.Node(i)})
		if err != nil {
			// The node comes from a valid trace.
			panic(fmt.Sprintf("evaluate: node %d of a valid trace: %v", i, err))
		}
		// The counts and exposure are filled in even when the node alone
		// has too few events for an estimate (trace.ErrTooFewEvents) or
		// only zero-length outages; other errors are bad settings, which
		// the pooled estimate has already reported.
		e, _ := trace.EstimateRates(one, t0, &est)
		k[i], exp[i] = float64(e.Failure.Events), e.Failure.Exposure
		if exp[i] > 0 {
			sumK += k[i]
			sumT += exp[i]
			m++
		}
	}
	if sumT == 0 || sumK == 0 {
		return nil, fmt.Errorf("evaluate: no failure in the history before %v", t0)
	}
	mu := sumK / sumT
	var s2 float64
	for i := range n {
		if exp[i] > 0 {
			d := k[i]/exp[i] - mu
			s2 += exp[i] * d * d
		}
	}
	v := s2/sumT - mu*float64(m)/sumT
	rates := make([]float64, n)
	for i := range rates {
		rates[i] = mu
		if v > 0 && exp[i] > 0 {
			w := v / (v + mu/exp[i])
			rates[i] = mu + w*(k[i]/exp[i]-mu)
		}
	}
	return rates, nil
}

// preferred returns the a nodes of tr the rule prefers when all are
// functional, or nil when the rule prefers none (sim.Random) or is not
// one of package sim's: for sim.MostReliable (the default, nil) those
// with the fewest failures in the history [from, t0) (ties to the lower
// index), as the replay's sim.MostReliable with its prior counts ranks
// them; for sim.LowestIndex the nodes 0 … a−1.
func preferred(rule sim.Rule, tr *trace.Trace, a int, from, t0 float64) []int {
	n := tr.NumNodes()
	nodes := make([]int, n)
	for i := range nodes {
		nodes[i] = i
	}
	switch rule.(type) {
	case nil, sim.MostReliable, *sim.MostReliable:
		count := make([]int, n)
		for i := range count {
			count[i] = len(nodeFailures(tr.Node(i), from, t0, nil))
		}
		slices.SortStableFunc(nodes, func(i, j int) int { return cmp.Compare(count[i], count[j]) })
	case sim.LowestIndex, *sim.LowestIndex:
	default:
		return nil
	}
	return nodes[:a]
}
