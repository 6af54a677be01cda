package scenario

import (
	"bytes"
	"strconv"
)

// The fast path of Parse. encoding/json scans a document once to check
// it and again to decode it, and once more for every level of nesting the
// strict key check (checkKeys) and the decoding of json.RawMessage fields
// descend; a 4·10⁶-processor scenario written as lists (90 MB) went
// through the decoder's scanner six times. fastParse reads the common
// form, a valid document with exactly the documented keys, in one pass:
// the top-level and application objects are walked here, their keys
// checked as they are read, number lists converted where they stand; the
// other values (the system, forms, policy, reconfigure; all a few bytes)
// are cut out as the exact byte spans encoding/json would give as
// json.RawMessage and handed to the same functions as before.
//
// fastParse never reports an error: on anything it does not accept
// (invalid JSON anywhere, a duplicate, case-variant, unknown or escaped
// key, a list that is not plain numbers, a value the checks reject) it
// returns ok = false, and Parse runs the reference path (parseReference),
// whose errors are then exactly those of the reference. So the errors do
// not depend on this file; what it must guarantee is that a scenario it
// accepts is one the reference accepts, equal field for field
// (FuzzParse checks both on every input).

// fastParse reads data (without a byte order mark) as Parse does.
func fastParse(data []byte, s *ParseSettings) (*Scenario, bool) {
	r := &scanner{b: data}
	const (
		kSystem = iota
		kApplication
		kPolicy
		kReconfigure
	)
	var (
		span    [4][]byte
		seen    [4]bool
		sys     System
		sysDone bool
		app     appSpans
		appDone bool
		pol     Policy
		polDone bool
	)
	r.space()
	if !r.byte('{') {
		return nil, false
	}
	r.space()
	for first := true; !r.byte('}'); first = false {
		if !first && (!r.byte(',') || !r.spaceThen()) {
			return nil, false
		}
		k := r.key("system", "application", "policy", "reconfigure")
		if k < 0 || seen[k] {
			return nil, false
		}
		seen[k] = true
		r.space()
		start := r.i
		switch {
		case k == kApplication && sysDone && r.peek() == '{':
			// The usual order: N is known, so lists are read where they
			// stand, each bounded by N.
			if app, appDone = walkApplication(r, sys.Processors); !appDone {
				return nil, false
			}
		case k == kPolicy && sysDone && r.peek() == '{':
			if pol, polDone = walkPolicy(r, sys.Processors); !polDone {
				return nil, false
			}
		case !r.value(0):
			return nil, false
		}
		span[k] = data[start:r.i]
		if k == kSystem {
			var err error
			if sys, err = parseSystem(span[k]); err != nil {
				return nil, false
			}
			sysDone = true
		}
		r.space()
	}
	r.space()
	if r.i != len(data) || !sysDone || len(span[kApplication]) == 0 || len(span[kPolicy]) == 0 {
		return nil, false
	}
	n := sys.Processors
	var application Application
	appChecked := true
	switch {
	case appDone:
		var err error
		if application, err = app.application(n); err != nil {
			return nil, false
		}
	case span[kApplication][0] == '{':
		sub := &scanner{b: span[kApplication]}
		var ok bool
		if app, ok = walkApplication(sub, n); !ok {
			return nil, false
		}
		var err error
		if application, err = app.application(n); err != nil {
			return nil, false
		}
	default: // a named application, or a value parseApplication rejects
		var err error
		if application, err = parseApplication(span[kApplication], n, s); err != nil {
			return nil, false
		}
		appChecked = span[kApplication][0] != '"'
	}
	if !polDone {
		var ok bool
		if span[kPolicy][0] == '{' {
			pol, ok = walkPolicy(&scanner{b: span[kPolicy]}, n)
		} else {
			var err error
			pol, err = parsePolicy(span[kPolicy], n)
			ok = err == nil
		}
		if !ok {
			return nil, false
		}
	}
	var rc Reconfigure
	var err error
	if !isNull(span[kReconfigure]) {
		if rc, err = parseReconfigure(span[kReconfigure]); err != nil {
			return nil, false
		}
	}
	sc, err := newScenario(sys, application, pol, appChecked)
	if err != nil {
		return nil, false
	}
	sc.Reconfigure = rc
	return sc, true
}

// walkPolicy reads a policy object, {"moldable": a} or {"vector": [r(1),
// …]} with at most n entries, as parsePolicy does.
func walkPolicy(r *scanner, n int) (Policy, bool) {
	var (
		pol  Policy
		seen [2]bool
	)
	if !r.byte('{') {
		return pol, false
	}
	r.space()
	for first := true; !r.byte('}'); first = false {
		if !first && (!r.byte(',') || !r.spaceThen()) {
			return pol, false
		}
		k := r.key("moldable", "vector")
		if k < 0 || seen[k] {
			return pol, false
		}
		seen[k] = true
		r.space()
		if k == 0 {
			a, ok := r.integer()
			if !ok {
				return pol, false
			}
			pol = Policy{Kind: Moldable, Processors: a}
		} else {
			v, ok := r.integers(n)
			if !ok {
				return pol, false
			}
			pol = Policy{Kind: Explicit, Explicit: v}
		}
		r.space()
	}
	// Exactly one of the two (parsePolicy rejects both and neither).
	return pol, seen[0] != seen[1]
}

// appSpans is an application object as walkApplication read it: each
// field either converted (a plain list of numbers; a list of such lists
// for the recovery) or kept as its byte span.
type appSpans struct {
	span [4][]byte
	list [4][]float64
	// isList[k] says that field k was a list read into list[k].
	isList [4]bool
	// matrix is the recovery given as a list of lists.
	matrix [][]float64
}

const (
	kWork = iota
	kLatency
	kOverhead
	kRecovery
)

// walkApplication reads the application object at r, bounding every list
// by n.
func walkApplication(r *scanner, n int) (appSpans, bool) {
	var a appSpans
	var seen [4]bool
	if !r.byte('{') {
		return a, false
	}
	r.space()
	for first := true; !r.byte('}'); first = false {
		if !first && (!r.byte(',') || !r.spaceThen()) {
			return a, false
		}
		k := r.key("work_rate", "checkpoint_latency", "checkpoint_overhead", "recovery")
		if k < 0 || seen[k] {
			return a, false
		}
		seen[k] = true
		r.space()
		start := r.i
		switch {
		case r.peek() == '[' && r.peekAfterBracket() == '[' && k == kRecovery:
			m, ok := r.matrix(n)
			if !ok {
				return a, false
			}
			a.matrix = m
		case r.peek() == '[':
			v, ok := r.numbers(n)
			if !ok {
				return a, false
			}
			a.list[k], a.isList[k] = v, true
		default:
			if !r.value(0) {
				return a, false
			}
		}
		a.span[k] = r.b[start:r.i]
		r.space()
	}
	return a, true
}

// application builds the application as parseApplication does from the
// same fields, and validates it.
func (a *appSpans) application(n int) (Application, error) {
	var (
		app Application
		err error
	)
	switch {
	case a.isList[kWork]:
		app.WorkRate = a.list[kWork]
	case isObject(a.span[kWork]):
		app.WorkRate, err = parseForm("application.work_rate", a.span[kWork], n)
	default:
		app.WorkRate, err = numberList("application.work_rate", a.span[kWork], n)
	}
	if err != nil {
		return app, err
	}
	perCountOrList := func(k int, field string) ([]float64, error) {
		if a.isList[k] {
			return a.list[k], nil
		}
		return perCount(field, a.span[k], n)
	}
	if app.Latency, err = perCountOrList(kLatency, "application.checkpoint_latency"); err != nil {
		return app, err
	}
	app.Overhead = app.Latency
	if len(a.span[kOverhead]) > 0 {
		if app.Overhead, err = perCountOrList(kOverhead, "application.checkpoint_overhead"); err != nil {
			return app, err
		}
	}
	switch {
	case a.matrix != nil:
		r := Recovery{matrix: a.matrix}
		if err := r.validate(n); err != nil {
			return app, err
		}
		app.Recovery = recoveryMatrixOwned(a.matrix)
	case a.isList[kRecovery]:
		app.Recovery = Recovery{byNew: a.list[kRecovery]}
	default:
		if app.Recovery, err = parseRecovery(a.span[kRecovery], n); err != nil {
			return app, err
		}
	}
	return app, app.Validate(n)
}

// scanner reads JSON from b at i. Its methods return false on anything
// but the strict JSON grammar (RFC 8259), which is what encoding/json
// accepts; the fast path then gives up.
type scanner struct {
	b []byte
	i int
}

func (r *scanner) space() { r.i = skipSpace(r.b, r.i) }

// spaceThen skips white space and reports whether input remains.
func (r *scanner) spaceThen() bool {
	r.space()
	return r.i < len(r.b)
}

func (r *scanner) peek() byte {
	if r.i < len(r.b) {
		return r.b[r.i]
	}
	return 0
}

// peekAfterBracket returns the first byte after the '[' at i and white
// space.
func (r *scanner) peekAfterBracket() byte {
	j := skipSpace(r.b, r.i+1)
	if j < len(r.b) {
		return r.b[j]
	}
	return 0
}

// byte consumes c if it is next.
func (r *scanner) byte(c byte) bool {
	if r.i < len(r.b) && r.b[r.i] == c {
		r.i++
		return true
	}
	return false
}

// key reads an object key and the colon after it, and returns the index
// of the name it equals exactly, or -1 (also for a key with escapes, which
// the reference path decodes).
func (r *scanner) key(names ...string) int {
	start := r.i + 1
	if !r.string() {
		return -1
	}
	raw := r.b[start : r.i-1]
	r.space()
	if !r.byte(':') || bytes.IndexByte(raw, '\\') >= 0 {
		return -1
	}
	for k, name := range names {
		if string(raw) == name {
			return k
		}
	}
	return -1
}

// string consumes a JSON string.
func (r *scanner) string() bool {
	if !r.byte('"') {
		return false
	}
	b := r.b
	for i := r.i; i < len(b); i++ {
		switch c := b[i]; {
		case c == '"':
			r.i = i + 1
			return true
		case c < 0x20:
			return false
		case c == '\\':
			i++
			if i >= len(b) {
				return false
			}
			switch b[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if i+4 >= len(b) {
					return false
				}
				for _, h := range b[i+1 : i+5] {
					if !('0' <= h && h <= '9' || 'a' <= h && h <= 'f' || 'A' <= h && h <= 'F') {
						return false
					}
				}
				i += 4
			default:
				return false
			}
		}
	}
	return false
}

// maxDepth bounds the nesting the fast path follows (encoding/json's own
// limit is 10,000; deeper documents take the reference path).
const maxDepth = 1000

// value consumes one JSON value of any kind.
func (r *scanner) value(depth int) bool {
	if depth > maxDepth {
		return false
	}
	switch r.peek() {
	case '{':
		r.i++
		r.space()
		for first := true; !r.byte('}'); first = false {
			if !first && (!r.byte(',') || !r.spaceThen()) {
				return false
			}
			if !r.string() {
				return false
			}
			r.space()
			if !r.byte(':') {
				return false
			}
			r.space()
			if !r.value(depth + 1) {
				return false
			}
			r.space()
		}
		return true
	case '[':
		r.i++
		r.space()
		for first := true; !r.byte(']'); first = false {
			if !first && (!r.byte(',') || !r.spaceThen()) {
				return false
			}
			if !r.value(depth + 1) {
				return false
			}
			r.space()
		}
		return true
	case '"':
		return r.string()
	case 't':
		return r.literal("true")
	case 'f':
		return r.literal("false")
	case 'n':
		return r.literal("null")
	}
	j := jsonNumberEnd(r.b, r.i)
	if j == r.i {
		return false
	}
	r.i = j
	return true
}

func (r *scanner) literal(s string) bool {
	if len(r.b)-r.i >= len(s) && string(r.b[r.i:r.i+len(s)]) == s {
		r.i += len(s)
		return true
	}
	return false
}

// numbers reads a list of at most n numbers where it stands, as
// scanNumbers does (the same grammar check and strconv.ParseFloat, so the
// same values as encoding/json).
func (r *scanner) numbers(n int) ([]float64, bool) {
	if !r.byte('[') {
		return nil, false
	}
	b := r.b
	i := skipSpace(b, r.i)
	// At most one number per two bytes of what remains: sizes the list
	// once for N entries without trusting N alone.
	out := make([]float64, 0, max(min(n, (len(b)-i)/2+1), 0))
	if i < len(b) && b[i] == ']' {
		r.i = i + 1
		return out, true
	}
	for {
		j := jsonNumberEnd(b, i)
		if j == i || len(out) >= n {
			return nil, false
		}
		x, err := strconv.ParseFloat(string(b[i:j]), 64)
		if err != nil {
			return nil, false
		}
		out = append(out, x)
		i = skipSpace(b, j)
		if i >= len(b) {
			return nil, false
		}
		switch b[i] {
		case ',':
			i = skipSpace(b, i+1)
		case ']':
			r.i = i + 1
			return out, true
		default:
			return nil, false
		}
	}
}

// integer reads a JSON number that encoding/json reads into an int: no
// fraction or exponent, within the int range.
func (r *scanner) integer() (int, bool) {
	j := jsonNumberEnd(r.b, r.i)
	if j == r.i {
		return 0, false
	}
	x, err := strconv.ParseInt(string(r.b[r.i:j]), 10, 0)
	if err != nil {
		return 0, false
	}
	r.i = j
	return int(x), true
}

// integers reads a list of at most n integers where it stands.
func (r *scanner) integers(n int) ([]int, bool) {
	if !r.byte('[') {
		return nil, false
	}
	r.space()
	out := make([]int, 0, max(min(n, (len(r.b)-r.i)/2+1), 0))
	for first := true; !r.byte(']'); first = false {
		if !first && (!r.byte(',') || !r.spaceThen()) {
			return nil, false
		}
		if len(out) >= n {
			return nil, false
		}
		x, ok := r.integer()
		if !ok {
			return nil, false
		}
		out = append(out, x)
		r.space()
	}
	return out, true
}

// matrix reads a list of at most n lists of at most n numbers.
func (r *scanner) matrix(n int) ([][]float64, bool) {
	if !r.byte('[') {
		return nil, false
	}
	var m [][]float64
	r.space()
	for first := true; !r.byte(']'); first = false {
		if !first && (!r.byte(',') || !r.spaceThen()) {
			return nil, false
		}
		if len(m) >= n {
			return nil, false
		}
		row, ok := r.numbers(n)
		if !ok {
			return nil, false
		}
		m = append(m, row)
		r.space()
	}
	return m, m != nil
}
