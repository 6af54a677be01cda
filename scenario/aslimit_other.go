//go:build !linux

package scenario

// addressSpaceBytes reports no address-space limit: only Linux's is read
// (aslimit_linux.go).
func addressSpaceBytes() (n int64, ok bool) { return 0, false }
