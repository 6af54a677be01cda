package sim

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/ckpt-markov/markov/law"
)

// TestRenewalAvailability runs the renewal source with Weibull up times
// and log-normal repairs and compares each processor's long-run fraction
// of time up with the renewal-reward limit E[U] / (E[U] + E[R]) (Ross,
// Stochastic Processes, 2nd ed., theorem 3.4.4), within four standard
// errors of the mean over the independent processors. It also checks the
// up times drawn against the Weibull law with a Kolmogorov–Smirnov bound.
func TestRenewalAvailability(t *testing.T) {
	const n, horizon = 64, 2e7
	for _, c := range []struct {
		name       string
		up, repair law.Law
		upMean     float64
		repMean    float64
	}{
		{"weibull 0.6 / lognormal", distuv.Weibull{K: 0.6, Lambda: 5000}, distuv.LogNormal{Mu: math.Log(800), Sigma: 1},
			5000 * math.Gamma(1+1/0.6), 800 * math.Exp(0.5)},
		{"weibull 2 / exponential", distuv.Weibull{K: 2, Lambda: 5000}, distuv.Exponential{Rate: 1.0 / 1000},
			5000 * math.Gamma(1.5), 1000},
	} {
		src, err := NewRenewal(n, c.up, c.repair, rand.New(rand.NewPCG(7, 8)))
		if err != nil {
			t.Fatal(err)
		}
		up := make([]bool, n)
		src.Init(up)
		upTime := make([]float64, n)
		since := make([]float64, n)
		var ups []float64
		for {
			ev := src.Next()
			if ev.Time >= horizon {
				break
			}
			if up[ev.Proc] == ev.Up {
				t.Fatalf("%s: processor %d is already in state %v at %v", c.name, ev.Proc, ev.Up, ev.Time)
			}
			if !ev.Up {
				upTime[ev.Proc] += ev.Time - since[ev.Proc]
				ups = append(ups, ev.Time-since[ev.Proc])
			}
			since[ev.Proc], up[ev.Proc] = ev.Time, ev.Up
		}
		for p := range n {
			if up[p] {
				upTime[p] += horizon - since[p]
			}
		}
		sum, sumSq := 0.0, 0.0
		for _, u := range upTime {
			a := u / horizon
			sum += a
			sumSq += a * a
		}
		mean := sum / n
		se := math.Sqrt((sumSq/n - mean*mean) / (n - 1))
		want := c.upMean / (c.upMean + c.repMean)
		if math.Abs(mean-want) > 4*se {
			t.Errorf("%s: availability %v ± %v, want %v", c.name, mean, se, want)
		}
		if c.name[:7] == "weibull" {
			// Up times ended by a failure before the horizon are biased
			// towards short ones only through the last period of each
			// processor, a negligible share of len(ups).
			d := ksDistance(ups, c.up.(distuv.Weibull).CDF)
			if bound := 1.95 / math.Sqrt(float64(len(ups))); d > bound { // 0.1 % critical value of KS
				t.Errorf("%s: KS distance %v of %d up times above %v", c.name, d, len(ups), bound)
			}
		}
	}
}

func ksDistance(x []float64, cdf func(float64) float64) float64 {
	s := append([]float64(nil), x...)
	slices.Sort(s)
	d := 0.0
	for i, v := range s {
		f := cdf(v)
		d = math.Max(d, math.Max(f-float64(i)/float64(len(s)), float64(i+1)/float64(len(s))-f))
	}
	return d
}

func TestRenewalErrors(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	exp := distuv.Exponential{Rate: 1}
	for _, c := range []struct {
		name       string
		n          int
		up, repair law.Law
		rng        *rand.Rand
	}{
		{"no processors", 0, exp, exp, rng},
		{"nil up", 2, nil, exp, rng},
		{"negative repair", 2, exp, distuv.Normal{Mu: -5, Sigma: 1}, rng},
		{"nan up", 2, distuv.Exponential{Rate: math.NaN()}, exp, rng},
		{"nil rng", 2, exp, exp, nil},
	} {
		if _, err := NewRenewal(c.n, c.up, c.repair, c.rng); err == nil {
			t.Errorf("%s: no error", c.name)
		}
	}
}
