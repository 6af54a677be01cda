package trace

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/gonum/mathext"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/ckpt-markov/markov/internal/scalar"
)

// EventSettings adjusts EstimateEvents. A nil *EventSettings means the
// defaults described on each field.
type EventSettings struct {
	// Lookback, when positive, limits the history to [t0 − Lookback, t0).
	// Zero means all the history before t0.
	Lookback float64

	// Tolerance, in seconds, is how far apart failures of different nodes
	// may start and still be one event: a failure joins the event of the
	// earliest failure before it when it starts at most Tolerance after
	// that failure. Zero means equal start times only.
	Tolerance float64

	// Resolution is the clock tick of the log in seconds (60 for the LANL
	// log, which records minutes): two independent failures less than a
	// tick apart get equal times. It enters only the test of coincidences
	// against chance. Zero means exact times.
	Resolution float64

	// Level is the confidence level of the intervals, in (0, 1); the tests
	// reject at 1 − Level. Zero means 0.95.
	Level float64
}

// A verdict needs both significance and a material effect: a test that
// rejects at 1 − Level on a history of tens of thousands of failures also
// rejects effects too small to matter to the model. These are the smallest
// effects that make a verdict Contradicted (see the package documentation
// for their justification).
const (
	// MaterialShape: the Weibull shape of the up times must lie outside
	// [1 − MaterialShape, 1 + MaterialShape] = [0.9, 1.1].
	MaterialShape = 0.1
	// MaterialGroupedShare: more than this fraction of the failures (1 %)
	// must belong to grouped events.
	MaterialGroupedShare = 0.01
)

// Verdict is the outcome of checking one assumption of the model against a
// trace. Its zero value means not tested.
type Verdict int

const (
	// Untested: the history is too short to tell.
	Untested Verdict = iota
	// Holds: the history does not contradict the assumption at the level.
	Holds
	// Contradicted: the history contradicts the assumption at the level.
	Contradicted
)

// String returns "untested", "holds" or "contradicted".
func (v Verdict) String() string {
	switch v {
	case Untested:
		return "untested"
	case Holds:
		return "holds"
	case Contradicted:
		return "contradicted"
	}
	return fmt.Sprintf("Verdict(%d)", int(v))
}

// Proportion is a binomial proportion with its exact (Clopper–Pearson)
// confidence interval.
type Proportion struct {
	Count, Total int
	Value        float64 // Count / Total
	Low, High    float64 // confidence interval at the estimate's Level
}

// SizeCount is the number of events that took down Size nodes, with the
// fraction of all events they are.
type SizeCount struct {
	Size     int
	Fraction Proportion
}

// EventStats describes the failure events of a history: the failures of
// single nodes grouped into events (see EstimateEvents).
type EventStats struct {
	Failures int // node failures in the history
	Events   int // distinct failure events

	// Rate is the event rate per functional node: events per second of
	// node up time (the exposure of λ), the rate at which a batch model
	// lets each functional node start an event.
	Rate Rate
	// SystemRate is events per second of the history [From, To).
	SystemRate Rate

	// Sizes is the distribution of the number of failures per event, by
	// increasing size, sizes that occur only.
	Sizes []SizeCount
	// MeanSize is the mean number of failures per event, with a normal
	// confidence interval (MeanLow, MeanHigh).
	MeanSize, MeanLow, MeanHigh float64

	// Grouped is the proportion of events with two failures or more.
	Grouped Proportion
	// GroupedFailures is the fraction of failures that belong to such
	// events.
	GroupedFailures float64
	// Labelled is the number of grouped events that contain failures
	// with the same Event label (a grouping recorded in the log).
	Labelled int

	// Coincidences is the number of failures that start at most
	// Tolerance after the first failure of their time cluster (so join
	// it). Under independent failures at a constant rate r each failure
	// after the first does so with probability at most
	// p0 = 1 − exp(−r·(Tolerance + w)), r = Failures / (To − From) and w
	// the larger of Resolution and the spacing of float64 values at the
	// latest failure time (times closer than that are stored equal) (its
	// gap to the previous failure is at least that short):
	// ExpectedCoincidences is (Failures − 1)·p0 and CoincidenceP the
	// binomial probability of at least Coincidences, a conservative test.
	Coincidences         int
	ExpectedCoincidences float64
	CoincidenceP         float64
}

// UpTimeFit is the maximum likelihood fit of the law of the up times of
// the nodes: exponential against Weibull, with right censoring.
type UpTimeFit struct {
	Complete int // up periods ended by a failure inside the history
	Censored int // up periods still running at the end of the history or window

	// MTTF is the exponential estimate of the mean up time: total up time
	// of the periods over Complete.
	MTTF float64

	// Shape is the Weibull shape k (1: exponential; below 1: failures
	// cluster after repairs; above 1: wear-out), with its profile
	// likelihood interval (ShapeLow, ShapeHigh) at the estimate's Level;
	// Scale is the Weibull scale in seconds.
	Shape, ShapeLow, ShapeHigh float64
	Scale                      float64

	// LogLikExp and LogLikWeibull are the maximised log-likelihoods
	// (densities in 1/seconds); LR = 2·(LogLikWeibull − LogLikExp) is the
	// likelihood-ratio statistic of exponential (k = 1) within Weibull, and
	// P its p-value, χ²(1) in the limit (Wilks).
	LogLikExp, LogLikWeibull float64
	LR, P                    float64
}

// EventEstimate is the result of EstimateEvents.
type EventEstimate struct {
	From, To  float64 // the history used: [From, To)
	Level     float64 // confidence level of the intervals
	Tolerance float64 // the coincidence tolerance used, seconds

	Events EventStats
	UpTime UpTimeFit

	// Exponential checks the model's exponential up times: Contradicted
	// when the likelihood-ratio test rejects k = 1 at 1 − Level (the
	// shape interval then excludes 1) and the shape lies outside
	// [1 − MaterialShape, 1 + MaterialShape]; Untested with fewer than
	// two complete up periods.
	Exponential Verdict
	// SingleFailures checks that each failure event takes down one node:
	// Contradicted when the history holds a grouped event with an Event
	// label, or more coincidences than chance allows (CoincidenceP below
	// 1 − Level), and more than MaterialGroupedShare of the failures
	// belong to grouped events; Untested without any failure.
	SingleFailures Verdict
}

// EstimateEvents describes the failure process of tr in the history
// before t0 (the window rules of EstimateRates): its events and the law of
// its up times. See the package documentation for the definitions.
//
// An error reports invalid arguments only: a history too short for a
// test leaves the corresponding verdict Untested.
func EstimateEvents(tr *Trace, t0 float64, s *EventSettings) (EventEstimate, error) {
	set := EventSettings{Level: 0.95}
	if s != nil {
		for _, f := range []struct {
			name string
			v    float64
		}{{"Lookback", s.Lookback}, {"Tolerance", s.Tolerance}, {"Resolution", s.Resolution}} {
			if !finite(f.v) || f.v < 0 {
				return EventEstimate{}, fmt.Errorf("trace: EventSettings.%s %v is not a finite non-negative duration", f.name, f.v)
			}
		}
		if math.IsNaN(s.Level) || s.Level < 0 || s.Level >= 1 {
			return EventEstimate{}, fmt.Errorf("trace: EventSettings.Level %v is outside (0, 1)", s.Level)
		}
		set = *s
		if set.Level == 0 {
			set.Level = 0.95
		}
	}
	if math.IsNaN(t0) {
		return EventEstimate{}, fmt.Errorf("trace: t0 is NaN")
	}
	start, end := tr.Window()
	e := EventEstimate{From: start, To: math.Min(t0, end), Level: set.Level, Tolerance: set.Tolerance}
	if set.Lookback > 0 {
		e.From = math.Max(start, t0-set.Lookback)
	}
	e.To = math.Max(e.To, e.From)
	alpha := 1 - set.Level

	var fails []failure
	var ups []upPeriod
	upTime := 0.0
	for i := range tr.nodes {
		n := &tr.nodes[i]
		lo, hi := math.Max(n.Start, e.From), math.Min(n.End, e.To)
		if hi <= lo {
			continue
		}
		upTime += nodeUpTime(n, lo, hi)
		fails = appendFailures(fails, i, n, lo, hi)
		ups = appendUpPeriods(ups, n, lo, hi)
	}
	e.Events = eventStats(fails, upTime, e.To-e.From, set, alpha)
	e.UpTime, e.Exponential = fitUpTimes(ups, alpha)
	switch st := &e.Events; {
	case st.Failures == 0:
		e.SingleFailures = Untested
	case (st.Labelled > 0 || st.CoincidenceP < alpha) && st.GroupedFailures > MaterialGroupedShare:
		e.SingleFailures = Contradicted
	default:
		e.SingleFailures = Holds
	}
	return e, nil
}

// nodeUpTime is the up time of node n inside [lo, hi).
func nodeUpTime(n *Node, lo, hi float64) float64 {
	down := 0.0
	for _, iv := range n.Down[firstEndingAfter(n.Down, lo):] {
		if iv.Start >= hi {
			break
		}
		down += math.Min(iv.End, hi) - math.Max(iv.Start, lo)
	}
	return (hi - lo) - down
}

type failure struct {
	t     float64
	node  int
	label int
	cause Cause
}

// appendFailures appends to fails the failures of node i (n) that start
// in [lo, hi): its outages that start after its production start, as
// EstimateRates counts them.
func appendFailures(fails []failure, i int, n *Node, lo, hi float64) []failure {
	for _, iv := range n.Down {
		if iv.Start > n.Start && iv.Start >= lo && iv.Start < hi {
			fails = append(fails, failure{t: iv.Start, node: i, label: iv.Event, cause: iv.Cause})
		}
	}
	return fails
}

// failuresIn returns the failures of every node of tr that start in
// [from, to), within the node's production window (appendFailures), in
// node order.
func (tr *Trace) failuresIn(from, to float64) []failure {
	var fails []failure
	for i := range tr.nodes {
		n := &tr.nodes[i]
		fails = appendFailures(fails, i, n, math.Max(n.Start, from), math.Min(n.End, to))
	}
	return fails
}

// eventSeverities groups fails into events with tolerance tol
// (groupFailures, which sorts fails by time, then node) and returns the
// grouping and each event's severity: the highest m gives the event's
// failures, each with the event's size.
func eventSeverities(fails []failure, tol float64, m SeverityMap) (grouping, []int) {
	g := groupFailures(fails, tol)
	sev := make([]int, len(g.sizes))
	for k, f := range fails {
		e := g.of[k]
		sev[e] = max(sev[e], m.Severity(f.cause, g.sizes[e]))
	}
	return g, sev
}

// eventStats groups the failures into events and measures them.
func eventStats(fails []failure, upTime, span float64, set EventSettings, alpha float64) EventStats {
	g := groupFailures(fails, set.Tolerance)
	st := EventStats{Failures: len(fails), Events: len(g.sizes), Coincidences: g.coincidences}
	st.Rate = Rate{Events: st.Events, Exposure: upTime}
	st.SystemRate = Rate{Events: st.Events, Exposure: span}
	if upTime > 0 {
		st.Rate.fill(alpha)
	}
	if span > 0 {
		st.SystemRate.fill(alpha)
	}
	st.sizeStats(g, alpha)
	st.CoincidenceP, st.ExpectedCoincidences = coincidenceTest(fails, st.Coincidences, span, set)
	return st
}

// grouping is the failures grouped into events: each failure's event,
// each event's number of failures and whether two of them carry the same
// label, and the number of failures within the tolerance of the first of
// their time cluster.
type grouping struct {
	of           []int
	sizes        []int
	labelled     []bool
	coincidences int
}

// groupFailures sorts the failures by time (then node) and groups them
// into events by union–find: same label, or within tol of the first
// failure of the current time cluster.
func groupFailures(fails []failure, tol float64) grouping {
	slices.SortFunc(fails, func(a, b failure) int {
		if c := cmp.Compare(a.t, b.t); c != 0 {
			return c
		}
		return cmp.Compare(a.node, b.node)
	})
	var g grouping
	parent := make([]int, len(fails))
	for k := range parent {
		parent[k] = k
	}
	find := func(k int) int {
		for parent[k] != k {
			parent[k] = parent[parent[k]]
			k = parent[k]
		}
		return k
	}
	union := func(a, b int) {
		a, b = find(a), find(b)
		if a != b {
			parent[max(a, b)] = min(a, b)
		}
	}
	byLabel := map[int]int{}
	anchor := 0
	for k, f := range fails {
		if f.label > 0 {
			if first, ok := byLabel[f.label]; ok {
				union(first, k)
			} else {
				byLabel[f.label] = k
			}
		}
		if k > 0 {
			if f.t-fails[anchor].t <= tol {
				union(anchor, k)
				g.coincidences++
			} else {
				anchor = k
			}
		}
	}
	// Roots are the events' first failures; an event's index is its
	// root's rank.
	event := make([]int, len(fails))
	labels := []map[int]int{} // event → label → failures
	for k, f := range fails {
		r := find(k)
		if r == k {
			event[k] = len(g.sizes)
			g.sizes = append(g.sizes, 0)
			labels = append(labels, nil)
		}
		e := event[r]
		event[k] = e
		g.sizes[e]++
		if f.label > 0 {
			if labels[e] == nil {
				labels[e] = map[int]int{}
			}
			labels[e][f.label]++
		}
	}
	g.labelled = make([]bool, len(g.sizes))
	for e, ls := range labels {
		for _, c := range ls {
			g.labelled[e] = g.labelled[e] || c >= 2
		}
	}
	g.of = event
	return g
}

// sizeStats fills the statistics of the events' sizes: the grouped
// events and failures, the size distribution and the mean size with its
// normal-approximation interval at level 1 − alpha.
func (st *EventStats) sizeStats(g grouping, alpha float64) {
	count := map[int]int{}
	sum, sumSq := 0.0, 0.0
	for e, k := range g.sizes {
		count[k]++
		sum += float64(k)
		sumSq += float64(k) * float64(k)
		if k >= 2 {
			st.Grouped.Count++
			st.GroupedFailures += float64(k)
			if g.labelled[e] {
				st.Labelled++
			}
		}
	}
	st.Grouped = proportion(st.Grouped.Count, st.Events, alpha)
	if st.Failures > 0 {
		st.GroupedFailures /= float64(st.Failures)
	}
	for k, c := range count {
		st.Sizes = append(st.Sizes, SizeCount{Size: k, Fraction: proportion(c, st.Events, alpha)})
	}
	slices.SortFunc(st.Sizes, func(a, b SizeCount) int { return a.Size - b.Size })
	if st.Events > 0 {
		m := float64(st.Events)
		st.MeanSize = sum / m
		sd := 0.0
		if st.Events > 1 {
			sd = math.Sqrt(math.Max(0, (sumSq-m*st.MeanSize*st.MeanSize)/(m-1)))
		}
		z := distuv.UnitNormal.Quantile(1 - alpha/2)
		st.MeanLow, st.MeanHigh = st.MeanSize-z*sd/math.Sqrt(m), st.MeanSize+z*sd/math.Sqrt(m)
	}
}

// coincidenceTest returns the p-value of the coincidences among the
// failures, sorted by time, under independent failures at their mean
// rate over span, and the number expected: each of the n − 1 gaps is a
// coincidence with probability p0 = 1 − e^{−r(Tolerance + w)}, w the
// resolution of the times.
func coincidenceTest(fails []failure, coincidences int, span float64, set EventSettings) (p, expected float64) {
	gaps := len(fails) - 1
	if gaps <= 0 || span <= 0 {
		return 1, 0
	}
	r := float64(len(fails)) / span
	// Times closer than the float64 spacing at the latest failure are
	// stored equal: the finest resolution any trace has.
	last := math.Max(math.Abs(fails[0].t), math.Abs(fails[len(fails)-1].t))
	w := math.Max(set.Resolution, math.Nextafter(last, math.Inf(1))-last)
	p0 := -math.Expm1(-r * (set.Tolerance + w))
	expected = float64(gaps) * p0
	switch {
	case coincidences == 0:
		return 1, expected
	case p0 == 0:
		return 0, expected
	}
	// P(X ≥ c) = I_{p0}(c, n − c + 1) for X ~ Binomial(n, p0), accurate
	// far into the tail (1 − CDF is not).
	return mathext.RegIncBeta(float64(coincidences), float64(gaps-coincidences+1), p0), expected
}

// proportion is c/n with its Clopper–Pearson interval at level 1 − alpha.
func proportion(c, n int, alpha float64) Proportion {
	p := Proportion{Count: c, Total: n}
	if n == 0 {
		return p
	}
	p.Value = float64(c) / float64(n)
	p.High = 1
	if c > 0 {
		p.Low = distuv.Beta{Alpha: float64(c), Beta: float64(n - c + 1)}.Quantile(alpha / 2)
	}
	if c < n {
		p.High = distuv.Beta{Alpha: float64(c + 1), Beta: float64(n - c)}.Quantile(1 - alpha/2)
	}
	return p
}

// upPeriod is an up time of a node, complete (ended by a failure) or
// censored.
type upPeriod struct {
	x        float64
	complete bool
}

// appendUpPeriods adds the up periods of n that start inside [lo, hi) at a
// known age zero: after a repair, or at the start of the node's window.
// Each ends at the next failure (complete) or is censored at hi.
func appendUpPeriods(ups []upPeriod, n *Node, lo, hi float64) []upPeriod {
	u := n.Start
	for k := 0; k <= len(n.Down); k++ {
		v, failed := n.End, false
		if k < len(n.Down) {
			v, failed = n.Down[k].Start, true
		}
		if v > u && u >= lo && u < hi {
			if failed && v < hi {
				ups = append(ups, upPeriod{x: v - u, complete: true})
			} else {
				ups = append(ups, upPeriod{x: hi - u})
			}
		}
		if k < len(n.Down) {
			u = n.Down[k].End
		}
	}
	return ups
}

// weibullProfile is the profile log-likelihood of the Weibull shape for
// right-censored data, with the scale at its maximum for each shape.
type weibullProfile struct {
	logY   []float64 // log(x / c) of all periods, c their maximum
	r      float64   // complete periods
	sumLog float64   // Σ log(x/c) over the complete periods
	logC   float64
}

// sums returns log Σ y^k and Σ y^k·log y / Σ y^k (y ≤ 1, so no overflow).
func (w *weibullProfile) sums(k float64) (logS, mean float64) {
	s, sl := 0.0, 0.0
	for _, ly := range w.logY {
		t := math.Exp(k * ly)
		s += t
		sl += t * ly
	}
	return math.Log(s), sl / s
}

// logLik is ℓ(k) = r·log k + (k−1)·Σ_c log x − r·log(Σ x^k / r) − r, in x's
// units.
func (w *weibullProfile) logLik(k float64) float64 {
	logS, _ := w.sums(k)
	return w.r*math.Log(k) + (k-1)*w.sumLog - w.r*w.logC - w.r*(logS-math.Log(w.r)) - w.r
}

// score is dℓ/dk, strictly decreasing in k.
func (w *weibullProfile) score(k float64) float64 {
	_, mean := w.sums(k)
	return w.r/k + w.sumLog - w.r*mean
}

// Shapes outside [minShape, maxShape] are reported as degenerate fits.
const minShape, maxShape = 1e-3, 1e3

// shapeTol is the relative accuracy of the fitted shape and of the ends
// of its interval: far below their statistical error.
const shapeTol = 1e-12

// rootLog returns where f changes sign between a and b (0 < a < b, f(a)
// and f(b) of opposite signs), to a relative shapeTol.
func rootLog(f func(float64) float64, a, b float64) float64 {
	k, err := scalar.LogRootIn(scalar.Plain(f), a, b, shapeTol)
	if err != nil {
		panic(fmt.Sprintf("trace: no sign change of the likelihood in [%v, %v]: %v", a, b, err))
	}
	return k
}

// fitUpTimes fits the exponential and Weibull laws to the up periods.
func fitUpTimes(ups []upPeriod, alpha float64) (UpTimeFit, Verdict) {
	var f UpTimeFit
	total := 0.0
	w := weibullProfile{logC: math.Inf(-1)}
	for _, u := range ups {
		total += u.x
		w.logC = math.Max(w.logC, math.Log(u.x))
		if u.complete {
			f.Complete++
		} else {
			f.Censored++
		}
	}
	if f.Complete < 2 {
		return f, Untested
	}
	f.MTTF = total / float64(f.Complete)
	w.r = float64(f.Complete)
	w.logY = make([]float64, len(ups))
	for k, u := range ups {
		w.logY[k] = math.Log(u.x) - w.logC
		if u.complete {
			w.sumLog += w.logY[k]
		}
	}
	// The exponential fit is k = 1 of the same profile.
	f.LogLikExp = w.logLik(1)
	if w.score(maxShape) > 0 {
		return f, Untested // all complete periods equal the longest: no finite shape
	}
	f.Shape = rootLog(w.score, minShape, maxShape)
	f.LogLikWeibull = w.logLik(f.Shape)
	logS, _ := w.sums(f.Shape)
	f.Scale = math.Exp(w.logC + (logS-math.Log(w.r))/f.Shape)
	f.LR = math.Max(0, 2*(f.LogLikWeibull-f.LogLikExp))
	f.P = distuv.ChiSquared{K: 1}.Survival(f.LR)

	// Profile likelihood interval: ℓ(k̂) − ℓ(k) ≤ χ²_{1−α}(1)/2.
	drop := distuv.ChiSquared{K: 1}.Quantile(1-alpha) / 2
	g := func(k float64) float64 { return f.LogLikWeibull - w.logLik(k) - drop }
	f.ShapeLow, f.ShapeHigh = minShape, maxShape
	if g(minShape) > 0 {
		f.ShapeLow = rootLog(g, minShape, f.Shape)
	}
	if g(maxShape) > 0 {
		f.ShapeHigh = rootLog(g, f.Shape, maxShape)
	}
	if f.P < alpha && math.Abs(f.Shape-1) > MaterialShape {
		return f, Contradicted
	}
	return f, Holds
}

// Summary is a one-line statement of what the history says about the
// model's two assumptions, exponential up times and one node per failure
// event, for a user to read next to a result computed under them. It
// states the p-values and the material thresholds.
func (e *EventEstimate) Summary() string {
	var b strings.Builder
	u := &e.UpTime
	lo, hi := 1-MaterialShape, 1+MaterialShape
	switch e.Exponential {
	case Untested:
		fmt.Fprintf(&b, "exponential up times: not tested (%d complete up periods)", u.Complete)
	case Holds:
		fmt.Fprintf(&b, "exponential up times: plausible (Weibull shape %.3g [%.3g, %.3g], LR p %s", u.Shape, u.ShapeLow, u.ShapeHigh, FormatP(u.P))
		if u.P < 1-e.Level {
			fmt.Fprintf(&b, "; within %.3g–%.3g, too close to 1 to matter", lo, hi)
		}
		b.WriteString(")")
	case Contradicted:
		fmt.Fprintf(&b, "exponential up times: REJECTED (Weibull shape %.3g [%.3g, %.3g] outside %.3g–%.3g, LR p %s)",
			u.Shape, u.ShapeLow, u.ShapeHigh, lo, hi, FormatP(u.P))
	}
	st := &e.Events
	b.WriteString("; ")
	switch e.SingleFailures {
	case Untested:
		b.WriteString("grouped failures: not tested (no failure)")
	case Holds:
		if st.Labelled > 0 || st.CoincidenceP < 1-e.Level {
			fmt.Fprintf(&b, "grouped failures: too few to matter (%.2g%% of failures, at most %.3g%%; %d of %d events, %d coincidences, %.3g expected by chance, p %s)",
				100*st.GroupedFailures, 100*MaterialGroupedShare, st.Grouped.Count, st.Events, st.Coincidences, st.ExpectedCoincidences, FormatP(st.CoincidenceP))
		} else {
			fmt.Fprintf(&b, "grouped failures: none beyond chance (%d of %d events, %d coincidences, %.3g expected, p %s)",
				st.Grouped.Count, st.Events, st.Coincidences, st.ExpectedCoincidences, FormatP(st.CoincidenceP))
		}
	case Contradicted:
		fmt.Fprintf(&b, "grouped failures: PRESENT (%.1f%% of %d events take 2–%d nodes, %.1f%% of failures, above %.3g%%)",
			100*st.Grouped.Value, st.Events, st.Sizes[len(st.Sizes)-1].Size, 100*st.GroupedFailures, 100*MaterialGroupedShare)
	}
	if e.Exponential == Contradicted || e.SingleFailures == Contradicted {
		b.WriteString(": the model's assumptions do not hold for this history")
	}
	return b.String()
}

// FormatP formats a p-value after "p " as "= 0.031", or "< 1e-300" when
// it underflows (never "= 0": a test's p-value is positive): the one rule
// of every p-value the toolkit prints.
func FormatP(p float64) string {
	if p < 1e-300 {
		return "< 1e-300"
	}
	return fmt.Sprintf("= %.2g", p)
}

// ClockTick returns the coarsest of one hour, one minute, one second and
// 10⁻¹ … 10⁻⁶ s of which the start time of every failure of t is a
// multiple (for a decimal tick 10⁻ᵈ: the float64 nearest to one, as a
// time written with d decimals reads), or 0 when none is (or t has no
// failure): the resolution of a log that rounds its times, for
// EventSettings.Resolution.
func (t *Trace) ClockTick() float64 {
	times := t.FailureTimes()
	if len(times) == 0 {
		return 0
	}
	for _, tick := range []float64{3600, 60, 1} {
		if all(times, func(x float64) bool { return math.Mod(x, tick) == 0 }) {
			return tick
		}
	}
	scale := 1.0
	for d := 1; d <= 6; d++ {
		scale *= 10
		// n/scale is the float64 nearest to the decimal n·10⁻ᵈ (IEEE
		// division rounds correctly and scale is exact), so x is one
		// exactly when it equals it.
		if all(times, func(x float64) bool { return math.Round(x*scale)/scale == x }) {
			return 1 / scale
		}
	}
	return 0
}

func all(xs []float64, ok func(float64) bool) bool {
	for _, x := range xs {
		if !ok(x) {
			return false
		}
	}
	return true
}
