//go:build unix

package sweep

import (
	"os"

	"golang.org/x/sys/unix"
)

// lock takes an exclusive advisory lock (flock(2)) on the file at path,
// created if needed, waiting for it, and returns the function that
// releases it. Every process that writes a result file holds its lock
// file's lock while it does.
func lock(path string) (func(), error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	for {
		err = unix.Flock(int(f.Fd()), unix.LOCK_EX)
		if err != unix.EINTR {
			break
		}
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		_ = unix.Flock(int(f.Fd()), unix.LOCK_UN)
		f.Close()
	}, nil
}
