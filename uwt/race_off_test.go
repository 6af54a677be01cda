//go:build !race

package uwt

// raceEnabled is whether the tests run under the race detector.
const raceEnabled = false
