package trace

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
)

// gzipMagic opens every gzip stream (RFC 1952, section 2.3.1).
var gzipMagic = []byte{0x1f, 0x8b}

// maybeGzip returns r, or a decompressing reader over it when its first
// bytes are the gzip magic number. Text input never starts with 0x1f 0x8b
// (0x8b is not a valid first byte of a UTF-8 sequence' continuation after a
// control character in any of the formats read here), so the test is safe.
func maybeGzip(r io.Reader) (io.Reader, error) {
	br := bufio.NewReader(r)
	head, err := br.Peek(len(gzipMagic))
	if err != nil || !bytes.Equal(head, gzipMagic) {
		return br, nil // short input: the reader reports it
	}
	zr, err := gzip.NewReader(br)
	if err != nil {
		return nil, &ParseError{Line: 1, Err: fmt.Errorf("gzip input: %w", err)}
	}
	zr.Multistream(true)
	return zr, nil
}
