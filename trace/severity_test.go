package trace

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestDefaultSeverityMap: the default mapping is the table of
// docs/scenario.md ("Severity from a failure log"), for one to four levels.
func TestDefaultSeverityMap(t *testing.T) {
	for _, tc := range []struct {
		L                                  int
		software, human, hardware, unknown int
		facilities, network, grouped       int
	}{
		{1, 1, 1, 1, 1, 1, 1, 1},
		{2, 1, 1, 2, 2, 2, 2, 2},
		{3, 1, 1, 2, 2, 3, 3, 3},
		{4, 1, 1, 2, 2, 4, 4, 4},
	} {
		m := DefaultSeverityMap(tc.L)
		if err := m.Validate(); err != nil {
			t.Fatalf("L = %d: %v", tc.L, err)
		}
		for _, c := range []struct {
			cause Cause
			size  int
			want  int
		}{
			{Software, 1, tc.software}, {HumanError, 1, tc.human}, {Hardware, 1, tc.hardware},
			{Undetermined, 1, tc.hardware}, {UnknownCause, 1, tc.unknown},
			{Facilities, 1, tc.facilities}, {Network, 1, tc.network},
			{Software, 2, tc.grouped}, {Hardware, 5, tc.grouped},
		} {
			if got := m.Severity(c.cause, c.size); got != c.want {
				t.Errorf("L = %d: %s in an event of %d: severity %d, want %d", tc.L, c.cause, c.size, got, c.want)
			}
		}
	}
}

func TestSeverityOverride(t *testing.T) {
	m, err := DefaultSeverityMap(3).Override("software=2, Hardware=3,grouped=2")
	if err != nil {
		t.Fatal(err)
	}
	if m.Severity(Software, 1) != 2 || m.Severity(Hardware, 1) != 3 || m.Severity(HumanError, 3) != 2 || m.Severity(Facilities, 1) != 3 {
		t.Errorf("overridden map %+v", m)
	}
	for _, bad := range []struct{ spec, want string }{
		{"software", "software"},
		{"software=4", "1..3"},
		{"software=0", "1..3"},
		{"cosmic=1", "cosmic"},
		{"hardware=x", "hardware=x"},
	} {
		if _, err := DefaultSeverityMap(3).Override(bad.spec); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("Override(%q): %v, want an error naming %q", bad.spec, err, bad.want)
		}
	}
	for _, c := range []Cause{UnknownCause, Facilities, Hardware, HumanError, Network, Undetermined, Software} {
		if got, err := ParseCause(c.String()); err != nil || got != c {
			t.Errorf("ParseCause(%q) = %v, %v", c.String(), got, err)
		}
	}
}

// TestEstimateSeverity: on a synthetic trace whose failure events have
// known causes and sizes, the estimated severity shares agree with the
// shares the default mapping gives the generating law, within 3.9
// binomial standard deviations each (a 1e-4 two-sided level); the power
// check is that ignoring the events' sizes would move the share of
// severity 3 by more than ten of them.
func TestEstimateSeverity(t *testing.T) {
	const (
		nodes   = 32
		events  = 6000
		span    = 1000 * 86400.0
		grouped = 0.2 // share of events that take 2–4 nodes
	)
	// Causes of the events and their shares.
	causes := []Cause{Software, HumanError, Hardware, Undetermined, Facilities, Network}
	weights := []float64{0.3, 0.05, 0.4, 0.1, 0.1, 0.05}
	rng := rand.New(rand.NewPCG(22, 5))
	down := make([][]Interval, nodes)
	for k := range events {
		at := (float64(k) + 0.5) * span / events // events 4 h apart, outages of 1 min
		u, c := rng.Float64(), causes[len(causes)-1]
		for j, w := range weights {
			if u < w {
				c = causes[j]
				break
			}
			u -= w
		}
		size := 1
		if rng.Float64() < grouped {
			size = 2 + rng.IntN(3)
		}
		for _, i := range rng.Perm(nodes)[:size] {
			down[i] = append(down[i], Interval{Start: at, End: at + 60, Cause: c})
		}
	}
	ns := make([]Node, nodes)
	for i := range ns {
		ns[i] = Node{Start: 0, End: span, Down: down[i]}
	}
	tr, err := New(ns)
	if err != nil {
		t.Fatal(err)
	}
	m := DefaultSeverityMap(3)
	got, err := EstimateSeverity(tr, span, m, nil)
	if err != nil {
		t.Fatal(err)
	}
	// The law: single events by cause; grouped ones all severity 3.
	want := make([]float64, 3)
	noSize := make([]float64, 3)
	for j, c := range causes {
		want[m.Severity(c, 1)-1] += (1 - grouped) * weights[j]
		noSize[m.Severity(c, 1)-1] += weights[j]
	}
	want[2] += grouped
	n := 0
	for _, c := range got.Events {
		n += c
	}
	if n != events {
		t.Fatalf("%d events, want %d (the failures of one instant are one event)", n, events)
	}
	for s := range want {
		sd := math.Sqrt(want[s] * (1 - want[s]) / events)
		if d := math.Abs(got.Shares[s] - want[s]); d > 3.9*sd {
			t.Errorf("severity %d: share %.4f, want %.4f ± %.4f", s+1, got.Shares[s], want[s], 3.9*sd)
		}
	}
	if sd := math.Sqrt(want[2] * (1 - want[2]) / events); math.Abs(noSize[2]-want[2]) < 10*sd {
		t.Errorf("power: ignoring sizes moves the severity-3 share by %.4f, less than 10 sd (%.4f)", math.Abs(noSize[2]-want[2]), sd)
	}
	if got.Causes[Facilities] == 0 || got.Causes[UnknownCause] != 0 {
		t.Errorf("causes %v", got.Causes)
	}
	if _, err := EstimateSeverity(tr, 0, m, nil); err == nil {
		t.Error("a history without failures: no error")
	}
	if _, err := EstimateSeverity(tr, span, SeverityMap{}, nil); err == nil {
		t.Error("the zero map: no error")
	}
}

// TestReadLANLCauses: the reader keeps each row's cause column.
func TestReadLANLCauses(t *testing.T) {
	row := func(node, started, fixed string, cause int) string {
		f := strings.Split(strings.TrimSuffix(lanlRowText("2", "4", node, "5-Jun", "current", started, fixed, "No"), "\n"), ",")
		for k := 19; k <= 24; k++ {
			f[k] = ""
		}
		if cause >= 0 {
			f[19+cause] = "x"
		}
		return strings.Join(f, ",") + "\n"
	}
	in := lanlHead + row("0", "6/21/2005 10:54", "6/21/2005 11:00", 0) + row("1", "6/22/2005 10:54", "6/22/2005 11:00", 5) +
		row("2", "6/23/2005 10:54", "6/23/2005 11:00", 2) + row("3", "6/24/2005 10:54", "6/24/2005 11:00", -1)
	sys, err := ReadLANLSystems(strings.NewReader(in), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []Cause{Facilities, Software, HumanError, UnknownCause}
	for i, c := range want {
		if d := sys[0].Trace.Node(i).Down; len(d) != 1 || d[0].Cause != c {
			t.Errorf("node %d: outages %+v, want one of cause %s", i, d, c)
		}
	}
}

func FuzzSeverityOverride(f *testing.F) {
	for _, s := range []string{"", "software=1", "grouped=2,hardware=3", "x=", "=1", "software=99"} {
		f.Add(s, 3)
	}
	f.Fuzz(func(t *testing.T, spec string, L int) {
		if L < 1 || L > MaxLevels {
			return
		}
		m, err := DefaultSeverityMap(L).Override(spec)
		if err == nil {
			if err := m.Validate(); err != nil {
				t.Fatalf("Override(%q) accepted an invalid map: %v", spec, err)
			}
		} else if len(err.Error()) > 400 {
			// Errors quote at most a short prefix of the input.
			t.Fatalf("error of %d bytes: %v", len(err.Error()), err)
		}
	})
}
