package intervals

import (
	"math"

	"github.com/ckpt-markov/markov/internal/lambertw"
)

// YoungInterval returns Young's first-order interval sqrt(2·δ·M) for job
// mean time between failures m and checkpoint cost delta (Young 1974; the
// same value follows from Gropp & Lusk 2004).
func YoungInterval(m, delta float64) (float64, error) {
	const fn = "YoungInterval"
	if err := firstError(checkPositive(fn, "M", m), checkPositive(fn, "delta", delta)); err != nil {
		return math.NaN(), err
	}
	return math.Sqrt(2 * delta * m), nil
}

// DalyLowOrder returns Daly's low-order interval sqrt(2·δ·M) − δ (Daly
// 2006). It needs δ < 2M, otherwise the interval would not be positive.
func DalyLowOrder(m, delta float64) (float64, error) {
	const fn = "DalyLowOrder"
	if err := firstError(checkPositive(fn, "M", m), checkPositive(fn, "delta", delta)); err != nil {
		return math.NaN(), err
	}
	if delta >= 2*m {
		return math.NaN(), paramError(fn, "delta", delta, "< 2M (use DalyHigherOrder, which returns M for delta ≥ 2M)")
	}
	return math.Sqrt(2*delta*m) - delta, nil
}

// DalyHigherOrder returns Daly's higher-order interval (Daly 2006, eq. 37)
//
//	τ = sqrt(2δM)·[1 + (1/3)·sqrt(δ/(2M)) + (1/9)·(δ/(2M))] − δ   for δ < 2M,
//	τ = M                                                      for δ ≥ 2M.
func DalyHigherOrder(m, delta float64) (float64, error) {
	const fn = "DalyHigherOrder"
	if err := firstError(checkPositive(fn, "M", m), checkPositive(fn, "delta", delta)); err != nil {
		return math.NaN(), err
	}
	if delta >= 2*m {
		return m, nil
	}
	x := delta / (2 * m)
	return math.Sqrt(2*delta*m)*(1+math.Sqrt(x)/3+x/9) - delta, nil
}

// DalyOptimum returns the exact minimiser of Daly's expected wall time
// (see DalyWallTime) over the interval τ:
//
//	τ* = M·(1 + W0(−e^{−1−δ/M})).
//
// Setting d/dτ[(e^{(τ+δ)/M} − 1)/τ] = 0 gives (τ/M − 1)·e^{τ/M−1} =
// −e^{−1−δ/M}; the principal branch gives the positive root. The value
// does not depend on the restart cost R. DalyHigherOrder is the expansion
// of τ* to third order in sqrt(δ/M).
func DalyOptimum(m, delta float64) (float64, error) {
	const fn = "DalyOptimum"
	if err := firstError(checkPositive(fn, "M", m), checkPositive(fn, "delta", delta)); err != nil {
		return math.NaN(), err
	}
	return m * lambertOptimum(delta/m), nil
}

// lambertOptimum returns 1 + W0(−e^{−1−x}) for x > 0, the minimiser in
// units of 1/λ of (e^{λ(T+c)} − 1)/T with x = λc. The argument of W0 lies
// at e·(−e^{−1−x}) + 1 = 1 − e^{−x} from the branch point; passing that
// distance exactly keeps full relative accuracy when x is small and
// 1 + W0 ≈ sqrt(2x).
func lambertOptimum(x float64) float64 {
	return lambertw.OnePlusW0(-math.Expm1(-x))
}

// DalyWallTime returns Daly's expected wall-clock time to complete work ts
// (failure-free compute time) with interval tau, checkpoint cost delta,
// restart cost r and job mean time between failures m (Daly 2006, eq. 20):
//
//	T_w = M·e^{R/M}·(e^{(τ+δ)/M} − 1)·T_s/τ.
func DalyWallTime(m, delta, r, tau, ts float64) (float64, error) {
	const fn = "DalyWallTime"
	if err := firstError(
		checkPositive(fn, "M", m),
		checkNonNegative(fn, "delta", delta),
		checkNonNegative(fn, "R", r),
		checkPositive(fn, "tau", tau),
		checkNonNegative(fn, "Ts", ts),
	); err != nil {
		return math.NaN(), err
	}
	return m * math.Exp(r/m) * math.Expm1((tau+delta)/m) * ts / tau, nil
}

// VaidyaExpectedTime returns the expected time to complete an interval of
// t useful seconds under exponential failures with rate lambda, checkpoint
// latency l, checkpoint overhead c and recovery cost r (Vaidya 1997):
//
//	Γ(T) = (1/λ)·e^{λ(R + L − C)}·(e^{λ(T + C)} − 1).
//
// Vaidya's latency includes the overhead, so l ≥ c is required.
func VaidyaExpectedTime(lambda, t, l, c, r float64) (float64, error) {
	const fn = "VaidyaExpectedTime"
	if err := firstError(
		checkPositive(fn, "lambda", lambda),
		checkNonNegative(fn, "T", t),
		checkNonNegative(fn, "C", c),
		checkNonNegative(fn, "L", l),
		checkNonNegative(fn, "R", r),
	); err != nil {
		return math.NaN(), err
	}
	if l < c {
		return math.NaN(), paramError(fn, "L", l, "≥ C (latency includes the overhead)")
	}
	return math.Exp(lambda*(r+l-c)) * math.Expm1(lambda*(t+c)) / lambda, nil
}

// VaidyaInterval returns the interval T that minimises Vaidya's overhead
// ratio Γ(T)/T − 1 (see VaidyaExpectedTime):
//
//	T* = (1 + W0(−e^{−1−λC}))/λ.
//
// As Vaidya (1997) observed, the optimum does not depend on the latency L
// nor on the recovery cost R: they only scale Γ. It equals DalyOptimum
// with M = 1/λ and δ = C.
func VaidyaInterval(lambda, c float64) (float64, error) {
	const fn = "VaidyaInterval"
	if err := firstError(checkPositive(fn, "lambda", lambda), checkPositive(fn, "C", c)); err != nil {
		return math.NaN(), err
	}
	return lambertOptimum(lambda*c) / lambda, nil
}
