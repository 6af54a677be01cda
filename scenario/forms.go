package scenario

import (
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

// form reads a parametric form of a per-count field for counts 1..n: its
// expansion, run once the work rate's length is checked.
func (d *decoder) form(field string, n int) (func() []float64, error) {
	var linear, amdahl, power map[string]float64
	err := d.object(field, []string{"constant", "per_processor", "amdahl", "power"}, func(key string) (err error) {
		switch key {
		case "amdahl":
			amdahl, err = d.numberFields(field+".amdahl", []string{"rate", "serial"})
		case "power":
			power, err = d.numberFields(field+".power", []string{"coefficient", "exponent"})
		default:
			if linear == nil {
				linear = map[string]float64{}
			}
			linear[key], err = d.numberOrSeconds(field, key)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	c, hasC := linear["constant"]
	k, hasK := linear["per_processor"]
	if btoi(hasC)+btoi(amdahl != nil)+btoi(power != nil) != 1 {
		return nil, fieldErr(field, "give exactly one of \"constant\" (with \"per_processor\"), \"amdahl\" or \"power\"")
	}
	switch {
	case hasK && !hasC:
		return nil, fieldErr(field+".per_processor", "goes with \"constant\"")
	case hasC:
		return func() []float64 { return expandLinear(c, k, n) }, nil // validated with the application, naming the entry
	case amdahl != nil:
		r, hasR := amdahl["rate"]
		s, hasS := amdahl["serial"]
		if !hasR || !hasS {
			return nil, fieldErr(field+".amdahl", "needs \"rate\" and \"serial\"")
		}
		if !(s >= 0 && s <= 1) {
			return nil, fieldErr(field+".amdahl.serial", "%v, want a fraction in [0, 1]", s)
		}
		return func() []float64 { return expandAmdahl(r, s, n) }, nil
	}
	c, hasC = power["coefficient"]
	e, hasE := power["exponent"]
	if !hasC || !hasE {
		return nil, fieldErr(field+".power", "needs \"coefficient\" and \"exponent\"")
	}
	return func() []float64 { return expandPower(c, e, n) }, nil
}

// recoveryForm reads {"constant": c, "per_old": kp, "per_new": ka}.
func (d *decoder) recoveryForm(field string, n int) (Recovery, error) {
	f, err := d.numberFields(field, []string{"constant", "per_old", "per_new"})
	if err != nil {
		return Recovery{}, err
	}
	c, ok := f["constant"]
	if !ok {
		return Recovery{}, fieldErr(field+".constant", "missing (R(p, a) = constant + per_old·p + per_new·a)")
	}
	return RecoveryLinear(c, f["per_old"], f["per_new"], n), nil // validated with the application
}

// numberFields reads an object of numbers with the given keys, by key.
func (d *decoder) numberFields(field string, keys []string) (map[string]float64, error) {
	got := map[string]float64{}
	err := d.object(field, keys, func(key string) (err error) {
		got[key], err = d.numberOrSeconds(field, key)
		return err
	})
	return got, err
}

// numberOrSeconds reads the member key of the object at field: a number,
// or for "constant" a number of seconds or a duration.
func (d *decoder) numberOrSeconds(field, key string) (float64, error) {
	if key == "constant" {
		return d.seconds(field + ".constant")
	}
	return d.number(field+"."+key, -1)
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// The expansions below compute, for a = 1..n, exactly the documented
// formula with every operation rounded as written: the explicit float64
// conversions forbid fusing a multiply and an add into one FMA (which the
// Go specification would otherwise allow), so that the values do not
// depend on the target (TestFormsExpansion recomputes them entry by
// entry).

// expandLinear returns c + k·a for a = 1..n.
func expandLinear(c, k float64, n int) []float64 {
	v := make([]float64, n)
	for a := range v {
		v[a] = c + float64(k*float64(a+1))
	}
	return v
}

// expandAmdahl returns r·a / (1 + f·(a − 1)) for a = 1..n.
func expandAmdahl(r, f float64, n int) []float64 {
	v := make([]float64, n)
	for a := range v {
		x := float64(a + 1)
		v[a] = float64(r*x) / (1 + float64(f*(x-1)))
	}
	return v
}

// expandPower returns c·a^e for a = 1..n. math.Pow returns 1 for e = 0, a
// for e = 1 and Sqrt(a) for e = 0.5 (its documented special cases, taken
// before any other computation), so those three skip the call.
func expandPower(c, e float64, n int) []float64 {
	v := make([]float64, n)
	for a := range v {
		switch x := float64(a + 1); e {
		case 0:
			v[a] = c * 1
		case 1:
			v[a] = c * x
		case 0.5:
			v[a] = c * math.Sqrt(x)
		default:
			v[a] = c * math.Pow(x, e)
		}
	}
	return v
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
		v := expandLinear(l.c, l.perNew, max(l.n, 0))
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
