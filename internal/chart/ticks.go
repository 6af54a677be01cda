package chart

import (
	"math"
	"strconv"

	"gonum.org/v1/plot"
)

// Label formats a tick value: three significant digits without trailing
// zeros, in plain notation from 10⁻³ to below 10⁶ and in e-notation
// outside; the one number format of every axis.
func Label(v float64) string {
	if v == 0 {
		return "0"
	}
	r, err := strconv.ParseFloat(strconv.FormatFloat(v, 'g', 3, 64), 64)
	if err != nil { // cannot happen: FormatFloat writes a valid float
		panic(err)
	}
	if a := math.Abs(r); a >= 1e-3 && a < 1e6 {
		return strconv.FormatFloat(r, 'f', -1, 64)
	}
	return strconv.FormatFloat(r, 'g', -1, 64)
}

// linearTicks label a linear axis at the multiples of the largest step of
// 1, 2 or 5 times a power of ten that gives at least four labels (so 1-16
// is labelled 2, 4, …, 16, not gonum's 3, 9, 15), with unlabelled minor
// ticks halfway, in Label's format.
type linearTicks struct{}

// Ticks implements plot.Ticker.
func (linearTicks) Ticks(min, max float64) []plot.Tick {
	if !(max > min) || math.IsInf(max-min, 0) {
		return plot.DefaultTicks{}.Ticks(min, max)
	}
	step := 0.0
	for e := int(math.Floor(math.Log10(max-min))) + 1; step == 0; e-- {
		for _, m := range []float64{5, 2, 1} {
			s := m * math.Pow10(e)
			if math.Floor(max/s)-math.Ceil(min/s) >= 3 {
				step = s
				break
			}
		}
	}
	var ticks []plot.Tick
	for k := math.Ceil(min / step * 2); k <= math.Floor(max/step*2); k++ {
		v := k * step / 2
		t := plot.Tick{Value: v}
		if math.Mod(k, 2) == 0 {
			t.Label = Label(v)
		}
		ticks = append(ticks, t)
	}
	return ticks
}

// logTicks label a log axis at powers of ten when it spans three decades
// or more, and at 1, 2 and 5 times powers of ten when it spans less (with
// unlabelled minor ticks at the other integers times powers of ten). When
// even that gives fewer than two labels (a range narrower than a factor of
// 2.5), the linear ticks of the range are used.
type logTicks struct{}

// Ticks implements plot.Ticker.
func (logTicks) Ticks(min, max float64) []plot.Tick {
	if !(min > 0) || !(max > min) {
		return linearTicks{}.Ticks(min, max)
	}
	labelled := map[int]bool{1: true}
	if math.Log10(max/min) < 3 {
		labelled[2], labelled[5] = true, true
	}
	var ticks []plot.Tick
	majors := 0
	for e := int(math.Floor(math.Log10(min))); e <= int(math.Ceil(math.Log10(max))); e++ {
		for m := 1; m <= 9; m++ {
			v := float64(m) * math.Pow10(e)
			if v < min*(1-1e-9) || v > max*(1+1e-9) {
				continue
			}
			t := plot.Tick{Value: v}
			if labelled[m] {
				t.Label = Label(v)
				majors++
			}
			ticks = append(ticks, t)
		}
	}
	if majors < 2 {
		return linearTicks{}.Ticks(min, max)
	}
	return ticks
}
