package scenario_test

import (
	"io"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/ckpt-markov/markov/scenario"
)

// endless is an io.Reader without end (/dev/zero, /dev/urandom, a pipe
// that never closes) that counts the bytes it gave.
type endless struct {
	next func() byte
	n    int64
}

func (r *endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = r.next()
	}
	r.n += int64(len(p))
	return len(p), nil
}

// TestParseRefusesBinaryAtFirstBytes checks that an input that is not
// JSON (zeros, seeded random bytes: /dev/zero and /dev/urandom) is refused
// after one chunk of reading, with little allocated, and that endless
// white space stops at MaxBytes: before, the reader buffered up to 256 MiB
// (DefaultMaxBytes) before it looked, and crashed the Go runtime under an
// address-space limit of 2 GB (issue 23).
func TestParseRefusesBinaryAtFirstBytes(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 1))
	for _, tc := range []struct {
		name   string
		next   func() byte
		phrase string
	}{
		{"zeros", func() byte { return 0 }, `(byte 1): invalid character '\x00' (a control character`},
		{"random", func() byte { return byte(rng.Uint32()) }, "not valid JSON"},
		{"letters", func() byte { return 'x' }, "(byte 1): invalid character 'x' looking for beginning of value"},
		{"an object of zeros", func() func() byte {
			i := 0
			return func() byte { i++; return map[bool]byte{true: '{', false: 0}[i == 1] }
		}(), `(byte 2): invalid character '\x00'`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &endless{next: tc.next}
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			_, err := scenario.Parse(r, nil)
			runtime.ReadMemStats(&after)
			if err == nil || !strings.Contains(err.Error(), tc.phrase) {
				t.Fatalf("error %v, want one with %q", err, tc.phrase)
			}
			// One chunk of 64 KiB (readChunk) read; a few allocated.
			if r.n > 1<<20 {
				t.Errorf("read %d bytes before refusing, want at most 1 MiB", r.n)
			}
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 4<<20 {
				t.Errorf("allocated %d bytes, want at most 4 MiB", alloc)
			}
		})
	}
	r := &endless{next: func() byte { return ' ' }}
	_, err := scenario.Parse(r, &scenario.ParseSettings{MaxBytes: 1 << 20})
	wantErr(t, err, "(file)", "larger than the limit of 1048576 bytes")
	if r.n > 1<<20+1<<17 {
		t.Errorf("endless white space: read %d bytes, want at most MaxBytes and a chunk", r.n)
	}
}

// TestParseByteErrorsAgree checks that Parse's result does not depend on
// how its reader splits the input (one byte at a time, halves, one
// piece), for bad bytes at the start, after a byte order mark, after
// white space and deep inside: the byte check and the decoder see the
// input chunk by chunk.
func TestParseByteErrorsAgree(t *testing.T) {
	good := file(sys3, app3, `"greedy"`)
	for _, in := range []string{
		"\x00", "\x00\x00\x00\x00", " \x01", "x", " \n\t\rx", "\ufeffx", "\ufeff\x00", "\ufeff\ufeff{}", "\ufeff", "\xef\xbb",
		"'", `\`, "}", "\x7f", "\xff\xfe{", strings.Repeat(" ", 70000) + "#",
		good[:20] + "\x1f" + good[20:], good + "\x00", good[:len(good)-1] + "\t\n}", `{"system": "a` + "\x0b" + `b"}`,
		"null", "[1, 2]", "-", "",
	} {
		ref, refErr := scenario.Parse(strings.NewReader(in), nil)
		if refErr == nil && in != good && in != good[:len(good)-1]+"\t\n}" {
			t.Errorf("Parse(%.40q) accepted a bad input", in)
		}
		for _, r := range []io.Reader{iotest.OneByteReader(strings.NewReader(in)), iotest.HalfReader(strings.NewReader(in)), io.MultiReader(strings.NewReader(in))} {
			s, err := scenario.Parse(r, nil)
			if (err == nil) != (refErr == nil) || err != nil && err.Error() != refErr.Error() {
				t.Errorf("Parse(%.40q) = %v; reference: %v", in, err, refErr)
			}
			if err == nil && scenario.SameScenario(s, ref) != "" {
				t.Errorf("Parse(%.40q) differs from the reference", in)
			}
		}
	}
}

// TestErrorsQuoteAPrefix checks that an error quotes at most a short
// prefix of a bad value (internal/quote), whatever its size: a number of
// 10⁶ digits in mttf, a long duration string, a long key, a long policy
// and vector entry. Before, the error held the whole value (a 100 MB
// number gave a 105 MB error line, issue 23).
func TestErrorsQuoteAPrefix(t *testing.T) {
	long := strings.Repeat("1", 1e6)
	for _, tc := range []struct {
		name string
		err  func() error
	}{
		{"number in mttf", func() error {
			_, err := parse(file(`{"processors": 3, "mttf": "`+long+`x", "mttr": 1}`, app3, `"greedy"`))
			return err
		}},
		{"huge number in mttf", func() error {
			_, err := parse(file(`{"processors": 3, "mttf": `+long+`, "mttr": 1}`, app3, `"greedy"`))
			return err
		}},
		{"long key", func() error {
			_, err := parse(file(`{"processors": 3, "`+long+`": 1, "mttf": 1, "mttr": 1}`, app3, `"greedy"`))
			return err
		}},
		{"long case-variant key", func() error {
			_, err := parse(file(`{"processors": 3, "mttf": 1, "MTTF": 1, "mttr": 1}`, app3, `"greedy"`) + strings.Repeat(" ", 10))
			return err
		}},
		{"duration", func() error { _, err := scenario.ParseDuration(long + "q"); return err }},
		{"duration in days", func() error { _, err := scenario.ParseDuration("x" + long + "d"); return err }},
		{"policy", func() error { _, err := scenario.ParsePolicy(long); return err }},
		{"vector entry", func() error { _, err := scenario.ParsePolicy("vector:1,x" + long); return err }},
		{"moldable", func() error { _, err := scenario.ParsePolicy("moldable:x" + long); return err }},
		{"reconfigure", func() error { _, err := scenario.ParseReconfigure(long); return err }},
	} {
		err := tc.err()
		if err == nil {
			t.Errorf("%s: no error", tc.name)
			continue
		}
		if len(err.Error()) > 300 {
			t.Errorf("%s: error of %d bytes, want at most 300: %.200s", tc.name, len(err.Error()), err)
		}
	}
}
