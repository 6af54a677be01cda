package scenario

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/ckpt-markov/markov/internal/quote"
)

// Units ParseDuration accepts beyond those of time.ParseDuration.
const (
	day  = 86400.0
	week = 7 * day
	year = 365 * day
)

// ParseDuration reads a duration in seconds as a person types it: a plain
// number of seconds ("3600"), or one or more numbers each followed by a
// unit, summed: ms, s, m (minute), h, d (day), w (week) or y (365-day
// year), as in "90m", "17.5h", "1h30m", "100d", "1d12h" or "25y". Go's
// other duration units ("us", "ns") are read too. The result must be
// finite and non-negative.
func ParseDuration(s string) (float64, error) {
	t := strings.TrimSpace(s)
	if t == "" {
		return 0, fmt.Errorf("empty duration")
	}
	if x, err := strconv.ParseFloat(t, 64); err == nil {
		return checkDuration(s, x)
	}
	// Compound forms with any units ("1d12h"), read in float64.
	if x, ok := sumUnits(t); ok {
		return checkDuration(s, x)
	}
	// Single units with an exponent or a sign ("1e2d", "-5m") are read
	// here so that large values do not overflow time.Duration.
	for _, u := range durationUnits {
		unit, scale := u.unit, u.scale
		if num, ok := strings.CutSuffix(t, unit); ok {
			x, err := strconv.ParseFloat(num, 64)
			if err == nil {
				return checkDuration(s, x*scale)
			}
			if scale >= day {
				// time.ParseDuration knows no days, weeks or years.
				return 0, fmt.Errorf("duration %s: %s is not a number", quote.Value(s), quote.Value(num))
			}
		}
	}
	d, err := time.ParseDuration(t)
	if err != nil {
		return 0, fmt.Errorf("duration %s: want seconds or a number with a unit (s, m, h, d, w, y), or several, as in 1d12h", quote.Value(s))
	}
	return checkDuration(s, d.Seconds())
}

// durationUnits are the units sumUnits reads, "ms" before "m".
var durationUnits = []struct {
	unit  string
	scale float64
}{{"ms", 1e-3}, {"s", 1}, {"m", 60}, {"h", 3600}, {"d", day}, {"w", week}, {"y", year}}

// sumUnits reads t as one or more unsigned numbers each followed by a unit
// of durationUnits and returns their sum in seconds.
func sumUnits(t string) (float64, bool) {
	total, parts := 0.0, 0
	for t != "" {
		i := 0
		for i < len(t) && (t[i] >= '0' && t[i] <= '9' || t[i] == '.') {
			i++
		}
		if i == 0 {
			return 0, false
		}
		x, err := strconv.ParseFloat(t[:i], 64)
		if err != nil {
			return 0, false
		}
		t = t[i:]
		matched := false
		for _, u := range durationUnits {
			if rest, ok := strings.CutPrefix(t, u.unit); ok && (rest == "" || rest[0] == '.' || rest[0] >= '0' && rest[0] <= '9') {
				total += x * u.scale
				t, matched = rest, true
				break
			}
		}
		if !matched {
			return 0, false
		}
		parts++
	}
	return total, parts > 0
}

func checkDuration(s string, x float64) (float64, error) {
	if math.IsNaN(x) || math.IsInf(x, 0) || x < 0 {
		return 0, fmt.Errorf("duration %s: want a finite number ≥ 0", quote.Value(s))
	}
	return x, nil
}

// FormatDuration writes seconds in the largest unit that keeps the value
// at or above one, with four significant digits: "1.5h", "100d", "42s".
func FormatDuration(sec float64) string {
	for _, u := range []struct {
		name  string
		scale float64
	}{{"y", year}, {"d", day}, {"h", 3600}, {"m", 60}} {
		if math.Abs(sec) >= u.scale {
			return strconv.FormatFloat(sec/u.scale, 'g', 4, 64) + u.name
		}
	}
	return strconv.FormatFloat(sec, 'g', 4, 64) + "s"
}
