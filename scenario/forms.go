package scenario

import (
	"encoding/json"
	"fmt"
	"math"
)

// Parametric forms of the per-count inputs, so that a scenario of a
// million processors is a few lines rather than lists of a million
// numbers (docs/scenario.md, "Parametric forms"). A per-count field
// (work_rate, checkpoint_latency, checkpoint_overhead, and recovery by new
// count) may be an object with exactly one of
//
//	{"constant": c, "per_processor": k}   c + k·a (k optional, default 0)
//	{"amdahl": {"rate": r, "serial": f}}  r·a / (1 + f·(a − 1))  (Amdahl's law)
//	{"power": {"coefficient": c, "exponent": e}}   c·a^e
//
// and recovery may be {"constant": c, "per_old": kp, "per_new": ka}:
// R(p, a) = c + kp·p + ka·a. c may be a duration string where the field
// takes durations.

type formJSON struct {
	Constant     json.RawMessage `json:"constant"`
	PerProcessor *float64        `json:"per_processor"`
	Amdahl       *struct {
		Rate   *float64 `json:"rate"`
		Serial *float64 `json:"serial"`
	} `json:"amdahl"`
	Power *struct {
		Coefficient *float64 `json:"coefficient"`
		Exponent    *float64 `json:"exponent"`
	} `json:"power"`
}

// isObject reports whether a raw JSON value is an object.
func isObject(raw json.RawMessage) bool {
	for _, c := range raw {
		switch c {
		case ' ', '\t', '\n', '\r':
			continue
		case '{':
			return true
		}
		return false
	}
	return false
}

// parseForm expands a parametric form for counts a = 1..n; the error names
// the field.
func parseForm(field string, raw json.RawMessage, n int) ([]float64, bounds, error) {
	var j formJSON
	if err := decodeStrict(raw, &j, field); err != nil {
		return nil, bounds{}, err
	}
	forms := 0
	for _, set := range []bool{len(j.Constant) > 0, j.Amdahl != nil, j.Power != nil} {
		if set {
			forms++
		}
	}
	if forms != 1 {
		return nil, bounds{}, fieldErr(field, "give exactly one of \"constant\" (with \"per_processor\"), \"amdahl\" or \"power\"")
	}
	if j.PerProcessor != nil && len(j.Constant) == 0 {
		return nil, bounds{}, fieldErr(field+".per_processor", "goes with \"constant\"")
	}
	switch {
	case len(j.Constant) > 0:
		c, err := parseSeconds(field+".constant", j.Constant)
		if err != nil {
			return nil, bounds{}, err
		}
		k := 0.0
		if j.PerProcessor != nil {
			k = *j.PerProcessor
		}
		v, b := expandLinear(c, k, n)
		return v, b, nil // validated with the application, naming the entry
	case j.Amdahl != nil:
		if j.Amdahl.Rate == nil || j.Amdahl.Serial == nil {
			return nil, bounds{}, fieldErr(field+".amdahl", "needs \"rate\" and \"serial\"")
		}
		r, s := *j.Amdahl.Rate, *j.Amdahl.Serial
		if !(s >= 0 && s <= 1) {
			return nil, bounds{}, fieldErr(field+".amdahl.serial", "%v, want a fraction in [0, 1]", s)
		}
		v, b := expandAmdahl(r, s, n)
		return v, b, nil
	}
	if j.Power.Coefficient == nil || j.Power.Exponent == nil {
		return nil, bounds{}, fieldErr(field+".power", "needs \"coefficient\" and \"exponent\"")
	}
	v, b := expandPower(*j.Power.Coefficient, *j.Power.Exponent, n)
	return v, b, nil
}

// bounds are the least and the greatest entry of a vector, tracked as it
// is built so that validation need not read it again (lo is NaN when an
// entry is NaN, see track); known is false when they were not tracked.
type bounds struct {
	lo, hi float64
	known  bool
}

// within reports whether the bounds are known and every entry is in [lo,
// hi] (NaN is not).
func (b bounds) within(lo, hi float64) bool { return b.known && b.lo >= lo && b.hi <= hi }

// track returns the bounds lo, hi extended by y; a NaN y makes lo NaN
// for good (every later comparison with it is false). Comparisons rather
// than the builtin min and max, whose handling of NaN and signed zeros
// costs more in the expansion loops.
func track(lo, hi, y float64) (float64, float64) {
	if y < lo {
		lo = y
	}
	if y > hi {
		hi = y
	}
	if y != y {
		lo = y
	}
	return lo, hi
}

// scalarBounds are the bounds of a vector whose entries all equal x.
func scalarBounds(x float64) bounds { return bounds{x, x, true} }

// The expansions below compute, for a = 1..n, exactly the documented
// formula with every operation rounded as written: the explicit float64
// conversions forbid fusing a multiply and an add into one FMA (which the
// Go specification would otherwise allow), so that the values do not
// depend on the target (TestFormsExpansion recomputes them entry by
// entry).

// expandLinear returns c + k·a for a = 1..n.
func expandLinear(c, k float64, n int) ([]float64, bounds) {
	v := make([]float64, n)
	if k == 0 {
		// k·a = k·1 = ±0 (the sign of k) for every a ≥ 1: one value.
		x := c + float64(k*1)
		for a := range v {
			v[a] = x
		}
		return v, scalarBounds(x)
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for a := range v {
		x := c + float64(k*float64(a+1))
		v[a] = x
		lo, hi = track(lo, hi, x)
	}
	return v, bounds{lo, hi, true}
}

// expandAmdahl returns r·a / (1 + f·(a − 1)) for a = 1..n.
func expandAmdahl(r, f float64, n int) ([]float64, bounds) {
	v := make([]float64, n)
	lo, hi := math.Inf(1), math.Inf(-1)
	for a := range v {
		x := float64(a + 1)
		y := float64(r*x) / (1 + float64(f*(x-1)))
		v[a] = y
		lo, hi = track(lo, hi, y)
	}
	return v, bounds{lo, hi, true}
}

// expandPower returns c·a^e for a = 1..n. math.Pow returns 1 for e = 0, a
// for e = 1 and Sqrt(a) for e = 0.5 (its documented special cases, taken
// before any other computation), so those three skip the call.
func expandPower(c, e float64, n int) ([]float64, bounds) {
	v := make([]float64, n)
	lo, hi := math.Inf(1), math.Inf(-1)
	var y float64
	switch e {
	case 0:
		y = c * 1
		for a := range v {
			v[a] = y
		}
		return v, scalarBounds(y)
	case 1:
		for a := range v {
			y = c * float64(a+1)
			v[a] = y
			lo, hi = track(lo, hi, y)
		}
	case 0.5:
		for a := range v {
			y = c * math.Sqrt(float64(a+1))
			v[a] = y
			lo, hi = track(lo, hi, y)
		}
	default:
		for a := range v {
			y = c * math.Pow(float64(a+1), e)
			v[a] = y
			lo, hi = track(lo, hi, y)
		}
	}
	return v, bounds{lo, hi, true}
}

type recoveryFormJSON struct {
	Constant json.RawMessage `json:"constant"`
	PerOld   *float64        `json:"per_old"`
	PerNew   *float64        `json:"per_new"`
}

// parseRecoveryForm reads {"constant": c, "per_old": kp, "per_new": ka}.
func parseRecoveryForm(raw json.RawMessage, n int) (Recovery, bounds, error) {
	const field = "application.recovery"
	var j recoveryFormJSON
	if err := decodeStrict(raw, &j, field); err != nil {
		return Recovery{}, bounds{}, err
	}
	if len(j.Constant) == 0 {
		return Recovery{}, bounds{}, fieldErr(field+".constant", "missing (R(p, a) = constant + per_old·p + per_new·a)")
	}
	c, err := parseSeconds(field+".constant", j.Constant)
	if err != nil {
		return Recovery{}, bounds{}, err
	}
	var kp, ka float64
	if j.PerOld != nil {
		kp = *j.PerOld
	}
	if j.PerNew != nil {
		ka = *j.PerNew
	}
	return RecoveryLinear(c, kp, ka, n), bounds{}, nil // validated with the application
}

// RecoveryLinear returns R(p, a) = c + perOld·p + perNew·a on n
// processors, stored as its three coefficients, not as an n×n matrix nor
// a vector of n, so that it takes constant memory. With perOld = 0 it
// depends on the new count only (DependsOnOld is false), and R(p, a) is
// c + perNew·a rounded as expandLinear rounds it (the vector a list of
// the same numbers gives).
func RecoveryLinear(c, perOld, perNew float64, n int) Recovery {
	return Recovery{linear: &linearRecovery{c: c, perOld: perOld, perNew: perNew, n: n}}
}

// linearRecovery is R(p, a) = c + perOld·p + perNew·a for p, a in 1..n.
type linearRecovery struct {
	c, perOld, perNew float64
	n                 int
}

func (l *linearRecovery) cost(p, a int) float64 {
	if l.perOld == 0 {
		return l.c + float64(l.perNew*float64(a)) // as expandLinear
	}
	return l.c + l.perOld*float64(p) + l.perNew*float64(a)
}

// validate checks the coefficients and, R being linear, its values at
// the four corners of [1, n]², where its extremes lie: each rounded
// operation is monotone in its operand, so the computed R is monotone in
// p and in a too. A cost by new count (perOld = 0) that fails is checked
// as the vector it stands for, so that the error names the first entry
// at fault, as for a list.
func (l *linearRecovery) validate(n int) error {
	const field = "application.recovery"
	if l.perOld == 0 {
		if l.n == n && n >= 1 {
			lo, hi := l.cost(1, 1), l.cost(1, n)
			if lo >= 0 && lo <= MaxSeconds && hi >= 0 && hi <= MaxSeconds {
				return nil
			}
		}
		v, _ := expandLinear(l.c, l.perNew, max(l.n, 0))
		return Recovery{byNew: v}.validate(n)
	}
	if l.n != n {
		return fieldErr(field, "defined for %d processors, want %d", l.n, n)
	}
	for _, x := range []float64{l.c, l.perOld, l.perNew} {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fieldErr(field, "coefficient %v, want finite", x)
		}
	}
	for _, pa := range [][2]int{{1, 1}, {1, n}, {n, 1}, {n, n}} {
		if v := l.cost(pa[0], pa[1]); !(v >= 0) || math.IsInf(v, 0) {
			return fieldErr(field, "R(%d, %d) = %v, want a finite non-negative number of seconds", pa[0], pa[1], v)
		}
	}
	return nil
}

// String describes the form, for error messages and reports.
func (l *linearRecovery) String() string {
	return fmt.Sprintf("R(p, a) = %g + %g·p + %g·a s", l.c, l.perOld, l.perNew)
}
