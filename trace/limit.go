package trace

import (
	"fmt"
	"io"
)

// Limits of the readers, checked before anything is built from the input.
const (
	// MaxLineBytes bounds the length of one line of either format: 1 MiB,
	// a thousand times the longest line of the LANL release, so that a
	// file without line breaks cannot make a reader buffer all of it.
	MaxLineBytes = 1 << 20
	// MaxTime bounds the magnitude of a time in a generic trace: 10¹¹ s,
	// about 3,000 years from the epoch, beyond any log (Unix times are
	// near 1.7·10⁹) and far below where the model's sums lose precision. A
	// header claiming an end 10³⁰⁰ s away is an error, not a window in
	// which every node is up (0 % efficiency).
	MaxTime = 1e11
)

// errLineTooLong is what both readers say about a line over MaxLineBytes.
var errLineTooLong = fmt.Errorf("line longer than the limit of %d bytes", MaxLineBytes)

// lineLimiter passes its reader's bytes through and fails with a
// *ParseError once a line exceeds MaxLineBytes.
type lineLimiter struct {
	r    io.Reader
	line int // 1-based number of the current line
	n    int // bytes of the current line so far
}

func newLineLimiter(r io.Reader) *lineLimiter { return &lineLimiter{r: r, line: 1} }

func (l *lineLimiter) Read(p []byte) (int, error) {
	k, err := l.r.Read(p)
	for i, b := range p[:k] {
		if b == '\n' {
			l.line++
			l.n = 0
			continue
		}
		if l.n++; l.n > MaxLineBytes {
			return i, &ParseError{Line: l.line, Err: errLineTooLong}
		}
	}
	return k, err
}
