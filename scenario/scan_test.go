package scenario

import (
	"encoding/json"
	"math"
	"testing"
)

// FuzzScanNumbers holds the one-pass number-list scanner against
// encoding/json, an independent decoder: whenever the scanner accepts an
// input, encoding/json decodes it to the same values bit for bit, and
// whenever encoding/json decodes a null-free list of numbers the scanner
// accepts it too (so the fast path is never silently skipped).
func FuzzScanNumbers(f *testing.F) {
	for _, s := range []string{
		`[1, 2.5, -3e2, 0, -0, 1E-3, 0.1]`, `[]`, ` [ ] `, `[1,]`, `[01]`, `[1.]`, `[.5]`, `[+1]`,
		`[1e400]`, `[null]`, `[1, null]`, `["1"]`, `[[1]]`, `[1 2]`, `[inf]`, `[0x10]`, `[1_0]`,
		`[1e]`, `[-]`, `{"a": 1}`, `1`, `[1] x`, "[1,\n2,\t3]", `[4.9e-324, 1.7976931348623157e308]`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		got, ok := scanNumbers([]byte(in), 1<<20)
		if short, okShort := scanNumbers([]byte(in), 1); okShort && len(short) > 1 {
			t.Fatalf("scanNumbers(%q, 1) = %v: more than n = 1 entries", in, short)
		}
		var want []float64
		err := json.Unmarshal([]byte(in), &want)
		var raw []json.RawMessage
		nullFree := json.Unmarshal([]byte(in), &raw) == nil
		for _, r := range raw {
			if string(r) == "null" {
				nullFree = false
			}
		}
		switch {
		case ok && err != nil:
			t.Fatalf("%q: scanner accepted %v, encoding/json: %v", in, got, err)
		case ok && len(got) != len(want):
			t.Fatalf("%q: scanner %v, encoding/json %v", in, got, want)
		case !ok && err == nil && nullFree && want != nil:
			t.Fatalf("%q: encoding/json reads %v, the scanner refused it", in, want)
		}
		for k := range got {
			if math.Float64bits(got[k]) != math.Float64bits(want[k]) {
				t.Fatalf("%q: entry %d: scanner %v, encoding/json %v", in, k, got[k], want[k])
			}
		}
	})
}
