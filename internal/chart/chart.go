package chart

import (
	"bytes"
	"errors"
	"fmt"
	"image/color"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgpdf"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/ckpt-markov/markov/internal/quote"
)

// Figure is one or more panels stacked vertically under a title.
type Figure struct {
	Title  string
	Panels []Panel
}

// Panel is one plot: lines and marks on two axes, or grouped bars.
type Panel struct {
	// Title is drawn above the panel, under the figure's title.
	Title string
	X, Y  Axis
	Lines []Line
	Marks []Mark
	// Bars, when not nil, draws grouped bars with the groups on the X axis
	// (X.Log is then ignored; names are slanted beyond four groups). With
	// the legend at TopLeft, the value axis extends above the tallest bar
	// to make room for it.
	Bars *Bars
	// Legend is the corner of the legend: choose the one the data leave
	// empty.
	Legend Corner
}

// Corner is a left corner of a panel's data area. There are no right
// corners: gonum/plot right-aligns a legend's text from the widths of its
// own font, so a renderer's substitute font would run it into the legend's
// symbols.
type Corner int

// The corners; the zero value is BottomLeft.
const (
	BottomLeft Corner = iota
	TopLeft
)

// Axis is one axis of a panel.
type Axis struct {
	Label string
	// Log draws a log scale (every value must be positive).
	Log bool
	// Zero starts a linear axis at 0 (or ends it there when every value is
	// negative).
	Zero bool
}

// Line is one series.
type Line struct {
	Name string
	X, Y []float64
	// Points marks every point.
	Points bool
	// Step draws a staircase (each value held until the next X), for
	// functions of an integer such as a rescheduling vector.
	Step bool
	// Dashed draws the line dashed.
	Dashed bool
}

// Mark is a marked point with a dashed drop line to the X axis and a
// legend entry.
type Mark struct {
	X, Y  float64
	Label string
}

// Bars are values by group (on the X axis) and series (side by side in a
// group, one colour each).
type Bars struct {
	Groups []string
	Series []BarSeries
}

// BarSeries is one colour of a bar chart: one value per group.
type BarSeries struct {
	Name   string
	Values []float64
}

// Size is a figure's size in pixels (96 per inch in SVG and PDF).
type Size struct{ W, H int }

// DefaultSize is 18 × 11 cm at 96 pixels per inch, for one panel.
var DefaultSize = Size{W: 680, H: 416}

// DefaultSizeFor is DefaultSize with 260 more pixels of height for every
// panel after the first.
func DefaultSizeFor(panels int) Size {
	return Size{W: DefaultSize.W, H: DefaultSize.H + 260*max(0, panels-1)}
}

// Size limits: a figure smaller than this cannot hold its axes; one larger
// than 8192 pixels a side (a 256 MB RGBA image) is a typo.
const (
	minSide = 200
	maxSide = 8192
)

// ParseSize reads "WxH" in pixels, such as "1200x800".
func ParseSize(s string) (Size, error) {
	w, h, ok := strings.Cut(strings.ToLower(s), "x")
	if !ok {
		return Size{}, fmt.Errorf("%s, want WIDTHxHEIGHT in pixels such as 1200x800", quote.Value(s))
	}
	var out Size
	for _, side := range []struct {
		text string
		to   *int
	}{{w, &out.W}, {h, &out.H}} {
		v, err := strconv.Atoi(strings.TrimSpace(side.text))
		if err != nil || v < minSide || v > maxSide {
			return Size{}, fmt.Errorf("%s, want WIDTHxHEIGHT in pixels, each from %d to %d", quote.Value(s), minSide, maxSide)
		}
		*side.to = v
	}
	return out, nil
}

// Formats are the file extensions Save writes.
var Formats = []string{".svg", ".png", ".pdf"}

// CheckPath reports whether path ends in one of Formats.
func CheckPath(path string) error {
	ext := strings.ToLower(filepath.Ext(path))
	for _, f := range Formats {
		if ext == f {
			return nil
		}
	}
	return fmt.Errorf("%s: want a file name ending in %s", quote.Value(path), strings.Join(Formats, ", "))
}

// pixel is one pixel at 96 per inch.
const pixel = vg.Inch / 96

// Save draws the figure at size and writes it to path in the format of its
// extension.
func (f Figure) Save(path string, size Size) error {
	if err := CheckPath(path); err != nil {
		return err
	}
	if len(f.Panels) == 0 {
		panic("chart: a figure without panels")
	}
	w, h := vg.Length(size.W)*pixel, vg.Length(size.H)*pixel
	var buf bytes.Buffer
	switch strings.ToLower(filepath.Ext(path)) {
	case ".svg":
		c := vgsvg.NewWith(vgsvg.UseWH(w, h), vgsvg.EmbedFonts(true))
		if err := f.draw(draw.New(c)); err != nil {
			return err
		}
		if _, err := c.WriteTo(&buf); err != nil {
			return fmt.Errorf("plot: %v", err)
		}
		buf = *bytes.NewBuffer(withFallbackFonts(buf.Bytes()))
	case ".png":
		c := vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(96), vgimg.UseBackgroundColor(color.White))
		if err := f.draw(draw.New(c)); err != nil {
			return err
		}
		if _, err := (vgimg.PngCanvas{Canvas: c}).WriteTo(&buf); err != nil {
			return fmt.Errorf("plot: %v", err)
		}
	case ".pdf":
		c := vgpdf.New(w, h)
		c.EmbedFonts(true)
		if err := f.draw(draw.New(c)); err != nil {
			return err
		}
		if _, err := c.WriteTo(&buf); err != nil {
			return fmt.Errorf("plot: %v", err)
		}
	}
	return writeFile(path, buf.Bytes())
}

// writeFile writes data to path through a temporary file in the same
// directory, so that a failed write never leaves half a figure.
func writeFile(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".plot-*")
	if err != nil {
		return fmt.Errorf("plot: %v", err)
	}
	_, err = io.Copy(tmp, bytes.NewReader(data))
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("plot: %v", err)
	}
	return nil
}

// withFallbackFonts adds a generic family after each Liberation family of
// an SVG, for renderers that ignore the embedded @font-face.
func withFallbackFonts(svg []byte) []byte {
	for _, r := range []struct{ family, generic string }{
		{"Liberation Serif", "serif"},
		{"Liberation Sans", "sans-serif"},
		{"Liberation Mono", "monospace"},
	} {
		svg = bytes.ReplaceAll(svg, []byte("font-family:"+r.family+";"), []byte("font-family:'"+r.family+"',"+r.generic+";"))
	}
	return svg
}

// draw lays the panels out on c, the figure's title over the first one.
func (f Figure) draw(c draw.Canvas) error {
	plots := make([][]*plot.Plot, len(f.Panels))
	logLabels := make([]string, len(f.Panels))
	for k, panel := range f.Panels {
		p, err := panel.plot()
		if err != nil {
			return err
		}
		if panel.X.Log && panel.Bars == nil && p.X.Label.Text != "" {
			// gonum/plot places the glyph box of a centred X label at
			// the data's arithmetic midpoint, near the right end of a
			// log axis, and narrows the data area to keep it inside
			// (15 % of a curve's width lost): the axis keeps the room of
			// a one-line label, a space, and the label is drawn there.
			logLabels[k] = p.X.Label.Text
			p.X.Label.Text = " "
		}
		title := panel.Title
		if k == 0 && f.Title != "" {
			title = strings.TrimSpace(f.Title + "\n" + panel.Title)
		}
		setTitle(p, title, c.Max.X-c.Min.X-2*vg.Points(6))
		plots[k] = []*plot.Plot{p}
	}
	tiles := draw.Tiles{Rows: len(plots), Cols: 1, PadX: vg.Points(4), PadY: vg.Points(10),
		PadTop: vg.Points(2), PadBottom: vg.Points(2), PadLeft: vg.Points(2), PadRight: vg.Points(6)}
	canvases := plot.Align(plots, tiles, c)
	for k := range plots {
		p, c := plots[k][0], canvases[k][0]
		p.Draw(c)
		if l := logLabels[k]; l != "" {
			sty := p.X.Label.TextStyle
			dc := p.DataCanvas(c)
			c.FillText(sty, vg.Point{X: dc.Center().X, Y: c.Min.Y + sty.FontExtents().Descent}, l)
		}
	}
	return nil
}

// fallbackWidth makes room for a renderer's substitute font. DejaVu Serif,
// librsvg's usual substitute for Liberation Serif, sets this package's
// titles 15–20 % wider (measured by rendering with rsvg-convert); allow k =
// 1.25. A centred title is placed from its Liberation width w, starting at
// (W − w)/2, so a substitute's k·w stays inside the width W when
// w ≤ W/(2k − 1): titles are wrapped as if 2k − 1 = 1.5 times wider.
const fallbackWidth = 1.5

// setTitle sets p's title, wrapped at spaces to width (with room for a
// substitute font, fallbackWidth); a word wider than that shrinks the font
// until it fits.
func setTitle(p *plot.Plot, title string, width vg.Length) {
	sty := &p.Title.TextStyle
	for {
		lines, fits := wrap(title, width, func(s string) vg.Length { return fallbackWidth * sty.Width(s) })
		if fits || sty.Font.Size <= vg.Points(6) {
			p.Title.Text = strings.Join(lines, "\n")
			return
		}
		sty.Font.Size *= 0.9
	}
}

// wrap splits text into lines no wider than width (by measure), breaking at
// spaces; explicit newlines are kept. fits is false when one word alone is
// wider than width.
func wrap(text string, width vg.Length, measure func(string) vg.Length) (lines []string, fits bool) {
	fits = true
	for _, para := range strings.Split(text, "\n") {
		line := ""
		for _, word := range strings.Fields(para) {
			if measure(word) > width {
				fits = false
			}
			switch {
			case line == "":
				line = word
			case measure(line+" "+word) <= width:
				line += " " + word
			default:
				lines = append(lines, line)
				line = word
			}
		}
		lines = append(lines, line)
	}
	return lines, fits
}

// palette are the series colours (Okabe–Ito, distinguishable with the
// common colour-vision deficiencies).
var palette = []color.Color{
	color.RGBA{0, 114, 178, 255},   // blue
	color.RGBA{213, 94, 0, 255},    // vermillion
	color.RGBA{0, 158, 115, 255},   // bluish green
	color.RGBA{204, 121, 167, 255}, // reddish purple
	color.RGBA{230, 159, 0, 255},   // orange
	color.RGBA{86, 180, 233, 255},  // sky blue
	color.RGBA{0, 0, 0, 255},       // black
}

// errEmpty reports a series without points.
var errEmpty = errors.New("plot: a series has no points")

// plot builds the gonum plot of one panel.
func (panel Panel) plot() (*plot.Plot, error) {
	p := plot.New()
	p.X.Label.Text, p.Y.Label.Text = panel.X.Label, panel.Y.Label
	p.Add(plotter.NewGrid())
	p.Legend.Top, p.Legend.Left = panel.Legend == TopLeft, true
	p.Legend.XOffs, p.Legend.YOffs = vg.Points(10), vg.Points(6)
	if p.Legend.Top {
		p.Legend.YOffs = -vg.Points(6)
	}
	if panel.Bars != nil {
		if err := panel.Bars.add(p); err != nil {
			return nil, err
		}
	} else {
		if err := panel.addLines(p); err != nil {
			return nil, err
		}
		setAxis(&p.X, panel.X)
	}
	setAxis(&p.Y, panel.Y)
	if panel.Bars != nil && panel.Legend == TopLeft {
		p.Y.Max += legendRoom * float64(len(panel.Bars.Series)+1) * (p.Y.Max - p.Y.Min)
	}
	p.Add(legendBox{&p.Legend}) // last: over the data, under the legend
	return p, nil
}

// legendBox is a plotter that fills the legend's box with the
// background, so that a line the data draw through it (a mark's drop
// line, a curve) does not cross its text. gonum/plot draws the legend
// after every plotter, on the data area before the axes' glyph padding,
// with no background of its own (and its Legend.Rectangle ignores the
// offsets and swaps left and right: only its size is used); the box
// follows Legend.Draw's layout of left-aligned entries, widened by
// boxMargin on every side for that padding.
type legendBox struct{ l *plot.Legend }

// boxMargin is the legend box's margin around its entries.
const boxMargin = 3 // points

func (b legendBox) Plot(c draw.Canvas, _ *plot.Plot) {
	l := b.l
	size := l.Rectangle(c).Size() // its placement is wrong, its size right
	if size.X <= 0 || size.Y <= 0 {
		return // no entries
	}
	x0 := c.Min.X + l.XOffs
	y0 := c.Min.Y + l.YOffs
	if l.Top {
		y0 = c.Max.Y - l.TextStyle.FontExtents().Descent + l.YOffs - size.Y
	}
	m := vg.Points(boxMargin)
	r := vg.Rectangle{Min: vg.Point{X: x0 - m, Y: y0 - m}, Max: vg.Point{X: x0 + size.X + m, Y: y0 + size.Y + m}}
	c.SetColor(color.White)
	c.Fill(r.Path())
}

// setAxis applies an axis's scale and tick labels.
func setAxis(a *plot.Axis, ax Axis) {
	if ax.Log {
		a.Scale = plot.LogScale{}
		a.Tick.Marker = logTicks{}
		return
	}
	a.Tick.Marker = linearTicks{}
	if ax.Zero {
		if a.Min > 0 {
			a.Min = 0
		}
		if a.Max < 0 {
			a.Max = 0
		}
	}
}

func (panel Panel) addLines(p *plot.Plot) error {
	for k, l := range panel.Lines {
		if len(l.X) == 0 || len(l.X) != len(l.Y) {
			return errEmpty
		}
		xys := make(plotter.XYs, len(l.X))
		for i := range xys {
			xys[i] = plotter.XY{X: l.X[i], Y: l.Y[i]}
		}
		if err := checkValues(xys, panel.X.Log, panel.Y.Log); err != nil {
			return err
		}
		line, err := plotter.NewLine(xys)
		if err != nil {
			return fmt.Errorf("plot: %v", err)
		}
		line.Color = palette[k%len(palette)]
		line.Width = vg.Points(1.2)
		if l.Step {
			line.StepStyle = plotter.PostStep
		}
		if l.Dashed {
			line.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
		}
		thumbs := []plot.Thumbnailer{line}
		p.Add(line)
		if l.Points {
			pts, err := plotter.NewScatter(xys)
			if err != nil {
				return fmt.Errorf("plot: %v", err)
			}
			pts.Color = line.Color
			pts.Radius = vg.Points(1.6)
			p.Add(pts)
			thumbs = append(thumbs, pts)
		}
		if l.Name != "" {
			p.Legend.Add(l.Name, thumbs...)
		}
	}
	for _, m := range panel.Marks {
		if err := checkValues(plotter.XYs{{X: m.X, Y: m.Y}}, panel.X.Log, panel.Y.Log); err != nil {
			return err
		}
		base := 0.0
		if panel.Y.Log {
			base = p.Y.Min // the bottom of the data; a log axis has no zero
		}
		drop, err := plotter.NewLine(plotter.XYs{{X: m.X, Y: base}, {X: m.X, Y: m.Y}})
		if err != nil {
			return fmt.Errorf("plot: %v", err)
		}
		red := color.RGBA{R: 200, A: 255}
		drop.Color = red
		drop.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
		dot, err := plotter.NewScatter(plotter.XYs{{X: m.X, Y: m.Y}})
		if err != nil {
			return fmt.Errorf("plot: %v", err)
		}
		dot.Color, dot.Radius = red, vg.Points(3)
		p.Add(drop, dot)
		if m.Label != "" {
			p.Legend.Add(m.Label, drop, dot)
		}
	}
	return nil
}

// checkValues refuses values a log axis cannot show and non-finite ones.
func checkValues(xys plotter.XYs, logX, logY bool) error {
	for _, xy := range xys {
		if math.IsNaN(xy.X) || math.IsInf(xy.X, 0) || math.IsNaN(xy.Y) || math.IsInf(xy.Y, 0) {
			return errors.New("plot: a value is not finite")
		}
		if (logX && xy.X <= 0) || (logY && xy.Y <= 0) {
			return errors.New("plot: a value on a log axis is not positive")
		}
	}
	return nil
}

// add draws grouped bars, the groups as nominal X positions.
func (b *Bars) add(p *plot.Plot) error {
	n := len(b.Series)
	if n == 0 || len(b.Groups) == 0 {
		return errEmpty
	}
	width := vg.Points(math.Max(4, math.Min(16, 240/float64(n*len(b.Groups)))))
	for k, s := range b.Series {
		if len(s.Values) != len(b.Groups) {
			panic("chart: a bar series does not have one value per group")
		}
		for _, v := range s.Values {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return errors.New("plot: a value is not finite")
			}
		}
		bars, err := plotter.NewBarChart(plotter.Values(s.Values), width)
		if err != nil {
			return fmt.Errorf("plot: %v", err)
		}
		bars.Color = palette[k%len(palette)]
		bars.LineStyle.Width = 0
		bars.Offset = vg.Length(float64(k)-float64(n-1)/2) * width
		p.Add(bars)
		p.Legend.Add(s.Name, bars)
	}
	p.NominalX(b.Groups...)
	if len(b.Groups) > rotateAbove {
		// Slanted group names, so that long ones do not run together.
		p.X.Tick.Label.Rotation = math.Pi / 6
		p.X.Tick.Label.XAlign, p.X.Tick.Label.YAlign = draw.XRight, draw.YTop
	}
	return nil
}

// rotateAbove is the number of bar groups above which their names are
// slanted.
const rotateAbove = 4

// legendRoom is the fraction of a bar panel's value range added above
// the tallest bar per legend entry (and one more), so that a top-left
// legend sits above the bars.
const legendRoom = 0.09
