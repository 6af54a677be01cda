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

// linearTicks are gonum's default ticks with Label's format.
type linearTicks struct{}

// Ticks implements plot.Ticker.
func (linearTicks) Ticks(min, max float64) []plot.Tick {
	ticks := plot.DefaultTicks{}.Ticks(min, max)
	for k := range ticks {
		if ticks[k].Label != "" {
			ticks[k].Label = Label(ticks[k].Value)
		}
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
