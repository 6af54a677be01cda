// Package lambertw implements the two real branches of the Lambert W
// function.
//
// W is the inverse of w ↦ w·e^w. On the reals the equation w·e^w = x has
//
//   - one solution w ≥ −1 for x ≥ −1/e: the principal branch W0(x);
//   - a second solution w ≤ −1 for −1/e ≤ x < 0: the lower branch W−1(x).
//
// Both branches meet at the branch point W0(−1/e) = W−1(−1/e) = −1.
//
// # Algorithm
//
// Near the branch point both branches are given by the series
// (Corless et al. 1996, eq. 4.22)
//
//	W(x) = −1 + p − p²/3 + 11p³/72 − 43p⁴/540 + 769p⁵/17280 − 221p⁶/8505
//	       + 680863p⁷/43545600 − 1963p⁸/204120 + 226287557p⁹/37623398400 + …
//
// with p = +sqrt(2(e·x + 1)) for W0 and p = −sqrt(2(e·x + 1)) for W−1.
// e·x + 1 is evaluated with a split constant e = e_hi + e_lo and a fused
// multiply–add, so the cancellation near x = −1/e loses nothing. For |p| ≤
// 0.03 the truncated series is used directly (truncation error below
// 0.004·|p|¹⁰ < 3e−18). Elsewhere an initial guess (series, Winitzki's
// approximation W0(x) ≈ ln(1+x)·(1 − ln(1 + ln(1+x))/(2 + ln(1+x))), or the
// asymptotic expansions L1 − L2 + L2/L1 with L1 = ln|x|, L2 = ln|L1|) is
// polished by Halley's iteration on f(w) = w·e^w − x (on f(w) = w − x·e^{−w}
// for large x, which cannot overflow) until the step is below 2 ulp.
//
// OnePlusW0(d) returns 1 + W0(x) as a function of d = e·x + 1, so that
// callers who know d exactly (for instance d = 1 − e^{−c} for the
// checkpoint optimum 1 + W0(−e^{−1−c})) keep full relative accuracy when
// d is tiny.
//
// Arguments outside the domain give NaN, as math.Log does for negative
// arguments: x < −1/e for both branches, x ≥ 0 for W−1. W0(+Inf) = +Inf
// and W−1(0) = −Inf (the limit from the left).
//
// # References
//
//   - R. M. Corless, G. H. Gonnet, D. E. G. Hare, D. J. Jeffrey and
//     D. E. Knuth, "On the Lambert W function", Advances in Computational
//     Mathematics 5 (1996) 329–359.
//   - S. Winitzki, "Uniform approximations for transcendental functions",
//     ICCSA 2003, LNCS 2667, 780–789.
//   - E. Halley's method: see e.g. Corless et al. (1996), section 5.
package lambertw // import "github.com/ckpt-markov/markov/internal/lambertw"
