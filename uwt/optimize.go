package uwt

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
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
	// NoUsefulWork tells that UWT is negligible at every interval
	// evaluated: at most (Dropped + Settings.Tol)·max ω(a), within the
	// model's accuracy of zero (doc.go, "Accuracy"). No interval then
	// gives useful work, and I* is an arbitrary point of a flat curve.
	NoUsefulWork bool
}

// Optimize finds the interval I* that maximises UWT(I).
//
// It scans I on a doubling grid from OptimizeSettings.Start (down as well
// as up) until UWT has fallen to half its best value on both sides or the
// bounds are reached, so that the bracket around the best grid point is
// verified rather than assumed; then it locates the maximum on log I
// inside that bracket to the relative tolerance by parabolic steps
// (Brent's method when the best scan point is an end of the scan), and
// finds the edges of the near-optimal band on log I by steps to the
// crossing of a cubic through the evaluations already made. Every
// evaluation serves all three: the scan's bracket the peak, and the
// peak's and the scan's bracket and interpolate the band's edges.
func (m *Model) Optimize(ctx context.Context, s *OptimizeSettings) (Optimum, error) {
	set, err := s.withDefaults()
	if err != nil {
		return Optimum{}, err
	}
	sr := &search{m: m, ctx: ctx, seen: map[float64]Result{}}
	scan, err := sr.scan(set)
	if err != nil {
		return Optimum{}, err
	}
	k, maxima := bestOfScan(scan)
	status := Converged
	switch {
	case k == 0:
		status = AtMin
	case k == len(scan)-1:
		status = AtMax
	}
	// The maximum on log I in the bracket around scan[k]: parabolic steps
	// with a verified final bracket when scan[k] is interior, Brent's
	// method when it is an end of the scan.
	lo, hi := scan[max(k-1, 0)], scan[min(k+1, len(scan)-1)]
	var xBest, uBest float64
	if status == Converged {
		xBest, uBest, err = scalar.MaximizeSeen(sr.logUWT, sr.points, math.Log(lo.Interval), math.Log(hi.Interval), math.Log1p(set.RelTol))
	} else {
		xBest, uBest, err = scalar.Maximize(sr.logUWT, math.Log(lo.Interval), math.Log(hi.Interval),
			math.Log1p(set.RelTol), math.Log(scan[k].Interval), scan[k].UWT, lo.UWT, hi.UWT)
	}
	if err != nil {
		return Optimum{}, searchError(err)
	}
	// Usually a look-up: xBest was evaluated (unless e^{log I} rounded).
	iBest := math.Exp(xBest)
	if _, err := sr.uwt(iBest); err != nil {
		return Optimum{}, err
	}
	opt := Optimum{Result: sr.seen[iBest], Scan: scan, LocalMaxima: maxima}
	// The binning error at I* only (doc.go, "Old-count bins").
	if err := m.binError(ctx, &opt.Result); err != nil {
		return Optimum{}, err
	}
	target := (1 - set.Band) * uBest
	if opt.BandLow, err = sr.bandEdge(scan, k, -1, xBest, uBest, target); err != nil {
		return Optimum{}, err
	}
	if opt.BandHigh, err = sr.bandEdge(scan, k, +1, xBest, uBest, target); err != nil {
		return Optimum{}, err
	}
	opt.ModelInterval = modelInterval(scan, (1-set.ModelFraction)*uBest)
	opt.Evaluations, opt.Status = sr.evaluations, status
	opt.NoUsefulWork = m.negligible(slices.Collect(maps.Values(sr.seen)))
	return opt, nil
}

// negligible reports whether the UWT of every result is at most
// (Dropped + Settings.Tol)·max ω(a): within the model's accuracy of zero.
// The maximum is over the counts the window's states run on (UWT is at
// most the largest of their work rates), not over all N.
func (m *Model) negligible(rs []Result) bool {
	omega := 0.0
	for _, segs := range [2][]*segment{m.sk.up, m.sk.fixed} {
		for _, g := range segs {
			omega = max(omega, m.sc.Application.WorkRate[g.a-1])
		}
	}
	for _, r := range rs {
		if r.UWT > (r.Dropped+m.set.Tol)*omega {
			return false
		}
	}
	return true
}

// search evaluates UWT for Optimize, keeping every evaluation so that no
// interval is solved twice and the Result reported at I* is the one the
// search compared.
type search struct {
	m           *Model
	ctx         context.Context
	seen        map[float64]Result
	evaluations int
}

// uwt returns UWT(i).
func (sr *search) uwt(i float64) (float64, error) {
	if r, ok := sr.seen[i]; ok {
		return r.UWT, nil
	}
	sr.evaluations++
	r, err := sr.m.evaluateWindowed(sr.ctx, i)
	if err != nil {
		return 0, err
	}
	sr.seen[i] = r
	return r.UWT, nil
}

// logUWT returns UWT(e^x).
func (sr *search) logUWT(x float64) (float64, error) { return sr.uwt(math.Exp(x)) }

// scan returns the doubling scan from set.Start, upwards then downwards,
// each direction stopping at the bound or once UWT has fallen below half
// the best value seen and below its previous point; in increasing order
// of interval.
func (sr *search) scan(set OptimizeSettings) ([]Sample, error) {
	var scan []Sample
	best := 0.0
	add := func(i float64) (bool, error) {
		u, err := sr.uwt(i)
		if err != nil {
			return false, err
		}
		fell := len(scan) > 0 && u < 0.5*max(best, u) && u < scan[len(scan)-1].UWT
		scan, best = append(scan, Sample{i, u}), max(best, u)
		return fell, nil
	}
	if _, err := add(set.Start); err != nil {
		return nil, err
	}
	for _, dir := range []float64{2, 0.5} {
		for i := set.Start * dir; i <= set.Max && i >= set.Min; i *= dir {
			fell, err := add(i)
			if err != nil {
				return nil, err
			}
			if fell {
				break
			}
		}
	}
	sort.Slice(scan, func(a, b int) bool { return scan[a].Interval < scan[b].Interval })
	return scan, nil
}

// bestOfScan returns the index of the best scan point (the first, on
// ties) and the number of strict local maxima of the scan.
func bestOfScan(scan []Sample) (k, maxima int) {
	for j, x := range scan {
		if x.UWT > scan[k].UWT {
			k = j
		}
		if j > 0 && j < len(scan)-1 && x.UWT > scan[j-1].UWT && x.UWT > scan[j+1].UWT {
			maxima++
		}
	}
	return k, maxima
}

// bandEdge returns the edge of the near-optimal band on side step (−1
// below I*, +1 above): the crossing of UWT = target on log I between I* =
// e^xBest and the nearest evaluated interval on that side below the
// target, or the end of the scan when the scan has none. The band is a
// tolerance region, not a point: its edges are located to 1e-3 relative
// in I, or to 1e-3 of the band's depth in UWT (|UWT(edge) − target| ≤
// 1e-3·(UWT* − target), checked on an evaluation).
//
// Every evaluation the search has made is used (scalar.CrossingSeen):
// the crossing is bracketed by the nearest evaluated intervals on either
// side of the target (the scan's and the peak's), and each step goes to
// the crossing of the cubic through the bracket's ends and the two other
// evaluations nearest to it, so that an edge usually costs one or two
// evaluations.
func (sr *search) bandEdge(scan []Sample, k, step int, xBest, uBest, target float64) (float64, error) {
	const bandTol = 1e-3
	iBest := math.Exp(xBest)
	hasOut := false
	for j := k; j >= 0 && j < len(scan); j += step {
		if x := scan[j]; (x.Interval-iBest)*float64(step) > 0 && x.UWT < target {
			hasOut = true
			break
		}
	}
	if !hasOut {
		if step > 0 {
			return scan[len(scan)-1].Interval, nil
		}
		return scan[0].Interval, nil
	}
	x, err := scalar.CrossingSeen(sr.logUWT, sr.points, scalar.Point{X: xBest, F: uBest}, float64(step), target, bandTol, bandTol*(uBest-target))
	if err != nil {
		return 0, searchError(err)
	}
	return math.Exp(x), nil
}

// searchError names the interval search in an error of internal/scalar's.
func searchError(err error) error {
	if errors.Is(err, scalar.ErrNoConvergence) {
		return fmt.Errorf("uwt: the interval search: %w", err)
	}
	return err
}

// points returns every evaluation of the search as (log I, UWT), in
// increasing order of I.
func (sr *search) points() []scalar.Point {
	pts := make([]scalar.Point, 0, len(sr.seen))
	for i, r := range sr.seen {
		pts = append(pts, scalar.Point{X: math.Log(i), F: r.UWT})
	}
	sort.Slice(pts, func(a, b int) bool { return pts[a].X < pts[b].X })
	return pts
}

// modelInterval returns the paper's I_model: the mean of the scanned
// intervals whose UWT is at least level.
func modelInterval(scan []Sample, level float64) float64 {
	var sum float64
	var cnt int
	for _, x := range scan {
		if x.UWT >= level {
			sum += x.Interval
			cnt++
		}
	}
	return sum / float64(cnt)
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
