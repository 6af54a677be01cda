// Package law is the toolkit's one failure-law interface: the law of a
// positive duration (a time between failures, an up time, a repair time)
// that the simulator (sim.NewRenewal), the synthetic traces
// (trace/synth.Config) and the closed-form interval models
// (intervals.BouguerraInterval and its kin) share.
//
// A Law gives its survival function and its quantile function,
//
//	S(x) = P(X > x),    Q(p) = inf{x : P(X ≤ x) ≥ p},
//
// so that the distributions of gonum's stat/distuv satisfy it as they are
// (distuv.Exponential{Rate: 1/mean}, distuv.Weibull{K: shape, Lambda:
// scale}, distuv.LogNormal{Mu, Sigma}, distuv.Gamma{Alpha, Beta}, …), and
// so do the laws of package intervals, which add the closed form of the
// expected segment time that the model of Bouguerra et al. needs.
//
// Draws are by inversion, X = Q(U) with U uniform on (0, 1) (Devroye
// 1986, §2.1), from the caller's seeded generator rather than from a
// distuv value's own Src, so that a run is reproduced by its seed alone
// and its streams do not depend on the number of workers.
//
// References:
//
//   - L. Devroye, Non-Uniform Random Variate Generation, Springer, 1986,
//     chapter 2 (the inversion method).
//   - M.-S. Bouguerra, T. Gautier, D. Trystram and J.-M. Vincent, "A
//     flexible checkpoint/restart model in distributed systems", PPAM
//     2009 (LNCS 6067), section 3 (the survival function of the time
//     between failures).
package law
