//go:build amd64 && !purego

package batchchain

// mulAdd adds x[i]·r[i] to dst[i] for i < len(r) (len(dst) and len(x) at
// least len(r), else it panics; dst and x do not overlap): mulAddGo's
// bits, two elements per SSE2 instruction (MULPD then ADDPD).
func mulAdd(dst, x, r []float64) {
	n := len(r)
	mulAddSSE2(dst[:n], x[:n], r)
}

// mulSet sets dst[i] = x[i]·r[i] for i < len(r) (len(dst) and len(x) at
// least len(r), else it panics; dst and x do not overlap): mulSetGo's
// bits, two elements per SSE2 instruction (MULPD).
func mulSet(dst, x, r []float64) {
	n := len(r)
	mulSetSSE2(dst[:n], x[:n], r)
}

// mulAddSSE2 is mulAddGo for len(dst), len(x) ≥ len(r), unchecked
// (mul_amd64.s).
//
//go:noescape
func mulAddSSE2(dst, x, r []float64)

// mulSetSSE2 is mulSetGo for len(dst), len(x) ≥ len(r), unchecked
// (mul_amd64.s).
//
//go:noescape
func mulSetSSE2(dst, x, r []float64)
