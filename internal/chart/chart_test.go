package chart

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
)

func TestParseSize(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Size
		ok   bool
	}{
		{"1200x800", Size{1200, 800}, true},
		{"680X416", Size{680, 416}, true},
		{" 300 x 200 ", Size{300, 200}, true},
		{"1200", Size{}, false},
		{"100x800", Size{}, false},  // below minSide
		{"9000x800", Size{}, false}, // above maxSide
		{"axb", Size{}, false},
		{"-300x200", Size{}, false},
		{strings.Repeat("9", 100) + "x1", Size{}, false},
	} {
		got, err := ParseSize(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("ParseSize(%q) = %v, %v; want %v, ok %v", tc.in, got, err, tc.want, tc.ok)
		}
		if err != nil && len(err.Error()) > 120 {
			t.Errorf("ParseSize(%q): error of %d bytes quotes too much", tc.in[:10], len(err.Error()))
		}
	}
}

func TestLabel(t *testing.T) {
	for _, tc := range []struct {
		v    float64
		want string
	}{
		{0, "0"},
		{1, "1"},
		{0.25, "0.25"},
		{1.0 / 6, "0.167"},
		{100, "100"},
		{25, "25"},
		{123456, "123000"},
		{1234567, "1.23e+06"},
		{0.0004, "0.0004"},
		{-2.5, "-2.5"},
		{1e-5, "1e-05"},
	} {
		if got := Label(tc.v); got != tc.want {
			t.Errorf("Label(%v) = %q, want %q", tc.v, got, tc.want)
		}
	}
}

// labels returns the labelled ticks' labels.
func labels(ticks []plot.Tick) []string {
	var out []string
	for _, t := range ticks {
		if t.Label != "" {
			out = append(out, t.Label)
		}
	}
	return out
}

func TestLogTicks(t *testing.T) {
	for _, tc := range []struct {
		name     string
		min, max float64
		want     string
	}{
		// curve's default: 10 minutes to 8 hours, in hours.
		{"under three decades", 10.0 / 60, 8, "0.2 0.5 1 2 5"},
		{"wide", 1, 1e6, "1 10 100 1000 10000 100000 1e+06"},
		// A factor of 1.5: no 1-2-5 value twice inside, so the linear
		// ticks of the range.
		{"narrow", 2, 3, strings.Join(labels(linearTicks{}.Ticks(2, 3)), " ")},
	} {
		got := strings.Join(labels(logTicks{}.Ticks(tc.min, tc.max)), " ")
		if got != tc.want {
			t.Errorf("%s: log ticks of [%v, %v] labelled %q, want %q", tc.name, tc.min, tc.max, got, tc.want)
		}
	}
}

func TestLinearTicks(t *testing.T) {
	for _, tc := range []struct {
		min, max float64
		want     string
	}{
		{1, 16, "2 4 6 8 10 12 14 16"},
		{0, 10.7, "0 2 4 6 8 10"},
		{0, 50, "0 10 20 30 40 50"},
		{0.94, 0.99, "0.94 0.95 0.96 0.97 0.98 0.99"},
		{-3, 3, "-3 -2 -1 0 1 2 3"},
	} {
		got := strings.Join(labels(linearTicks{}.Ticks(tc.min, tc.max)), " ")
		if got != tc.want {
			t.Errorf("linear ticks of [%v, %v] labelled %q, want %q", tc.min, tc.max, got, tc.want)
		}
	}
}

func TestWrap(t *testing.T) {
	measure := func(s string) vg.Length { return vg.Length(len(s)) }
	lines, fits := wrap("UWT(I): qr on 128 processors\nMTTF 104.6d", 12, measure)
	want := []string{"UWT(I): qr", "on 128", "processors", "MTTF 104.6d"}
	if !fits || strings.Join(lines, "|") != strings.Join(want, "|") {
		t.Errorf("wrap = %q, %v; want %q, true", lines, fits, want)
	}
	if _, fits := wrap("a-very-long-word", 5, measure); fits {
		t.Error("a word wider than the width fits")
	}
}

// TestTitleFits checks that a title wider than the figure is wrapped so
// that every line fits the width given.
func TestTitleFits(t *testing.T) {
	p := plot.New()
	title := "UWT(I): qr on 128 processors, MTTF 104.6d, MTTR 56.03m, policy vector:1,2,3,4,5,6,7,8,9,10,11,12"
	width := vg.Length(300)
	setTitle(p, title, width)
	lines := strings.Split(p.Title.Text, "\n")
	if len(lines) < 2 {
		t.Fatalf("title not wrapped: %q", p.Title.Text)
	}
	for _, l := range lines {
		if w := p.Title.TextStyle.Width(l); w > width {
			t.Errorf("line %q is %v wide, more than %v", l, w, width)
		}
	}
	if got := strings.Join(strings.Fields(p.Title.Text), " "); got != title {
		t.Errorf("wrapping changed the words: %q", got)
	}
}

func sample() Figure {
	return Figure{
		Title: "A test figure whose title is long enough to need two lines at the smallest size allowed here",
		Panels: []Panel{
			{
				X: Axis{Label: "interval (hours)", Log: true}, Y: Axis{Label: "UWT", Zero: true},
				Lines: []Line{{Name: "UWT(I)", X: []float64{0.2, 1, 8}, Y: []float64{9, 10.6, 9.1}, Points: true}},
				Marks: []Mark{{X: 1, Y: 10.6, Label: "I*"}},
			},
			{
				X: Axis{Label: "policy"}, Y: Axis{Label: "efficiency"},
				Bars: &Bars{Groups: []string{"18", "19"}, Series: []BarSeries{{"model", []float64{0.99, 0.98}}, {"Young", []float64{0.97, 0.99}}}},
			},
		},
	}
}

func TestSaveFormats(t *testing.T) {
	dir := t.TempDir()
	size := Size{W: 640, H: 480}

	pngPath := filepath.Join(dir, "f.png")
	if err := sample().Save(pngPath, size); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(pngPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != size.W || b.Dy() != size.H {
		t.Errorf("PNG is %dx%d pixels, want %dx%d", b.Dx(), b.Dy(), size.W, size.H)
	}

	svgPath := filepath.Join(dir, "f.svg")
	if err := sample().Save(svgPath, size); err != nil {
		t.Fatal(err)
	}
	svg, err := os.ReadFile(svgPath)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"@font-face", "font-family:'Liberation Serif',serif;", `width="480pt"`} {
		if !bytes.Contains(svg, []byte(want)) {
			t.Errorf("SVG lacks %q", want)
		}
	}
	if bytes.Contains(svg, []byte("font-family:Liberation Serif;")) {
		t.Error("SVG names Liberation Serif without a fallback")
	}

	pdfPath := filepath.Join(dir, "f.pdf")
	if err := sample().Save(pdfPath, size); err != nil {
		t.Fatal(err)
	}
	pdf, err := os.ReadFile(pdfPath)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(pdf, []byte("%PDF")) || !bytes.Contains(pdf, []byte("FontFile")) {
		t.Error("PDF without an embedded font")
	}

	if err := sample().Save(filepath.Join(dir, "f.gif"), size); err == nil {
		t.Error("a .gif path was accepted")
	}
	bad := sample()
	bad.Panels[0].Lines[0].X[0] = -1 // on a log axis
	if err := bad.Save(filepath.Join(dir, "bad.svg"), size); err == nil {
		t.Error("a negative value on a log axis was accepted")
	}
	if _, err := os.Stat(filepath.Join(dir, "bad.svg")); !os.IsNotExist(err) {
		t.Error("a failed figure left a file")
	}
}

// TestBarsLayout checks the bar panel's room for a top-left legend (the
// value axis ends legendRoom·(series+1) of the range above the tallest
// bar) and the slanted names beyond rotateAbove groups.
func TestBarsLayout(t *testing.T) {
	for _, tc := range []struct {
		groups  int
		legend  Corner
		wantMax float64
		slanted bool
	}{
		{3, BottomLeft, 10, false},
		{3, TopLeft, 10 + legendRoom*3*10, false},
		{rotateAbove + 1, TopLeft, 10 + legendRoom*3*10, true},
	} {
		b := &Bars{Series: []BarSeries{{Name: "a"}, {Name: "b"}}}
		for g := range tc.groups {
			b.Groups = append(b.Groups, strings.Repeat("x", g+1))
			b.Series[0].Values = append(b.Series[0].Values, 10)
			b.Series[1].Values = append(b.Series[1].Values, 5)
		}
		p, err := Panel{Bars: b, Legend: tc.legend}.plot()
		if err != nil {
			t.Fatal(err)
		}
		if p.Y.Min != 0 || p.Y.Max != tc.wantMax {
			t.Errorf("%d groups, legend %v: value axis [%v, %v], want [0, %v]", tc.groups, tc.legend, p.Y.Min, p.Y.Max, tc.wantMax)
		}
		if slanted := p.X.Tick.Label.Rotation != 0; slanted != tc.slanted {
			t.Errorf("%d groups: slanted names %v, want %v", tc.groups, slanted, tc.slanted)
		}
	}
}

// TestLogAxisWidth checks that a curve on a labelled log X axis spans the
// figure's width: gonum/plot reserved room for the label's glyph box at
// the data's arithmetic midpoint (near the right end of a log axis), and
// the curve ended about 100 pixels short of the right edge of a 680-pixel
// figure.
func TestLogAxisWidth(t *testing.T) {
	x := []float64{0.001, 0.01, 0.1, 1, 10, 85}
	y := []float64{0.3, 0.8, 0.95, 0.96, 0.8, 0.3}
	for _, log := range []bool{false, true} {
		fig := Figure{Title: "t", Panels: []Panel{{
			X:     Axis{Log: log, Label: "checkpoint interval I (hours, log scale)"},
			Y:     Axis{Zero: true, Label: "UWT (work/s)"},
			Lines: []Line{{X: x, Y: y}},
		}}}
		path := filepath.Join(t.TempDir(), "f.png")
		if err := fig.Save(path, DefaultSize); err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(f)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		// The rightmost pixel of the line's blue (0, 114, 178), within
		// the anti-aliasing's tolerance.
		right := -1
		b := img.Bounds()
		for py := b.Min.Y; py < b.Max.Y; py++ {
			for px := b.Min.X; px < b.Max.X; px++ {
				r, g, bl, _ := img.At(px, py).RGBA()
				if r>>8 < 60 && g>>8 > 80 && g>>8 < 150 && bl>>8 > 150 {
					right = max(right, px)
				}
			}
		}
		if right < DefaultSize.W-20 {
			t.Errorf("log %v: the curve ends at pixel %d of %d", log, right, DefaultSize.W)
		}
	}
}

// TestLegendBoxHidesDropLine checks that the legend's box is filled: a
// mark's drop line that runs under the legend (bottom-left, the mark near
// the left edge) is hidden there, so the column of the drop line holds
// fewer red pixels than the same figure without a legend: by at least
// 10, the red part (4 of every 7 points of dash) of two legend entries'
// height being about 17 pixels here. Before the box the line crossed
// the legend's text and both counts were equal (186).
func TestLegendBoxHidesDropLine(t *testing.T) {
	redColumn := func(named bool) int {
		fig := Figure{Title: "t", Panels: []Panel{{
			X:     Axis{Label: "x"},
			Y:     Axis{Zero: true, Label: "y"},
			Lines: []Line{{X: []float64{0, 10}, Y: []float64{9, 10}}},
			Marks: []Mark{{X: 0.6, Y: 9.06}},
		}}}
		if named {
			fig.Panels[0].Lines[0].Name = "a curve with a long enough name"
			fig.Panels[0].Marks[0].Label = "a mark with a long enough name"
		}
		path := filepath.Join(t.TempDir(), "f.png")
		if err := fig.Save(path, DefaultSize); err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		img, err := png.Decode(f)
		if err != nil {
			t.Fatal(err)
		}
		// The drop line's red (200, 0, 0): the most red pixels in one
		// column.
		best := 0
		b := img.Bounds()
		for px := b.Min.X; px < b.Max.X; px++ {
			n := 0
			for py := b.Min.Y; py < b.Max.Y; py++ {
				r, g, bl, _ := img.At(px, py).RGBA()
				if r>>8 > 150 && int(r>>8)-int(g>>8) > 50 && int(r>>8)-int(bl>>8) > 50 {
					n++
				}
			}
			best = max(best, n)
		}
		return best
	}
	plain, boxed := redColumn(false), redColumn(true)
	if plain < 100 {
		t.Fatalf("the drop line has %d red pixels in its column, want a long line", plain)
	}
	if boxed > plain-10 {
		t.Errorf("drop line: %d red pixels under the legend, %d without a legend: the legend box does not hide it", boxed, plain)
	}
}
