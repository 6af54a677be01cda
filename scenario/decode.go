package scenario

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/ckpt-markov/markov/internal/quote"
	"github.com/go-json-experiment/json/jsontext"
)

// decoder reads a scenario document token by token with jsontext (the
// syntax layer of github.com/go-json-experiment/json, the basis of Go's
// coming encoding/json/v2), which checks the grammar, UTF-8 and the
// numbers; the schema is read here, one value at a time, so that every
// list is counted against its bound before an entry is kept and every
// error names the field at fault.
type decoder struct {
	dec  *jsontext.Decoder
	size int64 // the input's size in bytes
}

// newDecoder reads data, which it keeps: jsontext reads a bytes.Buffer in
// place and never writes it.
func newDecoder(data []byte) *decoder {
	// Keys are checked against the schema by object, duplicates included,
	// so that the error names the key's path: jsontext's own duplicate
	// check is off.
	return &decoder{dec: jsontext.NewDecoder(bytes.NewBuffer(data), jsontext.AllowDuplicateNames(true)), size: int64(len(data))}
}

// fail turns an error of the tokenizer into Parse's: the input is not
// JSON.
func (d *decoder) fail(err error) error {
	var serr *jsontext.SyntacticError
	switch {
	case err == io.EOF || errors.Is(err, io.ErrUnexpectedEOF):
		return errors.New("scenario: not valid JSON: input ends early")
	case errors.As(err, &serr):
		return fmt.Errorf("scenario: not valid JSON (byte %d): %v", serr.ByteOffset+1, strings.TrimPrefix(serr.Err.Error(), "jsontext: "))
	}
	return err
}

// notJSONFirst returns, for an error found in the document (a field at
// fault), the input's error if the rest of it is not JSON: that the file
// is not JSON is the first thing to say, and the error must not depend on
// how far the reader had read when the field failed. The rest is read
// token by token, holding nothing.
func (d *decoder) notJSONFirst(err error) error {
	var se *Error
	if !errors.As(err, &se) {
		return err
	}
	for {
		if _, rerr := d.dec.ReadToken(); rerr == io.EOF {
			return err
		} else if rerr != nil {
			return d.fail(rerr)
		}
	}
}

// token reads the next token.
func (d *decoder) token() (jsontext.Token, error) {
	tok, err := d.dec.ReadToken()
	if err != nil {
		return tok, d.fail(err)
	}
	return tok, nil
}

// peek returns the kind of the next token (0 on an error, which the next
// read reports).
func (d *decoder) peek() jsontext.Kind { return d.dec.PeekKind() }

// null consumes a null if one is next; an optional field given as null
// is absent.
func (d *decoder) null() bool {
	if d.peek() != 'n' {
		return false
	}
	_, err := d.dec.ReadToken()
	return err == nil
}

// raw reads the next value whole, for a field that needs another one read
// first (a list bounded by N before the system): its bytes, bounded by
// the input, are kept, and read again by a decoder of their own. The
// input is never written (newDecoder), so they stay valid uncopied.
func (d *decoder) raw() (*decoder, error) {
	v, err := d.dec.ReadValue()
	if err != nil {
		return nil, d.fail(err)
	}
	return newDecoder(v), nil
}

// end checks that nothing follows the value read.
func (d *decoder) end() error {
	if _, err := d.dec.ReadToken(); err != io.EOF {
		return fieldErr("(top level)", "unexpected data after the JSON value")
	}
	return nil
}

// kindName names the kind of a JSON value for an error message.
func kindName(k jsontext.Kind) string {
	switch k {
	case '{':
		return "a JSON object"
	case '[':
		return "a JSON array"
	case '"':
		return "a JSON string"
	case 't', 'f':
		return "a JSON bool"
	case 'n':
		return "null"
	}
	return "a JSON number"
}

// open reads the delimiter that opens an object ('{') or a list ('['),
// or fails naming the field and what it wants there.
func (d *decoder) open(field string, kind jsontext.Kind, want string) error {
	if k := d.peek(); k != kind && k != 0 {
		return fieldErr(orRoot(field), "want %s, found %s", want, kindName(k))
	}
	_, err := d.token()
	return err
}

// object reads an object whose keys must be among keys: member is called
// for each, d standing at its value, which it must read. A key given
// twice, one that differs from one of keys only by case ("MTTF"), and any
// other key are errors naming the key.
func (d *decoder) object(field string, keys []string, member func(key string) error) error {
	if err := d.open(field, '{', "an object"); err != nil {
		return err
	}
	var seen uint64 // keys are few, at most 64
	for d.peek() != '}' {
		tok, err := d.token()
		if err != nil {
			return err
		}
		key := tok.String()
		k := slices.Index(keys, key)
		if k < 0 {
			return unknownKey(field, key, keys)
		}
		if seen&(1<<k) != 0 {
			return fieldErr(join(field, key), "given twice (a JSON object's keys must be unique)")
		}
		seen |= 1 << k
		if err := member(key); err != nil {
			return err
		}
	}
	_, err := d.token()
	return err
}

// unknownKey is the error for a key of the object at field that is not
// among keys.
func unknownKey(field, key string, keys []string) error {
	for _, name := range keys {
		if strings.EqualFold(key, name) {
			return fieldErr(join(field, quote.Bare(key)), "unknown field; keys are case-sensitive, did you mean %q?", name)
		}
	}
	return fieldErr(join(field, quote.Bare(key)), "unknown field (a typo?)")
}

// list reads a list of at most limit entries: entry is called with the
// index of each, d standing at it, which it must read. An entry past the
// limit is an error (tooLong), before it is read.
func (d *decoder) list(field, want string, limit int, tooLong string, entry func(i int) error) error {
	if err := d.open(field, '[', want); err != nil {
		return err
	}
	for i := 0; d.peek() != ']'; i++ {
		if i >= limit {
			return fieldErr(field, "%s", tooLong)
		}
		if err := entry(i); err != nil {
			return err
		}
	}
	_, err := d.token()
	return err
}

// entryName names entry i of the list field, or the field itself for
// i < 0. Readers take the two apart so that the name is built only for
// an error.
func entryName(field string, i int) string {
	if i < 0 {
		return field
	}
	return field + "[" + strconv.Itoa(i) + "]"
}

// number reads a JSON number into a float64 (entry i of field, see
// entryName).
func (d *decoder) number(field string, i int) (float64, error) {
	k := d.peek()
	tok, err := d.token()
	switch {
	case err != nil:
		return 0, err
	case k == 'n':
		return 0, fieldErr(entryName(field, i), "null, want a number")
	case k != '0':
		return 0, fieldErr(entryName(field, i), "want a number, found %s", kindName(k))
	}
	x, err := tok.Float()
	if err != nil {
		return 0, fieldErr(entryName(field, i), "want a number, %s is out of the range of a float64", quote.Bare(tok.String()))
	}
	return x, nil
}

// integer reads a JSON number without fraction or exponent within the
// range of an int (as encoding/json reads an int).
func (d *decoder) integer(field string, i int, want string) (int, error) {
	k := d.peek()
	tok, err := d.token()
	if err != nil {
		return 0, err
	}
	if k == '0' {
		// An error for a fraction, an exponent or beyond the int64 range.
		if x, err := tok.Int(); err == nil && int64(int(x)) == x {
			return int(x), nil
		}
	}
	return 0, fieldErr(entryName(field, i), "want %s, found %s", want, kindName(k))
}

// text reads a JSON string.
func (d *decoder) text(field, want string) (string, error) {
	k := d.peek()
	tok, err := d.token()
	switch {
	case err != nil:
		return "", err
	case k != '"':
		return "", fieldErr(field, "want %s, found %s", want, kindName(k))
	}
	return tok.String(), nil
}

// numbers reads a list of at most n numbers, one per processor count.
func (d *decoder) numbers(field string, n int) ([]float64, error) {
	n = max(n, 0) // a bad N is reported by validation; bound the list meanwhile
	return d.numberList(field, n, fmt.Sprintf("a list of %d numbers", n), fmt.Sprintf("has more than %d entries, want %d (one per processor count)", n, n))
}

// numberList reads a list of at most limit numbers (nulls are rejected,
// not read as zero), failing at entry limit+1 (tooLong) so that a list
// far longer than the limit is never built.
func (d *decoder) numberList(field string, limit int, want, tooLong string) ([]float64, error) {
	out := make([]float64, 0, d.capacity(limit))
	err := d.list(field, want, limit, tooLong, func(i int) error {
		x, err := d.number(field, i)
		out = append(out, x)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// capacity is the first allocation of a list of at most n entries: n,
// unless the input left is too short to hold them (two bytes a number at
// least), so that a large N with a short list costs nothing.
func (d *decoder) capacity(n int) int {
	return int(max(min(int64(n), (d.size-d.dec.InputOffset())/2+1), 0))
}

// seconds reads a JSON number of seconds or a duration string.
func (d *decoder) seconds(field string) (float64, error) {
	switch d.peek() {
	case 'n':
		return 0, fieldErr(field, "missing")
	case '"':
		s, err := d.text(field, "")
		if err != nil {
			return 0, err
		}
		x, err := ParseDuration(s)
		if err != nil {
			return 0, fieldErr(field, "%v", err)
		}
		return x, nil
	case '0', 0:
		return d.number(field, -1)
	}
	return 0, fieldErr(field, "want a number of seconds or a duration such as \"90m\", found %s", kindName(d.peek()))
}

func join(prefix, field string) string {
	switch {
	case prefix == "":
		return orRoot(field)
	case field == "":
		return prefix
	}
	return prefix + "." + field
}

func orRoot(s string) string {
	if s == "" {
		return "(top level)"
	}
	return s
}
