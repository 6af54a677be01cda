package trace

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// MaxSyntheticNodes bounds the node count of Exponential.
const MaxSyntheticNodes = 1 << 20

// Exponential returns a synthetic trace of n nodes on [0, horizon) whose
// up and down times are independent exponential variables of means mttf
// and mttr (the process the Markov model assumes), drawn from rng: every
// node starts up. It returns an error naming the argument if n is not in
// [1, MaxSyntheticNodes], a time is not finite and positive, or the
// expected number of outages exceeds 10⁸.
func Exponential(n int, mttf, mttr, horizon float64, rng *rand.Rand) (*Trace, error) {
	switch {
	case n < 1 || n > MaxSyntheticNodes:
		return nil, fmt.Errorf("trace: nodes = %d, want in [1, %d]", n, MaxSyntheticNodes)
	case !(mttf > 0) || math.IsInf(mttf, 0):
		return nil, fmt.Errorf("trace: mttf = %v, want a finite positive number of seconds", mttf)
	case !(mttr > 0) || math.IsInf(mttr, 0):
		return nil, fmt.Errorf("trace: mttr = %v, want a finite positive number of seconds", mttr)
	case !(horizon > 0) || math.IsInf(horizon, 0):
		return nil, fmt.Errorf("trace: horizon = %v, want a finite positive number of seconds", horizon)
	case float64(n)*horizon/(mttf+mttr) > 1e8:
		return nil, fmt.Errorf("trace: about %.3g outages, more than 1e8", float64(n)*horizon/(mttf+mttr))
	case rng == nil:
		return nil, fmt.Errorf("trace: nil random source")
	}
	nodes := make([]Node, n)
	for i := range nodes {
		nd := Node{Start: 0, End: horizon}
		for at := rng.ExpFloat64() * mttf; at < horizon; {
			end := at + rng.ExpFloat64()*mttr
			nd.Down = append(nd.Down, Interval{Start: at, End: end})
			at = end + rng.ExpFloat64()*mttf
		}
		nodes[i] = nd
	}
	return New(nodes)
}
