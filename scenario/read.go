package scenario

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"strconv"
)

// ParseSettings configures Parse. A nil *ParseSettings resolves no named
// applications and reads at most DefaultMaxBytes.
type ParseSettings struct {
	// Applications resolves an application given by name ("application":
	// "qr") for n processors. Nil means named applications are an error.
	Applications func(name string, n int) (Application, error)
	// MaxBytes bounds the size of the input; a larger one is an error
	// before it is decoded. Zero means DefaultMaxBytes.
	MaxBytes int64
}

// DefaultMaxBytes is the default bound on the size of a scenario file,
// 256 MiB: room for a 4·10⁶-processor scenario written as four lists
// (≈ 90 MB, bench.BenchmarkScaleCLIJSON) or a full N×N recovery matrix up
// to N ≈ 4000, while bounding what a typo can make the reader hold.
const DefaultMaxBytes = 256 << 20

// Load reads and validates the scenario file at path.
func Load(path string, s *ParseSettings) (*Scenario, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Parse(f, s)
}

// Parse reads a scenario in the JSON form of the package documentation and
// validates it. Errors are *Error values naming the field at fault, or say
// that the input is not JSON.
//
// Keys are matched exactly: a duplicate key, or one that differs from a
// documented key only by case ("MTTF"), is an error naming it. A leading
// UTF-8 byte order mark is skipped. Every list is read entry by entry and
// rejected as soon as it is longer than its bound (N for the per-count
// lists), so the size of what is built is bounded by N ≤ MaxProcessors,
// not by the input.
//
// The input is read in chunks, and refused at the first byte that no
// JSON text holds there (byteCheck): a binary file (/dev/zero,
// /dev/urandom) costs one chunk, not MaxBytes; it is then decoded where it
// lies (decode.go). The bytes read
// are bounded by MaxBytes and, where the process has an address-space
// limit (ulimit -v), by the share of the address space left that reading
// and parsing can use (addressSpaceBytes).
func Parse(r io.Reader, s *ParseSettings) (*Scenario, error) {
	limit := int64(DefaultMaxBytes)
	if s != nil && s.MaxBytes > 0 {
		limit = s.MaxBytes
	}
	in, err := newInput(r, limit)
	if err != nil {
		return nil, err
	}
	// The input is read whole, then decoded where it lies: jsontext reads
	// a bytes.Buffer without copying it.
	buf := bytes.NewBuffer(make([]byte, 0, max(in.size, 0)+bytes.MinRead))
	if _, err := buf.ReadFrom(in); err != nil {
		return nil, err
	}
	d := newDecoder(buf.Bytes())
	sc, err := d.file(s)
	if err != nil {
		return nil, d.notJSONFirst(err)
	}
	if err := d.end(); err != nil {
		return nil, err
	}
	return sc, nil
}

// readChunk is the size of the reads from Parse's reader.
const readChunk = 64 << 10

var bomPrefix = []byte("\ufeff")

// input is Parse's reader: it skips a leading byte order mark, checks
// every chunk (byteCheck) and stops at the limit.
type input struct {
	r        *bufio.Reader
	limit, n int64
	size     int64 // bytes left after the byte order mark, or -1
	asLimit  bool  // the limit is the address space's
	check    byteCheck
}

func newInput(r io.Reader, limit int64) (*input, error) {
	in := &input{limit: limit, size: -1}
	if as, ok := addressSpaceBytes(); ok && as < limit {
		in.limit, in.asLimit = max(as, 1), true
	}
	switch x := r.(type) {
	case interface{ Len() int }:
		in.size = int64(x.Len())
	case *os.File:
		if st, err := x.Stat(); err == nil && st.Mode().IsRegular() {
			if off, err := x.Seek(0, io.SeekCurrent); err == nil {
				in.size = st.Size() - off
			}
		}
	}
	in.r = bufio.NewReaderSize(r, readChunk)
	if b, err := in.r.Peek(len(bomPrefix)); err == nil && bytes.Equal(b, bomPrefix) {
		in.r.Discard(len(bomPrefix))
		in.size -= int64(len(bomPrefix))
	}
	if in.size > in.limit {
		// Refused after one chunk, which may show that the file is not
		// JSON at all (the more useful error).
		first, _ := in.r.Peek(readChunk)
		if err := in.check.check(first); err != nil {
			return nil, err
		}
		return nil, in.tooLarge()
	}
	return in, nil
}

func (in *input) Read(p []byte) (int, error) {
	// At most a chunk at a time, so that the limit stops the read
	// within a chunk of it.
	k, err := in.r.Read(p[:min(len(p), readChunk)])
	in.n += int64(k)
	if in.n > in.limit {
		return 0, in.tooLarge()
	}
	if cerr := in.check.check(p[:k]); cerr != nil {
		return 0, cerr
	}
	return k, err
}

func (in *input) tooLarge() error {
	if in.asLimit {
		return fieldErr("(file)", "larger than the %d bytes that the address-space limit (ulimit -v) leaves room to read", in.limit)
	}
	return fieldErr("(file)", "larger than the limit of %d bytes (scenario.ParseSettings.MaxBytes)", in.limit)
}

// byteCheck finds, in an input given chunk by chunk, the first byte that
// cannot stand where it is in any JSON text: a first byte (after white
// space) that begins no JSON value, or a control character other than tab,
// line feed and carriage return, which JSON allows neither outside strings
// nor, raw, inside them (RFC 8259, sections 2 and 7).
type byteCheck struct {
	n       int64 // bytes seen
	started bool  // the first value byte was seen
}

// check checks the next chunk.
func (c *byteCheck) check(chunk []byte) error {
	for i, b := range chunk {
		if b < 0x20 && b != '\t' && b != '\n' && b != '\r' {
			return notJSON(c.n+int64(i), b, "(a control character: is this a binary file?)")
		}
		if c.started {
			continue
		}
		switch b {
		case ' ', '\t', '\n', '\r':
		case '{', '[', '"', '-', 't', 'f', 'n', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
			c.started = true
		default:
			return notJSON(c.n+int64(i), b, "looking for beginning of value")
		}
	}
	c.n += int64(len(chunk))
	return nil
}

// notJSON is the error for the byte b at offset off (from 0) of the input.
func notJSON(off int64, b byte, context string) error {
	q := strconv.QuoteRune(rune(b))
	if b == '\'' {
		q = `'\''`
	}
	return fmt.Errorf("scenario: not valid JSON (byte %d): invalid character %s %s", off+1, q, context)
}
