//go:build amd64 && !purego

package batchchain

import (
	"fmt"
	"testing"

	"github.com/ckpt-markov/markov/internal/cputime"
	"golang.org/x/sys/cpu"
)

// archKernels returns the SSE2 kernels, and the AVX ones where the
// processor supports AVX, with the pure Go kernels as references.
func archKernels() []kernelCase {
	cs := []kernelCase{
		{"mulAddSSE2", mulAddSSE2, mulAddGo, false},
		{"mulSetSSE2", mulSetSSE2, mulSetGo, false},
	}
	if cpu.X86.HasAVX {
		cs = append(cs,
			kernelCase{"mulAddAVX", mulAddAVX, mulAddGo, false},
			kernelCase{"mulSetAVX", mulSetAVX, mulSetGo, false},
			kernelCase{"mulAddAVX without the tail", noTail(mulAddAVX), mulAddGo, true},
		)
	}
	return cs
}

// BenchmarkMulKernels compares the kernels of amd64 as BenchmarkMulAdd
// does: one mulAdd and one mulSet per operation.
func BenchmarkMulKernels(b *testing.B) {
	kernels := []struct {
		name        string
		add, set    kernel
		unsupported bool
	}{
		{"go", mulAddGo, mulSetGo, false},
		{"sse2", mulAddSSE2, mulSetSSE2, false},
		{"avx", mulAddAVX, mulSetAVX, !cpu.X86.HasAVX},
	}
	for _, n := range []int{77, 300} {
		dst, x, r := make([]float64, n), make([]float64, n), make([]float64, n)
		for i := range r {
			x[i], r[i] = 1/float64(i+1), 1e-3
		}
		for _, k := range kernels {
			if k.unsupported {
				continue
			}
			b.Run(fmt.Sprintf("%s/n=%d", k.name, n), func(b *testing.B) {
				c0 := cputime.Used()
				for b.Loop() {
					k.add(dst, x, r)
					k.set(dst[1:], x, r[:n-1])
				}
				b.ReportMetric(float64(cputime.Used()-c0)/float64(b.N), "cpu-ns/op")
			})
		}
	}
}
