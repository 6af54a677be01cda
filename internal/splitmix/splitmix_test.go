package splitmix

import "testing"

// TestVigna checks the first outputs of SplitMix64 seeded with 1234567
// against those of Vigna's reference splitmix64.c (the published test
// vector of the Java SplittableRandom port, also used by the Rust
// rand_xoshiro crate's SplitMix64 tests).
func TestVigna(t *testing.T) {
	want := []uint64{
		6457827717110365317,
		3203168211198807973,
		9817491932198370423,
		4593380528125082431,
		16408922859458223821,
	}
	for k, w := range want {
		if got := Stream(1234567, uint64(k)); got != w {
			t.Errorf("output %d of seed 1234567: %d, want %d", k, got, w)
		}
	}
}

// TestStreamIsGenerator checks that Stream(s, k) is the generator's state
// walk: output k+1 is Mix of the state after k+1 increments.
func TestStreamIsGenerator(t *testing.T) {
	for _, s := range []uint64{0, 1, 1<<63 + 5, ^uint64(0)} {
		state := s
		for k := range uint64(50) {
			if got, want := Stream(s, k), Mix(state); got != want {
				t.Fatalf("seed %d, output %d: %d, want %d", s, k, got, want)
			}
			state += Gamma
		}
	}
}
