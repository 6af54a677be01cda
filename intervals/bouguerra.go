package intervals

import (
	"fmt"
	"math"

	"github.com/ckpt-markov/markov/internal/scalar"
	"github.com/ckpt-markov/markov/law"
)

// CostFunc gives a checkpoint or restart cost as a function of the work
// already done S (in seconds of failure-free computation).
type CostFunc func(done float64) float64

// ConstantCost returns the CostFunc that is v for every S.
func ConstantCost(v float64) CostFunc { return func(float64) float64 { return v } }

// ExpectedCompletion returns the expected completion time of Bouguerra et
// al. (2008, Theorem 2) for the work segments I_1, …, I_k (seconds of
// computation) under the failure law:
//
//	E[T] = Σ_j g(η_j),  η_j = I_j + C(S_j) + R(S_{j−1}),  S_j = I_1 + … + I_j,
//
// where g is the law's expected segment time (segmentTime). As in the paper, the restart R(S_{j−1}) is
// charged to every segment, including the first (R(S_0) = R(0)).
func ExpectedCompletion(law law.Law, segments []float64, c, r CostFunc) (float64, error) {
	const fn = "ExpectedCompletion"
	if err := validLaw(fn, law); err != nil {
		return math.NaN(), err
	}
	if c == nil || r == nil {
		return math.NaN(), fmt.Errorf("intervals: %s: nil cost function", fn)
	}
	if len(segments) == 0 {
		return math.NaN(), fmt.Errorf("intervals: %s: no segments", fn)
	}
	var total, done float64
	for j, seg := range segments {
		if !nonNegative(seg) {
			return math.NaN(), paramError(fn, fmt.Sprintf("segments[%d]", j), seg, "a finite value ≥ 0")
		}
		rj := r(done)
		done += seg
		cj := c(done)
		if !nonNegative(cj) {
			return math.NaN(), paramError(fn, fmt.Sprintf("C(S_%d)", j+1), cj, "a finite value ≥ 0")
		}
		if !nonNegative(rj) {
			return math.NaN(), paramError(fn, fmt.Sprintf("R(S_%d)", j), rj, "a finite value ≥ 0")
		}
		total += segmentTime(law, seg+cj+rj)
	}
	return total, nil
}

// Segments is an optimal cut of the work into equal segments with
// constant checkpoint and restart costs.
type Segments struct {
	// Count is the optimal integer number of segments k ≥ 1.
	Count int
	// Interval is the work per segment, W/k.
	Interval float64
	// Expected is the expected completion time k·g(W/k + C + R).
	Expected float64
	// KStar and IStar are the continuous optimum k* and its interval I*
	// = W/k* (exponential law: closed form), or NaN where not computed.
	KStar, IStar float64
}

// BouguerraExponential returns the optimal number of checkpoints for work
// w under exponential failures at rate lambda with constant checkpoint
// cost c and restart cost r (Bouguerra et al., Lemma 1 and Theorem 3).
// Equal segments are optimal and the continuous optimum is
//
//	I* = (1 + W0(−e^{−1−λ(C+R)}))/λ,   k* = λW/(1 + W0(−e^{−1−λ(C+R)})).
//
// Since E(k) = (k/λ)(e^{λ(W/k+C+R)} − 1) is convex in k (the perspective of
// a convex function), the integer optimum is ⌊k*⌋ or ⌈k*⌉ (at least 1),
// whichever gives the smaller E; ties go to the smaller k.
func BouguerraExponential(lambda, w, c, r float64) (Segments, error) {
	const fn = "BouguerraExponential"
	if err := firstError(checkPositive(fn, "lambda", lambda), checkSegments(fn, w, c, r)); err != nil {
		return Segments{}, err
	}
	istar := lambertOptimum(lambda*(c+r)) / lambda
	kstar := w / istar
	law := Exponential{Rate: lambda}
	e := func(k float64) float64 { return k * segmentTime(law, w/k+c+r) }
	lo := math.Max(1, math.Floor(kstar))
	hi := math.Max(1, math.Ceil(kstar))
	k := lo
	if e(hi) < e(lo) {
		k = hi
	}
	if k > math.MaxInt32 {
		return Segments{}, fmt.Errorf("intervals: %s: optimal k = %g too large", fn, k)
	}
	return Segments{Count: int(k), Interval: w / k, Expected: e(k), KStar: kstar, IStar: istar}, nil
}

// checkSegments checks the work w > 0 and the costs c, r ≥ 0 of fn's
// segments, with c + r > 0 (free checkpoints make k unbounded).
func checkSegments(fn string, w, c, r float64) error {
	if err := firstError(
		checkPositive(fn, "W", w),
		checkNonNegative(fn, "C", c),
		checkNonNegative(fn, "R", r),
	); err != nil {
		return err
	}
	if c+r == 0 {
		return paramError(fn, "C+R", 0, "> 0 (free checkpoints make k unbounded)")
	}
	return nil
}

// SegmentSettings controls BouguerraSegments. A nil *SegmentSettings means
// the defaults.
type SegmentSettings struct {
	// MaxCount bounds the number of segments examined; zero means 10⁶.
	MaxCount int
}

// BouguerraSegments returns the integer number of equal segments k that
// minimises E(k) = k·g(W/k + C + R) for any failure law with constant
// checkpoint cost c and restart cost r (Bouguerra et al., eq. 8 for the
// Weibull law; equal segments are optimal when g is convex, Lemma 2).
//
// The search is exhaustive and needs no convexity: since g(η) ≥ η for
// any law, E(k) ≥ W + k(C+R), so k = 1, 2, … is scanned until W + k(C+R)
// exceeds the best E found; the cost is a few times k_opt evaluations of
// g. KStar and IStar are NaN in the result (see BouguerraInterval).
func BouguerraSegments(law law.Law, w, c, r float64, set *SegmentSettings) (Segments, error) {
	const fn = "BouguerraSegments"
	if err := validLaw(fn, law); err != nil {
		return Segments{}, err
	}
	if err := checkSegments(fn, w, c, r); err != nil {
		return Segments{}, err
	}
	maxK := 1_000_000
	if set != nil && set.MaxCount > 0 {
		maxK = set.MaxCount
	}
	best, bestE := 0, math.Inf(1)
	for k := 1; ; k++ {
		if w+float64(k)*(c+r) > bestE {
			break
		}
		if k > maxK {
			return Segments{}, fmt.Errorf("intervals: %s: no optimum within MaxCount = %d segments", fn, maxK)
		}
		e := float64(k) * segmentTime(law, w/float64(k)+c+r)
		if e < bestE {
			best, bestE = k, e
		}
	}
	if best == 0 {
		return Segments{}, fmt.Errorf("intervals: %s: expected time is infinite for every k (failures too frequent for W = %v)", fn, w)
	}
	return Segments{
		Count:    best,
		Interval: w / float64(best),
		Expected: bestE,
		KStar:    math.NaN(),
		IStar:    math.NaN(),
	}, nil
}

// BouguerraInterval returns the continuous optimum I* of the segment
// length for constant costs c and r, the minimiser of the expected time
// per unit of work g(I + C + R)/I (E(k) = W·g(I+C+R)/I with I = W/k, so I*
// does not depend on W). For the Exponential law it is the closed form of
// BouguerraExponential; for other laws it is found by downhill bracketing
// and Brent's method in ln I (accurate to about 1e−7 relative;
// the cost is assumed unimodal in I).
func BouguerraInterval(law law.Law, c, r float64) (float64, error) {
	const fn = "BouguerraInterval"
	if err := validLaw(fn, law); err != nil {
		return math.NaN(), err
	}
	if err := firstError(checkNonNegative(fn, "C", c), checkNonNegative(fn, "R", r)); err != nil {
		return math.NaN(), err
	}
	if c+r == 0 {
		return math.NaN(), paramError(fn, "C+R", 0, "> 0 (free checkpoints make I* = 0)")
	}
	if e, ok := law.(Exponential); ok {
		return lambertOptimum(e.Rate*(c+r)) / e.Rate, nil
	}
	cost := func(i float64) float64 { return segmentTime(law, i+c+r) / i }
	i, err := scalar.LogMinimize(scalar.Plain(cost), c+r, minTol)
	if err != nil {
		return math.NaN(), fmt.Errorf("intervals: %s: %w", fn, err)
	}
	return i, nil
}
