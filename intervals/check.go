package intervals

import (
	"fmt"
	"math"
)

// paramError reports an invalid argument of function fn.
func paramError(fn, name string, v float64, want string) error {
	return fmt.Errorf("intervals: %s: %s = %v, want %s", fn, name, v, want)
}

// checkPositive requires a finite v > 0.
func checkPositive(fn, name string, v float64) error {
	if !(v > 0) || math.IsInf(v, 1) {
		return paramError(fn, name, v, "a finite value > 0")
	}
	return nil
}

// checkNonNegative requires a finite v ≥ 0.
func checkNonNegative(fn, name string, v float64) error {
	if !nonNegative(v) {
		return paramError(fn, name, v, "a finite value ≥ 0")
	}
	return nil
}

// nonNegative reports whether v is finite and ≥ 0.
func nonNegative(v float64) bool { return v >= 0 && !math.IsInf(v, 1) }

// firstError returns the first non-nil error.
func firstError(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
