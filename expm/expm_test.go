package expm

import (
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// knownCase is a matrix with an exponential known independently of this
// package: a closed form or a published reference value.
type knownCase struct {
	name string
	a    *mat.Dense
	want *mat.Dense
	// refTol is the relative accuracy of want itself (published digits
	// or rounding in forming a closed form).
	refTol float64
	// tol, if positive, replaces the computed tolerance (see tolerance).
	tol float64
	// gonumMin, if positive, is a lower bound on the relative error of
	// gonum's mat.Dense.Exp, asserting that this package improves on it.
	gonumMin float64
}

// knownCases returns the oracle matrices. Sources:
//   - B14: Al-Mohy & Higham (2009) / Moler's blog example, reference from
//     SciPy's expm test suite (17 significant digits).
//   - Burkardt 1–12: J. Burkardt's test_matrix_exponential collection, as
//     used in SciPy's test_matfuncs (Moler & Van Loan 1978; Ward 1977;
//     Laub; NAG F01ECF; Wikipedia). Where the published value is a closed
//     form, the closed form is used; case 7's and 9's published values
//     have only 7 and 7 significant digits, so their tolerances are looser.
func knownCases() []knownCase {
	e := math.Exp
	exp16, exp4 := e(16), e(4)
	eps := math.Nextafter(1, 2) - 1 // MATLAB eps = 2⁻⁵²
	// Moler & Van Loan (1978): eigenvalues −1 and −17,
	// exp(A) = e^{−1}[[−2, 1.5], [−4, 3]] + e^{−17}[[3, −1.5], [4, −2]].
	mvl := mat.NewDense(2, 2, []float64{
		-2*e(-1) + 3*e(-17), 1.5*e(-1) - 1.5*e(-17),
		-4*e(-1) + 4*e(-17), 3*e(-1) - 2*e(-17),
	})
	return []knownCase{
		{
			name: "B14 (badly scaled, Al-Mohy & Higham 2009)",
			a: mat.NewDense(3, 3, []float64{
				0, 1e-8, 0,
				-(2e10 + 4e8/6), -3, 2e10,
				200.0 / 3, 0, -200.0 / 3,
			}),
			want: mat.NewDense(3, 3, []float64{
				0.44684946828317557, 1.5404415738395158e-9, 0.46281145355877240,
				-5743067.7794791637, -0.015283003868680893, -4526542.7127836952,
				0.44772297784949527, 1.5427048451959089e-9, 0.46348064883764906,
			}),
			// The reference has 17 significant digits. The condition number
			// cannot be estimated with gonum's Exp here (it fails on this
			// matrix), so the fixed acceptance level 1e-7 is used; gonum's
			// relative error is about 5e18.
			tol:      1e-7,
			gonumMin: 1,
		},
		{
			name:   "Burkardt 1: diagonal",
			a:      mat.NewDense(2, 2, []float64{1, 0, 0, 2}),
			want:   mat.NewDense(2, 2, []float64{e(1), 0, 0, e(2)}),
			refTol: u,
		},
		{
			name: "Burkardt 2: symmetric [[1,3],[3,2]]",
			a:    mat.NewDense(2, 2, []float64{1, 3, 3, 2}),
			want: mat.NewDense(2, 2, []float64{
				39.322809708033859, 46.166301438885753,
				46.166301438885768, 54.711576854329110,
			}),
			refTol: 1e-15, // 17 significant digits published
		},
		{
			name: "Burkardt 3: Laub [[0,1],[-39,-40]]",
			a:    mat.NewDense(2, 2, []float64{0, 1, -39, -40}),
			// Eigenvalues −1, −39: closed form by Sylvester's formula.
			want: mat.NewDense(2, 2, []float64{
				39/(38*e(1)) - 1/(38*e(39)), -math.Expm1(-38) / (38 * e(1)),
				39 * math.Expm1(-38) / (38 * e(1)), -1/(38*e(1)) + 39/(38*e(39)),
			}),
			refTol: 8 * u, // closed form, a few roundings
		},
		{
			name:   "Burkardt 4: Moler & Van Loan [[-49,24],[-64,31]]",
			a:      mat.NewDense(2, 2, []float64{-49, 24, -64, 31}),
			want:   mvl,
			refTol: 8 * u, // closed form
		},
		{
			name: "Burkardt 5: nilpotent 6·superdiag",
			a:    mat.NewDense(4, 4, []float64{0, 6, 0, 0, 0, 0, 6, 0, 0, 0, 0, 6, 0, 0, 0, 0}),
			// Finite series I + N + N²/2 + N³/6.
			want:   mat.NewDense(4, 4, []float64{1, 6, 18, 36, 0, 1, 6, 18, 0, 0, 1, 6, 0, 0, 0, 1}),
			refTol: 0, // exact integers
		},
		{
			name:   "Burkardt 6: Jordan [[1,1],[0,1]]",
			a:      mat.NewDense(2, 2, []float64{1, 1, 0, 1}),
			want:   mat.NewDense(2, 2, []float64{e(1), e(1), 0, e(1)}),
			refTol: u,
		},
		{
			name: "Burkardt 7: [[1+eps,1],[0,1-eps]]",
			a:    mat.NewDense(2, 2, []float64{1 + eps, 1, 0, 1 - eps}),
			// Closed form [[e^a, (e^a − e^b)/(a − b)], [0, e^b]]; the
			// divided difference equals e(1 + O(eps²)) since
			// (e^a − e^b)/(a − b) = e^{(a+b)/2}·sinh(eps)/eps.
			want:   mat.NewDense(2, 2, []float64{e(1 + eps), e(1), 0, e(1 - eps)}),
			refTol: 2 * u,
		},
		{
			name: "Burkardt 8: Wikipedia [[21,17,6],[-5,-1,-6],[4,4,16]]",
			a:    mat.NewDense(3, 3, []float64{21, 17, 6, -5, -1, -6, 4, 4, 16}),
			want: func() *mat.Dense {
				w := mat.NewDense(3, 3, []float64{
					13*exp16 - exp4, 13*exp16 - 5*exp4, 2*exp16 - 2*exp4,
					-9*exp16 + exp4, -9*exp16 + 5*exp4, -2*exp16 + 2*exp4,
					16 * exp16, 16 * exp16, 4 * exp16,
				})
				w.Scale(0.25, w)
				return w
			}(),
			refTol: 8 * u, // closed form
		},
		{
			name: "Burkardt 9: NAG F01ECF",
			a:    mat.NewDense(4, 4, []float64{1, 2, 2, 2, 3, 1, 1, 2, 3, 2, 1, 2, 3, 3, 3, 1}),
			want: mat.NewDense(4, 4, []float64{
				740.7038, 610.8500, 542.2743, 549.1753,
				731.2510, 603.5524, 535.0884, 542.2743,
				823.7630, 679.4257, 603.5524, 610.8500,
				998.4355, 823.7630, 731.2510, 740.7038,
			}),
			// Published to 4 decimals: ‖rounding‖₁/‖want‖₁ ≤ 4·5e-5/3294.
			refTol: 1e-7,
		},
		{
			name: "Burkardt 10: Ward #1 (defective)",
			a:    mat.NewDense(3, 3, []float64{4, 2, 0, 1, 4, 1, 1, 1, 4}),
			want: mat.NewDense(3, 3, []float64{
				147.8666224463699, 183.7651386463682, 71.79703239999647,
				127.7810855231823, 183.7651386463682, 91.88256932318415,
				127.7810855231824, 163.6796017231806, 111.9681062463718,
			}),
			refTol: 2e-15, // 16 significant digits published
		},
		{
			name: "Burkardt 11: Ward #2 (symmetric, eigenvalues 20,30,40)",
			a: mat.NewDense(3, 3, []float64{
				29.87942128909879, 0.7815750847907159, -2.289519314033932,
				0.7815750847907159, 25.72656945571064, 8.680737820540137,
				-2.289519314033932, 8.680737820540137, 34.39400925519054,
			}),
			want: mat.NewDense(3, 3, []float64{
				5.496313853692378e15, -1.823188097200898e16, -3.047577080858001e16,
				-1.823188097200899e16, 6.060522870222108e16, 1.012918429302482e17,
				-3.047577080858001e16, 1.012918429302482e17, 1.692944112408493e17,
			}),
			// 16 significant digits, for an input that is itself rounded to
			// 16 digits (perturbing exp by up to κ·1e-16 ≈ 5e-15).
			refTol: 1e-14,
		},
		{
			name: "Burkardt 12: Ward #3 (eigenvalues -1,-2,-20)",
			a:    mat.NewDense(3, 3, []float64{-131, 19, 18, -390, 56, 54, -387, 57, 52}),
			want: mat.NewDense(3, 3, []float64{
				-1.509644158793135, 0.3678794391096522, 0.1353352811751005,
				-5.632570799891469, 1.471517758499875, 0.4060058435250609,
				-4.934938326088363, 1.103638317328798, 0.5413411267617766,
			}),
			refTol: 2e-15, // 16 significant digits published
		},
	}
}

// tolerance returns the accepted relative error for exp(a): the
// backward-stable level c·n·u·max(κ_exp(A), 1) with c = 20, plus the
// accuracy refTol of the reference itself. κ_exp is the relative condition
// number (condExp, computed with gonum). The constant c = 20 is a stated
// allowance for the O(n) growth of rounding errors in the ≤ 6 products,
// the LU solve and the squarings; measured ratios error/(u·κ) were ≤ 15.
func tolerance(a *mat.Dense, refTol float64) float64 {
	n, _ := a.Dims()
	return 20*float64(n)*u*math.Max(condExp(a), 1) + refTol
}

// TestExpKnown compares Exp with exact or published exponentials and logs
// gonum's mat.Dense.Exp on the same matrices for comparison.
func TestExpKnown(t *testing.T) {
	for _, c := range knownCases() {
		got := mustExp(t, c.a, nil)
		ours := relErr(got, c.want)
		theirs := relErr(gonumExp(c.a), c.want)
		tol := c.tol
		if tol == 0 {
			tol = tolerance(c.a, c.refTol)
		}
		t.Logf("%-55s ours %.2e  gonum %.2e  (tol %.1e)", c.name, ours, theirs, tol)
		if !(ours <= tol) {
			t.Errorf("%s: relative error %.3g > %.3g", c.name, ours, tol)
		}
		if c.gonumMin > 0 && !(theirs >= c.gonumMin) {
			t.Errorf("%s: gonum's error %.3g unexpectedly below %.3g (the comparison premise failed)", c.name, theirs, c.gonumMin)
		}
	}
}

// TestExpStructured checks families with closed-form exponentials:
// rotations, Jordan blocks, nilpotent matrices and diagonalisable matrices
// V·D·V⁻¹ with integer unimodular V (so that A is exact).
func TestExpStructured(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 1))
	type tc struct {
		name string
		a    *mat.Dense
		want *mat.Dense
		// refTol is the relative accuracy of want, formed in floating
		// point; the accepted error is tolerance(a, refTol).
		refTol float64
	}
	var cases []tc

	// Rotations: exp([[0,θ],[−θ,0]]) = [[cos θ, sin θ], [−sin θ, cos θ]].
	// A is normal, so κ_exp ≈ ‖A‖ = θ.
	for _, th := range []float64{1e-3, 1, 10, 100, 1e3} {
		cases = append(cases, tc{
			name:   "rotation θ=" + ftoa(th),
			a:      mat.NewDense(2, 2, []float64{0, th, -th, 0}),
			want:   mat.NewDense(2, 2, []float64{math.Cos(th), math.Sin(th), -math.Sin(th), math.Cos(th)}),
			refTol: 2 * u, // cos and sin are correctly rounded to ≤ 1 ulp
		})
	}

	// Jordan blocks J = λI + μN, n = 5: exp(J) = e^λ Σ_k (μN)^k/k!, i.e.
	// e^λ μ^k/k! on the k-th superdiagonal. Also S·J·S⁻¹ with unimodular S
	// (not triangular), reference S·exp(J)·S⁻¹.
	for _, lm := range [][2]float64{{-3, 1}, {0.5, 1}, {10, 1}, {-2, 100}, {1, 0.01}} {
		lambda, mu := lm[0], lm[1]
		const n = 5
		j := mat.NewDense(n, n, nil)
		ej := mat.NewDense(n, n, nil)
		for i := 0; i < n; i++ {
			j.Set(i, i, lambda)
			if i+1 < n {
				j.Set(i, i+1, mu)
			}
			for k := 0; i+k < n; k++ {
				ej.Set(i, i+k, math.Exp(lambda)*math.Pow(mu, float64(k))/math.Gamma(float64(k+1)))
			}
		}
		name := "Jordan λ=" + ftoa(lambda) + " μ=" + ftoa(mu)
		// Each entry has ≤ 4 roundings (Exp, Pow, Gamma, two operations).
		cases = append(cases, tc{name: name, a: j, want: ej, refTol: 8 * u})
		if mu == 1 || mu == 0.01 {
			s, sinv := unimodular(rnd, n)
			want := similar(s, ej, sinv)
			cases = append(cases, tc{
				name:   name + " similar",
				a:      similar(s, j, sinv),
				want:   want,
				refTol: productRoundoff(n, want, s, ej, sinv),
			})
		}
	}

	// Nilpotent: strictly upper triangular integer N (entries in [−3, 3])
	// and a unimodular similarity of it; exp = Σ_{k<n} N^k/k! exactly (the
	// powers are integers, exact in float64).
	for trial := 0; trial < 3; trial++ {
		const n = 6
		nl := mat.NewDense(n, n, nil)
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				nl.Set(i, j, float64(rnd.IntN(7)-3))
			}
		}
		s, sinv := unimodular(rnd, n)
		for k, a := range []*mat.Dense{nl, similar(s, nl, sinv)} {
			want := mat.NewDense(n, n, nil)
			pow := mat.NewDense(n, n, nil)
			for i := 0; i < n; i++ {
				pow.Set(i, i, 1)
			}
			fact := 1.0
			var absSum float64 // Σ‖N^k‖₁/k!, scale of the rounding error
			for p := 0; p < n; p++ {
				if p > 0 {
					pow.Mul(pow, a)
					fact *= float64(p)
				}
				var term mat.Dense
				term.Scale(1/fact, pow)
				want.Add(want, &term)
				absSum += mat.Norm(&term, 1)
			}
			name := "nilpotent"
			if k == 1 {
				name += " similar"
			}
			// n terms, each with one rounding (the division), summed.
			cases = append(cases, tc{
				name: name, a: a, want: want,
				refTol: 2 * float64(n) * u * absSum / mat.Norm(want, 1),
			})
		}
	}

	// Diagonalisable with known eigenvectors: A = V·D·V⁻¹ with integer
	// unimodular V; D diagonal integer, or with a 2×2 block [[a,b],[−b,a]]
	// whose exponential is e^a[[cos b, sin b], [−sin b, cos b]].
	for trial := 0; trial < 4; trial++ {
		const n = 5
		v, vinv := unimodular(rnd, n)
		d := mat.NewDense(n, n, nil)
		ed := mat.NewDense(n, n, nil)
		for i := 0; i < n; i++ {
			lam := float64(rnd.IntN(11) - 8)
			d.Set(i, i, lam)
			ed.Set(i, i, math.Exp(lam))
		}
		if trial%2 == 1 {
			const a, b = -1.0, 2.0
			d.Set(0, 0, a)
			d.Set(1, 1, a)
			d.Set(0, 1, b)
			d.Set(1, 0, -b)
			ed.Set(0, 0, math.Exp(a)*math.Cos(b))
			ed.Set(1, 1, math.Exp(a)*math.Cos(b))
			ed.Set(0, 1, math.Exp(a)*math.Sin(b))
			ed.Set(1, 0, -math.Exp(a)*math.Sin(b))
		}
		want := similar(v, ed, vinv)
		cases = append(cases, tc{
			name:   "diagonalisable #" + ftoa(float64(trial)),
			a:      similar(v, d, vinv),
			want:   want,
			refTol: productRoundoff(n, want, v, ed, vinv),
		})
	}

	for _, c := range cases {
		got := mustExp(t, c.a, nil)
		ours := relErr(got, c.want)
		theirs := relErr(gonumExp(c.a), c.want)
		tol := tolerance(c.a, c.refTol)
		t.Logf("%-28s ours %.2e  gonum %.2e  (tol %.1e)", c.name, ours, theirs, tol)
		if !(ours <= tol) {
			t.Errorf("%s: relative error %.3g > %.3g", c.name, ours, tol)
		}
	}
}

// productRoundoff bounds the relative rounding error of want = S·E·S⁻¹
// formed in floating point, with E itself accurate to 8u entrywise:
// (2n + 8)·u·‖|S||E||S⁻¹|‖₁/‖want‖₁ (standard error bound for matrix
// products, Higham 2002, "Accuracy and Stability of Numerical Algorithms").
func productRoundoff(n int, want, s, e, sinv *mat.Dense) float64 {
	var abs mat.Dense
	abs.Product(absOf(s), absOf(e), absOf(sinv))
	return float64(2*n+8) * u * mat.Norm(&abs, 1) / mat.Norm(want, 1)
}

// absOf returns |a| elementwise.
func absOf(a mat.Matrix) *mat.Dense {
	var r mat.Dense
	r.Apply(func(_, _ int, v float64) float64 { return math.Abs(v) }, a)
	return &r
}

// TestExpIdentities checks exp(A)·exp(−A) = I and exp(A+B) = exp(A)·exp(B)
// for exactly commuting A, B (both V·D·V⁻¹ with the same integer V).
func TestExpIdentities(t *testing.T) {
	rnd := rand.New(rand.NewPCG(2, 2))
	for trial := 0; trial < 20; trial++ {
		n := 2 + rnd.IntN(7)
		scale := math.Pow(10, 2*rnd.Float64()-1.5) // ‖A‖ from ~0.03 to ~3·n
		a := randomNormal(rnd, n, scale)
		var neg mat.Dense
		neg.Scale(-1, a)
		ea, ena := mustExp(t, a, nil), mustExp(t, &neg, nil)
		var prod mat.Dense
		prod.Mul(ea, ena)
		for i := 0; i < n; i++ {
			prod.Set(i, i, prod.At(i, i)-1)
		}
		// The residual of a product of two backward-stable results is of
		// order u·‖e^A‖‖e^{−A}‖ times the conditioning ≈ ‖A‖.
		tol := 100 * float64(n) * u * mat.Norm(ea, 1) * mat.Norm(ena, 1) * math.Max(1, mat.Norm(a, 1))
		if r := mat.Norm(&prod, 1); r > tol {
			t.Errorf("trial %d: ‖exp(A)exp(−A) − I‖₁ = %.3g > %.3g", trial, r, tol)
		}
	}
	for trial := 0; trial < 10; trial++ {
		const n = 5
		v, vinv := unimodular(rnd, n)
		da := mat.NewDense(n, n, nil)
		db := mat.NewDense(n, n, nil)
		for i := 0; i < n; i++ {
			da.Set(i, i, float64(rnd.IntN(7)-4))
			db.Set(i, i, float64(rnd.IntN(7)-4))
		}
		a, b := similar(v, da, vinv), similar(v, db, vinv)
		var sum, prod mat.Dense
		sum.Add(a, b)
		prod.Mul(mustExp(t, a, nil), mustExp(t, b, nil))
		want := mustExp(t, &sum, nil)
		kv := mat.Norm(v, 1) * mat.Norm(vinv, 1)
		tol := 100 * u * kv * kv
		if r := relErr(&prod, want); r > tol {
			t.Errorf("commuting trial %d: relative difference %.3g > %.3g", trial, r, tol)
		}
	}
}

// TestExpMarkovRows checks that exp(Gt) for a Markov generator G is a
// stochastic matrix (entries ≥ 0 up to rounding, rows summing to 1) for
// ‖Gt‖₁ from 1e-3 to 1e12, and that for large ‖Gt‖ every row equals the
// stationary distribution π (πG = 0, Σπ = 1, solved independently by LU).
// gonum's rows drift from 1 as ‖Gt‖ grows; that is asserted too.
func TestExpMarkovRows(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 3))
	const (
		rowTol = 1e-14 // |row sum − 1| and negative entries (≈ 2n·u)
		piTol  = 1e-11 // rows vs π (itself from an LU solve) relative to ‖π‖_∞
	)
	var worstGonum, worstNoDeflation float64
	for trial := 0; trial < 6; trial++ {
		n := 4 + rnd.IntN(7)
		// Rates spanning two or six orders of magnitude, dense or sparse.
		g := randomGenerator(rnd, n, []float64{0.5, 0.3}[trial%2], []float64{1, 3}[trial%2])
		pi := stationary(g)
		norm := mat.Norm(g, 1)
		for k := -3; k <= 12; k++ {
			tt := math.Pow(10, float64(k)) / norm
			var gt mat.Dense
			gt.Scale(tt, g)
			x := mustExp(t, &gt, nil)
			drift, neg := rowDrift(x)
			if drift > rowTol || neg > rowTol {
				t.Errorf("trial %d ‖Gt‖=1e%d: row-sum drift %.3g, most negative %.3g (tol %g)", trial, k, drift, -neg, rowTol)
			}
			gd, _ := rowDrift(gonumExp(&gt))
			if k >= 9 {
				worstGonum = math.Max(worstGonum, gd)
				// Without deflation this package drifts like gonum: the
				// deflation is what the row-sum assertion above tests.
				nd, _ := rowDrift(mustExp(t, &gt, &Settings{NoDeflation: true}))
				worstNoDeflation = math.Max(worstNoDeflation, nd)
			}
			var piErr float64
			if k >= 6 {
				// The spectral gap is ≳ 1e-3·‖G‖ for these chains, so
				// e^{Gt} = 1πᵀ to double precision once ‖Gt‖ ≥ 1e6.
				for i := 0; i < n; i++ {
					for j := 0; j < n; j++ {
						piErr = math.Max(piErr, math.Abs(x.At(i, j)-pi[j])/normInf(pi))
					}
				}
				if piErr > piTol {
					t.Errorf("trial %d ‖Gt‖=1e%d: max |exp(Gt)_ij − π_j|/‖π‖ = %.3g > %.3g", trial, k, piErr, piTol)
				}
			}
			if k%3 == 0 {
				t.Logf("trial %d n=%d ‖Gt‖=1e%-3d ours drift %.1e neg %.1e π err %.1e | gonum drift %.1e", trial, n, k, drift, neg, piErr, gd)
			}
		}
	}
	t.Logf("worst row drift for ‖Gt‖ ≥ 1e9: gonum %.2g, NoDeflation %.2g", worstGonum, worstNoDeflation)
	if worstGonum < 1e-10 || worstNoDeflation < 1e-10 {
		t.Errorf("worst row drift for ‖Gt‖ ≥ 1e9: gonum %.3g, NoDeflation %.3g: expected both to exceed 1e-10", worstGonum, worstNoDeflation)
	}
}

// rowDrift returns max_i |Σ_j x_ij − 1| and the most negative entry (as a
// positive number, 0 if none).
func rowDrift(x *mat.Dense) (drift, neg float64) {
	n, _ := x.Dims()
	for i := 0; i < n; i++ {
		var s float64
		for j := 0; j < n; j++ {
			s += x.At(i, j)
			neg = math.Max(neg, -x.At(i, j))
		}
		drift = math.Max(drift, math.Abs(s-1))
	}
	return drift, neg
}

// stationary solves πᵀG = 0, Σπ = 1 by replacing one equation of Gᵀπ = 0
// with the normalisation and using gonum's LU solver.
func stationary(g *mat.Dense) []float64 {
	n, _ := g.Dims()
	m := mat.DenseCopyOf(g.T())
	for j := 0; j < n; j++ {
		m.Set(n-1, j, 1)
	}
	rhs := mat.NewVecDense(n, nil)
	rhs.SetVec(n-1, 1)
	var pi mat.VecDense
	if err := pi.SolveVec(m, rhs); err != nil {
		panic(err)
	}
	return pi.RawVector().Data
}

// TestExpSettings checks that the options (balancing, shift, exact norms)
// give the same exponential on random and graded matrices: each variant is
// a complete algorithm, so agreement is a cross-check of the pre- and
// post-processing.
func TestExpSettings(t *testing.T) {
	rnd := rand.New(rand.NewPCG(4, 4))
	variants := []*Settings{
		{NoBalance: true}, {NoShift: true}, {ExactNorms: true},
		{NoBalance: true, NoShift: true, ExactNorms: true},
	}
	for trial := 0; trial < 12; trial++ {
		n := []int{3, 9, 20, 40}[trial%4]
		a := randomNormal(rnd, n, math.Pow(10, 2*rnd.Float64()-1)/math.Sqrt(float64(n)))
		if trial%3 == 0 {
			// Graded: D·A·D⁻¹ with D = diag(10^k), which balancing undoes.
			for i := 0; i < n; i++ {
				for j := 0; j < n; j++ {
					a.Set(i, j, a.At(i, j)*math.Pow(10, float64(i-j)/2))
				}
			}
		}
		ref := mustExp(t, a, nil)
		for _, s := range variants {
			got := mustExp(t, a, s)
			// Both results are backward stable, so they differ by about
			// u·κ_exp with κ_exp ≲ ‖A‖₁ for these mildly nonnormal
			// matrices: tolerance 100·n·u·max(1, ‖A‖₁). The graded ones
			// have ‖A‖₁ up to 10^(n/2), which would make that vacuous, so
			// they get a fixed 1e-9 (measured: 2.8e-11 between the balanced
			// and unbalanced results at n = 40, ≤ 5e-14 otherwise).
			tol := 100 * float64(n) * u * math.Max(1, mat.Norm(a, 1))
			if trial%3 == 0 {
				tol = 1e-9
			}
			if r := relErr(got, ref); r > tol {
				t.Errorf("trial %d n=%d settings %+v: relative difference %.3g > %.3g", trial, n, *s, r, tol)
			}
		}
	}
}

// TestExpErrors checks the error and panic contract.
func TestExpErrors(t *testing.T) {
	a := mat.NewDense(3, 3, nil)
	a.Set(1, 2, math.NaN())
	var dst mat.Dense
	err := Exp(&dst, a, nil)
	if err == nil || !strings.Contains(err.Error(), "a[1,2]") {
		t.Errorf("NaN entry: err = %v, want mention of a[1,2]", err)
	}
	if !dst.IsEmpty() {
		t.Errorf("dst modified on error")
	}
	a.Set(1, 2, math.Inf(-1))
	if err := Exp(&dst, a, nil); err == nil {
		t.Errorf("Inf entry: no error")
	}
	mustPanic(t, "non-square", func() { _ = Exp(&dst, mat.NewDense(2, 3, nil), nil) })
	mustPanic(t, "dst shape", func() { _ = Exp(mat.NewDense(2, 2, nil), mat.NewDense(3, 3, nil), nil) })

	// Zero matrix → identity; 1×1 → scalar exp; a non-empty dst of the right
	// size is overwritten; a Transpose argument works.
	z := mustExp(t, mat.NewDense(3, 3, nil), nil)
	if !mat.Equal(z, eye(3)) {
		t.Errorf("exp(0) = %v", mat.Formatted(z))
	}
	one := mustExp(t, mat.NewDense(1, 1, []float64{-700}), nil)
	if r := math.Abs(one.At(0, 0)/math.Exp(-700) - 1); r > 4*u {
		t.Errorf("exp(-700) relative error %g", r)
	}
	b := mat.NewDense(2, 2, []float64{1, 2, 0, 3})
	dst2 := mat.NewDense(2, 2, []float64{9, 9, 9, 9})
	if err := Exp(dst2, b.T(), nil); err != nil {
		t.Fatal(err)
	}
	// exp([[1,0],[2,3]]) = [[e, 0], [e³ − e, e³]] (divided difference 2·(e³−e)/2).
	want := mat.NewDense(2, 2, []float64{math.E, 0, math.Exp(3) - math.E, math.Exp(3)})
	if r := relErr(dst2, want); r > 8*u {
		t.Errorf("exp(Bᵀ) relative error %g", r)
	}
}

func eye(n int) *mat.Dense {
	m := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		m.Set(i, i, 1)
	}
	return m
}

func ftoa(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// Large generators whose deflated form is triangular: the exact
// superdiagonal used to be formed as e^{(λ1+λ2)/2}·sinh(δ)/δ, which is
// 0·∞ = NaN once |δ| > 710. exp(t·[[−1, 1], [1, −1]]) = ½[[1+e, 1−e],
// [1−e, 1+e]] with e = e^{−2t} (closed form of the two-state chain), and
// the birth–death generator on {0, 1, 2} with unit rates tends to the
// binomial rows (1/4, 1/2, 1/4) as t grows; the triangular matrix
// [[0, b], [0, −c]] has exponential [[1, b(1−e^{−c})/c], [0, e^{−c}]].
func TestLargeNormNoNaN(t *testing.T) {
	for _, tt := range []float64{5, 500, 5000, 1e6} {
		a := mat.NewDense(2, 2, []float64{-tt, tt, tt, -tt})
		var e mat.Dense
		if err := Exp(&e, a, nil); err != nil {
			t.Fatalf("t=%v: %v", tt, err)
		}
		x := math.Exp(-2 * tt)
		want := mat.NewDense(2, 2, []float64{(1 + x) / 2, (1 - x) / 2, (1 - x) / 2, (1 + x) / 2})
		if !mat.EqualApprox(&e, want, 1e-14) {
			t.Errorf("two-state t=%v: got %v", tt, mat.Formatted(&e))
		}
		g := mat.NewDense(3, 3, []float64{-2 * tt, 2 * tt, 0, tt, -2 * tt, tt, 0, 2 * tt, -2 * tt})
		e.Reset()
		if err := Exp(&e, g, nil); err != nil {
			t.Fatalf("birth–death t=%v: %v", tt, err)
		}
		if tt >= 500 {
			for i := range 3 {
				if r := mat.Row(nil, i, &e); math.Abs(r[0]-0.25) > 1e-13 || math.Abs(r[1]-0.5) > 1e-13 || math.Abs(r[2]-0.25) > 1e-13 {
					t.Errorf("birth–death t=%v: row %d = %v, want (1/4, 1/2, 1/4)", tt, i, r)
				}
			}
		}
		b, c := tt, 2*tt
		tri := mat.NewDense(2, 2, []float64{0, b, 0, -c})
		e.Reset()
		if err := Exp(&e, tri, nil); err != nil {
			t.Fatalf("triangular t=%v: %v", tt, err)
		}
		wantTri := mat.NewDense(2, 2, []float64{1, -b * math.Expm1(-c) / c, 0, math.Exp(-c)})
		if !mat.EqualApprox(&e, wantTri, 1e-14) {
			t.Errorf("triangular t=%v: got %v, want %v", tt, mat.Formatted(&e), mat.Formatted(wantTri))
		}
	}
}
