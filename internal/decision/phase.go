package decision

import (
	"math"

	"github.com/ckpt-markov/markov/birthdeath"
	"github.com/ckpt-markov/markov/intervals"
	"github.com/ckpt-markov/markov/scenario"
)

// Phase is the up phase of one configuration, a processors running (doc.go,
// "The up phase of a configuration"): its reward, sojourn and exit law.
type Phase struct {
	// A is the processor count; Rho = aλ the rate of the first failure
	// of one of them.
	A   int
	Rho float64
	// WorkRate, Latency and Overhead are ω(a), L(a) and C(a).
	WorkRate, Latency, Overhead float64
}

// NewPhase returns the up phase of app on a processors failing at rate
// lambda each. It panics if a is not in [1, app.N()].
func NewPhase(app *scenario.Application, a int, lambda float64) Phase {
	if a < 1 || a > app.N() {
		panic("decision: processor count out of range")
	}
	return Phase{A: a, Rho: float64(a) * lambda, WorkRate: app.WorkRate[a-1], Latency: app.Latency[a-1], Overhead: app.Overhead[a-1]}
}

// Useful returns the expected useful computing time of the up phase at
// the interval, once the recovery has succeeded: the useful time of a
// segment, I + L − C, times the expected number of segments committed
// before a failure, e^{−ρT}/(1 − e^{−ρT}) = 1/(e^{ρT} − 1), T = I + L.
func (ph Phase) Useful(interval float64) float64 {
	seg := interval + ph.Latency - ph.Overhead
	return seg / math.Expm1(ph.Rho*(interval+ph.Latency))
}

// Survival returns e^{−ρt}, the probability that a recovery of length t
// (R(p, a) + L(a)) ends before a failure.
func (ph Phase) Survival(t float64) float64 { return math.Exp(-ph.Rho * t) }

// Work returns the expected work w of a recovery of length t and the up
// phase after it, at the interval: Survival(t)·ω·Useful(interval).
func (ph Phase) Work(t, interval float64) float64 {
	return ph.Survival(t) * ph.WorkRate * ph.Useful(interval)
}

// Sojourn returns the expected time from the start of the recovery to
// the first failure, 1/ρ.
func (ph Phase) Sojourn() float64 { return 1 / ph.Rho }

// BestInterval returns the interval that maximises Useful within [lo, hi]:
// u = I + L maximises (u − C)/(e^{ρu} − 1) at u* = C + (1 + W₀(−e^{−1−ρC}))/ρ,
// Daly's exact optimum for the MTBF 1/ρ and the overhead C
// (intervals.DalyOptimum) plus C, and I = u* − L clamped to [lo, hi] (the
// reward is unimodal in u, so the bound is the constrained maximum). With
// C = 0 the reward falls with u: the shortest interval, lo.
func (ph Phase) BestInterval(lo, hi float64) float64 {
	u := 0.0
	if ph.Overhead > 0 {
		tau, err := intervals.DalyOptimum(1/ph.Rho, ph.Overhead)
		if err == nil {
			u = tau + ph.Overhead
		}
	}
	return min(max(u-ph.Latency, lo), hi)
}

// Row is the exit law of one decision (a recovery of length t from s
// spare processors and the up phase after it): the spare count s' at the
// failure that ends it, on the columns Lo, Lo+1, …. Rec holds the
// failures in the recovery (which carry the old checkpoint) and Up those
// in the up phase (which carry the new one); Up is nil when the rows are
// not split, Rec then holding every failure.
type Row struct {
	Lo      int
	Rec, Up []float64
}

// Rows returns the exit rows of the spare counts s0 ≤ s < s1 of the chain
// ch (m = N − a other processors) for a recovery of length t, each
// trimmed to all but tol of its mass (birthdeath). Without split every
// row is the resolvent's, ρ(ρI − G_m)⁻¹; with split it is divided into
// Q_t of the recovery and the rest, Q_∞ − Q_t = e^{−ρt}·P_t·Q_∞, on the
// union of their columns, clamped at zero.
func (ph Phase) Rows(ch *birthdeath.Chain, s0, s1 int, t float64, split bool, tol float64) ([]Row, error) {
	res, err := ph.Resolvent(ch, s0, s1, tol)
	if err != nil {
		return nil, err
	}
	return ph.RowsFrom(ch, res, s0, s1, t, split, tol)
}

// Resolvent returns the rows s0 ≤ s < s1 of the resolvent ρ(ρI − G_m)⁻¹
// of the chain ch that Rows starts from (birthdeath, Chain.Resolvent):
// they depend on neither the recovery's length nor the split, so a caller
// may keep them for RowsFrom.
func (ph Phase) Resolvent(ch *birthdeath.Chain, s0, s1 int, tol float64) (*birthdeath.RowBlock, error) {
	return ch.Resolvent(s0, s1, ph.Rho, tol)
}

// RowsFrom is Rows with the rows of the resolvent given (res, from
// Resolvent with the same ch, s0, s1 and tol), which it does not change:
// the same rows, bit for bit. Without split the rows share res's values.
func (ph Phase) RowsFrom(ch *birthdeath.Chain, res *birthdeath.RowBlock, s0, s1 int, t float64, split bool, tol float64) ([]Row, error) {
	if len(res.Rows) != s1-s0 {
		panic("decision: RowsFrom: resolvent rows of another range")
	}
	out := make([]Row, len(res.Rows))
	if !split {
		for k, r := range res.Rows {
			out[k] = Row{Lo: r.Lo, Rec: r.Q}
		}
		return out, nil
	}
	rec, err := ch.Rows(s0, s1, t, ph.Rho, tol)
	if err != nil {
		return nil, err
	}
	for k, r := range res.Rows {
		q := rec.Rows[k]
		lo, hi := min(r.Lo, q.Lo), max(r.Hi, q.Hi)
		vals := make([]float64, 2*(hi-lo))
		qt, up := vals[:hi-lo], vals[hi-lo:]
		copy(qt[q.Lo-lo:], q.Q)
		copy(up[r.Lo-lo:], r.Q)
		for j := range up {
			up[j] = max(up[j]-qt[j], 0)
		}
		out[k] = Row{Lo: lo, Rec: qt, Up: up}
	}
	return out, nil
}
