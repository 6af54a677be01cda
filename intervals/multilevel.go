package intervals

import (
	"fmt"
	"math"
)

// MultiLevelSchedule is a first-order multi-level checkpointing schedule
// (see the package documentation, "Multi-level: Benoit et al. (2017), Di
// et al. (2017)").
type MultiLevelSchedule struct {
	// Interval is the computation between consecutive checkpoints (of
	// any level), in seconds.
	Interval float64
	// Pattern is [V₁, …, V_{L−1}]: V_ℓ level-ℓ checkpoints between
	// consecutive level-(ℓ+1) ones.
	Pattern []int
	// Ratios are the continuous optima of V_ℓ + 1 before rounding
	// (BenoitMultiLevel; nil for a given pattern).
	Ratios []float64
	// Waste is the first-order fraction of time lost,
	// Σ_ℓ n_ℓΔC_ℓ/W + W·Σ_ℓ λ_ℓ/(2n_ℓ) + Σ_ℓ λ_ℓR_ℓ, for the schedule.
	Waste float64
}

func checkLevels(fn string, costs, rates, recovery []float64) error {
	L := len(costs)
	if L < 1 || len(rates) != L || recovery != nil && len(recovery) != L {
		return fmt.Errorf("intervals: %s: %d costs, %d rates, %d recovery costs, want as many of each (at least one)", fn, L, len(rates), len(recovery))
	}
	for i := range costs {
		name := fmt.Sprintf("costs[%d]", i)
		if err := checkPositive(fn, name, costs[i]); err != nil {
			return err
		}
		if err := checkNonNegative(fn, fmt.Sprintf("rates[%d]", i), rates[i]); err != nil {
			return err
		}
		if recovery != nil {
			if err := checkNonNegative(fn, fmt.Sprintf("recovery[%d]", i), recovery[i]); err != nil {
				return err
			}
		}
	}
	return nil
}

// increments returns ΔC_ℓ = C_ℓ − C_{ℓ−1} (C₀ = 0), the extra cost of a
// level-ℓ checkpoint over a level-(ℓ−1) one, floored at a millionth of
// C_ℓ so that a level costing less than the one below stays usable.
func increments(costs []float64) []float64 {
	d := make([]float64, len(costs))
	prev := 0.0
	for i, c := range costs {
		d[i] = math.Max(c-prev, 1e-6*c)
		prev = c
	}
	return d
}

// MultiLevelWaste returns the first-order schedule of a given pattern:
// the period W (computation between level-L checkpoints) minimising
// Σ_ℓ n_ℓΔC_ℓ/W + W·Σ_ℓ λ_ℓ/(2n_ℓ), that is
//
//	W* = sqrt(Σ_ℓ n_ℓΔC_ℓ / Σ_ℓ (λ_ℓ/(2n_ℓ))),  Interval = W*/n₁,
//
// with n_ℓ = ∏_{k≥ℓ}(V_k + 1) the checkpoints of level ≥ ℓ per period.
// costs[ℓ-1] is the cost of a level-ℓ checkpoint, rates[ℓ-1] the rate of
// failures of severity ℓ (that need a checkpoint of level ≥ ℓ), and
// recovery (optional) the recovery costs, which add Σλ_ℓR_ℓ to the waste.
func MultiLevelWaste(costs, rates, recovery []float64, pattern []int) (MultiLevelSchedule, error) {
	const fn = "MultiLevelWaste"
	if err := checkLevels(fn, costs, rates, recovery); err != nil {
		return MultiLevelSchedule{}, err
	}
	L := len(costs)
	if len(pattern) != L-1 {
		return MultiLevelSchedule{}, fmt.Errorf("intervals: %s: pattern of %d entries for %d levels, want %d", fn, len(pattern), L, L-1)
	}
	d := increments(costs)
	n := make([]float64, L)
	n[L-1] = 1
	for l := L - 2; l >= 0; l-- {
		if pattern[l] < 0 {
			return MultiLevelSchedule{}, fmt.Errorf("intervals: %s: pattern[%d] = %d, want ≥ 0", fn, l, pattern[l])
		}
		n[l] = n[l+1] * float64(pattern[l]+1)
	}
	var cost, loss float64
	for l := range L {
		cost += n[l] * d[l]
		loss += rates[l] / (2 * n[l])
	}
	if loss == 0 {
		return MultiLevelSchedule{}, fmt.Errorf("intervals: %s: every rate is zero: no failures, no finite optimum", fn)
	}
	w := math.Sqrt(cost / loss)
	s := MultiLevelSchedule{Interval: w / n[0], Pattern: append([]int(nil), pattern...), Waste: 2 * math.Sqrt(cost*loss)}
	for l := range recovery {
		s.Waste += rates[l] * recovery[l]
	}
	return s, nil
}

// BenoitMultiLevel returns the first-order optimal multi-level schedule
// of Benoit, Cavelan, Le Fèvre, Robert and Sun (IEEE TC 66(7), 2017): the
// checkpoints of level ≥ ℓ come at the frequency x_ℓ = sqrt(λ_ℓ/(2ΔC_ℓ))
// per second of computation, so that
//
//	Interval = 1/x₁ = sqrt(2ΔC₁/λ₁),   V_ℓ + 1 = x_ℓ/x_{ℓ+1},
//	waste ≈ Σ_ℓ sqrt(2λ_ℓΔC_ℓ) (+ Σλ_ℓR_ℓ),
//
// ΔC_ℓ = C_ℓ − C_{ℓ−1} in this toolkit's convention (a level-ℓ checkpoint
// costs C_ℓ in all and stands for the lower levels at its position; the
// paper writes a level-ℓ checkpoint as the lower ones followed by C_ℓ of
// its own). The ratios are rounded to the integer pattern with the least
// first-order waste among their floors and ceilings (each at least 1),
// and Interval is then MultiLevelWaste's for that pattern. Ratios below 1
// (a level whose failures are too rare for its cost) become V_ℓ = 0: the
// level is not used, the paper's choice of a subset of levels in its
// simplest form.
func BenoitMultiLevel(costs, rates, recovery []float64) (MultiLevelSchedule, error) {
	const fn = "BenoitMultiLevel"
	if err := checkLevels(fn, costs, rates, recovery); err != nil {
		return MultiLevelSchedule{}, err
	}
	L := len(costs)
	d := increments(costs)
	x := make([]float64, L)
	for l := range L {
		x[l] = math.Sqrt(rates[l] / (2 * d[l]))
	}
	ratios := make([]float64, L-1)
	for l := range ratios {
		ratios[l] = x[l] / x[l+1]
		if x[l+1] == 0 {
			ratios[l] = math.Inf(1)
		}
	}
	// The best rounding: floors and ceilings of every ratio, 2^{L−1} ≤
	// 128 patterns.
	var best MultiLevelSchedule
	found := false
	pattern := make([]int, L-1)
	for mask := 0; mask < 1<<(L-1); mask++ {
		for l, r := range ratios {
			v := math.Floor(r)
			if mask>>l&1 == 1 {
				v = math.Ceil(r)
			}
			pattern[l] = int(math.Min(math.Max(v, 1), 1e6)) - 1
		}
		s, err := MultiLevelWaste(costs, rates, recovery, pattern)
		if err != nil {
			return MultiLevelSchedule{}, err
		}
		if !found || s.Waste < best.Waste {
			best, found = s, true
		}
	}
	best.Ratios = ratios
	return best, nil
}

// DiTwoLevel returns the first-order optimal two-level schedule of Di,
// Robert, Vivien and Cappello (IEEE TPDS 28(1), 2017) for level costs c1
// < c2, failure rates l1 (recovered from either level) and l2 (from the
// level-2 checkpoint only): x = V + 1 segments per level-2 checkpoint,
// the first x − 1 ending with a level-1 checkpoint, and segments of W₁
// seconds of computation. The waste (((x−1)c1 + c2)/(xW₁) + l1·W₁/2 +
// l2·xW₁/2) is least at
//
//	W₁(x) = sqrt(2((x−1)c1 + c2) / (x(l1 + x·l2))),
//	x*    = sqrt(l1(c2 − c1) / (l2·c1)),
//
// x* rounded to the better of its floor and ceiling (at least 1).
func DiTwoLevel(c1, c2, l1, l2 float64) (MultiLevelSchedule, error) {
	const fn = "DiTwoLevel"
	if err := firstError(checkPositive(fn, "c1", c1), checkPositive(fn, "c2", c2), checkPositive(fn, "l1", l1), checkPositive(fn, "l2", l2)); err != nil {
		return MultiLevelSchedule{}, err
	}
	if c2 <= c1 {
		return MultiLevelSchedule{}, paramError(fn, "c2", c2, fmt.Sprintf("more than c1 = %v", c1))
	}
	waste := func(x float64) (float64, float64) {
		w1 := math.Sqrt(2 * ((x-1)*c1 + c2) / (x * (l1 + x*l2)))
		return ((x-1)*c1+c2)/(x*w1) + l1*w1/2 + l2*x*w1/2, w1
	}
	xs := math.Sqrt(l1 * (c2 - c1) / (l2 * c1))
	best := MultiLevelSchedule{Waste: math.Inf(1), Ratios: []float64{xs}}
	for _, x := range []float64{math.Max(1, math.Floor(xs)), math.Max(1, math.Ceil(xs))} {
		if x > 1e6 {
			x = 1e6
		}
		if h, w1 := waste(x); h < best.Waste {
			best.Waste, best.Interval, best.Pattern = h, w1, []int{int(x) - 1}
		}
	}
	return best, nil
}
