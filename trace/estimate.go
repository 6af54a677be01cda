package trace

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// EstimateSettings adjusts EstimateRates. A nil *EstimateSettings means the
// defaults described on each field.
type EstimateSettings struct {
	// Lookback, when positive, limits the history to [t0 − Lookback, t0).
	// Zero means all the history before t0.
	Lookback float64

	// MinFailures and MinRepairs are the fewest failures and repairs the
	// history must hold; values below 1 mean 1.
	MinFailures, MinRepairs int

	// Level is the confidence level of the intervals, in (0, 1). Zero
	// means 0.95.
	Level float64
}

// Rate is a maximum likelihood estimate of an exponential rate.
type Rate struct {
	Value     float64 // events / exposure, per second
	Low, High float64 // confidence interval at Estimate.Level
	Events    int     // events observed
	Exposure  float64 // seconds of exposure (time at risk)
}

// Estimate holds the failure and repair rates estimated from a history.
type Estimate struct {
	From, To float64 // the history used: [From, To)
	Level    float64 // confidence level of the intervals

	Failure Rate // λ: failures per second of up time
	Repair  Rate // θ: repairs per second of down time
}

// EstimateRates estimates the per-node failure rate λ and repair rate θ
// from the history of tr before t0, by maximum likelihood for exponential
// up and down times (see the package documentation for the formulas, the
// treatment of intervals cut by the history window, and the confidence
// intervals).
//
// When the history holds fewer failures or repairs than required, the
// error wraps ErrTooFewEvents and the returned Estimate still holds the
// counts and exposures (its rates are zero). Other errors report invalid
// arguments.
func EstimateRates(tr *Trace, t0 float64, s *EstimateSettings) (Estimate, error) {
	set := EstimateSettings{MinFailures: 1, MinRepairs: 1, Level: 0.95}
	if s != nil {
		if !finite(s.Lookback) || s.Lookback < 0 {
			return Estimate{}, fmt.Errorf("trace: EstimateSettings.Lookback %v is not a finite non-negative duration", s.Lookback)
		}
		if math.IsNaN(s.Level) || s.Level < 0 || s.Level >= 1 {
			return Estimate{}, fmt.Errorf("trace: EstimateSettings.Level %v is outside (0, 1)", s.Level)
		}
		set.Lookback = s.Lookback
		set.MinFailures = max(s.MinFailures, 1)
		set.MinRepairs = max(s.MinRepairs, 1)
		if s.Level != 0 {
			set.Level = s.Level
		}
	}
	if math.IsNaN(t0) {
		return Estimate{}, fmt.Errorf("trace: t0 is NaN")
	}
	start, end := tr.Window()
	e := Estimate{From: start, To: math.Min(t0, end), Level: set.Level}
	if set.Lookback > 0 {
		e.From = math.Max(start, t0-set.Lookback)
	}
	if e.To < e.From {
		e.To = e.From
	}

	for i := range tr.nodes {
		n := &tr.nodes[i]
		lo, hi := math.Max(n.Start, e.From), math.Min(n.End, e.To)
		if hi <= lo {
			continue
		}
		down := 0.0
		for _, iv := range n.Down[firstEndingAfter(n.Down, lo):] {
			if iv.Start >= hi {
				break
			}
			down += math.Min(iv.End, hi) - math.Max(iv.Start, lo)
			if iv.Start > lo {
				e.Failure.Events++
			}
			if lo < iv.End && iv.End < hi {
				e.Repair.Events++
			}
		}
		// A zero-length outage at lo is not an event inside (lo, hi), and
		// firstEndingAfter skips it; one strictly inside counts as both.
		e.Failure.Exposure += (hi - lo) - down
		e.Repair.Exposure += down
	}

	if e.Failure.Events < set.MinFailures || e.Repair.Events < set.MinRepairs {
		return e, fmt.Errorf("%w: %d failures and %d repairs in [%v, %v), need %d and %d",
			ErrTooFewEvents, e.Failure.Events, e.Repair.Events, e.From, e.To, set.MinFailures, set.MinRepairs)
	}
	if e.Repair.Exposure == 0 {
		return e, fmt.Errorf("trace: all %d outages in [%v, %v) have zero length: θ is unbounded", e.Repair.Events, e.From, e.To)
	}
	alpha := 1 - set.Level
	e.Failure.fill(alpha)
	e.Repair.fill(alpha)
	return e, nil
}

// fill sets the estimate and its exact Poisson (Garwood) confidence
// interval from Events and Exposure: with n events in exposure T,
// Low = χ²_{α/2}(2n)/(2T) and High = χ²_{1−α/2}(2n+2)/(2T).
func (r *Rate) fill(alpha float64) {
	n := float64(r.Events)
	r.Value = n / r.Exposure
	if r.Events > 0 {
		r.Low = distuv.ChiSquared{K: 2 * n}.Quantile(alpha/2) / (2 * r.Exposure)
	}
	r.High = distuv.ChiSquared{K: 2*n + 2}.Quantile(1-alpha/2) / (2 * r.Exposure)
}
