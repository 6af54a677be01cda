package scenario

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
)

// checkNumber compares number with its definition: the grammar of
// jsonNumberEnd, then strconv.ParseFloat, bit for bit.
func checkNumber(t *testing.T, in string) {
	t.Helper()
	b := []byte(in)
	x, end, ok := number(b, in, 0)
	wantEnd := jsonNumberEnd(b, 0)
	want, err := strconv.ParseFloat(in[:wantEnd], 64)
	wantOK := wantEnd > 0 && err == nil
	if ok != wantOK || ok && (end != wantEnd || math.Float64bits(x) != math.Float64bits(want)) {
		t.Fatalf("number(%q) = %v, end %d, ok %v; want %v, end %d, ok %v", in, x, end, ok, want, wantEnd, wantOK)
	}
}

// TestNumber checks the one-pass conversion on the edges of its fast path
// (2⁵³ in the digits, 10^±22; values from the IEEE 754 format) and on
// random numbers of every length, against strconv.ParseFloat.
func TestNumber(t *testing.T) {
	for _, in := range []string{"0", "-0", "0.0", "-0.0e5", "1", "99.19", "17.21", "1e22", "1e23", "1e-22", "1e-23",
		"9007199254740992", "9007199254740993", "9007199254740992e22", "9007199254740993e-22", "0.000000000000000000001",
		"1234567890123456789", "12345678901234567890", "1.7976931348623157e308", "1e400", "4.9e-324", "1e-400",
		"01", "1.", ".5", "-", "1e", "1e+", "2.5e+3x", "1E5", "123456789012345678901234567890e-10", "1e100000000000"} {
		checkNumber(t, in)
	}
	rng := rand.New(rand.NewPCG(1, 2)) // seeded: reproducible
	for range 100_000 {
		var s string
		switch rng.IntN(3) {
		case 0:
			s = strconv.FormatFloat(rng.Float64()*math.Pow(10, float64(rng.IntN(60)-30)), 'g', -1, 64)
		case 1:
			s = strconv.FormatFloat(math.Float64frombits(rng.Uint64()), 'e', rng.IntN(20), 64)
		default:
			s = strconv.FormatUint(rng.Uint64()>>rng.IntN(64), 10) + "." + strconv.FormatUint(rng.Uint64()>>rng.IntN(64), 10)
		}
		checkNumber(t, s)
	}
}

// FuzzNumber checks the one-pass conversion against strconv.ParseFloat on
// any input.
func FuzzNumber(f *testing.F) {
	for _, s := range []string{"0", "-1.5e-7", "99.19", "9007199254740993", "1e23", "0.1e-22"} {
		f.Add(s)
	}
	f.Fuzz(checkNumber)
}
