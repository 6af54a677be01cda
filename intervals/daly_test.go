package intervals

import (
	"math"
	"math/rand/v2"
	"testing"
)

// publishedTol is the tolerance for two-decimal published values: Fialho's
// tables are sometimes truncated (114.8958 printed 114.89) and sometimes
// rounded (18.9792 printed 18.98, 22.3867 printed 22.39), so |ours −
// published| ≤ 0.01 covers both; the 1e−9 absorbs float noise.
const publishedTol = 0.01 + 1e-9

// fialhoSerialRows are Fialho (2011) Table 4.4: MTTI in hours, t_c = t_l =
// 5 min, t_d = 0, intervals in minutes. Young and Gropp coincide.
var fialhoSerialRows = []struct {
	mttiHours              float64
	young, dalyLow, fialho float64
}{
	{24, 120.00, 115.00, 114.89},
	{6, 60.00, 55.00, 54.79},
	{1, 24.49, 19.49, 18.98},
}

// fialhoSynthRows are the Young/Gropp and Daly columns of Fialho (2011)
// Table 4.10 (α = 100 s) and Table 4.8 (LU class B), in seconds; "Daly"
// there is the low-order formula with δ = t_c.
var fialhoSynthRows = []struct {
	tc, young, daly float64
}{
	{1.630, 18.05, 16.42},
	{1.622, 18.01, 16.39},
	{1.691, 18.39, 16.70},
	{1.650, 18.17, 16.52},
	{4.954, 31.48, 26.52},
	{5.032, 31.72, 26.69},
	{4.981, 31.56, 26.58},
	{5.284, 32.51, 27.22},
	{0.605, 11.000, 10.395}, // Table 4.8
}

func TestYoungAndDalyLowOrderPublished(t *testing.T) {
	for _, row := range fialhoSerialRows {
		m := row.mttiHours * 60
		y, err := YoungInterval(m, 5)
		if err != nil || math.Abs(y-row.young) > publishedTol {
			t.Errorf("Young, MTTI %gh: %v (%v), Table 4.4 %v", row.mttiHours, y, err, row.young)
		}
		d, err := DalyLowOrder(m, 5)
		if err != nil || math.Abs(d-row.dalyLow) > publishedTol {
			t.Errorf("Daly low order, MTTI %gh: %v (%v), Table 4.4 %v", row.mttiHours, d, err, row.dalyLow)
		}
	}
	for _, row := range fialhoSynthRows {
		y, _ := YoungInterval(100, row.tc)
		d, _ := DalyLowOrder(100, row.tc)
		if math.Abs(y-row.young) > publishedTol || math.Abs(d-row.daly) > publishedTol {
			t.Errorf("t_c=%v: Young %v, Daly %v; Tables 4.8/4.10 %v, %v", row.tc, y, d, row.young, row.daly)
		}
	}
}

// TestDalyHigherOrderPublished: M = 24 h, δ = 5 min gives about 117 min
// (docs/related-models.md; Daly 2006). The value is quoted to the minute.
func TestDalyHigherOrderPublished(t *testing.T) {
	tau, err := DalyHigherOrder(24*60, 5)
	if err != nil || math.Abs(tau-117) > 0.5 {
		t.Errorf("DalyHigherOrder(24h, 5min) = %v min (%v), want about 117", tau, err)
	}
	// Branch δ ≥ 2M: τ = M.
	for _, delta := range []float64{200, 250, 1e6} {
		if tau, err := DalyHigherOrder(100, delta); err != nil || tau != 100 {
			t.Errorf("DalyHigherOrder(100, %v) = %v (%v), want M = 100", delta, tau, err)
		}
	}
	// Just below the branch the series applies: 2M·(1 + 1/3 + 1/9)·… − δ.
	if tau, _ := DalyHigherOrder(100, 199.999); math.Abs(tau-(math.Sqrt(2*199.999*100)*(1+math.Sqrt(199.999/200)/3+199.999/200/9)-199.999)) > 1e-9 {
		t.Errorf("DalyHigherOrder just below δ = 2M took the wrong branch: %v", tau)
	}
}

// TestDalyOptimumIsMinimiser: the Lambert-W closed form equals a
// brute-force minimisation of Daly's wall time (the same cost), for
// several M, δ, R; and the published approximations approach it at their
// orders in x = δ/M, derived from the branch-point series of W0 (Corless et
// al. 1996, eq. 4.22) with p = sqrt(2(1 − e^{−x})):
//
//	τ*/M = 1 + W0(−e^{−1−x}) = sqrt(2x) − 2x/3 + sqrt(2x)·x/18 + (2/135)·x² + …
func TestDalyOptimumIsMinimiser(t *testing.T) {
	for _, tc := range []struct{ m, delta, r float64 }{
		{86400, 300, 0},
		{86400, 300, 600},
		{3600, 60, 30},
		{1000, 100, 0},
		{100, 150, 10}, // δ > M: far outside the approximations' range
		{1e7, 10, 100},
	} {
		opt, err := DalyOptimum(tc.m, tc.delta)
		if err != nil {
			t.Fatal(err)
		}
		const ts = 1e6
		cost := func(tau float64) float64 {
			v, _ := DalyWallTime(tc.m, tc.delta, tc.r, tau, ts)
			return v
		}
		brute := bruteMin(cost, opt/100, opt*100)
		if relDiff(opt, brute) > 1e-6 {
			t.Errorf("M=%v δ=%v R=%v: DalyOptimum %v, brute force %v", tc.m, tc.delta, tc.r, opt, brute)
		}
	}
	// Leading error coefficients: Young (2x/3)/sqrt(2x) = (√2/3)·sqrt(x);
	// low order (x/3)/sqrt(2x) = (√2/6)·sqrt(x); higher order: the x² term
	// of τ*/M is 1/3 − 4·43/540 = 2/135, so (2/135)/sqrt(2x)·x² =
	// (√2/135)·x^{3/2}. The measured error divided by the predicted one
	// must tend to 1, with corrections of relative order sqrt(x).
	for _, x := range []float64{1e-6, 1e-4, 1e-3, 0.01, 0.05, 0.1} {
		const m = 1000.0
		opt, _ := DalyOptimum(m, x*m)
		y, _ := YoungInterval(m, x*m)
		lo, _ := DalyLowOrder(m, x*m)
		hi, _ := DalyHigherOrder(m, x*m)
		for _, c := range []struct {
			name      string
			tau, pred float64
		}{
			{"Young", y, math.Sqrt2 / 3 * math.Sqrt(x)},
			{"Daly low order", lo, math.Sqrt2 / 6 * math.Sqrt(x)},
			{"Daly higher order", hi, math.Sqrt2 / 135 * math.Pow(x, 1.5)},
		} {
			if r := relDiff(c.tau, opt) / c.pred; math.Abs(r-1) > 2*math.Sqrt(x)+1e-3 {
				t.Errorf("x=%g: %s error / predicted = %.5f, want 1 ± %.3g", x, c.name, r, 2*math.Sqrt(x)+1e-3)
			}
		}
	}
}

// TestDalyWallTimeMonteCarlo simulates Daly's process segment by segment:
// compute τ and checkpoint δ; a failure (exponential, mean M) loses the
// attempt and is followed by a restart of R, itself repeated until it
// survives. The mean over seeded runs must match DalyWallTime within 4
// standard errors.
func TestDalyWallTimeMonteCarlo(t *testing.T) {
	const (
		m, delta, r, tau = 1000.0, 50.0, 80.0, 400.0
		segs             = 5
		runs             = 40000
	)
	rng := rand.New(rand.NewPCG(7, 11))
	var sum, sum2 float64
	for range runs {
		var total float64
		for range segs {
			for {
				if x := rng.ExpFloat64() * m; x < tau+delta {
					total += x
					for { // restart until it survives
						if y := rng.ExpFloat64() * m; y < r {
							total += y
						} else {
							total += r
							break
						}
					}
					continue
				}
				total += tau + delta
				break
			}
		}
		sum += total
		sum2 += total * total
	}
	mean := sum / runs
	se := math.Sqrt((sum2/runs - mean*mean) / runs)
	want, err := DalyWallTime(m, delta, r, tau, segs*tau)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(mean-want) > 4*se {
		t.Errorf("simulated %v ± %v, DalyWallTime %v", mean, se, want)
	}
}

// TestVaidyaIntervalIsMinimiser: T* minimises Γ(T)/T for any latency and
// recovery (both only scale Γ), against brute force; and Γ with L = C
// equals Daly's wall time for one interval (same process, Daly 2006 and
// Vaidya 1997 both charge the restart once per failure).
func TestVaidyaIntervalIsMinimiser(t *testing.T) {
	for _, tc := range []struct{ lambda, c, l, r float64 }{
		{1.0 / 3600, 60, 60, 0},
		{1.0 / 3600, 60, 300, 100},
		{1e-5, 20, 20, 600},
		{0.01, 5, 8, 1},
		{0.1, 50, 60, 0}, // λC = 5
	} {
		opt, err := VaidyaInterval(tc.lambda, tc.c)
		if err != nil {
			t.Fatal(err)
		}
		ratio := func(T float64) float64 {
			g, _ := VaidyaExpectedTime(tc.lambda, T, tc.l, tc.c, tc.r)
			return g / T
		}
		if b := bruteMin(ratio, opt/100, opt*100); relDiff(opt, b) > 1e-6 {
			t.Errorf("%+v: VaidyaInterval %v, brute force %v", tc, opt, b)
		}
		d, _ := DalyOptimum(1/tc.lambda, tc.c)
		if relDiff(opt, d) > 1e-14 {
			t.Errorf("%+v: VaidyaInterval %v ≠ DalyOptimum %v", tc, opt, d)
		}
		g, _ := VaidyaExpectedTime(tc.lambda, 1000, tc.c, tc.c, tc.r)
		w, _ := DalyWallTime(1/tc.lambda, tc.c, tc.r, 1000, 1000)
		if relDiff(g, w) > 1e-13 {
			t.Errorf("%+v: Vaidya Γ(1000) with L = C is %v, Daly's wall time %v", tc, g, w)
		}
	}
}

func TestDalyVaidyaErrors(t *testing.T) {
	_, err := DalyLowOrder(100, 200)
	wantErr(t, "DalyLowOrder δ = 2M", err, "delta", "2M")
	_, err = DalyLowOrder(100, 500)
	wantErr(t, "DalyLowOrder δ > 2M", err, "delta")
	for _, bad := range []float64{0, -1, math.NaN(), math.Inf(1)} {
		_, err = YoungInterval(bad, 5)
		wantErr(t, "YoungInterval bad M", err, "M")
		_, err = YoungInterval(100, bad)
		wantErr(t, "YoungInterval bad delta", err, "delta")
		_, err = DalyHigherOrder(bad, 5)
		wantErr(t, "DalyHigherOrder bad M", err, "M")
		_, err = DalyOptimum(100, bad)
		wantErr(t, "DalyOptimum bad delta", err, "delta")
		_, err = VaidyaInterval(bad, 5)
		wantErr(t, "VaidyaInterval bad lambda", err, "lambda")
		_, err = DalyWallTime(100, 5, 0, bad, 10)
		wantErr(t, "DalyWallTime bad tau", err, "tau")
	}
	_, err = VaidyaExpectedTime(0.01, 10, 1, 2, 0)
	wantErr(t, "Vaidya L < C", err, "L", "C")
	_, err = VaidyaExpectedTime(0.01, 10, 2, 1, -1)
	wantErr(t, "Vaidya R < 0", err, "R")
}

// TestFirstOrderFormulasAreMinimisers: the first-order formulas are the
// exact minimisers of the first-order costs they come from: Young's waste
// per unit of work δ/τ + τ/(2M) (Young 1974), and the expansion
// n·(λT_c)^r + T_s/T_c of Volpex's waste (for r = 1 the paper's
// sqrt(T_s/(nλ)), section IV.A).
func TestFirstOrderFormulasAreMinimisers(t *testing.T) {
	for _, tc := range []struct{ m, delta float64 }{{86400, 300}, {3600, 60}, {100, 1}} {
		y, _ := YoungInterval(tc.m, tc.delta)
		b := bruteMin(func(tau float64) float64 { return tc.delta/tau + tau/(2*tc.m) }, y/100, y*100)
		if relDiff(y, b) > 1e-6 {
			t.Errorf("%+v: Young %v, brute force %v", tc, y, b)
		}
	}
	for _, v := range []Volpex{
		{Processes: 16, Replicas: 1, Rate: 1.0 / 28730, Save: 1},
		{Processes: 16, Replicas: 2, Rate: 1.0 / 28730, Save: 187},
		{Processes: 3, Replicas: 4, Rate: 1e-3, Save: 10},
	} {
		fo, _ := v.FirstOrder()
		n, r := float64(v.Processes), float64(v.Replicas)
		b := bruteMin(func(tc float64) float64 { return n*math.Pow(v.Rate*tc, r) + v.Save/tc }, fo/100, fo*100)
		if relDiff(fo, b) > 1e-6 {
			t.Errorf("%+v: FirstOrder %v, brute force %v", v, fo, b)
		}
	}
}
