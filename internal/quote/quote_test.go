package quote

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestValue checks the bound (the output of Value never exceeds
// MaxBytes of the value plus its quoting and the length) and the cut at a
// character boundary, against strconv.Quote for short values.
func TestValue(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", `""`},
		{"90m", `"90m"`},
		{strings.Repeat("1", 40), `"` + strings.Repeat("1", 40) + `"`},
		{strings.Repeat("1", 41), `"` + strings.Repeat("1", 40) + `"… (41 bytes)`},
		{strings.Repeat("1", 1e8), `"` + strings.Repeat("1", 40) + `"… (100000000 bytes)`},
		// 'é' is 2 bytes: 39 'a' then 'é' straddles byte 40.
		{strings.Repeat("a", 39) + "éé", `"` + strings.Repeat("a", 39) + `"… (43 bytes)`},
	} {
		if got := Value(tc.in); got != tc.want {
			t.Errorf("Value(%.50q) = %s, want %s", tc.in, got, tc.want)
		}
		if got := Bare(tc.in); len(got) > MaxBytes+30 || !utf8.ValidString(got) {
			t.Errorf("Bare(%.50q) = %s: longer than the bound or cut inside a character", tc.in, got)
		}
	}
}
