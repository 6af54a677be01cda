package scenario

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
)

// readFactor bounds the address space that Parse maps per byte of input:
// the input, its buffer while it grows, and the values decoded from it,
// with the garbage the collector lets grow between cycles. Measured peak
// resident sizes of markov uwt on 200 MB inputs (/usr/bin/time -v): a
// number value 4.0 times the input (the number is copied to be
// converted), a string value 2.0 times, white space 1.05 times; before
// the reader moved to jsontext (issue 21) they were 9.6, 11.5 and 4 times,
// and 16 keeps the margin it had.
const readFactor = 16

// addressSpaceBytes returns, when the process has an address-space limit
// (RLIMIT_AS, ulimit -v), the largest input that Parse can read and parse
// in what is left of it: the limit less the address space already mapped
// (/proc/self/statm, which includes the Go runtime's reservations), over
// readFactor. ok is false without a limit or when it cannot be read.
func addressSpaceBytes() (n int64, ok bool) {
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &rl); err != nil || rl.Cur > 1<<62 { // RLIM_INFINITY is all ones
		return 0, false
	}
	statm, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0, false
	}
	f, _, _ := bytes.Cut(statm, []byte(" "))
	pages, err := strconv.ParseInt(string(f), 10, 64)
	if err != nil {
		return 0, false
	}
	left := int64(rl.Cur) - pages*int64(os.Getpagesize())
	return max(left, 0) / readFactor, true
}
