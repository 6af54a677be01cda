// Package optimal computes the rescheduling policy and the checkpoint
// intervals that maximise the useful work per unit time (UWT) of a
// malleable application, as a semi-Markov decision process (SMDP) on the
// states of package uwt's model (docs/optimal-policy.md).
//
// # Decision states and actions
//
// The application decides in two kinds of states:
//
//	U(a, s)  about to start an up segment on a processors, s functional
//	         spares: the action is the interval I > 0;
//	X(p, n)  not running, n functional, last checkpoint written on p: the
//	         action is a ∈ {0, 1, …, n}, recover on a processors or wait
//	         (a = 0).
//
// p is kept only when the recovery cost R(p, a) depends on it; otherwise
// X(p, n) is X(n) and a policy is a rescheduling vector r(n) with one
// interval per up state. With m = N − a, P_T and Q_T the spare chain's
// matrices over a segment of length T (package birthdeath):
//
//	U(a, s), I:        T = I + L(a); → U(a, s') w.p. e^{−aλT} P_T[s, s'],
//	                   → X(a, a − 1 + s') w.p. Q_T[s, s'];
//	                   w = e^{−aλT} ω(a)(I + L(a) − C(a)), τ = (1 − e^{−aλT})/(aλ);
//	X(p, n), a ≥ 1:    T = R(p, a) + L(a), s = n − a; → U(a, s') w.p.
//	                   e^{−aλT} P_T[s, s'], → X(p, a − 1 + s') w.p. Q_T[s, s'];
//	                   w = 0, τ = (1 − e^{−aλT})/(aλ);
//	X(p, n), a = 0:    → X(p, n − 1) w.p. nλ/(nλ + (N − n)θ), else X(p, n + 1);
//	                   w = 0, τ = 1/(nλ + (N − n)θ).
//
// # Decision states only
//
// Without reconfiguration at checkpoints (and with single failures, the
// solver's only model), the solver keeps the decision states X(p, n)
// only, as package uwt's chain of up phases does (uwt doc.go, "Up
// phases"): a decision X(p, n) → a stands for the recovery on a
// processors and the up phase after it, up to the first failure of one
// of them, an Exp(aλ) time whatever the interval. Its sojourn 1/(aλ), its
// reward e^{−aλ(R+L)}·ω(a)(I + L − C)/(e^{aλ(I+L)} − 1) and its exit law
// (row n − a of the spare chain's resolvent, split between the failures
// in the recovery, which keep p, and those in the up phase, which carry
// a) are package internal/decision's Phase, shared with uwt. Neither the
// transitions nor the sojourns depend on the interval: the row of each
// decision state under the policy's action is computed when the policy
// first takes that action and kept with the state, with the row of the
// action it took before (within a bound on the entries, beyond which it
// is recomputed), never as an eager
// (p, a, n) table; an interval changes only the rewards. The improvement
// computes the row of another action only where a bound says it may win
// ("Improvement by bounds" below). The per-state optimum is then the
// configuration's closed form
// (below, "The four levels"), so level 4 is level 3. An up state enters
// the process only with reconfiguration at checkpoints, where the
// solver keeps the up states U(a, s) as described next; the tests hold
// the two forms' g* against each other on every scenario of the package
// (TestPhaseMatchesUpStates, 1e-10). Their biases h need not agree near
// the window's edge, where the two forms treat the transitions that leave
// the window differently (seen at QR N = 64, window 13..64), so that
// neither form's h is a start for the other's evaluation.
//
// # Reconfiguration at checkpoints
//
// With scenario.AtCheckpoint (docs/optimal-policy.md section 1) every up
// state U(a, s) has, besides its interval, the actions "reconfigure onto
// a' ≠ a, a' ≤ a + s" (a' among the allowed counts), with the transitions
// and rewards of X(a, a + s) under a' (Policy.Reconfigure). An up state
// that reconfigures joins the decision states of the evaluation (its
// rows of I − S become the identity and the transitions into it part of
// F); policy iteration improves that choice with the actions of X. The
// policy of a vector r (FromVector, Greedy) reconfigures in U(a, s) onto
// r(a + s) when r(a + s) ∉ {0, a}, as package uwt does. The decision
// process may also keep running on a where r(a + s) ≠ a, which no vector
// can say: then g* exceeds every vector's UWT (by 1.1 % in
// TestReconfigureBeyondVectors, with dear recoveries) and Policy.Vector
// returns an error; Policy.Recovery (the actions after an interruption)
// and Policy.SegmentReconfigure (sim.Decisions.Reconfigure) then describe
// the policy to a simulator.
//
// The evaluation with reconfiguration is reduced three ways (reconfig.go),
// each exact: the solution is that of the full system, which the tests
// keep as an oracle (TestReconfigReducedMatchesFull: g to 1e-10 and the
// same policy on every scenario with reconfiguration of the package).
//
//   - An up state U(a, s) that reconfigures onto a' has the equation of
//     its twin X(a, a + s) under a'. When the twin takes a' too (every
//     vector's rule, and what policy iteration mostly finds) the two have
//     one equation and one value: the up state is merged into its twin
//     and is no unknown of its own.
//   - When R depends on p, the decision states X(p, ·) of one checkpoint
//     count p lead among themselves (waits, failures in a recovery) or,
//     when a recovery succeeds, into up states, and only up states lead
//     into them. With L_p = I − (the transitions within the group) and
//     D_p the recovery successes, h_X(p) = −g·L_p⁻¹τ_p + L_p⁻¹D_p·h_U,
//     which eliminates the N·W states X(p, n) group by group and leaves a
//     dense system over the about N·W/2 up states and g (half the order
//     when every X(p, n) is in the system it replaces: about an eighth
//     of its factorisation). L_p⁻¹D_p depends on
//     the group's actions only and is kept while they do not change; it
//     is solved on D_p's nonzero columns only (solveNonzeroColumns: the
//     up states of the configurations the group's recoveries lead into),
//     the same values as a solve on every column.
//   - Equations, groups and rows are kept between evaluations with what
//     they were computed from, and a reduced system that differs from
//     the last one factorised in few rows (at most an eighth: the search
//     of level 3 over one I(a) changes the rows of U(a, ·) alone) is
//     solved by the Sherman–Morrison–Woodbury formula with the kept
//     factors; one that differs in more rows (level 2's search over the
//     one interval changes every row, a little; a change of the actions
//     of a few groups changes the rows that fail into them) by GMRES
//     preconditioned by the kept factors (entryBase.krylov, on the
//     module's one GMRES core, package internal/gmres), accepted
//     when, within 8 steps (krylovIter), its last correction
//     B⁻¹(b − A·x) falls to 1e-14 of the solution, and given up from
//     step 3 when its best contraction so far cannot bring it there
//     within the 8 (krylovHope); else it is factorised and its factors
//     kept.
//     A step costs O(k²) against the dense factorisation's O(k³): at QR
//     N = 32 (k = 529) about 0.2 ms of CPU against 21 ms, and with 32
//     steps most of the level-2 scan's solves, factor 2 apart in I and
//     with other actions, converged where iterative refinement on the
//     same factors did not contract (2–3 factorisations in the four
//     levels instead of 15). With the sparse factorisation (below) a
//     factorisation costs about a dozen steps at N = 64, and the bound
//     is 8: in the four levels GMRES is accepted in 3 of its 18 runs at
//     N = 64, in 6 of 17 at N = 32.
//     The system GMRES solved last is kept with its solution
//     (entrySolution): policy iteration evaluates the policy it ends with
//     again when a search goes on from it. g's column is scaled by a power of two (pow2Scale):
//     exact, and constant while its largest entry stays within a factor
//     of 2, so a change of one I(a) leaves the other rows as they were.
//     The solves with one right-hand side take the rows of the packed
//     factors as dot products (luVec.solveTo), and Woodbury's B⁻¹E one
//     unit column at a time (luVec.solveUnitTo). The reduced system is
//     stored dense but is sparse (at QR N = 64, k = 2003: 7–27 % of its
//     entries nonzero, 7–48 % of its factors', in about 10–45 runs a
//     row), so these dot products, and GMRES's products with A, run over
//     the runs of nonzero entries of each row (nzRuns), the runs of
//     fewer than 8 zeros between them merged: the same sums in another
//     order. The factorisation (factorSparse) is sparse: rows and
//     columns permuted, P·A·Q = L·U, each pivot chosen as the
//     elimination goes by a Markowitz count (a column of fewest active
//     entries, in it a row of fewest among the entries at least 0.1 of
//     the column's largest: threshold pivoting), until the active
//     submatrix is 90 % full, which lapack's Dgetrf factorises with
//     partial pivoting. A configuration no recovery leads into has its
//     columns in its own rows only, so its block is eliminated first and
//     fills nothing else: at QR N = 64 the factors are 7–10 % nonzero
//     where Dgetrf's in the natural order were 16–20 %, with a dense
//     tail of order 140–230 (590 for the first, denser, system), and a
//     factorisation costs about 50 ms of CPU instead of 220–330 ms.
//     The factorisation is checked: the backward error of a solve
//     (b = A·z, z a fixed vector of full mantissas; with b = A·1 a
//     matrix of short binary fractions can solve exactly whatever its
//     growth) must be at most 1e-15·k (growth below about 10²), else
//     the system is factorised by factorLU (Dgetrf in the natural
//     order, as mat.LU's). Both keep the condition estimate (Dgecon's,
//     Higham's estimator) made by the solves on the runs instead of
//     Dlatrs, which walked the row-major factors by columns (a fifth of
//     Dgetrf's CPU at N = 64); κ∞ does not depend on P and Q.
//
// The improvement passes (improveX, improveR) skip a recovery X(p, n) → c
// whose bracket cannot beat the best so far in the state (xbound.go):
// −g·τ + Σ P_up·h_U + Σ P_fail·h_X is at most −g·τ plus each part's mass
// times the largest h over the range of its indexes (range maxima from a
// sparse table per configuration and checkpoint count, made once per
// pass; the masses and ranges once per row), plus a slack of 1e-12 of
// the terms for the rounding. An action is taken only when strictly
// better than the best so far, so the actions are the exhaustive pass's
// bit for bit (TestXBoundSameLevels; TestXValueBound holds the bound
// against every bracket and rejects the bound with each range's mean in
// place of its maximum). At QR N = 64 the brackets' CPU (xValue) fell
// from 19 % of a CPU profile of BenchmarkReconfigure to 3 %, with 3 % for
// the bound itself (mayBeat, which keeps each bound with the brackets:
// improveR asks about X(a, a + s) from every up state U(a, s)).
//
// What does not change the bits is shared too: a block keeps its rows
// when only the reconfiguration choices change; the improvement of the
// choice in U takes a running state's row from the evaluation's block;
// one improvement pass computes the bracket of each decision state under
// each action once (xValues), for improveX and for improveR, whose
// reconfiguring up states U(a, s) have the brackets of X(a, a + s) (of
// X(a + s) when R does not depend on p); the up states' h is solved on
// first use (values.upH), so level 3's search, which reads g alone,
// skips it; and the blocks are solved by luVec, gonum's Dgetrs
// arithmetic for one right-hand side in the same order without its
// per-call allocations; the searches over one interval (improveU,
// propose, singleSearch.climb) pass the value at their start, which they computed to
// compare the maximum with, to the search (maximizeFrom); and the rows
// of a trial interval, which the bracket of one up state (uValue, in
// level 4's improveU and in improveR) or one configuration's weighted
// brackets (intervalGain, in propose) read once, are computed into
// storage each search task reuses (rowScratch, birthdeath.Chain.RowsInto)
// instead of new rows per call: at QR N = 16 a quarter of the
// allocation of the four levels (28.6 to 22.1 MB a run), the same bits.
//
// Level 4's per-state searches skip the up states that reconfigure and
// cannot run profitably at any interval (runbound.go): improveR takes
// running in U(a, s) only where its bracket beats that of the current
// reconfiguration, and with f_U = h(U(a, ·)), f_X = h(X(a − 1 + ·)), G
// the spare chain's generator and T = I + L(a), the bracket of running
// is bounded without any row through
//
//	(P_t f)(s) ≤ f(s) + t·d₁  and  (P_t f)(s) ≤ f(s) + t·(Gf)(s) + t²/2·d₂,
//
// d₁ (d₂) the largest Gf (G²f) over J, the counts within r − 1 of s,
// plus the largest anywhere times P(Poisson(Λt) ≥ r), Λ = m·max(λ, θ)
// a bound on the chain's jump rate (it leaves J only after r jumps),
// the least over r. With Q_T = ∫₀ᵀ ρe^{−ρt}P_t dt each gives a bound
// c₀ + e^{−ρT}p(T), p of degree 1 or 2, on each piece of the range of T
// where T doubles, whose supremum is at an end or at a root of p' − ρp;
// the lesser of the two is taken per piece. Where the bound is below
// the reconfiguration's bracket (with a slack of 1e-12 of the terms and
// the rows' left-out mass times the span of h), the search of that
// state's interval, which could change no action, is skipped and the
// state keeps its interval. That interval is then where an earlier pass
// left it, not the state's best run: policy iteration's convergence test
// (wouldChangeX) weighs running at it, so iterate does not stop while a
// state skipped in the last pass is no longer shown by the bound, at the
// new values, to lose by running (staleMayRun): the next pass searches
// it. Where the window cuts the spare chain, the
// rows are renormalised over it, and f_U and f_X are extended outside by
// their largest value over the window (a renormalised row's average is
// at most that): the drifts then grow near the window's edges, and the
// bound skips little in the configurations the edges cut. In level 4 at
// N = 32 the reconfiguring up states' trial intervals fall from 30,392
// to 1,544 on the desktop grid and from 15,573 to 326 on QR (the running
// ones' stay 3,917 and 7,337); at N = 64 (window 13..64 on the desktop
// grid) from 76,801 to 39,805 and from 27,947 to 2,940.
// TestRunMaxBound holds the bound against the brackets on a grid of
// intervals (the bound without drift terms, or without the t² term,
// fails it); TestRunBoundSameLevel4 holds level 4 with it against level
// 4 without (the same g, actions and choices; the same running intervals,
// or, in a state outside the recurrent class whose searches took another
// path, brackets equal to the stopping tolerance RelTol); the intervals
// of the up states that reconfigure, which nothing uses, may differ.
//
// The solves of the reduced system round differently from a fresh
// factorisation of each system, within the tolerances of the searches:
// g moves in its last digits, the intervals of level 3 where g is flat
// in them. Level 3's coordinate searches after the first bracket from
// twice the move of their last search (ascendStep).
//
// With these, and level 3 by gradient steps (below, "The four levels"),
// and level 2's search after its scan by the same steps, the four levels
// of QR on 32 processors (MTTF 8 h, MTTR 4 h) cost 1.0–1.4× their time
// without reconfiguration with the reduced system solved by GMRES on the
// kept factors (1.3–2× with iterative refinement, 40× before the
// reduction, 5–7× with the reduction and level 3's coordinate search);
// level 2's fixed-interval solves take most of it. On 16 processors,
// tens of milliseconds, they cost 1.8–2.5× with level 4's bound on
// running and the blocks over the running states (above; 2.2–4.3×
// before them, in the same rounds, BENCHMARKS.md "(reconf10)"); on 64 (a
// reduced system of order 2003) 4.3–6.4× with the sparse factorisation
// (factorSparse) and GMRES's bound of 8 steps, 8.2–13.2× with Dgetrf and
// 32 steps in the same rounds, 13–16× before the solves and the
// condition estimate ran over the factors' runs of nonzero entries
// (BENCHMARKS.md, "(reconf9)": in a CPU profile the factorisations took
// 20 %, GMRES 11 %, the groups' solves 8 %, the improvement passes
// (improveX) 21 % and the rows of the reduced system (entryRow) 9 %),
// and 3.0–3.2× (5.9–6.3× before, in the same rounds) with level 2
// started from the optimum without reconfiguration and the improvement
// passes bounded (BENCHMARKS.md, "(reconf11)"): the goal of 2× is not
// met there; levels 3 and 4, building the solver and the runtime take
// about 0.8 s of the 1.9, level 2 the rest, one evaluation and one
// improvement step per interval it solves. On a desktop grid without
// R(p, a) the solve without reconfiguration is far cheaper (a chain of
// up phases on W decision states and a closed form per configuration
// for levels 3
// and 4: 1.5–4.5 ms for the four levels at N = 32), and the option still
// costs 29–46× as much at N = 32 and 76–85× at N = 64 (35–56× and
// 96–172× before the bound and the blocks over running states): there
// the goal of 2× is out of reach. One evaluation with up states at one
// interval costs about as much as the four levels without
// reconfiguration (at N = 32, from empty caches, 2.1–2.6 ms of CPU, of
// which 0.9–1.6 ms for the rows of the 528 up states, which improveR
// needs to weigh running against reconfiguring in each), and level 2
// alone solves g*(I) at 8 intervals with 24 evaluations.
//
// # Improvement by bounds
//
// Without reconfiguration, the improvement in X(p, n) needs the bracket
//
//	w(p, a) − g/(aλ) + Σ_y Q_t[s, y]·h(X(p, ·)) + Σ_y (Q_∞ − Q_t)[s, y]·h(X(a, ·))
//
// (s = n − a, t = R(p, a) + L(a), rows renormalised over the window) for
// every count a. Its p-free part, Σ Q_∞[s, ·]·h(X(a, ·)), is one vector
// per configuration and step: ρ(ρI − G_m)⁻¹ applied to h, a tridiagonal
// solve on a band of spare counts around the window (internal/decision,
// Band; the chain is killed when it leaves the band, and the probability
// of that, e, widens the bound by 2e·max|h| over the killed mass K). The
// recovery's part, Σ Q_t·d with d = h(X(p, ·)) − h(X(a, ·)), is bounded
// without Q_t: its failures have mass M = 1 − e^{−ρt}, at least
// M(1 − ν_s t) of it before the spare count moves (ν_s its rate of moving
// from s), at most M·ν_s·ν'·t²/2 after two moves or more, the rest on
// s ± 1. An action whose bound, plus a slack of 1e-9 of the terms' size,
// does not exceed the better of the current action and waiting cannot
// change the state's action; the others are computed exactly in
// decreasing order of bound until the next bound is below the best
// bracket found, and the rule of the exhaustive search (wait, then the
// counts in increasing order, each taken when strictly better; TieTol
// against the current action) picks among them, so the policy found is
// the exhaustive search's. A whole block (p, a) is first tested with its
// largest bound, and before that every block of a configuration a with
// one key per step (an upper bound on that test's left side for every p,
// from the largest recovery failure mass of a over p and the terms at
// their largest): the blocks are visited by decreasing key and, for
// each p, only down to the first key below min_n of the threshold of
// X(p, n). The band solve of a configuration is made only when its key,
// with the largest h of the window in place of the resolvent's averages
// of it, can pass the least threshold of the step. The cost of a step is
// then the band solves of the configurations that may win, a few
// operations per block (p, a) that may, plus the exact rows of the
// actions that may win; BENCHMARKS.md gives the times.
//
// What depends on neither the policy nor the interval is kept between
// steps, each within a bound on its memory: the band factorisation of
// each configuration, the resolvent rows of one decision state (shared
// by every p when R depends on p), the spare chains' factorisations of
// the recovery's rows Q_t when R depends on p (birthdeath,
// Chain.KeepFactors: the row of X(p, n) → a is new for every p, its
// factorisation is not), the row of each decision state under its
// policy's action and under the action it took before (the search over
// the interval moves many states back and forth between two actions)
// and, while the closed set's states and actions stay the same, its LU
// (a new interval changes only the right-hand side). The transient sets
// are solved with the same LAPACK calls as the closed set, without a
// condition estimate where A⁻¹·1 of their M-matrix bounds the
// condition. Each gives the same bits as the computation it saves
// (TestTransientSolveMatchesSolveX, TestResolventCacheSameRows,
// TestPreviousRowKept).
//
// # Optimality equations and policy iteration
//
// A stationary policy μ has the long-run reward rate g(μ) = Σπw/Σπτ
// (renewal–reward). The optimal g* and a bias h satisfy the average-reward
// SMDP optimality equations (Puterman 1994, ch. 11; Howard 1960; Jewell
// 1963)
//
//	h(x) = max_u [ w(x, u) − g*·τ(x, u) + Σ_y P(y | x, u)·h(y) ].
//
// Policy iteration evaluates a policy by solving
// h(x) = w(x) − g·τ(x) + Σ_y P(x, y)·h(y) with h(x₀) = 0 over every
// decision state, transient ones included, then improves: in each X the
// action with the largest bracket, in each U the interval that maximises
// it (Brent's method on log I). An action changes only when it beats the
// current one by more than Settings.TieTol relative, which prevents
// cycling between ties. When R depends on p, an improvement can make a
// transient X(p, ·) recover on p again (R(p, p) the cheapest), which
// closes a second recurrent class: the policy is then multichain and has
// no single g. As policy iteration for communicating models does
// (Puterman 1994, section 9.5), the evaluation then solves each class
// for its own gain, keeps the best class C* and makes every state that
// cannot reach C* take an action that leads there (the policy becomes
// unichain; each class of an improved policy gains at least what the
// policy it improves did, so no gain is lost). Solver.Evaluate, which
// takes a policy unchanged, refuses a multichain policy instead.
// With the finitely many actions of X (a fixed
// interval) the iteration ends at g*(I) in finitely many steps; with the
// intervals it stops when g improves by less than Settings.RelTol.
//
// With up states (reconfiguration at checkpoints), the evaluation
// eliminates them per configuration: for the
// states U(a, ·), with S their transitions among themselves and F those to
// the decision states X,
//
//	h_U = (I − S)⁻¹ (w − g·τ + F·h_X),
//
// and a decision X → U(a, ·) with entry probabilities σ needs only
// σᵀ(I − S)⁻¹, one transposed solve with the LU factors of I − S. What
// remains is one linear system over the decision states X and g. The
// states reachable from the reference x₀ form a closed set solved first
// with g; the others are transient and are solved after it, one strongly
// connected set at a time (Tarjan's order). When R depends on p there are
// N·W decision states X(p, n) but only those with p among the counts the
// policy uses and n ≥ p − 1 are reachable. The cost is one LU of order
// k_a per configuration (k_a ≤ W, the window's width, the up states of
// the configuration that run: those that reconfigure are decision states,
// outside S, and the LU of I − S over the running ones is that of the
// matrix with the identity in their rows and columns, which the block
// factorised before, TestBlockCompactMatchesFull; on the desktop grid at
// N = 32 about 93 of the 528 up states run) when its intervals or the
// choices change, plus the closed set's LU; with reconfiguration the
// system is reduced further ("Reconfiguration at checkpoints" above).
//
// # Entry point and edges
//
// Solve takes a system and an application (no policy: the solver
// considers every action) and returns the policy, its intervals, its UWT
// and its status; the CLI (optimize, policy, uwt, simulate), package
// evaluate and package sweep call it. They hold the optimal policy not
// yet solved (scenario.Policy.Unsolved) beside the system and the
// application that scenario.Overrides.Resolve returns, never in a
// Scenario, and build the Scenario of the solved policy
// (scenario.Parts.Scenario with Policy.ResolvedTable, or
// Solution.TableScenario). The solver considers the counts with a
// positive work rate only, so an application with ω(a) = 0 at some
// counts is solved and never runs on them (TestSolveZeroWorkRate). With Options.AllLevels it returns
// the four levels of docs/optimal-policy.md section 4 (Levels) beside
// typed hand-made policies (Options.Compare, []scenario.Policy). MaxUWT bounds every policy's UWT (the
// largest reward rate of an up segment); when it is within Settings.Tol
// of zero relative to the largest work rate, every solve returns Status
// NoUsefulWork without solving. Single.IntervalStatus flags an I* at a
// bound of the search. Results are bit-identical whatever
// Settings.Workers (TestDeterministic): the pool (internal/pool)
// computes one configuration's band, one checkpoint count's step of the
// improvement or one state's candidates per task, each reduced in a
// fixed order, and the actions and the rows kept per state are set in
// index order from one goroutine.
//
// # Decision tables
//
// When R depends on p the action in X(p, n) may too; no vector then
// describes the policy. Policy.Table writes the actions as a decision
// table (reschedule.Table: a default row and the rows of the counts p
// that differ from it), which scenario.Policy.ResolvedTable turns into a
// scenario that package uwt and package sim replay (Solution.TableScenario).
//
// # Failure events
//
// With system.failure_events (docs/model.md section 11), FixedIntervalEvents
// and SingleIntervalEvents solve the decision process on X(p, n) with the
// rows of the batch model: a decision X(p, n) → a stands for the recovery
// and the up phase after it, its rows built from package batchchain's
// P_T, Q_T and τ of the recovery and of one up segment, summed over the
// segments by M = (I − P_U)⁻¹ (docs/optimal-policy.md section 4). Those
// rows are dense (N ≤ MaxEventsProcessors) and serve when the recovery
// cost depends on p. Otherwise (eventsChain) the states are X(n) over the
// window of functional counts (decision.EventsWindow, or 0..N with
// Settings.Full), and the rows of every count a come from the column
// forms of package batchchain (Phase.Solve, HitSum, SegmentsColumn):
// τ and the window's mass once per count, the exit values and rewards
// per improvement (SegmentsWindow: on a band of spare counts around the
// window, within the tolerance of SegmentsColumn; its interval-free
// sequence kept per count across the intervals by batchchain.SegmentsSeq
// within a budget of 2²¹ numbers, the phases within 2²³, neither changing
// a bit of the results), the counts on internal/pool, those whose bound
// on w (SegmentsBoundWindow) cannot beat the current action skipped, and
// the sum of w of the others stopped as soon as its own bounds (the sum
// so far plus the bound on its rest, batchchain.SegmentsSeq.AtOrSkip)
// show the same (exact: no result changes; TestEventsChainSumSkips: the
// bits of every sum run to its end), policy iteration started in each
// X(n) from the count of best segment rate with the interruption rate of
// the up phase on a at its start (the events that strike one of a used
// among n functional; aλ with single failures: TestEventsChainHitRate),
// close to the optimum so that the first improvement already skips most
// counts;
// SingleIntervalEvents's scan leaves
// out the intervals whose upper bound on g*(I) (eventsChain.intervalBound:
// g ≤ max w/τ) is below the best g* found, with the result of the whole
// scan (TestIntervalBound, TestScanPrunedMatchesFull: the same bits, fewer
// than half the points evaluated);
// N ≤ MaxEventsChainProcessors. Both share the policy iteration
// (solveEventsAt) and its dense evaluation over the states. The tests
// hold g*(I) against the enumeration of every vector with package uwt's
// batch model (TestEventsEnumeration, 1e-9, both processes), the chain
// against the dense process on every events case and more
// (TestEventsChainMatchesDense: g* to 1e-10, actions equal or tied),
// and, without events, against New's solver (TestEventsSecondSolver,
// 1e-10); TestEventsChainDeterministic checks the bits with 1 and 8
// workers. New itself refuses failure events;
// Solve routes them here (Solution.Events, the policy a decision table):
// with failure events only level 2 and g*(I) exist, on at most
// MaxEventsProcessors processors when R depends on p and
// MaxEventsChainProcessors otherwise (an error naming system.processors
// above), without reconfiguration at checkpoints or Settings.Candidates
// (TestSolveEvents).
//
// # Restriction for large N
//
// Settings.Candidates restricts the processor counts a run may use;
// Refine builds such a set coarse to fine (level 2 on every step-th count,
// then on the counts within two strides of those with stationary mass,
// halving the stride down to one), and Solve does it with
// Options.Refine, so that a caller holding a system and an application
// needs no Scenario. BENCHMARKS.md gives the sizes where
// the full action set fits in 2 s and the effect of the restriction.
//
// # Window of functional counts
//
// As in uwt's fast path, only functional counts in the window where the
// binomial law of the functional count has all but Settings.Tol of its
// mass are built; transitions that leave it are dropped and their rows
// renormalised, and Result.Dropped reports the stationary mass of the
// dropped transitions. Settings.Full builds every count. Outside the
// window, Policy.Vector extends the policy by the nearest count inside it.
//
// # The four levels
//
// Levels reports, each with its UWT, (1) hand-made policies at their own
// best single interval (package uwt), (2) the optimal policy with one
// interval for every configuration (SingleInterval: g*(I) maximised over
// I), (3) one interval per configuration I(a) (PerConfiguration), and
// (4) the per-state optimum (PerState), an upper bound on every policy of
// the model. Levels 2 ≤ 3 ≤ 4 by construction and by test (TestLevelsOrder,
// TestLevelsOrderReconfigure).
//
// Level 2 scans I on a doubling grid from 300 s (or the nearest of
// Settings.MinInterval and MaxInterval when 300 s is outside them), each
// side until g*(I) falls below half the best so far, maximises g* on log I between the
// best grid point's neighbours (Brent), then alternates the best interval
// of the policy found with policy iteration at it (polish: at most
// polishRounds = 10 rounds, Status IterationLimit when g still rises by
// more than RelTol after them; the tests' cases end after one to three).
// Each fixed-interval solve starts from the policy found at the nearest
// interval solved; with up states, where the evaluation solves a reduced
// system of at least 1024 up states (useNeverStart: R depends on p; below
// that, or without the reduction, the solves without reconfiguration cost
// more than they save), from the optimum without reconfiguration at its
// interval instead (neverstart.go), the first solve always and the
// others while the nearest solve ended with that optimum's actions in X
// and is more than a factor e^0.2 away (nearStartWidth): a policy that
// never reconfigures is one of the process with reconfiguration
// (g*_never(I) ≤ g*(I)), found by the chain of up phases of a second
// solver on the same scenario (Solver's never) at a fraction of the
// cost, and its choices in U are those of one improvement at its values
// (seed). Policy iteration at a fixed I ends at g*(I) from any start; at
// QR on 64 processors (MTTF 8 h, MTTR 4 h) g*(I) = g*_never(I) at every
// interval level 2 solves, and its five solves take one improvement step
// each but the last (none) instead of 0 to 5, and 4 factorisations of the
// reduced system instead of 14 (TestNeverStartFixedInterval: the start's
// g is g*_never to 1e-10 and g* from it that from greedy to 1e-10, with
// a power check on a scenario where g* exceeds g*_never by a third;
// TestNeverStartSameLevel2: level 2 with and without it, g* to 1e-10, I*
// within the width where g* is flat to RelTol, the same number of
// solves).
//
// A search that ends within intervalStep of a bound of
// the interval but not at it solves g* at the bound and takes it when it
// is within RelTol of the best (singleSearch.toBound: near a bound where
// g* still rises, as with L = C = R = 0 near 1 s, the gradient steps stop
// short of it), so that I* is flagged AtMin or AtMax.
// The scan's points are bounded: g*(I) ≤ max_a aλ·max(ω(a)·u_a(I), 0),
// the gain of each configuration with free recoveries and no down time
// (u_a the expected useful time of an up phase, decision.Phase.Useful;
// renewal–reward over the decision states, each sojourn 1/(aλ), each
// reward at most ω(a)·u_a(I); with up states, each up segment has
// w/τ = aλ·ω(a)·u_a(I) exactly and the other states w = 0, so the bound
// holds with reconfiguration at checkpoints too, gainBound); a grid point whose bound is below the best so far
// is not solved (it can be neither the maximum nor, where the bound is
// below half the best, a reason to scan on) unless it is a neighbour of
// the best. On the built-in system the bound is within 0.05 % of g*(I),
// and the search solves 33 intervals instead of 42 at N = 512 (the
// count is Single.Evaluations, `solves` in the CLI's JSON). The
// evaluation keeps what depends only on the actions (the closed set's
// LU, the transient sets and their LU factors) while the actions stay
// the same: the searches over I evaluate one policy at many intervals.
//
// With up states (reconfiguration at checkpoints) the search after the
// scan is by gradient steps instead (singleSearch.climb): g*(I) is the
// maximum over the policies of g at I, so its derivative is that of g
// under the optimal policy μ at I (envelope), Σπτ⁻¹ times the derivative
// of Σ_a F_a(I) (the π-weighted brackets of level 3 below, every
// configuration at the one I); each step moves I to the maximiser of
// Σ_a F_a (no solve) and solves g* there by policy iteration from μ,
// until the rise promised or gained is below gradientTol·RelTol: μ is
// then optimal at I and ∂g/∂I zero to the tolerance, where Brent's
// search and the alternation stop; when no step raises g*, the
// alternation (polish) goes on from the best point instead. On QR at
// N = 32 this takes 4 solves instead of 9
// (TestGradientMatchesCoordinateSearch holds g* against Brent's search
// to 1e-10 and I* within the width where g is flat to RelTol;
// TestGradientFallback takes the fallback).
//
// Without reconfiguration the intervals change neither the stationary law
// of the decision states nor their sojourns, only the work of each up
// phase (package uwt, doc.go "Up phases"), so for any actions the best
// I(a) maximises that work alone: u = I + L(a) maximises
// (u − C(a))/(e^{aλu} − 1), Daly's exact optimum (intervals.DalyOptimum)
// for the MTBF 1/(aλ) and the overhead C(a), shifted by C(a) − L(a). Level
// 3 then takes these intervals and runs policy iteration over X: the
// global optimum, equal to level 4 (Configuration.Global; measured on the
// oracle scenarios: level 4's intervals within 2.5e-6 of it, its g within
// 7e-14). With reconfiguration at checkpoints the checkpoints are decision
// points too, and level 3 is a local optimum (Configuration.Local) over
// the log I(a) of the configurations with stationary mass, alternated
// with policy iteration over X, found by gradient steps
// (gradientAscend). One evaluation gives g, h and the stationary law π of
// the jump chain, hence every partial derivative: renewal–reward applied
// to the policy μ' that differs in I(a) alone gives
//
//	g(μ') − g(μ) = Σ_x π'(x)·[w' − g·τ' + P'·h − h](x) / Σ_x π'(x)τ'(x),
//
// whose bracket vanishes outside U(a, ·), so
//
//	∂g/∂I(a) = F_a'(I(a)) / Σπτ,  F_a(I) = Σ_s π(U(a, s))·[w − g·τ + P·h](U(a, s)) at I
//
// (intervalGain; TestIntervalGainDerivative against central differences
// of the exact g). A step moves every I(a) at once to the maximiser of
// F_a (propose: a search on log I per configuration, on internal/pool,
// each point the rows of U(a, ·) and no solve), then evaluates the
// policy exactly and keeps it when g rises, halving a step that does not
// (at most gradientHalvings times), like policy iteration on tied
// actions. It stops when the rise F promises (Σπτ·Δg to first order) or
// the last exact rise is below gradientTol·RelTol: every partial
// derivative is then zero to the tolerance. When it stops on steps that
// do not raise g instead, the coordinate ascent (ascend: each
// configuration with mass, heaviest first, maximises g over its log I(a)
// alone, each point an evaluation) goes on from there. The tests keep
// the coordinate ascent as an oracle (gradientLevel3 off;
// TestGradientMatchesCoordinateSearch: the same g to 1e-10 and the same
// intervals within the width where g is flat to RelTol, on every scenario
// with reconfiguration of the package). On QR at N = 32 the steps end
// after one move (about 700 evaluations for the coordinate ascent).
// Where a configuration carries negligible mass, g is flat in its
// interval: the coordinate ascent stopped anywhere within RelTol, the
// gradient steps at the maximiser of F_a.
//
// # Oracles
//
// The tests check g*(I) against the largest UWT(I; r) of package uwt over
// all Π(n+1) rescheduling vectors (N ≤ 6, to 1e-12; with reconfiguration
// at checkpoints too, N ≤ 5, against uwt with the option), level 2 against the
// best per-vector optimum (1e-9), N = 1 against the closed form of
// docs/model.md section 7, the moldable bound of package availability,
// and g against uwt's UWT of the final policy and against the
// renewal–reward ratio of its stationary distribution. The chain of up
// phases is held against the solver with up states on every scenario of
// the tests (TestPhaseMatchesUpStates, 1e-10), a solve with 1 and 8
// workers against itself bit for bit (TestDeterministic), and MaxUWT
// against level 4 (TestMaxUWTBound).
//
// References:
//
//   - M. L. Puterman, Markov Decision Processes, Wiley, 1994, chapter 11
//     (semi-Markov decision processes, average reward).
//   - R. A. Howard, Dynamic Programming and Markov Processes, MIT Press,
//     1960 (policy iteration).
//   - W. S. Jewell, "Markov-renewal programming I and II", Operations
//     Research 11(6), 1963.
//   - R. P. Brent, Algorithms for Minimization without Derivatives,
//     Prentice-Hall, 1973 (the interval search).
package optimal
