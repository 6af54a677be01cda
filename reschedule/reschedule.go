package reschedule

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

// Vector is a rescheduling vector r(1..N), stored zero-based: v[n-1] = r(n).
type Vector []int

// N returns the number of processors the vector is defined for.
func (v Vector) N() int { return len(v) }

// At returns r(n) for 1 ≤ n ≤ N. It panics if n is out of range.
func (v Vector) At(n int) int { return v[n-1] }

// Validate reports whether v is a valid rescheduling vector: non-empty with
// 0 ≤ r(n) ≤ n for every n, and at least one n with r(n) > 0.
func (v Vector) Validate() error {
	if len(v) == 0 {
		return errors.New("reschedule: empty vector")
	}
	usable := false
	for i, r := range v {
		n := i + 1
		if r < 0 || r > n {
			return fmt.Errorf("reschedule: r(%d) = %d outside [0, %d]", n, r, n)
		}
		if r > 0 {
			usable = true
		}
	}
	if !usable {
		return errors.New("reschedule: r(n) = 0 for every n: the application can never run")
	}
	return nil
}

// Greedy returns r(n) = n for n processors. It returns an error for n < 1.
func Greedy(n int) (Vector, error) {
	if n < 1 {
		return nil, fmt.Errorf("reschedule: processors = %d, want ≥ 1", n)
	}
	v := make(Vector, n)
	for i := range v {
		v[i] = i + 1
	}
	return v, nil
}

// Moldable returns the Plank–Thomason moldable vector on n processors that
// always runs on exactly a of them: r(k) = a for k ≥ a and 0 below.
func Moldable(n, a int) (Vector, error) {
	if n < 1 {
		return nil, fmt.Errorf("reschedule: processors = %d, want ≥ 1", n)
	}
	if a < 1 || a > n {
		return nil, fmt.Errorf("reschedule: moldable processor count %d outside [1, %d]", a, n)
	}
	v := make(Vector, n)
	for k := a; k <= n; k++ {
		v[k-1] = a
	}
	return v, nil
}

// Explicit validates r and returns a copy of it as a Vector.
func Explicit(r []int) (Vector, error) {
	v := Vector(slices.Clone(r))
	if err := v.Validate(); err != nil {
		return nil, err
	}
	return v, nil
}

// PerformanceBased returns r(n) = argmax_{a ≤ n} ω(a), the processor count
// with the shortest failure-free run time among those available; ties go to
// the smaller count. workRate[a-1] = ω(a) must be finite and non-negative,
// with at least one positive entry.
func PerformanceBased(workRate []float64) (Vector, error) {
	if err := checkWorkRate(workRate); err != nil {
		return nil, err
	}
	v := make(Vector, len(workRate))
	best := 0
	for n := 1; n <= len(workRate); n++ {
		if workRate[n-1] > 0 && (best == 0 || workRate[n-1] > workRate[best-1]) {
			best = n
		}
		v[n-1] = best
	}
	return v, nil
}

// AvailabilitySettings configures AvailabilityBased. A nil *AvailabilitySettings
// means 50 random picks per processor count (the paper's number) and a PCG
// source seeded with (1, 2); so do zero fields.
type AvailabilitySettings struct {
	// Picks is the number of random processor sets averaged per count.
	Picks int
	// Rand is the source of the random picks.
	Rand *rand.Rand
}

// FailureCounts estimates F(a), a = 1..N: the mean, over random sets of a
// processors, of the number of distinct instants at which at least one
// processor of the set fails. failures[i] holds the failure instants of
// processor i (any order; repeated instants count once).
func FailureCounts(failures [][]float64, s *AvailabilitySettings) ([]float64, error) {
	picks, rng := 50, rand.New(rand.NewPCG(1, 2))
	if s != nil {
		if s.Picks < 0 {
			return nil, fmt.Errorf("reschedule: picks = %d, want ≥ 1 (or 0 for the default)", s.Picks)
		}
		if s.Picks > 0 {
			picks = s.Picks
		}
		if s.Rand != nil {
			rng = s.Rand
		}
	}
	n := len(failures)
	if n == 0 {
		return nil, errors.New("reschedule: no processors in failure trace")
	}
	for i, f := range failures {
		for _, t := range f {
			if math.IsNaN(t) || math.IsInf(t, 0) {
				return nil, fmt.Errorf("reschedule: failures[%d] holds non-finite instant %v", i, t)
			}
		}
	}
	// Number the distinct instants once; a pick's count is then the number
	// of distinct ids among its processors' instants, found with a stamp
	// per id instead of sorting (O(a + failures of the pick) per pick).
	id := make(map[float64]int)
	procIDs := make([][]int, n)
	for i, f := range failures {
		for _, t := range f {
			k, ok := id[t]
			if !ok {
				k = len(id)
				id[t] = k
			}
			procIDs[i] = append(procIDs[i], k)
		}
	}
	stamp := make([]int, len(id))
	pick := 0
	counts := make([]float64, n)
	perm := make([]int, n)
	for a := 1; a <= n; a++ {
		total := 0
		for range picks {
			for i := range perm {
				perm[i] = i
			}
			// Partial Fisher–Yates: the first a entries are a uniform pick.
			for i := 0; i < a; i++ {
				j := i + rng.IntN(n-i)
				perm[i], perm[j] = perm[j], perm[i]
			}
			pick++
			for _, p := range perm[:a] {
				for _, k := range procIDs[p] {
					if stamp[k] != pick {
						stamp[k] = pick
						total++
					}
				}
			}
		}
		counts[a-1] = float64(total) / float64(picks)
	}
	return counts, nil
}

// AvailabilityBased returns r(n) = argmin_{a ≤ n} F(a)/ω(a), where F comes
// from FailureCounts: the count that suffers the fewest failures per unit of
// work. Ties go to the larger count; counts with ω(a) = 0 are never chosen.
// len(failures) must equal len(workRate).
func AvailabilityBased(failures [][]float64, workRate []float64, s *AvailabilitySettings) (Vector, error) {
	if len(failures) != len(workRate) {
		return nil, fmt.Errorf("reschedule: failure trace has %d processors, work rate has %d entries", len(failures), len(workRate))
	}
	if err := checkWorkRate(workRate); err != nil {
		return nil, err
	}
	f, err := FailureCounts(failures, s)
	if err != nil {
		return nil, err
	}
	return argminRatio(f, workRate), nil
}

// argminRatio returns r(n) = argmin_{a ≤ n} f(a)/ω(a), ties to the larger a,
// skipping ω(a) = 0.
func argminRatio(f, workRate []float64) Vector {
	v := make(Vector, len(workRate))
	best, bestRatio := 0, math.Inf(1)
	for n := 1; n <= len(workRate); n++ {
		if w := workRate[n-1]; w > 0 {
			if ratio := f[n-1] / w; ratio <= bestRatio {
				best, bestRatio = n, ratio
			}
		}
		v[n-1] = best
	}
	return v
}

func checkWorkRate(workRate []float64) error {
	if len(workRate) == 0 {
		return errors.New("reschedule: empty work rate")
	}
	positive := false
	for i, w := range workRate {
		if math.IsNaN(w) || math.IsInf(w, 0) || w < 0 {
			return fmt.Errorf("reschedule: work rate ω(%d) = %v, want finite and ≥ 0", i+1, w)
		}
		if w > 0 {
			positive = true
		}
	}
	if !positive {
		return errors.New("reschedule: work rate is zero on every processor count")
	}
	return nil
}
