// Package scalar holds the one-dimensional searches of the toolkit: a
// downhill bracket of a minimum, Brent's maximisation and minimisation
// (parabolic interpolation with a golden-section safeguard), the
// Illinois variant of regula falsi for a level crossing, Brent's root
// finder, with wrappers that search in u = ln x over x > 0, and two
// searches for a costly function that reuse every evaluation made so far
// (MaximizeSeen: parabolic steps through the best evaluation and its
// nearest neighbours; CrossingSeen: steps to the crossing of the cubic
// through the four evaluations nearest the bracket).
//
// Callers: package uwt maximises UWT(I) on log I with MaximizeSeen (with
// Maximize when the best point of its scan is an end of the scan) and
// finds the near-optimal band's edges with CrossingSeen; package optimal
// maximises its level-2 UWT with Maximize and minimises with BracketMin
// and Minimize; package multilevel brackets each pattern's interval with
// BracketMin and maximises with MaximizeSeen, finds its band's edges with
// LevelCrossing and searches the entries of its pattern with MaximizeInt
// (doubling steps, then golden-section steps on the integers); packages
// intervals and
// replication minimise expected waste with LogMinimize and solve
// first-order conditions with LogRoot; package trace solves the Weibull
// likelihood equations with LogRootIn.
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
