package cli_test

import (
	"math"
	"path/filepath"
	"strings"
	"testing"
)

// TestTraceSynth writes a synthetic trace with trace synth and reads it
// back with trace stats: 64 nodes over 100 days, MTTF 2 days, half the
// failures in events of 4–8 nodes. The estimates recover what the flags
// ask for: the node MTTF within 5 % (about 3200 failures: the 95 %
// interval of λ is ±3.5 %, and the identity of synth.ForFailures is exact
// only while every grouped event finds enough nodes up), the fraction of
// failures in grouped events within 0.05 of 0.5 (about 270 grouped events
// of 4–8 nodes: its standard deviation is about 0.015), sizes 1 or 4–8.
func TestTraceSynth(t *testing.T) {
	path := filepath.Join(t.TempDir(), "synth.csv")
	mustRun(t, "trace", "synth", "--nodes", "64", "--duration", "100d", "--mttf", "2d", "--mttr", "1h",
		"--grouped-failures", "0.5", "--sizes", "4-8", "--seed", "3", "-o", path)
	var got traceStats
	out := runJSON(t, &got, "trace", "stats", "--trace", path)
	var raw struct {
		Systems []struct {
			Failure struct {
				Value float64 `json:"value"`
			} `json:"failure_rate"`
			GroupedFailures float64 `json:"grouped_failures"`
		} `json:"systems"`
	}
	runJSON(t, &raw, "trace", "stats", "--trace", path)
	if len(got.Systems) != 1 || len(raw.Systems) != 1 {
		t.Fatalf("want one system:\n%s", out)
	}
	s, r := got.Systems[0], raw.Systems[0]
	if mttf := 1 / r.Failure.Value / 86400; math.Abs(mttf/2-1) > 0.05 {
		t.Errorf("node MTTF %.3f d, want 2 d ± 5 %%", mttf)
	}
	if math.Abs(r.GroupedFailures-0.5) > 0.05 {
		t.Errorf("grouped failures %.3f, want 0.5 ± 0.05", r.GroupedFailures)
	}
	for _, sz := range s.Sizes {
		if sz.Size != 1 && (sz.Size < 4 || sz.Size > 8) {
			t.Errorf("an event of %d nodes; want 1 or 4–8", sz.Size)
		}
	}
	if s.Nodes != 64 || s.SingleFailures != "contradicted" {
		t.Errorf("%d nodes, single failures %q; want 64, contradicted", s.Nodes, s.SingleFailures)
	}
	// The same seed writes the same trace; standard output by default.
	if a, b := mustRun(t, "trace", "synth", "--nodes", "4", "--duration", "10d", "--seed", "5"),
		mustRun(t, "trace", "synth", "--nodes", "4", "--duration", "10d", "--seed", "5"); a != b || !strings.HasPrefix(a, "# nodes=4 ") {
		t.Errorf("two runs with one seed differ, or no header:\n%s", a)
	}
}

func TestTraceSynthErrors(t *testing.T) {
	for _, tc := range []struct{ args, want string }{
		{"--nodes 0", "--nodes"},
		{"--grouped-failures 0.5 --sizes 1-4", "--sizes"},
		{"--grouped-failures 0.5 --sizes 4-200", "--sizes"},
		{"--grouped-failures 0.5 --sizes 8-4", "--sizes"},
		{"--grouped-failures 1.5", "--grouped-failures"},
		{"--mttf -1h", "--mttf"},
		{"--duration 0s", "--duration"},
		{"--rate-cv -1", "--rate-cv"},
	} {
		_, stderr, code := run(t, append([]string{"trace", "synth"}, strings.Fields(tc.args)...)...)
		if code == 0 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%s: exit %d, stderr %q; want an error naming %s", tc.args, code, stderr, tc.want)
		}
	}
}

// TestEvaluateEvents runs evaluate --events on a grouped synthetic trace:
// the table has the Events column and the system's verdict line, the JSON
// the model_events_efficiency fields, and the events model's interval is longer than
// the single-failure model's (grouped failures interrupt once per event).
func TestEvaluateEvents(t *testing.T) {
	path := filepath.Join(t.TempDir(), "grouped.csv")
	mustRun(t, "trace", "synth", "--nodes", "16", "--duration", "120d", "--mttf", "2d", "--mttr", "2h",
		"--grouped-failures", "0.5", "--sizes", "3-6", "--seed", "4", "-o", path)
	args := []string{"evaluate", "--trace", path, "--apps", "qr", "--segments", "2", "--events"}
	text := mustRun(t, args...)
	for _, want := range []string{"Events (min)", "Young (min)", "grouped failures: PRESENT", "2 show grouped failures"} {
		if !strings.Contains(text, want) {
			t.Errorf("output lacks %q:\n%s", want, text)
		}
	}
	var got struct {
		Rows []struct {
			Interval            struct{ Mean float64 }       `json:"interval"`
			ModelEvents         *struct{ Mean, Min float64 } `json:"model_events_efficiency"`
			OldName             *struct{ Mean, Min float64 } `json:"model_events"`
			ModelEventsInterval *struct{ Mean float64 }      `json:"model_events_interval"`
			EventsSegments      int                          `json:"events_segments"`
			GroupedFailures     int                          `json:"grouped_failures"`
			Verdict             string                       `json:"verdict"`
		} `json:"rows"`
	}
	out := runJSON(t, &got, args...)
	requireKeys(t, out, "rows")
	if len(got.Rows) != 1 {
		t.Fatalf("%d rows, want 1", len(got.Rows))
	}
	r := got.Rows[0]
	if r.ModelEvents == nil || r.ModelEventsInterval == nil || !(r.ModelEvents.Min > 0 && r.ModelEvents.Mean <= 1) {
		t.Fatalf("model_events_efficiency %+v, want an efficiency in (0, 1]:\n%s", r.ModelEvents, out)
	}
	if r.OldName == nil || *r.OldName != *r.ModelEvents {
		t.Errorf("model_events %+v, want the alias of model_events_efficiency %+v", r.OldName, r.ModelEvents)
	}
	if r.EventsSegments != 2 || r.GroupedFailures != 2 || !strings.Contains(r.Verdict, "grouped failures: PRESENT") {
		t.Errorf("events segments %d, grouped %d, verdict %q; want 2, 2, PRESENT", r.EventsSegments, r.GroupedFailures, r.Verdict)
	}
	if !(r.ModelEventsInterval.Mean > r.Interval.Mean) {
		t.Errorf("events interval %v s, want longer than the model's %v s", r.ModelEventsInterval.Mean, r.Interval.Mean)
	}
	// Without --events: no model_events, the verdict still printed.
	plain := mustRun(t, "evaluate", "--trace", path, "--apps", "qr", "--segments", "2")
	if strings.Contains(plain, "Events (min)") || !strings.Contains(plain, "grouped failures: PRESENT") {
		t.Errorf("without --events:\n%s", plain)
	}
}

// TestTraceSynthDesktopGrid writes the desktop-grid preset and reads it
// back with trace stats: the pooled node MTTF is the mean availability
// interval, 20 h (every class shares the log-normal up law). 64 nodes over
// a year give about 18,000 up times of coefficient of variation 2.29, a
// standard error of 1.7 %: the tolerance, 8 %, is above 4 of them. The
// preset refuses the flags it sets, and an unknown preset, with exit 2.
func TestTraceSynthDesktopGrid(t *testing.T) {
	path := filepath.Join(t.TempDir(), "grid.csv")
	mustRun(t, "trace", "synth", "--preset", "desktop-grid", "--nodes", "64", "--duration", "1y", "--seed", "2", "-o", path)
	var raw struct {
		Systems []struct {
			Failure struct {
				Value float64 `json:"value"`
			} `json:"failure_rate"`
		} `json:"systems"`
	}
	out := runJSON(t, &raw, "trace", "stats", "--trace", path)
	if len(raw.Systems) != 1 {
		t.Fatalf("want one system:\n%s", out)
	}
	if mttf := 1 / raw.Systems[0].Failure.Value / 3600; math.Abs(mttf/20-1) > 0.08 {
		t.Errorf("node MTTF %.3f h, want 20 h ± 8 %%", mttf)
	}
	for _, tc := range []struct{ args, want string }{
		{"--preset desktop-grid --mttf 8h", "--mttf"},
		{"--preset desktop-grid --rate-cv 1", "--rate-cv"},
		{"--preset desktop-grid --grouped-failures 0.1", "--grouped-failures"},
		{"--preset grid", "--preset"},
		{"--preset desktop-grid --nodes 100000 --duration 100y", "--duration"},
	} {
		_, stderr, code := run(t, append([]string{"trace", "synth"}, strings.Fields(tc.args)...)...)
		if code != 2 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%s: exit %d, stderr %q; want exit 2 naming %s", tc.args, code, stderr, tc.want)
		}
	}
}
