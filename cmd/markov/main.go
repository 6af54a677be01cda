// Command markov chooses checkpoint intervals for malleable parallel
// applications with a Markov model; run "markov --help" for its commands.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/ckpt-markov/markov/internal/cli"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := cli.RunContext(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
