package sim

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/ckpt-markov/markov/internal/quote"
)

// A Rule chooses which functional processors the application uses when it
// starts or recovers on a of them. With exponential processors every rule
// gives the same process in law; with a real trace the choice matters.
//
// A nil Rule means MostReliable{}: the one default of the toolkit, in
// Settings, NewTimeline and the trace replays of package evaluate. The
// rules are named by their String methods ("most-reliable", "random",
// "lowest-index", "lastval"), which ParseRule reads.
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

// String returns "lowest-index".
func (LowestIndex) String() string { return "lowest-index" }

// Choose implements Rule.
func (LowestIndex) Choose(dst, up []int, a int, _ []int, _ *rand.Rand) []int {
	return append(dst, up[:a]...)
}

// Random uses a functional processors chosen uniformly at random with the
// run's random stream.
type Random struct{}

// String returns "random".
func (Random) String() string { return "random" }

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

// String returns "most-reliable".
func (MostReliable) String() string { return "most-reliable" }

// Choose implements Rule.
func (r MostReliable) Choose(dst, up []int, a int, fails []int, _ *rand.Rand) []int {
	if a < len(up) {
		r.sort(up, fails)
	}
	return append(dst, up[:a]...)
}

// sort orders up by failure count, ties to the lower index.
func (r MostReliable) sort(up, fails []int) {
	count := func(i int) int {
		if r.Prior != nil {
			return r.Prior[i] + fails[i]
		}
		return fails[i]
	}
	slices.SortFunc(up, func(i, j int) int {
		if c := cmp.Compare(count(i), count(j)); c != 0 {
			return c
		}
		return cmp.Compare(i, j)
	})
}

// ParseRule reads a rule name as the rules' String methods write it:
// "most-reliable", "random", "lowest-index" or "lastval" (Lastval{}, its
// default window). The empty string means the default, MostReliable{}.
func ParseRule(s string) (Rule, error) {
	for _, r := range []Rule{MostReliable{}, Random{}, LowestIndex{}, Lastval{}} {
		if s == fmt.Sprint(r) {
			return r, nil
		}
	}
	if s == "" {
		return MostReliable{}, nil
	}
	return nil, fmt.Errorf("sim: rule %s is not one of most-reliable, random, lowest-index, lastval", quote.Value(s))
}
