package law

import (
	"math"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
)

// The laws of gonum's stat/distuv are Laws as they are.
var (
	_ Law = distuv.Exponential{}
	_ Law = distuv.Weibull{}
	_ Law = distuv.LogNormal{}
	_ Law = distuv.Gamma{}
)

// TestDrawKS checks Draw against each law's own CDF by the
// Kolmogorov–Smirnov statistic of 20000 seeded draws: under the law,
// √n·D exceeds 1.95 with probability 0.001 (Kolmogorov's limit law), so
// a correct Draw fails once in a thousand seeds; a draw of the wrong law
// (the power check: the exponential law of the same mean as the Weibull)
// exceeds it.
func TestDrawKS(t *testing.T) {
	const n = 20000
	ks := func(l Law, cdf func(float64) float64, seed uint64) float64 {
		rng := rand.New(rand.NewPCG(seed, 3))
		x := make([]float64, n)
		for i := range x {
			x[i] = Draw(l, rng)
		}
		sort.Float64s(x)
		d := 0.0
		for i, v := range x {
			f := cdf(v)
			d = math.Max(d, math.Max(float64(i+1)/n-f, f-float64(i)/n))
		}
		return math.Sqrt(n) * d
	}
	w := distuv.Weibull{K: 0.7, Lambda: 3600}
	for _, tc := range []struct {
		name string
		l    Law
		cdf  func(float64) float64
	}{
		{"exponential", distuv.Exponential{Rate: 1e-4}, distuv.Exponential{Rate: 1e-4}.CDF},
		{"weibull", w, w.CDF},
		{"lognormal", distuv.LogNormal{Mu: 8, Sigma: 1.5}, distuv.LogNormal{Mu: 8, Sigma: 1.5}.CDF},
	} {
		if s := ks(tc.l, tc.cdf, 11); s > 1.95 {
			t.Errorf("%s: √n·D = %v > 1.95", tc.name, s)
		}
	}
	e := distuv.Exponential{Rate: 1 / w.Mean()}
	if s := ks(e, w.CDF, 11); s <= 1.95 {
		t.Errorf("power: exponential draws against the Weibull CDF: √n·D = %v, want > 1.95", s)
	}
}

// badLaw has a fixed quantile and survival.
type badLaw struct{ q, s float64 }

func (b badLaw) Quantile(float64) float64 { return b.q }
func (b badLaw) Survival(float64) float64 { return b.s }

func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		name string
		l    Law
		want string // "" for a valid law
	}{
		{"weibull", distuv.Weibull{K: 0.7, Lambda: 3600}, ""},
		{"nil", nil, "is nil"},
		{"zero median", badLaw{0, 0.5}, "quantile 0 at 0.5"},
		{"negative", badLaw{-1, 0.5}, "quantile -1"},
		{"infinite", badLaw{math.Inf(1), 0.5}, "quantile +Inf"},
		{"NaN", badLaw{math.NaN(), 0.5}, "quantile NaN"},
		{"survival above 1", badLaw{1, 1.5}, "survival 1.5"},
		{"rate zero", distuv.Exponential{Rate: 0}, "quantile +Inf"},
	} {
		err := Check(tc.l)
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
}
