package scenario

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"reflect"
	"strconv"
	"strings"

	"github.com/ckpt-markov/markov/internal/quote"
	"github.com/ckpt-markov/markov/reschedule"
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

type fileJSON struct {
	System      json.RawMessage `json:"system"`
	Application json.RawMessage `json:"application"`
	Policy      json.RawMessage `json:"policy"`
	// Reconfigure is "never" (the default) or "at-checkpoint".
	Reconfigure json.RawMessage `json:"reconfigure"`
	// CheckpointPattern is [V₁, …, V_{L−1}] (levels.go).
	CheckpointPattern json.RawMessage `json:"checkpoint_pattern"`
}

type systemJSON struct {
	Processors *int            `json:"processors"`
	MTTF       json.RawMessage `json:"mttf"`
	MTTR       json.RawMessage `json:"mttr"`
	// FailureEvents is {"sizes": [p1, p2, ...]}.
	FailureEvents json.RawMessage `json:"failure_events"`
	// FailureSeverity is [f₁, …, f_L] (levels.go).
	FailureSeverity json.RawMessage `json:"failure_severity"`
}

type failureEventsJSON struct {
	Sizes json.RawMessage `json:"sizes"`
}

type applicationJSON struct {
	WorkRate json.RawMessage `json:"work_rate"`
	Latency  json.RawMessage `json:"checkpoint_latency"`
	Overhead json.RawMessage `json:"checkpoint_overhead"`
	Recovery json.RawMessage `json:"recovery"`
	// Levels and AfterRecovery are the multi-level fields (levels.go).
	Levels        json.RawMessage `json:"checkpoint_levels"`
	AfterRecovery json.RawMessage `json:"checkpoint_after_recovery"`
	Replicas      json.RawMessage `json:"replicas"`
}

type policyJSON struct {
	Moldable *int            `json:"moldable"`
	Vector   json.RawMessage `json:"vector"`
	Table    json.RawMessage `json:"table"`
}

// tableEntryJSON is one entry of a policy's decision table.
type tableEntryJSON struct {
	P *int            `json:"p"`
	N json.RawMessage `json:"n"`
	A json.RawMessage `json:"a"`
}

// Parse reads a scenario in the JSON form of the package documentation and
// validates it. Errors are *Error values naming the field at fault, or say
// that the input is not JSON.
//
// Keys are matched exactly: a duplicate key, or one that differs from a
// documented key only by case ("MTTF"), is an error naming it. A leading
// UTF-8 byte order mark is skipped. Every list is read entry by entry and
// rejected as soon as it is longer than N, so the size of what is built is
// bounded by N ≤ MaxProcessors, not by the input.
//
// The input is read in chunks and refused at the first byte that no JSON
// text holds there (byteCheck): a binary file (/dev/zero, /dev/urandom)
// costs one chunk, not MaxBytes. The bytes read are bounded by MaxBytes
// and, where the process has an address-space limit (ulimit -v), by the
// share of the address space left that reading and parsing can use
// (addressSpaceBytes).
func Parse(r io.Reader, s *ParseSettings) (*Scenario, error) {
	limit := int64(DefaultMaxBytes)
	if s != nil && s.MaxBytes > 0 {
		limit = s.MaxBytes
	}
	data, err := readAll(r, limit)
	if err != nil {
		return nil, err
	}
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	if sc, ok := fastParse(data, s); ok {
		return sc, nil
	}
	return parseReference(data, s)
}

// readChunk is the size of the reads of readAll, and of its buffer's
// first allocation when the input's size is not known.
const readChunk = 64 << 10

// readAll reads r to its end, at most limit bytes: into a buffer of the
// right size at once when r tells its length (a file, a bytes or strings
// reader), else in chunks with a buffer that grows by a quarter (a peak
// of 2.25 times the input, not the 3 of doubling). Every chunk is checked
// (byteCheck) before the next is read, so that a file that is not JSON
// stops the read at its first bytes.
func readAll(r io.Reader, limit int64) ([]byte, error) {
	asLimited := false
	if as, ok := addressSpaceBytes(); ok && as < limit {
		limit, asLimited = max(as, 1), true
	}
	tooLarge := func() error {
		if asLimited {
			return fieldErr("(file)", "larger than the %d bytes that the address-space limit (ulimit -v) leaves room to read", limit)
		}
		return fieldErr("(file)", "larger than the limit of %d bytes (scenario.ParseSettings.MaxBytes)", limit)
	}
	var size int64 = -1
	switch x := r.(type) {
	case interface{ Len() int }:
		size = int64(x.Len())
	case *os.File:
		if st, err := x.Stat(); err == nil && st.Mode().IsRegular() {
			if off, err := x.Seek(0, io.SeekCurrent); err == nil {
				size = st.Size() - off
			}
		}
	}
	bc := byteCheck{skipBOM: true}
	if size > limit {
		// Refused after one chunk, which may show that the file is not
		// JSON at all (the more useful error).
		first := make([]byte, readChunk)
		n, err := io.ReadFull(r, first)
		if cerr := bc.check(first[:n], true); cerr != nil {
			return nil, cerr
		}
		if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
			return nil, err
		}
		return nil, tooLarge()
	}
	var buf []byte
	if size >= 0 {
		// One byte more than announced, so that the end shows without
		// growing the buffer; a reader that grew since is still read to
		// its end, bounded by the limit.
		buf = make([]byte, 0, size+1)
	} else {
		buf = make([]byte, 0, readChunk)
	}
	checked := 0
	for {
		if len(buf) == cap(buf) {
			grown := make([]byte, len(buf), min(int64(cap(buf))+int64(cap(buf))/4+readChunk, limit+1))
			copy(grown, buf)
			buf = grown
		}
		n, err := r.Read(buf[len(buf):min(cap(buf), len(buf)+readChunk)])
		buf = buf[:len(buf)+n]
		if err != nil && err != io.EOF {
			return nil, err
		}
		// A byte order mark is recognised whole: checked from 3 bytes on.
		if end := err == io.EOF; end || len(buf) >= len(bomPrefix) {
			if cerr := bc.check(buf[checked:], end); cerr != nil {
				return nil, cerr
			}
			checked = len(buf)
		}
		if int64(len(buf)) > limit {
			return nil, tooLarge()
		}
		if err == io.EOF {
			return buf, nil
		}
	}
}

var bomPrefix = []byte("\ufeff")

// byteCheck finds, in an input given chunk by chunk, the first byte that
// cannot stand where it is in any JSON text: a first byte (after white
// space) that begins no JSON value, or a control character other than tab,
// line feed and carriage return, which JSON allows neither outside strings
// nor, raw, inside them (RFC 8259, sections 2 and 7). Parse checks every
// chunk as it reads, and parseReference its whole input, so that the two
// give the same error.
type byteCheck struct {
	skipBOM bool  // skip a leading byte order mark (readAll; Parse trims it)
	n       int64 // bytes seen
	base    int64 // bytes of the byte order mark skipped
	started bool  // the first value byte was seen
}

// check checks the next chunk; last says that no byte follows.
func (c *byteCheck) check(chunk []byte, last bool) error {
	i := 0
	if c.skipBOM && c.n == 0 && bytes.HasPrefix(chunk, bomPrefix) {
		i, c.base = len(bomPrefix), int64(len(bomPrefix))
	}
	for ; i < len(chunk); i++ {
		b := chunk[i]
		if b < 0x20 && b != '\t' && b != '\n' && b != '\r' {
			return notJSON(c.n+int64(i)-c.base, b, "(a control character: is this a binary file?)")
		}
		if c.started {
			continue
		}
		switch b {
		case ' ', '\t', '\n', '\r':
		case '{', '[', '"', '-', 't', 'f', 'n', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
			c.started = true
		default:
			return notJSON(c.n+int64(i)-c.base, b, "looking for beginning of value")
		}
	}
	c.n += int64(len(chunk))
	return nil
}

// notJSON is decodeStrict's error for a syntax error at byte off (from 0)
// of the input.
func notJSON(off int64, b byte, context string) error {
	q := strconv.QuoteRune(rune(b))
	if b == '\'' {
		q = `'\''`
	}
	return fmt.Errorf("scenario: not valid JSON (byte %d): invalid character %s %s", off+1, q, context)
}

// parseReference is the reference reading of a scenario, with
// encoding/json: Parse's errors are its errors, and fastParse accepts only
// what it accepts, giving the same scenario.
func parseReference(data []byte, s *ParseSettings) (*Scenario, error) {
	var bc byteCheck
	if err := bc.check(data, true); err != nil {
		return nil, err
	}
	var f fileJSON
	if err := decodeStrict(data, &f, ""); err != nil {
		return nil, err
	}
	if len(f.System) == 0 {
		return nil, fieldErr("system", "missing")
	}
	sys, err := parseSystem(f.System)
	if err != nil {
		return nil, err
	}
	if len(f.Application) == 0 {
		return nil, fieldErr("application", "missing")
	}
	app, err := parseApplication(f.Application, sys.Processors, s)
	if err != nil {
		return nil, err
	}
	// parseApplication validated an application given in the file; a
	// named one is validated by newScenario.
	appChecked := f.Application[0] != '"'
	if len(f.Policy) == 0 {
		return nil, fieldErr("policy", "missing")
	}
	pol, err := parsePolicy(f.Policy, sys.Processors)
	if err != nil {
		return nil, err
	}
	var rc Reconfigure
	if !isNull(f.Reconfigure) {
		if rc, err = parseReconfigure(f.Reconfigure); err != nil {
			return nil, err
		}
	}
	var pattern []int
	if !isNull(f.CheckpointPattern) {
		if pattern, err = parsePattern(f.CheckpointPattern); err != nil {
			return nil, err
		}
	}
	sc, err := newScenario(sys, app, pol, appChecked, false)
	if err != nil {
		return nil, err
	}
	sc.Reconfigure = rc
	if pattern != nil {
		sc.CheckpointPattern = pattern
		if err := sc.checkLevels(); err != nil {
			return nil, err
		}
	}
	return sc, nil
}

// parseSystem reads and validates the system object.
func parseSystem(raw json.RawMessage) (System, error) {
	var sj systemJSON
	if err := decodeStrict(raw, &sj, "system"); err != nil {
		return System{}, err
	}
	return sj.system()
}

// parseReconfigure reads the reconfigure field, given and not null.
func parseReconfigure(raw json.RawMessage) (Reconfigure, error) {
	var name string
	if err := json.Unmarshal(raw, &name); err != nil {
		return 0, fieldErr("reconfigure", "want \"never\" or \"at-checkpoint\"")
	}
	return ParseReconfigure(name)
}

func (j *systemJSON) system() (System, error) {
	if j.Processors == nil {
		return System{}, fieldErr("system.processors", "missing")
	}
	mttf, err := parseSeconds("system.mttf", j.MTTF)
	if err != nil {
		return System{}, err
	}
	mttr, err := parseSeconds("system.mttr", j.MTTR)
	if err != nil {
		return System{}, err
	}
	sys := System{Processors: *j.Processors, MTTF: mttf, MTTR: mttr}
	if !isNull(j.FailureEvents) {
		var fj failureEventsJSON
		if err := decodeStrict(j.FailureEvents, &fj, "system.failure_events"); err != nil {
			return System{}, err
		}
		sizes, err := numberList("system.failure_events.sizes", fj.Sizes, *j.Processors)
		var se *Error
		if errors.As(err, &se) && se.Field == "system.failure_events.sizes" && strings.HasPrefix(se.Problem, "has more than") {
			// Read entry by entry and stopped after N: say why N bounds it.
			err = fieldErr(se.Field, "has more than %d entries, but an event cannot take down more than the %d processors", *j.Processors, *j.Processors)
		}
		if err != nil {
			return System{}, err
		}
		sys.FailureEvents = &FailureEvents{Sizes: sizes}
	}
	if !isNull(j.FailureSeverity) {
		f, err := parseSeverity(j.FailureSeverity)
		if err != nil {
			return System{}, err
		}
		sys.FailureSeverity = &FailureSeverity{Shares: f}
	}
	return sys, sys.Validate()
}

func parseApplication(raw json.RawMessage, n int, s *ParseSettings) (Application, error) {
	if raw[0] == '"' {
		var name string
		if err := json.Unmarshal(raw, &name); err != nil {
			return Application{}, fieldErr("application", "%v", err)
		}
		if s == nil || s.Applications == nil {
			return Application{}, fieldErr("application", "named application %s, but no built-in applications are available here", quote.Value(name))
		}
		app, err := s.Applications(name, n)
		if err != nil {
			return Application{}, fieldErr("application", "%v", err)
		}
		return app, nil
	}
	var j applicationJSON
	if err := decodeStrict(raw, &j, "application"); err != nil {
		return Application{}, err
	}
	noAfter := false
	if !isNull(j.AfterRecovery) {
		after, err := parseAfterRecovery(j.AfterRecovery)
		if err != nil {
			return Application{}, err
		}
		noAfter = !after
	}
	if !isNull(j.Levels) {
		for _, f := range []struct {
			raw  json.RawMessage
			name string
		}{{j.Latency, "checkpoint_latency"}, {j.Overhead, "checkpoint_overhead"}, {j.Recovery, "recovery"}} {
			if len(f.raw) > 0 {
				return Application{}, fieldErr("application.checkpoint_levels", "given together with application.%s: give the levels or the single-level fields, not both", f.name)
			}
		}
	}
	var work []float64
	var err error
	if isObject(j.WorkRate) {
		work, _, err = parseForm("application.work_rate", j.WorkRate, n)
	} else {
		work, err = numberList("application.work_rate", j.WorkRate, n)
	}
	if err != nil {
		return Application{}, err
	}
	// Check the length before expanding scalars to n entries, so that a
	// huge processor count fails here rather than in an allocation.
	if err := checkVector("application.work_rate", work, n); err != nil {
		return Application{}, err
	}
	if !isNull(j.Levels) {
		levels, err := parseLevels(j.Levels, n)
		if err != nil {
			return Application{}, err
		}
		app := Application{WorkRate: work, NoCheckpointAfterRecovery: noAfter}
		if len(levels) == 1 { // one level is the single-level model
			app.Latency, app.Overhead, app.Recovery = levels[0].Latency, levels[0].Overhead, levels[0].Recovery
		} else {
			app.Levels = levels
		}
		if app.Replicas, err = parseReplicas(j.Replicas, n); err != nil {
			return Application{}, err
		}
		return app, app.Validate(n)
	}
	lat, _, err := perCount("application.checkpoint_latency", j.Latency, n)
	if err != nil {
		return Application{}, err
	}
	over := lat
	if len(j.Overhead) > 0 {
		if over, _, err = perCount("application.checkpoint_overhead", j.Overhead, n); err != nil {
			return Application{}, err
		}
	}
	rec, _, err := parseRecovery(j.Recovery, n)
	if err != nil {
		return Application{}, err
	}
	app := Application{WorkRate: work, Latency: lat, Overhead: over, Recovery: rec, NoCheckpointAfterRecovery: noAfter}
	if app.Replicas, err = parseReplicas(j.Replicas, n); err != nil {
		return Application{}, err
	}
	return app, app.Validate(n)
}

// perCount reads a number (or duration string) for every count, or a list
// of n, or a form; the bounds are known for a number or a form.
func perCount(field string, raw json.RawMessage, n int) ([]float64, bounds, error) {
	if isNull(raw) {
		return nil, bounds{}, fieldErr(field, "missing")
	}
	if isObject(raw) {
		return parseForm(field, raw, n)
	}
	if raw[0] == '[' {
		v, err := numberList(field, raw, n)
		if err != nil {
			return nil, bounds{}, err
		}
		return v, bounds{}, checkVector(field, v, n)
	}
	x, err := parseSeconds(field, raw)
	if err != nil {
		return nil, bounds{}, err
	}
	v := make([]float64, n)
	for i := range v {
		v[i] = x
	}
	return v, scalarBounds(x), nil
}

// parseRecovery reads the recovery field; the bounds are known for a cost
// by new count given as a number or a form.
func parseRecovery(raw json.RawMessage, n int) (Recovery, bounds, error) {
	const field = "application.recovery"
	if isNull(raw) {
		return Recovery{}, bounds{}, fieldErr(field, "missing")
	}
	if isObject(raw) {
		return parseRecoveryForm(raw, n)
	}
	trimmed := bytes.TrimLeft(raw[1:], " \t\r\n")
	if raw[0] == '[' && len(trimmed) > 0 && trimmed[0] == '[' {
		var m [][]float64
		err := listEntries(field, raw, n, func(entry string, row json.RawMessage) error {
			v, err := numberList(entry, row, n)
			m = append(m, v)
			return err
		})
		if err != nil {
			return Recovery{}, bounds{}, err
		}
		r := Recovery{matrix: m}
		if err := r.validate(n); err != nil {
			return Recovery{}, bounds{}, err
		}
		return RecoveryMatrix(m), bounds{}, nil
	}
	if raw[0] != '[' {
		// One cost for every count: kept as a number, not n copies of
		// it. R(p, a) = x + (-0)·a is x exactly, -0 included.
		x, err := parseSeconds(field, raw)
		if err != nil {
			return Recovery{}, bounds{}, err
		}
		return RecoveryLinear(x, 0, math.Copysign(0, -1), n), bounds{}, nil
	}
	v, b, err := perCount(field, raw, n)
	if err != nil {
		return Recovery{}, bounds{}, err
	}
	return Recovery{byNew: v}, b, nil
}

// ParsePolicyJSON reads the "policy" value of a scenario file on n
// processors, as Parse does: a string (ParsePolicy) or an object
// {"moldable": a}, {"vector": [...]} or {"table": [...]}. Errors name the
// field at fault.
func ParsePolicyJSON(raw []byte, n int) (Policy, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return Policy{}, fieldErr("policy", "missing")
	}
	return parsePolicy(raw, n)
}

func parsePolicy(raw json.RawMessage, n int) (Policy, error) {
	if raw[0] == '"' {
		var name string
		if err := json.Unmarshal(raw, &name); err != nil {
			return Policy{}, fieldErr("policy", "%v", err)
		}
		return ParsePolicy(name)
	}
	var j policyJSON
	if err := decodeStrict(raw, &j, "policy"); err != nil {
		return Policy{}, err
	}
	given := 0
	for _, set := range []bool{j.Moldable != nil, j.Vector != nil, j.Table != nil} {
		if set {
			given++
		}
	}
	switch {
	case given > 1:
		return Policy{}, fieldErr("policy", "give one of moldable, vector and table, not several")
	case j.Table != nil:
		e, err := parseTable(j.Table, n)
		if err != nil {
			return Policy{}, err
		}
		return Policy{Kind: Table, Table: e}, nil
	case j.Moldable != nil:
		return Policy{Kind: Moldable, Processors: *j.Moldable}, nil
	case j.Vector != nil:
		if isNull(j.Vector) {
			return Policy{}, fieldErr("policy.vector", "null, want a list of %d processor counts", n)
		}
		v := []int{}
		err := listEntries("policy.vector", j.Vector, n, func(entry string, item json.RawMessage) error {
			var r int
			if err := json.Unmarshal(item, &r); err != nil || isNull(item) {
				return fieldErr(entry, "want an integer, found %s", jsonKind(item))
			}
			v = append(v, r)
			return nil
		})
		if err != nil {
			return Policy{}, err
		}
		return Policy{Kind: Explicit, Explicit: v}, nil
	}
	return Policy{}, fieldErr("policy", "object needs a \"moldable\", a \"vector\" or a \"table\" field")
}

// parseTable reads the entries of a decision table, {"p": P, "n": [lo,
// hi], "a": A} with p optional (the default row), n a range or one count
// and a a count or "n". The list is bounded by reschedule.MaxTableEntries
// and each entry's values by N as they are read; NewTable checks the rest.
func parseTable(raw json.RawMessage, n int) ([]reschedule.Entry, error) {
	const field = "policy.table"
	if isNull(raw) {
		return nil, fieldErr(field, "null, want a list of entries {\"p\": P, \"n\": [lo, hi], \"a\": A}")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('[') {
		return nil, fieldErr(field, "want a list of entries, found %s", jsonKind(raw))
	}
	var out []reschedule.Entry
	for i := 0; dec.More(); i++ {
		entry := fmt.Sprintf("%s[%d]", field, i)
		if i == reschedule.MaxTableEntries {
			return nil, fieldErr(field, "has more than %d entries", reschedule.MaxTableEntries)
		}
		var item json.RawMessage
		if err := dec.Decode(&item); err != nil {
			return nil, fieldErr(field, "want a list of entries, %v", jsonProblem(err))
		}
		var j tableEntryJSON
		if err := decodeStrict(item, &j, entry); err != nil {
			return nil, err
		}
		e := reschedule.Entry{}
		if j.P != nil {
			if *j.P < 1 || *j.P > n {
				return nil, fieldErr(entry+".p", "%d, want a processor count in [1, %d] (omit p for the default row)", *j.P, n)
			}
			e.P = *j.P
		}
		var err error
		if e.Lo, e.Hi, err = tableRange(entry+".n", j.N); err != nil {
			return nil, err
		}
		if e.A, err = tableAction(entry+".a", j.A); err != nil {
			return nil, err
		}
		if err := e.Validate(n); err != nil {
			return nil, fieldErr(entry, "%v", err)
		}
		out = append(out, e)
	}
	return out, nil
}

// tableRange reads a table entry's n: [lo, hi] or one count.
func tableRange(field string, raw json.RawMessage) (lo, hi int, err error) {
	if isNull(raw) {
		return 0, 0, fieldErr(field, "missing, want [lo, hi] or a processor count")
	}
	if err := json.Unmarshal(raw, &lo); err == nil {
		return lo, lo, nil
	}
	var r []json.RawMessage
	if err := json.Unmarshal(raw, &r); err != nil || len(r) != 2 {
		return 0, 0, fieldErr(field, "want [lo, hi] or a processor count, found %s", jsonKind(raw))
	}
	if json.Unmarshal(r[0], &lo) != nil || json.Unmarshal(r[1], &hi) != nil {
		return 0, 0, fieldErr(field, "want two integers [lo, hi]")
	}
	return lo, hi, nil
}

// tableAction reads a table entry's a: a count or "n".
func tableAction(field string, raw json.RawMessage) (int, error) {
	if isNull(raw) {
		return 0, fieldErr(field, "missing, want a processor count or \"n\"")
	}
	var a int
	if err := json.Unmarshal(raw, &a); err == nil {
		return a, nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err == nil && s == "n" {
		return reschedule.AllUp, nil
	}
	return 0, fieldErr(field, "want a processor count or \"n\", found %s", jsonKind(raw))
}

// isNull reports whether a raw JSON value is absent or null.
func isNull(raw json.RawMessage) bool {
	return len(raw) == 0 || string(bytes.TrimSpace(raw)) == "null"
}

// numberList reads a JSON list of numbers; an error names the entry at
// fault (nulls are rejected, not read as zero). It reads the list entry by
// entry and fails at entry n+1, so a list far longer than n is never built.
func numberList(field string, raw json.RawMessage, n int) ([]float64, error) {
	if isNull(raw) {
		return nil, fieldErr(field, "missing")
	}
	// The common case, a well-formed list of at most n numbers, is scanned
	// directly (tens of ns per number rather than ≈ 2 µs item by item);
	// anything else takes the item-by-item path below, whose errors name
	// the entry and which stops after entry n+1.
	if out, ok := scanNumbers(raw, n); ok {
		return out, nil
	}
	var out []float64
	err := listEntries(field, raw, n, func(entry string, item json.RawMessage) error {
		if isNull(item) {
			return fieldErr(entry, "null, want a number")
		}
		var x float64
		if err := json.Unmarshal(item, &x); err != nil {
			return fieldErr(entry, "want a number, %v", jsonProblem(err))
		}
		out = append(out, x)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if out == nil {
		out = []float64{}
	}
	return out, nil
}

// listEntries calls fn for every entry of the JSON list raw, in order, and
// fails as soon as the list has more than n entries, naming the limit.
func listEntries(field string, raw json.RawMessage, n int, fn func(entry string, item json.RawMessage) error) error {
	n = max(n, 0) // a bad N is reported by validation; bound the list meanwhile
	dec := json.NewDecoder(bytes.NewReader(raw))
	tok, err := dec.Token()
	if err != nil || tok != json.Delim('[') {
		return fieldErr(field, "want a list of %d numbers, found %s", n, jsonKind(raw))
	}
	for i := 0; dec.More(); i++ {
		if i == n {
			return fieldErr(field, "has more than %d entries, want %d (one per processor count)", n, n)
		}
		var item json.RawMessage
		if err := dec.Decode(&item); err != nil {
			return fieldErr(field, "want a list of %d numbers, %v", n, jsonProblem(err))
		}
		if err := fn(fmt.Sprintf("%s[%d]", field, i), item); err != nil {
			return err
		}
	}
	return nil
}

// jsonKind names the kind of a JSON value for an error message.
func jsonKind(raw json.RawMessage) string {
	t := bytes.TrimSpace(raw)
	if len(t) == 0 {
		return "nothing"
	}
	switch t[0] {
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

// checkKeys rejects, in the JSON object raw (anything else passes: the
// decoder reports it), a key given twice or a key that differs from one of
// t's JSON field names only by case, and does the same in every nested
// object that t decodes into a struct. encoding/json would keep the last of
// duplicate keys and match keys without regard to case, so "MTTF" next to
// "mttf" would silently win. Values are skipped, not decoded; fields kept
// as json.RawMessage are checked when they are decoded in turn.
func checkKeys(raw json.RawMessage, prefix string, t reflect.Type) error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil
	}
	seen := make(map[string]bool)
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil // malformed: decodeStrict reports it
		}
		key, ok := tok.(string)
		if !ok {
			return nil
		}
		if seen[key] {
			return fieldErr(join(prefix, quote.Bare(key)), "given twice (a JSON object's keys must be unique)")
		}
		seen[key] = true
		var field reflect.Type
		for i := range t.NumField() {
			name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
			switch {
			case key == name:
				field = t.Field(i).Type
			case strings.EqualFold(key, name):
				return fieldErr(join(prefix, quote.Bare(key)), "unknown field; keys are case-sensitive, did you mean %q?", name)
			}
		}
		var value json.RawMessage
		if err := dec.Decode(&value); err != nil {
			return nil
		}
		if field != nil && field != rawMessage {
			if err := checkKeys(value, join(prefix, key), field); err != nil {
				return err
			}
		}
	}
	return nil
}

var rawMessage = reflect.TypeFor[json.RawMessage]()

// parseSeconds reads a JSON number of seconds or a duration string.
func parseSeconds(field string, raw json.RawMessage) (float64, error) {
	if isNull(raw) {
		return 0, fieldErr(field, "missing")
	}
	if raw[0] == '"' {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return 0, fieldErr(field, "%v", err)
		}
		x, err := ParseDuration(s)
		if err != nil {
			return 0, fieldErr(field, "%v", err)
		}
		return x, nil
	}
	var x float64
	if err := json.Unmarshal(raw, &x); err != nil {
		return 0, fieldErr(field, "want a number of seconds or a duration such as \"90m\": %v", jsonProblem(err))
	}
	return x, nil
}

// decodeStrict decodes one JSON value into v, rejecting unknown fields and
// trailing data, and turns encoding/json errors into *Error values whose
// field path is prefixed with prefix.
func decodeStrict(data []byte, v any, prefix string) error {
	if err := checkKeys(data, prefix, reflect.TypeOf(v)); err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	err := dec.Decode(v)
	if err == nil {
		if _, tail := dec.Token(); tail != io.EOF {
			return &Error{Field: orRoot(prefix), Problem: "unexpected data after the JSON value"}
		}
		return nil
	}
	var (
		syntax  *json.SyntaxError
		typeErr *json.UnmarshalTypeError
	)
	switch {
	case errors.As(err, &syntax):
		return fmt.Errorf("scenario: not valid JSON (byte %d): %v", syntax.Offset, syntax)
	case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		return fmt.Errorf("scenario: not valid JSON: input ends early")
	case errors.As(err, &typeErr):
		return &Error{Field: join(prefix, typeErr.Field), Problem: fmt.Sprintf("want %s, found a JSON %s", describe(typeErr.Type), quote.Bare(typeErr.Value))}
	}
	if name, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		return &Error{Field: join(prefix, quote.Bare(strings.Trim(name, `"`))), Problem: "unknown field (a typo?)"}
	}
	return &Error{Field: orRoot(prefix), Problem: quote.Bare(err.Error())}
}

// describe names a Go type as the JSON value a user should write.
func describe(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Struct, reflect.Map:
		return "an object"
	case reflect.Slice, reflect.Array:
		return "a list"
	case reflect.Int, reflect.Int64, reflect.Int32:
		return "an integer"
	case reflect.Float64, reflect.Float32:
		return "a number"
	case reflect.String:
		return "a string"
	case reflect.Pointer:
		return describe(t.Elem())
	}
	return t.String()
}

func jsonProblem(err error) string {
	var typeErr *json.UnmarshalTypeError
	if errors.As(err, &typeErr) {
		return "found a JSON " + quote.Bare(typeErr.Value)
	}
	return strings.TrimPrefix(err.Error(), "json: ")
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

// scanNumbers reads a JSON list of numbers, [n₁, n₂, …], with optional
// whitespace, in one pass; ok is false for anything else (null entries,
// strings, nested values, malformed or out-of-range numbers), which the
// caller then reads with encoding/json to report the entry at fault. Each
// number must match the JSON grammar -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
// before strconv.ParseFloat converts it (which would accept more: "inf",
// hexadecimal, underscores); the values are those encoding/json gives. It
// gives up at entry n+1, so that a list far longer than N is never built.
func scanNumbers(raw []byte, n int) (out []float64, ok bool) {
	i := skipSpace(raw, 0)
	if i >= len(raw) || raw[i] != '[' {
		return nil, false
	}
	i = skipSpace(raw, i+1)
	// A cheap upper bound on the count sizes the result once.
	out = make([]float64, 0, max(min(bytes.Count(raw[i:], []byte{','})+1, n), 0))
	if i < len(raw) && raw[i] == ']' {
		return endList(raw, i, out)
	}
	for {
		j := jsonNumberEnd(raw, i)
		if j == i {
			return nil, false
		}
		x, err := strconv.ParseFloat(string(raw[i:j]), 64)
		if err != nil || len(out) >= n {
			return nil, false
		}
		out = append(out, x)
		i = skipSpace(raw, j)
		if i >= len(raw) {
			return nil, false
		}
		switch raw[i] {
		case ',':
			i = skipSpace(raw, i+1)
		case ']':
			return endList(raw, i, out)
		default:
			return nil, false
		}
	}
}

// endList returns out when the list closed at raw[i] ends the input.
func endList(raw []byte, i int, out []float64) ([]float64, bool) {
	if skipSpace(raw, i+1) != len(raw) {
		return nil, false
	}
	return out, true
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// jsonNumberEnd returns the end of the JSON number starting at b[i], or i
// when none starts there.
func jsonNumberEnd(b []byte, i int) int {
	start := i
	digits := func() int {
		k := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		return i - k
	}
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		digits()
	default:
		return start
	}
	if i < len(b) && b[i] == '.' {
		i++
		if digits() == 0 {
			return start
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if digits() == 0 {
			return start
		}
	}
	return i
}

// parseReplicas reads application.replicas: absent or null means 1;
// otherwise an integer 1 … min(MaxReplicas, n) written without fraction
// or exponent (as encoding/json reads an int).
func parseReplicas(raw json.RawMessage, n int) (int, error) {
	const field = "application.replicas"
	if isNull(raw) {
		return 1, nil
	}
	var r int
	if err := json.Unmarshal(raw, &r); err != nil {
		return 0, fieldErr(field, "want an integer ≥ 1 (a JSON number without fraction or exponent)")
	}
	if r < 1 {
		return 0, fieldErr(field, "%d, want an integer ≥ 1", r)
	}
	a := Application{Replicas: r}
	return r, a.validateReplicas(n)
}
