package cli

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ckpt-markov/markov/reschedule"
)

// expandRuns parses the compact form written by runs back into r(1..N).
func expandRuns(s string) ([]int, error) {
	var r []int
	for part := range strings.SplitSeq(s, ", ") {
		span, value, ok := strings.Cut(part, ": ")
		if !ok {
			return nil, fmt.Errorf("part %q has no colon", part)
		}
		lo, hi, isRange := strings.Cut(span, "-")
		a, err := strconv.Atoi(lo)
		if err != nil {
			return nil, err
		}
		b := a
		if isRange {
			if b, err = strconv.Atoi(hi); err != nil {
				return nil, err
			}
		}
		if a != len(r)+1 || b < a {
			return nil, fmt.Errorf("part %q does not continue at n = %d", part, len(r)+1)
		}
		for n := a; n <= b; n++ {
			if value == "n" {
				r = append(r, n)
				continue
			}
			v, err := strconv.Atoi(value)
			if err != nil {
				return nil, err
			}
			r = append(r, v)
		}
	}
	return r, nil
}

// FuzzRuns checks that the compact form of any vector reads back as the
// vector, with no two adjacent runs that could have been one.
func FuzzRuns(f *testing.F) {
	for _, seed := range [][]byte{
		{1, 2, 3, 4},
		{0, 0, 3, 3, 5},
		{1, 1, 1, 1},
		{1, 2, 3, 3, 3},
		{0},
		{1, 2, 2, 4, 5, 6, 1},
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 || len(data) > 600 {
			return
		}
		r := make(reschedule.Vector, len(data))
		for i, b := range data {
			r[i] = int(b) % (i + 2) // 0 ≤ r(n) ≤ n
		}
		s := runs(r)
		got, err := expandRuns(s)
		if err != nil {
			t.Fatalf("runs(%v) = %q: %v", r, s, err)
		}
		if !slices.Equal(got, []int(r)) {
			t.Fatalf("runs(%v) = %q reads back as %v", r, s, got)
		}
	})
}

// TestRunsGreedy checks the compact forms of the model's named policies
// (docs/model.md, section 2).
func TestRunsGreedy(t *testing.T) {
	g, _ := reschedule.Greedy(128)
	m, _ := reschedule.Moldable(128, 16)
	for _, tc := range []struct {
		r    reschedule.Vector
		want string
	}{
		{g, "1-128: n"},
		{m, "1-15: 0, 16-128: 16"},
		{reschedule.Vector{1}, "1: 1"},
	} {
		if got := runs(tc.r); got != tc.want {
			t.Errorf("runs = %q, want %q", got, tc.want)
		}
	}
}

// FuzzParseCounts checks that parseCounts accepts only counts in 1..n,
// each once, and that what it accepts lists back to the same counts.
func FuzzParseCounts(f *testing.F) {
	for _, seed := range []string{"1-16,32,64", "4", "1-3, 5", "0-3", "2,2", "x", "3-1", "", "1--2", "64-64"} {
		f.Add(seed, 64)
	}
	f.Fuzz(func(t *testing.T, s string, n int) {
		if n < 1 || n > 1000 {
			return
		}
		counts, err := parseCounts(s, n)
		if err != nil {
			return
		}
		seen := make(map[int]bool)
		var parts []string
		for _, c := range counts {
			if c < 1 || c > n || seen[c] {
				t.Fatalf("parseCounts(%q, %d) = %v: count %d out of range or repeated", s, n, counts, c)
			}
			seen[c] = true
			parts = append(parts, strconv.Itoa(c))
		}
		again, err := parseCounts(strings.Join(parts, ","), n)
		if err != nil || !slices.Equal(again, counts) {
			t.Fatalf("parseCounts(%q) = %v, relisted: %v, %v", s, counts, again, err)
		}
	})
}

// TestProgress checks that the indicator stays silent for work shorter than
// the delay and when stderr is no terminal, and draws on a terminal after it.
func TestProgress(t *testing.T) {
	defer func(d time.Duration) { progressDelay = d }(progressDelay)

	var buf bytes.Buffer
	quiet := &env{errOut: &buf, tty: false}
	p := quiet.startProgress("work", 10)
	if p != nil {
		t.Fatal("no terminal: want a nil indicator")
	}
	p.add(3) // nil-safe
	p.finish()

	progressDelay = time.Hour
	tty := &env{errOut: &buf, tty: true}
	p = tty.startProgress("work", 10)
	p.add(5)
	p.finish()
	if buf.Len() != 0 {
		t.Errorf("short work drew %q", buf.String())
	}

	progressDelay = time.Millisecond
	p = tty.startProgress("long work", 10)
	p.add(4)
	deadline := time.Now().Add(5 * time.Second)
	for {
		p.mu.Lock()
		shown := p.bar != nil
		p.mu.Unlock()
		if shown || time.Now().After(deadline) {
			break
		}
		time.Sleep(time.Millisecond)
	}
	p.add(6)
	p.finish()
	if !strings.Contains(buf.String(), "long work") {
		t.Errorf("long work on a terminal drew %q", buf.String())
	}
}
