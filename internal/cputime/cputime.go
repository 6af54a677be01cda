// Package cputime measures the CPU time of the process, user and system:
// the machines that run the benchmarks are shared, so they report it
// beside the wall time (BENCHMARKS.md).
package cputime
