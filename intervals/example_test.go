package intervals_test

import (
	"fmt"
	"math"

	"github.com/ckpt-markov/markov/intervals"
)

// Compare the interval models for the scenario of Fialho's Table 4.4:
// MTTI 24 h, checkpoint and restart 5 min. The thesis gives Young 120.00,
// Daly 115.00 and Fialho 114.89 minutes (114.8958 truncated). Bouguerra's
// model charges C + R = 10 min to every segment; Volpex's model has no
// factor √2 (its first order is sqrt(C·M)).
func Example() {
	p := intervals.Params{MTBF: 24 * 3600, Checkpoint: 300, Restart: 300}
	choices, err := intervals.Compare(p)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, c := range choices {
		if c.Err != nil {
			fmt.Printf("%-22s n/a: %v\n", c.Name, c.Err)
			continue
		}
		fmt.Printf("%-22s %7.2f min\n", c.Name, c.Interval/60)
	}
	// Output:
	// Young                   120.00 min
	// Daly low order          115.00 min
	// Daly higher order       116.69 min
	// Vaidya                  116.69 min
	// Bouguerra               163.11 min
	// Volpex                   82.46 min
	// Fialho coordinated      114.90 min
	// Fialho uncoordinated    114.90 min
}

// Rahman et al., Table I: 16 processes on volunteer nodes with MTTF
// 28730 s and 1 s checkpoints; replication lengthens the optimal interval.
func ExampleVolpex_Interval() {
	for r := 1; r <= 3; r++ {
		v := intervals.Volpex{Processes: 16, Replicas: r, Rate: 1.0 / 28730, Save: 1}
		tc, err := v.Interval()
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("r = %d: Tc = %.0f s\n", r, tc)
	}
	// Output:
	// r = 1: Tc = 42 s
	// r = 2: Tc = 297 s
	// r = 3: Tc = 851 s
}

// Bouguerra et al., section 5.1: 7 days of work, 1/2 failure per day,
// 10-minute checkpoints. The integer optimum is the better of ⌊k*⌋ and
// ⌈k*⌉.
func ExampleBouguerraExponential() {
	const day = 86400.0
	s, err := intervals.BouguerraExponential(0.5/day, 7*day, 600, 0)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("k* = %.2f, k = %d segments of %.2f h\n", s.KStar, s.Count, s.Interval/3600)
	// Output:
	// k* = 43.19, k = 43 segments of 3.91 h
}

// Fialho's uncoordinated model on the 8×8 torus of Table 4.10 (α = 100 s,
// t_d = 0.5 s): the dependency factor comes from the communication graph.
func ExampleFialhoUncoordinated_Interval() {
	g, err := intervals.Grid2D(8, 8, true)
	if err != nil {
		fmt.Println(err)
		return
	}
	f := intervals.FialhoUncoordinated{
		MTTI: 100, Checkpoint: 4.981, Load: 5.287, Detection: 0.5,
		Phi: g.GlobalPhi(),
	}
	sigma, err := f.Interval()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("φ = %.4f, σ = %.2f s\n", f.Phi, sigma)
	// Output:
	// φ = 0.0781, σ = 106.06 s
}

// Fialho's Table 3.3: a master with 7 workers that talk only to it.
func ExampleMasterWorker() {
	g, err := intervals.MasterWorker(8)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("master φ = %g, worker φ = %g, global φ = %g\n", g.Phi(0), g.Phi(1), g.GlobalPhi())
	// Output:
	// master φ = 1, worker φ = 0.25, global φ = 0.34375
}

// A failure law known only by its survival function: the numerical
// segment time matches the Weibull closed form.
func ExampleSurvivalLaw() {
	w := intervals.Weibull{Rate: 1 / 20.584, Shape: 0.509}
	num := intervals.SurvivalLaw{S: func(x float64) float64 { return math.Exp(-math.Pow(x/20.584, 0.509)) }}
	fmt.Printf("g(10) closed form %.8f, quadrature %.8f\n", w.SegmentTime(10), num.SegmentTime(10))
	// Output:
	// g(10) closed form 12.80806013, quadrature 12.80806013
}
