//go:build unix

package cputime

import (
	"syscall"
	"time"
)

// Used returns the CPU time (user + system) the process has used so far,
// from getrusage(2); 0 if the call fails.
func Used() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
