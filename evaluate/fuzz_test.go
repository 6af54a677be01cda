package evaluate

import (
	"fmt"
	"testing"

	"github.com/ckpt-markov/markov/scenario"
	"github.com/ckpt-markov/markov/sim"
)

// FuzzParse feeds arbitrary strings to the parsers of the names a command
// line gives: they must not panic, and whatever they accept must read
// back from its canonical name.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"", "greedy", "pb", "ab", "availability", "moldable:4", "vector:1,2,2", "vector:",
		"most-reliable", "random", "lowest-index", "first", "Greedy ", "moldable:x", "used", "all", "mixed"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if p, err := scenario.ParsePolicy(s); err == nil {
			q, err := scenario.ParsePolicy(p.String())
			if err != nil || !q.Equal(p) {
				t.Errorf("policy %q reads as %q, which reads as %q (%v)", s, p, q, err)
			}
		}
		if r, err := sim.ParseRule(s); err == nil && s != "" && fmt.Sprint(r) != s {
			t.Errorf("rule %q reads as %v", s, r)
		}
		if v, err := ParseSubset(s); err == nil && v.String() != s {
			t.Errorf("subset %q reads as %v", s, v)
		}
		if v, err := ParseRates(s); err == nil && (v.String() != s || v.validate() != nil) {
			t.Errorf("rates %q reads as %v", s, v)
		}
	})
}
