package scenario

import (
	"bytes"
	"fmt"
	"math"
	"slices"

	"github.com/ckpt-markov/markov/internal/quote"
	"github.com/ckpt-markov/markov/reschedule"
)

// The schema of a scenario file (doc.go, docs/scenario.md), read by the
// decoder of decode.go one value at a time: each function reads one
// field's value where the decoder stands, and its errors name that field.

// The keys of each object; anything else is an error naming the key.
var (
	fileKeys        = []string{"system", "application", "policy", "reconfigure", "checkpoint_pattern"}
	systemKeys      = []string{"processors", "mttf", "mttr", "failure_events", "failure_severity"}
	applicationKeys = []string{"work_rate", "checkpoint_latency", "checkpoint_overhead", "recovery", "checkpoint_levels", "checkpoint_after_recovery", "replicas"}
	levelKeys       = []string{"latency", "overhead", "recovery"}
	policyKeys      = []string{"moldable", "vector", "table"}
	tableEntryKeys  = []string{"p", "n", "a"}
)

// fileParts are the top-level fields as file reads them.
type fileParts struct {
	sys        *System
	app        *Application
	appChecked bool // validated as it was read (not a named one)
	pol        *Policy
	rc         Reconfigure
	pattern    []int
}

// file reads the top-level object and builds the scenario. The
// application and the policy hold lists bounded by N: given before the
// system, they are kept as their bytes and read once N is known.
func (d *decoder) file(s *ParseSettings) (*Scenario, error) {
	var (
		f     fileParts
		later []*decoder // the application or the policy, before the system
		keys  []string
	)
	read := func(d *decoder, key string) (err error) {
		if key == "application" {
			var app Application
			app, f.appChecked, err = d.application(f.sys.Processors, s)
			f.app = &app
			return err
		}
		pol, err := d.policy(f.sys.Processors)
		f.pol = &pol
		return err
	}
	err := d.object("", fileKeys, func(key string) (err error) {
		switch key {
		case "system":
			sys, err := d.system()
			f.sys = &sys
			return err
		case "application", "policy":
			if f.sys != nil {
				return read(d, key)
			}
			v, err := d.raw()
			later, keys = append(later, v), append(keys, key)
			return err
		case "reconfigure":
			var name string
			if !d.null() {
				if name, err = d.text("reconfigure", `"never" or "at-checkpoint"`); err == nil {
					f.rc, err = ParseReconfigure(name)
				}
			}
		case "checkpoint_pattern":
			if !d.null() {
				f.pattern, err = d.pattern()
			}
		}
		return err
	})
	if err == nil && f.sys == nil {
		err = fieldErr("system", "missing")
	}
	for i := 0; err == nil && i < len(later); i++ {
		err = read(later[i], keys[i])
	}
	if err != nil {
		return nil, err
	}
	return f.scenario()
}

// scenario assembles and checks the scenario of the fields read.
func (f *fileParts) scenario() (*Scenario, error) {
	switch {
	case f.app == nil:
		return nil, fieldErr("application", "missing")
	case f.pol == nil:
		return nil, fieldErr("policy", "missing")
	}
	sc, err := newScenario(*f.sys, *f.app, *f.pol, f.appChecked)
	if err != nil {
		return nil, err
	}
	sc.Reconfigure = f.rc
	if f.pattern != nil {
		sc.CheckpointPattern = f.pattern
		if err := sc.checkLevels(); err != nil {
			return nil, err
		}
	}
	return sc, nil
}

// system reads and validates the system object; failure_events, bounded
// by N, is read once processors is known.
func (d *decoder) system() (System, error) {
	var (
		sys              System
		hasN, hasF, hasR bool
		events           *decoder // failure_events, given before processors
	)
	err := d.object("system", systemKeys, func(key string) (err error) {
		switch key {
		case "processors":
			sys.Processors, err = d.integer("system.processors", -1, "an integer")
			hasN = true
		case "mttf":
			sys.MTTF, err = d.seconds("system.mttf")
			hasF = true
		case "mttr":
			sys.MTTR, err = d.seconds("system.mttr")
			hasR = true
		case "failure_events":
			switch {
			case d.null():
			case hasN:
				sys.FailureEvents, err = d.events(sys.Processors)
			default:
				events, err = d.raw()
			}
		case "failure_severity":
			if !d.null() {
				var f []float64
				f, err = d.numberList("system.failure_severity", MaxCheckpointLevels, "a list of shares [f₁, …, f_L]",
					fmt.Sprintf("has more than %d entries, one per checkpoint level (at most %d)", MaxCheckpointLevels, MaxCheckpointLevels))
				sys.FailureSeverity = &FailureSeverity{Shares: f}
			}
		}
		return err
	})
	switch {
	case err != nil:
		return System{}, err
	case !hasN:
		return System{}, fieldErr("system.processors", "missing")
	case !hasF:
		return System{}, fieldErr("system.mttf", "missing")
	case !hasR:
		return System{}, fieldErr("system.mttr", "missing")
	}
	if events != nil {
		if sys.FailureEvents, err = events.events(sys.Processors); err != nil {
			return System{}, err
		}
	}
	return sys, sys.Validate()
}

// events reads system.failure_events, {"sizes": [p₁, …]}, for n
// processors.
func (d *decoder) events(n int) (*FailureEvents, error) {
	const field = "system.failure_events.sizes"
	var sizes []float64
	err := d.object("system.failure_events", []string{"sizes"}, func(string) (err error) {
		n := max(n, 0)
		sizes, err = d.numberList(field, n, fmt.Sprintf("a list of at most %d probabilities", n),
			fmt.Sprintf("has more than %d entries, but an event cannot take down more than the %d processors", n, n))
		return err
	})
	if err == nil && sizes == nil {
		err = fieldErr(field, "missing")
	}
	return &FailureEvents{Sizes: sizes}, err
}

// application reads the application: a built-in one's name, resolved
// through s, or an object, validated here (checked reports which).
func (d *decoder) application(n int, s *ParseSettings) (app Application, checked bool, err error) {
	if d.peek() == '"' {
		name, err := d.text("application", "")
		if err != nil {
			return app, false, err
		}
		if s == nil || s.Applications == nil {
			return app, false, fieldErr("application", "named application %s, but no built-in applications are available here", quote.Value(name))
		}
		if app, err = s.Applications(name, n); err != nil {
			return app, false, fieldErr("application", "%v", err)
		}
		return app, false, nil
	}
	var p appParts
	err = d.object("application", applicationKeys, func(key string) (err error) {
		field := "application." + key
		switch key {
		case "work_rate":
			if d.peek() == '{' {
				p.work, err = d.form(field, n)
			} else {
				var v []float64
				v, err = d.numbers(field, n)
				p.work = func() []float64 { return v }
			}
		case "checkpoint_latency":
			p.latency, err = d.perCount(field, n)
		case "checkpoint_overhead":
			p.overhead, err = d.perCount(field, n)
		case "recovery":
			app.Recovery, err = d.recovery(field, n)
			p.hasRecovery = true
		case "checkpoint_levels":
			if !d.null() {
				p.levels, err = d.levels(n)
			}
		case "checkpoint_after_recovery":
			if !d.null() {
				var after bool
				after, err = d.boolean(field)
				app.NoCheckpointAfterRecovery = !after
			}
		case "replicas":
			if !d.null() {
				app.Replicas, err = d.replicas(n)
			}
		}
		return err
	})
	if err != nil {
		return app, true, err
	}
	return app, true, p.build(&app, n)
}

// appParts are the fields of an application object as read: the
// per-count ones as functions that expand them to n entries.
type appParts struct {
	work, latency, overhead func() []float64
	hasRecovery             bool
	levels                  func() []Level
}

// build completes an application read from a file: the work rate's
// length is checked before the numbers and forms are expanded to n
// entries, so that a large N with a short list fails before it
// allocates; then the application is validated.
func (p *appParts) build(app *Application, n int) error {
	if p.levels != nil {
		for _, f := range []struct {
			name  string
			given bool
		}{{"checkpoint_latency", p.latency != nil}, {"checkpoint_overhead", p.overhead != nil}, {"recovery", p.hasRecovery}} {
			if f.given {
				return fieldErr("application.checkpoint_levels", "given together with application.%s: give the levels or the single-level fields, not both", f.name)
			}
		}
	}
	if p.work == nil {
		return fieldErr("application.work_rate", "missing")
	}
	app.WorkRate = p.work()
	if err := checkVector("application.work_rate", app.WorkRate, n); err != nil {
		return err
	}
	switch levels := []Level(nil); {
	case p.levels != nil:
		if levels = p.levels(); len(levels) == 1 { // one level is the single-level model
			app.Latency, app.Overhead, app.Recovery = levels[0].Latency, levels[0].Overhead, levels[0].Recovery
		} else {
			app.Levels = levels
		}
	case p.latency == nil:
		return fieldErr("application.checkpoint_latency", "missing")
	case !p.hasRecovery:
		return fieldErr("application.recovery", "missing")
	default:
		app.Latency = p.latency()
		app.Overhead = app.Latency
		if p.overhead != nil {
			app.Overhead = p.overhead()
		}
	}
	if app.Replicas == 0 {
		app.Replicas = 1
	}
	return app.Validate(n)
}

// perCount reads a per-count field: a number or duration for every count,
// a list of n, or a form (forms.go). A number or a form is expanded by the
// function returned, once the work rate's length is checked.
func (d *decoder) perCount(field string, n int) (func() []float64, error) {
	switch d.peek() {
	case '{':
		return d.form(field, n)
	case '[':
		v, err := d.numbers(field, n)
		if err == nil {
			err = checkVector(field, v, n)
		}
		return func() []float64 { return v }, err
	}
	x, err := d.seconds(field)
	return func() []float64 { return slices.Repeat([]float64{x}, n) }, err
}

// recovery reads a recovery cost: a number or duration (kept as one
// number: R(p, a) = x + (-0)·a is x exactly, -0 included), a list by new
// count, a list of n lists (the matrix R(p, a) = recovery[p-1][a-1]) or
// the linear form (forms.go).
func (d *decoder) recovery(field string, n int) (Recovery, error) {
	switch d.peek() {
	case '{':
		return d.recoveryForm(field, n)
	case '[':
	default:
		x, err := d.seconds(field)
		return RecoveryLinear(x, 0, math.Copysign(0, -1), n), err
	}
	n = max(n, 0)
	byNew := make([]float64, 0, d.capacity(n))
	var matrix [][]float64
	err := d.list(field, fmt.Sprintf("a list of %d numbers or of %d lists", n, n), n, fmt.Sprintf("has more than %d entries, want %d (one per processor count)", n, n), func(i int) (err error) {
		if i == 0 && d.peek() == '[' {
			matrix = [][]float64{}
		}
		if matrix != nil {
			row, err := d.numbers(entryName(field, i), n)
			matrix = append(matrix, row)
			return err
		}
		x, err := d.number(field, i)
		byNew = append(byNew, x)
		return err
	})
	switch {
	case err != nil:
		return Recovery{}, err
	case matrix != nil:
		return recoveryMatrixOwned(matrix), nil
	}
	return Recovery{byNew: byNew}, nil
}

// levels reads application.checkpoint_levels: 1 to MaxCheckpointLevels
// objects, each with the single level's fields; the function returned
// expands them (see appParts.build).
func (d *decoder) levels(n int) (func() []Level, error) {
	const field = "application.checkpoint_levels"
	type level struct {
		latency, overhead func() []float64
		recovery          *Recovery
	}
	var read []level
	err := d.list(field, `a list of levels, each {"latency": …, "overhead": …, "recovery": …}`, MaxCheckpointLevels,
		fmt.Sprintf("has more than %d levels, the limit", MaxCheckpointLevels), func(i int) error {
			entry := entryName(field, i)
			var lv level
			err := d.object(entry, levelKeys, func(key string) (err error) {
				switch key {
				case "latency":
					lv.latency, err = d.perCount(entry+".latency", n)
				case "overhead":
					lv.overhead, err = d.perCount(entry+".overhead", n)
				case "recovery":
					var r Recovery
					r, err = d.recovery(entry+".recovery", n)
					lv.recovery = &r
				}
				return err
			})
			switch {
			case err != nil:
				return err
			case lv.latency == nil:
				return fieldErr(entry+".latency", "missing")
			case lv.recovery == nil:
				return fieldErr(entry+".recovery", "missing")
			}
			read = append(read, lv)
			return nil
		})
	if err == nil && len(read) == 0 {
		err = fieldErr(field, "empty, want 1 to %d levels", MaxCheckpointLevels)
	}
	return func() []Level {
		levels := make([]Level, len(read))
		for i, lv := range read {
			levels[i] = Level{Latency: lv.latency(), Recovery: *lv.recovery}
			levels[i].Overhead = levels[i].Latency
			if lv.overhead != nil {
				levels[i].Overhead = lv.overhead()
			}
		}
		return levels
	}, err
}

// pattern reads checkpoint_pattern: at most MaxCheckpointLevels − 1
// integers (checked against the levels by checkLevels).
func (d *decoder) pattern() ([]int, error) {
	const field = "checkpoint_pattern"
	v := []int{}
	err := d.list(field, "a list of integers [V₁, …, V_{L−1}]", MaxCheckpointLevels-1,
		fmt.Sprintf("has more than %d entries (at most %d levels)", MaxCheckpointLevels-1, MaxCheckpointLevels), func(i int) error {
			x, err := d.integer(field, i, "a non-negative integer")
			v = append(v, x)
			return err
		})
	return v, err
}

// boolean reads true or false.
func (d *decoder) boolean(field string) (bool, error) {
	k := d.peek()
	tok, err := d.token()
	switch {
	case err != nil:
		return false, err
	case k != 't' && k != 'f':
		return false, fieldErr(field, "want true or false, found %s", kindName(k))
	}
	return tok.Bool(), nil
}

// replicas reads application.replicas: an integer 1 … min(MaxReplicas,
// n) written without fraction or exponent.
func (d *decoder) replicas(n int) (int, error) {
	const field = "application.replicas"
	r, err := d.integer(field, -1, "an integer ≥ 1 (a JSON number without fraction or exponent)")
	if err != nil {
		return 0, err
	}
	if r < 1 {
		return 0, fieldErr(field, "%d, want an integer ≥ 1", r)
	}
	return r, Application{Replicas: r}.validateReplicas(n)
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
	d := newDecoder(raw)
	pol, err := d.policy(n)
	if err != nil {
		return Policy{}, err
	}
	if err := d.end(); err != nil {
		return Policy{}, fieldErr("policy", "unexpected data after the JSON value")
	}
	return pol, nil
}

// policy reads the policy: a name (ParsePolicy) or an object with one of
// moldable, vector (at most n entries) and table.
func (d *decoder) policy(n int) (Policy, error) {
	if d.peek() == '"' {
		name, err := d.text("policy", "")
		if err != nil {
			return Policy{}, err
		}
		return ParsePolicy(name)
	}
	var (
		pol   Policy
		given int
	)
	err := d.object("policy", policyKeys, func(key string) (err error) {
		given++
		switch key {
		case "moldable":
			pol.Kind = Moldable
			pol.Processors, err = d.integer("policy.moldable", -1, "an integer")
		case "vector":
			n := max(n, 0)
			pol.Kind, pol.Explicit = Explicit, []int{}
			err = d.list("policy.vector", fmt.Sprintf("a list of %d processor counts", n), n,
				fmt.Sprintf("has more than %d entries, want %d (one per processor count)", n, n), func(i int) error {
					r, err := d.integer("policy.vector", i, "an integer")
					pol.Explicit = append(pol.Explicit, r)
					return err
				})
		case "table":
			pol.Kind = Table
			pol.Table, err = d.table(n)
		}
		return err
	})
	switch {
	case err != nil:
		return Policy{}, err
	case given > 1:
		return Policy{}, fieldErr("policy", "give one of moldable, vector and table, not several")
	case given == 0:
		return Policy{}, fieldErr("policy", "object needs a \"moldable\", a \"vector\" or a \"table\" field")
	}
	return pol, nil
}

// table reads the entries of a decision table, {"p": P, "n": [lo, hi],
// "a": A} with p optional (the default row), n a range or one count and
// a a count or "n". The list is bounded by reschedule.MaxTableEntries
// and each entry's values by N as they are read; NewTable checks the rest.
func (d *decoder) table(n int) ([]reschedule.Entry, error) {
	const field = "policy.table"
	var out []reschedule.Entry
	err := d.list(field, `a list of entries {"p": P, "n": [lo, hi], "a": A}`, reschedule.MaxTableEntries,
		fmt.Sprintf("has more than %d entries", reschedule.MaxTableEntries), func(i int) error {
			entry := entryName(field, i)
			var (
				e          reschedule.Entry
				hasN, hasA bool
			)
			err := d.object(entry, tableEntryKeys, func(key string) (err error) {
				switch key {
				case "p":
					if e.P, err = d.integer(entry+".p", -1, "an integer"); err == nil && (e.P < 1 || e.P > n) {
						err = fieldErr(entry+".p", "%d, want a processor count in [1, %d] (omit p for the default row)", e.P, n)
					}
				case "n":
					e.Lo, e.Hi, err = d.tableRange(entry + ".n")
					hasN = true
				case "a":
					e.A, err = d.tableAction(entry + ".a")
					hasA = true
				}
				return err
			})
			switch {
			case err != nil:
				return err
			case !hasN:
				return fieldErr(entry+".n", "missing, want [lo, hi] or a processor count")
			case !hasA:
				return fieldErr(entry+".a", "missing, want a processor count or \"n\"")
			}
			if err := e.Validate(n); err != nil {
				return fieldErr(entry, "%v", err)
			}
			out = append(out, e)
			return nil
		})
	return out, err
}

// tableRange reads a table entry's n: [lo, hi] or one count.
func (d *decoder) tableRange(field string) (lo, hi int, err error) {
	if d.peek() != '[' {
		lo, err = d.integer(field, -1, "[lo, hi] or a processor count")
		return lo, lo, err
	}
	const want = "want [lo, hi] (two integers) or a processor count"
	var r []int
	err = d.list(field, "", 2, want, func(int) error {
		x, err := d.integer(field, -1, "two integers [lo, hi]")
		r = append(r, x)
		return err
	})
	if err == nil && len(r) != 2 {
		err = fieldErr(field, want)
	}
	if err != nil {
		return 0, 0, err
	}
	return r[0], r[1], nil
}

// tableAction reads a table entry's a: a count or "n".
func (d *decoder) tableAction(field string) (int, error) {
	if d.peek() != '"' {
		return d.integer(field, -1, "a processor count or \"n\"")
	}
	s, err := d.text(field, "")
	if err == nil && s != "n" {
		err = fieldErr(field, "want a processor count or \"n\", found the string %s", quote.Value(s))
	}
	return reschedule.AllUp, err
}
