// Package quote quotes a user's value in an error message, at most a few
// dozen characters of it, so that a bad value of any size (a 100 MB
// number in a scenario, a long flag) gives an error line of bounded
// length. It is the one place the toolkit's errors quote what a user
// typed or a file held.
package quote

import (
	"strconv"
	"unicode/utf8"
)

// MaxBytes is the longest value quoted whole; a longer one is cut at a
// character boundary within its first MaxBytes bytes.
const MaxBytes = 40

// Value returns s as a Go-quoted string (strconv.Quote) if it has at most
// MaxBytes bytes, else the quoted prefix, an ellipsis and the length:
// "1111111111111111111111111111111111111111"… (100000000 bytes).
func Value(s string) string {
	if len(s) <= MaxBytes {
		return strconv.Quote(s)
	}
	cut := MaxBytes
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return strconv.Quote(s[:cut]) + "… (" + strconv.Itoa(len(s)) + " bytes)"
}

// Bare is Value without the quotes, for text already in a sentence (the
// value of a JSON number in "found a JSON number 12…").
func Bare(s string) string {
	if len(s) <= MaxBytes {
		return s
	}
	cut := MaxBytes
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "… (" + strconv.Itoa(len(s)) + " bytes)"
}
