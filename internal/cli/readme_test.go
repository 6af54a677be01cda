package cli_test

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"

	"github.com/ckpt-markov/markov/internal/cli"
)

// updateReadme rewrites the outputs of README.md's examples from what the
// commands print now (examples with "..." are left as they are).
var updateReadme = flag.Bool("update-readme", false, "rewrite README.md's example outputs from the commands")

// An example is a fenced block of README.md whose lines start with "$ "
// commands, each followed by its output. A line "..." in an output matches
// any number of lines. An HTML comment just before a fence directs the
// test:
//
//	<!-- readme-test: file NAME -->   the block is a file the later examples read
//	<!-- readme-test: skip REASON -->  the block is not run (say why)
type example struct {
	line     int // of the opening fence, 1-based
	commands []command
	// start and end are the indices of the block's first and last content
	// line in the README's lines.
	start, end int
}

type command struct {
	line int
	args []string
	want []string
}

// readmeFile is a block marked as a file.
type readmeFile struct {
	name, content string
}

// parseReadme returns the examples and files of a README, in order, and the
// skipped blocks' reasons.
func parseReadme(t *testing.T, lines []string) (examples []example, files []readmeFile, skipped []string) {
	t.Helper()
	directive := ""
	for k := 0; k < len(lines); k++ {
		l := strings.TrimSpace(lines[k])
		if strings.HasPrefix(l, "<!-- readme-test:") {
			directive = strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(l, "<!-- readme-test:"), "-->"))
			continue
		}
		if !strings.HasPrefix(l, "```") {
			if l != "" {
				directive = ""
			}
			continue
		}
		start := k + 1
		end := start
		for end < len(lines) && !strings.HasPrefix(strings.TrimSpace(lines[end]), "```") {
			end++
		}
		body := lines[start:end]
		switch {
		case strings.HasPrefix(directive, "file "):
			files = append(files, readmeFile{strings.TrimSpace(strings.TrimPrefix(directive, "file ")), strings.Join(body, "\n") + "\n"})
		case strings.HasPrefix(directive, "skip "):
			skipped = append(skipped, fmt.Sprintf("line %d: %s", k+1, strings.TrimPrefix(directive, "skip ")))
		case len(body) > 0 && strings.HasPrefix(body[0], "$ "):
			ex := example{line: k + 1, start: start, end: end}
			for i, b := range body {
				if strings.HasPrefix(b, "$ ") {
					words := splitWords(t, strings.TrimPrefix(b, "$ "))
					if len(words) == 0 || words[0] != "markov" {
						t.Errorf("README line %d: an example runs %q; only markov commands are run", start+i+1, b)
						continue
					}
					ex.commands = append(ex.commands, command{line: start + i + 1, args: words[1:]})
					continue
				}
				if len(ex.commands) > 0 {
					c := &ex.commands[len(ex.commands)-1]
					c.want = append(c.want, strings.TrimRightFunc(b, unicode.IsSpace))
				}
			}
			examples = append(examples, ex)
		}
		directive = ""
		k = end
	}
	return examples, files, skipped
}

// splitWords splits a command line at spaces, with single and double quotes
// as the shell has them (no escapes, no variables).
func splitWords(t *testing.T, s string) []string {
	t.Helper()
	var (
		words []string
		cur   strings.Builder
		quote rune
		in    bool
	)
	for _, r := range s {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			cur.WriteRune(r)
		case r == '\'' || r == '"':
			quote, in = r, true
		case r == ' ':
			if in {
				words = append(words, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteRune(r)
			in = true
		}
	}
	if quote != 0 {
		t.Errorf("unbalanced quote in %q", s)
	}
	if in {
		words = append(words, cur.String())
	}
	return words
}

// matchLines reports whether got matches want, a line "..." in want
// matching any number of lines.
func matchLines(want, got []string) bool {
	if len(want) == 0 {
		return len(got) == 0
	}
	if want[0] == "..." {
		for skip := 0; skip <= len(got); skip++ {
			if matchLines(want[1:], got[skip:]) {
				return true
			}
		}
		return false
	}
	return len(got) > 0 && got[0] == want[0] && matchLines(want[1:], got[1:])
}

func TestMatchLines(t *testing.T) {
	for _, tc := range []struct {
		want, got string
		ok        bool
	}{
		{"a|b", "a|b", true},
		{"a|b", "a|c", false},
		{"a|...|d", "a|b|c|d", true},
		{"a|...|d", "a|d", true},
		{"a|...", "a|b|c", true},
		{"a|...|d", "a|b|c", false},
		{"a", "a|b", false},
	} {
		if got := matchLines(strings.Split(tc.want, "|"), strings.Split(tc.got, "|")); got != tc.ok {
			t.Errorf("matchLines(%q, %q) = %v", tc.want, tc.got, got)
		}
	}
}

// TestReadme runs every example of README.md in a temporary directory
// (where trace/testdata and docs are the repository's) and compares what each
// command prints with the README, numbers included: an example that drifts
// from the code fails here. go test ./internal/cli -run TestReadme
// -update-readme rewrites the outputs after an intended change.
func TestReadme(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	readme := filepath.Join(root, "README.md")
	data, err := os.ReadFile(readme)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	examples, files, skipped := parseReadme(t, lines)
	if len(examples) < 10 {
		t.Fatalf("found %d examples in README.md; the parser has lost them", len(examples))
	}
	for _, s := range skipped {
		t.Logf("not run: README %s", s)
	}

	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "trace"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(root, "trace", "testdata"), filepath.Join(dir, "trace", "testdata")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(root, "docs"), filepath.Join(dir, "docs")); err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if err := os.WriteFile(filepath.Join(dir, f.name), []byte(f.content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)

	updated := false
	for e := len(examples) - 1; e >= 0; e-- { // backwards: updates keep earlier indices
		ex := examples[e]
		var block []string
		elided := false
		for _, c := range ex.commands {
			var out, errOut bytes.Buffer
			code := cli.Run(c.args, &out, &errOut)
			// Standard output only: progress and notes go to standard
			// error, and the README shows results.
			got := strings.Split(strings.TrimRight(out.String(), "\n"), "\n")
			if out.Len() == 0 {
				got = nil
			}
			for k := range got {
				got[k] = strings.TrimRightFunc(got[k], unicode.IsSpace)
			}
			if code != 0 {
				t.Errorf("README line %d: markov %s: exit %d\n%s", c.line, strings.Join(c.args, " "), code, errOut.String())
				continue
			}
			block = append(block, "$ markov "+strings.Join(c.args, " "))
			if strings.Contains(strings.Join(c.want, "\n"), "...") {
				elided = true
				block = append(block, c.want...)
			} else {
				block = append(block, got...)
			}
			if !matchLines(c.want, got) && !*updateReadme {
				t.Errorf("README line %d: markov %s prints\n%s\nbut the README shows\n%s",
					c.line, strings.Join(c.args, " "), strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
		}
		if *updateReadme && !elided {
			lines = append(lines[:ex.start], append(block, lines[ex.end:]...)...)
			updated = true
		}
	}
	if updated {
		if err := os.WriteFile(readme, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
