package uwt

import "math"

// DroppedBound returns the bound that the dropped mass puts on the error of
// r.UWT relative to itself: r.Dropped × ω_max / r.UWT, with ω_max the
// largest work rate of the scenario (+Inf when UWT is 0).
//
// The dropped mass bounds the error of the stationary law, and so the
// error of UWT in absolute terms up to the largest reward rate ω_max
// (doc.go, "Accuracy"). Relative to UWT the bound is small near I* but not
// where UWT is itself a tiny fraction of ω_max (volatile systems, intervals
// of seconds): there the fast path's window (Settings.Tol) and the
// pruning of both paths (Settings.Prune) leave errors of this order, and
// the two paths differ within it. Example (uwt.TestDroppedBoundCovers:
// QR-like costs, N = 64, MTTF = MTTR = 3 min, I = 1.167 s): UWT 4.78e-12,
// fast and exact differ by 2.1e-5 relative with the defaults, and agree
// to 1e-8 once Tol and Prune are tightened to 1e-15 and 1e-18, the value
// both converge to.
func (m *Model) DroppedBound(r Result) float64 {
	if !(r.UWT > 0) {
		return math.Inf(1)
	}
	w := 0.0
	for _, x := range m.sc.Application.WorkRate {
		w = max(w, x)
	}
	return r.Dropped * w / r.UWT
}
