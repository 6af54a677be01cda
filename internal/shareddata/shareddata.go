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
	dir := moduleRoot(tb)
	path := filepath.Join(dir, "trace", "testdata", "lanl", "failures.csv.gz")
	if _, err := os.Stat(path); err != nil {
		tb.Fatalf("LANL data missing from the checkout: %v", err)
	}
	return path
}

// SCRModel returns the path of LLNL's SCR model regression results
// (regression.tar.gz), which live beside the repository in
// ../shared/data/scr-model/ and are never copied into it, and skips tb
// where they are absent. It looks in the module root's parent first (the
// documented place) and then in the parents above it, so that a checkout
// nested one level deeper (a worktree) finds them too.
func SCRModel(tb testing.TB) string {
	tb.Helper()
	dir := moduleRoot(tb)
	for d := filepath.Dir(dir); ; d = filepath.Dir(d) {
		path := filepath.Join(d, "shared", "data", "scr-model", "regression.tar.gz")
		if _, err := os.Stat(path); err == nil {
			return path
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	tb.Skip("SCR model regression data (../shared/data/scr-model/regression.tar.gz beside the repository) not present: skipped")
	return ""
}

// moduleRoot returns the directory of go.mod above the test's directory.
func moduleRoot(tb testing.TB) string {
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
	return dir
}
