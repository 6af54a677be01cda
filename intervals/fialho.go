package intervals

import (
	"math"
)

// FialhoCoordinated is Fialho's model of coordinated checkpointing
// (Fialho 2011, section 3.1). All times are in the same unit.
type FialhoCoordinated struct {
	// MTTI is the mean time to interrupt α > 0.
	MTTI float64
	// Checkpoint is the checkpoint time t_c > 0.
	Checkpoint float64
	// Load is the checkpoint load (restart) time t_l ≥ 0.
	Load float64
	// Detection is the failure detection latency t_d ≥ 0.
	Detection float64
}

// Validate reports whether f describes a valid model with a positive
// optimal interval (α > t_d + t_l).
func (f FialhoCoordinated) Validate() error {
	const fn = "FialhoCoordinated"
	if err := firstError(
		checkPositive(fn, "MTTI", f.MTTI),
		checkPositive(fn, "Checkpoint", f.Checkpoint),
		checkNonNegative(fn, "Load", f.Load),
		checkNonNegative(fn, "Detection", f.Detection),
	); err != nil {
		return err
	}
	if f.MTTI <= f.Detection+f.Load {
		return paramError(fn, "MTTI", f.MTTI, "> Detection + Load (no positive interval otherwise)")
	}
	return nil
}

// Interval returns the interval that minimises Overhead (Fialho, eq. 3.7):
//
//	σ = sqrt(t_c² − 2·t_c·t_d − 2·t_c·t_l + 2·α·t_c) − t_c.
func (f FialhoCoordinated) Interval() (float64, error) {
	if err := f.Validate(); err != nil {
		return math.NaN(), err
	}
	tc := f.Checkpoint
	return math.Sqrt(tc*(tc+2*(f.MTTI-f.Detection-f.Load))) - tc, nil
}

// Overhead returns the fault-tolerance overhead per interrupt for interval
// sigma (Fialho, eq. 3.6):
//
//	O = (T_r·σ + α·t_c)/(σ + t_c),   T_r = t_d + t_l + σ/2.
func (f FialhoCoordinated) Overhead(sigma float64) (float64, error) {
	if err := f.Validate(); err != nil {
		return math.NaN(), err
	}
	if err := checkPositive("FialhoCoordinated.Overhead", "sigma", sigma); err != nil {
		return math.NaN(), err
	}
	tr := f.Detection + f.Load + sigma/2
	return (tr*sigma + f.MTTI*f.Checkpoint) / (sigma + f.Checkpoint), nil
}

// RunTime returns the estimated run time T_s·(1 + O/α) of an application
// that runs ts without faults or fault tolerance (Fialho, eq. 3.10).
func (f FialhoCoordinated) RunTime(sigma, ts float64) (float64, error) {
	if err := checkNonNegative("FialhoCoordinated.RunTime", "ts", ts); err != nil {
		return math.NaN(), err
	}
	o, err := f.Overhead(sigma)
	if err != nil {
		return math.NaN(), err
	}
	return ts * (1 + o/f.MTTI), nil
}

// FialhoUncoordinated is Fialho's model of uncoordinated checkpointing with
// pessimistic message logging (Fialho 2011, section 3.3): a failed process
// rolls back alone and only a fraction φ of the application waits for it.
type FialhoUncoordinated struct {
	// MTTI is the mean time to interrupt α > 0.
	MTTI float64
	// Checkpoint is the checkpoint time t_c > 0.
	Checkpoint float64
	// Load is the checkpoint load time t_l ≥ 0.
	Load float64
	// Detection is the failure detection latency t_d ≥ 0.
	Detection float64
	// LogReplay is the time Δ_lr ≥ 0 to process the message log after a
	// fault.
	LogReplay float64
	// LogDelay is the time Δ_lp ≥ 0 added to message delivery by logging.
	LogDelay float64
	// Phi is the inter-process dependency factor φ ∈ (0, 1] (see
	// CommGraph).
	Phi float64
}

// Validate reports whether f describes a valid model with a positive
// optimal interval.
func (f FialhoUncoordinated) Validate() error {
	const fn = "FialhoUncoordinated"
	if err := firstError(
		checkPositive(fn, "MTTI", f.MTTI),
		checkPositive(fn, "Checkpoint", f.Checkpoint),
		checkNonNegative(fn, "Load", f.Load),
		checkNonNegative(fn, "Detection", f.Detection),
		checkNonNegative(fn, "LogReplay", f.LogReplay),
		checkNonNegative(fn, "LogDelay", f.LogDelay),
	); err != nil {
		return err
	}
	if !(f.Phi > 0 && f.Phi <= 1) {
		return paramError(fn, "Phi", f.Phi, "in (0, 1]")
	}
	// σ > 0 ⇔ t_c + 2(α − t_d − t_l − Δ_lr) > φ·t_c.
	a := f.Detection + f.Load + f.LogReplay
	if f.Checkpoint+2*(f.MTTI-a) <= f.Phi*f.Checkpoint {
		return paramError(fn, "MTTI", f.MTTI, "> Detection + Load + LogReplay − (1−Phi)·Checkpoint/2 (no positive interval otherwise)")
	}
	return nil
}

// Interval returns the interval that minimises Overhead (Fialho, eq. 3.15):
//
//	σ = sqrt(φ·t_c·(t_c + 2α − 2t_d − 2t_l − 2Δ_lr))/φ − t_c.
func (f FialhoUncoordinated) Interval() (float64, error) {
	if err := f.Validate(); err != nil {
		return math.NaN(), err
	}
	tc := f.Checkpoint
	a := f.Detection + f.Load + f.LogReplay
	return math.Sqrt(f.Phi*tc*(tc+2*(f.MTTI-a)))/f.Phi - tc, nil
}

// Overhead returns the fault-tolerance overhead per interrupt for interval
// sigma (Fialho, eqs. 3.11–3.14):
//
//	O = φ·T_r + t_c·(α − T_r)/(σ + t_c) + Δ_lp,   T_r = t_d + t_l + σ/2 + Δ_lr.
func (f FialhoUncoordinated) Overhead(sigma float64) (float64, error) {
	if err := f.Validate(); err != nil {
		return math.NaN(), err
	}
	if err := checkPositive("FialhoUncoordinated.Overhead", "sigma", sigma); err != nil {
		return math.NaN(), err
	}
	tr := f.Detection + f.Load + sigma/2 + f.LogReplay
	return f.Phi*tr + f.Checkpoint*(f.MTTI-tr)/(sigma+f.Checkpoint) + f.LogDelay, nil
}

// RunTime returns the estimated run time T_p·(1 + O/α) of a parallel
// application that runs tp without faults or fault tolerance (Fialho,
// eqs. 3.19–3.20).
func (f FialhoUncoordinated) RunTime(sigma, tp float64) (float64, error) {
	if err := checkNonNegative("FialhoUncoordinated.RunTime", "tp", tp); err != nil {
		return math.NaN(), err
	}
	o, err := f.Overhead(sigma)
	if err != nil {
		return math.NaN(), err
	}
	return tp * (1 + o/f.MTTI), nil
}
