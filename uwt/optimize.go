package uwt

import (
	"context"
	"fmt"
	"math"
	"sort"

	"github.com/ckpt-markov/markov/internal/scalar"
)

// OptimizeSettings configures Model.Optimize. A nil *OptimizeSettings means
// the defaults documented on each field.
type OptimizeSettings struct {
	// RelTol is the relative tolerance on the optimal interval (default 1e-4).
	RelTol float64
	// Start is the first interval of the doubling scan, in seconds
	// (default 300: the paper's 5 minutes).
	Start float64
	// Min and Max bound the search, in seconds (defaults 1 s and 100 years).
	Min, Max float64
	// Band is the fraction below the best UWT that defines the
	// near-optimal band [BandLow, BandHigh] (default 0.01).
	Band float64
	// ModelFraction is the paper's fraction for I_model: the mean of the
	// scanned intervals whose UWT is within it of the best (default 0.08).
	ModelFraction float64
}

func (s *OptimizeSettings) withDefaults() (OptimizeSettings, error) {
	d := OptimizeSettings{RelTol: 1e-4, Start: 300, Min: 1, Max: 100 * 365 * 86400, Band: 0.01, ModelFraction: 0.08}
	if s != nil {
		set := func(dst *float64, v float64) {
			if v != 0 {
				*dst = v
			}
		}
		set(&d.RelTol, s.RelTol)
		set(&d.Start, s.Start)
		set(&d.Min, s.Min)
		set(&d.Max, s.Max)
		set(&d.Band, s.Band)
		set(&d.ModelFraction, s.ModelFraction)
	}
	bad := func(v float64) bool { return math.IsNaN(v) || math.IsInf(v, 0) || v <= 0 }
	switch {
	case bad(d.RelTol) || d.RelTol >= 1:
		return d, fmt.Errorf("uwt: OptimizeSettings.RelTol = %v, want in (0, 1)", d.RelTol)
	case bad(d.Min) || bad(d.Max) || d.Min >= d.Max:
		return d, fmt.Errorf("uwt: OptimizeSettings.Min, Max = %v, %v, want 0 < Min < Max", d.Min, d.Max)
	case bad(d.Start) || d.Start < d.Min || d.Start > d.Max:
		return d, fmt.Errorf("uwt: OptimizeSettings.Start = %v, want in [Min, Max] = [%v, %v]", d.Start, d.Min, d.Max)
	case bad(d.Band) || d.Band >= 1:
		return d, fmt.Errorf("uwt: OptimizeSettings.Band = %v, want in (0, 1)", d.Band)
	case bad(d.ModelFraction) || d.ModelFraction >= 1:
		return d, fmt.Errorf("uwt: OptimizeSettings.ModelFraction = %v, want in (0, 1)", d.ModelFraction)
	}
	return d, nil
}

// Status tells how an optimisation ended. The zero value, NotTerminated,
// is what an Optimum returned with an error holds.
type Status int

const (
	// NotTerminated: the search did not finish (it failed or was cancelled).
	NotTerminated Status = iota
	// Converged: the maximiser is bracketed and located to RelTol.
	Converged
	// AtMin: UWT still rises as I falls to OptimizeSettings.Min.
	AtMin
	// AtMax: UWT still rises as I grows to OptimizeSettings.Max.
	AtMax
)

func (s Status) String() string {
	switch s {
	case NotTerminated:
		return "NotTerminated"
	case Converged:
		return "Converged"
	case AtMin:
		return "AtMin"
	case AtMax:
		return "AtMax"
	}
	return fmt.Sprintf("Status(%d)", int(s))
}

// Sample is UWT at one interval.
type Sample struct {
	Interval, UWT float64
}

// Optimum is the outcome of Model.Optimize.
type Optimum struct {
	// Result is the full evaluation at I*, the maximiser of UWT: its
	// Interval is I* and its UWT the maximum (promoted as Optimum.Interval
	// and Optimum.UWT).
	Result
	// BandLow and BandHigh bound the intervals whose UWT is within
	// OptimizeSettings.Band of the best.
	BandLow, BandHigh float64
	// ModelInterval is the paper's I_model: the mean of the scanned
	// intervals whose UWT is within OptimizeSettings.ModelFraction of the best.
	ModelInterval float64
	// Scan holds the doubling scan, in increasing order of interval.
	Scan []Sample
	// LocalMaxima counts the strict local maxima of the scan; more than
	// one means UWT is not unimodal over it, and I* is the best of them.
	LocalMaxima int
	// Evaluations is the number of UWT evaluations the search made.
	Evaluations int
	// Status tells whether the maximiser was bracketed.
	Status Status
}

// Optimize finds the interval I* that maximises UWT(I).
//
// It scans I on a doubling grid from OptimizeSettings.Start (down as well
// as up) until UWT has fallen to half its best value on both sides or the
// bounds are reached, so that the bracket around the best grid point is
// verified rather than assumed; then it runs Brent's method on log I
// inside that bracket to the relative tolerance, and finds the edges of
// the near-optimal band by regula falsi on log I.
func (m *Model) Optimize(ctx context.Context, s *OptimizeSettings) (Optimum, error) {
	set, err := s.withDefaults()
	if err != nil {
		return Optimum{}, err
	}
	var opt Optimum
	// Every evaluation is kept, so that no interval is solved twice and
	// the Result reported at I* is the one the search compared.
	seen := map[float64]Result{}
	eval := func(i float64) (float64, error) {
		if r, ok := seen[i]; ok {
			return r.UWT, nil
		}
		opt.Evaluations++
		r, err := m.Evaluate(ctx, i)
		if err == nil {
			seen[i] = r
		}
		return r.UWT, err
	}
	// The doubling scan.
	scan := []Sample{}
	add := func(i float64) (float64, error) {
		u, err := eval(i)
		if err == nil {
			scan = append(scan, Sample{i, u})
		}
		return u, err
	}
	if _, err := add(set.Start); err != nil {
		return Optimum{}, err
	}
	best := func() float64 {
		b := 0.0
		for _, x := range scan {
			b = max(b, x.UWT)
		}
		return b
	}
	for i := set.Start * 2; i <= set.Max; i *= 2 {
		u, err := add(i)
		if err != nil {
			return Optimum{}, err
		}
		if u < 0.5*best() && u < scan[len(scan)-2].UWT {
			break
		}
	}
	for i := set.Start / 2; i >= set.Min; i /= 2 {
		u, err := add(i)
		if err != nil {
			return Optimum{}, err
		}
		if u < 0.5*best() && u < scan[len(scan)-2].UWT {
			break
		}
	}
	sort.Slice(scan, func(a, b int) bool { return scan[a].Interval < scan[b].Interval })
	opt.Scan = scan
	k := 0
	for j, x := range scan {
		if x.UWT > scan[k].UWT {
			k = j
		}
		if j > 0 && j < len(scan)-1 && x.UWT > scan[j-1].UWT && x.UWT > scan[j+1].UWT {
			opt.LocalMaxima++
		}
	}
	// Brent's method on log I in the bracket around scan[k].
	lo, hi := math.Log(scan[max(k-1, 0)].Interval), math.Log(scan[min(k+1, len(scan)-1)].Interval)
	status := Converged
	switch {
	case k == 0:
		status = AtMin
	case k == len(scan)-1:
		status = AtMax
	}
	f := func(x float64) (float64, error) { return eval(math.Exp(x)) }
	fLo, fHi := scan[max(k-1, 0)].UWT, scan[min(k+1, len(scan)-1)].UWT
	xBest, uBest, err := scalar.Maximize(f, lo, hi, math.Log1p(set.RelTol), math.Log(scan[k].Interval), scan[k].UWT, fLo, fHi)
	if err != nil {
		return Optimum{}, err
	}
	// Usually a look-up: xBest was evaluated (unless e^{log I} rounded).
	iBest := math.Exp(xBest)
	if _, err := eval(iBest); err != nil {
		return Optimum{}, err
	}
	opt.Result = seen[iBest]
	// The near-optimal band, by regula falsi between I* and the nearest
	// scan points below the threshold (or the ends of the scan).
	target := (1 - set.Band) * uBest
	// The band is a tolerance region, not a point: its edges are located
	// to 1e-3 relative in I, or to 1e-3 of the band's depth in UWT.
	const bandTol = 1e-3
	edge := func(step int) (float64, error) {
		for j := k; j >= 0 && j < len(scan); j += step {
			x := scan[j]
			side := (x.Interval - opt.Interval) * float64(step)
			if side > 0 && x.UWT < target {
				u, err := scalar.LevelCrossing(f, xBest, math.Log(x.Interval), uBest, x.UWT, target, bandTol)
				return math.Exp(u), err
			}
		}
		if step > 0 {
			return scan[len(scan)-1].Interval, nil
		}
		return scan[0].Interval, nil
	}
	if opt.BandLow, err = edge(-1); err != nil {
		return Optimum{}, err
	}
	if opt.BandHigh, err = edge(+1); err != nil {
		return Optimum{}, err
	}
	// I_model.
	var sum float64
	var cnt int
	for _, x := range scan {
		if x.UWT >= (1-set.ModelFraction)*uBest {
			sum += x.Interval
			cnt++
		}
	}
	opt.ModelInterval = sum / float64(cnt)
	opt.Status = status
	return opt, nil
}

// Curve evaluates UWT at each interval, in order (warm-starting each
// stationary solve from the previous one).
func (m *Model) Curve(ctx context.Context, intervals []float64) ([]Result, error) {
	out := make([]Result, len(intervals))
	for k, i := range intervals {
		r, err := m.Evaluate(ctx, i)
		if err != nil {
			return nil, err
		}
		out[k] = r
	}
	return out, nil
}
