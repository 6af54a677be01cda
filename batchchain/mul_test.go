package batchchain

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// kernel is the signature of mulAdd and mulSet.
type kernel func(dst, x, r []float64)

// mulSpecials are the values the kernels must treat as the scalar code
// does: NaNs with distinct payloads (quiet and signalling), ±Inf, ±0,
// subnormals, the extremes of the normal range, and values whose product
// overflows or underflows.
var mulSpecials = []float64{
	math.NaN(),
	math.Float64frombits(0x7ff8_0000_0000_1234),
	math.Float64frombits(0xfff8_0000_0000_0042),
	math.Float64frombits(0x7ff0_0000_0000_0001), // signalling
	math.Inf(1), math.Inf(-1),
	0, math.Copysign(0, -1),
	math.SmallestNonzeroFloat64, -math.SmallestNonzeroFloat64,
	0x1p-1030, -0x1.8p-1040, // subnormal
	0x1p-1022, math.MaxFloat64, -math.MaxFloat64,
	0x1p600, 0x1p-600, 1, -1,
}

// mulValue returns a random operand: a special value with probability
// pSpecial, else a random number with a random sign and an exponent in
// −40..40 (so that products and sums round, and a fused multiply-add
// differs).
func mulValue(rng *rand.Rand, pSpecial float64) float64 {
	if rng.Float64() < pSpecial {
		return mulSpecials[rng.IntN(len(mulSpecials))]
	}
	v := math.Ldexp(1+rng.Float64(), rng.IntN(81)-40)
	if rng.IntN(2) == 0 {
		v = -v
	}
	return v
}

// mulGuard marks the entries of dst that a kernel must not write: an
// ordinary number, so that adding a product to it shows (a NaN would
// absorb it).
const mulGuard = 0x1.23456789abcdep-3

// sameFloatBits reports whether a and b have the same bits, or are both NaN.
// The payload of a NaN is left out: the Go specification does not define
// it, and the compiler's operand order for x·r, which decides it on x86,
// changes with the build (-race, -gcflags=-N and the fuzzer's
// instrumentation reverse it). The sign of a zero or an infinity counts.
func sameFloatBits(a, b float64) bool {
	return math.Float64bits(a) == math.Float64bits(b) || math.IsNaN(a) && math.IsNaN(b)
}

// checkKernel runs got and want on the same random operands, for every
// length 0..maxLen with random offsets 0..7 of dst, x and r in their
// backing arrays (so that every alignment occurs), and returns the first
// element whose bits differ (sameFloatBits), dst's entries outside the range
// included.
func checkKernel(got, want kernel, maxLen int, pSpecial float64, rng *rand.Rand) error {
	const pad = 8
	for n := 0; n <= maxLen; n++ {
		for trial := 0; trial < 4; trial++ {
			od, ox, or := rng.IntN(pad), rng.IntN(pad), rng.IntN(pad)
			x := make([]float64, n+2*pad)
			r := make([]float64, n+2*pad)
			d0 := make([]float64, n+2*pad)
			for i := range x {
				x[i], r[i] = mulValue(rng, pSpecial), mulValue(rng, pSpecial)
				d0[i] = mulGuard
			}
			for i := range n {
				d0[od+i] = mulValue(rng, pSpecial)
			}
			dg, dw := append([]float64(nil), d0...), append([]float64(nil), d0...)
			got(dg[od:od+n+pad], x[ox:ox+n+pad], r[or:or+n])
			want(dw[od:od+n+pad], x[ox:ox+n+pad], r[or:or+n])
			for i := range dg {
				if !sameFloatBits(dg[i], dw[i]) {
					return fmt.Errorf("n=%d offsets %d,%d,%d: dst[%d] = %#x, want %#x",
						n, od, ox, or, i-od, math.Float64bits(dg[i]), math.Float64bits(dw[i]))
				}
			}
		}
	}
	return nil
}

// mulAddFused is mulAddGo with a fused multiply-add (one rounding): a
// wrong kernel that checkKernel must reject.
func mulAddFused(dst, x, r []float64) {
	for i := range r {
		dst[i] = math.FMA(x[i], r[i], dst[i])
	}
}

// noTail returns k run on the largest multiple of 4 of the length only: a
// wrong kernel that drops the tail.
func noTail(k kernel) kernel {
	return func(dst, x, r []float64) { k(dst, x, r[:len(r)&^3]) }
}

// overrun returns k run on one more element than asked: a wrong kernel
// that writes past the end.
func overrun(k kernel) kernel {
	return func(dst, x, r []float64) { k(dst, x, r[:len(r)+1]) }
}

// kernelCase is a kernel to check against a reference: wrong if the
// check must reject it.
type kernelCase struct {
	name      string
	got, want kernel
	wrong     bool
}

// TestMulKernels checks the kernels of the products with K (assembly on
// amd64, pure Go elsewhere or with -tags purego) against the pure Go
// kernels bit for bit, on every length 0..300 at every alignment, with
// ordinary numbers and with a fifth, then all, of the operands special
// (NaN payloads, ±Inf, ±0, subnormals, overflow). The power check: a
// fused multiply-add, a kernel that skips the tail and one that writes
// one element past the end are rejected. archKernels adds each kernel of
// the architecture that the processor runs (on amd64: SSE2, and AVX where
// supported), whichever mulAdd chose.
func TestMulKernels(t *testing.T) {
	rng := rand.New(rand.NewPCG(20, 1))
	cases := []kernelCase{
		{"mulAdd", mulAdd, mulAddGo, false},
		{"mulSet", mulSet, mulSetGo, false},
		{"fused multiply-add", mulAddFused, mulAddGo, true},
		{"mulAdd without the tail", noTail(mulAdd), mulAddGo, true},
		{"mulSet without the tail", noTail(mulSet), mulSetGo, true},
		{"mulAdd past the end", overrun(mulAdd), mulAddGo, true},
		{"mulSet past the end", overrun(mulSet), mulSetGo, true},
	}
	cases = append(cases, archKernels()...)
	for _, c := range cases {
		for _, p := range []float64{0, 0.2, 1} {
			err := checkKernel(c.got, c.want, 300, p, rng)
			switch {
			case c.wrong && err == nil:
				t.Errorf("%s, specials %g: not rejected", c.name, p)
			case !c.wrong && err != nil:
				t.Errorf("%s, specials %g: %v", c.name, p, err)
			}
		}
	}
}

// TestMulKernelsShort checks that a dst or an x shorter than r, with no
// capacity beyond its length, panics rather than writing or reading out
// of bounds.
func TestMulKernelsShort(t *testing.T) {
	for _, k := range []struct {
		name string
		f    kernel
	}{{"mulAdd", mulAdd}, {"mulSet", mulSet}} {
		for _, short := range []string{"dst", "x"} {
			func() {
				defer func() {
					if recover() == nil {
						t.Errorf("%s with a short %s: no panic", k.name, short)
					}
				}()
				dst, x, r := make([]float64, 5), make([]float64, 5), make([]float64, 5)
				if short == "dst" {
					dst = dst[:4:4]
				} else {
					x = x[:4:4]
				}
				k.f(dst, x, r)
			}()
		}
	}
}

// FuzzMulAdd checks mulAdd and mulSet against the pure Go kernels bit for
// bit on operands read from the fuzzer's bytes (8 per float64, three
// interleaved slices) at the offsets it chooses.
func FuzzMulAdd(f *testing.F) {
	seed := func(vs ...float64) []byte {
		b := make([]byte, 0, 8*len(vs))
		for _, v := range vs {
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
		}
		return b
	}
	f.Add(seed(), uint8(0), uint8(0))
	f.Add(seed(1, 2, 3), uint8(0), uint8(0))
	f.Add(seed(mulSpecials...), uint8(1), uint8(2))
	f.Add(seed(0.1, 0.2, 0.3, 0x1p-1030, 3, math.Inf(1), math.Copysign(0, -1),
		math.NaN(), 7, 1e300, 1e300, -1e-300, 5, 6, 7, 8, 9, 10, 11, 12, 13), uint8(3), uint8(1))
	f.Fuzz(func(t *testing.T, data []byte, offD, offX uint8) {
		vals := make([]float64, len(data)/8)
		for i := range vals {
			vals[i] = math.Float64frombits(binary.LittleEndian.Uint64(data[8*i:]))
		}
		n := len(vals) / 3
		od, ox := int(offD%8), int(offX%8)
		x := make([]float64, ox+n)
		r := make([]float64, n)
		d0 := make([]float64, od+n+1)
		for i := range n {
			d0[od+i], x[ox+i], r[i] = vals[3*i], vals[3*i+1], vals[3*i+2]
		}
		d0[od+n] = mulGuard
		for _, k := range []struct {
			name      string
			got, want kernel
		}{{"mulAdd", mulAdd, mulAddGo}, {"mulSet", mulSet, mulSetGo}} {
			dg, dw := append([]float64(nil), d0...), append([]float64(nil), d0...)
			k.got(dg[od:], x[ox:], r)
			k.want(dw[od:], x[ox:], r)
			for i := range dg {
				if !sameFloatBits(dg[i], dw[i]) {
					t.Fatalf("%s n=%d: dst[%d] = %#x, want %#x", k.name, n, i-od,
						math.Float64bits(dg[i]), math.Float64bits(dw[i]))
				}
			}
		}
	})
}

// applyKOneLoop is applyKOne as a loop over the spare counts i that adds
// y_i's moves to their targets (up, stay, then the spare events by size),
// skipping the zero rates: the order that fixes applyKOne's bits. The
// conversions float64(·) round each product, so that the compiler may not
// fuse it with the sum (it does with GOAMD64=v3).
func applyKOneLoop(ws *workspace, next, y []float64, nzLo, nzHi, w int) {
	for i := nzLo; i <= nzHi; i++ {
		yi := y[i]
		next[i] += float64(ws.stay[i] * yi)
		if i+1 < w && ws.upS[i] > 0 {
			next[i+1] += float64(ws.upS[i] * yi)
		}
		for k, d := range ws.downS[i][:min(len(ws.downS[i]), i)] {
			if d > 0 {
				next[i-k-1] += float64(d * yi)
			}
		}
	}
}

// TestApplyKOneBits checks applyKOne (passes over the band) against
// applyKOneLoop bit for bit on random windows: rates with zeros (sizes of
// probability zero, a spare count without an up move), down rates of
// every length, bands anywhere in the window. The power check: the
// passes of the spare events in decreasing size, and a pass left out,
// are rejected.
func TestApplyKOneBits(t *testing.T) {
	rng := rand.New(rand.NewPCG(20, 2))
	reversed := func(ws *workspace, next, y []float64, nzLo, nzHi, w int) {
		slices.Reverse(ws.dnUsed)
		defer slices.Reverse(ws.dnUsed)
		ws.applyKOne(next, y, nzLo, nzHi, w)
	}
	dropped := func(ws *workspace, next, y []float64, nzLo, nzHi, w int) {
		used := ws.dnUsed
		ws.dnUsed = used[:len(used)-1]
		defer func() { ws.dnUsed = used }()
		ws.applyKOne(next, y, nzLo, nzHi, w)
	}
	type applyFunc func(ws *workspace, next, y []float64, nzLo, nzHi, w int)
	for _, c := range []struct {
		name  string
		f     applyFunc
		wrong bool
	}{
		{"applyKOne", (*workspace).applyKOne, false},
		{"sizes reversed", reversed, true},
		{"a size left out", dropped, true},
	} {
		mismatches := 0
		for trial := range 300 {
			w, kmax := 1+rng.IntN(200), 1+rng.IntN(16)
			ws := new(workspace)
			ws.stay, ws.upS = make([]float64, w), make([]float64, w)
			ws.downS = make([][]float64, w)
			zeroSize := rng.IntN(kmax)
			for i := range w {
				ws.stay[i] = rng.Float64()
				if rng.IntN(8) > 0 {
					ws.upS[i] = rng.Float64() / 4
				}
				d := make([]float64, rng.IntN(kmax+1))
				for k := range d {
					if k != zeroSize {
						d[k] = rng.Float64() / 16
					}
				}
				ws.downS[i] = d
			}
			ws.downColumns(w)
			nzLo := rng.IntN(w)
			nzHi := nzLo + rng.IntN(w-nzLo)
			y := make([]float64, w)
			for i := nzLo; i <= nzHi; i++ {
				y[i] = math.Ldexp(rng.Float64(), -rng.IntN(30))
			}
			got, want := make([]float64, w), make([]float64, w)
			if len(ws.dnUsed) == 0 {
				continue
			}
			c.f(ws, got, y, nzLo, nzHi, w)
			applyKOneLoop(ws, want, y, nzLo, nzHi, w)
			for j := range w {
				if math.Float64bits(got[j]) != math.Float64bits(want[j]) {
					mismatches++
					if !c.wrong {
						t.Fatalf("%s, trial %d (w=%d, band %d..%d): next[%d] = %v, want %v",
							c.name, trial, w, nzLo, nzHi, j, got[j], want[j])
					}
				}
			}
		}
		if c.wrong && mismatches == 0 {
			t.Errorf("%s: not rejected", c.name)
		}
	}
}
