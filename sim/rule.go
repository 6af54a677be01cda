package sim

import (
	"cmp"
	"math/rand/v2"
	"slices"
)

// A Rule chooses which functional processors the application uses when it
// starts or recovers on a of them. With exponential processors every rule
// gives the same process in law; with a real trace the choice matters.
type Rule interface {
	// Choose appends a distinct processors taken from up to dst and returns
	// it. up lists the functional processors in increasing order (len(up)
	// ≥ a ≥ 1) and may be reordered. fails[i] is the number of failures
	// processor i has had since the start of the run; rng is the run's own
	// random stream for rules. A Timeline panics if the choice is not a
	// set of a distinct functional processors.
	Choose(dst, up []int, a int, fails []int, rng *rand.Rand) []int
}

// LowestIndex uses the a functional processors of lowest index.
type LowestIndex struct{}

// Choose implements Rule.
func (LowestIndex) Choose(dst, up []int, a int, _ []int, _ *rand.Rand) []int {
	return append(dst, up[:a]...)
}

// Random uses a functional processors chosen uniformly at random with the
// run's random stream.
type Random struct{}

// Choose implements Rule with a partial Fisher–Yates shuffle of up.
func (Random) Choose(dst, up []int, a int, _ []int, rng *rand.Rand) []int {
	for i := range a {
		j := i + rng.IntN(len(up)-i)
		up[i], up[j] = up[j], up[i]
	}
	return append(dst, up[:a]...)
}

// MostReliable uses the a functional processors with the fewest failures
// so far (in the run, plus Prior); ties go to the lower index.
type MostReliable struct {
	// Prior, if not nil, holds failures counted before the run, by
	// processor (a trace's history): a processor's count is Prior[i] plus
	// its failures in the run.
	Prior []int
}

// Choose implements Rule.
func (r MostReliable) Choose(dst, up []int, a int, fails []int, _ *rand.Rand) []int {
	count := func(i int) int {
		if r.Prior != nil {
			return r.Prior[i] + fails[i]
		}
		return fails[i]
	}
	if a < len(up) {
		slices.SortFunc(up, func(i, j int) int {
			if c := cmp.Compare(count(i), count(j)); c != 0 {
				return c
			}
			return cmp.Compare(i, j)
		})
	}
	return append(dst, up[:a]...)
}
