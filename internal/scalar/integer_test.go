package scalar

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

// TestMaximizeIntMatchesScan holds MaximizeInt against an exhaustive scan
// of 0..hi on seeded random strictly unimodal functions (the oracle: the
// argmax by enumeration), from every start, with the count of
// evaluations bounded by 2.5·log₂(hi + 2) + 4: golden sections take at
// most 2.0·log₂(hi + 2) + 4 here, the ternary search they replaced up to
// 3.0·log₂(hi + 2) + 4 (the bound rejects it: 24 evaluations at hi 200
// from 0).
func TestMaximizeIntMatchesScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 200; trial++ {
		hi := rng.IntN(300)
		peak := rng.IntN(hi + 1)
		// Strictly unimodal: rises by random positive steps to peak, then
		// falls by random positive steps.
		f := make([]float64, hi+1)
		for x := peak - 1; x >= 0; x-- {
			f[x] = f[x+1] - 0.01 - rng.Float64()
		}
		for x := peak + 1; x <= hi; x++ {
			f[x] = f[x-1] - 0.01 - rng.Float64()
		}
		for _, x0 := range []int{0, hi, rng.IntN(hi + 1), peak} {
			calls := 0
			got, err := MaximizeInt(func(x int) (float64, error) {
				calls++
				if x < 0 || x > hi {
					t.Fatalf("evaluated %d outside [0, %d]", x, hi)
				}
				return f[x], nil
			}, x0, hi)
			if err != nil || got != peak {
				t.Fatalf("hi %d, start %d: got %d, %v, want the scan's %d", hi, x0, got, err, peak)
			}
			if limit := int(2.5*math.Log2(float64(hi+2))) + 4; calls > limit {
				t.Errorf("hi %d, start %d: %d evaluations, want at most %d", hi, x0, calls, limit)
			}
		}
	}
}

// TestMaximizeIntTiesAndErrors checks the tie rule (a plateau at the top
// returns its smallest integer reachable by the search) and that an
// error of g is returned unchanged.
func TestMaximizeIntTiesAndErrors(t *testing.T) {
	flat := func(int) (float64, error) { return 1, nil }
	if got, err := MaximizeInt(flat, 5, 10); err != nil || got != 5 {
		t.Errorf("flat from 5: got %d, %v, want the start", got, err)
	}
	step := func(x int) (float64, error) { return float64(min(x, 7)), nil }
	if got, err := MaximizeInt(step, 0, 40); err != nil || got != 7 {
		t.Errorf("plateau from 7: got %d, %v, want 7", got, err)
	}
	boom := errors.New("boom")
	failAt := func(x int) (float64, error) {
		if x == 3 { // the first doubling step from 1
			return 0, boom
		}
		return float64(x), nil
	}
	if _, err := MaximizeInt(failAt, 0, 100); !errors.Is(err, boom) {
		t.Errorf("error: got %v, want g's", err)
	}
}
