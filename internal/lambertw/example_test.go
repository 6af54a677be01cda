package lambertw_test

import (
	"fmt"
	"math"

	"github.com/ckpt-markov/markov/internal/lambertw"
)

// The two real solutions of w·e^w = −ln(2)/2 are −ln 2 and −ln 4.
func Example() {
	x := -math.Ln2 / 2
	fmt.Printf("W0(%.4f)  = %.6f (−ln 2 = %.6f)\n", x, lambertw.W0(x), -math.Ln2)
	fmt.Printf("W−1(%.4f) = %.6f (−ln 4 = %.6f)\n", x, lambertw.Wm1(x), -2*math.Ln2)
	fmt.Printf("Ω = W0(1) = %.10f\n", lambertw.W0(1))
	// Output:
	// W0(-0.3466)  = -0.693147 (−ln 2 = -0.693147)
	// W−1(-0.3466) = -1.386294 (−ln 4 = -1.386294)
	// Ω = W0(1) = 0.5671432904
}
