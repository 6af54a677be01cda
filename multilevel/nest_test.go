package multilevel

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// exprParts are parts whose summaries are the period's expression: a
// segment ending at level k is "sk ", the level-l block around a body
// "l[body] ", a sequence the concatenation (which does not commute, as
// events.go's products). failAt > 0 makes segment(failAt) fail.
type exprParts struct{ failAt int }

var errSegment = errors.New("segment refused")

func (e exprParts) segment(k int) (string, error) {
	if k == e.failAt {
		return "", errSegment
	}
	return fmt.Sprintf("s%d ", k), nil
}
func (exprParts) wrap(l int, body string) (string, error) {
	return fmt.Sprintf("%d[%s] ", l, body), nil
}
func (exprParts) then(a, b string) string { return a + b }
func (exprParts) identity() string        { return "" }

// naiveBlock is K(l, k) of docs/model.md section 12 written out: the
// body's repetition by a loop, nothing cached.
func naiveBlock(pattern []int, l, k int) string {
	return fmt.Sprintf("%d[%s] ", l, naiveBody(pattern, l, k))
}

func naiveBody(pattern []int, l, k int) string {
	if l == 1 {
		return fmt.Sprintf("s%d ", k)
	}
	v := pattern[l-2]
	if v == 0 {
		return naiveBody(pattern, l-1, k)
	}
	out := naiveBody(pattern, l-1, l-1)
	for range v - 1 {
		out += naiveBlock(pattern, l-1, l-1)
	}
	return out + naiveBlock(pattern, l-1, k)
}

// scrLevels returns the checkpoint level of each segment of a period by
// SCR's convention, counted directly: segment j (from 1) ends with the
// highest level ℓ whose period ∏_{k<ℓ}(V_k + 1) divides j.
func scrLevels(pattern []int) []string {
	L := len(pattern) + 1
	per := make([]int, L+1) // per[ℓ] = ∏_{k<ℓ}(V_k + 1)
	per[1] = 1
	for l := 2; l <= L; l++ {
		per[l] = per[l-1] * (pattern[l-2] + 1)
	}
	out := make([]string, per[L])
	for j := 1; j <= per[L]; j++ {
		lv := 1
		for l := 2; l <= L; l++ {
			if j%per[l] == 0 {
				lv = l
			}
		}
		out[j-1] = fmt.Sprintf("s%d", lv)
	}
	return out
}

// TestNest: the nesting's period K(L, L) is the expression of the
// recursion written out (no caching, powers by a loop), and its segments
// in order carry SCR's checkpoint levels (the highest level whose period
// divides the segment's number: counted, not composed), for patterns of
// one to four levels with zero, one and several entries; a failing
// segment's error reaches the period.
func TestNest(t *testing.T) {
	seg := regexp.MustCompile(`s[0-9]+`)
	for _, pattern := range [][]int{{}, {0}, {1}, {3}, {2, 0}, {0, 2}, {2, 3}, {1, 1, 2}, {3, 0, 1}} {
		L := len(pattern) + 1
		got, err := newNest[string](exprParts{}, pattern).block(L, L)
		if err != nil {
			t.Fatal(err)
		}
		if want := naiveBlock(pattern, L, L); got != want {
			t.Errorf("V = %v: period %q, written out %q", pattern, got, want)
		}
		if segs, want := seg.FindAllString(got, -1), scrLevels(pattern); strings.Join(segs, " ") != strings.Join(want, " ") {
			t.Errorf("V = %v: segments %v, SCR's levels %v", pattern, segs, want)
		}
	}
	if _, err := newNest[string](exprParts{failAt: 2}, []int{2, 1}).block(3, 3); !errors.Is(err, errSegment) {
		t.Errorf("a failing segment: error %v, want %v", err, errSegment)
	}
}

// TestRepeat: repeat by squaring gives n copies in order, the identity
// for none, for n = 0 … 40.
func TestRepeat(t *testing.T) {
	for n := 0; n <= 40; n++ {
		if got, want := repeat[string](exprParts{}, "ab", n), strings.Repeat("ab", n); got != want {
			t.Errorf("n = %d: %q, want %q", n, got, want)
		}
	}
}
