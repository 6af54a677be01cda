//go:build !amd64 || purego

package batchchain

// mulAdd adds x[i]·r[i] to dst[i] for i < len(r) (len(dst) and len(x) at
// least len(r); dst and x do not overlap): mulAddGo.
func mulAdd(dst, x, r []float64) { mulAddGo(dst, x, r) }

// mulSet sets dst[i] = x[i]·r[i] for i < len(r) (len(dst) and len(x) at
// least len(r); dst and x do not overlap): mulSetGo.
func mulSet(dst, x, r []float64) { mulSetGo(dst, x, r) }
