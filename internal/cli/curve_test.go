package cli_test

import (
	"encoding/csv"
	"encoding/xml"
	"errors"
	"image"
	_ "image/png" // register the PNG decoder for image.DecodeConfig
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// curveOut holds the documented fields of markov curve --json.
type curveOut struct {
	Optimum *struct {
		Interval float64 `json:"interval"`
		UWT      float64 `json:"uwt"`
	} `json:"optimum"`
	Points []struct {
		Interval     float64 `json:"interval"`
		UWT          float64 `json:"uwt"`
		Availability float64 `json:"availability"`
		States       int     `json:"states"`
	} `json:"points"`
	Plot string `json:"plot"`
}

// TestCurveClosedForm checks every point of the curve of the
// one-processor scenario against the closed form (docs/model.md, section 7),
// and the grid: evenly spaced in log I from --from to --to.
func TestCurveClosedForm(t *testing.T) {
	path := writeFile(t, "one.json", oneScenario)
	var got curveOut
	out := runJSON(t, &got, "curve", "--scenario", path, "--from", "1m", "--to", "10h", "--points", "7")
	requireKeys(t, out, "scenario", "optimum", "points")
	if len(got.Points) != 7 {
		t.Fatalf("%d points, want 7", len(got.Points))
	}
	for k, p := range got.Points {
		want := 60 * math.Pow(600, float64(k)/6) // 1 min·(10 h/1 min)^(k/6)
		if relErr(p.Interval, want) > 1e-12 {
			t.Errorf("point %d at %v s, want %v s", k, p.Interval, want)
		}
		if a := oneAvailability(oneMTTF, p.Interval); relErr(p.UWT, oneRate*a) > 1e-9 {
			t.Errorf("UWT(%v) = %.12g, closed form %.12g", p.Interval, p.UWT, oneRate*a)
		}
	}
	wantI, wantA := oneOptimum(oneMTTF)
	if got.Optimum == nil || relErr(got.Optimum.Interval, wantI) > 1e-3 || relErr(got.Optimum.UWT, oneRate*wantA) > 1e-9 {
		t.Errorf("optimum %+v, closed form (%v, %v)", got.Optimum, wantI, oneRate*wantA)
	}
}

// TestCurveDefaultRange checks that without --from and --to the curve spans
// the optimiser's scan, on both sides of I*, and that --optimum=false needs
// both bounds.
func TestCurveDefaultRange(t *testing.T) {
	path := writeFile(t, "four.json", fourScenario)
	var got curveOut
	runJSON(t, &got, "curve", "--scenario", path, "--points", "5")
	if len(got.Points) != 5 || got.Optimum == nil {
		t.Fatalf("%d points, optimum %v", len(got.Points), got.Optimum)
	}
	first, last := got.Points[0], got.Points[len(got.Points)-1]
	if !(first.Interval < got.Optimum.Interval && got.Optimum.Interval < last.Interval) {
		t.Errorf("range [%v, %v] does not contain I* = %v", first.Interval, last.Interval, got.Optimum.Interval)
	}
	for _, p := range got.Points {
		if p.UWT > got.Optimum.UWT*(1+1e-12) {
			t.Errorf("UWT(%v) = %v above UWT* = %v", p.Interval, p.UWT, got.Optimum.UWT)
		}
	}

	var bare curveOut
	runJSON(t, &bare, "curve", "--scenario", path, "--from", "10m", "--to", "2h", "--points", "3", "--optimum=false")
	if bare.Optimum != nil || len(bare.Points) != 3 {
		t.Errorf("--optimum=false: optimum %v, %d points", bare.Optimum, len(bare.Points))
	}
	if _, errOut, code := run(t, "curve", "--scenario", path, "--optimum=false"); code != 2 || !strings.Contains(errOut, "--optimum") {
		t.Errorf("--optimum=false without a range: exit %d, %q", code, errOut)
	}
}

// TestCurvePlotAndFormats writes SVG and PNG plots and checks that they are
// valid files of their format, and that the table and CSV forms list the
// points.
func TestCurvePlotAndFormats(t *testing.T) {
	path := writeFile(t, "four.json", fourScenario)
	dir := t.TempDir()

	svg := filepath.Join(dir, "uwt.svg")
	if out := mustRun(t, "curve", "--scenario", path, "--from", "5m", "--to", "20h", "--points", "6", "--plot", svg); out != "Plot written to "+svg+"\n" {
		t.Errorf("--plot without --table printed %q, want only the plot line", out)
	}
	table := mustRun(t, "curve", "--scenario", path, "--from", "5m", "--to", "20h", "--points", "6", "--plot", svg, "--table")
	for _, want := range []string{"I*", "UWT (work/s)", "I (hours)", "Plot written to " + svg} {
		if !strings.Contains(table, want) {
			t.Errorf("--table output lacks %q:\n%s", want, table)
		}
	}
	f, err := os.Open(svg)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	dec := xml.NewDecoder(f)
	var root xml.StartElement
	for {
		tok, err := dec.Token()
		if err != nil {
			t.Fatalf("SVG does not parse as XML: %v", err)
		}
		if se, ok := tok.(xml.StartElement); ok {
			root = se
			break
		}
	}
	if root.Name.Local != "svg" {
		t.Errorf("SVG root element <%s>, want <svg>", root.Name.Local)
	}
	// Read the rest so that a malformed body fails too.
	for {
		if _, err := dec.Token(); err != nil {
			if !errors.Is(err, io.EOF) {
				t.Errorf("SVG body: %v", err)
			}
			break
		}
	}
	data, err := os.ReadFile(svg)
	if err != nil {
		t.Fatal(err)
	}
	for _, label := range []string{"checkpoint interval I (hours, log scale)", "UWT (work/s)", "I* = "} {
		if !strings.Contains(string(data), label) {
			t.Errorf("SVG lacks the label %q", label)
		}
	}

	png := filepath.Join(dir, "uwt.png")
	var got curveOut
	runJSON(t, &got, "curve", "--scenario", path, "--from", "30s", "--to", "50m", "--points", "4", "--plot", png, "--unit", "s")
	if got.Plot != png {
		t.Errorf("JSON plot %q, want %q", got.Plot, png)
	}
	pf, err := os.Open(png)
	if err != nil {
		t.Fatal(err)
	}
	defer pf.Close()
	cfg, format, err := image.DecodeConfig(pf)
	if err != nil || format != "png" || cfg.Width != 680 || cfg.Height != 416 {
		t.Errorf("PNG: format %q, %dx%d, err %v", format, cfg.Width, cfg.Height, err)
	}

	records, err := csv.NewReader(strings.NewReader(
		mustRun(t, "curve", "--scenario", path, "--from", "5m", "--to", "20h", "--points", "6", "--csv"))).ReadAll()
	if err != nil || len(records) != 7 {
		t.Fatalf("CSV: %v, %d records, want header + 6", err, len(records))
	}
	if strings.Join(records[0][:2], ",") != "interval,uwt" {
		t.Errorf("CSV header %v", records[0])
	}
	if v, _ := strconv.ParseFloat(records[1][0], 64); relErr(v, 300) > 1e-12 {
		t.Errorf("first interval %q, want 300", records[1][0])
	}

	for _, bad := range []struct {
		args []string
		flag string
	}{
		{[]string{"--plot", filepath.Join(dir, "uwt.gif")}, "--plot"},
		{[]string{"--plot", png, "--plot-size", "12x12"}, "--plot-size"},
		{[]string{"--plot", png, "--plot-size", "wide"}, "--plot-size"},
		{[]string{"--table"}, "--table"},
	} {
		_, errOut, code := run(t, append([]string{"curve", "--scenario", path}, bad.args...)...)
		if code != 2 || !strings.Contains(errOut, bad.flag) {
			t.Errorf("%v: exit %d, %q; want 2 naming %s", bad.args, code, errOut, bad.flag)
		}
	}
}
