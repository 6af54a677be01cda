package cli

import "testing"

// TestProcessorsNoun: "1 processor", never "1 processors" (issue 24's
// output drift).
func TestProcessorsNoun(t *testing.T) {
	for n, want := range map[int]string{1: "1 processor", 2: "2 processors", 512: "512 processors"} {
		if got := processors(n); got != want {
			t.Errorf("processors(%d) = %q, want %q", n, got, want)
		}
	}
}
