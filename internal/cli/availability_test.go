package cli_test

import (
	"fmt"
	stdpng "image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ckpt-markov/markov/internal/chart"
)

// availabilityOut holds the documented fields of markov availability --json.
type availabilityOut struct {
	Work   float64    `json:"work"`
	WorkOn int        `json:"work_on"`
	Best   pointOut   `json:"best"`
	Points []pointOut `json:"points"`
}

type pointOut struct {
	Processors   int     `json:"processors"`
	Interval     float64 `json:"interval"`
	Availability float64 `json:"availability"`
	UWT          float64 `json:"uwt"`
	RunTime      float64 `json:"run_time"`
}

// TestAvailabilityClosedForm checks the one-processor case, where the
// moldable model on a = 1 is the closed form of docs/model.md, section 7.
func TestAvailabilityClosedForm(t *testing.T) {
	path := writeFile(t, "one.json", oneScenario)
	var got availabilityOut
	runJSON(t, &got, "availability", "--scenario", path, "--work", "1d")
	wantI, wantA := oneOptimum(oneMTTF)
	if len(got.Points) != 1 || got.Best.Processors != 1 {
		t.Fatalf("points %+v, best %+v", got.Points, got.Best)
	}
	b := got.Best
	if relErr(b.Interval, wantI) > 1e-3 || relErr(b.Availability, wantA) > 1e-9 || relErr(b.UWT, oneRate*wantA) > 1e-9 {
		t.Errorf("best %+v, closed form I* = %v, A = %v", b, wantI, wantA)
	}
	// A job of 1 day failure-free takes 1 day / A on average (Plank &
	// Thomason; docs/model.md, section 6).
	if relErr(b.RunTime, 86400/wantA) > 1e-9 {
		t.Errorf("run time %v, want %v", b.RunTime, 86400/wantA)
	}
}

// TestAvailabilityCounts checks the moldable search on four processors:
// UWT = ω(a)·A for each count, the best is the largest UWT, and the run
// time of the job follows from its failure-free time on --work-on.
func TestAvailabilityCounts(t *testing.T) {
	path := writeFile(t, "four.json", fourScenario)
	var got availabilityOut
	out := runJSON(t, &got, "availability", "--scenario", path, "--counts", "1,3-4", "--work", "2d", "--work-on", "2")
	requireKeys(t, out, "scenario", "best", "points", "work", "work_on")
	if len(got.Points) != 3 {
		t.Fatalf("%d points, want counts 1, 3, 4", len(got.Points))
	}
	best := got.Points[0]
	for k, p := range got.Points {
		if want := []int{1, 3, 4}[k]; p.Processors != want {
			t.Errorf("point %d on %d processors, want %d", k, p.Processors, want)
		}
		rate := fourRates[p.Processors-1]
		// docs/model.md, section 6: for a moldable policy UWT = ω(a)·A.
		if relErr(p.UWT, rate*p.Availability) > 1e-12 {
			t.Errorf("a = %d: UWT %v ≠ ω(a)·A = %v", p.Processors, p.UWT, rate*p.Availability)
		}
		// The job takes 2 d on 2 processors, so 2d·ω(2)/ω(a) on a
		// processors without failures, and that divided by A with them.
		want := 2 * 86400 * fourRates[1] / rate / p.Availability
		if relErr(p.RunTime, want) > 1e-12 {
			t.Errorf("a = %d: run time %v, want %v", p.Processors, p.RunTime, want)
		}
		if !(p.Availability > 0 && p.Availability < 1) {
			t.Errorf("a = %d: availability %v outside (0, 1)", p.Processors, p.Availability)
		}
		if p.UWT > best.UWT {
			best = p
		}
	}
	if got.Best != best {
		t.Errorf("best %+v, largest UWT at %+v", got.Best, best)
	}

	table := mustRun(t, "availability", "--scenario", path, "--work", "2d")
	for _, want := range []string{"I*", "Run time", "<- best", "Best: a = "} {
		if !strings.Contains(table, want) {
			t.Errorf("table lacks %q:\n%s", want, table)
		}
	}

	for _, bad := range []struct{ flag, value string }{
		{"--counts", "0-3"}, {"--counts", "2,2"}, {"--counts", "x"}, {"--work-on", "9"},
	} {
		_, errOut, code := run(t, "availability", "--scenario", path, "--work", "1d", bad.flag, bad.value)
		if code != 2 || !strings.Contains(errOut, bad.flag) {
			t.Errorf("%s %s: exit %d, %q", bad.flag, bad.value, code, errOut)
		}
	}
}

// TestAvailabilityPlot draws I*(a) and UWT(a): the figure replaces the
// table, has two panels' default height, and carries the best count's
// label; a bad --plot-size exits 2 naming it.
func TestAvailabilityPlot(t *testing.T) {
	dir := t.TempDir()
	png := filepath.Join(dir, "a.png")
	args := []string{"availability", "-n", "8", "--mttf", "5d", "--mttr", "4h", "--counts", "1,2,4,8"}
	if out := mustRun(t, append(args, "--plot", png)...); out != "Plot written to "+png+"\n" {
		t.Errorf("--plot printed %q", out)
	}
	f, err := os.Open(png)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cfg, err := stdpng.DecodeConfig(f)
	if want := chart.DefaultSizeFor(2); err != nil || cfg.Width != want.W || cfg.Height != want.H {
		t.Errorf("PNG %dx%d (%v), want %dx%d", cfg.Width, cfg.Height, err, want.W, want.H)
	}
	var best availabilityOut
	runJSON(t, &best, append(args, "--json")...)
	svg := filepath.Join(dir, "a.svg")
	mustRun(t, append(args, "--plot", svg, "--plot-size", "900x700")...)
	data, err := os.ReadFile(svg)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"UWT (work/s)", "processors a", fmt.Sprintf("best: a = %d,", best.Best.Processors), `width="675pt"`} {
		if !strings.Contains(string(data), want) {
			t.Errorf("SVG lacks %q", want)
		}
	}
	if _, errOut, code := run(t, append(args, "--plot", svg, "--plot-size", "0x0")...); code != 2 || !strings.Contains(errOut, "--plot-size") {
		t.Errorf("--plot-size 0x0: exit %d, %q", code, errOut)
	}
}
