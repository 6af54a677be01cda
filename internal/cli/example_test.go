package cli_test

import (
	"os"

	"github.com/ckpt-markov/markov/internal/cli"
)

// ExampleRun prints the rescheduling vector of the moldable policy on four
// of sixteen processors: the application waits below four functional
// processors and uses exactly four otherwise.
func ExampleRun() {
	code := cli.Run([]string{"policy", "--app", "qr", "--processors", "16", "--policy", "moldable:4"}, os.Stdout, os.Stderr)
	if code != 0 {
		os.Exit(code)
	}
	// Output:
	// Scenario  qr on 16 processors, MTTF 104.6d, MTTR 56.03m, policy moldable:4
	// r(n)      1-3: 0, 4-16: 4
}
