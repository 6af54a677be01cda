package reschedule_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/ckpt-markov/markov/reschedule"
)

func wantErr(t *testing.T, err error, phrase string) {
	t.Helper()
	if err == nil || !strings.Contains(err.Error(), phrase) {
		t.Errorf("error %v, want one containing %q", err, phrase)
	}
}

func TestValidate(t *testing.T) {
	for _, v := range []reschedule.Vector{{1}, {0, 2}, {1, 1, 1}, {0, 0, 3}, {1, 0, 2, 4}} {
		if err := v.Validate(); err != nil {
			t.Errorf("%v: %v", v, err)
		}
	}
	for _, tc := range []struct {
		v      reschedule.Vector
		phrase string
	}{
		{nil, "empty"},
		{reschedule.Vector{}, "empty"},
		{reschedule.Vector{2}, "r(1) = 2 outside [0, 1]"},
		{reschedule.Vector{1, 3, 3}, "r(2) = 3 outside [0, 2]"},
		{reschedule.Vector{1, 2, -1}, "r(3) = -1 outside [0, 3]"},
		{reschedule.Vector{0}, "never run"},
		{reschedule.Vector{0, 0, 0, 0}, "never run"},
	} {
		wantErr(t, tc.v.Validate(), tc.phrase)
	}
	v := reschedule.Vector{0, 2, 2}
	if v.N() != 3 || v.At(1) != 0 || v.At(3) != 2 {
		t.Errorf("N, At(1), At(3) = %d, %d, %d, want 3, 0, 2", v.N(), v.At(1), v.At(3))
	}
}

func TestGreedy(t *testing.T) {
	for n := 1; n <= 6; n++ {
		v, err := reschedule.Greedy(n)
		if err != nil {
			t.Fatal(err)
		}
		for k := 1; k <= n; k++ {
			if v.At(k) != k {
				t.Errorf("Greedy(%d): r(%d) = %d, want %d", n, k, v.At(k), k)
			}
		}
		if v.N() != n || v.Validate() != nil {
			t.Errorf("Greedy(%d) = %v is not a valid vector of %d", n, v, n)
		}
	}
	for _, n := range []int{0, -1} {
		_, err := reschedule.Greedy(n)
		wantErr(t, err, "processors")
	}
}

func TestMoldable(t *testing.T) {
	for _, tc := range []struct {
		n, a int
		want reschedule.Vector
	}{
		{1, 1, reschedule.Vector{1}},
		{4, 1, reschedule.Vector{1, 1, 1, 1}},
		{4, 3, reschedule.Vector{0, 0, 3, 3}},
		{4, 4, reschedule.Vector{0, 0, 0, 4}},
	} {
		v, err := reschedule.Moldable(tc.n, tc.a)
		if err != nil || !slices.Equal(v, tc.want) {
			t.Errorf("Moldable(%d, %d) = %v, %v, want %v", tc.n, tc.a, v, err, tc.want)
		}
	}
	for _, tc := range [][2]int{{4, 0}, {4, 5}, {4, -1}, {0, 1}} {
		_, err := reschedule.Moldable(tc[0], tc[1])
		if err == nil {
			t.Errorf("Moldable(%d, %d): no error", tc[0], tc[1])
		}
	}
}

func TestExplicit(t *testing.T) {
	r := []int{1, 0, 2}
	v, err := reschedule.Explicit(r)
	if err != nil || !slices.Equal(v, reschedule.Vector{1, 0, 2}) {
		t.Fatalf("Explicit(%v) = %v, %v", r, v, err)
	}
	r[0] = 0
	if v.At(1) != 1 {
		t.Error("Explicit shares storage with its argument")
	}
	_, err = reschedule.Explicit([]int{1, 3, 1})
	wantErr(t, err, "r(2) = 3")
	_, err = reschedule.Explicit(nil)
	wantErr(t, err, "empty")
}

// argmaxSmaller is the brute-force oracle of the performance-based policy:
// for each n, scan a = 1..n and keep the first strictly larger ω(a) > 0.
func argmaxSmaller(w []float64) reschedule.Vector {
	v := make(reschedule.Vector, len(w))
	for n := 1; n <= len(w); n++ {
		best, bestW := 0, 0.0
		for a := 1; a <= n; a++ {
			if w[a-1] > bestW {
				best, bestW = a, w[a-1]
			}
		}
		v[n-1] = best
	}
	return v
}

func TestPerformanceBased(t *testing.T) {
	for _, tc := range []struct {
		w    []float64
		want reschedule.Vector
	}{
		{[]float64{1}, reschedule.Vector{1}},
		{[]float64{1, 2, 3}, reschedule.Vector{1, 2, 3}},
		{[]float64{1, 2, 2, 1}, reschedule.Vector{1, 2, 2, 2}}, // tie ω(2) = ω(3): the smaller
		{[]float64{5, 5, 5}, reschedule.Vector{1, 1, 1}},
		{[]float64{2, 1, 3}, reschedule.Vector{1, 1, 3}},
		{[]float64{0, 0, 3, 1}, reschedule.Vector{0, 0, 3, 3}}, // ω = 0 is never chosen
		{[]float64{0, 1e-300, 0}, reschedule.Vector{0, 2, 2}},
	} {
		got, err := reschedule.PerformanceBased(tc.w)
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("PerformanceBased(%v) = %v, %v, want %v", tc.w, got, err, tc.want)
		}
	}
	// Random rates drawn from {0, 1, 2, 3} so that ties are common.
	rng := rand.New(rand.NewPCG(3, 5))
	for range 500 {
		n := 1 + rng.IntN(12)
		w := make([]float64, n)
		for i := range w {
			w[i] = float64(rng.IntN(4))
		}
		w[rng.IntN(n)] = 1 + float64(rng.IntN(3)) // at least one positive rate
		got, err := reschedule.PerformanceBased(w)
		if err != nil {
			t.Fatal(err)
		}
		if want := argmaxSmaller(w); !slices.Equal(got, want) {
			t.Errorf("PerformanceBased(%v) = %v, brute force %v", w, got, want)
		}
		if err := got.Validate(); err != nil {
			t.Errorf("PerformanceBased(%v) = %v invalid: %v", w, got, err)
		}
	}
	for _, tc := range []struct {
		w      []float64
		phrase string
	}{
		{nil, "empty"},
		{[]float64{0, 0}, "zero on every"},
		{[]float64{1, -1}, "ω(2) = -1"},
		{[]float64{math.NaN(), 1}, "ω(1) = NaN"},
		{[]float64{1, math.Inf(1)}, "ω(2) = +Inf"},
	} {
		_, err := reschedule.PerformanceBased(tc.w)
		wantErr(t, err, tc.phrase)
	}
}

// uniqueFailures gives processor i the failure instants 1000·i + 1..k: no
// two processors ever fail at the same instant, so any a processors have
// exactly k·a distinct failure instants.
func uniqueFailures(n, k int) [][]float64 {
	f := make([][]float64, n)
	for i := range f {
		for j := 1; j <= k; j++ {
			f[i] = append(f[i], float64(1000*i+j))
		}
	}
	return f
}

// sharedFailures makes every processor fail at the same k instants, so any
// non-empty set of processors has exactly k distinct failure instants.
func sharedFailures(n, k int) [][]float64 {
	f := make([][]float64, n)
	for i := range f {
		for j := k; j >= 1; j-- { // unsorted on purpose
			f[i] = append(f[i], float64(j)*3.5)
		}
	}
	return f
}

// TestFailureCountsExact checks F(a) on traces where every pick of a
// processors has the same count.
func TestFailureCountsExact(t *testing.T) {
	settings := &reschedule.AvailabilitySettings{Picks: 7, Rand: rand.New(rand.NewPCG(9, 9))}
	for _, tc := range []struct {
		name   string
		trace  [][]float64
		f      func(a int) float64
		useNil bool
	}{
		{"once each, unique", uniqueFailures(6, 1), func(a int) float64 { return float64(a) }, true},
		{"three each, unique", uniqueFailures(5, 3), func(a int) float64 { return 3 * float64(a) }, false},
		{"four shared", sharedFailures(5, 4), func(int) float64 { return 4 }, false},
		{"repeated instants count once", [][]float64{{5, 5, 7}, {7, 5}, {5, 7, 7, 7}}, func(int) float64 { return 2 }, true},
		{"no failures", [][]float64{nil, {}, nil}, func(int) float64 { return 0 }, false},
	} {
		s := settings
		if tc.useNil {
			s = nil
		}
		got, err := reschedule.FailureCounts(tc.trace, s)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if len(got) != len(tc.trace) {
			t.Fatalf("%s: %d counts for %d processors", tc.name, len(got), len(tc.trace))
		}
		for a := 1; a <= len(got); a++ {
			if want := tc.f(a); got[a-1] != want {
				t.Errorf("%s: F(%d) = %v, want %v", tc.name, a, got[a-1], want)
			}
		}
	}
}

// exactMoments returns the mean and variance of the number of distinct
// failure instants of a uniformly random set of a processors, by
// enumerating all subsets of size a (an independent, exact oracle).
func exactMoments(trace [][]float64, a int) (mean, variance float64) {
	n := len(trace)
	var count, sum, sum2 float64
	for mask := range 1 << n {
		if popcount(mask) != a {
			continue
		}
		seen := map[float64]bool{}
		for i := range n {
			if mask&(1<<i) != 0 {
				for _, x := range trace[i] {
					seen[x] = true
				}
			}
		}
		k := float64(len(seen))
		count++
		sum += k
		sum2 += k * k
	}
	mean = sum / count
	return mean, sum2/count - mean*mean
}

func popcount(x int) int {
	c := 0
	for ; x != 0; x &= x - 1 {
		c++
	}
	return c
}

// TestFailureCountsMonteCarlo checks F(a) on a heterogeneous trace against
// the exact mean over all subsets: with P picks the estimate has standard
// error σ/√P, and it must lie within 5 standard errors (a false alarm
// probability below 1e-6 per count; the source is seeded, so the test is
// deterministic).
func TestFailureCountsMonteCarlo(t *testing.T) {
	trace := [][]float64{
		{1, 2, 3},
		{3, 4},
		{},
		{1, 5, 6, 7, 8},
		{2, 9},
		{4},
		{10, 11, 12, 13},
	}
	const picks = 4000
	got, err := reschedule.FailureCounts(trace, &reschedule.AvailabilitySettings{Picks: picks, Rand: rand.New(rand.NewPCG(21, 22))})
	if err != nil {
		t.Fatal(err)
	}
	for a := 1; a <= len(trace); a++ {
		mean, variance := exactMoments(trace, a)
		tol := 5*math.Sqrt(variance/picks) + 1e-12
		if math.Abs(got[a-1]-mean) > tol {
			t.Errorf("F(%d) = %v, exact mean %v ± %v", a, got[a-1], mean, tol)
		}
	}
	// For a = N every pick is the whole trace: 13 distinct instants.
	if got[len(trace)-1] != 13 {
		t.Errorf("F(N) = %v, want 13", got[len(trace)-1])
	}
}

func TestFailureCountsDeterminism(t *testing.T) {
	trace := [][]float64{{1, 2}, {2}, {3, 4, 5}, {}, {1, 6}, {7}}
	seeded := func(s1, s2 uint64) []float64 {
		f, err := reschedule.FailureCounts(trace, &reschedule.AvailabilitySettings{Picks: 50, Rand: rand.New(rand.NewPCG(s1, s2))})
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	defaults, err := reschedule.FailureCounts(trace, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Documented default: 50 picks from a PCG source seeded with (1, 2).
	if a, b := seeded(1, 2), defaults; !slices.Equal(a, b) {
		t.Errorf("nil settings %v differ from 50 picks with PCG(1, 2) %v", b, a)
	}
	if a, b := seeded(4, 8), seeded(4, 8); !slices.Equal(a, b) {
		t.Errorf("same seed, different counts: %v, %v", a, b)
	}
	if a, b := seeded(4, 8), seeded(5, 8); slices.Equal(a, b) {
		t.Errorf("seeds (4, 8) and (5, 8) gave identical counts %v", a)
	}

	for _, tc := range []struct {
		trace  [][]float64
		s      *reschedule.AvailabilitySettings
		phrase string
	}{
		{nil, nil, "no processors"},
		{[][]float64{}, nil, "no processors"},
		{trace, &reschedule.AvailabilitySettings{Picks: -3}, "picks = -3"},
		{[][]float64{{1}, {math.NaN()}}, nil, "failures[1]"},
		{[][]float64{{math.Inf(-1)}}, nil, "failures[0]"},
	} {
		_, err := reschedule.FailureCounts(tc.trace, tc.s)
		wantErr(t, err, tc.phrase)
	}
}

// Zero fields of AvailabilitySettings mean the defaults: the same counts
// as nil settings.
func TestFailureCountsZeroSettings(t *testing.T) {
	trace := [][]float64{{1, 2}, {2, 3}, {5}, {1, 7, 9}}
	want, err := reschedule.FailureCounts(trace, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err := reschedule.FailureCounts(trace, &reschedule.AvailabilitySettings{})
	if err != nil {
		t.Fatal(err)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("F(%d) = %v with zero settings, %v with nil", i+1, got[i], want[i])
		}
	}
}

// argminLarger is the brute-force oracle of the availability-based policy:
// for each n, the a ≤ n with ω(a) > 0 that minimises f(a)/ω(a), the larger
// on ties.
func argminLarger(f, w []float64) reschedule.Vector {
	v := make(reschedule.Vector, len(w))
	for n := 1; n <= len(w); n++ {
		for a := n; a >= 1; a-- {
			if w[a-1] <= 0 {
				continue
			}
			if v[n-1] == 0 || f[a-1]/w[a-1] < f[v[n-1]-1]/w[v[n-1]-1] {
				v[n-1] = a
			}
		}
	}
	return v
}

func TestAvailabilityBased(t *testing.T) {
	sqrt := func(n int) []float64 {
		w := make([]float64, n)
		for i := range w {
			w[i] = math.Sqrt(float64(i + 1))
		}
		return w
	}
	for _, tc := range []struct {
		name  string
		trace [][]float64
		w     []float64
		want  reschedule.Vector
	}{
		// F(a) = a and ω(a) = a: every ratio is 1, ties go to the larger count.
		{"linear, all tied", uniqueFailures(5, 1), []float64{1, 2, 3, 4, 5}, reschedule.Vector{1, 2, 3, 4, 5}},
		// F(a) = a, ω(a) = √a: F/ω = √a grows, one processor is best.
		{"sublinear work", uniqueFailures(5, 1), sqrt(5), reschedule.Vector{1, 1, 1, 1, 1}},
		// F(a) = 2a, ω(a) = a²: F/ω = 2/a falls, use them all.
		{"superlinear work", uniqueFailures(4, 2), []float64{1, 4, 9, 16}, reschedule.Vector{1, 2, 3, 4}},
		// F(a) = 3 for all a: the argmax of ω, the larger on ties.
		{"shared failures", sharedFailures(5, 3), []float64{1, 3, 3, 2, 3}, reschedule.Vector{1, 2, 3, 3, 5}},
		// Counts with ω(a) = 0 are never chosen.
		{"zero rates", sharedFailures(4, 3), []float64{0, 2, 0, 2}, reschedule.Vector{0, 2, 2, 4}},
		// No failures at all: every ratio is 0, the largest usable count wins.
		{"no failures", [][]float64{nil, nil, nil}, []float64{1, 0.5, 0}, reschedule.Vector{1, 2, 2}},
	} {
		got, err := reschedule.AvailabilityBased(tc.trace, tc.w, nil)
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("%s: AvailabilityBased = %v, %v, want %v", tc.name, got, err, tc.want)
		}
	}

	// Random traces: the policy must be the brute-force argmin over the
	// counts FailureCounts returns with the same seed.
	rng := rand.New(rand.NewPCG(13, 17))
	for range 100 {
		n := 1 + rng.IntN(8)
		trace := make([][]float64, n)
		w := make([]float64, n)
		for i := range trace {
			for range rng.IntN(4) {
				trace[i] = append(trace[i], float64(rng.IntN(10)))
			}
			w[i] = float64(rng.IntN(4))
		}
		w[rng.IntN(n)] = 1
		settings := func() *reschedule.AvailabilitySettings {
			return &reschedule.AvailabilitySettings{Picks: 5, Rand: rand.New(rand.NewPCG(uint64(n), 1))}
		}
		f, err := reschedule.FailureCounts(trace, settings())
		if err != nil {
			t.Fatal(err)
		}
		got, err := reschedule.AvailabilityBased(trace, w, settings())
		if err != nil {
			t.Fatal(err)
		}
		if want := argminLarger(f, w); !slices.Equal(got, want) {
			t.Errorf("trace %v, ω %v, F %v: AvailabilityBased = %v, brute force %v", trace, w, f, got, want)
		}
		if err := got.Validate(); err != nil {
			t.Errorf("AvailabilityBased = %v invalid: %v", got, err)
		}
	}

	for _, tc := range []struct {
		trace  [][]float64
		w      []float64
		s      *reschedule.AvailabilitySettings
		phrase string
	}{
		{uniqueFailures(3, 1), []float64{1, 2}, nil, "3 processors, work rate has 2"},
		{uniqueFailures(2, 1), []float64{0, 0}, nil, "zero on every"},
		{uniqueFailures(2, 1), []float64{1, math.NaN()}, nil, "ω(2) = NaN"},
		{[][]float64{{1}, {math.Inf(1)}}, []float64{1, 1}, nil, "failures[1]"},
	} {
		_, err := reschedule.AvailabilityBased(tc.trace, tc.w, tc.s)
		wantErr(t, err, tc.phrase)
	}
}

func BenchmarkFailureCounts(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	trace := make([][]float64, 128)
	for i := range trace {
		for range 20 {
			trace[i] = append(trace[i], math.Floor(rng.Float64()*1e6))
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := reschedule.FailureCounts(trace, nil); err != nil {
			b.Fatal(err)
		}
	}
}
