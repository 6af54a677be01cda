package scenario

import (
	"bytes"
	"math"
	"strconv"
	"unsafe"
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
		sys     System
		sysDone bool
		app     appSpans
		appDone bool
		pol     Policy
		polDone bool
	)
	r.space()
	ok := r.members([]string{"system", "application", "policy", "reconfigure"}, func(k int) bool {
		start := r.i
		switch {
		case k == kApplication && sysDone && r.peek() == '{':
			// The usual order: N is known, so lists are read where they
			// stand, each bounded by N.
			if app, appDone = walkApplication(r, sys.Processors); !appDone {
				return false
			}
		case k == kPolicy && sysDone && r.peek() == '{':
			if pol, polDone = walkPolicy(r, sys.Processors); !polDone {
				return false
			}
		case k == kApplication && r.peek() == '{':
			// N is not known yet: find the object's end, to walk it
			// once N is known. Its lists are not checked here (a
			// search for the closing bracket, with none of '"', '['
			// and '{' before it); the walk checks them.
			if !r.valueLazy() {
				return false
			}
		case !r.value(0):
			return false
		}
		span[k] = data[start:r.i]
		if k == kSystem {
			var err error
			if sys, err = parseSystem(span[k]); err != nil {
				return false
			}
			sysDone = true
		}
		return true
	})
	if !ok {
		return nil, false
	}
	r.space()
	if r.i != len(data) || !sysDone || len(span[kApplication]) == 0 || len(span[kPolicy]) == 0 {
		return nil, false
	}
	n := sys.Processors
	var application Application
	appChecked, workPositive := true, false
	switch {
	case appDone:
		var err error
		if application, workPositive, err = app.application(n); err != nil {
			return nil, false
		}
	case span[kApplication][0] == '{':
		sub := &scanner{b: span[kApplication]}
		var ok bool
		if app, ok = walkApplication(sub, n); !ok || sub.i != len(sub.b) {
			return nil, false
		}
		var err error
		if application, workPositive, err = app.application(n); err != nil {
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
	sc, err := newScenario(sys, application, pol, appChecked, workPositive)
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
		pol     Policy
		members int
	)
	ok := r.members([]string{"moldable", "vector"}, func(k int) bool {
		members++
		if k == 0 {
			a, ok := r.integer()
			pol = Policy{Kind: Moldable, Processors: a}
			return ok
		}
		v, ok := r.integers(n)
		pol = Policy{Kind: Explicit, Explicit: v}
		return ok
	})
	// Exactly one of the two (parsePolicy rejects both and neither).
	return pol, ok && members == 1
}

// appSpans is an application object as walkApplication read it: each
// field either converted (a plain list of numbers; a list of such lists
// for the recovery) or kept as its byte span.
type appSpans struct {
	span [5][]byte
	list [5][]float64
	// isList[k] says that field k was a list read into list[k], with
	// bounds[k].
	isList [5]bool
	bounds [5]bounds
	// matrix is the recovery given as a list of lists.
	matrix [][]float64
}

const (
	kWork = iota
	kLatency
	kOverhead
	kRecovery
	kReplicas
)

// walkApplication reads the application object at r, bounding every list
// by n.
func walkApplication(r *scanner, n int) (appSpans, bool) {
	var a appSpans
	ok := r.members([]string{"work_rate", "checkpoint_latency", "checkpoint_overhead", "recovery", "replicas"}, func(k int) bool {
		start := r.i
		switch {
		case k == kReplicas:
			// Kept as its span; application reads it as parseApplication does.
			if !r.value(0) {
				return false
			}
		case r.peek() == '[' && r.peekAfterBracket() == '[' && k == kRecovery:
			m, ok := r.matrix(n)
			if !ok {
				return false
			}
			a.matrix = m
		case r.peek() == '[':
			v, b, ok := r.numbers(n)
			if !ok {
				return false
			}
			a.list[k], a.bounds[k], a.isList[k] = v, b, true
		default:
			if !r.value(0) {
				return false
			}
		}
		a.span[k] = r.b[start:r.i]
		return true
	})
	return a, ok
}

// application builds the application as parseApplication does from the
// same fields, and validates it. Vectors whose bounds were tracked as
// they were read or expanded are not read again: Application.Validate
// runs only when some bound is unknown or out of range (and then reports
// the entry at fault). workPositive reports that every ω(a) > 0, as
// seen while reading them.
func (a *appSpans) application(n int) (app Application, workPositive bool, err error) {
	if app.Replicas, err = parseReplicas(a.span[kReplicas], n); err != nil {
		return app, false, err
	}
	var b [4]bounds
	switch {
	case a.isList[kWork]:
		app.WorkRate, b[kWork] = a.list[kWork], a.bounds[kWork]
	case isObject(a.span[kWork]):
		app.WorkRate, b[kWork], err = parseForm("application.work_rate", a.span[kWork], n)
	default:
		app.WorkRate, err = numberList("application.work_rate", a.span[kWork], n)
	}
	if err != nil {
		return app, false, err
	}
	perCountOrList := func(k int, field string) ([]float64, bounds, error) {
		if a.isList[k] {
			return a.list[k], a.bounds[k], nil
		}
		return perCount(field, a.span[k], n)
	}
	if app.Latency, b[kLatency], err = perCountOrList(kLatency, "application.checkpoint_latency"); err != nil {
		return app, false, err
	}
	app.Overhead = app.Latency
	overOK := true // C = L
	if len(a.span[kOverhead]) > 0 {
		if app.Overhead, b[kOverhead], err = perCountOrList(kOverhead, "application.checkpoint_overhead"); err != nil {
			return app, false, err
		}
		overOK = false
	}
	recOK := false
	switch {
	case a.matrix != nil:
		r := Recovery{matrix: a.matrix}
		if err := r.validate(n); err != nil {
			return app, false, err
		}
		app.Recovery, recOK = recoveryMatrixOwned(a.matrix), true
	case a.isList[kRecovery]:
		app.Recovery, b[kRecovery] = Recovery{byNew: a.list[kRecovery]}, a.bounds[kRecovery]
	default:
		if app.Recovery, b[kRecovery], err = parseRecovery(a.span[kRecovery], n); err != nil {
			return app, false, err
		}
	}
	if r := app.Recovery; r.byNew != nil && r.rows == 0 && len(r.byNew) == n {
		recOK = b[kRecovery].within(0, MaxSeconds)
	} else if r.linear != nil {
		recOK = r.linear.validate(n) == nil
	}
	if len(app.WorkRate) != n || len(app.Latency) != n || len(app.Overhead) != n ||
		!b[kWork].within(0, MaxWorkRate) || !(b[kWork].hi > 0) || !b[kLatency].within(0, MaxSeconds) || !recOK {
		return app, false, app.Validate(n)
	}
	if !overOK && b[kOverhead].within(0, MaxSeconds) {
		overOK = true
		for i, c := range app.Overhead {
			if !(c <= app.Latency[i]) {
				overOK = false
				break
			}
		}
	}
	if !overOK {
		return app, false, app.Validate(n)
	}
	return app, b[kWork].lo > 0, nil
}

// scanner reads JSON from b at i. Its methods return false on anything
// but the strict JSON grammar (RFC 8259), which is what encoding/json
// accepts; the fast path then gives up.
type scanner struct {
	b []byte
	i int
}

// str returns b as a string without copying it, so that numbers are
// converted from substrings: string(b[i:j]) would allocate for each of
// them, since strconv keeps its argument in the error it returns. b is
// Parse's own copy of the input and is never written after it was read,
// and the string does not outlive the parse (values are converted, and an
// error, which could hold a substring, is dropped).
func (r *scanner) str() string { return unsafe.String(unsafe.SliceData(r.b), len(r.b)) }

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

// members walks the object at r: each member's key must be one of keys
// (none twice), and member reads its value, r standing at it; whitespace
// around the values is skipped. It reports whether the object was well
// formed and every member call succeeded.
func (r *scanner) members(keys []string, member func(k int) bool) bool {
	if !r.byte('{') {
		return false
	}
	r.space()
	var seen uint64 // keys are few: len(keys) ≤ 64
	for first := true; !r.byte('}'); first = false {
		if !first && (!r.byte(',') || !r.spaceThen()) {
			return false
		}
		k := r.key(keys...)
		if k < 0 || seen&(1<<k) != 0 {
			return false
		}
		seen |= 1 << k
		r.space()
		if !member(k) {
			return false
		}
		r.space()
	}
	return true
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

// valueLazy consumes one object, as value does, except that a list of
// anything but strings, lists and objects is consumed up to its closing
// bracket without looking at what it holds. What it passes must be
// checked again with value or walkApplication.
func (r *scanner) valueLazy() bool {
	if !r.byte('{') {
		return false
	}
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
		if r.peek() == '[' {
			if end := flatListEnd(r.b[r.i:]); end > 0 {
				r.i += end
				r.space()
				continue
			}
		}
		if !r.value(1) {
			return false
		}
		r.space()
	}
	return true
}

// flatListEnd returns the length of the list b starts with if it holds no
// '"', '[' or '{' (so that its first ']' closes it), or 0.
func flatListEnd(b []byte) int {
	j := bytes.IndexByte(b[1:], ']')
	if j < 0 {
		return 0
	}
	in := b[1 : 1+j]
	if bytes.IndexByte(in, '"') >= 0 || bytes.IndexByte(in, '[') >= 0 || bytes.IndexByte(in, '{') >= 0 {
		return 0
	}
	return j + 2
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
// same values as encoding/json), and returns the list's bounds.
func (r *scanner) numbers(n int) ([]float64, bounds, bool) {
	if !r.byte('[') {
		return nil, bounds{}, false
	}
	b, s := r.b, r.str()
	i := skipSpace(b, r.i)
	// At most one number per two bytes of what remains: sizes the list
	// once for N entries without trusting N alone.
	out := make([]float64, 0, max(min(n, (len(b)-i)/2+1), 0))
	lo, hi := math.Inf(1), math.Inf(-1)
	if i < len(b) && b[i] == ']' {
		r.i = i + 1
		return out, bounds{lo, hi, true}, true
	}
	for {
		x, j, ok := number(b, s, i)
		if !ok || len(out) >= n {
			return nil, bounds{}, false
		}
		out = append(out, x)
		lo, hi = track(lo, hi, x)
		i = skipSpace(b, j)
		if i >= len(b) {
			return nil, bounds{}, false
		}
		switch b[i] {
		case ',':
			i = skipSpace(b, i+1)
		case ']':
			r.i = i + 1
			return out, bounds{lo, hi, true}, true
		default:
			return nil, bounds{}, false
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
	x, err := strconv.ParseInt(r.str()[r.i:j], 10, 0)
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
		row, _, ok := r.numbers(n)
		if !ok {
			return nil, false
		}
		m = append(m, row)
		r.space()
	}
	return m, m != nil
}

// pow10 holds the powers of ten that are exact in float64.
var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// number reads the JSON number at b[i] and returns its value and end, as
// jsonNumberEnd and strconv.ParseFloat together would: ok is false where
// either fails. The digits are read once, for the grammar and the value
// together; a number of at most 2⁵³ in its digits (leading zeros aside)
// times a power of ten up to 10²² either way is converted by one float
// multiplication or division of two exact operands, hence correctly
// rounded (Clinger's fast path, which strconv takes for these numbers
// too), and anything else by strconv.ParseFloat. Either way the result is
// the correctly rounded value, the one encoding/json gives.
func number(b []byte, s string, i int) (float64, int, bool) {
	start := i
	neg := i < len(b) && b[i] == '-'
	if neg {
		i++
	}
	var (
		mant   uint64
		digits int  // significant digits in mant
		many   bool // more than 19 significant digits
		exp10  int
	)
	digit := func(c byte) {
		if mant == 0 && c == '0' {
			return
		}
		if digits == 19 {
			many = true
			return
		}
		mant = mant*10 + uint64(c-'0')
		digits++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			digit(b[i])
			if many {
				exp10++ // a dropped integer digit
			}
			i++
		}
	default:
		return 0, start, false
	}
	if i < len(b) && b[i] == '.' {
		i++
		k := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			digit(b[i])
			if !many {
				exp10--
			}
			i++
		}
		if i == k {
			return 0, start, false
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		eneg := false
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			eneg = b[i] == '-'
			i++
		}
		k, e := i, 0
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			if e < 100_000 {
				e = e*10 + int(b[i]-'0')
			}
			i++
		}
		if i == k {
			return 0, start, false
		}
		if eneg {
			e = -e
		}
		exp10 += e
	}
	if !many && mant <= 1<<53 && exp10 >= -22 && exp10 <= 22 {
		f := float64(mant)
		if exp10 < 0 {
			f /= pow10[-exp10]
		} else {
			f *= pow10[exp10]
		}
		if neg {
			f = -f
		}
		return f, i, true
	}
	x, err := strconv.ParseFloat(s[start:i], 64)
	return x, i, err == nil
}
