package scenario

import (
	"fmt"
	"math"
)

// SameScenario returns "" when a and b are equal field for field, floats
// compared bit for bit (so 0 and -0 differ), and else the first
// difference.
func SameScenario(a, b *Scenario) string {
	if d := sameLevels(a, b); d != "" {
		return d
	}
	if d := sameFloats("application.work_rate", a.Application.WorkRate, b.Application.WorkRate); d != "" {
		return d
	}
	if d := sameFloats("application.checkpoint_latency", a.Application.Latency, b.Application.Latency); d != "" {
		return d
	}
	if d := sameFloats("application.checkpoint_overhead", a.Application.Overhead, b.Application.Overhead); d != "" {
		return d
	}
	if a.Application.Replicas != b.Application.Replicas {
		return fmt.Sprintf("application.replicas: %d, %d", a.Application.Replicas, b.Application.Replicas)
	}
	ra, rb := a.Application.Recovery, b.Application.Recovery
	if d := sameFloats("recovery.byNew", ra.byNew, rb.byNew); d != "" {
		return d
	}
	if len(ra.matrix) != len(rb.matrix) || (ra.matrix == nil) != (rb.matrix == nil) || ra.rows != rb.rows || (ra.linear == nil) != (rb.linear == nil) {
		return fmt.Sprintf("recovery: %d/%d matrix rows, %d/%d collapsed rows, linear %v/%v", len(ra.matrix), len(rb.matrix), ra.rows, rb.rows, ra.linear, rb.linear)
	}
	for p := range ra.matrix {
		if d := sameFloats(fmt.Sprintf("recovery[%d]", p), ra.matrix[p], rb.matrix[p]); d != "" {
			return d
		}
	}
	if ra.linear != nil && *ra.linear != *rb.linear {
		return fmt.Sprintf("recovery: %v, %v", ra.linear, rb.linear)
	}
	if a.System.Processors != b.System.Processors || a.System.MTTF != b.System.MTTF || a.System.MTTR != b.System.MTTR ||
		(a.System.FailureEvents == nil) != (b.System.FailureEvents == nil) {
		return fmt.Sprintf("system: %+v, %+v", a.System, b.System)
	}
	if a.System.FailureEvents != nil {
		if d := sameFloats("failure_events.sizes", a.System.FailureEvents.Sizes, b.System.FailureEvents.Sizes); d != "" {
			return d
		}
	}
	if !a.Policy.Equal(b.Policy) || a.Policy.Processors != b.Policy.Processors || a.Reconfigure != b.Reconfigure {
		return fmt.Sprintf("policy %v/%v, reconfigure %v/%v", a.Policy, b.Policy, a.Reconfigure, b.Reconfigure)
	}
	if len(a.Reschedule) != len(b.Reschedule) {
		return "reschedule lengths differ"
	}
	for i := range a.Reschedule {
		if a.Reschedule[i] != b.Reschedule[i] {
			return fmt.Sprintf("r(%d): %d, %d", i+1, a.Reschedule[i], b.Reschedule[i])
		}
	}
	return ""
}

func sameFloats(field string, a, b []float64) string {
	if len(a) != len(b) || (a == nil) != (b == nil) {
		return fmt.Sprintf("%s: %d and %d entries (nil %v, %v)", field, len(a), len(b), a == nil, b == nil)
	}
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return fmt.Sprintf("%s[%d]: %v and %v", field, i, a[i], b[i])
		}
	}
	return ""
}

// sameLevels compares the multi-level fields (levels.go).
func sameLevels(a, b *Scenario) string {
	fa, fb := a.System.FailureSeverity, b.System.FailureSeverity
	if (fa == nil) != (fb == nil) {
		return "failure_severity given in one only"
	}
	if fa != nil {
		if d := sameFloats("failure_severity", fa.Shares, fb.Shares); d != "" {
			return d
		}
	}
	if len(a.Application.Levels) != len(b.Application.Levels) || a.Application.NoCheckpointAfterRecovery != b.Application.NoCheckpointAfterRecovery {
		return "checkpoint levels or checkpoint_after_recovery differ"
	}
	for i := range a.Application.Levels {
		la, lb := a.Application.Levels[i], b.Application.Levels[i]
		if d := sameFloats(fmt.Sprintf("levels[%d].latency", i), la.Latency, lb.Latency) + sameFloats(fmt.Sprintf("levels[%d].overhead", i), la.Overhead, lb.Overhead); d != "" {
			return d
		}
		if la.Recovery.Cost(1, 1) != lb.Recovery.Cost(1, 1) || la.Recovery.DependsOnOld() != lb.Recovery.DependsOnOld() {
			return fmt.Sprintf("levels[%d].recovery differ", i)
		}
	}
	if (a.CheckpointPattern == nil) != (b.CheckpointPattern == nil) || fmt.Sprint(a.CheckpointPattern) != fmt.Sprint(b.CheckpointPattern) {
		return fmt.Sprintf("checkpoint_pattern %v/%v", a.CheckpointPattern, b.CheckpointPattern)
	}
	return ""
}
