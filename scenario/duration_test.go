package scenario_test

import (
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/ckpt-markov/markov/scenario"
)

// Seconds per unit, by definition: a day is 86 400 s, a week 7 days, a
// year 365 days.
const (
	minute = 60.0
	hour   = 3600.0
	day    = 86400.0
	week   = 7 * day
	year   = 365 * day
)

var durationCases = []struct {
	in   string
	want float64
}{
	{"0", 0},
	{"3600", 3600},
	{"1.5", 1.5},
	{" 42 ", 42},
	{"1e3", 1000},
	{"+5", 5},
	{"90m", 90 * minute},
	{"17.5h", 17.5 * hour},
	{"1h30m", 90 * minute},
	{"500ms", 0.5},
	{"2m30s", 150},
	{"100d", 100 * day},
	{"1.5d", 1.5 * day},
	{"2w", 2 * week},
	{"25y", 25 * year},
	{"0.5y", 0.5 * year},
	{"1e2d", 100 * day},
	// Compound forms with days, weeks and years: rejected by the old
	// code, which handed every compound form to time.ParseDuration.
	{"1d12h", 1.5 * day},
	{"2w3d", 17 * day},
	{"1y1d", year + day},
	{"1h30m15s", 90*minute + 15},
	{"1.5d6h", 1.75 * day},
}

var durationErrors = []struct{ in, phrase string }{
	{"", "empty"},
	{"   ", "empty"},
	{"-5", "finite number ≥ 0"},
	{"-5m", "finite number ≥ 0"},
	{"-1d", "finite number ≥ 0"},
	{"NaN", "finite number ≥ 0"},
	{"Inf", "finite number ≥ 0"},
	{"-Inf", "finite number ≥ 0"},
	{"1e301y", "finite number ≥ 0"}, // 1e301·31 536 000 overflows to +Inf
	{"d", "is not a number"},
	{"xd", "is not a number"},
	{"5 d", "is not a number"},
	{"forever", "want seconds or a number with a unit"},
	{"5x", "want seconds or a number with a unit"},
	{"1d12", "want seconds or a number with a unit"},
	{"1d-2h", "want seconds or a number with a unit"},
	{"1..5h", "want seconds or a number with a unit"},
	{"1e400", "want seconds or a number with a unit"},
}

func TestParseDuration(t *testing.T) {
	for _, tc := range durationCases {
		got, err := scenario.ParseDuration(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("ParseDuration(%q) = %v, %v, want %v", tc.in, got, err, tc.want)
		}
	}
	for _, tc := range durationErrors {
		got, err := scenario.ParseDuration(tc.in)
		if err == nil || !strings.Contains(err.Error(), tc.phrase) {
			t.Errorf("ParseDuration(%q) = %v, %v, want an error containing %q", tc.in, got, err, tc.phrase)
		}
		if err != nil && strings.TrimSpace(tc.in) != "" && !strings.Contains(err.Error(), strconv.Quote(tc.in)) {
			t.Errorf("ParseDuration(%q): error %q does not quote the input", tc.in, err)
		}
	}
}

func TestFormatDuration(t *testing.T) {
	for _, tc := range []struct {
		sec  float64
		want string
	}{
		{0, "0s"},
		{0.5, "0.5s"},
		{42, "42s"},
		{59, "59s"},
		{60, "1m"},
		{90, "1.5m"},
		{3600, "1h"},
		{5400, "1.5h"},
		{12345.678, "3.429h"}, // 12345.678/3600 = 3.42935…
		{day, "1d"},
		{100 * day, "100d"},
		{364 * day, "364d"},
		{year, "1y"},
		{25 * year, "25y"},
		{-90, "-1.5m"},
	} {
		if got := scenario.FormatDuration(tc.sec); got != tc.want {
			t.Errorf("FormatDuration(%v) = %q, want %q", tc.sec, got, tc.want)
		}
	}
}

// TestFormatDurationRoundTrip checks that ParseDuration reads what
// FormatDuration writes back to within its four significant digits: a
// relative error of at most 5e-4 (half a unit in the fourth digit).
func TestFormatDurationRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for range 2000 {
		x := math.Pow(10, -4+16*rng.Float64()) // log-uniform on [1e-4, 1e12] s
		s := scenario.FormatDuration(x)
		y, err := scenario.ParseDuration(s)
		if err != nil {
			t.Fatalf("FormatDuration(%v) = %q does not parse: %v", x, s, err)
		}
		if math.Abs(y-x) > 5e-4*x*(1+1e-12) {
			t.Errorf("%v → %q → %v: relative error %.3g > 5e-4", x, s, y, math.Abs(y-x)/x)
		}
	}
}

// FuzzParseDuration checks that ParseDuration never panics, that what it
// accepts is finite and non-negative, that plain numbers mean seconds, and
// that FormatDuration of the result reads back within four digits.
func FuzzParseDuration(f *testing.F) {
	for _, tc := range durationCases {
		f.Add(tc.in)
	}
	for _, tc := range durationErrors {
		f.Add(tc.in)
	}
	f.Fuzz(func(t *testing.T, s string) {
		x, err := scenario.ParseDuration(s)
		if err != nil {
			return
		}
		if math.IsNaN(x) || math.IsInf(x, 0) || x < 0 {
			t.Fatalf("ParseDuration(%q) = %v, want finite and ≥ 0", s, x)
		}
		if plain, perr := strconv.ParseFloat(strings.TrimSpace(s), 64); perr == nil && plain != x {
			t.Fatalf("ParseDuration(%q) = %v, want the plain number %v", s, x, plain)
		}
		if x == 0 || x < 1e-4 || x > 1e300 {
			return // FormatDuration writes an exponent for tiny seconds; huge years may round to +Inf
		}
		out := scenario.FormatDuration(x)
		y, err := scenario.ParseDuration(out)
		if err != nil || math.Abs(y-x) > 5e-4*x*(1+1e-12) {
			t.Fatalf("%q → %v → %q → %v, %v", s, x, out, y, err)
		}
	})
}
