//go:build !unix

package bench_test

import "time"

// cpuTime is not measured on this system: it returns 0, and the cpu_s
// metric of the benchmarks reads 0.
func cpuTime() time.Duration { return 0 }
