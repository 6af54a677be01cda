package sim

import (
	"fmt"
	"slices"
	"testing"
)

// MostReliable ranks by failures before the run (Prior) plus failures in
// it, ties to the lower index; counted by hand for each row.
func TestMostReliablePrior(t *testing.T) {
	for _, tc := range []struct {
		prior, fails []int
		a            int
		want         []int
	}{
		{nil, []int{0, 0, 0, 0}, 2, []int{0, 1}},               // all tied: lowest indices
		{nil, []int{3, 0, 2, 1}, 2, []int{1, 3}},               // fewest in the run
		{[]int{5, 0, 3, 1}, []int{0, 0, 0, 0}, 2, []int{1, 3}}, // fewest before it
		{[]int{5, 0, 3, 1}, []int{0, 4, 0, 0}, 2, []int{3, 2}}, // 5, 4, 3, 1 in all
		{[]int{1, 1, 1, 1}, []int{0, 0, 0, 0}, 4, []int{0, 1, 2, 3}},
	} {
		up := []int{0, 1, 2, 3}
		got := MostReliable{Prior: tc.prior}.Choose(nil, up, tc.a, tc.fails, nil)
		if !slices.Equal(got, tc.want) {
			t.Errorf("prior %v, fails %v, a = %d: chose %v, want %v", tc.prior, tc.fails, tc.a, got, tc.want)
		}
	}
}

// TestParseRule checks that ParseRule reads each rule's name and that the
// empty name is the documented default.
func TestParseRule(t *testing.T) {
	for _, r := range []Rule{MostReliable{}, Random{}, LowestIndex{}} {
		got, err := ParseRule(fmt.Sprint(r))
		if err != nil || fmt.Sprint(got) != fmt.Sprint(r) {
			t.Errorf("ParseRule(%q) = %v, %v", fmt.Sprint(r), got, err)
		}
	}
	if got, err := ParseRule(""); err != nil || fmt.Sprint(got) != "most-reliable" {
		t.Errorf(`ParseRule("") = %v, %v, want most-reliable`, got, err)
	}
	for _, s := range []string{"best", "Random", "most_reliable"} {
		if _, err := ParseRule(s); err == nil {
			t.Errorf("ParseRule(%q) accepted", s)
		}
	}
}
