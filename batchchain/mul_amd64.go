//go:build amd64 && !purego

package batchchain

import "golang.org/x/sys/cpu"

// useAVX chooses the AVX kernels (four elements per instruction) over the
// SSE2 ones (two), where the processor and the system support AVX.
var useAVX = cpu.X86.HasAVX

// mulAdd adds x[i]·r[i] to dst[i] for i < len(r) (len(dst) and len(x) at
// least len(r), else it panics; dst and x do not overlap): mulAddGo's
// bits, in vector instructions (a product then a sum, never fused).
func mulAdd(dst, x, r []float64) {
	n := len(r)
	if useAVX {
		mulAddAVX(dst[:n], x[:n], r)
		return
	}
	mulAddSSE2(dst[:n], x[:n], r)
}

// mulSet sets dst[i] = x[i]·r[i] for i < len(r) (len(dst) and len(x) at
// least len(r), else it panics; dst and x do not overlap): mulSetGo's
// bits, in vector instructions.
func mulSet(dst, x, r []float64) {
	n := len(r)
	if useAVX {
		mulSetAVX(dst[:n], x[:n], r)
		return
	}
	mulSetSSE2(dst[:n], x[:n], r)
}

// The kernels of mul_amd64.s, for len(dst), len(x) ≥ len(r), unchecked.

//go:noescape
func mulAddSSE2(dst, x, r []float64)

//go:noescape
func mulSetSSE2(dst, x, r []float64)

//go:noescape
func mulAddAVX(dst, x, r []float64)

//go:noescape
func mulSetAVX(dst, x, r []float64)
