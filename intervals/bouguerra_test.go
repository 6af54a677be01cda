package intervals

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/ckpt-markov/markov/law"
)

// TestSegmentTimeClosedFormsVsQuadrature: the closed forms of g(η) for the
// exponential law (Proposition 1) and the Weibull law (Proposition 2
// through the regularised incomplete gamma function) against adaptive
// quadrature of the bare survival function.
func TestSegmentTimeClosedFormsVsQuadrature(t *testing.T) {
	laws := []closedLaw{Exponential{Rate: 1e-3}, Exponential{Rate: 2}}
	// β = 0.509 and λ = 1/20.584 are the Weibull parameters of Bouguerra
	// et al., section 5.3 (from Liu et al. 2008).
	for _, beta := range []float64{0.3, 0.509, 0.7, 1, 1.5, 2, 3} {
		laws = append(laws, Weibull{Rate: 1 / 20.584, Shape: beta})
	}
	for _, law := range laws {
		num := SurvivalLaw{S: law.Survival}
		for _, eta := range []float64{1e-3, 0.1, 1, 5, 20, 60} {
			got, want := num.SegmentTime(eta), law.SegmentTime(eta)
			if relDiff(got, want) > 1e-10 {
				t.Errorf("%+v η=%v: quadrature %.15g, closed form %.15g", law, eta, got, want)
			}
		}
	}
}

// TestWeibullShapeOneIsExponential: with β = 1 the Weibull law is the
// exponential law; the incomplete-gamma form must reproduce (e^{λη}−1)/λ
// and the resulting plans must coincide, to 1e−10.
func TestWeibullShapeOneIsExponential(t *testing.T) {
	for _, lambda := range []float64{1e-5, 1.0 / 3600, 0.1, 3} {
		w, e := Weibull{Rate: lambda, Shape: 1}, Exponential{Rate: lambda}
		for _, eta := range []float64{1e-6, 1e-2, 1, 100, 1e4} {
			if eta*lambda > 600 {
				continue
			}
			if a, b := w.SegmentTime(eta), e.SegmentTime(eta); relDiff(a, b) > 1e-10 {
				t.Errorf("λ=%g η=%g: Weibull(β=1) %.17g, exponential %.17g", lambda, eta, a, b)
			}
		}
		work := 50 / lambda
		c, r := 0.01/lambda, 0.005/lambda
		sw, err1 := BouguerraSegments(w, work, c, r, nil)
		se, err2 := BouguerraExponential(lambda, work, c, r)
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		if sw.Count != se.Count || relDiff(sw.Expected, se.Expected) > 1e-10 {
			t.Errorf("λ=%g: Weibull(β=1) k=%d E=%v, exponential k=%d E=%v", lambda, sw.Count, sw.Expected, se.Count, se.Expected)
		}
		iw, _ := BouguerraInterval(w, c, r)
		if relDiff(iw, se.IStar) > 1e-6 {
			t.Errorf("λ=%g: numerical I* for Weibull(β=1) %v, closed form %v", lambda, iw, se.IStar)
		}
	}
}

// TestSegmentTimeMonteCarlo simulates Theorem 1 directly: draw inter-failure
// times X (by inversion of S) until one exceeds η, summing the lost X's and
// finally η. The mean over seeded runs must match g(η) within 4 standard
// errors.
func TestSegmentTimeMonteCarlo(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 23))
	for _, tc := range []struct {
		law closedLaw
		inv func(e float64) float64 // X from E ~ Exp(1): S(X) = e^{−E}
		eta float64
	}{
		{Exponential{Rate: 0.5}, func(e float64) float64 { return e / 0.5 }, 2},
		{Weibull{Rate: 0.5, Shape: 0.6}, func(e float64) float64 { return math.Pow(e, 1/0.6) / 0.5 }, 2},
		{Weibull{Rate: 0.5, Shape: 2.5}, func(e float64) float64 { return math.Pow(e, 1/2.5) / 0.5 }, 2},
	} {
		const runs = 200000
		var sum, sum2 float64
		for range runs {
			var total float64
			for {
				x := tc.inv(rng.ExpFloat64())
				if x >= tc.eta {
					total += tc.eta
					break
				}
				total += x
			}
			sum += total
			sum2 += total * total
		}
		mean := sum / runs
		se := math.Sqrt((sum2/runs - mean*mean) / runs)
		if want := tc.law.SegmentTime(tc.eta); math.Abs(mean-want) > 4*se {
			t.Errorf("%+v: simulated %v ± %v, g(η) = %v", tc.law, mean, se, want)
		}
	}
}

// expectedExp is E(k) = (k/λ)(e^{λ(W/k + C + R)} − 1), Bouguerra et al.
// eq. 4, written out independently of the package.
func expectedExp(lambda, w, c, r float64, k int) float64 {
	return float64(k) / lambda * (math.Exp(lambda*(w/float64(k)+c+r)) - 1)
}

// TestBouguerraExponentialBruteForce: the closed forms I*, k* and the
// floor/ceiling choice against (a) an exhaustive scan of eq. 4 over
// k = 1 … 4⌈k*⌉+10 and (b) a brute-force minimisation of the cost per unit
// of work g(I + C + R)/I.
func TestBouguerraExponentialBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 31))
	for range 300 {
		lambda := math.Pow(10, -6+3*rng.Float64())
		w := math.Pow(10, 0.5+3*rng.Float64()) / lambda * 0.01
		c := math.Pow(10, -4+3*rng.Float64()) / lambda
		r := c * rng.Float64()
		s, err := BouguerraExponential(lambda, w, c, r)
		if err != nil {
			t.Fatal(err)
		}
		bestK, bestE := 0, math.Inf(1)
		for k := 1; k <= 4*int(math.Ceil(s.KStar))+10; k++ {
			if e := expectedExp(lambda, w, c, r, k); e < bestE {
				bestK, bestE = k, e
			}
		}
		if s.Count != bestK && relDiff(s.Expected, bestE) > 1e-12 {
			t.Errorf("λ=%g W=%g C=%g R=%g: k=%d (k*=%g) E=%v, scan k=%d E=%v", lambda, w, c, r, s.Count, s.KStar, s.Expected, bestK, bestE)
		}
		if relDiff(s.Expected, expectedExp(lambda, w, c, r, s.Count)) > 1e-12 {
			t.Errorf("Expected %v ≠ eq. 4 at k=%d", s.Expected, s.Count)
		}
		law := Exponential{Rate: lambda}
		brute := bruteMin(func(i float64) float64 { return law.SegmentTime(i+c+r) / i }, s.IStar/100, s.IStar*100)
		if relDiff(brute, s.IStar) > 1e-6 {
			t.Errorf("λ=%g C=%g R=%g: I* %v, brute force %v", lambda, c, r, s.IStar, brute)
		}
		if relDiff(s.KStar, w/s.IStar) > 1e-14 {
			t.Errorf("k* = %v ≠ W/I* = %v", s.KStar, w/s.IStar)
		}
		// The generic exhaustive search agrees with the closed form.
		g, err := BouguerraSegments(law, w, c, r, nil)
		if err != nil {
			t.Fatal(err)
		}
		if g.Count != s.Count && relDiff(g.Expected, s.Expected) > 1e-12 {
			t.Errorf("BouguerraSegments k=%d, closed form k=%d", g.Count, s.Count)
		}
	}
}

// TestBouguerraSegmentsWeibull: for Weibull laws (including β < 1, where
// g need not be convex) the bounded scan equals an unbounded-by-argument
// exhaustive scan of E(k) = k·g(W/k + C + R), and BouguerraInterval agrees
// with brute force. Parameters of section 5.3 (β = 0.509, λ = 1/20.584 per
// hour, C = 10 or 15 min, W from 100 to 2500 h).
func TestBouguerraSegmentsWeibull(t *testing.T) {
	law := Weibull{Rate: 1 / 20.584, Shape: 0.509}
	for _, c := range []float64{10.0 / 60, 15.0 / 60} {
		for _, w := range []float64{100, 500, 2500} {
			s, err := BouguerraSegments(law, w, c, 0, nil)
			if err != nil {
				t.Fatal(err)
			}
			bestK, bestE := 0, math.Inf(1)
			for k := 1; k <= 20000; k++ {
				if e := float64(k) * law.SegmentTime(w/float64(k)+c); e < bestE {
					bestK, bestE = k, e
				}
			}
			if s.Count != bestK || s.Expected != bestE {
				t.Errorf("C=%v W=%v: k=%d E=%v, full scan k=%d E=%v", c, w, s.Count, s.Expected, bestK, bestE)
			}
		}
		i, err := BouguerraInterval(law, c, 0)
		if err != nil {
			t.Fatal(err)
		}
		brute := bruteMin(func(x float64) float64 { return law.SegmentTime(x+c) / x }, i/100, i*100)
		if relDiff(i, brute) > 1e-6 {
			t.Errorf("C=%v: BouguerraInterval %v, brute force %v", c, i, brute)
		}
	}
}

// TestExpectedCompletion: equal segments with constant costs give k·g(I+C+R)
// (eq. 3); the restart is charged from the first segment on; variable costs
// are evaluated at S_j and S_{j−1}.
func TestExpectedCompletion(t *testing.T) {
	law := Exponential{Rate: 1e-3}
	got, err := ExpectedCompletion(law, []float64{100, 100, 100}, ConstantCost(10), ConstantCost(5))
	if err != nil {
		t.Fatal(err)
	}
	if want := expectedExp(1e-3, 300, 10, 5, 3); relDiff(got, want) > 1e-14 {
		t.Errorf("constant costs: %v, eq. 3 gives %v", got, want)
	}
	// C(S) = S/10, R(S) = S/20 on segments 100, 200: η1 = 100 + 10 + 0,
	// η2 = 200 + 30 + 5.
	got, _ = ExpectedCompletion(law, []float64{100, 200},
		func(s float64) float64 { return s / 10 }, func(s float64) float64 { return s / 20 })
	want := (math.Exp(1e-3*110) - 1 + math.Exp(1e-3*235) - 1) / 1e-3
	if relDiff(got, want) > 1e-14 {
		t.Errorf("variable costs: %v, want %v", got, want)
	}
}

func TestBouguerraErrors(t *testing.T) {
	_, err := BouguerraExponential(0, 100, 1, 1)
	wantErr(t, "lambda 0", err, "lambda")
	_, err = BouguerraExponential(1, -5, 1, 1)
	wantErr(t, "W < 0", err, "W")
	_, err = BouguerraExponential(1, 100, 0, 0)
	wantErr(t, "C+R = 0", err, "C+R")
	_, err = BouguerraSegments(Weibull{Rate: 1, Shape: 0}, 100, 1, 0, nil)
	wantErr(t, "Weibull shape 0", err, "Shape")
	_, err = BouguerraSegments(Weibull{Rate: -1, Shape: 1}, 100, 1, 0, nil)
	wantErr(t, "Weibull rate < 0", err, "Rate")
	_, err = BouguerraSegments(nil, 100, 1, 0, nil)
	wantErr(t, "nil law", err, "law")
	_, err = BouguerraSegments(Exponential{Rate: 1}, 100, 1, math.NaN(), nil)
	wantErr(t, "R NaN", err, "R")
	_, err = BouguerraSegments(Exponential{Rate: 100}, 1e4, 1, 0, &SegmentSettings{MaxCount: 10})
	wantErr(t, "MaxCount", err, "MaxCount")
	_, err = ExpectedCompletion(Exponential{Rate: 1}, []float64{1, -1}, ConstantCost(1), ConstantCost(1))
	wantErr(t, "negative segment", err, "segments[1]")
	_, err = ExpectedCompletion(Exponential{Rate: 1}, []float64{1}, ConstantCost(-1), ConstantCost(1))
	wantErr(t, "negative C", err, "C(S_1)")
	_, err = BouguerraInterval(SurvivalLaw{}, 1, 1)
	wantErr(t, "SurvivalLaw without S", err, "S is nil")
	_, err = BouguerraInterval(Exponential{Rate: math.Inf(1)}, 1, 1)
	wantErr(t, "infinite rate", err, "Rate")
}

// closedLaw is a law with its expected segment time, as the tests call it.
type closedLaw interface {
	law.Law
	segmentTimer
}

// TestLawsAreLaws checks the quantile functions the laws add for law.Law
// against their survival functions (S(Q(p)) = 1 − p), and that a distuv
// law gives the closed forms' g by quadrature.
func TestLawsAreLaws(t *testing.T) {
	w := Weibull{Rate: 1.0 / 20000, Shape: 0.7}
	for _, l := range []law.Law{
		Exponential{Rate: 1e-3}, w,
		SurvivalLaw{S: w.Survival},
	} {
		for _, p := range []float64{1e-6, 0.1, 0.5, 0.9, 1 - 1e-6} {
			if s := l.Survival(l.Quantile(p)); math.Abs(s-(1-p)) > 1e-10*(1-p) {
				t.Errorf("%T: S(Q(%v)) = %v, want %v", l, p, s, 1-p)
			}
		}
	}
	d := distuv.Weibull{K: 0.7, Lambda: 20000}
	for _, eta := range []float64{100, 20000, 1e5} {
		if got, want := segmentTime(d, eta), w.SegmentTime(eta); math.Abs(got-want) > 1e-10*want {
			t.Errorf("distuv Weibull g(%v) = %v, closed form %v", eta, got, want)
		}
	}
}
