package trace

import (
	"errors"
	"strings"
	"testing"
)

// TestGenericTimeLimit: a header claiming a window end 1e300 s away used to
// be read as a window in which every node is up (evaluate then printed
// "0.0 % efficiency" with exit 0); it is rejected, naming the line and key.
func TestGenericTimeLimit(t *testing.T) {
	for _, tc := range []struct{ in, column string }{
		{"# nodes=2 start=0 end=1e300\n0,1,2\n", "end"},
		{"# nodes=2 start=-1e12 end=100\n", "start"},
		{"# nodes=2 start=0 end=100\n0,1,2e11\n", "down_end"},
	} {
		_, err := ReadGeneric(strings.NewReader(tc.in))
		var pe *ParseError
		if !errors.As(err, &pe) || pe.Column != tc.column || !strings.Contains(err.Error(), "limit") {
			t.Errorf("%q: error %v, want a *ParseError on column %q naming the limit", tc.in, err, tc.column)
		}
	}
	if _, err := ReadGeneric(strings.NewReader("# nodes=1 start=1.6e9 end=1.7e9\n0,1.65e9,1.651e9\n")); err != nil {
		t.Errorf("Unix times: %v", err)
	}
}

// TestLineLimit: a line longer than MaxLineBytes is an error naming its
// line, in both formats, without buffering the rest of the input.
func TestLineLimit(t *testing.T) {
	long := strings.Repeat("x", MaxLineBytes+1)
	_, err := ReadLANL(strings.NewReader(lanlHead+long+"\n"), 1)
	var pe *ParseError
	if !errors.As(err, &pe) || pe.Line != 2 || !strings.Contains(err.Error(), "limit") {
		t.Errorf("LANL: error %v, want a *ParseError on line 2 naming the limit", err)
	}
	_, err = ReadGeneric(strings.NewReader("# nodes=1 start=0 end=1\n" + long))
	if !errors.As(err, &pe) || pe.Line != 2 {
		t.Errorf("generic: error %v, want a *ParseError on line 2", err)
	}
}
