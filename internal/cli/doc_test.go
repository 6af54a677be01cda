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
		if !strings.Contains(string(doc), "//\tmarkov "+c.Name()+" ") {
			t.Errorf("doc.go does not list markov %s", c.Name())
		}
	}
	if n < 10 {
		t.Errorf("found %d commands; the root command has lost some", n)
	}
}
