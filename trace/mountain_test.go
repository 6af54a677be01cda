package trace

import (
	"testing"
	"time"
	_ "time/tzdata" // the oracle: the IANA America/Denver zone, embedded
)

// TestMountainUnixAgainstTZData compares the hand-coded Mountain Time rules
// with the IANA time zone database for every hour of 1970–2099. Unambiguous
// wall times must agree with time.Date; a wall time that occurs twice must
// give the later (standard time) instant; a skipped wall time must give
// wall time + 7 h.
func TestMountainUnixAgainstTZData(t *testing.T) {
	den, err := time.LoadLocation("America/Denver")
	if err != nil {
		t.Fatalf("loading the oracle zone: %v", err)
	}
	var ambiguous, skipped int
	for day := time.Date(minYear, 1, 1, 0, 0, 0, 0, time.UTC); day.Year() <= maxYear; day = day.AddDate(0, 0, 1) {
		for h := 0; h < 24; h++ {
			y, m, d := day.Date()
			got, err := mountainUnix(y, m, d, h, 30)
			if err != nil {
				t.Fatalf("%v %d:30: %v", day.Format(time.DateOnly), h, err)
			}
			wall := time.Date(y, m, d, h, 30, 0, 0, time.UTC).Unix()
			// Classify the wall time with the oracle: the readings as
			// UTC−7 and UTC−6 that the zone renders back as this wall time.
			validStd := time.Unix(wall+7*3600, 0).In(den).Hour() == h
			validDST := time.Unix(wall+6*3600, 0).In(den).Hour() == h
			var want int64
			switch {
			case validStd && validDST:
				ambiguous++
				want = wall + 7*3600
			case validStd:
				want = wall + 7*3600
			case validDST:
				want = wall + 6*3600
			default:
				skipped++
				want = wall + 7*3600
			}
			if got != want {
				t.Fatalf("%s %02d:30: got %v, want %v", day.Format(time.DateOnly), h,
					time.Unix(got, 0).UTC(), time.Unix(want, 0).UTC())
			}
			if validStd != validDST {
				// The unambiguous case also agrees with time.Date.
				if td := time.Date(y, m, d, h, 30, 0, 0, den).Unix(); td != got {
					t.Fatalf("%s %02d:30: got %v, time.Date gives %v", day.Format(time.DateOnly), h, got, td)
				}
			}
		}
	}
	// One repeated and one skipped hour per year of DST: 130 years.
	if n := maxYear - minYear + 1; ambiguous != n || skipped != n {
		t.Errorf("saw %d ambiguous and %d skipped hours, want %d each", ambiguous, skipped, n)
	}
}

func TestMountainUnixRejects(t *testing.T) {
	for _, c := range []struct {
		y, m, d, h, mi int
	}{
		{1969, 12, 31, 0, 0},
		{2100, 1, 1, 0, 0},
		{2001, 0, 1, 0, 0},
		{2001, 13, 1, 0, 0},
		{2001, 2, 29, 0, 0},
		{2004, 2, 30, 0, 0},
		{2004, 4, 31, 0, 0},
		{2004, 4, 0, 0, 0},
		{2004, 4, 1, 24, 0},
		{2004, 4, 1, 0, 60},
	} {
		if _, err := mountainUnix(c.y, time.Month(c.m), c.d, c.h, c.mi); err == nil {
			t.Errorf("mountainUnix(%v) succeeded, want an error", c)
		}
	}
	if _, err := mountainUnix(2004, 2, 29, 23, 59); err != nil {
		t.Errorf("29 February 2004: %v", err)
	}
}
