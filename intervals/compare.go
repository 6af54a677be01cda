package intervals

import (
	"fmt"
	"math"
)

// Params describes a system and an application in the common terms of the
// interval models. Times are in seconds (any unit works if used
// throughout).
type Params struct {
	// MTBF is the mean time between failures of the whole job, M = 1/λ
	// (Fialho's MTTI α). Required, > 0.
	MTBF float64
	// Checkpoint is the checkpoint cost δ = C (Fialho's t_c, Volpex's
	// T_s). Required, > 0.
	Checkpoint float64
	// Latency is Vaidya's checkpoint latency L ≥ Checkpoint; zero means
	// L = Checkpoint. No interval depends on it (Vaidya 1997); it is
	// validated for consistency.
	Latency float64
	// Restart is the restart cost R (Fialho's load time t_l), ≥ 0.
	Restart float64
	// Detection is the failure detection latency t_d ≥ 0 (Fialho).
	Detection float64
	// LogReplay and LogDelay are Fialho's message-log replay time Δ_lr
	// and logging delay Δ_lp, ≥ 0 (uncoordinated model only).
	LogReplay, LogDelay float64
	// Phi is the dependency factor φ ∈ (0, 1] of the uncoordinated
	// model; zero means 1 (every process waits for a failed one).
	Phi float64
	// Work is the failure-free compute time W of the job; zero means
	// unknown. With it Bouguerra's model rounds to an integer number of
	// segments.
	Work float64
	// Processes and Replicas are Volpex's n and r; zero means 1. MTBF is
	// then the MTBF of the unreplicated job, so one node fails at rate
	// λ = 1/(n·MTBF).
	Processes, Replicas int
}

// Validate reports whether p holds usable values.
func (p Params) Validate() error {
	const fn = "Params"
	if err := firstError(
		checkPositive(fn, "MTBF", p.MTBF),
		checkPositive(fn, "Checkpoint", p.Checkpoint),
		checkNonNegative(fn, "Latency", p.Latency),
		checkNonNegative(fn, "Restart", p.Restart),
		checkNonNegative(fn, "Detection", p.Detection),
		checkNonNegative(fn, "LogReplay", p.LogReplay),
		checkNonNegative(fn, "LogDelay", p.LogDelay),
		checkNonNegative(fn, "Work", p.Work),
	); err != nil {
		return err
	}
	if p.Latency != 0 && p.Latency < p.Checkpoint {
		return paramError(fn, "Latency", p.Latency, "0 or ≥ Checkpoint")
	}
	if p.Phi != 0 && !(p.Phi > 0 && p.Phi <= 1) {
		return paramError(fn, "Phi", p.Phi, "0 (meaning 1) or in (0, 1]")
	}
	if p.Processes < 0 {
		return fmt.Errorf("intervals: %s: Processes = %d, want ≥ 0", fn, p.Processes)
	}
	if p.Replicas < 0 {
		return fmt.Errorf("intervals: %s: Replicas = %d, want ≥ 0", fn, p.Replicas)
	}
	return nil
}

// Model is an interval rule that can be placed in a comparison table.
// Implementations outside this package (such as the Markov model) can be
// passed to Compare alongside the built-in ones.
type Model interface {
	// Name returns a short label for tables.
	Name() string
	// Interval returns the checkpoint interval (seconds of computation
	// between checkpoints) the model picks for p.
	Interval(p Params) (float64, error)
}

// Choice is the interval one model picks.
type Choice struct {
	// Name is the model's Name.
	Name string
	// Interval is the chosen interval; NaN when Err is not nil.
	Interval float64
	// Note explains the choice (branch taken, segment count, inputs
	// used); empty for models outside this package.
	Note string
	// Err is why the model does not apply to these parameters, if so.
	Err error
}

// builtin is a model of this package, which also explains its choice.
type builtin struct {
	name   string
	choose func(p Params) (interval float64, note string, err error)
}

func (b builtin) Name() string { return b.name }

func (b builtin) Interval(p Params) (float64, error) {
	if err := p.Validate(); err != nil {
		return math.NaN(), err
	}
	v, _, err := b.choose(p)
	return v, err
}

// Models returns the built-in models, in this order:
//
//   - "Young": sqrt(2·C·M) (YoungInterval);
//   - "Daly low order": sqrt(2·C·M) − C (DalyLowOrder);
//   - "Daly higher order": DalyHigherOrder (M when C ≥ 2M);
//   - "Vaidya": the exact optimum M·(1 + W0(−e^{−1−C/M})) of Vaidya's
//     and Daly's exponential costs (VaidyaInterval, DalyOptimum);
//   - "Bouguerra": exponential failures at 1/M with constant cost C + R;
//     W/k for the optimal integer k when Work > 0, else the continuous
//     I* (BouguerraExponential);
//   - "Volpex": n = Processes, r = Replicas, node rate 1/(n·M),
//     T_s = C (Volpex.Interval);
//   - "Fialho coordinated": α = M, t_c = C, t_l = R, t_d = Detection
//     (FialhoCoordinated.Interval);
//   - "Fialho uncoordinated": additionally Δ_lr = LogReplay,
//     Δ_lp = LogDelay, φ = Phi (FialhoUncoordinated.Interval).
func Models() []Model {
	return []Model{
		builtin{"Young", func(p Params) (float64, string, error) {
			v, err := YoungInterval(p.MTBF, p.Checkpoint)
			return v, "sqrt(2CM)", err
		}},
		builtin{"Daly low order", func(p Params) (float64, string, error) {
			v, err := DalyLowOrder(p.MTBF, p.Checkpoint)
			return v, "sqrt(2CM) − C", err
		}},
		builtin{"Daly higher order", func(p Params) (float64, string, error) {
			v, err := DalyHigherOrder(p.MTBF, p.Checkpoint)
			note := "perturbation series to third order"
			if p.Checkpoint >= 2*p.MTBF {
				note = "C ≥ 2M: τ = M"
			}
			return v, note, err
		}},
		builtin{"Vaidya", func(p Params) (float64, string, error) {
			v, err := VaidyaInterval(1/p.MTBF, p.Checkpoint)
			return v, "exact optimum of the exponential cost (= Daly's); independent of L and R", err
		}},
		builtin{"Bouguerra", func(p Params) (float64, string, error) {
			lambda := 1 / p.MTBF
			if p.Work > 0 {
				s, err := BouguerraExponential(lambda, p.Work, p.Checkpoint, p.Restart)
				if err != nil {
					return math.NaN(), "", err
				}
				return s.Interval, fmt.Sprintf("k = %d segments of W (k* = %.4g), cost C + R", s.Count, s.KStar), nil
			}
			v, err := BouguerraInterval(Exponential{Rate: lambda}, p.Checkpoint, p.Restart)
			return v, "continuous optimum I*, cost C + R", err
		}},
		builtin{"Volpex", func(p Params) (float64, string, error) {
			v := Volpex{Processes: max(p.Processes, 1), Replicas: max(p.Replicas, 1), Save: p.Checkpoint}
			v.Rate = 1 / (float64(v.Processes) * p.MTBF)
			tc, err := v.Interval()
			return tc, fmt.Sprintf("n = %d, r = %d, node rate 1/(n·M)", v.Processes, v.Replicas), err
		}},
		builtin{"Fialho coordinated", func(p Params) (float64, string, error) {
			f := FialhoCoordinated{MTTI: p.MTBF, Checkpoint: p.Checkpoint, Load: p.Restart, Detection: p.Detection}
			v, err := f.Interval()
			return v, "t_l = R, t_d = Detection", err
		}},
		builtin{"Fialho uncoordinated", func(p Params) (float64, string, error) {
			phi := p.Phi
			if phi == 0 {
				phi = 1
			}
			f := FialhoUncoordinated{
				MTTI: p.MTBF, Checkpoint: p.Checkpoint, Load: p.Restart, Detection: p.Detection,
				LogReplay: p.LogReplay, LogDelay: p.LogDelay, Phi: phi,
			}
			v, err := f.Interval()
			return v, fmt.Sprintf("φ = %.4g", phi), err
		}},
	}
}

// Compare returns the interval each model picks for p, in the order
// given; with no models it uses Models(). A model that does not apply
// (for instance Daly's low order with C ≥ 2M) reports it in Choice.Err;
// the returned error is for invalid p only.
func Compare(p Params, models ...Model) ([]Choice, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if len(models) == 0 {
		models = Models()
	}
	out := make([]Choice, len(models))
	for i, m := range models {
		c := Choice{Name: m.Name()}
		if b, ok := m.(builtin); ok {
			c.Interval, c.Note, c.Err = b.choose(p)
		} else {
			c.Interval, c.Err = m.Interval(p)
		}
		if c.Err != nil {
			c.Interval = math.NaN()
		}
		out[i] = c
	}
	return out, nil
}
