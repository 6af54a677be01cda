// Package scalar holds the one-dimensional searches of the toolkit: a
// downhill bracket of a minimum, Brent's maximisation and minimisation
// (parabolic interpolation with a golden-section safeguard),
// the Illinois variant of regula falsi for a level crossing, and Brent's
// root finder, with wrappers that search in u = ln x over x > 0.
//
// Package uwt maximises UWT(I) with Maximize when the best point of its
// scan is an end of the scan (it has its own search, reusing every
// evaluation, otherwise), package optimal its level-2 UWT; package intervals minimises expected waste with
// LogMinimize and solves first-order conditions with LogRoot.
//
// All searches work on a Func, which may fail (a model evaluation can be
// cancelled or fail to converge); an error from f is returned unchanged.
// Plain adapts a function that cannot fail.
//
// References:
//
//   - R. P. Brent, Algorithms for Minimization without Derivatives,
//     Prentice-Hall, 1973: chapter 4 (zero), chapter 5 (minimum).
//   - M. Dowell and P. Jarratt, "A modified regula falsi method for
//     computing the root of an equation", BIT 11, 1971 (Illinois).
//   - W. H. Press et al., Numerical Recipes, 3rd ed., 2007, §10.1
//     (bracketing).
package scalar
