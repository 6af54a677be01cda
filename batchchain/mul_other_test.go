//go:build !amd64 || purego

package batchchain

// archKernels returns no kernel: mulAdd and mulSet are the pure Go ones.
func archKernels() []kernelCase { return nil }
