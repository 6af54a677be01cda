package cli

import (
	"os"
	"strings"
	"testing"
)

// TestDocListsCommands checks that the package documentation lists every
// command of the markov command.
func TestDocListsCommands(t *testing.T) {
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	root := newRootCmd(&env{})
	n := 0
	for _, c := range root.Commands() {
		if c.Hidden || c.Name() == "help" || c.Name() == "completion" {
			continue
		}
		n++
		i := strings.Index(string(doc), "//\tmarkov "+c.Name()+" ")
		if i < 0 {
			t.Errorf("doc.go does not list markov %s", c.Name())
			continue
		}
		// Its subcommands are named on its line.
		line, _, _ := strings.Cut(string(doc[i:]), "\n")
		for _, sub := range c.Commands() {
			if !strings.Contains(line, " "+sub.Name()) {
				t.Errorf("doc.go lists markov %s without its subcommand %s", c.Name(), sub.Name())
			}
		}
	}
	if n < 10 {
		t.Errorf("found %d commands; the root command has lost some", n)
	}
}
