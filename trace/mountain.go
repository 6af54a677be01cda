package trace

import (
	"fmt"
	"time"
)

// Los Alamos keeps US Mountain Time: MST = UTC−7, MDT = UTC−6.
const (
	mstOffset = -7 * 3600
	mdtOffset = -6 * 3600

	// Years for which mountainUnix knows the daylight saving rules.
	minYear = 1970
	maxYear = 2099
)

// mountainUnix converts a Mountain Time wall-clock reading to seconds since
// the Unix epoch. A reading that occurs twice (the hour repeated when
// daylight saving time ends) or never (the hour skipped when it starts) is
// read as standard time, UTC−7. The month and day must be valid and the
// year in [minYear, maxYear]; mountainUnix returns an error otherwise.
func mountainUnix(year int, month time.Month, day, hour, min int) (int64, error) {
	if year < minYear || year > maxYear {
		return 0, fmt.Errorf("year %d outside %d–%d", year, minYear, maxYear)
	}
	if month < time.January || month > time.December {
		return 0, fmt.Errorf("month %d outside 1–12", month)
	}
	if day < 1 || day > daysIn(year, month) {
		return 0, fmt.Errorf("day %d outside 1–%d", day, daysIn(year, month))
	}
	if hour < 0 || hour > 23 || min < 0 || min > 59 {
		return 0, fmt.Errorf("time %d:%02d outside 0:00–23:59", hour, min)
	}
	wall := time.Date(year, month, day, hour, min, 0, 0, time.UTC).Unix()
	start, end := dstBounds(year)
	if u := wall - mstOffset; u < start || u >= end {
		return u, nil // a valid standard-time reading (preferred when ambiguous)
	}
	if u := wall - mdtOffset; start <= u && u < end {
		return u, nil // the only valid reading is daylight time
	}
	return wall - mstOffset, nil // skipped hour: read as standard time
}

func daysIn(year int, month time.Month) int {
	return time.Date(year, month+1, 0, 0, 0, 0, 0, time.UTC).Day()
}

// dstBounds returns the UTC instants [start, end) during which US Mountain
// daylight saving time is in effect in year (minYear <= year <= maxYear).
// DST starts at 02:00 standard time and ends at 02:00 daylight time; the
// start and end days follow the US federal rules:
//
//	1970–1973, 1976–1986: last Sunday of April – last Sunday of October
//	1974: 6 January – last Sunday of October (Emergency Energy Conservation Act)
//	1975: last Sunday of February – last Sunday of October
//	1987–2006: first Sunday of April – last Sunday of October
//	2007– :    second Sunday of March – first Sunday of November (Energy Policy Act 2005)
func dstBounds(year int) (start, end int64) {
	var sm, em time.Month
	var sd, ed int
	switch {
	case year >= 2007:
		sm, sd = time.March, nthSunday(year, time.March, 2)
		em, ed = time.November, nthSunday(year, time.November, 1)
	case year >= 1987:
		sm, sd = time.April, nthSunday(year, time.April, 1)
		em, ed = time.October, lastSunday(year, time.October)
	case year == 1974:
		sm, sd = time.January, 6
		em, ed = time.October, lastSunday(year, time.October)
	case year == 1975:
		sm, sd = time.February, lastSunday(year, time.February)
		em, ed = time.October, lastSunday(year, time.October)
	default:
		sm, sd = time.April, lastSunday(year, time.April)
		em, ed = time.October, lastSunday(year, time.October)
	}
	start = time.Date(year, sm, sd, 2, 0, 0, 0, time.UTC).Unix() - mstOffset
	end = time.Date(year, em, ed, 2, 0, 0, 0, time.UTC).Unix() - mdtOffset
	return start, end
}

// nthSunday returns the day of the month of the n-th Sunday (n >= 1).
func nthSunday(year int, month time.Month, n int) int {
	wd := time.Date(year, month, 1, 0, 0, 0, 0, time.UTC).Weekday()
	first := 1 + (7-int(wd))%7
	return first + 7*(n-1)
}

// lastSunday returns the day of the month of its last Sunday.
func lastSunday(year int, month time.Month) int {
	last := daysIn(year, month)
	wd := time.Date(year, month, last, 0, 0, 0, 0, time.UTC).Weekday()
	return last - int(wd)
}
