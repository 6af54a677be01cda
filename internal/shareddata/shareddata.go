// Package shareddata locates, for tests, the real failure data that ships
// with the repository: the gzip copy of the LANL failure log in
// trace/testdata/lanl (see its README for the provenance and the
// citation). The trace readers decompress gzip input themselves, so a test
// opens the path and passes the file to them.
package shareddata

import (
	"os"
	"path/filepath"
	"testing"
)

// LANL returns the path of the LANL failure log (gzip), failing tb when it
// cannot be found: it is part of the repository, so a missing file is a
// broken checkout, not a reason to skip.
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
			tb.Fatal("module root (go.mod) not found above the test directory")
		}
		dir = parent
	}
	path := filepath.Join(dir, "trace", "testdata", "lanl", "failures.csv.gz")
	if _, err := os.Stat(path); err != nil {
		tb.Fatalf("LANL data missing from the checkout: %v", err)
	}
	return path
}
