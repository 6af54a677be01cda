package batchchain

// The kernels of the products with K: mulAdd and mulSet (mul_amd64.go,
// mul_other.go) are mulAddGo and mulSetGo, with the same bits, in
// assembly on amd64 unless built with the purego tag. Each element is one
// rounded product, then for mulAdd one rounded sum, never a fused
// multiply-add; elementwise operations do not depend on their order, so
// vector lanes give the scalar code's bits (TestMulKernels).

// mulAddGo adds x[i]·r[i] to dst[i] for i < len(r) (len(dst) and len(x)
// at least len(r)), four at a time: the product x[i]·r[i] rounded, then
// the sum with dst[i] rounded. The conversions float64(·) round each
// product: the Go specification lets the compiler fuse x·r + d into one
// rounding otherwise, and it may with GOAMD64=v3.
func mulAddGo(dst, x, r []float64) {
	n := len(r)
	dst, x = dst[:n], x[:n]
	i := 0
	for ; i+4 <= n; i += 4 {
		d, xs, rs := dst[i:i+4:i+4], x[i:i+4:i+4], r[i:i+4:i+4]
		d[0] += float64(xs[0] * rs[0])
		d[1] += float64(xs[1] * rs[1])
		d[2] += float64(xs[2] * rs[2])
		d[3] += float64(xs[3] * rs[3])
	}
	for ; i < n; i++ {
		dst[i] += float64(x[i] * r[i])
	}
}

// mulSetGo sets dst[i] = x[i]·r[i] for i < len(r) (len(dst) and len(x) at
// least len(r)): mulAddGo on a zero dst, the same bits.
func mulSetGo(dst, x, r []float64) {
	n := len(r)
	dst, x = dst[:n], x[:n]
	for i, ri := range r {
		dst[i] = x[i] * ri
	}
}
