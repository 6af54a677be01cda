package multilevel

import (
	"errors"
	"fmt"
	"math"
)

// MaxLevels bounds the number of checkpoint levels (issue 22: 1 ≤ L ≤ 8;
// SCR, FTI and VeloC have at most four).
const MaxLevels = 8

// MaxPatternEntry bounds each entry V_ℓ of a pattern: 10⁶, a thousand
// times the largest of LLNL's SCR model regression (V = 1000). The period
// is composed in O(L² log V) operations whatever V, so the bound is not
// one of cost but of sense: a period of 10⁶ segments per level is longer
// than any run.
const MaxPatternEntry = 1_000_000

// Level is one checkpoint level's costs on the application's processor
// count, in seconds: a checkpoint of the level takes Latency wall
// seconds, of which Overhead are lost to computation, and restoring one
// takes Recovery seconds.
type Level struct {
	Latency, Overhead, Recovery float64
}

// Process is the application on a fixed processor count between down
// periods: failures of its processors interrupt it at Rate per second
// (aλ), a Severity[s-1] share of them of severity s.
type Process struct {
	// Levels are the checkpoint levels, cheapest first.
	Levels []Level
	// Severity[s-1] is the share of interruptions of severity s: the
	// lowest level whose checkpoints survive it. The shares sum to 1.
	Severity []float64
	// Rate is the interruption rate of the running application, aλ.
	Rate float64
	// CheckpointAfterRecovery adds, after every recovery from a level-ℓ
	// checkpoint, a checkpoint of the same level (Latency seconds) to the
	// recovery (docs/model.md section 12).
	CheckpointAfterRecovery bool
}

// Period is what one period of a pattern costs and yields.
type Period struct {
	// Time is the expected wall time of one period on the running
	// application's clock (down periods excluded), in seconds.
	Time float64
	// Useful is the computation one period commits, in seconds:
	// P·I + Σ_c n_c·(Latency_c − Overhead_c), with n_c the level-c
	// checkpoints of the period and P = Σ_c n_c its segments.
	Useful float64
	// Segments is the number of segments of a period, ∏(V_ℓ + 1).
	Segments float64
	// Checkpoints[c-1] is the number of level-c checkpoints of a period.
	Checkpoints []float64
}

// Efficiency returns Useful / Time, the fraction of the running time
// spent on useful computation (SCR's "efficiency").
func (p Period) Efficiency() float64 {
	if p.Time == 0 || math.IsInf(p.Time, 1) {
		return 0
	}
	return p.Useful / p.Time
}

// Validate checks the process and a pattern for it.
func (pr *Process) Validate(pattern []int) error {
	L := len(pr.Levels)
	if L < 1 || L > MaxLevels {
		return fmt.Errorf("multilevel: %d checkpoint levels, want 1 to %d", L, MaxLevels)
	}
	if len(pr.Severity) != L {
		return fmt.Errorf("multilevel: %d severity shares for %d levels", len(pr.Severity), L)
	}
	if err := CheckPattern(pattern, L); err != nil {
		return err
	}
	for i, lv := range pr.Levels {
		if !(lv.Latency >= 0 && lv.Overhead >= 0 && lv.Recovery >= 0) || lv.Overhead > lv.Latency ||
			math.IsInf(lv.Latency, 0) || math.IsInf(lv.Recovery, 0) {
			return fmt.Errorf("multilevel: level %d: costs %+v, want finite, non-negative, overhead ≤ latency", i+1, lv)
		}
	}
	for s, f := range pr.Severity {
		if !(f >= 0 && f <= 1) {
			return fmt.Errorf("multilevel: severity share %d is %v, want one in [0, 1]", s+1, f)
		}
	}
	if !(pr.Rate >= 0) || math.IsInf(pr.Rate, 0) {
		return fmt.Errorf("multilevel: rate %v, want a finite number ≥ 0", pr.Rate)
	}
	return nil
}

// CheckPattern checks a pattern for L levels: L − 1 entries, each in
// [0, MaxPatternEntry].
func CheckPattern(pattern []int, L int) error {
	if len(pattern) != L-1 {
		return fmt.Errorf("multilevel: pattern of %d entries for %d levels, want %d (V₁ … V_{L−1})", len(pattern), L, L-1)
	}
	for i, v := range pattern {
		if v < 0 || v > MaxPatternEntry {
			return fmt.Errorf("multilevel: pattern entry V%d = %d, want 0 to %d", i+1, v, MaxPatternEntry)
		}
	}
	return nil
}

// ErrInterval is returned for an interval that is negative, infinite or
// NaN.
var ErrInterval = errors.New("multilevel: the interval must be finite and ≥ 0")

// Period returns the expected time and the useful computation of one
// period of pattern with interval seconds of computation per segment
// (docs/model.md section 12). It composes the period from its nested
// blocks in O(L² log max V) operations.
func (pr *Process) Period(pattern []int, interval float64) (Period, error) {
	if err := pr.Validate(pattern); err != nil {
		return Period{}, err
	}
	if !(interval >= 0) || math.IsInf(interval, 0) {
		return Period{}, ErrInterval
	}
	c := composer{pr: pr, pattern: pattern, interval: interval, L: len(pr.Levels), sev: len(pr.Levels)}
	top := c.block(c.L, c.L)
	p := Period{Time: top.time, Checkpoints: counts(pattern)}
	for i, n := range p.Checkpoints {
		lv := pr.Levels[i]
		p.Segments += n
		p.Useful += n * (lv.Latency - lv.Overhead)
	}
	p.Useful += p.Segments * interval
	return p, nil
}

// counts returns the number of checkpoints of each level in one period:
// n_L = 1 and n_c = V_c·∏_{k>c}(V_k + 1).
func counts(pattern []int) []float64 {
	L := len(pattern) + 1
	n := make([]float64, L)
	n[L-1] = 1
	above := 1.0 // ∏_{k>c}(V_k + 1)
	for c := L - 1; c >= 1; c-- {
		n[c-1] = float64(pattern[c-1]) * above
		above *= float64(pattern[c-1] + 1)
	}
	return n
}

// phase summarises a part of the timeline, started at its beginning,
// until it either completes or hands over a failure it does not handle:
// done is the probability of completing, exit[s-1] that of handing over
// a failure of severity s, time the expected time until either.
type phase struct {
	done float64
	exit [MaxLevels + 1]float64
	time float64
}

// then returns a followed by b.
func (a phase) then(b phase) phase {
	out := phase{done: a.done * b.done, time: a.time + a.done*b.time}
	for s := range a.exit {
		out.exit[s] = a.exit[s] + a.done*b.exit[s]
	}
	return out
}

// repeat returns n ≥ 0 copies of a in sequence, by squaring (then is
// associative).
func (a phase) repeat(n int) phase {
	out := phase{done: 1}
	for ; n > 0; n >>= 1 {
		if n&1 == 1 {
			out = out.then(a)
		}
		if n > 1 {
			a = a.then(a)
		}
	}
	return out
}

type composer struct {
	pr       *Process
	pattern  []int
	interval float64
	L        int // levels
	// sev is the number of severity classes: L, or L + 1 for an up
	// phase (malleable.go), whose last class, a failure that takes a
	// processor down, no block handles.
	sev    int
	bodies [MaxLevels][MaxLevels]*phase
}

// attempt is a stretch of t seconds that any failure ends.
func (c *composer) attempt(t float64) phase {
	rate := c.pr.Rate
	ph := phase{done: 1, time: t}
	if rate == 0 {
		return ph
	}
	q := -math.Expm1(-rate * t)
	ph.done = math.Exp(-rate * t)
	ph.time = q / rate
	for s, f := range c.pr.Severity {
		ph.exit[s] = q * f
	}
	return ph
}

// body returns the body of a level-l block ending with a level-k
// checkpoint (k ≥ l): one segment for l = 1; otherwise, with v = V_{l−1},
// the body of level l−1 ending at level l−1, v−1 level-(l−1) blocks ending
// at level l−1 and one ending at level k, or for v = 0 the body of level
// l−1 ending at level k.
func (c *composer) body(l, k int) phase {
	if p := c.bodies[l-1][k-1]; p != nil {
		return *p
	}
	var ph phase
	if l == 1 {
		ph = c.attempt(c.interval + c.pr.Levels[k-1].Latency)
	} else if v := c.pattern[l-2]; v == 0 {
		ph = c.body(l-1, k)
	} else {
		ph = c.body(l-1, l-1).then(c.block(l-1, l-1).repeat(v - 1)).then(c.block(l-1, k))
	}
	c.bodies[l-1][k-1] = &ph
	return ph
}

// block returns a level-l block ending with a level-k checkpoint: its
// body, started right after a level-l checkpoint, where every failure of
// severity s ≤ l is handled by a recovery from that checkpoint and a
// new attempt of the body. During the recovery a failure of severity
// below l (or any failure at l = L) restarts it; one of severity l < L
// destroys the checkpoint being read and is handed over as severity
// l + 1; a higher one is handed over as it is.
func (c *composer) block(l, k int) phase {
	body := c.body(l, k)
	lv := c.pr.Levels[l-1]
	t := lv.Recovery
	if c.pr.CheckpointAfterRecovery {
		t += lv.Latency
	}
	r := c.attempt(t)
	// One recovery attempt: done returns to the body, exit hands over,
	// the rest (retry) restarts the recovery.
	var rexit [MaxLevels + 1]float64
	for s := l; s < c.sev; s++ { // severities l+1 … (index s)
		rexit[s] = r.exit[s]
	}
	if l < c.L {
		rexit[l] += r.exit[l-1] // severity l escalates to l+1
	}
	rleave := r.done
	for _, e := range rexit {
		rleave += e
	}
	// The recovery loop: back to the body with r.done/rleave, handed over
	// with rexit/rleave, in r.time/rleave expected.
	handled := 0.0
	for s := 0; s < l; s++ {
		handled += body.exit[s]
	}
	leave := body.done // 1 − P(body fails, is handled, recovery returns)
	for s := l; s < c.sev; s++ {
		leave += body.exit[s]
	}
	leave += handled * (rleave - r.done) / rleave
	out := phase{done: body.done / leave, time: (body.time + handled*r.time/rleave) / leave}
	for s := l; s < c.sev; s++ {
		out.exit[s] = (body.exit[s] + handled*rexit[s]/rleave) / leave
	}
	return out
}
