package evaluate

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	gstat "gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/ckpt-markov/markov/scenario"
	"github.com/ckpt-markov/markov/sim"
	"github.com/ckpt-markov/markov/trace"
)

// heterogeneousTrace returns n nodes over [0, horizon) whose failure rates
// differ: node i fails at the rate λ_i drawn from a gamma distribution of
// mean 1/mttf and coefficient of variation cv (shape 1/cv²), and is
// repaired after exponential times of mean mttr. Up times are exponential
// of mean 1/λ_i. It returns the trace and the λ_i.
func heterogeneousTrace(t testing.TB, n int, mttf, cv, mttr, horizon float64, rng *rand.Rand) (*trace.Trace, []float64) {
	t.Helper()
	shape := 1 / (cv * cv)
	g := distuv.Gamma{Alpha: shape, Beta: shape * mttf, Src: rng}
	rates := make([]float64, n)
	nodes := make([]trace.Node, n)
	for i := range nodes {
		rates[i] = g.Rand()
		nd := trace.Node{Start: 0, End: horizon}
		for at := rng.ExpFloat64() / rates[i]; at < horizon; {
			end := at + rng.ExpFloat64()*mttr
			nd.Down = append(nd.Down, trace.Interval{Start: at, End: end})
			at = end + rng.ExpFloat64()/rates[i]
		}
		nodes[i] = nd
	}
	return newTrace(t, nodes), rates
}

// TestUsedRatesHeterogeneous is issue 16's acceptance test. On a synthetic
// trace of 128 nodes whose failure rates have a coefficient of variation
// of 1 or 2 (mean MTTF 5 days, MTTR 1 hour, 400 days), with moldable(64)
// and performance-based policies (PB runs cg on 48 nodes, qr on all 128),
// the default MostReliable rule with the rates of the used nodes must
//
//   - be within 1 point of the Random rule's efficiency (the Random rule
//     uses nodes uniformly, so the pooled rate is its right rate), and
//   - be at or above Young's interval on the same rates: the mean paired
//     difference model − Young over the segments may be negative only by
//     less than 0.1 point or 2.58 standard errors (one-sided 0.5 %).
//     The 0.1 point allows for an effect seen under the Random rule too:
//     the best interval is 3–17 % longer than I* on these traces, and
//     Young's 1–8 % longer, which gains it a few hundredths of a point.
//     (A likely cause: a rule keeps its nodes until one fails, so sets
//     of low rate are kept longer and the application sees a lower
//     interruption rate than the mean rate of the sets it picks.)
//
// The power check: with the pooled rates (Rates = AllNodes, the paper's
// estimate) the same rule must fail one of these on the moldable rows,
// as issue 16 reports (2 to 4 points below Random on qr here).
func TestUsedRatesHeterogeneous(t *testing.T) {
	if testing.Short() {
		t.Skip("replays 3 × 4 rows × 20 segments of 128 nodes")
	}
	ctx := context.Background()
	for _, cv := range []float64{1, 2} {
		tr, _ := heterogeneousTrace(t, 128, 5*day, cv, 3600, 400*day, rand.New(rand.NewPCG(16, uint64(cv))))
		run := func(rule sim.Rule, rates Rates) *Table {
			tab, err := Run(ctx, &Settings{
				Systems:      []System{{Name: "het", Trace: tr}},
				Applications: []string{"qr", "cg"},
				Policies:     policies(t, "moldable:64", "pb"),
				Segments:     20,
				Seed:         1,
				Rule:         rule,
				Rates:        rates,
			})
			if err != nil {
				t.Fatal(err)
			}
			return tab
		}
		used, random, pooled := run(sim.MostReliable{}, UsedNodes), run(sim.Random{}, UsedNodes), run(sim.MostReliable{}, AllNodes)
		fails := func(r, rnd *Row) (gap, z float64, bad bool) {
			gap = rnd.Efficiency.Mean - r.Efficiency.Mean
			z = youngZ(r)
			below := r.YoungEfficiency.Mean - r.Efficiency.Mean
			return gap, z, gap > 0.01 || (below > 0.001 && z < -2.58)
		}
		powered := false
		for i := range used.Rows {
			u, rnd, p := &used.Rows[i], &random.Rows[i], &pooled.Rows[i]
			wantRates := UsedNodes
			if u.Used.Mean == 128 {
				wantRates = AllNodes // PB runs qr on every node: no choice
			}
			if u.Rates != wantRates || rnd.Rates != AllNodes || p.Rates != AllNodes {
				t.Errorf("cv %v %s %s: rates %v, %v, %v; want %v, all, all", cv, u.Application, u.Policy, u.Rates, rnd.Rates, p.Rates, wantRates)
			}
			gap, z, bad := fails(u, rnd)
			t.Logf("cv %v %s %-11s used rates: %.2f %% (Young %.2f %%, z %+.1f), random %.2f %%; pooled rates: %.2f %% (Young %.2f %%)",
				cv, u.Application, u.Policy, 100*u.Efficiency.Mean, 100*u.YoungEfficiency.Mean, z, 100*rnd.Efficiency.Mean,
				100*p.Efficiency.Mean, 100*p.YoungEfficiency.Mean)
			if bad {
				t.Errorf("cv %v %s %s: %.2f points below the random rule, model − Young at %.1f standard errors", cv, u.Application, u.Policy, 100*gap, z)
			}
			if _, _, bad := fails(p, rnd); bad && u.Policy.Kind == scenario.Moldable {
				powered = true
			}
		}
		if !powered {
			t.Errorf("cv %v: the pooled rates pass too: the test has no power", cv)
		}
	}
}

// youngZ is the mean paired difference of the model's and Young's
// efficiencies over the segments of r, in standard errors.
func youngZ(r *Row) float64 {
	var d []float64
	for _, res := range r.Results {
		if res.Young != nil {
			d = append(d, res.Model.Efficiency-res.Young.Efficiency)
		}
	}
	mean, sd := gstat.MeanStdDev(d, nil)
	if sd == 0 {
		return 0
	}
	return mean / (sd / math.Sqrt(float64(len(d))))
}
