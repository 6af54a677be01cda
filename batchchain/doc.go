// Package batchchain computes the spare-count transition rows of the
// checkpoint model when failures come in events that take down several
// processors at once (docs/model.md, section 11): the counterpart of
// package birthdeath, whose binomial closed form needs independent
// processors.
//
// # The process
//
// n processors; failure events strike at rate λ/E[K] per functional
// processor (λ = 1/MTTF, so that a processor still fails at rate λ on
// average), and an event of size K ~ (p₁, p₂, …) takes down min(K, f) of the
// f functional processors, chosen uniformly without replacement. Every
// failed processor is repaired at rate θ. K ≡ 1 is the model of
// independent failures.
//
// # The segment chain
//
// During a segment on a used processors, with j functional among the
// m = n − a others (f = a + j functional), an event of size k' = min(K, f)
// misses every used processor with the hypergeometric probability
//
//	h = C(j, k')/C(f, k') = Π_{i<k'} (j−i)/(f−i),
//
// and then moves j → j − k'; otherwise (probability 1 − h, accumulated as
// Σ_{i<k'} (Π_{l<i} (j−l)/(f−l))·a/(f−i) so that no subtraction occurs) it
// interrupts the application and leaves n' = f − k' functional. Repairs
// move j → j + 1 at (m − j)θ. With A the (m+1)×(m+1) sub-generator of j
// while the application runs and B the (m+1)×n rates of the interrupting
// events into n' (Chain.Generator),
//
//	P_T = exp(AT),   Q_T = ∫₀ᵀ exp(At) dt · B,   τ = ∫₀ᵀ exp(At) dt · 1:
//
// P_T[s, s'] is the probability that the segment runs to its end and leaves
// s' spares, Q_T[s, n'] that its first interruption leaves n' functional,
// τ[s] the expected time to the end or the interruption. Every row has
// Σ P + Σ Q = 1. For K ≡ 1, P_T = e^{−aλT}·P_T^{bd}, Q_T[s, a−1+s'] =
// Q_T^{bd}(aλ)[s, s'] and τ = (1 − e^{−aλT})/(aλ) with the matrices of
// package birthdeath (checked to 1e-12 by TestSingleSizeMatchesClosedForm).
//
// # Methods
//
// Chain.Transition takes one exponential (package expm) of the Van Loan
// block [[A, B, 1], [0, 0, 0]]·T (Van Loan 1978): dense, of order
// m + n + 2, for small n (tests and the model's exact path).
//
// Chain.Rows computes single rows for large n by uniformization (Jensen
// 1953) of A restricted to a window [lo, hi] of spare counts around the
// row: with Λ the largest exit rate in the window, K = I + A/Λ
// (sub-stochastic) and N ~ Poisson(ΛT),
//
//	e_s P_T = Σ_k P(N = k)·e_s K^k,   e_s ∫₀ᵀ e^{At} dt = Λ⁻¹ Σ_k P(N > k)·e_s K^k,
//
// the second being the row form of Van Loan's block identity
// (d/dt of the integral is the row itself). After each product the spare
// counts at the ends of the band that carries mass are dropped while the
// mass dropped in that step is at most tol/4 divided by the number of
// steps, for every row (it is added to Row.Dropped: what is dropped can
// only remove that much from P and Q). Q and τ follow by
// multiplying the integral by B and by 1, and the mass that leaves the
// window before T by multiplying it by the rates of the jumps out of the
// window. All terms are non-negative, so entries are accurate to rounding
// relative to the row, and the lost mass is computed rather than
// estimated: the window starts at eight standard deviations of the
// single-failure law (inflated by E[K²]/E[K]) and is widened until the
// lost mass is at most tol/2; then each end of P and of Q is trimmed by
// at most tol/4 (Row.Dropped reports the sum, plus the Poisson truncation
// 2·2⁻⁶⁰). The uniformization stops once the rows' vectors are zero
// (underflow, when the interruptions are a large part of Λ: MTTF 1 µs
// gives ΛT ≈ 10⁹ and zero after a few thousand products), the rest then
// adding exactly zero; ΛT beyond MaxRowProducts is refused, and
// RowsContext checks its context every 4096 products
// (TestRowsExtremeRates). A row costs about ΛT + O(√(ΛT)) products with the banded window
// matrix, O(w·K_max) each for a window of w spare counts. ΛT, about
// (f·λ/E[K] + (m − j)θ)·T, is the expected number of events and repairs
// in the segment, so the cost grows like n·T·w·K_max, far above the O(√m)
// per entry of the binomial closed form.
//
// Functional gives the stationary law of the functional count of the pool,
// which the model's fast path needs for its window; it is no longer
// binomial.
//
// # The up phase
//
// Without reconfiguration the application's checkpoints change nothing in
// the spare count's law, so a recovery and the whole up phase after it,
// to the interruption, are one step of the model (package uwt, "Up
// phases"). Chain.Phase gives what that step needs. From the spare
// counts v (a row vector; its mass the probability that the phase
// starts), the expected time spent in each spare count before the
// interruption is x = v·(−A)⁻¹, so that
//
//	interruption law  v·(−A)⁻¹·B,    expected duration  v·(−A)⁻¹·1
//
// (Phase.Exit), both independent of the interval. The rates of every
// spare count are tabulated once (Phase), bit for bit those of the
// chain's rows: the factor (j−i)/(f−i) of the hypergeometric product
// depends on j − i only (f − i = a + j − i), so it is divided once per
// j − i (TestPhaseRatesMatchChain). −A is an M-matrix whose
// row sums are the interruption rates; x solves the flow balance
// x_j·out_j = v_j + Σ_i x_i·A[i, j], which Exit solves by censoring the
// spare counts from the top (Grassmann, Taksar & Heyman 1985): the only
// way up is j → j+1, so eliminating j leaves the band intact, and every
// exit rate is a sum of positive terms; a substitution from the bottom
// then gives x. O(m·K_max) per row, accurate to rounding entrywise
// (TestPhaseExitMatchesDense: a dense LU solve, 1e-12). The censored
// rates are computed once per phase, by the first Exit or Solve, and
// kept (a third table of (m + 1)·K_max rates): every Exit then costs
// the forward pass and the substitution only. A caller that builds many
// phases and keeps none releases each (Phase.Release): the next phase
// built takes its tables, every entry written again
// (TestPhaseTablesReused), so that the tables are written into memory
// already touched rather than into fresh pages.
//
// The committed work needs the expected number of segments of length t
// committed before the interruption, v·Σ_{k≥1} exp(A k t)·1
// (Segments.Expected; its part that does not depend on v, K below, is a
// SegmentsBase, which holds no reference to the Phase, so that a caller
// can keep the sequences and release the phase's tables). With
// K = I + A/Λ (Λ ≥ every exit rate) and s_n = v·Kⁿ·1, uniformization
// gives
//
//	v·Σ_{k≥1} exp(A k t)·1 = Σ_n c_n(Λt)·s_n,   c_n(x) = Σ_{k≥1} e^{−kx}(kx)ⁿ/n!,
//
// where s_n does not depend on t: the sequence is computed once (and
// extended when a longer t needs it; the ends of its band carrying at
// most 2⁻⁶⁰ of s_n are dropped per product, and so are the spare-only
// rates of each spare count j that sum to at most 2⁻⁶⁰·Λ, from the
// largest size down: an event of k processors hits only spares with
// probability about (j/f)ᵏ, so that most large sizes drop from the band
// and each product is a few loops shorter; both only lower s_n, by at
// most 2·2⁻⁶⁰·s_n per product, Segments.Dropped, checked against the
// dense Kⁿ by TestSegmentsKilledRates), and t enters only through
// the weights c_n (Weights). By Poisson summation (the Fourier transform
// of μⁿe^{−μ}/n! on μ ≥ 0 is (1 + iω)^{−(n+1)}),
//
//	c_n(x) = (1/x)·(1 + 2 Re Σ_{j≥1} (1 + 2πij/x)^{−(n+1)}),  n ≥ 1,
//
// the sum bounded by (x²/24)·(1 + (2π/x)²)^{−(n−1)/2}, so c_n = 1/x to
// rounding from an n that grows like 1.9x²; below it c_n comes from the
// Eulerian polynomials (Σ_k kⁿzᵏ = z·A_n(z)/(1 − z)^{n+1}, z = e^{−x},
// positive coefficients) when x ≤ 2, else from Poisson windows of each k
// built outward from the mode n₀ by the ratio recurrence, the mode's
// weight 1/T, T = e^μ n₀!/μ^{n₀}, from Stirling's series in
// δ − n₀·log1p(δ/n₀), δ = μ − n₀, for n₀ ≥ 30 (each term to a few ε
// absolute, the series' rest below 5e-17), and from the window's sum
// below (TestWeights: the direct sum, 1e-13; TestPoissonAddSumsToOne:
// each window sums to 1 within its rounding). The sum over n stops on
// a fixed ladder of N (steps of 16) where the bound
// s_N·(1/x + 1/√(2π(N+1)))·r/(1 − r) on the rest (c_n ≤ 1/x + 1/√(2πn)
// for n ≥ 1: the grid sum of the unimodal f(μ) = e^{−μ}μⁿ/n! is at most
// ∫f/x + max f, and max f ≤ 1/√(2πn) by Robbins' bound on n!;
// s_{n+1} ≤ r·s_n with r = 1 − min interruption rate/Λ)
// is at most 1e-14 of the sum or 1e-19 of s_0/max(1, ρ_min·t) (of a
// given mass instead of s_0 with ExpectedWithin): the
// result depends on t only (TestSegmentsMatchesDense: (I − M)u = M·1 with
// M = exp(At) from package expm, 1e-11, in two orders of t). The
// sequence needs about (Λ/ρ_min)·ln(10¹⁴) products, Λ/ρ_min the ratio of
// the fastest exit rate (repairs, usually) to the slowest interruption
// rate. Splitting off the dominant (Perron) mode of K does not shorten it
// when the spare count relaxes more slowly than the application is
// interrupted: the eigenvalues of −A next to the smallest, ρ*, are about
// ρ* + k·θ (θ the repair rate, the spare count's relaxation rate), so
// that K's second eigenvalue is within about θ/Λ of z* = 1 − ρ*/Λ
// (N = 4096, MTTF 1 d, MTTR 1 h: |z₂|/z* = 0.990–0.998, and the deflated
// sequence, rest bounded by its ‖y'_N‖₁, as long as this one; it pays
// from θ ≳ 2ρ*, MTTR 1 min: TestPerronSplitGap, BENCHMARKS.md,
// "(evspec)"). Up phases summed together can share one relative tolerance
// (ExpectedFloor): since ρ_j ≤ ρ_max, exp(At)·1 ≥ e^{−ρ_max t}·1
// entrywise, so s_0·q/(1 − q), q = e^{−ρ_max t}, is a lower bound on the
// sum (Segments.Lower, exact for sizes [1]), and each of P phases may stop
// once its rest is at most 1e-14 of 1/P of the phases' lower bounds: the
// error of the total is at most 2e-14 of it (TestLowerAndFloor).
// Once the ladder reaches the flat weights (N ≥ flatFrom(Λt)), the rest
// is exact by one solve: Σ_{n≥N} c_n s_n = (1/(Λt))·v·Kᴺ·Σ_k Kᵏ·1 =
// v·Kᴺ·(−A)⁻¹·1/t (Σ_k Kᵏ = Λ(−A)⁻¹), with (−A)⁻¹·1 from Phase.Solve kept
// by the SegmentsBase and v·Kⁿ·(−A)⁻¹·1 kept at every ladder point, so
// that the result still depends on t only; the sequence then stops there
// instead of at (Λ/ρ_min)·ln(10¹⁴) terms (10¹⁷ for MTTF 10²⁰ s, MTTR 1 h:
// TestSegmentsFlatTail, the plain sum to 1e-12 and a dense solve to
// 1e-11; TestSegmentsHugeMTTF). The closing of SegmentsSeq at the
// weights' first four terms of Poisson summation (about 25 times fewer
// terms than the flat weights) is not used here: its rest would be
// v·Kᴺ·(σ_j I − A)⁻¹·1 with σ_j = 2πij/t, four complex censorings of
// the whole range at each length, each as dear as 63–150 products with
// K, while the sequence is shared by every length of a search; at
// N = 4096 (package uwt's greedy search, 18 lengths per used count) it
// would save at most 80 of a count's products, 9.9 % of them in all
// (BENCHMARKS.md, "(evrow)"). A sum that needs more than
// MaxSegmentsProducts terms (Λt beyond about 1500 with Λ/ρ_min beyond
// about 10⁵) returns an error instead of growing the sequence, so does
// one whose terms exceed the Budget its Segments shares with others
// (SetBudget: package uwt's model gives its up phases one of
// Settings.MaxTransitions terms; TestSegmentsBudget), and
// ExpectedFloorContext checks its context every 4096 products
// (TestSegmentsCancel).
//
// The dense path. With rare interruptions the up phase is also small
// (greedy: the likely functional counts are near N, so m + 1 is a
// handful), and a dense computation per length is cheaper than the
// sequence. With M = exp(At) and Φ(t) = ∫₀ᵗ exp(As) ds, both from one
// expm.ExpIntegral (the Van Loan block [[A, I], [0, 0]]·t in products
// of order m + 1), I − M = (−A)·Φ(t), and A, M and Φ commute, so that
//
//	Σ_{k≥1} exp(Akt)·1 = (I − M)⁻¹·M·1 = Φ(t)⁻¹·(−A)⁻¹·M·1,
//
// without the cancellation of I − M when ρt is tiny; (−A)⁻¹ is the
// censored solve of Phase.Solve (sums of positive terms, whatever the
// condition of A; the SegmentsBase keeps a copy of the censored rates,
// (m + 1)·(K_max + 2) numbers, not the Phase), Φ(t)⁻¹ a dense LU with partial
// pivoting. A SegmentsBase takes it by the cost rule useDense: the
// sequence's predicted (Λ/ρ_min)·ln(10¹⁴) products of (m + 1)·K_max
// entries against 20 lengths (a search's) of 120·(m + 1)³ flops, and
// m + 1 ≤ MaxDenseOrder = 256; the sequence, and its bits, are kept
// wherever it is the cheaper (package uwt's events scenarios at MTTF
// 1 d are unchanged byte for byte). Its accuracy is that of the LU: Φ(t)
// has eigenvalues near t on the slow direction and near 1/Λ on the fast
// ones while ρt ≪ 1, so κ₁(Φ) is about min(Λt, Λ/ρ_min), and the relative
// error about 10⁻¹³·κ₁(Φ) (TestSegmentsDenseMatchesSequence: the
// sequence to 1e-11 + 1e-13·κ, and the expm-and-solve oracle with its own
// cancellation added, ρt from 10⁻⁶ to 20, Λt up to 2·10⁷;
// TestSegmentsDensePower: Φ replaced by t·I, or M·1 by 1, is rejected):
// looser than the sequence's 1e-14 when κ is large. A Φ(t) whose LU
// estimate of κ₁ exceeds 10⁹ (an error up to about 10⁻⁴) is left to the
// sequence, which may then refuse it as above (TestSegmentsDenseRule).
//
// # Column forms
//
// A decision process over the starting spare counts (package optimal)
// needs Exit's law and Segments' count for every start at once, applied
// to a vector on the right. Phase.Solve gives x = (−A)⁻¹·f for every
// start: the censoring of Phase carries f down (f'_{j−1} = f_{j−1} +
// up_{j−1}/eout_j·f'_j) and a substitution from the bottom solves the
// censored rows eout_j·x_j − Σ_k edn_{j,k}·x_{j−k} = f'_j, O(m·K_max);
// with f = 1 it is the expected duration, with f = B·h (Phase.HitSum)
// the expected value of h at the interruption (TestColumnsMatchDense: a
// dense LU, 1e-12). Phase.SegmentsColumn gives
// exp(A·t_R)·Σ_{k≥1} exp(A k t)·1 for every start (a recovery of length
// t_R, then segments of length t): the sequence Kⁿ·1 on the column with
// the weights c_n(Λt) of Segments, stopped on the same ladder when the
// bound on the rest is 1e-14 of the smallest entry, then exp(A·t_R) by
// uniformization (TestSegmentsColumnMatchesDense: expm and a dense
// solve, 1e-11, and the row form Segments.Expected);
// SegmentsColumnContext checks its context every 4096 products, in the
// sum and in exp(A·t_R) (TestColumnCancel). Its cost is about
// (Λ/ρ_min)·ln(10¹⁴) products of O(m·K_max), large for a small a among
// many spares; Phase.SegmentsBound, e^{−ρ_min t_R}·q/(1 − q) with
// q = e^{−ρ_min t}, bounds every entry (exp(A t)·1 ≤ e^{−ρ_min t}·1), so
// that a caller can skip the counts that cannot matter. Phase.SegmentsWindow
// gives the entries of a window of starts from the same sum on a band of
// spare counts around it, the process killed on leaving the band: it
// loses at most Λ·((−A)⁻¹·1_out)(s)/(1 − q) (the escape probability is
// at most Λ times the expected time out of the band, one Solve; after an
// escape at most 1/(1 − q) segments commit), and the band is widened
// until that is at most 1e-14 of each entry. The spare count of a few
// processors among many lives near its mean, so the band is narrow and
// its largest rate Λ smaller: N = 4096, a = 6 takes 1475 of 4091 spare
// counts and Λ/ρ_min 802 instead of 4773 (TestSegmentsWindowMatchesColumn:
// SegmentsColumn to 3e-14 plus the rounding of the longer sum;
// TestSegmentsWindowEscapeBound: the loss is within the bound, and a band
// too narrow loses more than 1e-10 and is refused). SegmentsSeq is that
// window at many segment lengths: exp(A·t_R) commutes with K, so the
// sequence z_n = Kⁿ·exp(A·t_R)·1 is independent of t (on the whole range
// the rest of the sum is closed at the first point n of the ladder from
// which c_k(x) is its first four terms of Poisson summation to rounding,
// about 1.9x²/25, by (1/t)·((−A)⁻¹·z_n + 2 Re Σ_{j≤4} β_jⁿ·(2πij/t·I −
// A)⁻¹·z_n), β_j = 1/(1 + 2πij/x): Solve and four complex censorings,
// the resolvents commuting with K; TestRestClosed: the terms summed to
// the flat point, 1e-12; TestResolvent: the residual with the dense A,
// 1e-13); its window's entries (and the whole z_n at the ladder's
// points) are kept within a Budget of stored numbers shared
// by the sequences of a solver, so that each further length costs its
// weights and dot products over the window; AtContext checks its context
// every 4096 terms, and every 4096 products of the sequence's start
// exp(A·t_R)·1 (TestColumnCancel; TestSegmentsSeqMatchesColumn:
// SegmentsColumn at each length to 1e-12 in a search's order, the same
// bits whatever the budget, and a sequence without the recovery rejected).
// SegmentsSeq.AtOrSkip serves a caller that needs the sum only where it
// is large: at each point N of the ladder where the sum goes on it
// passes upper bounds on the window's entries, the sum so far plus the
// bound on the rest and the band's escape bound, times 1 + 10⁻⁶ for the
// rounding of the rest, and stops when the caller takes them (package
// optimal's improvement skips a count that cannot win;
// TestSegmentsSeqAtOrSkip: the bounds above SegmentsColumn at every
// point, At's bits when never stopped; the sum so far alone falls below,
// and the last bounds are within 1e-5 where the sum ends on the ladder).
// Phase.SegmentsBoundWindow (SegmentsSeq.Bound with its bands kept) bounds
// each entry of the window by the smaller of SegmentsBound and
// SegmentsBoundAt at the smallest interruption rate of a band around the
// window plus the band's escape bound, far tighter where the rate grows
// with the spare count (TestSegmentsBoundWindow: above SegmentsColumn,
// below SegmentsBound, and the bound at ρ_max rejected). Wait gives the
// moves of the waiting state, no application running (docs/model.md
// section 11), for package uwt's and package optimal's rows (TestWait).
//
// # Performance
//
// Segments' products with K are a few loops (mulAdd) over the band, one
// per event size kept: go test -bench Segments ./batchchain/, N = 4096,
// MTTF 1 d, MTTR 1 h, T = 600 s, the mode a = 3936: 224 terms in
// 0.14–0.18 ms CPU on a loaded machine (0.18–0.26 ms with every size;
// sizes 12–16 are left out everywhere and 9–11 below 74, 110 and 153
// spare counts, against a band of about 84–152: BENCHMARKS.md, "Failure
// events: negligible spare-only rates, smaller phases (evperf4)").
//
// The kernels of those loops, mulAdd (dst_i += x_i·r_i) and mulSet
// (dst_i = x_i·r_i), are amd64 assembly (mul_amd64.s): AVX, four
// elements per instruction, where golang.org/x/sys/cpu reports it, else
// SSE2, two per instruction (every amd64 has it); the pure Go kernels on
// other architectures and with -tags purego. Each element is the product
// rounded, then the sum rounded (MULPD then ADDPD, never a fused
// multiply-add, which rounds once; the pure Go kernels round each
// product with float64(·), so that the compiler may not fuse them, as the
// Go specification would let it with GOAMD64=v3), so the results are the
// scalar code's bits: elementwise operations do not depend on their order
// (TestMulKernels: every length 0..300 at every offset, with NaN, ±Inf,
// ±0 and subnormals, against the Go kernels bit for bit, NaN payloads
// aside, which Go leaves unspecified; a fused multiply-add, a dropped
// tail and a write past the end are rejected; FuzzMulAdd). The callers
// never pass a dst that overlaps x: the product goes to a second buffer.
// At a band of 77 spare counts, one mulAdd and one mulSet take 59–63 ns
// CPU in Go, 39–40 ns in SSE2 and 28 ns in AVX (go test -bench
// MulKernels ./batchchain/, AMD EPYC); BenchmarkSegments at N = 4096
// fell from 102–103 µs to 75–77 µs (a = 3936) and from 275–290 µs to
// 181–185 µs (a = 3773; BENCHMARKS.md, "Vector kernels for the up
// phases' sequences (evsimd)"). The sum s_n of each product's band is
// gonum's floats.Sum (several accumulators: the chain of dependent
// additions of a plain loop was 12 % of the search at N = 4096; it moved
// UWT by at most 5.7e-16 relative and the flat optimum's I* by 2.7e-12).
// A one-row segment's products with K
// (applyK) are the same passes over the band: up, stay, then the spare
// events by size from columns of the rates by size (TestApplyKOneBits:
// the bits of the loop over spare counts).
//
// Rows are uniformized in blocks of up to 64 on a common window, the
// entries of one spare count stored contiguously over the rows, so that
// each product with K is a sequence of axpys. go test -bench Rows
// -benchtime 5x -count 3 ./batchchain/ on a 2-core AMD EPYC shared with
// other jobs (wall times were up to 5× the CPU times, so the median CPU
// time per operation is given), 16 rows s = 0..15 on the most likely used
// count, T = 1 h, MTTR 1 h, half the events of size 1 and half of size
// 4–16:
//
//	N = 512,  MTTF 8 h: 0.86 ms;  MTTF 1 d: 0.18 ms
//	N = 4096, MTTF 8 h: 2.3 ms;   MTTF 1 d: 1.2 ms
//	Transition (dense, wall time) N = 32: 0.29 ms;  N = 64: 1.9 ms
//
// Dropping the negligible ends of the band divided the N = 4096 figures by
// 11 and 3 (25 ms and 4.0 ms before) and left N = 512 unchanged: there
// the band fills the window. ΛT, about 550 events and repairs per segment
// at N = 4096, MTTF 8 h, sets the number of products. The binomial closed
// form of package birthdeath does a row of that size in microseconds; the
// model with failure events is correspondingly slower (package uwt,
// BenchmarkBatchEvaluate).
//
// # References
//
//   - C. F. Van Loan, Computing integrals involving the matrix exponential,
//     IEEE Trans. Automatic Control 23(3):395–404, 1978.
//   - A. Jensen, Markoff chains as an aid in the study of Markoff processes,
//     Skand. Aktuarietidskr. 36:87–91, 1953 (uniformization).
//   - W. K. Grassmann, M. I. Taksar and D. P. Heyman, Regenerative analysis
//     and steady state distributions for Markov chains, Oper. Res.
//     33(5):1107–1116, 1985 (the cut equations of Functional, the
//     censoring of Phase.Exit).
//   - R. L. Graham, D. E. Knuth and O. Patashnik, Concrete Mathematics,
//     2nd ed., Addison-Wesley, 1994, section 6.2 (Eulerian numbers).
//   - E. M. Stein and R. Shakarchi, Fourier Analysis, Princeton, 2003,
//     chapter 5 (Poisson summation).
package batchchain
