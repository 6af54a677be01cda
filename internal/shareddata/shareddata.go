// Package shareddata locates, for tests, the data the project keeps beside
// its repository rather than in it: the LANL failure log at
// shared/data/lanl/failures.csv, next to the module root.
package shareddata

import (
	"os"
	"path/filepath"
	"testing"
)

// LANL returns the path of the LANL failure log, or skips tb when it is
// not there (a checkout without the shared data beside it).
func LANL(tb testing.TB) string {
	tb.Helper()
	dir, err := os.Getwd()
	if err != nil {
		tb.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			tb.Skip("module root (go.mod) not found above the test directory")
		}
		dir = parent
	}
	path := filepath.Join(dir, "..", "shared", "data", "lanl", "failures.csv")
	if _, err := os.Stat(path); err != nil {
		tb.Skipf("LANL data not available (want ../shared/data/lanl/failures.csv next to the module root): %v", err)
	}
	return path
}
