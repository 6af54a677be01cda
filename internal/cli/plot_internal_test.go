package cli

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"image"
	_ "image/png" // register the PNG decoder for image.DecodeConfig
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ckpt-markov/markov/internal/chart"
	"github.com/ckpt-markov/markov/trace"
)

// plotRun runs markov with args and returns its standard output and the
// figures it saved (through figureSaved). It fails the test on a non-zero
// exit.
func plotRun(t *testing.T, args ...string) (string, []chart.Figure) {
	t.Helper()
	var figs []chart.Figure
	figureSaved = func(f chart.Figure) { figs = append(figs, f) }
	defer func() { figureSaved = nil }()
	var out, errOut bytes.Buffer
	if code := Run(args, &out, &errOut); code != 0 {
		t.Fatalf("markov %s: exit %d: %s", strings.Join(args, " "), code, errOut.String())
	}
	return out.String(), figs
}

// svgPaths reads an SVG back: it must parse as XML with an <svg> root,
// and it returns, by stroke colour, the number of vertices of each path
// (a line of n points is a path of n vertices, a point marker one path),
// and by "fill" and fill colour those of the filled paths (bars).
func svgPaths(t *testing.T, path string) map[string][]int {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dec := xml.NewDecoder(bytes.NewReader(data))
	root := ""
	out := map[string][]int{}
	stroke := regexp.MustCompile(`stroke:(#[0-9A-Fa-f]{6})`)
	fill := regexp.MustCompile(`fill:(#[0-9A-Fa-f]{6})`)
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("%s does not parse as XML: %v", path, err)
		}
		se, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		if root == "" {
			root = se.Name.Local
		}
		if se.Name.Local != "path" {
			continue
		}
		var d, style string
		for _, a := range se.Attr {
			switch a.Name.Local {
			case "d":
				d = a.Value
			case "style":
				style = a.Value
			}
		}
		if m := stroke.FindStringSubmatch(style); m != nil {
			out[strings.ToUpper(m[1])] = append(out[strings.ToUpper(m[1])], strings.Count(d, "L")+strings.Count(d, "M"))
		}
		if m := fill.FindStringSubmatch(style); m != nil {
			out["fill"+strings.ToUpper(m[1])] = append(out["fill"+strings.ToUpper(m[1])], strings.Count(d, "L")+strings.Count(d, "M"))
		}
	}
	if root != "svg" {
		t.Fatalf("%s: root element <%s>, want <svg>", path, root)
	}
	return out
}

// seriesColour is the stroke colour of the k-th line of a panel (the
// chart's palette, Okabe–Ito).
var seriesColour = []string{"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000"}

// longest is the largest vertex count of the paths of one colour: the
// line itself, longer than any marker or legend sample.
func longest(paths map[string][]int, colour string) int {
	n := 0
	for _, v := range paths[colour] {
		n = max(n, v)
	}
	return n
}

// pngSize decodes a PNG's header.
func pngSize(t *testing.T, path string) (w, h int) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cfg, format, err := image.DecodeConfig(f)
	if err != nil || format != "png" {
		t.Fatalf("%s: format %q, %v", path, format, err)
	}
	return cfg.Width, cfg.Height
}

// near reports |a − b| ≤ tol·max(|a|, |b|, 1e-300).
func near(a, b, tol float64) bool {
	return math.Abs(a-b) <= tol*math.Max(math.Max(math.Abs(a), math.Abs(b)), 1e-300)
}

// TestOptimizePlotOptimal checks optimize --policy optimal --plot: the
// staircase is the JSON's r*(n), the points the JSON's I(a) of level 3,
// the dashed line its I*, and the files read back with that many points.
func TestOptimizePlotOptimal(t *testing.T) {
	dir := t.TempDir()
	args := []string{"optimize", "--policy", "optimal", "--app", "qr", "--processors", "16", "--mttf", "2d", "--mttr", "8h"}
	svg := filepath.Join(dir, "opt.svg")
	out, figs := plotRun(t, append(args, "--json", "--plot", svg)...)
	var got struct {
		Interval         float64 `json:"interval"`
		Vector           []int   `json:"vector"`
		PerConfiguration struct {
			Intervals map[string]float64 `json:"intervals"`
		} `json:"per_configuration"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if len(figs) != 1 || len(figs[0].Panels) != 2 {
		t.Fatalf("%d figures, want one of two panels", len(figs))
	}
	steps, ivs := figs[0].Panels[0], figs[0].Panels[1]
	r := steps.Lines[0]
	if len(r.Y) != len(got.Vector) || len(got.Vector) != 16 {
		t.Fatalf("r*(n) has %d points, the JSON vector %d, want 16", len(r.Y), len(got.Vector))
	}
	for k, v := range got.Vector {
		if r.X[k] != float64(k+1) || r.Y[k] != float64(v) {
			t.Errorf("r*(%d): figure (%v, %v), JSON %d", k+1, r.X[k], r.Y[k], v)
		}
	}
	per := ivs.Lines[0]
	if len(per.X) != len(got.PerConfiguration.Intervals) || len(per.X) == 0 {
		t.Fatalf("I(a): %d points, JSON %d", len(per.X), len(got.PerConfiguration.Intervals))
	}
	// The axis is in seconds or hours: the ratio of I(a) to I* is unit-free.
	single := ivs.Lines[1]
	for k, a := range per.X {
		want, ok := got.PerConfiguration.Intervals[strconv.Itoa(int(a))]
		if !ok {
			t.Fatalf("I(%v) drawn, not in the JSON", a)
		}
		if !near(per.Y[k]/single.Y[0], want/got.Interval, 1e-12) {
			t.Errorf("I(%v)/I*: figure %v, JSON %v", a, per.Y[k]/single.Y[0], want/got.Interval)
		}
	}
	// Read back: the staircase of N steps has 2N − 1 vertices, the I(a)
	// line len(I(a)) vertices (the second panel's first colour).
	paths := svgPaths(t, svg)
	if n := longest(paths, seriesColour[0]); n != 2*16-1 {
		t.Errorf("SVG: longest blue path has %d vertices, want %d (the staircase)", n, 2*16-1)
	}
	if len(per.X) > 1 {
		// A point marker per I(a): paths of the first colour beyond the
		// two lines and two legend samples and the point sample.
		if n := len(paths[seriesColour[0]]); n < len(per.X)+2 {
			t.Errorf("SVG: %d blue paths, want at least %d", n, len(per.X)+2)
		}
	}
	png := filepath.Join(dir, "opt.png")
	plotRun(t, append(args, "--plot", png)...)
	if w, h := pngSize(t, png); w != 680 || h != 416+260 {
		t.Errorf("PNG %dx%d, want 680x676 (two panels)", w, h)
	}
}

// TestOptimizePlotLevels checks optimize --plot on a multi-level scenario:
// the best pattern's UWT(I) passes through the optimum of the JSON, the
// UWT of the best interval over V1 is nowhere above the optimum (an
// independent check of the pattern search) and equals it at the optimum's
// V1, and the SVG reads back with the lines' points.
func TestOptimizePlotLevels(t *testing.T) {
	dir := t.TempDir()
	sc := filepath.Join("..", "..", "docs", "examples", "atlas-two-level.json")
	svg := filepath.Join(dir, "levels.svg")
	out, figs := plotRun(t, "optimize", "--scenario", sc, "--json", "--plot", svg)
	var got struct {
		Interval float64 `json:"interval"`
		UWT      float64 `json:"uwt"`
		Pattern  []int   `json:"pattern"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if len(figs) != 1 || len(figs[0].Panels) != 2 || len(got.Pattern) != 1 {
		t.Fatalf("%d figures, pattern %v", len(figs), got.Pattern)
	}
	curves, over := figs[0].Panels[0], figs[0].Panels[1]
	best := curves.Lines[0]
	mid := levelsPlotPoints / 2
	if m := curves.Marks[0]; !near(m.Y, got.UWT, 1e-15) || !near(best.Y[mid], got.UWT, 1e-12) {
		t.Errorf("optimum mark %v and UWT(I*) %v, JSON UWT %v", m.Y, best.Y[mid], got.UWT)
	}
	for k, y := range best.Y {
		if y > got.UWT*(1+1e-9) {
			t.Errorf("UWT(I) of the best pattern at point %d is %v, above the optimum %v", k, y, got.UWT)
		}
	}
	line := over.Lines[0]
	for k, y := range line.Y {
		if y > got.UWT*(1+1e-9) {
			t.Errorf("V1 = %v: UWT %v above the optimum %v (the search missed a pattern)", line.X[k], y, got.UWT)
		}
		if int(line.X[k]) == got.Pattern[0] && !near(y, got.UWT, 1e-9) {
			t.Errorf("V1 = %d: UWT %v, the optimum %v", got.Pattern[0], y, got.UWT)
		}
	}
	paths := svgPaths(t, svg)
	if n := longest(paths, seriesColour[0]); n != levelsPlotPoints {
		t.Errorf("SVG: longest blue path %d vertices, want %d", n, levelsPlotPoints)
	}
	if n := longest(paths, seriesColour[1]); n < 2 {
		t.Errorf("SVG: no second pattern's line")
	}
}

// TestOptimizePlotScan checks optimize --plot with one policy: the line is
// the JSON's doubling scan and the mark its I*.
func TestOptimizePlotScan(t *testing.T) {
	dir := t.TempDir()
	png := filepath.Join(dir, "scan.png")
	out, figs := plotRun(t, "optimize", "--app", "cg", "--processors", "8", "--json", "--plot", png)
	var got struct {
		Interval float64 `json:"interval"`
		UWT      float64 `json:"uwt"`
		Scan     []struct {
			Interval float64 `json:"interval"`
			UWT      float64 `json:"uwt"`
		} `json:"scan"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if len(figs) != 1 {
		t.Fatalf("%d figures", len(figs))
	}
	p := figs[0].Panels[0]
	l := p.Lines[0]
	if len(l.X) != len(got.Scan) || len(l.X) < 3 {
		t.Fatalf("%d points, scan %d", len(l.X), len(got.Scan))
	}
	unit := got.Scan[0].Interval / l.X[0]
	for k, s := range got.Scan {
		if !near(l.X[k]*unit, s.Interval, 1e-12) || l.Y[k] != s.UWT {
			t.Errorf("point %d: (%v, %v), scan (%v, %v)", k, l.X[k]*unit, l.Y[k], s.Interval, s.UWT)
		}
	}
	if m := p.Marks[0]; !near(m.X*unit, got.Interval, 1e-12) || m.Y != got.UWT {
		t.Errorf("mark (%v, %v), I* %v, UWT %v", m.X*unit, m.Y, got.Interval, got.UWT)
	}
	if w, h := pngSize(t, png); w != 680 || h != 416 {
		t.Errorf("PNG %dx%d", w, h)
	}
}

// TestSweepMergePlot merges a grid study (processors × MTTF) and checks
// that every point of the figure is the merged table's value, one line
// per MTTF, and that the SVG reads back with those lines.
func TestSweepMergePlot(t *testing.T) {
	dir := t.TempDir()
	study := filepath.Join(dir, "grid.json")
	if err := os.WriteFile(study, []byte(`{"name": "grid", "seed": 3, "compute": ["optimize"],
 "scenarios": {"application": "cg", "processors": [8, 16, 32, 64], "mttf": ["20d", "50d", "200d"], "mttr": ["2h"]}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	res := filepath.Join(dir, "res")
	plotRun(t, "sweep", "run", study, "--out", res)
	for _, value := range []string{"uwt", "interval"} {
		svg := filepath.Join(dir, value+".svg")
		out, figs := plotRun(t, "sweep", "merge", res, "--plot", svg, "--plot-value", value)
		if !strings.HasSuffix(out, "Plot written to "+svg+"\n") || len(figs) != 1 {
			t.Fatalf("%s: printed %q, %d figures", value, out, len(figs))
		}
		data, err := os.ReadFile(filepath.Join(res, "merged.json"))
		if err != nil {
			t.Fatal(err)
		}
		var merged struct {
			Records []struct {
				Processors int     `json:"processors"`
				MTTF       float64 `json:"mttf"`
				Interval   float64 `json:"interval"`
				UWT        float64 `json:"uwt"`
			} `json:"records"`
		}
		if err := json.Unmarshal(data, &merged); err != nil {
			t.Fatal(err)
		}
		lines := figs[0].Panels[0].Lines
		if len(lines) != 3 || len(merged.Records) != 12 {
			t.Fatalf("%s: %d lines, %d records; want 3 and 12", value, len(lines), len(merged.Records))
		}
		// The lines are the MTTFs in increasing order, the x values the
		// processor counts; the interval axis is in some unit: compare
		// ratios to the first point.
		mttfs := []float64{20 * 86400, 50 * 86400, 200 * 86400}
		var first float64
		for _, r := range merged.Records {
			want := r.UWT
			if value == "interval" {
				want = r.Interval
			}
			if r.Processors == 8 && r.MTTF == mttfs[0] {
				first = want
			}
		}
		for _, r := range merged.Records {
			want := r.UWT
			if value == "interval" {
				want = r.Interval
			}
			k := slices.Index(mttfs, r.MTTF)
			l := lines[k]
			i := slices.Index(l.X, float64(r.Processors))
			if k < 0 || i < 0 {
				t.Fatalf("record N = %d, MTTF %v not drawn", r.Processors, r.MTTF)
			}
			if !near(l.Y[i]/lines[0].Y[0], want/first, 1e-12) {
				t.Errorf("%s at N = %d, MTTF %v: figure %v, table %v (relative to the first point)", value, r.Processors, r.MTTF, l.Y[i]/lines[0].Y[0], want/first)
			}
		}
		paths := svgPaths(t, svg)
		for k := range 3 {
			if n := longest(paths, seriesColour[k]); n != 4 {
				t.Errorf("%s: line %d has %d vertices in the SVG, want 4", value, k, n)
			}
		}
	}
	var out, errOut bytes.Buffer
	if code := Run([]string{"sweep", "merge", res, "--plot-value", "uwt"}, &out, &errOut); code != ExitUsage || !strings.Contains(errOut.String(), "--plot-value") {
		t.Errorf("--plot-value without --plot: exit %d, %q", code, errOut.String())
	}
}

// TestEvaluatePlot replays a synthetic trace and checks that the bars are
// the JSON's efficiencies (as work lost) and work per second, one group
// per row, and that the SVG holds a bar of each colour per group.
func TestEvaluatePlot(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(3, 1))
	const end = 400 * 86400.0
	nodes := make([]trace.Node, 8)
	for i := range nodes {
		nodes[i] = trace.Node{Start: 0, End: end}
		for tm := rng.ExpFloat64() * 20 * 86400; tm < end; {
			up := tm + rng.ExpFloat64()*6*3600
			nodes[i].Down = append(nodes[i].Down, trace.Interval{Start: tm, End: min(up, end)})
			tm = up + rng.ExpFloat64()*20*86400
		}
	}
	tr, err := trace.New(nodes)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := trace.WriteGeneric(&buf, tr); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "cluster.csv")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	svg := filepath.Join(dir, "ev.svg")
	args := []string{"evaluate", "--trace", path, "--segments", "3", "--apps", "md,cg", "--policies", "greedy,pb"}
	out, figs := plotRun(t, append(args, "--json", "--plot", svg)...)
	var got struct {
		Rows []struct {
			Efficiency      struct{ Mean float64 } `json:"efficiency"`
			YoungEfficiency struct{ Mean float64 } `json:"young_efficiency"`
			DalyEfficiency  struct{ Mean float64 } `json:"daly_efficiency"`
			UWT             struct{ Mean float64 } `json:"uwt"`
			BestUWT         struct{ Mean float64 } `json:"best_uwt"`
		} `json:"rows"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if len(figs) != 1 || len(figs[0].Panels) != 2 || len(got.Rows) != 4 {
		t.Fatalf("%d figures, %d rows", len(figs), len(got.Rows))
	}
	eff, work := figs[0].Panels[0].Bars, figs[0].Panels[1].Bars
	if len(eff.Groups) != 4 || len(eff.Series) != 3 || len(work.Series) != 2 {
		t.Fatalf("%d groups, %d and %d series", len(eff.Groups), len(eff.Series), len(work.Series))
	}
	for k, r := range got.Rows {
		for s, want := range []float64{r.Efficiency.Mean, r.YoungEfficiency.Mean, r.DalyEfficiency.Mean} {
			if !near(eff.Series[s].Values[k], 100*(1-want), 1e-12) {
				t.Errorf("row %d, %s: bar %v, JSON efficiency %v", k, eff.Series[s].Name, eff.Series[s].Values[k], want)
			}
		}
		if work.Series[0].Values[k] != r.UWT.Mean || work.Series[1].Values[k] != r.BestUWT.Mean {
			t.Errorf("row %d: work bars %v, %v; JSON %v, %v", k, work.Series[0].Values[k], work.Series[1].Values[k], r.UWT.Mean, r.BestUWT.Mean)
		}
	}
	paths := svgPaths(t, svg)
	// A bar per group and series, and one legend sample per series: the
	// first colour is in both panels.
	if n := len(paths["fill"+seriesColour[0]]); n != 2*(4+1) {
		t.Errorf("SVG: %d blue bars, want %d", n, 2*(4+1))
	}
	if n := len(paths["fill"+seriesColour[2]]); n != 4+1 {
		t.Errorf("SVG: %d green bars (Daly), want %d", n, 4+1)
	}
	png := filepath.Join(dir, "ev.png")
	plotRun(t, append(args, "--plot", png)...)
	if w, h := pngSize(t, png); w != 680 || h != 676 {
		t.Errorf("PNG %dx%d, want 680x676", w, h)
	}
}
