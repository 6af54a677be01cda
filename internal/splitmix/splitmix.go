// Package splitmix is the toolkit's one seed mixer: the SplitMix64 output
// function, which turns a seed and an index into a well-spread 64-bit
// word, so that each replication, segment or task of a run draws from its
// own stream whatever the number of workers.
//
// Mix(x) adds the golden-ratio increment γ = 0x9e3779b97f4a7c15 to x and
// applies the finalizer of Stafford's variant 13 of MurmurHash3's fmix64:
//
//	z = x + γ
//	z = (z ⊕ z≫30)·0xbf58476d1ce4e5b9
//	z = (z ⊕ z≫27)·0x94d049bb133111eb
//	Mix(x) = z ⊕ z≫31
//
// Mix(s + k·γ), k = 0, 1, …, is the k+1-th output of the SplitMix64
// generator seeded with s; Stream(s, k) returns it.
//
// References:
//
//   - G. L. Steele Jr., D. Lea and C. H. Flood, "Fast splittable
//     pseudorandom number generators", OOPSLA 2014.
//   - S. Vigna, splitmix64.c (public domain reference implementation),
//     https://prng.di.unimi.it/splitmix64.c.
package splitmix

// Gamma is SplitMix64's increment, 2⁶⁴/φ rounded to an odd integer.
const Gamma = 0x9e3779b97f4a7c15

// Mix returns the SplitMix64 output for the state x: the finalizer of
// x + Gamma.
func Mix(x uint64) uint64 {
	x += Gamma
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// Stream returns output k (k = 0, 1, …) of the SplitMix64 generator
// seeded with s: Mix(s + k·Gamma).
func Stream(s, k uint64) uint64 { return Mix(s + k*Gamma) }
