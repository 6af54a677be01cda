package intervals

import (
	"fmt"
	"math"

	"github.com/ckpt-markov/markov/internal/lambertw"
	"github.com/ckpt-markov/markov/internal/scalar"
)

// Volpex is the model of Rahman et al. for n inter-dependent processes,
// each run as r replicas, on nodes failing independently at rate λ: an
// interval of Tc seconds succeeds when every process keeps at least one
// replica alive; a failed interval is wasted and repeated; each successful
// interval ends with a checkpoint of Ts seconds.
type Volpex struct {
	// Processes is the number n ≥ 1 of inter-dependent processes.
	Processes int
	// Replicas is the number r ≥ 1 of replicas of each process.
	Replicas int
	// Rate is the failure rate λ > 0 of one node (1/MTTF), per second.
	Rate float64
	// Save is the checkpoint time Ts > 0, in seconds.
	Save float64
}

// Validate reports whether v describes a valid model.
func (v Volpex) Validate() error {
	const fn = "Volpex"
	if v.Processes < 1 {
		return fmt.Errorf("intervals: %s: Processes = %d, want ≥ 1", fn, v.Processes)
	}
	if v.Replicas < 1 {
		return fmt.Errorf("intervals: %s: Replicas = %d, want ≥ 1", fn, v.Replicas)
	}
	return firstError(checkPositive(fn, "Rate", v.Rate), checkPositive(fn, "Save", v.Save))
}

// log1mExp returns ln(1 − e^x) for x ≤ 0, accurate for x near 0 and for
// x → −∞ (Mächler, "Accurately computing log(1 − exp(−|a|))", 2012).
func log1mExp(x float64) float64 {
	if x > -math.Ln2 {
		return math.Log(-math.Expm1(x))
	}
	return math.Log1p(-math.Exp(x))
}

// logQ returns ln(1 − e^{−λT}), the log-probability that one replica fails
// within T.
func (v Volpex) logQ(tc float64) float64 { return log1mExp(-v.Rate * tc) }

// logSurvival returns ln P(Tc) = n·ln(1 − (1 − e^{−λTc})^r).
func (v Volpex) logSurvival(tc float64) float64 {
	return float64(v.Processes) * log1mExp(float64(v.Replicas)*v.logQ(tc))
}

// Survival returns the probability that an interval of tc seconds ends
// without losing all replicas of any process:
//
//	P(Tc) = (1 − (1 − e^{−λTc})^r)^n.
func (v Volpex) Survival(tc float64) float64 {
	return math.Exp(v.logSurvival(tc))
}

// ExpectedTime returns the expected time G(Tc) = Tc/P(Tc) + Ts to complete
// one interval of tc seconds and its checkpoint (Rahman et al., eq. 7).
func (v Volpex) ExpectedTime(tc float64) float64 {
	return tc/v.Survival(tc) + v.Save
}

// Overhead returns the normalised expected time G(Tc)/Tc = 1/P(Tc) + Ts/Tc
// (Rahman et al., eq. 8), the quantity the optimal interval minimises.
func (v Volpex) Overhead(tc float64) float64 {
	return 1/v.Survival(tc) + v.Save/tc
}

// Waste returns Overhead(tc) − 1 = (1/P(Tc) − 1) + Ts/Tc, the expected
// time lost per second of useful work, computed without the cancellation
// of forming 1/P − 1. It has the same minimiser as Overhead.
func (v Volpex) Waste(tc float64) float64 {
	return math.Expm1(-v.logSurvival(tc)) + v.Save/tc
}

// FirstOrder returns the interval that minimises the expansion of Waste to
// lowest order in λTc, where 1/P − 1 ≈ n·(λTc)^r:
//
//	Tc ≈ (Ts/(r·n·λ^r))^{1/(r+1)},
//
// which for r = 1 is the paper's sqrt(Ts/(nλ)) (section IV.A). For r > 1 it
// is this package's generalisation, used as the starting point of the
// numerical searches.
func (v Volpex) FirstOrder() (float64, error) {
	if err := v.Validate(); err != nil {
		return math.NaN(), err
	}
	r := float64(v.Replicas)
	// Work in logs: λ^r underflows for large r.
	lt := (math.Log(v.Save) - math.Log(r*float64(v.Processes)) - r*math.Log(v.Rate)) / (r + 1)
	return math.Exp(lt), nil
}

// Interval returns the optimal interval Tc. For r = 1 it is the closed form
// (Rahman et al., eqs. 6 and 12)
//
//	Tc = 2·W0(sqrt(n·λ·Ts)/2)/(n·λ);
//
// for r > 1 it is IntervalRoot.
func (v Volpex) Interval() (float64, error) {
	if err := v.Validate(); err != nil {
		return math.NaN(), err
	}
	if v.Replicas > 1 {
		return v.IntervalRoot()
	}
	nl := float64(v.Processes) * v.Rate
	return 2 * lambertw.W0(math.Sqrt(nl*v.Save)/2) / nl, nil
}

// focLog returns the log of the first-order condition of Rahman et al.
// (eq. 10), ln(Tc²·d(1/P)/dTc) − ln Ts, which is increasing in Tc and zero
// at the optimum:
//
//	Ts/Tc² = n·r·λ·e^{−λTc}·(1 − e^{−λTc})^{r−1} / (1 − (1 − e^{−λTc})^r)^{n+1}.
func (v Volpex) focLog(tc float64) float64 {
	n, r := float64(v.Processes), float64(v.Replicas)
	lq := v.logQ(tc)
	return 2*math.Log(tc) + math.Log(n*r*v.Rate) - v.Rate*tc + (r-1)*lq -
		(n+1)*log1mExp(r*lq) - math.Log(v.Save)
}

// rootTol is the relative accuracy of IntervalRoot (a width in ln Tc).
const rootTol = 1e-13

// IntervalRoot returns the optimal interval as the root of the first-order
// condition (Rahman et al., eq. 10), written in logarithms, bracketed from
// FirstOrder by factors of 2 and solved by Brent's method to a relative
// accuracy of 1e−13. It applies to any r ≥ 1.
func (v Volpex) IntervalRoot() (float64, error) {
	t0, err := v.FirstOrder()
	if err != nil {
		return math.NaN(), err
	}
	tc, err := scalar.LogRoot(scalar.Plain(v.focLog), t0, rootTol)
	if err != nil {
		return math.NaN(), fmt.Errorf("intervals: Volpex.IntervalRoot: %w for %+v", err, v)
	}
	return tc, nil
}

// minTol is the bracket width, in ln Tc, at which the direct minimisations
// stop. Waste is flat at its minimum, so the attainable accuracy is about
// sqrt(2ε·Waste/Waste″) in ln Tc, near 1e−8.
const minTol = 1e-10

// IntervalMinimize returns the optimal interval by minimising Waste
// directly: downhill bracketing in ln Tc from FirstOrder, then
// Brent's method (internal/scalar). It is independent of the first-order condition
// and serves as its cross-check; it is accurate to about 1e−8 relative.
func (v Volpex) IntervalMinimize() (float64, error) {
	t0, err := v.FirstOrder()
	if err != nil {
		return math.NaN(), err
	}
	tc, err := scalar.LogMinimize(scalar.Plain(v.Waste), t0, minTol)
	if err != nil {
		return math.NaN(), fmt.Errorf("intervals: Volpex.IntervalMinimize: %w for %+v", err, v)
	}
	return tc, nil
}
